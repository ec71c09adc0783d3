"""Card faces: each keyed by everything it shows, made once on the pool and kept in the store.

A face is kept as three entries under its key: ``face`` (its one-page PDF), ``card-html``
(what the site shows) and ``card-meta`` (what the build report and the player aid need of
it: its text size, the ability texts moved to the aid). Decks and packs are made from the
faces by key; a deck's sheets are kept under the keys of the cards they hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from ..core.fingerprints import code_fingerprint, key
from ..core.model import Repository, Unit
from ..core.store import Store
from ..render import card_fit
from ..render import cards as card_render
from ..variants import Variant

BATCH = 24  # cards per WeasyPrint document: amortises style and font set-up
FACE, HTML, META = "face", "card-html", "card-meta"


@dataclass(frozen=True)
class CardSpec:
    """A card's key and how to make its sized view (or its HTML, for a back) when it is not
    in the store, given the largest body size it may take (``body_max``: the sheet's, see
    ``one_size_a_sheet``); the unit it shows, if any (a unit's cards share a head)."""

    key: str
    view: Callable[[float], Any]
    unit: str = ""
    bleed: float = 0.0
    body_max: float = card_fit.MAX_PT


def unit_digest(repo: Repository, unit: Unit) -> str:
    """The unit and the catalogue entries its cards show (nation, set, abilities)."""
    catalogue = (
        repr(repo.nations.get(unit.nation)),
        repr(repo.sets.get(unit.set)),
        [repr(repo.abilities.get(a.pattern)) for a in unit.abilities],
    )
    return key(repr(unit), catalogue)


def unit_card_key(repo: Repository, variant: Variant, params: dict, unit: Unit, bleed: float, digest: str = "") -> str:
    """Everything a unit's card face depends on: the tool, the variant and its parameters, the
    unit and its catalogue entries."""
    return key(code_fingerprint(), "card", variant.name, params, bleed, digest or unit_digest(repo, unit))


def fixed_card(html: str, bleed: float) -> CardSpec:
    return CardSpec(key(code_fingerprint(), bleed, str(html)), partial(_made, str(html)), bleed=bleed)


def _made(view: Any, _body_max: float) -> Any:
    """A view (or a back's HTML) made already, whatever the size asked."""
    return view


def _unit_view(repo: Repository, variant: Variant, params: dict, unit: Unit, body_max: float):
    return card_render.card_view(variant.adapt(unit, params), variant, repo, body_max)


def _stat_block_card(block: Any, variant: Variant, bleed: float) -> CardSpec:
    html = str(card_render.render_card_html(card_render.statblock_view(block, variant)))
    view = partial(card_render.statblock_view, block, variant)
    return CardSpec(key(code_fingerprint(), bleed, html), view, bleed=bleed)


SIZE = "card-body-size"  # the store's kind for a card's largest body size, by its key


def one_size_a_sheet(store: Store, specs: list[CardSpec], per_sheet: int) -> list[CardSpec]:
    """``specs`` with every sheet of ``per_sheet`` cards at one body size: the largest each
    card of the sheet fits at, so neighbours read alike. A card that would be larger alone
    gets a key of its own (its face is laid out at the sheet's size); the others keep theirs.
    Each card's own largest size is kept in the store by its key (worked out where missing:
    its view, without a layout, which is then the view laid out)."""
    measured = [_own_size(store, spec) for spec in specs]
    out = []
    for start in range(0, len(specs), max(1, per_sheet)):
        sheet = measured[start : start + per_sheet]
        cap = min((size for size, _view in sheet if size is not None), default=card_fit.MAX_PT)
        for spec, (size, view) in zip(specs[start : start + per_sheet], sheet, strict=True):
            if size is not None and size > cap:
                out.append(replace(spec, key=key(spec.key, "body", cap), body_max=cap))
            else:
                out.append(spec if view is None else replace(spec, view=partial(_made, view)))
    return out


def _own_size(store: Store, spec: CardSpec) -> tuple[float | None, Any]:
    """The body size a card takes alone (None for a card with no body, a back), and its view
    when it had to be made to find out."""
    kept = store.get_object(SIZE, spec.key)
    if kept is not None:
        return kept or None, None
    view = spec.view(spec.body_max)
    size = None if isinstance(view, str) else float(view.size_pt)
    store.put_object(SIZE, spec.key, size or 0.0)
    return size, view


def deck_cards(
    repo: Repository,
    variant: Variant,
    params: dict,
    units: list[Unit],
    stat_blocks: bool,
    bleed: float,
    digests: dict[str, str] | None = None,
) -> list[CardSpec]:
    """Every card face of one deck, in deck order, keyed without being laid out. ``digests``:
    each unit's ``unit_digest``, when the caller keys the same units in several decks."""
    digests = digests if digests is not None else {}
    specs = []
    for u in units:
        digest = digests.get(u.id) or digests.setdefault(u.id, unit_digest(repo, u))
        specs.append(
            CardSpec(
                unit_card_key(repo, variant, params, u, bleed, digest),
                partial(_unit_view, repo, variant, params, u),
                u.id,
                bleed,
            )
        )
    if stat_blocks and variant.stat_blocks:
        specs += [_stat_block_card(block, variant, bleed) for block in card_render.large_map_stat_blocks()]
    return specs


def scenario_cards(repo: Repository, scenario) -> list[CardSpec]:
    from ..render.scenario_pack import scenario_stat_blocks
    from ..variants import VARIANTS

    variant = VARIANTS[scenario.variant]
    specs = deck_cards(repo, variant, scenario.parameters, scenario.units(), False, 0.0)
    specs += [_stat_block_card(block, variant, 0.0) for block in scenario_stat_blocks(scenario)]
    return specs


@dataclass
class CardText:
    """What the build report says of one deck's text: its smallest size and the units whose
    longest ability texts moved to the player aid."""

    smallest_pt: float = card_fit.MAX_PT
    moved_to_aid: dict[str, list[str]] = field(default_factory=dict)
    moved_text: dict[str, str] = field(default_factory=dict)  # ability -> full text, for the aid

    def add(self, meta: dict) -> None:
        """One card's meta (stat blocks and backs have none)."""
        if "size_pt" in meta:
            self.smallest_pt = min(self.smallest_pt, meta["size_pt"], meta["table_pt"])
        if meta.get("moved_to_aid"):
            self.moved_to_aid[meta["name"]] = list(meta["moved_to_aid"])
        self.moved_text.update(meta.get("moved_text") or {})

    def moved(self) -> tuple:
        return tuple(sorted(self.moved_text.items()))

    def to_json(self) -> dict:
        return {
            "smallest_text_pt": self.smallest_pt,
            "moved_to_aid": dict(sorted(self.moved_to_aid.items())),
            "moved_text": dict(sorted(self.moved_text.items())),
        }


def _meta(view) -> dict:
    return {
        "name": view.name,
        "size_pt": view.size_pt,
        "table_pt": view.table_pt,
        "moved_to_aid": list(view.moved_to_aid),
        "moved_text": dict(view.moved_text),
    }


def deck_text(store: Store, specs: list[CardSpec]) -> CardText:
    """The text report of a deck whose faces are all in the store."""
    text = CardText()
    for spec in specs:
        meta = store.get(META, spec.key)
        text.add(json.loads(meta) if meta else {})
    return text


def missing_faces(store: Store, specs: list[CardSpec]) -> list[CardSpec]:
    """The cards whose face or meta is not in the store, each once, a unit's cards together."""
    wanted: dict[str, CardSpec] = {}
    for spec in specs:
        if spec.key in wanted:
            continue
        # read, so that a damaged entry is made again now rather than found missing later
        if store.get(FACE, spec.key) is None or store.get(META, spec.key) is None:
            wanted[spec.key] = spec
    return sorted(wanted.values(), key=lambda s: (s.bleed, s.unit))


def sized(spec: CardSpec) -> tuple[str, Any, dict]:
    """A card's HTML, view (None for a back) and meta, made in the build's process."""
    view = spec.view(spec.body_max)
    if isinstance(view, str):
        return view, None, {}
    return str(card_render.render_card_html(view)), view, _meta(view)


def lay_out_batch(store: Store, batch: list[tuple[str, str, Any, dict]], bleed: float) -> int:
    """Worker: lay out a batch of cards of one bleed and keep each face, HTML and meta; returns
    the number of WeasyPrint documents it took."""
    htmls = [html for _key, html, _view, _meta in batch]
    views = [view for _key, _html, view, _meta in batch]
    pages, documents, _heads = card_render.lay_out_faces(htmls, bleed, views, store)
    for (card_key, html, _view, meta), pdf in zip(batch, pages, strict=True):
        store.put(HTML, card_key, html.encode())
        store.put(META, card_key, json.dumps(meta, sort_keys=True).encode())
        store.put(FACE, card_key, pdf)
    return documents


def batches(specs: list[CardSpec], jobs: int) -> Iterator[tuple[list[tuple[str, str, Any, dict]], float]]:
    """The missing cards sized and cut into batches of one bleed, at most BATCH each and
    shared out between the workers when there are few, a unit's cards never split: they
    share one head, laid out once, and a worker that lays out nothing never loads WeasyPrint
    (a one-unit edit then takes one worker, leaving the other to the site and sheets). Each
    batch is handed over as soon as it is sized, so the workers start on it while the rest
    are sized."""
    size = max(1, min(BATCH, -(-len(specs) // max(1, jobs))))
    batch: list[tuple[str, str, Any, dict]] = []
    bleed = 0.0
    for run in _runs(specs):
        if batch and (run[0].bleed != bleed or len(batch) + len(run) > size):
            yield batch, bleed
            batch = []
        bleed = run[0].bleed
        batch.extend((spec.key, *sized(spec)) for spec in run)
    if batch:
        yield batch, bleed


def _runs(specs: list[CardSpec]) -> list[list[CardSpec]]:
    """The specs in runs of one unit and bleed (a card of no unit, a back, alone)."""
    runs: list[list[CardSpec]] = []
    for spec in specs:
        if runs and spec.unit and (runs[-1][0].unit, runs[-1][0].bleed) == (spec.unit, spec.bleed):
            runs[-1].append(spec)
        else:
            runs.append([spec])
    return runs


def face(store: Store, card_key: str) -> bytes:
    """A face the build made: one missing now could be kept neither in the store nor in the
    build's scratch folder (``core.scratch.build_store``): one line, not a traceback."""
    pdf = store.get(FACE, card_key)
    if pdf is None:
        from .output import OutputError

        raise OutputError(
            f"cannot keep the card faces this build makes (face {card_key[:12]}): neither the store "
            f"({store.folder}) nor the temporary folder took them; free some space there, or set "
            "WASTOOLS_CACHE or TMPDIR to a folder with room"
        )
    return pdf
