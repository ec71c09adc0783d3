"""What ``wastools build`` runs for the site and for ``--roster``: kept here so that the
click layer only calls these (and prints what they return)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..model import Repository
from ..problems import DataError


def site_step(repo: Repository, root: Path, out: Path, selection, options) -> str:
    """Build (or keep) ``out/site``; one line for the user."""
    from . import build_site_for

    started = time.perf_counter()
    report = build_site_for(repo, root, out, selection, options)
    where = _shown(out / "site", root)
    if not report.written:
        return f"site unchanged: open {where}/index.html"
    skipped = (
        f" (left out ids that are not safe file names: {', '.join(report.skipped_ids)})" if report.skipped_ids else ""
    )
    changed = f"{report.changed} file{'' if report.changed == 1 else 's'} changed"
    seconds = time.perf_counter() - started
    return f"site: {report.pages} pages ({changed}) in {seconds:.1f} s{skipped}; open {where}/index.html"


def roster_step(repo: Repository, root: Path, out: Path, path: Path, options, limits) -> int:
    """Check a roster and build its deck; prints located problems and returns the exit code."""
    from .roster import build_roster, load_roster

    try:
        roster = load_roster(path, repo, root, limits)
    except DataError as exc:
        for problem in exc.problems:
            click.echo(str(problem))
        click.echo("the roster is invalid: nothing was built", err=True)
        return 1
    written = build_roster(repo, root, out, roster, options)
    verdict = next(c for n, _t, c in roster.checks() if n == roster.variant)
    legal = "legal" if verdict.legal else "NOT legal: " + "; ".join(verdict.problems)
    click.echo(
        f"{roster.cards} cards, {roster.points} points ({legal} under {roster.variant}); wrote "
        + ", ".join(str(_shown(out / rel, root)) for rel in written)
    )
    return 0


def _shown(path: Path, root: Path) -> Path:
    return path.relative_to(root) if path.is_relative_to(root) else path
