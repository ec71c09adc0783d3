"""Command line: a thin layer that parses options, calls the library, maps errors to exit codes.

Exit codes: 0 success, 1 invalid data (or fmt --check found changes), 2 usage error.
"""

from __future__ import annotations

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
@click.pass_context
def main(ctx: click.Context, root: str | None) -> None:
    """War at Sea house-rule toolchain: unit data, variant converters, print-and-play PDFs."""
    ctx.ensure_object(dict)
    ctx.obj["root"] = root


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
    result = repository.validate(root, targets)
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
