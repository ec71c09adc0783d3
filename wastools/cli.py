"""Command line: a thin layer that parses options, calls the library, maps errors to exit codes.

Exit codes: 0 success, 1 invalid data (or fmt --check found changes), 2 usage error.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click

from . import __version__, data_paths, model
from .problems import Problem
from .store import Store

DEFAULT_SHARED = Path("../shared/data")
LIMITS_HELP = (
    "max_file_bytes (250000), max_depth (32), max_nodes (100000), max_messages_per_file (20), "
    "max_messages_per_kind (50), max_map_pages (150), max_map_cells (5000)"
)


def _root(ctx: click.Context) -> Path:
    given = ctx.obj.get("root")
    try:
        return data_paths.find_root(Path(given) if given else Path.cwd())
    except data_paths.RepositoryNotFound as exc:
        raise click.UsageError(str(exc)) from None


def _print_problems(problems: list[Problem]) -> None:
    """Every problem, sorted, within the limits on messages per file and per kind."""
    from .problems import capped
    from .yamlio import DEFAULT_LIMITS

    ctx = click.get_current_context(silent=True)
    limits = (ctx.find_root().obj or {}).get("limits", DEFAULT_LIMITS) if ctx else DEFAULT_LIMITS
    for problem in capped(problems, limits.max_messages_per_file, limits.max_messages_per_kind):
        click.echo(str(problem))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wastools")
@click.option(
    "--root", type=click.Path(file_okay=False), help="Data repository (default: found from the current folder)."
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=N",
    help="Defenses against hostile data (repeatable): " + LIMITS_HELP + ".",
)
@click.pass_context
def main(ctx: click.Context, root: str | None, limits: tuple[str, ...]) -> None:
    """War at Sea house-rule toolchain: unit data, variant converters, print-and-play PDFs."""
    import dataclasses

    from .yamlio import DEFAULT_LIMITS

    ctx.ensure_object(dict)
    ctx.obj["root"] = root
    values = {}
    names = [f.name for f in dataclasses.fields(DEFAULT_LIMITS)]
    for item in limits:
        name, _, value = item.partition("=")
        number = int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else 0
        if name not in names or number < 1:
            from .suggest import did_you_mean

            raise click.BadParameter(
                f"{item!r}: expected NAME=N, N a positive whole number, NAME one of {', '.join(names)}"
                + did_you_mean(name, names),
                param_hint="--limit",
            )
        values[name] = number
    ctx.obj["limits"] = dataclasses.replace(DEFAULT_LIMITS, **values)
    if ctx.invoked_subcommand == "build":
        _check_source_date()


class EnvironmentProblem(click.ClickException):
    """A setting in the environment that cannot be used: one line, exit code 2."""

    exit_code = 2


def _check_source_date() -> None:
    """A malformed SOURCE_DATE_EPOCH stops a build before it starts, as the convention asks."""
    from .fingerprints import SourceDateError, source_date

    try:
        source_date()
    except SourceDateError as exc:
        raise EnvironmentProblem(str(exc)) from None


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Errors only: leave out warnings.")
@click.pass_context
def validate(ctx: click.Context, paths: tuple[str, ...], quiet: bool) -> None:
    """Check data files against the schemas and each other.

    One line per problem, `path:line:column: field: message`, every problem in every
    file, sorted. Warnings (such as a missing historical figure) do not fail the run.
    """
    from . import repository

    root = _root(ctx)
    started = time.perf_counter()
    targets = _expand(paths) if paths else None
    result = repository.validate(root, targets, ctx.obj["limits"], cache=Store.for_repository(root))
    if result.repository is not None:
        from .datarules import repository_problems

        result.problems += repository_problems(root, result.repository)
    shown = result.errors if quiet else result.problems
    _print_problems(shown)
    elapsed = time.perf_counter() - started
    click.echo(
        f"checked {result.files_checked} files in {elapsed:.2f} s: "
        f"{len(result.errors)} errors, {len(result.warnings)} warnings",
        err=True,
    )
    ctx.exit(1 if result.errors else 0)


def _expand(paths: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for given in paths:
        path = Path(given)
        out.extend(sorted(path.rglob("*.yaml")) if path.is_dir() else [path])
    return out


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--check", is_flag=True, help="Change nothing; list files that are not in canonical form and exit 1.")
@click.pass_context
def fmt(ctx: click.Context, paths: tuple[str, ...], check: bool) -> None:
    """Rewrite data files in the one canonical layout (key order, quoting, indentation)."""
    from .formatting import data_files, format_files

    root = _root(ctx)
    files = [Path(p) for p in paths] if paths else data_files(root)
    result = format_files(root, files, check)
    _print_problems(result.problems)
    for name in result.changed:
        click.echo(f"{'would reformat' if check else 'reformatted'} {name}")
    failed = bool(result.problems) or (check and bool(result.changed))
    ctx.exit(1 if failed else 0)


@main.command("import")
@click.option(
    "--shinn16",
    type=click.Path(exists=True, dir_okay=False),
    default=str(DEFAULT_SHARED / "shinn16" / "War_at_Sea.json"),
    show_default=True,
)
@click.option(
    "--roberteliason",
    type=click.Path(exists=True, dir_okay=False),
    default=str(DEFAULT_SHARED / "roberteliason" / "units.xml"),
    show_default=True,
)
@click.option("--report-only", is_flag=True, help="Refresh docs/data/import-report.md without touching cards/.")
@click.pass_context
def import_(ctx: click.Context, shinn16: str, roberteliason: str, report_only: bool) -> None:
    """Import both public card transcriptions into cards/ and write the cross-check report.

    Existing units keep their ids and their `history` blocks.
    """
    from .importer import run_import

    root = _root(ctx)
    result = run_import(root, Path(shinn16), Path(roberteliason), write_cards=not report_only)
    click.echo(
        f"{len(result.cards)} units ({len(result.only_primary)} only in shinn16, "
        f"{len(result.only_secondary)} only in roberteliason), {len(result.disagreements)} disagreements; "
        "report: docs/data/import-report.md"
    )


@main.command()
@click.option("--by", type=click.Choice(["nation", "field", "unit"]), default="nation", show_default=True)
@click.pass_context
def coverage(ctx: click.Context, by: str) -> None:
    """How many units have the historical figures the variants need."""
    from . import repository
    from .coverage import coverage_table

    root = _root(ctx)
    result = repository.validate(root)
    if result.repository is None:
        _print_problems(result.errors)
        ctx.exit(1)
    click.echo(coverage_table(result.repository, by))


def _load_repository(ctx: click.Context):
    from . import repository

    result = repository.validate(_root(ctx), limits=ctx.obj["limits"])
    if result.repository is None:
        _print_problems(result.errors)
        click.echo("the data is invalid: run `wastools validate`", err=True)
        ctx.exit(1)
    return result.repository


# --- shell completion and checked names ---------------------------------------------------------


UNIT_TYPES = model.UNIT_TYPES


def _completion_root(ctx: click.Context) -> Path | None:
    given = ctx.find_root().params.get("root")
    try:
        return data_paths.find_root(Path(given) if given else Path.cwd())
    except data_paths.RepositoryNotFound:
        return None


def _catalogue_ids(root: Path, name: str, key: str) -> list[str]:
    from . import repository

    try:
        data = repository.read_plain(root / "cards" / name)
        return sorted(str(e["id"]) for e in data.get(key, []) if isinstance(e, dict) and "id" in e)
    except Exception:  # completion must never fail loudly
        return []


def _names(kind: str, root: Path | None) -> list[str]:
    from .variants import VARIANTS

    if kind == "variant":
        return list(VARIANTS)
    if kind == "type":
        return list(UNIT_TYPES)
    if root is None:
        return []
    if kind == "nation":
        return _catalogue_ids(root, "nations.yaml", "nations")
    if kind == "set":
        return _catalogue_ids(root, "sets.yaml", "sets")
    if kind == "scenario":
        return sorted(p.stem for p in (root / "scenarios").glob("*.yaml"))
    return sorted(p.stem for p in data_paths.unit_files(root))


class Name(click.ParamType):
    """A variant, nation, set, type or unit id: completed from the data, checked with suggestions."""

    def __init__(self, kind: str):
        self.kind = kind
        self.name = kind

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(n) for n in _names(self.kind, _completion_root(ctx)) if n.startswith(incomplete)]

    def convert(self, value, param, ctx):
        if self.kind in ("variant", "type"):
            valid = _names(self.kind, None)
            if value not in valid:
                from .suggest import unknown

                self.fail(unknown(self.kind, value, valid), param, ctx)
        return value


def _check_names(kind: str, option: str, given: tuple[str, ...], valid) -> None:
    from .suggest import unknown

    wrong = [unknown(kind, value, valid) for value in dict.fromkeys(given) if value not in valid]
    if wrong:
        raise click.BadParameter("; ".join(wrong), param_hint=f"'{option}'")


def _settings(ctx: click.Context, given: dict, pairs: tuple[str, ...], selected: list[str] | None = None):
    """Defaults < wastools.toml < command line; exits 1 on a bad settings file, 2 on a bad --param."""
    from . import config, params
    from .problems import DataError
    from .variants import ParameterError

    try:
        settings = config.effective(_root(ctx), given)
    except DataError as exc:
        _print_problems(exc.problems)
        click.echo(f"{config.CONFIG_NAME} is invalid", err=True)
        ctx.exit(1)
    try:
        cli_params = params.parse(pairs, selected if selected is not None else settings["build.variants"])
    except ParameterError as exc:
        raise click.BadParameter(str(exc), param_hint="--param") from None
    settings = config.with_params(settings, cli_params)
    if ctx.command.name == "build":  # the boards it draws must keep to the map limits
        limits = ctx.obj["limits"]
        for message in config.board_problems(settings, limits.max_map_pages, limits.max_map_cells):
            raise click.BadParameter(message, param_hint="--param or wastools.toml")
    return settings


@main.command("variants")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants_cmd(as_json: bool) -> None:
    """List the rule variants with the --param settings `build` and `show` accept."""
    import json

    from .showing import variants_json, variants_text
    from .variants import VARIANTS

    chosen = list(VARIANTS.values())
    click.echo(json.dumps(variants_json(chosen), indent=2) if as_json else variants_text(chosen))


@main.command("config")
@click.pass_context
def config_cmd(ctx: click.Context) -> None:
    """Print the effective settings and where each came from (default, wastools.toml, command line)."""
    settings = _settings(ctx, {}, ())
    click.echo("\n".join(settings.lines()))


@main.command()
@click.argument("unit", type=Name("unit"))
@click.option("--variant", "variant_name", type=Name("variant"), help="One variant (default: every variant).")
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="[VARIANT.]KEY=VALUE",
    help="Variant parameter, e.g. off-grid.leg_in=2.5; plain KEY=VALUE with --variant (repeatable).",
)
@click.option("--crippled", is_flag=True, help="Show the unit crippled.")
@click.option("--json", "as_json", is_flag=True, help="A stable JSON document (a list when several variants).")
@click.pass_context
def show(
    ctx: click.Context, unit: str, variant_name: str | None, params: tuple[str, ...], crippled: bool, as_json: bool
) -> None:
    """Show UNIT (an id) converted for a variant, with the provenance of every number."""
    import json

    from .showing import render_text
    from .variants import VARIANTS, ParameterError

    repo = _load_repository(ctx)
    _check_names("unit", "UNIT", (unit,), repo.units)
    chosen = [VARIANTS[variant_name]] if variant_name else list(VARIANTS.values())
    settings = _settings(ctx, {}, params, [v.name for v in chosen])
    given = settings.params()
    try:
        adapted = [(v, v.adapt(repo.units[unit], v.resolve(given.get(v.name, {})), crippled)) for v in chosen]
    except ParameterError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        docs = [a.to_json() for _v, a in adapted]
        click.echo(json.dumps(docs[0] if variant_name else docs, indent=2, ensure_ascii=False))
    else:
        click.echo("\n\n".join(render_text(a, v) for v, a in adapted))


@main.command("air-chart")
@click.option("--write", is_flag=True, help="Write docs/data/air-range-chart.md instead of printing.")
@click.pass_context
def air_chart(ctx: click.Context, write: bool) -> None:
    """Cross-check seed 000's Air Range Chart against the formula and sourced speeds."""
    from .air_chart import render_report

    repo = _load_repository(ctx)
    text = render_report(repo.units)
    if write:
        target = _root(ctx) / "docs" / "data" / "air-range-chart.md"
        target.write_text(text, "utf-8")
        click.echo(f"wrote {target.relative_to(_root(ctx))}")
    else:
        click.echo(text, nl=False)


