"""What ``wastools build`` runs for the site and for ``--roster``: kept here so that the
click layer only calls these (and prints what they return)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import click

from ..core.model import Repository
from ..core.problems import DataError

# what --roster cannot use: it prints one fleet, chosen by its file, and no maps
NOT_FOR_ROSTER = {
    "--nation": "the roster names its units",
    "--set": "the roster names its units",
    "--type": "the roster names its units",
    "--unit": "the roster names its units",
    "--name": "the deck is named after the roster file",
    "--site-only": "a roster builds a deck, not the site",
    "--colour-maps": "a roster prints cards, no maps",
}


def roster_conflicts(given: dict[str, object], variants: tuple[str, ...]) -> str | None:
    """Why the options given with --roster cannot all apply (``given``: each option's
    value, None or empty when not given), or None."""
    wrong = [
        f"{option} ({why})" for option, why in NOT_FOR_ROSTER.items() if given.get(option) not in (None, (), False)
    ]
    if len(variants) > 1:
        wrong.append(f"--variant given {len(variants)} times (a roster prints one deck: give one variant)")
    if wrong:
        return "--roster cannot take " + "; ".join(wrong)
    return None


def roster_step(
    repo: Repository,
    root: Path,
    out: Path,
    path: Path,
    options,
    limits,
    variant: str | None = None,
    tts: bool = False,
    param_variants: Iterable[str] = (),
    store=None,
) -> int:
    """Check a roster and build its deck (in ``variant``'s cards when given), and with
    ``tts`` its Tabletop Simulator saved object; prints located problems and returns the
    exit code. ``param_variants``: the variants given a --param on the command line, which
    must be the one printed. ``store``: where the card faces are kept (the repository's)."""
    from .roster import build_roster, load_roster

    try:
        roster = load_roster(path, repo, root, limits)
    except DataError as exc:
        from ..core.problems import capped

        for problem in capped(exc.problems, limits.max_messages_per_file, limits.max_messages_per_kind):
            click.echo(str(problem))
        click.echo("the roster is invalid: nothing was built", err=True)
        return 1
    printed = variant or roster.variant
    others = sorted(set(param_variants) - {printed})
    if others:
        click.echo(
            f"--roster cannot take --param {others[0]}.…: the roster prints {printed} cards "
            f"(--variant {others[0]} prints it in {others[0]}'s)",
            err=True,
        )
        return 2
    from ..core.store import Store

    store = store or Store.for_repository(root)
    written = build_roster(repo, root, out, roster, options, store, variant)
    if tts:
        from .tts import build_tts

        written += build_tts(repo, out, roster, options, store, variant)
    verdict = next(c for n, _t, c in roster.checks() if n == printed)
    legal = "legal" if verdict.legal else "NOT legal: " + "; ".join(verdict.problems)
    click.echo(
        f"{roster.cards} cards, {roster.points} points ({legal} under {printed}); wrote "
        + ", ".join(str(_shown(out / rel, root)) for rel in written)
    )
    return 0


def _shown(path: Path, root: Path) -> Path:
    return path.relative_to(root) if path.is_relative_to(root) else path
