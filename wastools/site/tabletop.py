"""The site's Tabletop Simulator images: one PNG a card, for the fleet builder's download.

The fleet builder makes a Tabletop Simulator saved object of the fleet in the browser
(``fleet-core.js``, ``tabletop``), whose cards name their images by address: the site
publishes those images under ``tts/<variant>/<unit id>.png`` (one card a file, so that a
fleet of three units loads three small images, not sheets of 69) and ``back.png``.

Only a site with a published address has them (a table loads them from the web), and only
its first deck (the fleet builder's first choice). Measured on
the development machine: an image takes about 0.018 s to render and encode from a face the
build made, and is about 52 kB; every deck (289 units x 6) would add about 30 s to a cold
build and 90 MB to the site's files, which are all held in memory before any is written.
One deck adds about 5 s once (each image is kept in the store under its card's key, so a
build renders only the cards that changed) and 15 MB. At ``DPI`` 144, 6 pt text is 12
pixels high, legible when zoomed in the game.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ..core.fingerprints import key
from ..core.model import Repository
from ..core.store import Store

DPI = 144  # a card is 360 x 504 pixels, its slot on whole pixels
KIND = "site-tts"  # the store's kind for a card's image
CHUNK = 27  # cards rendered at a time (three Letter sheets): the images held at once stay few


def tabletop_deck(spec: Any) -> str | None:
    """The deck whose cards have images on the site: the site's first, when the site has a
    published address (``[site] address``). A Tabletop Simulator table loads its images
    from the web; without an address they would serve only the machine that built them
    (which ``build --roster FILE --tts`` serves already), at about 5 s a cold build."""
    return spec.variants[0][0].name if spec.variants and spec.address else None


def tabletop_images(repo: Repository, spec: Any, store: Store | None) -> dict[str, bytes]:
    """``tts/<variant>/<unit id>.png`` for every unit of ``spec`` in the site's first deck,
    and its ``back.png``: from the store where kept, else rendered from the deck's card
    faces (made here when the build did not make them) and kept (without a store, in a
    throwaway one: the same images, made again each time)."""
    if tabletop_deck(spec) is None:
        return {}
    if store is None:
        with tempfile.TemporaryDirectory(prefix="wastools-tts-") as scratch:
            return _images(repo, spec, Store(Path(scratch), Path(scratch) / "store"))
    return _images(repo, spec, store)


def _images(repo: Repository, spec: Any, store: Store) -> dict[str, bytes]:
    from ..pipeline.cards import batches, deck_cards, face, fixed_card, lay_out_batch, missing_faces
    from ..render import cards as card_render

    variant, params = spec.variants[0]
    specs = deck_cards(repo, variant, params, list(spec.units), stat_blocks=False, bleed=0.0)
    back = fixed_card(str(card_render.render_back_html(variant)), 0.0)
    names = [f"tts/{variant.name}/{s.unit}.png" for s in specs] + [f"tts/{variant.name}/back.png"]
    wanted = [*specs, back]
    image_keys = [key("tabletop image", s.key, DPI) for s in wanted]
    found = {n: store.get(KIND, k) for n, k in zip(names, image_keys, strict=True)}
    todo = [i for i, n in enumerate(names) if found[n] is None]
    for batch, bleed in batches(missing_faces(store, [wanted[i] for i in todo]), 1):
        lay_out_batch(store, batch, bleed)  # in this process: the site may itself run on a worker
    for start in range(0, len(todo), CHUNK):
        chunk = todo[start : start + CHUNK]
        for i, png in zip(chunk, _pngs([face(store, wanted[i].key) for i in chunk]), strict=True):
            store.put(KIND, image_keys[i], png)
            found[names[i]] = png
    return {n: data for n, data in found.items() if data is not None}


def _pngs(pdfs: list[bytes]) -> list[bytes]:
    from .tts import card_images, png

    return [png(image) for image in card_images(pdfs, DPI, alone=True)]