@main.command("rules")
@click.option("--write", is_flag=True, help="Write each register into docs/variants/<name>.md.")
@click.option("--check", is_flag=True, help="Exit 1 when a doc's register table is out of date.")
@click.pass_context
def rules_cmd(ctx: click.Context, write: bool, check: bool) -> None:
    """The rules register of each variant (rules/<variant>.yaml) as the docs print it."""
    from .repository import rules_register

    root = _root(ctx)
    problems, registers = rules_register.check(root, ctx.obj["limits"])
    if problems:
        _print_problems(problems)
        ctx.exit(1)
    if write:
        for path in rules_register.write_docs(root, registers):
            click.echo(f"wrote {path.relative_to(root)}")
    elif check:
        stale = rules_register.stale_docs(root, registers)
        for path in stale:
            click.echo(f"{path.relative_to(root)}: rules register out of date (run `wastools rules --write`)", err=True)
        ctx.exit(1 if stale else 0)
    else:
        click.echo("\n\n".join(rules_register.markdown(r) for r in registers.values()))


@main.command()
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
    "--param",
    "params",
    multiple=True,
    metavar="[VARIANT.]KEY=VALUE",
    help="Variant parameter, e.g. off-grid.leg_in=2.5; plain KEY=VALUE with one --variant (repeatable).",
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
    from . import config
    from .slug import slugify

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
    root = _root(ctx)
    request = _Request(
        root,
        Path(out) if Path(out).is_absolute() else root / out,
        _settings(ctx, given, params),
        (nations, sets, types, units, subset_name, scenarios),
        roster,
        site_only,
        bool(variants or nations or sets or types or units or scenarios),
        bool(paper),
        jobs,
        report_path,
    )
    from .build import OutputError, PlanError

    try:
        _build(ctx, request)
    except (OutputError, PlanError) as exc:
        click.echo(f"error: {exc}", err=True)
        ctx.exit(1)


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


