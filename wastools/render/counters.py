"""Counters and templates: markers sized to sit beside 1:1800 models, and smoke templates.

Every counter sheet is followed by its back sheet, mirrored for the flip edge
like the card backs. Real and dummy submarines share one face ("SUB") and differ
only on the back (seed 002: dummies are identical to the real submarine but marked
underneath). One type scale: 8 pt bold for a counter's word, 6.5 pt for its note.

Ink-light: a counter is white inside its cut line, its kind shown by a coloured frame round
a pale tint; the smoke template is an outline round a pale grey. Every variant prints the
common counters; a variant's own counters (the hex grid's face-down loads) and templates (the
off-grid smoke circle) are printed with them in that variant's own file only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.geometry import PT_PER_IN
from ..variants import Marker
from . import sheets
from .pages import Page, document, draw_label
from .sheets import BOLD, FONT, PrinterProfile

SIZE = 0.75 * PT_PER_IN  # 19 mm: fits beside a destroyer or cruiser base
WORD, NOTE_SIZE = 8.0, 6.5


@dataclass(frozen=True)
class Counter:
    kind: str
    text: str
    sub: str = ""
    colour: tuple[float, float, float] = (0.9, 0.9, 0.9)  # its frame; the tint inside is paler
    back: str = ""  # printed on the back sheet under this counter


FRAME, INSET, TINT = 1.0, 3.0, 0.12  # frame width, its inset from the cut line, tint strength
LOAD = (0.75, 0.72, 0.85)


def pale(colour: tuple[float, float, float], strength: float = TINT) -> tuple[float, float, float]:
    """The colour mixed into white: ``strength`` of its ink."""
    r, g, b = colour
    return (1 - strength * (1 - r), 1 - strength * (1 - g), 1 - strength * (1 - b))


def counter_set(markers: tuple[Marker, ...] = ()) -> list[Counter]:
    """What a typical game needs, then a variant's own counters."""
    return common_counters() + [Counter("own", m.word, m.note, LOAD, m.back) for m in markers for _ in range(m.count)]


def common_counters() -> list[Counter]:
    """What every game needs."""
    grey, red, amber, blue, green, white = (
        (0.85, 0.85, 0.85),
        (0.93, 0.62, 0.6),
        (0.98, 0.85, 0.5),
        (0.65, 0.78, 0.93),
        (0.7, 0.88, 0.7),
        (1, 1, 1),
    )
    out: list[Counter] = []
    out += [Counter("re-arm", "RE-ARM", "air / torpedoes", amber)] * 18
    out += [Counter("aborted", "ABORTED", "stays 1 phase", amber)] * 9
    out += [Counter("damaged", "DAMAGED", "", red)] * 12
    out += [Counter("crippled", "CRIPPLED", "", red)] * 9
    out += [Counter("sinking", str(n), "sinking", grey) for n in range(1, 7) for _ in range(2)]
    out += [Counter("submarine", "SUB", "submarine", blue, "REAL")] * 3
    out += [Counter("submarine", "SUB", "submarine", blue, "DUMMY")] * 6
    out += [Counter("mine", "MINES", "", grey)] * 9
    out += [Counter("objective", f"OBJ {n}", "objective", green) for n in range(1, 7)]
    out += [Counter("fog", "FOG", "", white)] * 3 + [Counter("squall", "SQUALL", "", white)] * 3
    return out


