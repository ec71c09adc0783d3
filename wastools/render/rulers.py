"""Range rulers at exact scale, one strip per band set, packed onto the sheet.

A ruler whose bands overlap (off-grid anti-aircraft: normal and heavy AA) prints one strip
per set of bands that do not overlap, so no band hides another. Every whole unit is
numbered where the numbers fit (otherwise every 2, 5 or 10), and the numbers at the ends
stay inside the strip. A strip longer than the sheet is cut into parts of about equal
length; each part but the last carries a glue tab at its right end ("join 1", "glue part 2"),
under the start of the next part, whose left end says the same join ("join 1: ...") where it
names. A cut never falls just after a band starts, so every band's name is printed where
the band starts. Strips are packed into rows, several to a row when they fit.
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


def label_room(zone: Zone) -> float:
    """How much of a band its name needs past the band's start line."""
    return text_width(zone.label) + 4


def _moved(cut: float, starts: list[tuple[float, float]]) -> float:
    """A cut moved back to the start of a band that starts too close before it for its name."""
    for start, need in starts:
        if cut - need < start < cut - 1e-6:
            return start
    return cut


def cut(length: float, zones: tuple[Zone, ...], unit_pt: float, most: float) -> list[Segment]:
    """The parts of a strip: the fewest of about equal length no longer than ``most``, each cut
    moved back to a band's start where that band would start too close to the cut for its name."""
    starts = [(z.start * unit_pt, label_room(z)) for z in zones]
    plain = split(length, most)
    for count in range(len(plain), len(plain) + 4):
        step = length / count
        ends = [_moved(i * step, starts) for i in range(1, count)] + [length]
        bounds = list(zip([0.0, *ends[:-1]], ends, strict=True))
        if all(0 < b - a <= most + 1e-6 for a, b in bounds):
            return [Segment(i, a, b) for i, (a, b) in enumerate(bounds)]
    return plain  # no such cuts (bands narrower than their names): equal parts


def pieces(rulers: list[Ruler], usable: float) -> list[Piece]:
    out = []
    for ruler in rulers:
        sets = band_sets(ruler.zones)
        for zones in sets:
            title = ruler.title if len(sets) == 1 else f"{ruler.title}: {', '.join(z.label for z in zones)}"
            segments = cut(_strip_length(ruler, zones, len(sets)), zones, ruler.unit_pt, usable - TAB)
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


def _draw_bands(c, piece: Piece, left: float, bottom: float, length: float) -> None:
    """The bands along the bottom, each named at its start line (and again where it runs on
    from the part before, when its name fits)."""
    ruler, seg = piece.ruler, piece.segment
    for i, zone in enumerate(piece.zones):
        a = max(zone.start * ruler.unit_pt - seg.start_pt, 0)
        b = min(zone.end * ruler.unit_pt - seg.start_pt, length)
        if b <= a:
            continue
        c.setFillColorRGB(*((0.9, 0.93, 0.97) if i % 2 == 0 else (0.97, 0.97, 0.97)))
        c.rect(left + a, bottom, b - a, 14, stroke=0, fill=1)
        if zone.start * ruler.unit_pt >= seg.start_pt - 1e-6:  # its start line (not where it runs on)
            c.setStrokeColorRGB(0.4, 0.4, 0.4)
            c.line(left + a, bottom, left + a, bottom + 14)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(FONT, 6)
        if label_room(zone) <= b - a + 1e-6:
            c.drawString(left + a + 2, bottom + 4.5, zone.label)


def _draw_ticks(c, piece: Piece, left: float, top: float, length: float) -> None:
    ruler, seg = piece.ruler, piece.segment
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


def join_note(join: int, title: str, length: float) -> str:
    """What a part's left end says of the join it makes with the part before: the longest
    wording that leaves room for the strip's title after it."""
    notes = (f"join {join}: this left end goes over the tab of part {join}", f"join {join}: over part {join}'s tab")
    for note in notes:
        if text_width(note, 6) + 8 + text_width(title, 6.5, BOLD) + 6 <= length:
            return note
    return f"join {join}"


def _draw_heading(c, piece: Piece, left: float, bottom: float, length: float) -> None:
    """The strip's title; on every part but the first, the join at its left end first."""
    seg = piece.segment
    title = piece.title + (f" (part {seg.index + 1} of {piece.parts})" if piece.parts > 1 else "")
    x = left + 3
    if seg.index > 0:
        note = join_note(seg.index, title, length)
        c.setFont(FONT, 6)
        c.drawString(x, bottom + 19, note)
        x += text_width(note, 6) + 8
    c.setFont(BOLD, 6.5)
    c.drawString(x, bottom + 19, title)


def _draw_piece(c, piece: Piece, left: float, top: float) -> None:
    seg = piece.segment
    length = seg.end_pt - seg.start_pt
    bottom = top - STRIP
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(0, 0, 0)
    c.rect(left, bottom, length, STRIP)
    _draw_bands(c, piece, left, bottom, length)
    _draw_ticks(c, piece, left, top, length)
    _draw_heading(c, piece, left, bottom, length)
    if piece.continues:
        _glue_tab(c, left + length, bottom, seg.index + 1)
    c.restoreState()


def _glue_tab(c, x: float, bottom: float, join: int) -> None:
    """The tab after a part: the join it makes and the part glued over it, read upwards."""
    c.saveState()
    c.setDash(2, 2)
    c.setLineWidth(0.4)
    c.setStrokeColorRGB(0.4, 0.4, 0.4)
    c.rect(x, bottom, TAB, STRIP)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.setFont(FONT, 6)
    c.translate(x + TAB / 2, bottom + STRIP / 2)
    c.rotate(90)
    c.drawCentredString(0, 4.5, f"join {join}")
    c.drawCentredString(0, -4.5, f"glue part {join + 1}")
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
