"""Range rulers at exact scale, split into segments with join marks when longer than a page."""

from __future__ import annotations

from ..geometry import Ruler, Segment, split
from .pages import MARGIN, Page, document
from .sheets import BOLD, FONT, PrinterProfile

STRIP = 62.0  # height of one ruler strip
TICK, LONG_TICK = 7.0, 13.0
JOIN = 26.0  # room at each end of a strip for the join mark


def strips(rulers: list[Ruler], page: Page) -> list[tuple[Ruler, Segment, int]]:
    """Every ruler cut to the page's width: (ruler, segment, how many segments)."""
    usable = page.area[2] - 2 * JOIN
    out = []
    for ruler in rulers:
        segments = split(ruler.length_pt, usable)
        out += [(ruler, seg, len(segments)) for seg in segments]
    return out


def _draw_strip(c, ruler: Ruler, seg: Segment, count: int, x0: float, top: float) -> None:
    """A strip whose zero is at x0 - seg.start_pt; only the segment's part is drawn."""
    left, right = x0, x0 + (seg.end_pt - seg.start_pt)
    c.saveState()
    c.setLineWidth(0.4)
    c.rect(left, top - STRIP + 8, right - left, STRIP - 8)
    shade = (0.86, 0.9, 0.96)
    for i, zone in enumerate(ruler.zones):
        a, b = zone.start * ruler.unit_pt - seg.start_pt, zone.end * ruler.unit_pt - seg.start_pt
        a, b = max(a, 0), min(b, seg.end_pt - seg.start_pt)
        if b <= a:
            continue
        c.setFillColorRGB(*(shade if i % 2 == 0 else (0.97, 0.97, 0.97)))
        row = top - STRIP + 8 + (i % 2) * 12 if len(ruler.zones) > 8 else top - STRIP + 8
        c.rect(x0 + a, row, b - a, 12 if len(ruler.zones) > 8 else 16, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 6)
        c.drawString(x0 + a + 1.5, row + 3.5, zone.label)
    c.setLineWidth(0.35)
    c.setFont(FONT, 6)
    for pos, labelled in ruler.ticks():
        if seg.start_pt - 1e-6 <= pos <= seg.end_pt + 1e-6:
            x = x0 + pos - seg.start_pt
            c.line(x, top, x, top - (LONG_TICK if labelled else TICK))
            if labelled:
                c.drawCentredString(x, top - LONG_TICK - 7, f"{pos / ruler.unit_pt:g}")
    c.setFont(BOLD, 6.5)
    part = f"  (part {seg.index + 1} of {count})" if count > 1 else ""
    c.drawString(left + 2, top - STRIP + 8 + 18, ruler.title + part)
    c.setFont(FONT, 6)
    if seg.index > 0:
        c.drawRightString(left - 3, top - 10, f"join {seg.index}")
        c.line(left - 20, top, left, top)
    if seg.index < count - 1:
        c.drawString(right + 3, top - 10, f"join {seg.index + 1}")
        c.line(right, top, right + 20, top)
    c.restoreState()


def rulers_pdf(rulers: list[Ruler], paper: str, title: str, profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    page = Page.of(paper, landscape=True)
    all_strips = strips(rulers, page)
    per_page = int((page.area[3] - 10) // STRIP)
    chunks = [all_strips[i:i + per_page] for i in range(0, len(all_strips), per_page)]

    def drawer(chunk, number):
        def draw(c) -> None:
            from .pages import draw_label

            draw_label(c, page, f"{title} - page {number} of {len(chunks)} - cut along the outer lines; join parts end to end at the join marks")
            top = page.height - MARGIN - 10
            for ruler, seg, count in chunk:
                _draw_strip(c, ruler, seg, count, MARGIN + JOIN, top)
                top -= STRIP

        return draw

    return document([(page, drawer(chunk, i + 1)) for i, chunk in enumerate(chunks)], title, profile)
