"""The site's Tabletop Simulator images: one JPEG a card of every deck, for the fleet builder's download.

The fleet builder makes a Tabletop Simulator saved object of the fleet in the browser
(``fleet-core.js``, ``tabletop``) in the deck the player chose, whose cards name their
images by address: the site publishes those images under ``tts/<deck>/units/<unit id>.jpg``
(one card a file, so that a fleet of three units loads three small images, not sheets of
69) and the deck's back as ``tts/<deck>/back.jpg``, for every deck the site has (the
variants of the build, whatever the registry holds).

Only a site with a published address has them (a table loads them from the web); for a site
without one, ``wastools serve`` draws each when the button asks for it (``OnDemand``). Each image
is kept in the store under its card's key and the slot it is drawn in, so a build renders
only the cards that changed. They are drawn up to nine to a Letter sheet, each card in a slot
of its own unit's (``slot_of``: a card's pixels depend on its slot, so a card drawn alone is the
card drawn with a whole deck, and adding a unit moves no other card), and encoded as JPEG
(at 144 dpi, about 8 ms a card on a quiet machine (it was 28 ms drawn one a page as PNG)); the build shares
them out between its workers as parts of the site (``tabletop_parts``) while the site's pages
wait. A cold build of the fixture's six decks of 98 units spent 23 ms an image in all on the
busy development machine (see docs/site.md for what it costs a published build). ``DPI`` is
a print resolution, 288 (4 pixels a point): 6 pt text is 24 pixels high, as on a printed
card, and every slot and line falls on whole pixels, so a card's image is the same drawn alone
or with others (at 300 dpi it is not). An image costs about twice what it did at 144 dpi
(26 against 13 ms of CPU for the small test site's cards).
"""

from __future__ import annotations

import hashlib
import io
import itertools
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.fingerprints import key
from ..core.model import Repository, Unit
from ..core.store import Store
from ..variants import Variant
from .data import SiteSpec, safe_id

DPI = 288  # a card is 720 x 1008 pixels, every slot of the Letter sheet on whole pixels
KIND = "site-tts"  # the store's kind for a card's image
QUALITY = 90  # JPEG quality, colours kept at full resolution (no chroma subsampling): crisp text
SUFFIX = ".jpg"
SLOTS = 9  # the Letter layout's slots
SHEETS_A_PART = 4  # sheets drawn by one job on the build's pool (36 cards, about 0.3 s)


@dataclass(frozen=True)
class Image:
    """One image of the site: its path under ``site/``, its card, and the slot of the Letter
    sheet it is drawn in (part of its key)."""

    path: str
    card: Any  # pipeline.cards.CardSpec
    slot: int

    @property
    def key(self) -> str:
        return key("tabletop image", self.card.key, DPI, self.slot, SUFFIX, QUALITY)


def tabletop_decks(spec: SiteSpec) -> list[str]:
    """The decks whose cards have images on the site: every deck of the site, when the site
    has a published address (``[site] address``). A Tabletop Simulator table loads its
    images from the web; without an address they would serve only the machine that built
    them (which ``build --roster FILE --tts`` serves already)."""
    return [v.name for v, _p in _decks(spec)] if spec.address else []


def slot_of(unit_id: str) -> int:
    """The slot a unit's cards are drawn in: fixed by its id alone, spread over the sheet."""
    return int(hashlib.sha256(unit_id.encode()).hexdigest()[:8], 16) % SLOTS


def unit_image(deck: str, unit_id: str) -> str:
    return f"tts/{deck}/units/{unit_id}{SUFFIX}"


def back_image(deck: str) -> str:
    return f"tts/{deck}/back{SUFFIX}"


def _decks(spec: SiteSpec) -> list[tuple[Variant, dict[str, Any]]]:
    return [(v, p) for v, p in spec.variants if safe_id(v.name)]


def _units(spec: SiteSpec) -> list[Unit]:
    return [u for u in spec.units if safe_id(u.id)]  # the units the site shows, in its order