def _check_roster_options(roster, tts, variants, nations, sets, types, units, subset_name, site_only, colour_maps):
    """--roster with options that cannot apply to it (and --tts without it) is a usage error."""
    from .site.commands import roster_conflicts

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

    from .fingerprints import key, source_date, tool_fingerprint

    inputs = sorted((name, repr(setting.value)) for name, setting in settings.values.items())
    limits = repr(dataclasses.asdict(ctx.obj["limits"]))
    return key("stamp", tool_fingerprint(), data.fingerprint, inputs, repr(filters), limits, source_date(), out_name)


def _nothing_to_do(root: Path, out_dir: Path, store: Store, stamp: str, started: float) -> bool:
    """The last build here read the same tool, data and settings, and left every output as it
    wrote it: say so, and stop before the data is even loaded."""
    from .build.output import OutputFolder
    from .build.record import Record

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
        f"{written} files written, {unchanged} unchanged; {laid_out} cards laid out "
        f"in {time.perf_counter() - started:.1f} s; see {shown}/manifest.json"
    )


def _build(ctx, request: _Request) -> None:
    """`wastools build` once its options are checked: stop at once when nothing changed, load
    the validated model, then build (the site too, unless the command line narrowed what
    the settings ask for)."""
    from . import build as builder
    from .fingerprints import data_state

    started = time.perf_counter()
    root, out_dir, settings = request.root, request.out, request.settings
    store = Store.for_repository(root)
    data = data_state(root)
    stamp = _stamp(ctx, store.name_of(out_dir), settings, (request.filters, request.site_only), data)
    if not request.roster and _nothing_to_do(root, out_dir, store, stamp, started):
        return
    selection = builder.Selection(tuple(settings["build.variants"]), *request.filters)
    options = _options(settings, request.jobs)
    repo, validation = builder.load_repository(root, store, ctx.obj["limits"], data)
    if repo is None:
        _print_problems(validation.errors if validation else [])
        click.echo("the data is invalid: nothing was built", err=True)
        raise click.exceptions.Exit(1)
    _check_selection(repo, selection)
    if request.roster:
        from .site.commands import roster_step

        variant = ctx.params["variants"][0] if ctx.params["variants"] else None
        given = {
            n.split(".")[1]
            for n, v in settings.values.items()
            if n.startswith("params.") and v.source == "command line"
        }
        limits, tts = ctx.obj["limits"], ctx.params["tts"]
        ctx.exit(roster_step(repo, root, out_dir, Path(request.roster), options, limits, variant, tts, given, store))
    from .site import site_address, site_target

    wanted = not request.narrowed or request.site_only
    site = site_target(repo, selection, options, data.fingerprint, site_address(root)) if wanted else None
    report = builder.build(
        repo,
        root,
        out_dir,
        selection,
        options,
        progress=_progress_bar(),
        store=store,
        site=site,
        stamp=stamp,
        started=started,
        waiting=lambda message: click.echo(message, err=True),
        pdfs=not request.site_only,
        whole=not (request.narrowed or request.papers_narrowed or request.site_only),
    )
    _report(root, out_dir, report, started)
    if request.report_path:
        Path(request.report_path).write_text(json.dumps(report.to_json(), indent=2) + "\n")
    if validation is not None and validation.errors:
        _print_problems(validation.errors)
        click.echo(f"not built, because of the errors above: {', '.join(validation.blocked)}", err=True)
        ctx.exit(1)


