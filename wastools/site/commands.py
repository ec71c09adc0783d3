"""What ``wastools build --roster`` runs: kept here so that the click layer only calls it."""

from __future__ import annotations

from pathlib import Path

import click

from ..model import Repository
from ..problems import DataError


def roster_step(repo: Repository, root: Path, out: Path, path: Path, options, limits, store) -> int:
    """Check a roster and build its deck; prints located problems and returns the exit code."""
    from .roster import build_roster, load_roster

    try:
        roster = load_roster(path, repo, root, limits)
    except DataError as exc:
        for problem in exc.problems:
            click.echo(str(problem))
        click.echo("the roster is invalid: nothing was built", err=True)
        return 1
    written = build_roster(repo, out, roster, options, store)
    verdict = next(c for n, _t, c in roster.checks() if n == roster.variant)
    legal = "legal" if verdict.legal else "NOT legal: " + "; ".join(verdict.problems)
    click.echo(
        f"{roster.cards} cards, {roster.points} points ({legal} under {roster.variant}); wrote "
        + ", ".join(str(_shown(out / rel, root)) for rel in written)
    )
    return 0


def _shown(path: Path, root: Path) -> Path:
    return path.relative_to(root) if path.is_relative_to(root) else path
