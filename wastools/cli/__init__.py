"""Command line: a thin layer that parses options, calls the library, maps errors to exit codes.

Exit codes: 0 success, 1 invalid data (or fmt --check found changes), 2 usage error.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..core.errors import WastoolsError
from ..core.repo_files import write_inside
from ..core.store import Store
from .common import (
    DEFAULT_SHARED,
    UNIT_TYPES,
    Name,
    check_names,
    counted,
    effective_settings,
    load_repository,
    print_problems,
    repo_root,
)

LIMITS_HELP = (
    "max_file_bytes (250000), max_depth (32), max_nodes (100000), max_messages_per_file (20), "
    "max_messages_per_kind (50), max_map_pages (150), max_map_cells (5000)"
)


class Commands(click.Group):
    """The command group that maps every ``WastoolsError`` to its lines and exit code: the one place."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except WastoolsError as exc:
            for line in exc.lines():
                click.echo(line, err=True)
            raise click.exceptions.Exit(exc.exit_code) from None


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
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

    from ..data.yamlio import DEFAULT_LIMITS

    ctx.ensure_object(dict)
    ctx.obj["root"] = root
    values = {}
    names = [f.name for f in dataclasses.fields(DEFAULT_LIMITS)]
    for item in limits:
        name, _, value = item.partition("=")
        number = int(value) if value.isascii() and value.isdigit() and len(value) <= 12 else 0
        if name not in names or number < 1:
            from ..core.suggest import did_you_mean

            raise click.BadParameter(
                f"{item!r}: expected NAME=N, N a positive whole number, NAME one of {', '.join(names)}"
                + did_you_mean(name, names),
                param_hint="--limit",
            )
        values[name] = number
    ctx.obj["limits"] = dataclasses.replace(DEFAULT_LIMITS, **values)
    _use_house_variants(root)
    if ctx.invoked_subcommand in ("build", "serve"):  # both write the manifest, dated by it
        from ..core.fingerprints import source_date

        source_date()  # a malformed SOURCE_DATE_EPOCH stops them before they start, as its convention asks


def _use_house_variants(root: str | None) -> None:
    """The repository's house variants join the registry before any option names a variant
    (and before a build forks its workers); their problems are reported where the settings are read."""
    from ..core import data_paths
    from ..data import config

    try:
        found = data_paths.find_root(Path(root) if root else Path.cwd())
    except (data_paths.RepositoryNotFound, OSError):
        return
    config.use_house_variants(found)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, dir_okay=True))
