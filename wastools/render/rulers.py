"""Range rulers at exact scale, one strip per band set, packed onto the sheet.

A ruler whose bands overlap (off-grid anti-aircraft: normal and heavy AA) prints one strip
per set of bands that do not overlap, so no band hides another. Every whole unit is
numbered where the numbers fit (otherwise every 2, 5 or 10), and the numbers at the ends
stay inside the strip. A strip longer than the sheet is cut into parts; each part but the
last carries a glue tab at its right end, under the start of the next part. Strips are
packed into rows, several to a row when they fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.geometry import Ruler, Segment, Zone, split
from .pages import MARGIN, Page, document, draw_label
from .sheets import BOLD, FONT, PrinterProfile, text_width

STRIP = 50.0  # height of one strip
GAP = 10.0  # between rows and between strips in a row
TICK, LONG_TICK = 7.0, 13.0
TAB = 26.0  # glue tab at the end of a part that continues
NUMBER = 6.0


@dataclass(frozen=True)
class Piece:
    """One strip (or one part of a strip) as cut from the sheet."""

    ruler: Ruler
    title: str
    zones: tuple[Zone, ...]
    segment: Segment
    parts: int

    @property
    def continues(self) -> bool:
        return self.segment.index < self.parts - 1

    @property
    def width(self) -> float:
        return self.segment.end_pt - self.segment.start_pt + (TAB if self.continues else 0)


def band_sets(zones: tuple[Zone, ...]) -> list[tuple[Zone, ...]]:
    """Zones split into runs of bands, each starting where the one before it ends; a zone
    that overlaps the run so far starts a new run (heavy AA beside normal AA)."""
    sets: list[list[Zone]] = []
    for zone in zones:
        for bands in reversed(sets):
            if abs(bands[-1].end - zone.start) < 1e-9:
                bands.append(zone)
                break
        else:
            sets.append([zone])
    return [tuple(s) for s in sets] or [()]


def number_step(ruler: Ruler) -> float:
    """Units between printed numbers: 1 where the widest number fits, else 2, 5, 10 ..."""
    widest = text_width(f"{ruler.length:g}", NUMBER) + 4
    for step in (1, 2, 5, 10, 20, 50, 100):
        if step * ruler.unit_pt >= widest and abs(step / ruler.minor - round(step / ruler.minor)) < 1e-9:
            return float(step)
    return float(ruler.length)


def _strip_length(ruler: Ruler, zones: tuple[Zone, ...], set_count: int) -> float:
    """A ruler printed as several strips (normal and heavy AA) gives each strip the length
    of its own bands: a strip never runs on past the last distance it marks."""
    if set_count == 1 or not zones:
        return ruler.length_pt
    return min(ruler.length_pt, max(z.end for z in zones) * ruler.unit_pt)


def pieces(rulers: list[Ruler], usable: float) -> list[Piece]:
    out = []
    for ruler in rulers:
        sets = band_sets(ruler.zones)
        for zones in sets:
            title = ruler.title if len(sets) == 1 else f"{ruler.title}: {', '.join(z.label for z in zones)}"
            segments = split(_strip_length(ruler, zones, len(sets)), usable - TAB)
            out += [Piece(ruler, title, zones, seg, len(segments)) for seg in segments]
    return out


def pack(items: list[Piece], width: float, rows_per_page: int) -> list[list[list[Piece]]]:
    """Pages of rows of pieces: each piece goes into the first row of the current page with
    room for it, keeping the rulers' order within a row."""
    pages: list[list[list[Piece]]] = [[]]
    for piece in items:
        rows = pages[-1]
        for row in rows:
            if sum(p.width for p in row) + GAP * len(row) + piece.width <= width:
                row.append(piece)
                break
        else:
            if len(rows) == rows_per_page:
                pages.append([])
                rows = pages[-1]
            rows.append([piece])
    return pages


