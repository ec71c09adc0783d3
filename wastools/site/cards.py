"""The site's card faces: the decks' own HTML cards, read from the store where the build
made them, else made here and kept there.

Sizing a card to its text (``render.card_fit``) measures every line with the fonts'
metrics, which is most of the site's cost. The PDF build keeps each face's HTML in the
store (``card-html``) under the deck's own card key, so the site reads those; cards the
build did not make (the site built alone) are made here and kept under the same key.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..core.model import Repository, Unit
from ..core.store import Store
from ..render import cards as card_render
from ..variants import VARIANTS

Job = tuple[str, str, dict[str, Any]]  # unit id, variant name, parameters
HTML = "card-html"  # the store's kind for a face's HTML (as ``build.cards`` keeps it)


def card_key(repo: Repository, unit: Unit, variant: str, params: dict[str, Any], bleed: float = 0.0) -> str:
    """The deck's key of this card (``build.cards.unit_card_key``): everything ``card_view``
    reads. The face does not depend on the bleed, but the deck's key does."""
    from ..pipeline.cards import unit_card_key

    return unit_card_key(repo, VARIANTS[variant], params, unit, bleed)


def _html(repo: Repository, job: Job) -> str:
    unit_id, name, params = job
    variant = VARIANTS[name]
    return str(
        card_render.render_card_html(card_render.card_view(variant.adapt(repo.units[unit_id], params), variant, repo))
    )


def card_keys(repo: Repository, jobs: list[Job], bleed: float = 0.0) -> dict[tuple[str, str], str]:
    """The key of each (unit, variant) card: what its face is made from, so a page can be
    keyed by its cards without reading them."""
    from ..pipeline.cards import unit_card_key, unit_digest

    digests = {unit_id: unit_digest(repo, repo.units[unit_id]) for unit_id in {job[0] for job in jobs}}
    return {
        (unit_id, name): unit_card_key(repo, VARIANTS[name], params, repo.units[unit_id], bleed, digests[unit_id])
        for unit_id, name, params in jobs
    }


def site_cards(
    repo: Repository,
    jobs: list[Job],
    store: Store | None = None,
    bleed: float = 0.0,
    keys: dict[tuple[str, str], str] | None = None,
) -> dict[tuple[str, str], Markup]:
    """HTML of each (unit, variant) card: from the store where a build (whose cards have
    ``bleed``) kept it, else made here and kept. ``keys``: the cards' keys (``card_keys``)."""
    out: dict[tuple[str, str], Markup] = {}
    for unit_id, name, params in jobs:
        card = (keys or {}).get((unit_id, name)) or card_key(repo, repo.units[unit_id], name, params, bleed)
        kept = store.get(HTML, card) if store is not None else None
        html = _decoded(kept)
        if html is None:
            html = _html(repo, (unit_id, name, params))
            if store is not None:
                store.put(HTML, card, html.encode("utf-8"))
        out[unit_id, name] = Markup(html)
    return out


def _decoded(data: bytes | None) -> str | None:
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None
