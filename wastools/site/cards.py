"""The site's card faces: the decks' own HTML cards, cached one by one and made on every core.

Sizing a card to its text (``render.card_fit``) measures every line with the fonts'
metrics, which is most of the site's cost. Each card's HTML is therefore kept in
``build/.cache/site-cards/`` under a key of everything ``card_view`` reads: the card code,
the variant and its parameters, the unit, its nation, its set and its abilities. A data
change remakes only the cards it touches; a cold build spreads them over the cores.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ..model import Repository, Unit
from ..render import cards as card_render
from ..variants import VARIANTS

Job = tuple[str, str, dict[str, Any]]  # unit id, variant name, parameters
_worker_repo: Repository | None = None


def card_key(repo: Repository, unit: Unit, variant: str, params: dict[str, Any]) -> str:
    from ..build import code_fingerprint

    abilities = [repr(repo.abilities.get(a.pattern)) for a in unit.abilities]
    parts = [
        code_fingerprint(),
        variant,
        sorted((k, repr(v)) for k, v in params.items()),
        repr(unit),
        repr(repo.nations.get(unit.nation)),
        repr(repo.sets.get(unit.set)),
        abilities,
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


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
    with ProcessPoolExecutor(max_workers=workers, initializer=_init, initargs=(repo,)) as pool:
        return [html for chunk in pool.map(_batch, chunks) for html in chunk]


def site_cards(
    repo: Repository, jobs: list[Job], cache: Path | None = None, workers: int = 1, prune: bool = False
) -> dict[tuple[str, str], Markup]:
    """HTML of each (unit, variant) card, from the cache where it is current. ``prune``
    (for a site of every unit) drops cached cards that no longer match any unit."""
    keys = {(u, v): card_key(repo, repo.units[u], v, p) for u, v, p in jobs}
    out: dict[tuple[str, str], Markup] = {}
    missing = []
    for unit_id, name, params in jobs:
        path = cache / f"{keys[unit_id, name]}.html" if cache else None
        if path is not None and path.is_file():
            out[unit_id, name] = Markup(path.read_text("utf-8"))
        else:
            missing.append((unit_id, name, params))
    for (unit_id, name, _params), html in zip(missing, _make(repo, missing, workers)):
        out[unit_id, name] = Markup(html)
        if cache is not None:
            _store(cache / f"{keys[unit_id, name]}.html", html)
    if prune and cache is not None and cache.is_dir():
        wanted = {f"{k}.html" for k in keys.values()}
        for old in cache.glob("*.html"):
            if old.name not in wanted:
                old.unlink(missing_ok=True)
    return out


def _store(path: Path, html: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(html)
    os.replace(name, path)