def _draw_piece(c, piece: Piece, left: float, top: float) -> None:
    ruler, seg = piece.ruler, piece.segment
    length = seg.end_pt - seg.start_pt
    bottom = top - STRIP
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(0, 0, 0)
    c.rect(left, bottom, length, STRIP)
    for i, zone in enumerate(piece.zones):
        a = max(zone.start * ruler.unit_pt - seg.start_pt, 0)
        b = min(zone.end * ruler.unit_pt - seg.start_pt, length)
        if b <= a:
            continue
        c.setFillColorRGB(*((0.9, 0.93, 0.97) if i % 2 == 0 else (0.97, 0.97, 0.97)))
        c.rect(left + a, bottom, b - a, 14, stroke=0, fill=1)
        c.setStrokeColorRGB(0.4, 0.4, 0.4)
        c.line(left + a, bottom, left + a, bottom + 14)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 6)
        if text_width(zone.label) + 4 <= b - a:
            c.drawString(left + a + 2, bottom + 4.5, zone.label)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.35)
    c.setFont(FONT, NUMBER)
    step = number_step(ruler)
    for pos, _labelled in ruler.ticks():
        if not seg.start_pt - 1e-6 <= pos <= seg.end_pt + 1e-6:
            continue
        x = left + pos - seg.start_pt
        units = pos / ruler.unit_pt
        numbered = abs(units / step - round(units / step)) < 1e-9
        c.line(x, top, x, top - (LONG_TICK if numbered else TICK))
        if numbered:
            text = f"{units:g}"
            if x - left < text_width(text, NUMBER) / 2 + 2:
                c.drawString(x + 1.5, top - LONG_TICK - 6.5, text)
            elif left + length - x < text_width(text, NUMBER) / 2 + 2:
                c.drawRightString(x - 1.5, top - LONG_TICK - 6.5, text)
            else:
                c.drawCentredString(x, top - LONG_TICK - 6.5, text)
    part = f" (part {seg.index + 1} of {piece.parts})" if piece.parts > 1 else ""
    c.setFont(BOLD, 6.5)
    c.drawString(left + 3, bottom + 19, piece.title + part)
    c.setFont(FONT, 6)
    if seg.index > 0:
        for note in (
            f"join {seg.index}: this left end goes over the tab of part {seg.index}",
            f"over part {seg.index}'s tab",
        ):
            if text_width(piece.title + part, 6.5, BOLD) + text_width(note, 6) + 12 <= length:
                c.drawRightString(left + length - 3, bottom + 19, note)
                break
    if piece.continues:
        _glue_tab(c, left + length, bottom, seg.index + 2)
    c.restoreState()


def _glue_tab(c, x: float, bottom: float, next_part: int) -> None:
    c.saveState()
    c.setDash(2, 2)
    c.setLineWidth(0.4)
    c.setStrokeColorRGB(0.4, 0.4, 0.4)
    c.rect(x, bottom, TAB, STRIP)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.setFont(FONT, 6)
    c.translate(x + TAB / 2 + 2, bottom + STRIP / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, f"glue part {next_part}")
    c.restoreState()


def ruler_sheets(rulers: list[Ruler], paper: str) -> tuple[Page, list[list[list[Piece]]]]:
    """The landscape page and the rulers' pieces packed on it, a list of rows a sheet (a
    scenario pack counts the sheets it tells players to print)."""
    page = Page.of(paper, landscape=True)
    _x, _y, width, height = page.area
    rows_per_page = int((height + GAP) // (STRIP + GAP))
    return page, pack(pieces(rulers, width), width, rows_per_page)


def rulers_pdf(
    rulers: list[Ruler], paper: str, title: str, profile: PrinterProfile = PrinterProfile()
) -> tuple[bytes, int]:
    page, sheets = ruler_sheets(rulers, paper)

    def drawer(rows, number):
        def draw(c) -> None:
            draw_label(
                c,
                page,
                f"{title} - sheet {number} of {len(sheets)}. Cut along the outer lines. Where a ruler comes in parts, "
                "glue each part's start over the tab of the part before it, the two end lines meeting.",
            )
            top = page.height - MARGIN
            for row in rows:
                left = MARGIN
                for piece in row:
                    _draw_piece(c, piece, left, top)
                    left += piece.width + GAP
                top -= STRIP + GAP

        return draw

    return document([(page, drawer(rows, i + 1)) for i, rows in enumerate(sheets)], title, profile)