def counter_positions(page: Page) -> list[tuple[float, float]]:
    """Counters abut in rows from the top left of the printable area."""
    x, y, w, h = page.area
    cols, rows = int(w // SIZE), int(h // SIZE)
    return [(x + i * SIZE, y + h - (j + 1) * SIZE) for j in range(rows) for i in range(cols)]


def back_position(page: Page, x: float, y: float, profile: PrinterProfile = PrinterProfile()) -> tuple[float, float]:
    """Where a counter's back goes: behind its face for the flip edge and the page's
    orientation, shifted by the printer's back offset (as card backs, ``sheets.back_position``)."""
    return sheets.back_position(x, y, (SIZE, SIZE), (page.width, page.height), profile)


def _draw_counter(c, counter: Counter, x: float, y: float) -> None:
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    c.setLineWidth(0.4)
    c.rect(x, y, SIZE, SIZE, stroke=1, fill=0)  # the cut line
    c.setStrokeColorRGB(*counter.colour)
    c.setFillColorRGB(*pale(counter.colour))
    c.setLineWidth(FRAME)
    inner = SIZE - 2 * INSET
    c.roundRect(x + INSET, y + INSET, inner, inner, 3, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, WORD)
    lines = counter.text.split("\n")
    for i, line in enumerate(lines):  # two lines sit about the middle
        c.drawCentredString(x + SIZE / 2, y + SIZE / 2 - 2 + 4.5 * (len(lines) - 1) - 9 * i, line)
    if counter.sub:
        c.setFont(FONT, NOTE_SIZE)
        c.drawCentredString(x + SIZE / 2, y + 7, counter.sub)


def _draw_back(c, counter: Counter, x: float, y: float) -> None:
    c.setStrokeColorRGB(0.6, 0.6, 0.6)
    c.setLineWidth(0.4)
    c.rect(x, y, SIZE, SIZE, stroke=1, fill=0)
    if counter.back:
        c.setFillColorRGB(0, 0, 0)
        c.setFont(BOLD, WORD)
        c.drawCentredString(x + SIZE / 2, y + SIZE / 2 - 2, counter.back)


def smoke_template(c, page: Page, radius: float, label: str) -> None:
    cx, cy = page.width / 2, page.height / 2
    c.setFillColorRGB(*pale((0.8, 0.8, 0.8)))
    c.setStrokeColorRGB(0.2, 0.2, 0.2)
    c.setLineWidth(0.8)
    c.circle(cx, cy, radius, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, WORD)
    c.drawCentredString(cx, cy + 6, "SMOKE")
    c.setFont(FONT, NOTE_SIZE)
    c.drawCentredString(cx, cy - 8, label)
    c.line(cx, cy, cx + radius, cy)


def counter_sheets(page: Page, markers: tuple[Marker, ...] = ()) -> list[list[Counter]]:
    """Every counter, a sheet's worth at a time (each sheet prints its fronts, then its backs)."""
    slots, items = counter_positions(page), counter_set(markers)
    return [items[i : i + len(slots)] for i in range(0, len(items), len(slots))]


def counter_pages(paper: str, smoke: bool, markers: tuple[Marker, ...] = ()) -> int:
    """How many pages ``counters_pdf`` prints: fronts and backs of each sheet, and the smoke page."""
    return 2 * len(counter_sheets(Page.of(paper), markers)) + (1 if smoke else 0)


def counters_pdf(
    paper: str,
    smoke_for: tuple[float, str, str] | None,
    profile: PrinterProfile = PrinterProfile(),
    markers: tuple[Marker, ...] = (),
) -> tuple[bytes, int]:
    """Every common counter and a variant's ``markers``, fronts and backs; then, given
    ``smoke_for`` (radius in inches, its label, the page's heading), a page of smoke templates."""
    page = Page.of(paper)
    slots = counter_positions(page)
    chunks = counter_sheets(page, markers)
    pages: list[tuple[Page, Callable[[Any], None]]] = []
    for n, chunk in enumerate(chunks, start=1):

        def front(c, chunk=chunk, n=n) -> None:
            draw_label(
                c,
                page,
                f"Counters, sheet {n} of {len(chunks)}: {SIZE / PT_PER_IN:g} in squares, cut along the lines. "
                f"Print the next page on the back (flip on the {profile.duplex_edge} edge): "
                "submarines are told apart only there.",
            )
            for counter, (x, y) in zip(chunk, slots, strict=False):  # the last sheet may have free slots
                _draw_counter(c, counter, x, y)

        def back(c, chunk=chunk, n=n) -> None:
            draw_label(
                c,
                page,
                (
                    f"Counters, sheet {n} of {len(chunks)}: backs, mirrored for printing on the back of the sheet "
                    f"before this one (flip on the {profile.duplex_edge} edge)."
                ),
            )
            for counter, (x, y) in zip(chunk, slots, strict=False):  # the last sheet may have free slots
                _draw_back(c, counter, *back_position(page, x, y, profile))

        pages += [(page, front), (page, back)]
    if smoke_for is not None:
        radius_in, label, heading = smoke_for

        def smoke(c) -> None:
            draw_label(c, page, f"{heading} Print this page twice.")
            smoke_template(c, page, radius_in * PT_PER_IN, label)

        pages.append((page, smoke))
    return document(pages, "Counters and templates", profile)