@click.option("--quiet", "-q", is_flag=True, help="Errors only: leave out warnings.")
@click.option(
    "--sources", is_flag=True, help="List every figure whose source is weak (a copy of Wikipedia, a fan wiki, a blog)."
)
@click.pass_context
def validate(ctx: click.Context, paths: tuple[str, ...], quiet: bool, sources: bool) -> None:
    """Check data files against the schemas and each other.

    One line per problem, `path:line:column: field: message`, every problem in every
    file, sorted. Warnings (such as a missing historical figure) do not fail the run.
    Checking the whole repository, figures with a weak source are counted in one line
    (`--sources` lists them); checking named files, each is listed.
    """
    from ..data import repository
    from ..data.repository.sources import is_weak_source

    root = repo_root(ctx)
    started = time.perf_counter()
    targets = _expand(paths) if paths else None
    result = repository.validate(root, targets, ctx.obj["limits"], cache=Store.for_repository(root))
    if not paths or any(Path(p).name == "wastools.toml" for p in paths):  # the settings name house variants
        from ..data import config

        result.problems = sorted(set(result.problems) | set(config.problems(root)))
    if result.repository is not None:
        from ..data.datarules import repository_problems

        result.problems += repository_problems(root, result.repository)
    shown = result.errors if quiet else result.problems
    fold = not (paths or sources)  # the whole repository: figures with a weak source in one line
    weak = [p for p in shown if fold and is_weak_source(p)]
    print_problems([p for p in shown if not (fold and is_weak_source(p))])
    if weak:
        n = len(weak)
        click.echo(
            f"warning: {n} historical {'figure cites' if n == 1 else 'figures cite'} a weak source "
            "(a copy of Wikipedia, a fan wiki, a blog): `wastools validate --sources` lists them",
            err=True,
        )
    elapsed = time.perf_counter() - started
    click.echo(
        f"checked {counted(result.files_checked, 'file')} in {elapsed:.2f} s: "
        f"{counted(len(result.errors), 'error')}, {counted(len(result.warnings), 'warning')}",
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
    from ..data.formatting import data_files, format_files

    root = repo_root(ctx)
    files = [Path(p) for p in paths] if paths else data_files(root)
    result = format_files(root, files, check)
    print_problems(result.problems)
    for name in result.changed:
        click.echo(f"{'would reformat' if check else 'reformatted'} {name}")
    if result.failure:
        click.echo(f"error: {result.failure}", err=True)
    failed = bool(result.problems or result.failure) or (check and bool(result.changed))
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
    from ..authoring.importer import run_import

    root = repo_root(ctx)
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
    from ..content.coverage import coverage_table
    from ..data import repository

    root = repo_root(ctx)
    result = repository.validate(root)
    if result.repository is None:
        print_problems(result.errors)
        ctx.exit(1)
    click.echo(coverage_table(result.repository, by))


# --- shell completion and checked names ---------------------------------------------------------


@main.command("variants")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def variants_cmd(as_json: bool) -> None:
    """List the rule variants with the --param settings `build` and `show` accept."""

    from ..content.showing import variants_json, variants_text
    from ..variants import VARIANTS

    chosen = list(VARIANTS.values())
    click.echo(json.dumps(variants_json(chosen), indent=2) if as_json else variants_text(chosen))


@main.command("config")
@click.pass_context
def config_cmd(ctx: click.Context) -> None:
    """Print the effective settings and where each came from (default, wastools.toml, command line)."""
    settings = effective_settings(ctx, {}, ())
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

    from ..content.showing import render_text
    from ..variants import VARIANTS

    repo = load_repository(ctx)
    check_names("unit", "UNIT", (unit,), repo.units)
    chosen = [VARIANTS[variant_name]] if variant_name else list(VARIANTS.values())
    settings = effective_settings(ctx, {}, params, [v.name for v in chosen])
    given = settings.params()
    adapted = [(v, v.adapt(repo.units[unit], v.resolve(given.get(v.name, {})), crippled)) for v in chosen]
    if as_json:
        docs = [a.to_json() for _v, a in adapted]
        click.echo(json.dumps(docs[0] if variant_name else docs, indent=2, ensure_ascii=False))
    else:
        click.echo("\n\n".join(render_text(a, v) for v, a in adapted))


@main.command("air-chart")
@click.option("--write", is_flag=True, help="Write docs/data/air-range-chart.md instead of printing.")
@click.pass_context
def air_chart(ctx: click.Context, write: bool) -> None:
    """Cross-check the Air Range Chart of the Large Map House Rules against the formula and sourced speeds."""
    from ..content.air_chart import render_report

    repo = load_repository(ctx)
    text = render_report(repo.units)
    if write:
        target = repo_root(ctx) / "docs" / "data" / "air-range-chart.md"
        write_inside(repo_root(ctx), target, text)
        click.echo(f"wrote {target.relative_to(repo_root(ctx))}")
    else:
        click.echo(text, nl=False)


@main.command("rules")
@click.option("--write", is_flag=True, help="Write each register into docs/variants/<name>.md.")
@click.option("--check", is_flag=True, help="Exit 1 when a doc's register table is out of date.")
@click.pass_context
def rules_cmd(ctx: click.Context, write: bool, check: bool) -> None:
    """The rules register of each variant (rules/<variant>.yaml) as the docs print it."""
    from ..data.repository import rules_register

    root = repo_root(ctx)
    problems, registers = rules_register.check(root, ctx.obj["limits"])
    if problems:
        print_problems(problems)
        ctx.exit(1)
    if write:
        written = rules_register.write_docs(root, registers)
        for path in written:
            click.echo(f"wrote {path.relative_to(root)}")
    elif check:
        stale = rules_register.stale_docs(root, registers)
        for path in stale:
            click.echo(f"{path.relative_to(root)}: rules register out of date (run `wastools rules --write`)", err=True)
        ctx.exit(1 if stale else 0)
    else:
        click.echo("\n\n".join(rules_register.markdown(r) for r in registers.values()))


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
    from ..authoring.scaffold import new_unit as make

    root = repo_root(ctx)
    path = make(root, load_repository(ctx), name, nation, unit_type, card_set, number)
    click.echo(f"wrote {path.relative_to(root)}: replace the placeholders, then run `wastools validate`")


@new.command("scenario")
@click.argument("scenario_id")
@click.option(
    "--variant",
    required=True,
    type=Name("variant"),
    help="The variant it is played in (`wastools variants` lists them).",
)
@click.option("--title", help="Title (default: from the id).")
@click.pass_context
def new_scenario(ctx, scenario_id, variant, title) -> None:
    """A small, valid scenario to edit: two sides, a map, an objective."""
    from ..authoring.scaffold import new_scenario as make

    root = repo_root(ctx)
    path = make(root, load_repository(ctx), scenario_id, variant, title)
    click.echo(
        f"wrote {path.relative_to(root)}: edit it with `wastools serve` running (its page: "
        f"scenarios/{scenario_id}.html), then print it with `wastools build --scenario {scenario_id}`"
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


from .build import build  # noqa: E402

main.add_command(build)


@main.command()
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port on 127.0.0.1 (0: any free)."
)
@click.option("--open/--no-open", "open_page", default=False, help="Open the site in the web browser once built.")
@click.pass_context
def serve(ctx: click.Context, port: int, open_page: bool) -> None:
    """Serve the site on 127.0.0.1 and build it again whenever a data file is saved.

    Open pages reload after each build; while the data has errors every page shows them, and
    a scenario's page shows its own warnings. Ctrl-C stops it.
    """
    from ..data import config
    from ..pipeline import Selection
    from ..site.serve import serve as run
    from .build import _options

    root = repo_root(ctx)

    def configure():  # read again before every build: wastools.toml may change meanwhile
        settings = config.effective(root, {})
        return Selection(tuple(settings["build.variants"])), _options(settings, 1)

    run(root, port, configure, ctx.obj["limits"], open_page)