def _check_selection(repo, selection) -> None:
    _check_names("nation", "--nation", selection.nations, repo.nations)
    _check_names("set", "--set", selection.sets, repo.sets)
    _check_names("unit", "--unit", selection.units, repo.units)
    _check_names("scenario", "--scenario", selection.scenarios, repo.extra.get("scenarios", {}))
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
    from . import build as builder
    from .render.sheets import MM, PrinterProfile

    profile = PrinterProfile(
        settings["printer.scale_x"],
        settings["printer.scale_y"],
        settings["printer.back_offset_x"] * MM,
        settings["printer.back_offset_y"] * MM,
        settings["printer.duplex_edge"],
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


@main.group()
def new() -> None:
    """Create a valid data file to start from."""


@new.command("unit")
@click.argument("name")
@click.option("--nation", required=True, help="Nation id, e.g. uk.")
@click.option(
    "--type",
    "unit_type",
    required=True,
    type=click.Choice(UNIT_TYPES),
)
@click.option("--set", "card_set", required=True, help="Set id, e.g. surface-action.")
@click.option("--number", type=int, required=True, help="Card number within the set.")
@click.pass_context
def new_unit(ctx, name, nation, unit_type, card_set, number) -> None:
    """A unit file for NAME with placeholder stats to replace with the card's."""
    from .scaffold import ScaffoldError
    from .scaffold import new_unit as make

    root = _root(ctx)
    try:
        path = make(root, _load_repository(ctx), name, nation, unit_type, card_set, number)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {path.relative_to(root)}: replace the placeholders, then run `wastools validate`")


@new.command("scenario")
@click.argument("scenario_id")
@click.option(
    "--variant",
    required=True,
    type=click.Choice(["standard", "large-map", "tabletop-cm", "hex", "off-grid", "tabletop-inches"]),
)
@click.option("--title", help="Title (default: from the id).")
@click.pass_context
def new_scenario(ctx, scenario_id, variant, title) -> None:
    """A small, valid scenario to edit: two sides, a map, an objective."""
    from .scaffold import ScaffoldError
    from .scaffold import new_scenario as make

    root = _root(ctx)
    try:
        path = make(root, _load_repository(ctx), scenario_id, variant, title)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(
        f"wrote {path.relative_to(root)}: edit it, then run `wastools validate` and `wastools build --variant "
        f"{variant}`"
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
