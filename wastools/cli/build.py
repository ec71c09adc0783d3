"""`wastools build`: options to a build request, the request to the pipeline, its outcome to one line."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from ..core import scratch
from ..core.store import Store
from .common import Name, check_names, counted, effective_settings, print_problems, repo_root


@click.command()
@click.option("--variant", "variants", multiple=True, type=Name("variant"), help="Only this variant (repeatable).")
@click.option("--nation", "nations", multiple=True, type=Name("nation"), help="Only units of this nation (repeatable).")
@click.option("--set", "sets", multiple=True, type=Name("set"), help="Only units of this set (repeatable).")
@click.option("--type", "types", multiple=True, type=Name("type"), help="Only units of this type (repeatable).")
@click.option("--unit", "units", multiple=True, type=Name("unit"), help="Only this unit id (repeatable).")
@click.option(
    "--name", "subset_name", help="File name part for a subset's decks (default: from the filters, e.g. cards-uk.pdf)."
)
@click.option(
    "--paper",
    type=click.Choice(["letter", "a4", "both"]),
    help="Paper (default: both, or [build] papers in wastools.toml).",
)
@click.option("--backs/--no-backs", default=None, help="Add a back sheet after each sheet, mirrored for duplex.")
@click.option("--bleed/--no-bleed", default=None, help="3 mm bleed round each card (6-up landscape sheets).")
@click.option(
    "--colour-maps/--no-colour-maps",
    default=None,
    help="Boards and scenario maps with a blue sea and sandy land (default: white, ink-light).",
)
@click.option("--scale-x", type=float, help="Printer correction across the page (1.01 = 1 % larger; default 1).")
@click.option("--scale-y", type=float, help="Printer correction down the page (default 1).")
@click.option("--back-offset-x", type=float, help="Back-side shift in mm, read off the calibration sheet (default 0).")
@click.option("--back-offset-y", type=float, help="Back-side shift in mm (default 0).")
@click.option(
    "--duplex-edge", type=click.Choice(["long", "short"]), help="The edge your printer flips on (default long)."
)
@click.option(
    "--landscape-turn",
    type=click.Choice(["counterclockwise", "clockwise"]),
    help="The way your printer turns landscape pages onto the paper, read off the landscape calibration sheet "
    "(default counterclockwise).",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="[VARIANT.]KEY=VALUE",
    help=(
        "Variant parameter, e.g. off-grid.leg_in=2.5; plain KEY=VALUE with one --variant (repeatable). Builds only "
        "that variant, into a folder named after the change (build/off-grid+leg-in-2.5/); a house variant in "
        "wastools.toml gives your settings a name."
    ),
)
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=os.cpu_count() or 1, show_default="all cores")
@click.option("--out", type=click.Path(file_okay=False), default="build", show_default=True)
@click.option("--site-only", is_flag=True, help="Build only the web site, build/site/ (no PDFs).")
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False),
    help="Also write what the build did (stages, seconds, counts) as JSON to this file (make bench reads it).",
)
@click.option(
    "--scenario",
    "scenarios",
    multiple=True,
    type=Name("scenario"),
    help="Build only this scenario's pack and poster (repeatable); nothing else.",
)
@click.option(
    "--roster",
    type=click.Path(exists=True, dir_okay=False),
    help="Build only the deck of a fleet roster (from the site's fleet builder), with --variant, --paper, "
    "--backs, --bleed and the printer settings.",
)
@click.option("--tts", is_flag=True, help="With --roster: also a Tabletop Simulator saved object of the fleet.")
@click.pass_context
def build(
    ctx,
    variants,
    nations,
    sets,
    types,
    units,
    subset_name,
    paper,
    backs,
    bleed,
    colour_maps,
    scale_x,
    scale_y,
    back_offset_x,
    back_offset_y,
    duplex_edge,
    landscape_turn,
    params,
    jobs,
    out,
    site_only,
    report_path,
    scenarios,
    roster,
    tts,
) -> None:
    """Build the print-and-play PDFs into build/ (only what changed is rebuilt).

    Settings not given here come from wastools.toml (see `wastools config`). A build with
    --nation/--set/--type/--unit writes its decks under names that say so (cards-uk.pdf).
    """
    from ..core.slug import slugify
    from ..data import config

    given = {
        "build.papers": (("letter", "a4") if paper == "both" else (paper,)) if paper else None,
        "build.variants": variants or None,
        "build.backs": backs,
        "build.bleed": bleed,
        "build.colour_maps": colour_maps,
        "printer.scale_x": scale_x,
        "printer.scale_y": scale_y,
        "printer.back_offset_x": back_offset_x,
        "printer.back_offset_y": back_offset_y,
        "printer.duplex_edge": duplex_edge,
        "printer.landscape_turn": landscape_turn,
    }
    for name, value in given.items():
        message = (
            config.check(name, list(value) if isinstance(value, tuple) else value) if value not in (None, ()) else None
        )
        if message:
            raise click.BadParameter(message, param_hint="--" + name.split(".")[1].replace("_", "-"))
    if roster or tts:
        _check_roster_options(roster, tts, variants, nations, sets, types, units, subset_name, site_only, colour_maps)
    if subset_name is not None and slugify(subset_name) != subset_name:
        raise click.BadParameter(
            f"{subset_name!r}: use lowercase letters, digits and hyphens, e.g. {slugify(subset_name)!r}",
            param_hint="--name",
        )
    root = repo_root(ctx)
    settings = effective_settings(ctx, given, params)
    if params and not (roster or tts):
        settings = _command_line_variants(settings)
    request = _Request(
        root,
        Path(out) if Path(out).is_absolute() else root / out,
        settings,
        (nations, sets, types, units, subset_name, scenarios),
        roster,
        site_only,
        bool(variants or nations or sets or types or units or scenarios or params),
        bool(paper),
        jobs,
        report_path,
    )
    _build(ctx, request)


@dataclasses.dataclass(frozen=True)
class _Request:
    """What `wastools build` was asked for, its options checked."""

    root: Path
    out: Path
    settings: Any
    filters: tuple  # nations, sets, types, units, the subset's name, scenarios
    roster: str | None
    site_only: bool
    narrowed: bool  # fewer variants or units than the settings: the site and aids are left alone
    papers_narrowed: bool  # fewer papers: nothing made before is removed
    jobs: int
    report_path: str | None

    @property
    def makes_site(self) -> bool:
        return not self.narrowed or self.site_only

    @property
    def whole(self) -> bool:
        """The build makes everything the settings ask for (and removes what it no longer plans)."""
        return not (self.narrowed or self.papers_narrowed or self.site_only)

    @property
    def scope(self) -> tuple:
        """What this build makes and skips, in its stamp: a narrowed build (``--variant hex``
        when the settings name only hex) reads what a plain one reads but leaves the site and
        the aids alone, so a plain build after it must not take its stamp for its own."""
        return (self.filters, self.site_only, self.makes_site, self.whole)


def _check_roster_options(roster, tts, variants, nations, sets, types, units, subset_name, site_only, colour_maps):
    """--roster with options that cannot apply to it (and --tts without it) is a usage error."""
    from ..site.commands import roster_conflicts

    if tts and not roster:
        raise click.UsageError("--tts needs --roster FILE: it exports a fleet roster to Tabletop Simulator")
    given = {
        "--nation": nations,
        "--set": sets,
        "--type": types,
        "--unit": units,
        "--name": subset_name,
        "--site-only": site_only,
        "--colour-maps": colour_maps,
    }
    problem = roster_conflicts(given, variants)
    if problem:
        raise click.UsageError(problem)


def _stamp(ctx, out_name: str, settings, filters, data) -> str:
    """The key of everything a build reads but its outputs: the tool, the data, the
    settings, filters and limits, the output folder and the date the PDFs carry."""

    import dataclasses

    from ..core.fingerprints import key, source_date, tool_fingerprint

    inputs = sorted((name, repr(setting.value)) for name, setting in settings.values.items())
    limits = repr(dataclasses.asdict(ctx.obj["limits"]))
    return key("stamp", tool_fingerprint(), data.fingerprint, inputs, repr(filters), limits, source_date(), out_name)


def _nothing_to_do(root: Path, out_dir: Path, store: Store, stamp: str, started: float) -> bool:
    """The last build here read the same tool, data and settings, and left every output as it
    wrote it: say so, and stop before the data is even loaded."""
    from ..pipeline.output import OutputFolder
    from ..pipeline.record import Record

    record = Record.read(store, out_dir)
    if record.stamp != stamp or not record.everything_current(OutputFolder(out_dir)):
        return False
    kept = sum(1 for entry in record.outputs.values() if "sha256" in entry)
    click.echo(_outcome(root, out_dir, 0, kept, 0, started))
    return True


def _outcome(root: Path, out_dir: Path, written: int, unchanged: int, laid_out: int, started: float) -> str:
    """The line every build ends with."""
    shown = out_dir.relative_to(root) if out_dir.is_relative_to(root) else out_dir
    return (
        f"{counted(written, 'file')} written, {unchanged} unchanged; {counted(laid_out, 'card')} laid out "
        f"in {time.perf_counter() - started:.1f} s; see {shown}/manifest.json"
    )


def _command_line_variants(settings):
    """``--param`` never overwrites a variant's own files: each variant it changes is built
    (alone) as a variant of its own, named after the change (``off-grid+leg-in-2.5``)."""
    from ..data.config import Setting, Settings
    from ..variants import VARIANTS, add
    from ..variants.house import command_line_variant

    changed: dict[str, dict[str, str]] = {}
    for name, setting in settings.values.items():
        if name.startswith("params.") and setting.source == "command line":
            variant, key = name.removeprefix("params.").split(".", 1)
            changed.setdefault(variant, {})[key] = str(setting.value)
    made = []
    for variant, given in sorted(changed.items()):
        own = {k: str(v) for k, v in settings.params().get(variant, {}).items()}  # wastools.toml's, then these
        made.append(command_line_variant(VARIANTS[variant], {**own, **given}))
        add(made[-1])
    values = dict(settings.values)
    values["build.variants"] = Setting([v.name for v in made], "command line")
    return Settings(values)


def _build(ctx, request: _Request) -> None:
    """`wastools build` once its options are checked: stop at once when nothing changed, load
    the validated model, then build (the site too, unless the command line narrowed what
    the settings ask for)."""
    from .. import pipeline as builder
    from ..core.fingerprints import data_state

    started = time.perf_counter()
    scratch.clear_dead()  # what a killed build left, whatever this one has to do
    root, out_dir, settings = request.root, request.out, request.settings
    store = Store.for_repository(root)
    data = data_state(root, ctx.obj["limits"].max_file_bytes)
    stamp = _stamp(ctx, store.name_of(out_dir), settings, request.scope, data)
    if not request.roster and _nothing_to_do(root, out_dir, store, stamp, started):
        return
    selection = builder.Selection(tuple(settings["build.variants"]), *request.filters)
    options = _options(settings, request.jobs)
    with scratch.build_store(store) as (store, warning), builder.Pool(options.jobs) as pool:
        if warning:
            click.echo(warning, err=True)
        if not request.roster and not request.site_only:
            # the workers load WeasyPrint while this process validates: a head or a briefing to
            # lay out then finds it loaded on whichever worker takes it (`make bench` measures the
            # one-unit edits this serves)
            pool.warm(full=True)
        try:
            _load_and_build(ctx, request, store, data, stamp, started, selection, options, pool)
        finally:
            if not warning and (late := scratch.spill_warning(store)):
                click.echo(late, err=True)


def _load_and_build(ctx, request: _Request, store, data, stamp: str, started: float, selection, options, pool) -> None:
    """The data loaded (validated) and built with ``pool``: what ``_build`` does once it knows
    something changed."""
    from .. import pipeline as builder

    root, out_dir, settings = request.root, request.out, request.settings
    repo, validation = builder.load_repository(root, store, ctx.obj["limits"], data)
    if repo is None:
        print_problems(validation.errors if validation else [])
        click.echo("the data is invalid: nothing was built", err=True)
        raise click.exceptions.Exit(1)
    _refuse_broken_scenarios(ctx, selection, validation)
    _check_selection(repo, selection)
    if request.roster:
        from ..site.commands import roster_step

        variant = ctx.params["variants"][0] if ctx.params["variants"] else None
        given = {
            n.split(".")[1]
            for n, v in settings.values.items()
            if n.startswith("params.") and v.source == "command line"
        }
        limits, tts = ctx.obj["limits"], ctx.params["tts"]
        ctx.exit(roster_step(repo, root, out_dir, Path(request.roster), options, limits, variant, tts, given, store))
    from ..site import site_address, site_target

    site = site_target(repo, selection, options, data.fingerprint, site_address(root)) if request.makes_site else None
    report = builder.build(
        repo,
        root,
        out_dir,
        selection,
        options,
        progress=_progress_bar(),
        store=store,
        site=site,
        stamp="" if validation is not None and validation.errors else stamp,  # one held back: not done
        started=started,
        waiting=lambda message: click.echo(message, err=True),
        pdfs=not request.site_only,
        whole=request.whole,
        pool=pool,
    )
    _report(root, out_dir, report, started)
    if request.report_path:
        Path(request.report_path).write_text(json.dumps(report.to_json(), indent=2) + "\n")
    if validation is not None and validation.errors:
        print_problems(validation.errors)
        click.echo(f"not built, because of the errors above: {', '.join(validation.blocked)}", err=True)
        ctx.exit(1)


def _refuse_broken_scenarios(ctx, selection, validation) -> None:
    """``--scenario ID`` naming a scenario whose file has errors shows them (exit 1), not
    'unknown scenario': the designer sees what to fix."""
    if not (selection.scenarios and validation is not None and validation.blocked):
        return
    named = {f"scenarios/{sid}.yaml" for sid in selection.scenarios}
    broken = [p for p in validation.errors if p.path in named]
    if broken:
        print_problems(broken)
        shown = ", ".join(sorted({p.path for p in broken}))
        click.echo(f"not built: {shown} has the errors above", err=True)
        ctx.exit(1)


def _check_selection(repo, selection) -> None:
    check_names("nation", "--nation", selection.nations, repo.nations)
    check_names("set", "--set", selection.sets, repo.sets)
    check_names("unit", "--unit", selection.units, repo.units)
    check_names("scenario", "--scenario", selection.scenarios, repo.scenarios)
    if not selection.scenarios and not selection.chosen_units(repo):
        raise click.UsageError(
            "the selection matches no unit: each filter narrows the one before (nation AND set AND type AND unit)"
        )


def _report(root: Path, out_dir: Path, report, started: float) -> None:
    """What a build wrote, how long it took, and each deck's text sizes."""
    shown = out_dir.relative_to(root) if out_dir.is_relative_to(root) else out_dir
    for rel in report.files:
        click.echo(f"wrote {shown}/{rel}")
    click.echo(_outcome(root, out_dir, report.written, report.unchanged, report.cards_rendered, started))
    for name, text in sorted(report.card_text.items()):
        moved = "; ".join(f"{unit} ({', '.join(abilities)})" for unit, abilities in sorted(text.moved_to_aid.items()))
        click.echo(
            f"  {name} cards: smallest text {text.smallest_pt:g} pt"
            + (f"; ability text moved to the player aid for {moved}" if moved else "; no text moved to the aid")
        )
    if report.site is not None:
        click.echo(f"site: {report.site.pages} pages; open {shown}/site/index.html")
    elif (out_dir / "site" / "index.html").is_file():
        click.echo(f"site unchanged: open {shown}/site/index.html")


def _options(settings, jobs: int):
    """The build's options from the settings (command line over wastools.toml)."""
    from .. import pipeline as builder
    from ..render.sheets import MM, PrinterProfile

    profile = PrinterProfile(
        settings["printer.scale_x"],
        settings["printer.scale_y"],
        settings["printer.back_offset_x"] * MM,
        settings["printer.back_offset_y"] * MM,
        settings["printer.duplex_edge"],
        settings["printer.landscape_turn"],
    )
    overrides = tuple(
        (variant, key, value)
        for variant, pairs in sorted(settings.params().items())
        for key, value in sorted(pairs.items())
    )
    return builder.Options(
        tuple(settings["build.papers"]),
        profile,
        settings["build.backs"],
        settings["build.bleed"],
        jobs,
        overrides,
        colour_maps=settings["build.colour_maps"],
    )


def _progress_bar():
    """One bar over all the work of a build, on a terminal only; None elsewhere."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: the build forks its workers after this
    bar = tqdm(total=0, desc="building", unit=" step", leave=False, file=sys.stderr)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()
        if done >= total and total:
            bar.close()

    return progress
