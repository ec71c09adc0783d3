"""Command line: a thin layer that parses options, calls the library, maps errors to exit codes.

Exit codes: 0 success, 1 invalid data (or fmt --check found changes), 2 usage error.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from . import __version__, repository
from .problems import Problem

DEFAULT_SHARED = Path("../shared/data")


def _root(ctx: click.Context) -> Path:
    given = ctx.obj.get("root")
    try:
        return repository.find_root(Path(given) if given else Path.cwd())
    except repository.RepositoryNotFound as exc:
        raise click.UsageError(str(exc)) from None


def _print_problems(problems: list[Problem]) -> None:
    for problem in sorted(problems):
        click.echo(str(problem))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wastools")
@click.option("--root", type=click.Path(file_okay=False), help="Data repository (default: found from the current folder).")
@click.option("--limit", "limits", multiple=True, metavar="NAME=N",
              help="Defences against hostile files: max_file_bytes (1000000), max_depth (32), max_nodes (100000).")
@click.pass_context
def main(ctx: click.Context, root: str | None, limits: tuple[str, ...]) -> None:
    """War at Sea house-rule toolchain: unit data, variant converters, print-and-play PDFs."""
    import dataclasses

    from .yamlio import DEFAULT_LIMITS

    ctx.ensure_object(dict)
    ctx.obj["root"] = root
    values = {}
    for item in limits:
        name, _, value = item.partition("=")
        if name not in {f.name for f in dataclasses.fields(DEFAULT_LIMITS)} or not value.isdigit() or int(value) < 1:
            raise click.BadParameter(f"{item!r}: expected one of max_file_bytes, max_depth, max_nodes = a positive whole number", param_hint="--limit")
        values[name] = int(value)
    ctx.obj["limits"] = dataclasses.replace(DEFAULT_LIMITS, **values)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Errors only: leave out warnings.")
@click.pass_context
def validate(ctx: click.Context, paths: tuple[str, ...], quiet: bool) -> None:
    """Check data files against the schemas and each other.

    One line per problem, `path:line:column: field: message`, every problem in every
    file, sorted. Warnings (such as a missing historical figure) do not fail the run.
    """
    root = _root(ctx)
    started = time.perf_counter()
    targets = _expand(paths) if paths else None
    result = repository.validate(root, targets, ctx.obj["limits"])
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
@click.option("--shinn16", type=click.Path(exists=True, dir_okay=False), default=str(DEFAULT_SHARED / "shinn16" / "War_at_Sea.json"), show_default=True)
@click.option("--roberteliason", type=click.Path(exists=True, dir_okay=False), default=str(DEFAULT_SHARED / "roberteliason" / "units.xml"), show_default=True)
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
    from .coverage import coverage_table

    root = _root(ctx)
    result = repository.validate(root)
    if result.repository is None:
        _print_problems(result.errors)
        ctx.exit(1)
    click.echo(coverage_table(result.repository, by))


def _params(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r}: expected key=value", param_hint="--param")
        out[key.strip()] = value.strip()
    return out


def _load_repository(ctx: click.Context):
    result = repository.validate(_root(ctx), limits=ctx.obj["limits"])
    if result.repository is None:
        _print_problems(result.errors)
        click.echo("the data is invalid: run `wastools validate`", err=True)
        ctx.exit(1)
    return result.repository


@main.command("variants")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants_cmd(as_json: bool) -> None:
    """List the rule variants with their parameters and defaults."""
    import json

    from .showing import variants_json, variants_text
    from .variants import VARIANTS

    chosen = list(VARIANTS.values())
    click.echo(json.dumps(variants_json(chosen), indent=2) if as_json else variants_text(chosen))


@main.command()
@click.argument("unit")
@click.option("--variant", "variant_name", help="One variant (default: every variant).")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE", help="Variant parameter; repeatable.")
@click.option("--crippled", is_flag=True, help="Show the unit crippled.")
@click.option("--json", "as_json", is_flag=True, help="A stable JSON document (a list when several variants).")
@click.pass_context
def show(ctx: click.Context, unit: str, variant_name: str | None, params: tuple[str, ...], crippled: bool, as_json: bool) -> None:
    """Show UNIT (an id) converted for a variant, with the provenance of every number."""
    import json

    from .showing import render_text
    from .variants import VARIANTS, ParameterError, get

    repo = _load_repository(ctx)
    if unit not in repo.units:
        close = [u for u in repo.units if unit.lower() in u][:5]
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise click.BadParameter(f"no unit with id {unit!r}{hint}", param_hint="UNIT")
    try:
        chosen = [get(variant_name)] if variant_name else list(VARIANTS.values())
        given = _params(params)
        if given and not variant_name:
            raise ParameterError("--param needs --variant")
        adapted = [(v, v.adapt(repo.units[unit], v.resolve(given), crippled)) for v in chosen]
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
    from . import rules_register

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
@click.option("--variant", "variants", multiple=True, help="Only this variant (repeatable).")
@click.option("--nation", "nations", multiple=True, help="Only units of this nation (repeatable).")
@click.option("--set", "sets", multiple=True, help="Only units of this set (repeatable).")
@click.option("--type", "types", multiple=True, help="Only units of this type (repeatable).")
@click.option("--unit", "units", multiple=True, help="Only this unit id (repeatable).")
@click.option("--paper", type=click.Choice(["letter", "a4", "both"]), default="both", show_default=True)
@click.option("--backs", is_flag=True, help="Add a back sheet after each sheet, mirrored for long-edge duplex.")
@click.option("--bleed", is_flag=True, help="3 mm bleed round each card (6-up landscape sheets).")
@click.option("--scale-x", type=float, default=1.0, show_default=True, help="Printer correction across the page (1.01 = 1 % larger).")
@click.option("--scale-y", type=float, default=1.0, show_default=True, help="Printer correction down the page.")
@click.option("--back-offset-x", type=float, default=0.0, show_default=True, help="Back-side shift in mm, read off the calibration sheet.")
@click.option("--back-offset-y", type=float, default=0.0, show_default=True, help="Back-side shift in mm.")
@click.option("--param", "params", multiple=True, metavar="VARIANT.KEY=VALUE", help="Variant parameter, e.g. off-grid.leg_in=2.5 (repeatable).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=os.cpu_count() or 1, show_default="all cores")
@click.option("--out", type=click.Path(file_okay=False), default="build", show_default=True)
@click.option("--site-only", is_flag=True, help="Build only the web site, build/site/ (no PDFs).")
@click.option("--roster", type=click.Path(exists=True, dir_okay=False), help="Build only the deck of a fleet roster (from the site's fleet builder).")
@click.pass_context
def build(ctx, variants, nations, sets, types, units, paper, backs, bleed, scale_x, scale_y, back_offset_x, back_offset_y, params, jobs, out, site_only, roster) -> None:
    """Build the print-and-play PDFs into build/ (only what changed is rebuilt)."""
    from tqdm import tqdm

    from . import build as builder
    from .render.sheets import MM, PrinterProfile
    from .variants import VARIANTS, ParameterError

    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise click.BadParameter(f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)})", param_hint="--variant")
    if not (0.5 <= scale_x <= 1.5 and 0.5 <= scale_y <= 1.5):
        raise click.BadParameter("printer scale corrections must lie between 0.5 and 1.5", param_hint="--scale-x/--scale-y")
    root = _root(ctx)
    out_dir = Path(out) if Path(out).is_absolute() else root / out
    started = time.perf_counter()
    repo, validation = builder.load_repository(root, out_dir, ctx.obj["limits"])
    loaded = time.perf_counter()
    if repo is None:
        _print_problems(validation.errors)
        click.echo("the data is invalid: nothing was built", err=True)
        ctx.exit(1)
    selection = builder.Selection(variants, nations, sets, types, units)
    if not selection.chosen_units(repo):
        raise click.UsageError("the selection matches no unit")
    profile = PrinterProfile(scale_x, scale_y, back_offset_x * MM, back_offset_y * MM)
    overrides = []
    for key, value in _params(params).items():
        variant_name, dot, name = key.partition(".")
        if not dot or variant_name not in VARIANTS:
            raise click.BadParameter(f"{key!r}: expected VARIANT.KEY=VALUE with a known variant", param_hint="--param")
        overrides.append((variant_name, name, value))
    options = builder.Options(("letter", "a4") if paper == "both" else (paper,), profile, backs, bleed, jobs, tuple(overrides))
    try:
        for variant in VARIANTS.values():
            options.variant_params(variant)
    except ParameterError as exc:
        raise click.BadParameter(str(exc), param_hint="--param") from None
    from .site.commands import roster_step, site_step

    if roster:
        ctx.exit(roster_step(repo, root, out_dir, Path(roster), options, ctx.obj["limits"]))
    if site_only:
        click.echo(site_step(repo, root, out_dir, selection, options))
        return
    bar = tqdm(total=0, unit="card", desc="laying out cards", disable=None, leave=False)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    report = builder.build(repo, root, out_dir, selection, options, progress, load_seconds=loaded - started)
    bar.close()
    shown = out_dir.relative_to(root) if out_dir.is_relative_to(root) else out_dir
    click.echo(
        f"{report.written} files written, {report.unchanged} unchanged; {report.cards_rendered} cards laid out "
        f"in {time.perf_counter() - started:.1f} s; see {shown}/manifest.json"
    )
    for name, text in sorted(report.card_text.items()):
        moved = "; ".join(f"{unit} ({', '.join(abilities)})" for unit, abilities in sorted(text.moved_to_aid.items()))
        click.echo(f"  {name} cards: smallest text {text.smallest_pt:g} pt"
                   + (f"; ability text moved to the player aid for {moved}" if moved else "; no text moved to the aid"))
    click.echo(site_step(repo, root, out_dir, selection, options))


@main.group()
def new() -> None:
    """Create a valid data file to start from."""


@new.command("unit")
@click.argument("name")
@click.option("--nation", required=True, help="Nation id, e.g. uk.")
@click.option("--type", "unit_type", required=True, type=click.Choice(["battleship", "carrier", "cruiser", "destroyer", "torpedo-boat", "auxiliary", "submarine", "fighter", "dive-bomber", "torpedo-bomber", "patrol-bomber"]))
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
@click.option("--variant", required=True, type=click.Choice(["standard", "large-map", "tabletop-cm", "hex", "off-grid", "tabletop-inches"]))
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
    click.echo(f"wrote {path.relative_to(root)}: edit it, then run `wastools validate` and `wastools build --variant {variant}`")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
