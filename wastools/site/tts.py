"""A fleet roster for Tabletop Simulator: ``wastools build --roster FILE --tts``.

Tabletop Simulator deals custom cards from sheets of card faces (at most 10 x 7 a sheet,
the last slot of a full sheet being its own "hidden card", and at most 4096 pixels either way,
as it recommends: 5 x 3 cards of 750 x 1050, the cards' print resolution) and one back image; a saved
object (JSON, for its Saved Objects folder) names the sheets and lists every card in the
deck. Here each sheet holds the fleet's distinct cards (one a unit, as the roster prints
them), and the deck holds each card as many times as its count.

The faces are the decks' own card PDFs, rendered with pypdfium2 at ``DPI``; the images go
beside the JSON and are named in it by their ``file://`` address, which works on the machine
that made them (the docs say how to share them: Tabletop Simulator's Cloud Manager uploads
them and rewrites the addresses).
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.model import Repository
from ..variants import VARIANTS

DPI = 300  # the cards' print resolution: 63.5 x 88.9 mm is 750 x 1050 pixels, 6 pt text 25 pixels high
CARD_PX = (round(2.5 * DPI), round(3.5 * DPI))  # 2.5 x 3.5 in at DPI
MAX_SHEET_PX = 4096  # the largest sheet Tabletop Simulator recommends, either way
MAX_COLUMNS, MAX_ROWS = min(10, MAX_SHEET_PX // CARD_PX[0]), min(7, MAX_SHEET_PX // CARD_PX[1])  # 5 x 3
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # a full sheet's last slot is Tabletop Simulator's hidden card
DECK_ID = 1  # the first custom deck of the object: card ids are 100 + the slot on sheet 1, 200 + on sheet 2...


@dataclass(frozen=True)
class SheetPlan:
    """One face sheet: the distinct cards on it (indexes into the roster's entries) and its grid."""

    cards: tuple[int, ...]
    columns: int
    rows: int


def plan_sheets(distinct: int) -> list[SheetPlan]:
    """The face sheets for ``distinct`` cards: full sheets of ``PER_SHEET`` cards, the last
    one as small as its cards allow (at least 2 x 2, as Tabletop Simulator's deck importer
    asks). Pure, so the grid can be tested apart from any image."""
    plans = []
    for start in range(0, distinct, PER_SHEET):
        count = min(PER_SHEET, distinct - start)
        columns = max(2, min(MAX_COLUMNS, count))
        rows = max(2, math.ceil(count / columns))
        if count == PER_SHEET:
            columns, rows = MAX_COLUMNS, MAX_ROWS
        plans.append(SheetPlan(tuple(range(start, start + count)), columns, rows))
    return plans


def card_images(cards: list[bytes], dpi: int = DPI, alone: bool = False) -> list:
    """Each card PDF as an RGB image of 2.5 x 3.5 in at ``dpi`` (``CARD_PX`` at ``DPI``). A
    cached card leaves its fonts to the deck it is joined into, so the cards are imposed on
    Letter sheets first (exactly as a deck is, fonts included) and cut out of the rendered
    sheets at their slots. ``alone``: one card a sheet, in the first slot, so that a card
    has the same pixels whatever cards it is rendered with (on another slot, text can fall
    a shade differently)."""
    import pypdfium2 as pdfium
    from PIL import Image

    from ..render import sheets

    layout = sheets.load_layout("letter")
    if alone:
        layout = dict(layout, slots=layout["slots"][:1])
    per, height = len(layout["slots"]), layout["page"]["height"]
    card_w, card_h = layout["card"]["width"], layout["card"]["height"]
    pdf, _pages = sheets.impose(cards, layout, "Tabletop Simulator cards")
    scale, size = dpi / 72, (round(2.5 * dpi), round(3.5 * dpi))
    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for first in range(0, len(cards), per):
            if alone:  # only the card's own area rendered: a ninth of the page's work
                slot, width = layout["slots"][0], layout["page"]["width"]
                crop = (slot["x"], slot["y"], width - slot["x"] - card_w, height - slot["y"] - card_h)
                card = doc[first].render(scale=scale, crop=crop).to_pil().convert("RGB")
                out.append(card if card.size == size else card.resize(size, Image.Resampling.LANCZOS))
                continue
            page = doc[first // per].render(scale=scale).to_pil().convert("RGB")
            for slot in layout["slots"][: len(cards) - first]:
                left, top = slot["x"] * scale, (height - slot["y"] - card_h) * scale
                box = (round(left), round(top), round(left + card_w * scale), round(top + card_h * scale))
                card = page.crop(box)
                out.append(card if card.size == size else card.resize(size, Image.Resampling.LANCZOS))
    finally:
        doc.close()
    return out


def sheet_image(images: list, plan: SheetPlan) -> bytes:
    """A face sheet as PNG bytes: the cards in reading order, empty slots white."""
    from PIL import Image

    sheet = Image.new("RGB", (plan.columns * CARD_PX[0], plan.rows * CARD_PX[1]), "white")
    for slot, index in enumerate(plan.cards):
        x, y = slot % plan.columns, slot // plan.columns
        sheet.paste(images[index], (x * CARD_PX[0], y * CARD_PX[1]))
    return png(sheet)


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def _transform(y: float = 1.0) -> dict[str, float]:
    # face down (rotZ 180), as a deck is laid on the table
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0}


def saved_object(
    name: str,
    description: str,
    entries: list[tuple[str, str, int]],
    plans: list[SheetPlan],
    faces: list[str],
    back: str,
) -> dict[str, Any]:
    """The saved object: ``entries`` are (card name, its description, count) in roster
    order; ``faces`` the address of each sheet's image, ``back`` the back's."""
    custom = {
        str(DECK_ID + n): {
            "FaceURL": face,
            "BackURL": back,
            "NumWidth": plan.columns,
            "NumHeight": plan.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for n, (plan, face) in enumerate(zip(plans, faces, strict=True))
    }
    cards = []
    for n, plan in enumerate(plans):
        for slot, index in enumerate(plan.cards):
            card_name, text, count = entries[index]
            card_id = (DECK_ID + n) * 100 + slot
            one = {
                "Name": "Card",
                "Nickname": card_name,
                "Description": text,
                "CardID": card_id,
                "Transform": {**_transform(), "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0},
            }
            cards += [dict(one, CustomDeck={str(DECK_ID + n): custom[str(DECK_ID + n)]}) for _ in range(count)]
    if len(cards) == 1:  # one card is a card, not a deck
        state = dict(cards[0], Description=description)
    else:
        state = {
            "Name": "DeckCustom",
            "Nickname": name,
            "Description": description,
            "Transform": {**_transform(), "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0},
            "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": custom,
            "ContainedObjects": cards,  # each card names its sheet too, as the game saves them
        }
    return {"SaveName": name, "ObjectStates": [state]}


def tts_folder(stem: str, variant: str, own: str) -> str:
    return f"rosters/{stem}{'' if variant == own else '-' + variant}-tts"


def build_tts(repo: Repository, out: Path, roster, options, store, variant: str | None = None) -> list[str]:
    """Write the roster's saved object and its images under ``rosters/<file name>-tts/``;
    returns the paths written (relative to ``out``)."""
    import dataclasses

    from ..pipeline.output import OutputFolder
    from .roster import roster_faces

    printed = dataclasses.replace(roster, variant=variant or roster.variant)
    folder = tts_folder(roster.stem, printed.variant, roster.variant)
    written: list[str] = []
    faces, back = roster_faces(repo, printed, options, 0.0, store)
    plans = plan_sheets(len(faces))
    pictures = card_images([*faces, back])
    images = {f"{folder}/{roster.stem}-faces-{n + 1}.png": sheet_image(pictures, p) for n, p in enumerate(plans)}
    images[f"{folder}/{roster.stem}-back.png"] = png(pictures[-1])
    with OutputFolder(out) as target:
        for rel, data in images.items():
            target.write(rel, data)
            written.append(rel)
        address = {rel: target.path(rel).resolve().as_uri() for rel in images}
        entries = [
            (u.name, f"{u.points} points, {VARIANTS[printed.variant].title} card", n) for u, n in printed.entries
        ]
        title = VARIANTS[printed.variant].title
        description = f"{roster.cards} cards, {roster.points} points; {title} cards, made by wastools"
        document = saved_object(
            roster.name, description, entries, plans, list(address.values())[:-1], list(address.values())[-1]
        )
        rel = f"{folder}/{roster.stem}.json"
        target.write(rel, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        written.append(rel)
    return written
