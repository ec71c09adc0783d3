"""Counters and templates: markers sized to sit beside 1:1800 models, and smoke templates."""

from __future__ import annotations

from dataclasses import dataclass

from ..geometry import PT_PER_IN
from .pages import Page, document, draw_label
from .sheets import BOLD, FONT, PrinterProfile

SIZE = 0.75 * PT_PER_IN  # 19 mm: fits beside a destroyer or cruiser base


@dataclass(frozen=True)
class Counter:
    kind: str
    text: str
    sub: str = ""
    colour: tuple[float, float, float] = (0.9, 0.9, 0.9)


def counter_set() -> list[Counter]:
    """What a typical game needs, with the seed each marker comes from."""
    grey, red, amber, blue, green, white = (0.85, 0.85, 0.85), (0.93, 0.62, 0.6), (0.98, 0.85, 0.5), (0.65, 0.78, 0.93), (0.7, 0.88, 0.7), (1, 1, 1)
    out: list[Counter] = []
    out += [Counter("re-arm", "RE-ARM", "air / torpedoes", amber)] * 18
    out += [Counter("aborted", "ABORTED", "stays 1 phase", amber)] * 9
    out += [Counter("damaged", "DAMAGED", "", red)] * 12
    out += [Counter("crippled", "CRIPPLED", "", red)] * 9
    out += [Counter("sinking", str(n), "sinking", grey) for n in range(1, 7) for _ in range(2)]
    out += [Counter("dummy-sub", "SUB?", "dummy", blue)] * 9
    out += [Counter("mine", "MINES", "", grey)] * 9
    out += [Counter("objective", f"OBJ {n}", "objective", green) for n in range(1, 7)]
    out += [Counter("fog", "FOG", "", white)] * 3 + [Counter("squall", "SQUALL", "", white)] * 3
    return out


def counter_positions(page: Page) -> list[tuple[float, float]]:
    x, y, w, h = page.area
    cols, rows = int(w // SIZE), int((h - 14) // SIZE)
    return [(x + i * SIZE, y + h - 14 - (j + 1) * SIZE) for j in range(rows) for i in range(cols)]


def _draw_counter(c, counter: Counter, x: float, y: float) -> None:
    c.setFillColorRGB(*counter.colour)
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    c.setLineWidth(0.4)
    c.rect(x, y, SIZE, SIZE, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, 12 if len(counter.text) <= 3 else 7)
    c.drawCentredString(x + SIZE / 2, y + SIZE / 2 - 2, counter.text)
    if counter.sub:
        c.setFont(FONT, 6)
        c.drawCentredString(x + SIZE / 2, y + 6, counter.sub)


def smoke_template(c, page: Page, radius: float, label: str) -> None:
    cx, cy = page.width / 2, page.height / 2
    c.setFillColorRGB(0.8, 0.8, 0.8)
    c.setStrokeColorRGB(0.2, 0.2, 0.2)
    c.setLineWidth(0.8)
    c.circle(cx, cy, radius, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, 10)
    c.drawCentredString(cx, cy + 6, "SMOKE")
    c.setFont(FONT, 7)
    c.drawCentredString(cx, cy - 8, label)
    c.line(cx, cy, cx + radius, cy)


def counters_pdf(paper: str, leg_in: float, profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    page = Page.of(paper)
    slots = counter_positions(page)
    items = counter_set()
    chunks = [items[i:i + len(slots)] for i in range(0, len(items), len(slots))]
    pages = []
    for n, chunk in enumerate(chunks, start=1):
        def draw(c, chunk=chunk, n=n) -> None:
            draw_label(c, page, f"counters - sheet {n} of {len(chunks)}: {SIZE / PT_PER_IN:g} in squares, cut along the lines")
            for counter, (x, y) in zip(chunk, slots):
                _draw_counter(c, counter, x, y)
        pages.append((page, draw))
    radius = leg_in * PT_PER_IN

    def smoke(c) -> None:
        draw_label(c, page, "smoke template (off-grid, seed 003): radius 1 leg")
        smoke_template(c, page, radius, f"radius 1 leg = {leg_in:g} in")

    pages += [(page, smoke)] * 2
    return document(pages, "counters and templates", profile)