def tabletop_parts(repo: Repository, spec: SiteSpec) -> tuple[tuple[Callable[..., Any], tuple], ...]:
    """The images as jobs for the build's pool (a target's ``parts``): each deck cut into
    runs of ``SHEETS_A_PART`` sheets' worth of units, so that both workers draw them and the
    site's own job, queued after them, finds them in the store."""
    if not spec.address:
        return ()
    ids = [u.id for u in _units(spec)]
    run = SHEETS_A_PART * SLOTS
    return tuple(
        (keep_images, (repo, variant, params, tuple(ids[first : first + run]), first == 0))
        for variant, params in _decks(spec)
        for first in range(0, max(1, len(ids)), run)
    )


def keep_images(store: Store, repo: Repository, variant: Variant, params: dict, ids: tuple, back: bool) -> int:
    """Worker: the images of the deck's cards of the units ``ids`` (and of its back, with
    ``back``) made and kept where the store lacks them; returns how many were made."""
    wanted = deck_images(repo, variant, params, [repo.units[i] for i in ids], back)
    todo = [image for image in wanted if not store.has(KIND, image.key)]
    for image, data in _draw(store, todo):
        store.put(KIND, image.key, data)
    return len(todo)


def tabletop_images(repo: Repository, spec: SiteSpec, store: Store | None) -> dict[str, bytes]:
    """Every image of the site (``tabletop_decks``), by its path: from the store where kept,
    else drawn from the decks' card faces (made here when the build did not make them) and
    kept (without a store, in a throwaway one: the same images, made again each time)."""
    if not tabletop_decks(spec):
        return {}
    if store is None:
        with tempfile.TemporaryDirectory(prefix="wastools-tts-") as scratch:
            return _images(repo, spec, Store(Path(scratch), Path(scratch) / "store"))
    return _images(repo, spec, store)


def _images(repo: Repository, spec: SiteSpec, store: Store) -> dict[str, bytes]:
    wanted = [image for v, p in _decks(spec) for image in deck_images(repo, v, p, _units(spec), True)]
    found = {image.path: store.get(KIND, image.key) for image in wanted}
    todo = [image for image in wanted if found[image.path] is None]
    for image, data in _draw(store, todo):
        store.put(KIND, image.key, data)
        found[image.path] = data
    return {path: data for path, data in found.items() if data is not None}


def deck_images(repo: Repository, variant: Variant, params: dict, units: list[Unit], back: bool) -> list[Image]:
    """The images of the deck's cards of ``units``, and with ``back`` of its back (drawn in the
    first slot)."""
    from ..pipeline.cards import deck_cards, fixed_card
    from ..render import cards as card_render

    specs = deck_cards(repo, variant, params, units, stat_blocks=False, bleed=0.0)
    images = [Image(unit_image(variant.name, s.unit), s, slot_of(s.unit)) for s in specs]
    if back:
        images.append(Image(back_image(variant.name), fixed_card(str(card_render.render_back_html(variant)), 0.0), 0))
    return images


def _draw(store: Store, todo: list[Image]) -> Iterator[tuple[Image, bytes]]:
    """Each image of ``todo`` drawn from its card's face (laid out here where missing, in
    this process: the site may itself run on a worker), a few sheets at a time."""
    from ..pipeline.cards import batches, lay_out_batch, missing_faces

    for batch, bleed in batches(missing_faces(store, [image.card for image in todo]), 1):
        lay_out_batch(store, batch, bleed)
    groups = _sheets(todo)
    for start in range(0, len(groups), SHEETS_A_PART):
        chunk = groups[start : start + SHEETS_A_PART]
        pictures = _pictures(store, chunk)
        yield from zip([image for group in chunk for image in group], pictures, strict=True)


def _sheets(todo: list[Image]) -> list[list[Image]]:
    """``todo`` on sheets of at most one card a slot, each card in its own slot."""
    by_slot: dict[int, list[Image]] = {}
    for image in todo:
        by_slot.setdefault(image.slot, []).append(image)
    return [[i for i in row if i is not None] for row in itertools.zip_longest(*by_slot.values())]


