"""The site's card faces: the decks' own HTML cards, reused from the build or made on every core.

Sizing a card to its text (``render.card_fit``) measures every line with the fonts'
metrics, which is most of the site's cost. The PDF build already sized every card it laid
out and keeps its face beside the cached PDF (``build/.cache/cards/<key>.html``, under the
deck's own card key), so the site reads those. Cards the build did not make (the site
built alone, or the base card of a build without the standard deck) are kept in
``build/.cache/site-cards/`` under the same kind of key: a data change remakes only the
cards it touches, and a cold build spreads them over the cores.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..cache_entry import write_entry
from ..cache_prune import prune_folder
from ..model import Repository, Unit
from ..render import cards as card_render
from ..variants import VARIANTS

Job = tuple[str, str, dict[str, Any]]  # unit id, variant name, parameters
_worker_repo: Repository | None = None


def card_key(repo: Repository, unit: Unit, variant: str, params: dict[str, Any], bleed: float = 0.0) -> str:
    """The deck's key of this card (``wastools.build.unit_card_key``): everything ``card_view``
    reads. The face does not depend on the bleed, but the deck's key does."""
    from ..build import unit_card_key

    return unit_card_key(repo, VARIANTS[variant], params, unit, bleed)


def _html(repo: Repository, job: Job) -> str:
    unit_id, name, params = job
    variant = VARIANTS[name]
    return str(
        card_render.render_card_html(card_render.card_view(variant.adapt(repo.units[unit_id], params), variant, repo))
    )


def _init(repo: Repository) -> None:
    global _worker_repo
    _worker_repo = repo


def _batch(jobs: list[Job]) -> list[str]:
    assert _worker_repo is not None
    return [_html(_worker_repo, job) for job in jobs]


def _make(repo: Repository, jobs: list[Job], workers: int) -> list[str]:
    if workers <= 1 or len(jobs) < 50:
        return [_html(repo, job) for job in jobs]
    size = max(1, len(jobs) // (workers * 4))
    chunks = [jobs[i : i + size] for i in range(0, len(jobs), size)]
    # spawned, not forked: the build runs the site on a thread, and forking a process that
    # has threads can copy a lock held by another thread
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, initializer=_init, initargs=(repo,), mp_context=spawn) as pool:
        return [html for chunk in pool.map(_batch, chunks) for html in chunk]


def card_keys(repo: Repository, jobs: list[Job]) -> dict[tuple[str, str], str]:
    """The key of each (unit, variant) card: what its face is made from, so a page can be
    keyed by its cards without reading them."""
    return {(unit_id, name): card_key(repo, repo.units[unit_id], name, params) for unit_id, name, params in jobs}


def site_cards(
    repo: Repository,
    jobs: list[Job],
    cache: Path | None = None,
    workers: int = 1,
    prune: bool = False,
    decks: tuple[Path, float] | None = None,
    keys: dict[tuple[str, str], str] | None = None,
) -> dict[tuple[str, str], Markup]:
    """HTML of each (unit, variant) card: from the build's card cache ``decks`` (its folder
    and the bleed its keys were made with) where the build made it, else from ``cache``
    where current, else made on ``workers`` processes and kept in ``cache``. ``prune``
    (for a site of every unit) drops cached cards that no longer match any unit. ``keys``:
    the cards' keys (``card_keys``) when known."""
    out: dict[tuple[str, str], Markup] = {}
    keys = dict(keys) if keys is not None else {}
    missing = []
    for unit_id, name, params in jobs:
        unit = repo.units[unit_id]
        key = keys.get((unit_id, name)) or card_key(repo, unit, name, params)
        keys[unit_id, name] = key
        found = [cache / f"{key}.html"] if cache else []
        if decks is not None:
            found.insert(0, decks[0] / f"{card_key(repo, unit, name, params, decks[1])}.html")
        html = next((_read(path) for path in found if path.is_file()), None)
        if html is None:
            missing.append((unit_id, name, params))
        else:
            out[unit_id, name] = Markup(html)
    for (unit_id, name, _params), html in zip(missing, _make(repo, missing, workers), strict=True):
        out[unit_id, name] = Markup(html)
        if cache is not None:
            _store(cache / f"{keys[unit_id, name]}.html", html)
    if prune and cache is not None:
        prune_folder(cache, keys.values())
    return out


def _read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):  # removed meanwhile or damaged: made again
        return None


def _store(path: Path, html: str) -> None:
    write_entry(path, html.encode("utf-8"))