def _pictures(store: Store, groups: list[list[Image]]) -> list[bytes]:
    """The JPEG bytes of each group's cards, in order: each group one Letter sheet holding
    its cards in their own slots (the others left empty), cut out of the rendered sheet."""
    import pypdfium2 as pdfium

    from ..pipeline.cards import face
    from ..render import sheets

    layout = sheets.load_layout("letter")
    parts = [
        sheets.sheet_part(
            [face(store, image.card.key) for image in group],
            dict(layout, slots=[layout["slots"][image.slot] for image in group]),
            "Tabletop Simulator cards",
        )
        for group in groups
    ]
    pdf, _pages = sheets.assemble(parts, "Tabletop Simulator cards")
    doc = pdfium.PdfDocument(pdf)
    try:
        return [
            data
            for n, group in enumerate(groups)
            for data in _cut(doc[n].render(scale=DPI / 72).to_pil().convert("RGB"), layout, group)
        ]
    finally:
        doc.close()


def _cut(page: Any, layout: dict[str, Any], group: list[Image]) -> list[bytes]:
    """Each card of ``group`` cut out of its rendered sheet at its slot, as JPEG bytes."""
    scale, height = DPI / 72, layout["page"]["height"]
    card_w, card_h = layout["card"]["width"], layout["card"]["height"]
    out = []
    for image in group:
        slot = layout["slots"][image.slot]
        left, top = round(slot["x"] * scale), round((height - slot["y"] - card_h) * scale)
        out.append(jpeg(page.crop((left, top, left + round(card_w * scale), top + round(card_h * scale)))))
    return out


class OnDemand:
    """The images of a site built without them (no ``[site] address``), drawn when asked for:
    what ``wastools serve`` answers for ``tts/...`` paths the build did not write, so that the
    fleet builder's Tabletop Simulator button works on this computer unconfigured. An image
    drawn here is the image a published build draws (same card, same slot, same store key).
    Requests that arrive while a drawing runs are drawn together in the next one (a fleet's
    images come in a burst), one drawing at a time (pypdfium2 is not thread-safe)."""

    def __init__(self, repo: Repository, spec: SiteSpec, store: Store) -> None:
        self.repo, self.spec, self.store = repo, spec, store
        self._decks = {v.name: (v, p) for v, p in _decks(spec)}
        self._units = {u.id: u for u in _units(spec)}
        self._waiting: dict[str, Image] = {}  # key -> image asked for and not yet drawn
        self._queue = threading.Lock()
        self._drawing = threading.Lock()

    def image(self, rel: str) -> bytes | None:
        """The JPEG of ``rel`` (``tts/<deck>/units/<id>.jpg`` or ``tts/<deck>/back.jpg``), or
        None when the site has no such deck or unit."""
        wanted = self._image_of(rel)
        if wanted is None:
            return None
        found = self.store.get(KIND, wanted.key)
        if found is not None:
            return found
        with self._queue:
            self._waiting[wanted.key] = wanted
        with self._drawing:
            with self._queue:
                todo, self._waiting = list(self._waiting.values()), {}
            todo = [image for image in todo if not self.store.has(KIND, image.key)]
            for image, data in _draw(self.store, todo):
                self.store.put(KIND, image.key, data)
                found = data if image.key == wanted.key else found
        return found or self.store.get(KIND, wanted.key)

    def _image_of(self, rel: str) -> Image | None:
        parts = rel.split("/")
        if len(parts) < 3 or parts[0] != "tts" or parts[1] not in self._decks:
            return None
        variant, params = self._decks[parts[1]]
        if parts[2:] == ["back" + SUFFIX]:
            return deck_images(self.repo, variant, params, [], True)[0]
        unit = self._units.get(parts[3].removesuffix(SUFFIX)) if len(parts) == 4 and parts[2] == "units" else None
        if unit is None or parts[3] != unit.id + SUFFIX:
            return None
        return deck_images(self.repo, variant, params, [unit], False)[0]


def jpeg(image: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=QUALITY, subsampling=0, optimize=False)
    return buffer.getvalue()
