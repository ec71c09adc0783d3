"""Map sheets at exact scale: square sectors, hex grids or plain sea, tiled over pages.

Ink-light by default: white sea, thin grid, coordinates (``colour=True`` fills the sea).
One overlap scheme: each page prints its own area plus a glue strip along its right and
upper edges; the neighbor to the right (above) is trimmed on its left (bottom) solid line
and glued over that strip. Alignment marks are circles centered on each seam, each page
printing its half, so they close into whole circles when the pages meet. The first page is
a plan of the whole map with every page's area, its PDF page number and its coordinates;
the tiles follow in the order they are glued, from the bottom left page. Every word is
placed (``labels``) clear of the others, of symbols, seam marks and trim lines, and only
where it shows: nothing clipped is left in the file for a reader to find.
``poster_pdf`` prints the whole map on one page at true size, for a print shop.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from ..core.geometry import Tile, hex_center, hex_corners, hex_grid_extent, hex_radius, tiles
from ..core.outline import Box, Point, Segment, clip_polygon, hex_rings, hex_union_edges, meets, visible_runs
from ..data.terrain import area_tiles as terrain_tiles
from ..data.terrain import inside
from ..variants.board import Board, HexBoard, SquareBoard, TableBoard, column_name, hex_name, sector_name
from . import labels
from .pages import HEADER_SIZE, MARGIN, Page, document, draw_label, header_lines
from .sheets import BOLD, FONT, SAFE, PrinterProfile, text_width

SEA = (0.86, 0.92, 0.97)
GRID = (0.45, 0.5, 0.58)
Draw = Callable[[object, Tile], "list[Box] | None"]  # draws the grid's lines; returns what words must avoid
Plan = Callable[[object, float], None]  # draws the grid at the plan's scale
Range = Callable[[float, float, float, float], str]  # map rectangle -> "A1 to F3"
Word = tuple[str, float, float, float]  # text, centre x, baseline, size
Names = Callable[[Tile, "list[Box]", Box], "list[Word]"]  # a tile's grid names, clear of what is given, in a region


@dataclass(frozen=True)
class Feature:
    kind: str  # island, shoal, air-base, objective, deployment, battery
    label: str
    points: tuple[tuple[float, float], ...]  # polygon (island, shoal, deployment) or one point
    side: str | None = None
    hexes: float = 0.0  # if above 0: ``points`` are the centers of hexes this wide, the feature is their union

    @cached_property
    def extent(self) -> Box:
        """The box an area covers (its hexes whole), worked out once however many pages."""
        return _bounds(_outline_points(self))

    @cached_property
    def holds(self) -> Callable[[tuple[float, float]], bool]:
        """Whether a map point lies in the area (``_holder``), made once."""
        return _holder(self)

    @cached_property
    def edges(self) -> list[Segment]:
        """A hex feature's outline, worked out once however many pages draw it."""
        return hex_union_edges(self.points, self.hexes)

    @cached_property
    def bounds(self) -> Box:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)

    @cached_property
    def middle(self) -> Point:
        """Where the label goes: the mean of the points."""
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    @cached_property
    def rings(self) -> list[list[Point]]:
        """A hex feature's outline as closed rings, to fill."""
        return hex_rings(self.points, self.hexes)


def _no_range(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{x0 / 72:g}-{x1 / 72:g} x {y0 / 72:g}-{y1 / 72:g} in"


def _no_plan(c, scale: float) -> None:
    return None


def _no_names(tile: Tile, avoid: list[Box], region: Box) -> list[Word]:
    return []


@dataclass(frozen=True)
class MapSpec:
    title: str
    width: float  # map size in points
    height: float
    draw_grid: Draw
    features: tuple[Feature, ...] = ()
    overlap: float = 36.0
    grid_note: str = ""
    range_of: Range = _no_range
    draw_plan: Plan = _no_plan
    extra: dict = field(default_factory=dict)
    grid_names: Names = _no_names


def square_grid(columns: int, rows: int, sector: float) -> Draw:
    """Thin sector lines every ``sector`` points (``square_names`` names the sectors)."""

    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.5)
        cols, rws = (
            _span(tile.x0, tile.x0 + tile.width, sector, columns),
            _span(tile.y0, tile.y0 + tile.height, sector, rows),
        )
        for i in range(cols.start, cols.stop + 1):
            c.line(i * sector, 0, i * sector, rows * sector)
        for j in range(rws.start, rws.stop + 1):
            c.line(0, j * sector, columns * sector, j * sector)

    return draw


def square_names(columns: int, rows: int, sector: float) -> Names:
    """Each sector named (column letter, row number) in a corner of the part a page shows:
    the top left one, else the first other corner clear of symbols and seam marks."""
    size = 8.0

    def names(tile: Tile, avoid: list[Box], region: Box) -> list[Word]:
        out: list[Word] = []
        for i in _span(tile.x0, tile.core_x1, sector, columns):
            for j in _span(tile.y0, tile.core_y1, sector, rows):
                left, right = max(i * sector, tile.x0), min((i + 1) * sector, tile.core_x1)
                bottom, top = max(j * sector, tile.y0), min((j + 1) * sector, tile.core_y1)
                if right - left < 30 or top - bottom < 20:
                    continue
                name = sector_name(i, rows - 1 - j)
                w = text_width(name, size)
                corners = [(left + 5 + w / 2, top - 12), (right - 5 - w / 2, top - 12)]
                corners += [(left + 5 + w / 2, bottom + 5), (right - 5 - w / 2, bottom + 5)]
                for cx, base in corners:
                    if not any(labels.overlaps(labels.text_box(cx, base, w, size), box) for box in avoid):
                        out.append((name, cx, base, size))
                        break
        return out

    return names


def _span(low: float, high: float, step: float, count: int) -> range:
    """The indices of the cells ``step`` wide (of ``count``) that meet [low, high]."""
    return range(max(0, math.floor(low / step) - 1), min(count, math.ceil(high / step) + 1))


def square_range(columns: int, rows: int, sector: float) -> Range:
    def name(x0: float, y0: float, x1: float, y1: float) -> str:
        c0, c1 = int(x0 // sector), min(columns, math.ceil(x1 / sector - 1e-6)) - 1
        r_top, r_bottom = rows - min(rows, math.ceil(y1 / sector - 1e-6)), rows - 1 - int(y0 // sector)
        return f"sectors {sector_name(c0, r_top)} to {sector_name(c1, r_bottom)}"

    return name


def square_plan(columns: int, rows: int, sector: float) -> Plan:
    def draw(c, scale: float) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.3 / scale)
        for i in range(columns + 1):
            c.line(i * sector, 0, i * sector, rows * sector)
        for j in range(rows + 1):
            c.line(0, j * sector, columns * sector, j * sector)
        c.setFillColorRGB(*GRID)
        c.setFont(FONT, 6 / scale)
        if sector * scale >= 8:
            for i in range(columns):
                c.drawCentredString((i + 0.5) * sector, rows * sector + 2 / scale, column_name(i))
            for j in range(rows):
                c.drawRightString(-2 / scale, (rows - j - 0.5) * sector - 2 / scale, str(j + 1))

    return draw


def hex_grid(columns: int, rows: int, flat: float) -> Draw:
    """Thin flat-topped hexes ``flat`` points flat to flat (``hex_names`` names them CCRR)."""
    r = hex_radius(flat)

    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.5)
        for col, row in _hexes_near(columns, rows, flat, tile.x0, tile.y0, tile.x0 + tile.width, tile.y0 + tile.height):
            cx, cy = hex_center(col, row, flat)
            if tile.x0 - r <= cx <= tile.x0 + tile.width + r and tile.y0 - r <= cy <= tile.y0 + tile.height + r:
                _hex_path(c, cx, cy, flat)

    return draw


def hex_names(columns: int, rows: int, flat: float) -> Names:
    """Each hex named CCRR near its top. A name that a page's edge would cut, or that would
    touch a symbol or seam mark or fall outside the printed ``region``, moves down the hex
    (and to either side) to the first place clear of them: a seam never cuts a name, and the
    page on whose side it falls prints it."""
    r = hex_radius(flat)
    size = 7.0

    def names(tile: Tile, avoid: list[Box], region: Box) -> list[Word]:
        core = (tile.x0, tile.y0, tile.core_x1, tile.core_y1)
        out: list[Word] = []
        for col, row in _hexes_near(columns, rows, flat, tile.x0, tile.y0, tile.core_x1, tile.core_y1):
            cx, cy = hex_center(col, row, flat)
            if not (tile.x0 - r <= cx <= tile.core_x1 + r and tile.y0 - flat <= cy <= tile.core_y1 + flat):
                continue
            name = hex_name(col, rows - 1 - row)
            w = text_width(name, size)
            spot = _hex_name_spot(cx, cy, flat, w, size, core, avoid, region)
            if spot is not None and labels.within(labels.text_box(*spot, w, size, 0), core):
                out.append((name, spot[0], spot[1], size))
        return out

    return names


def _hex_name_spot(
    cx: float, cy: float, flat: float, w: float, size: float, core: Box, avoid: list[Box], region: Box
) -> tuple[float, float] | None:
    """The first place in a hex for its name that crosses no edge of the page's own area,
    lies in the printed ``region`` and touches nothing in ``avoid``."""
    r = hex_radius(flat)
    top, bottom = cy + flat / 2 - 10, cy - flat / 2 + 4
    for k in range(int((top - bottom) / 8) + 1):
        base = top - 8 * k
        half = (r - abs(base - cy) / math.sqrt(3)) - w / 2 - 3  # room to either side at this height
        for dx in (0.0, -half / 2, half / 2, -half, half) if half > 0 else (0.0,):
            box = labels.text_box(cx + dx, base, w, size)
            crosses = any(box[0] < x < box[2] for x in (core[0], core[2])) or any(
                box[1] < y < box[3] for y in (core[1], core[3])
            )
            if not crosses and labels.within(box, region) and not any(labels.overlaps(box, o) for o in avoid):
                return cx + dx, base
    return None


def _hexes_near(columns: int, rows: int, flat: float, x0: float, y0: float, x1: float, y1: float):
    """(col, row) of the hexes whose centers may lie in the rectangle, widened by a hex: a
    page visits the hexes it shows, not the whole map's."""
    r = hex_radius(flat)
    cols = range(max(0, math.floor((x0 - 2 * r) / (1.5 * r))), min(columns, math.ceil((x1 + r) / (1.5 * r)) + 1))
    rws = range(max(0, math.floor((y0 - 2 * flat) / flat)), min(rows, math.ceil((y1 + flat) / flat) + 1))
    return ((col, row) for col in cols for row in rws)


def _hex_path(c, cx: float, cy: float, flat: float) -> None:
    corners = hex_corners(cx, cy, flat)
    path = c.beginPath()
    path.moveTo(*corners[0])
    for corner in corners[1:]:
        path.lineTo(*corner)
    path.close()
    c.drawPath(path, stroke=1, fill=0)


def hex_range(columns: int, rows: int, flat: float) -> Range:
    """The hexes whose centers lie in a rectangle, as first and last hex names."""

    def name(x0: float, y0: float, x1: float, y1: float) -> str:
        centres = (
            (col, row, hex_center(col, row, flat)) for col, row in _hexes_near(columns, rows, flat, x0, y0, x1, y1)
        )
        inside = [(col, row) for col, row, (x, y) in centres if x0 <= x < x1 and y0 <= y < y1]
        if not inside:
            return "edge hexes"
        cols = [c for c, _ in inside]
        tops = [rows - 1 - rw for _, rw in inside]
        return f"hexes {hex_name(min(cols), min(tops))} to {hex_name(max(cols), max(tops))}"

    return name


def hex_plan(columns: int, rows: int, flat: float) -> Plan:
    def draw(c, scale: float) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.25 / scale)
        for col in range(columns):
            for row in range(rows):
                _hex_path(c, *hex_center(col, row, flat), flat)
        c.setFillColorRGB(*GRID)
        c.setFont(FONT, 6 / scale)
        step = max(1, math.ceil(8 / (flat * scale)))
        top = rows * flat + flat / 2
        for col in range(0, columns, step):
            c.drawCentredString(hex_center(col, 0, flat)[0], top + 2 / scale, f"{col + 1:02d}")
        for row in range(0, rows, step):
            c.drawRightString(-2 / scale, hex_center(0, rows - 1 - row, flat)[1] - 2 / scale, f"{row + 1:02d}")

    return draw


def plain_sea(label: str, length_pt: float) -> Draw:
    """No grid: a scale bar ``length_pt`` long, labelled with what it measures, near the
    lower left corner of each page's own area."""

    def draw(c, tile: Tile) -> list[Box]:
        from .sheets import Bar, draw_bar

        draw_bar(c, Bar(label, tile.x0 + 14, tile.y0 + 14, length_pt, False))
        return [(tile.x0 + 10, tile.y0 + 8, tile.x0 + 14 + length_pt + 6 + text_width(label), tile.y0 + 22)]

    return draw


def plain_range(unit: str, unit_pt: float, height: float) -> Range:
    """A rectangle of the table as a player measures it: from the left and the top edges."""

    def name(x0: float, y0: float, x1: float, y1: float) -> str:
        return (
            f"{x0 / unit_pt:.3g}-{x1 / unit_pt:.3g} {unit} from the left edge, "
            f"{(height - y1) / unit_pt:.3g}-{(height - y0) / unit_pt:.3g} {unit} from the top"
        )

    return name


def plain_plan(unit: str, unit_pt: float, width: float, height: float) -> Plan:
    """Tick marks every 10 units (cm) or 6 units (in) along the top and left edges, numbered."""
    step = 10 if unit == "cm" else 6

    def draw(c, scale: float) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setFillColorRGB(*GRID)
        c.setLineWidth(0.4 / scale)
        c.setFont(FONT, 6 / scale)
        for i in range(0, int(width / unit_pt) + 1, step):
            c.line(i * unit_pt, height, i * unit_pt, height + 3 / scale)
            c.drawCentredString(i * unit_pt, height + 4 / scale, f"{i}")
        for j in range(0, int(height / unit_pt) + 1, step):
            c.line(-3 / scale, height - j * unit_pt, 0, height - j * unit_pt)
            c.drawRightString(-4 / scale, height - j * unit_pt - 2 / scale, f"{j}")

    return draw


def _side_colour(c, side: str | None, fill: bool = False) -> None:
    rgb = (0.7, 0.1, 0.1) if side == "axis" else (0.1, 0.2, 0.7)
    c.setFillColorRGB(*rgb) if fill else c.setStrokeColorRGB(*rgb)


def _outline(c, points) -> object:
    path = c.beginPath()
    path.moveTo(*points[0])
    for p in points[1:]:
        path.lineTo(*p)
    path.close()
    return path


def _draw_hex_feature(c, f: Feature, colour: bool, u: float, tint: bool, box: Box | None) -> None:
    if f.kind == "island" or (f.kind == "deployment" and tint):
        if f.kind == "island":
            c.setFillColorRGB(*((0.83, 0.78, 0.58) if colour else (0.9, 0.9, 0.9)))
        else:
            _side_colour(c, f.side, fill=True)
            c.setFillAlpha(0.15)
        _fill(c, f.rings, box)
        c.setFillAlpha(1)
    c.setStrokeColorRGB(0.3, 0.3, 0.3)
    c.setLineWidth((1.6 if f.kind == "deployment" else 1.0) * u)
    if f.kind == "deployment":
        _side_colour(c, f.side)
        c.setDash(6 * u, 3 * u)
    elif f.kind == "shoal":
        c.setDash(3 * u, 2 * u)
        c.setStrokeColorRGB(0.35, 0.5, 0.6)
    _stroke(c, [[a, b] for a, b in f.edges if box is None or meets(a, b, box)])


def _fill(c, shapes: list[list[Point]], box: Box | None) -> None:
    """Closed shapes filled as one path (even-odd: a hole stays open), each cut to ``box``."""
    path = c.beginPath()
    drawn = False
    for shape in shapes:
        part = clip_polygon(shape, box) if box is not None else shape
        if len(part) >= 3:
            path.moveTo(*part[0])
            for p in part[1:]:
                path.lineTo(*p)
            path.close()
            drawn = True
    if drawn:
        c.drawPath(path, stroke=0, fill=1, fillMode=0)  # 0: even-odd, as ReportLab fills by default


def _stroke(c, runs: list[list[Point]]) -> None:
    """Lines through each run's points, as one path."""
    if not runs:
        return
    path = c.beginPath()
    for run in runs:
        path.moveTo(*run[0])
        for p in run[1:]:
            path.lineTo(*p)
    c.drawPath(path, stroke=1, fill=0)


def _stroke_outline(c, runs: list[tuple[float, list[Point]]], dash: tuple[float, float] | None = None) -> None:
    """A closed outline's runs (``visible_runs``), each dashed from where the whole
    outline's dashes stand at its start: a page shows the dashes the whole outline has."""
    for along, run in runs:
        if dash is not None:
            c.setDash(list(dash), along % (dash[0] + dash[1]))
        _stroke(c, [run])


def _hatch(c, points, step: float, width: float, box: Box | None) -> None:
    """Sparse diagonal lines inside a polygon: shallows that read as such on every page,
    for very little ink (only the lines that cross ``box``)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    shape = clip_polygon(list(points), box) if box is not None else list(points)
    if len(shape) < 3:
        return
    c.saveState()
    c.clipPath(_outline(c, shape), stroke=0, fill=0)
    c.setDash(1, 0)
    c.setLineWidth(width)
    c.setStrokeColorRGB(0.45, 0.6, 0.7)
    low_x, low_y, rise = min(xs), min(ys), max(ys) - min(ys)
    span = max(xs) - low_x + rise
    # a line runs from (low_x + k, low_y) to (low_x + k - rise, low_y + rise): it can cross
    # the box only when k lies between these bounds
    first, last = 0.0, span
    if box is not None:
        first = max(0.0, math.ceil((box[0] - low_x) / step) * step)
        last = min(span, box[2] - low_x + rise)
    k = first
    while k <= last:
        c.line(low_x + k, low_y, low_x + k - rise, low_y + rise)
        k += step
    c.restoreState()


def _draw_area(c, f: Feature, colour: bool, u: float, tint: bool, box: Box | None) -> None:
    outline = visible_runs(list(f.points), box)
    c.setLineWidth(u)
    if f.kind == "island":
        c.setFillColorRGB(*((0.83, 0.78, 0.58) if colour else (0.93, 0.93, 0.93)))
        c.setStrokeColorRGB(0.3, 0.3, 0.3)
        _fill(c, [list(f.points)], box)
        _stroke_outline(c, outline)
    elif f.kind == "shoal":
        c.setStrokeColorRGB(0.35, 0.5, 0.6)
        if colour:
            c.setFillColorRGB(0.74, 0.85, 0.9)
            _fill(c, [list(f.points)], box)
        _stroke_outline(c, outline, (3 * u, 2 * u))
        if not colour:
            _hatch(c, f.points, 18 * u, 0.3 * u, box)
    else:
        if tint:
            _side_colour(c, f.side, fill=True)
            c.setFillAlpha(0.15)
            _fill(c, [list(f.points)], box)
            c.setFillAlpha(1)
        c.setLineWidth(1.4 * u)
        _side_colour(c, f.side)
        _stroke_outline(c, outline, (6 * u, 3 * u))


def _draw_point(c, f: Feature, u: float) -> None:
    x, y = f.points[0]
    c.setLineWidth(u)
    c.setStrokeColorRGB(0, 0, 0)
    c.setFillColorRGB(1, 1, 1)
    if f.kind == "air-base":
        c.rect(x - 9 * u, y - 9 * u, 18 * u, 18 * u, stroke=1, fill=1)
        c.line(x - 6 * u, y, x + 6 * u, y)
        c.line(x, y - 6 * u, x, y + 6 * u)
    elif f.kind == "battery":
        c.circle(x, y, 8 * u, stroke=1, fill=1)
        c.line(x, y, x + 12 * u, y + 6 * u)
    else:  # objective
        c.circle(x, y, 10 * u, stroke=1, fill=1)
        c.circle(x, y, 4 * u, stroke=1, fill=0)


SYMBOL_RADIUS = {"objective": 10.0, "air-base": 9.0, "battery": 12.0}  # half a symbol's width at u = 1
LABEL_SIZE = 7.0  # feature names on the tiles and the poster


def _draw_features(
    c, features: tuple[Feature, ...], colour: bool = True, u: float = 1.0, tint: bool = False, box: Box | None = None
) -> None:
    """Terrain and zones, then the point symbols over them; ``u`` scales symbol sizes and line
    widths (the plan draws them larger than its own scale), ``tint`` fills deployment zones
    lightly. Words are placed and drawn apart (``_draw_words``). With ``box`` (a page's part
    of the map), only what can show there is drawn: a page's work and size grow with what it
    shows, not with the whole map."""
    for f in sorted(features, key=lambda f: len(f.points) == 1):
        if box is not None and not _may_show(f, box, u):
            continue
        c.saveState()
        _draw_shape(c, f, colour, u, tint, box)
        c.restoreState()


def _may_show(f: Feature, box: Box, u: float) -> bool:
    """Whether any of a feature (its shape, symbol or label) can reach into ``box``."""
    x0, y0, x1, y1 = f.bounds
    reach = len(f.label) * 7 * u + 30 * u + f.hexes  # a label's width, a symbol, half a hex
    return meets((x0 - reach, y0 - reach), (x1 + reach, y1 + reach), box)


def _near(p: Point, box: Box, reach: float) -> bool:
    return box[0] - reach <= p[0] <= box[2] + reach and box[1] - reach <= p[1] <= box[3] + reach


def _draw_shape(c, f: Feature, colour: bool, u: float, tint: bool, box: Box | None = None) -> None:
    if f.hexes:
        _draw_hex_feature(c, f, colour, u, tint, box)
    elif f.kind == "play-area":
        c.setStrokeColorRGB(0.2, 0.2, 0.2)
        c.setLineWidth(2 * u)
        c.setDash(12 * u, 6 * u)
        c.drawPath(_outline(c, f.points), stroke=1, fill=0)
    elif f.kind in ("island", "shoal", "deployment"):
        _draw_area(c, f, colour, u, tint, box)
    elif box is None or _near(f.points[0], box, 20 * u):
        _draw_point(c, f, u)


def symbol_boxes(features: tuple[Feature, ...], scale: float = 1.0, u: float = 1.0) -> list[Box]:
    """Where the point symbols are (``scale``: map points to page points), for words to avoid."""
    return [
        labels.square((f.points[0][0] * scale, f.points[0][1] * scale), SYMBOL_RADIUS.get(f.kind, 10.0) * u + 1)
        for f in features
        if len(f.points) == 1
    ]


def _holder(f: Feature) -> Callable[[tuple[float, float]], bool]:
    """Whether a map point lies in an area feature: its polygon, or one of its hexes."""
    if not f.hexes:
        return lambda p: inside(p, f.points, 0.0)
    flat = f.hexes
    r = hex_radius(flat)
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for cx, cy in f.points:
        cells.setdefault((int(cx // flat), int(cy // flat)), []).append((cx, cy))

    half, root3, reach = flat / 2 + 0.01, math.sqrt(3), math.sqrt(3) * r + 0.01

    def holds(p: tuple[float, float]) -> bool:
        """In one of the hexes near ``p`` (written out: called millions of times on a big map)."""
        x, y = p
        kx, ky = int(x // flat), int(y // flat)
        for i in (kx - 1, kx, kx + 1):
            for j in (ky - 1, ky, ky + 1):
                for cx, cy in cells.get((i, j), ()):
                    dy = abs(y - cy)
                    if dy <= half and root3 * abs(x - cx) + dy <= reach:
                        return True
        return False

    return holds


@dataclass(frozen=True)
class Placing:
    """How words are placed on one page: ``scale`` turns map points into the page's points
    (1 on a tile), ``bounds`` is where they may go, ``size`` their type size."""

    scale: float
    bounds: Box
    size: float = LABEL_SIZE
    radius: float = 1.0  # symbol radius factor (u x scale)


def bold_width(text: str, size: float) -> float:
    return text_width(text, size, BOLD)


def place_words(
    features: tuple[Feature, ...],
    how: Placing,
    taken: labels.Taken,
    measure: Callable[[str, float], float] = bold_width,
) -> list[tuple[str, labels.Placed]]:
    """Every feature's name, in page points: a point's beside its symbol (a leader line when
    it must sit further off), an area's inside the area where it shows, preferring places
    outside other areas (a zone's name is not read as a shoal's). A point whose symbol lies
    outside ``bounds`` is named on another page; an area too small here is not named here.
    ``taken`` grows with each word placed."""
    out: list[tuple[str, labels.Placed]] = []
    for f in features:
        if len(f.points) != 1 or f.kind == "play-area":
            continue
        anchor = (f.points[0][0] * how.scale, f.points[0][1] * how.scale)
        if not labels.within(labels.square(anchor, 0), how.bounds):
            continue
        width = measure(f.label, how.size)
        radius = SYMBOL_RADIUS.get(f.kind, 10.0) * how.radius
        placed = labels.beside(anchor, radius, width, how.size, taken, how.bounds)
        if placed is not None:
            taken.append(placed.box)
            out.append((f.label, placed))
    areas = [f for f in features if len(f.points) > 1 and f.kind != "play-area"]
    holders = [(f.holds, f.extent) for f in areas]
    for f, (holds, box) in zip(areas, holders, strict=True):
        others = [h for h, other in holders if h is not holds and labels.overlaps(box, other)]
        if len(others) > CLEAR_AMONG:  # a crowd of areas over each other: no place is clear of all
            others = []
        placed = _area_word(f, holds, others, how, taken, measure(f.label, how.size))
        if placed is not None:
            taken.append(placed.box)
            out.append((f.label, placed))
    return out


CLEAR_AMONG = 8  # areas overlapping a name's area, beyond which no place clear of them all is looked for


def _area_word(f: Feature, holds, others, how: Placing, taken: labels.Taken, width: float) -> labels.Placed | None:
    """An area's name inside it where it shows; where it is too small for its name, beside
    it with a leader line from its middle (when its middle lies in ``how.bounds``)."""
    s = how.scale
    fx0, fy0, fx1, fy1 = (v * s for v in f.extent)
    b = how.bounds
    region = (max(fx0, b[0]), max(fy0, b[1]), min(fx1, b[2]), min(fy1, b[3]))
    if region[0] >= region[2] or region[1] >= region[3]:
        return None
    return _inside_word(holds, others, how, taken, region, width) or _beside_area(holds, how, taken, region, width)


def _beside_area(holds, how: Placing, taken: labels.Taken, region: Box, width: float) -> labels.Placed | None:
    s = how.scale
    step = max(3.0, math.sqrt((region[2] - region[0]) * (region[3] - region[1]) / 400))
    middle = next((p for p in labels.spread(region, step) if holds((p[0] / s, p[1] / s))), None)
    if middle is None or not labels.within(labels.square(middle, 0), how.bounds):
        return None
    return labels.beside(middle, 0.0, width, how.size, taken, how.bounds, around=region)


def _inside_word(holds, others, how: Placing, taken: labels.Taken, region: Box, width: float) -> labels.Placed | None:
    s = how.scale
    grid = labels.spread(region, max(6.0, how.size * 2))

    @functools.cache  # the tries below test the same places again
    def inside_page(p: tuple[float, float]) -> bool:
        return holds((p[0] / s, p[1] / s))

    held = list(itertools.islice((p for p in grid if inside_page(p)), labels.TRIES))  # as many as are tried
    clear = (p for p in held if not any(h((p[0] / s, p[1] / s)) for h in others))  # outside other areas
    tries: list[tuple[Iterator[tuple[float, float]], str]] = [(clear, "all")] if others else []
    tries += [(iter(held), reach) for reach in ("all", "ends", "middle")]
    for candidates, reach in tries:
        placed = labels.inside_area(candidates, inside_page, width, how.size, taken, how.bounds, reach)
        if placed is not None:
            return placed
    return None


def _outline_points(f: Feature) -> list[tuple[float, float]]:
    if not f.hexes:
        return list(f.points)
    r = hex_radius(f.hexes)
    return [(x + dx, y + dy) for x, y in f.points for dx, dy in ((-r, -f.hexes / 2), (r, f.hexes / 2))]


def _bounds(points: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _draw_words(c, words: list[tuple[str, labels.Placed]], size: float, ground: bool = False) -> None:
    """Feature names in bold, each with its leader line; ``ground`` lays a white ground
    under each (the plan's names sit on a tinted, gridded map)."""
    c.saveState()
    for text, placed in words:
        if placed.leader is not None:
            c.setStrokeColorRGB(0.3, 0.3, 0.3)
            c.setLineWidth(0.4)
            c.line(*placed.leader[0], *placed.leader[1])
        if ground:
            c.setFillColorRGB(1, 1, 1)
            c.setFillAlpha(0.85)
            x0, y0, x1, y1 = labels.shrink(placed.box, 0.5)
            c.rect(x0, y0, x1 - x0, y1 - y0, stroke=0, fill=1)
            c.setFillAlpha(1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(BOLD, size)
        c.drawCentredString(placed.x, placed.baseline, text)
    c.restoreState()


def _draw_names(c, words: list[Word]) -> None:
    c.saveState()
    c.setFillColorRGB(*GRID)
    for text, cx, base, size in words:
        c.setFont(FONT, size)
        c.drawCentredString(cx, base, text)
    c.restoreState()


def _draw_map(
    c, spec: MapSpec, tile: Tile, colour: bool, marks: list[tuple[float, float]], region: Box, whole: bool = False
) -> None:
    """A page's part of the map: terrain and zones, the grid's lines, the symbols, the seam
    marks, then the grid's names and the features' names, each placed clear of the others,
    of the symbols and marks, and inside the page's own area (no word across a trim line);
    ``region`` is all the pages print together. The shapes are cut to the tile's area and
    only the features that can show there are drawn, unless ``whole`` (the poster, whose
    page is the map)."""
    core = (tile.x0, tile.y0, tile.core_x1, tile.core_y1)
    box = None if whole else (tile.x0 - 2, tile.y0 - 2, tile.x0 + tile.width + 2, tile.y0 + tile.height + 2)
    shown = spec.features if box is None else tuple(f for f in spec.features if _may_show(f, box, 1.0))
    _draw_features(c, tuple(f for f in shown if len(f.points) > 1), colour, box=box)
    avoid = list(spec.draw_grid(c, tile) or [])
    _draw_features(c, tuple(f for f in shown if len(f.points) == 1), colour, box=box)
    _draw_seam_marks(c, marks)
    avoid += symbol_boxes(shown) + [labels.square(m, 10.5) for m in marks]
    names = spec.grid_names(tile, avoid, region)
    taken = labels.Taken(
        avoid + [labels.text_box(cx, base, text_width(t, size), size, 0.5) for t, cx, base, size in names]
    )
    words = place_words(shown, Placing(1.0, labels.shrink(core, 2)), taken)
    _draw_names(c, names)
    _draw_words(c, words, LABEL_SIZE)
    area = next((f for f in spec.features if f.kind == "play-area"), None)
    if area is not None:
        _play_area_word(c, area, core, taken)


def _play_area_word(c, f: Feature, core: Box, taken: labels.Taken) -> None:
    """The poster's "play area" inside its outline's top left corner, where that is free."""
    x0, _y0, _x1, y1 = _bounds(list(f.points))
    size = 9.0
    width = text_width(f.label, size, BOLD)
    for k in range(12):
        box = labels.text_box(x0 + 12 + width / 2 + 24 * k, y1 - 16, width, size)
        if labels.free(box, taken, labels.shrink(core, 2)):
            c.saveState()
            c.setFillColorRGB(0.2, 0.2, 0.2)
            c.setFont(BOLD, size)
            c.drawCentredString(x0 + 12 + width / 2 + 24 * k, y1 - 16, f.label)
            c.restoreState()
            return


# --- tiles: glue strips, trim lines, seam marks ---------------------------------------------


def seams_of(tile: Tile, all_tiles: list[Tile]) -> list[tuple[str, float, float, float]]:
    """Every seam this tile shares with a neighbor: (axis, position, start, end) in map
    points; 'x' seams are vertical lines at x = position running from start to end."""
    out = []
    for other in all_tiles:
        if other.row == tile.row and abs(other.col - tile.col) == 1:
            left = tile if tile.col < other.col else other
            out.append(("x", left.core_x1, tile.y0, tile.core_y1))
        if other.col == tile.col and abs(other.row - tile.row) == 1:
            lower = tile if tile.row < other.row else other
            out.append(("y", lower.core_y1, tile.x0, tile.core_x1))
    return out


def seam_marks(tile: Tile, all_tiles: list[Tile]) -> list[tuple[float, float]]:
    """Map positions of the alignment marks: a quarter and three quarters along each seam.
    Each mark is a circle centered on the seam; each page prints the half on its own area,
    so the two halves meet in a whole circle when the pages are assembled."""
    marks = []
    for axis, pos, a, b in seams_of(tile, all_tiles):
        for f in (0.25, 0.75):
            along = a + f * (b - a)
            marks.append((pos, along) if axis == "x" else (along, pos))
    return marks


def glue_strips(tile: Tile) -> dict[str, tuple[float, float, float, float]]:
    """The strips beyond the tile's own area ('right', 'top') as x, y, width, height."""
    strips = {}
    if tile.core_x1 < tile.x0 + tile.width:
        strips["right"] = (tile.core_x1, tile.y0, tile.x0 + tile.width - tile.core_x1, tile.core_y1 - tile.y0)
    if tile.core_y1 < tile.y0 + tile.height:
        strips["top"] = (tile.x0, tile.core_y1, tile.core_x1 - tile.x0, tile.y0 + tile.height - tile.core_y1)
    return strips


def page_tiles(spec: MapSpec, page: Page) -> list[Tile]:
    _x, _y, w, h = page.area
    return tiles(spec.width, spec.height, w, h, spec.overlap)


@dataclass(frozen=True)
class Numbering:
    """Page numbers as the PDF a player holds counts them: the plan's page and the first tile's."""

    first: int = 1  # the plan's page number in the whole PDF
    total: int | None = None  # pages in the whole PDF

    def tile(self, index: int) -> int:
        return self.first + 1 + index


def _tiles(spec: MapSpec, paper: str, area: tuple[float, float, float, float] | None = None) -> list[Tile]:
    region = area or (0.0, 0.0, spec.width, spec.height)
    return area_tiles(spec, Page.of(paper, landscape=region[2] > region[3]), area) if region[2] > 0 else []


def board_pages(spec: MapSpec, paper: str) -> int:
    """How many pages ``map_pdf`` prints of a whole board: its plan and every tile."""
    return 1 + len(_tiles(spec, paper))


def map_pdf(
    spec: MapSpec,
    paper: str,
    profile: PrinterProfile = PrinterProfile(),
    colour: bool = False,
    numbering: Numbering = Numbering(),
    area: tuple[float, float, float, float] | None = None,
    note: str = "",
    needed: Callable[[Tile], bool] | None = None,
) -> tuple[bytes, int]:
    """A plan of the whole map, then the tiles of ``area`` (x, y, width, height in map
    points; the whole map unless given; no tiles if its width is 0), only those ``needed``
    says a player needs when it is given. ``note`` is printed under the plan."""
    region = area or (0.0, 0.0, spec.width, spec.height)
    page = Page.of(paper, landscape=region[2] > region[3])
    plan = Page.of(paper, landscape=spec.width > spec.height)
    all_tiles = _tiles(spec, paper, area)
    all_tiles = [t for t in all_tiles if needed is None or needed(t)]
    total = numbering.total or numbering.first + len(all_tiles)
    pages = [(plan, _assembly(spec, all_tiles, plan, numbering, colour, note))]
    for tile in all_tiles:
        pages.append((page, _tile_page(spec, tile, all_tiles, page, numbering, total, colour)))
    return document(pages, spec.title, profile)


def area_tiles(spec: MapSpec, page: Page, area: tuple[float, float, float, float] | None = None) -> list[Tile]:
    """The tiles that print ``area`` of the map (the whole map when None), a page each."""
    if area is None:
        return page_tiles(spec, page)
    _x, _y, w, h = page.area
    return terrain_tiles(area, (w, h), spec.overlap)  # the same tiling validation counted


def _neighbour(all_tiles: list[Tile], tile: Tile, dcol: int, drow: int) -> int | None:
    for i, t in enumerate(all_tiles):
        if t.col == tile.col + dcol and t.row == tile.row + drow:
            return i
    return None


def _tile_page(
    spec: MapSpec, tile: Tile, all_tiles: list[Tile], page: Page, numbering: Numbering, total: int, colour: bool
):
    index = all_tiles.index(tile)
    right, above = _neighbour(all_tiles, tile, 1, 0), _neighbour(all_tiles, tile, 0, 1)
    left, below = _neighbour(all_tiles, tile, -1, 0), _neighbour(all_tiles, tile, 0, -1)
    region = (
        min(t.x0 for t in all_tiles),
        min(t.y0 for t in all_tiles),
        max(t.core_x1 for t in all_tiles),
        max(t.core_y1 for t in all_tiles),
    )

    def draw(c) -> None:
        x, y, _w, _h = page.area
        how = _how_to_join(index, left, below, right, above, numbering)
        where = spec.range_of(tile.x0, tile.y0, tile.core_x1, tile.core_y1)
        draw_label(c, page, f"{spec.title} - page {numbering.tile(index)} of {total}: {where}. {how}")
        c.saveState()
        c.translate(x - tile.x0, y - tile.y0)  # map point (x0, y0) at the area's corner
        for where, (sx, sy, sw, sh) in glue_strips(tile).items():
            neighbour = right if where == "right" else above
            if neighbour is not None:  # a strip always faces the next page of the area
                _glue_strip(c, sx, sy, sw, sh, colour, numbering.tile(neighbour))
        c.saveState()
        core = c.beginPath()
        core.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0)
        c.clipPath(core, stroke=0, fill=0)
        if colour:
            c.setFillColorRGB(*SEA)
            c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=0, fill=1)
        _draw_map(c, spec, tile, colour, seam_marks(tile, all_tiles), region)
        c.restoreState()
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.6)
        c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=1, fill=0)
        c.restoreState()

    return draw


def _how_to_join(index: int, left, below, right, above, numbering: Numbering) -> str:
    """What a tile's header says to do with it: trim which edges and glue them over which
    page's strips; the first page is laid down first, as the plan says."""
    edges = [name for name, n in (("left", left), ("bottom", below)) if n is not None]
    if edges:
        steps = [
            f"Trim the {' and '.join(edges)} edge{'s on the solid lines' if len(edges) > 1 else ' on the solid line'}"
        ]
        steps += [
            f"glue it over the {where} strip of page {numbering.tile(n)}"
            for where, n in (("right", left), ("top", below))
            if n is not None
        ]
        return "; ".join(steps) + "."
    if right is None and above is None:
        return "Lay it where the plan shows." if index else ""
    if index == 0:
        return "Lay this page down first: the next pages are glued onto its strips."
    return "It is not trimmed: lay it where the plan shows; the next pages are glued onto its strips."


def _glue_strip(c, x: float, y: float, w: float, h: float, colour: bool, page_number: int) -> None:
    c.saveState()
    c.setStrokeColorRGB(0.55, 0.55, 0.55)
    c.setLineWidth(0.4)
    c.setDash(2, 2)
    if colour:
        c.setFillColorRGB(0.86, 0.88, 0.9)
    c.rect(x, y, w, h, stroke=1, fill=1 if colour else 0)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.setFont(FONT, 7)
    text = f"glue: page {page_number} goes over this strip"
    if h > w:
        c.translate(x + w / 2 + 2.5, y + h / 2)
        c.rotate(90)
    else:
        c.translate(x + w / 2, y + h / 2 - 2.5)
    c.drawCentredString(0, 0, text)
    c.restoreState()


def _draw_seam_marks(c, marks: list[tuple[float, float]]) -> None:
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    for mx, my in marks:
        c.circle(mx, my, 6, stroke=1, fill=0)
        c.line(mx - 10, my, mx + 10, my)
        c.line(mx, my - 10, mx, my + 10)
    c.restoreState()


# --- the plan of the whole map -----------------------------------------------------------------


def _assembly(spec: MapSpec, all_tiles: list[Tile], page: Page, numbering: Numbering, colour: bool, note: str = ""):
    def draw(c) -> None:
        x, y, w, h = page.area
        pages = "The numbered rectangles are the pages of this file that print it." if all_tiles else ""
        draw_label(
            c,
            page,
            (
                f"{spec.title} - page {numbering.first}: plan of the whole map ({_size(spec)}, {spec.grid_note}). "
                f"{pages}"
            ),
        )
        if note:
            c.saveState()
            c.setFont(FONT, 7)
            c.drawString(x, page.height - MARGIN + 3, note)
            c.restoreState()
        legend = 14 if spec.features else 0
        scale = min(w / spec.width, (h - 14 - legend) / spec.height)
        plan_bottom = y + legend + (h - 14 - legend - spec.height * scale)
        c.saveState()
        c.translate(x, plan_bottom)
        _draw_plan_map(c, spec, all_tiles, scale, colour)
        symbols = symbol_boxes(spec.features, scale, 0.6)
        taken = labels.Taken(symbols)
        heads = [_page_head(spec, tile, numbering.tile(i), scale, taken, symbols) for i, tile in enumerate(all_tiles)]
        bounds = (0.0, 0.0, spec.width * scale, spec.height * scale)
        words = place_words(spec.features, Placing(scale, bounds, 6.5, 0.6), taken)
        for head in heads:
            _draw_page_head(c, *head)
        _draw_words(c, words, 6.5, ground=True)
        steps = assembly_steps(numbering.tile(0), bool(all_tiles) and (all_tiles[0].col, all_tiles[0].row) == (0, 0))
        room = plan_bottom - 16 - (y + legend + 4)
        if len(all_tiles) > 1 and room < len(_step_lines(steps, w)) * 10:  # no room under the plan: on it
            blocked = list(taken) + [_scaled(t.x0, t.y0, t.core_x1, t.core_y1, scale) for t in all_tiles]
            blocked += [_scaled(*f.extent, scale) for f in spec.features if len(f.points) > 1]
            _steps_on_plan(c, steps, bounds, blocked)
        c.restoreState()
        if spec.features:
            _legend(c, x, y, {f.kind for f in spec.features})
        if len(all_tiles) > 1 and room >= len(_step_lines(steps, w)) * 10:
            _assembly_steps(c, steps, x, plan_bottom - 16, w, room)

    return draw


def _size(spec: MapSpec) -> str:
    """The map's size in its own measure: a centimetre table in centimetres, others in inches."""
    unit, unit_pt = spec.extra.get("unit", ("in", 72.0))
    return f"{spec.width / unit_pt:.3g} x {spec.height / unit_pt:.3g} {unit}"


def _scaled(x0: float, y0: float, x1: float, y1: float, scale: float) -> Box:
    return x0 * scale, y0 * scale, x1 * scale, y1 * scale


def _steps_on_plan(c, steps: tuple[str, ...], bounds: Box, blocked: list[Box]) -> None:
    """The assembly steps on a white ground in the first part of the plan that holds
    nothing (no page, area, symbol or name), nearest its bottom right corner."""
    width = min(330.0, (bounds[2] - bounds[0]) * 0.5)
    lines = _step_lines(steps, width - 12)
    height = len(lines) * 10 + 10
    spots = [
        (bounds[2] - width - 6 - i * 12, bounds[1] + 6 + j * 12)
        for i in range(int((bounds[2] - bounds[0] - width) / 12))
        for j in range(int((bounds[3] - bounds[1] - height) / 12))
    ]
    for x0, y0 in sorted(spots, key=lambda p: (bounds[2] - p[0]) + (p[1] - bounds[1])):
        box = (x0, y0, x0 + width, y0 + height)
        if not any(labels.overlaps(box, other) for other in blocked):
            c.saveState()
            c.setFillColorRGB(1, 1, 1)
            c.setStrokeColorRGB(0.4, 0.4, 0.4)
            c.setLineWidth(0.5)
            c.rect(x0, y0, width, height, stroke=1, fill=1)
            c.restoreState()
            _assembly_steps(c, steps, x0 + 6, y0 + height - 12, width - 12, height)
            return


def _step_lines(steps: tuple[str, ...], width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit

    return [line for step in steps for line in simpleSplit(step, FONT, 7.5, width)]


def _draw_plan_map(c, spec: MapSpec, all_tiles: list[Tile], scale: float, colour: bool) -> None:
    """The whole map at the plan's scale, with the outline of every page that prints it."""
    c.saveState()
    c.scale(scale, scale)
    if colour:
        c.setFillColorRGB(*SEA)
        c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
    spec.draw_plan(c, scale)
    _draw_features(c, spec.features, colour, u=0.6 / scale, tint=True)
    c.setLineWidth(0.8 / scale)
    c.setStrokeColorRGB(0, 0, 0)
    c.rect(0, 0, spec.width, spec.height, stroke=1, fill=0)
    c.setStrokeColorRGB(0.75, 0.1, 0.1)
    for tile in all_tiles:
        c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=1, fill=0)
    c.restoreState()


HEAD_SIZES = (7.0, 6.0)  # a page's number on the plan, and the sectors or hexes it prints


def _page_head(
    spec: MapSpec, tile: Tile, number: int, scale: float, taken: labels.Taken, symbols: list[Box]
) -> tuple[tuple[str, ...], float, float, Box]:
    """A page's number (and what it prints, where that fits) inside its outline on the plan,
    in the place nearest its top middle that is clear of other pages' numbers and of the
    symbols, leaving room round each symbol for its name; where the page is too crowded for
    that, clear of the symbols alone. Returns the lines, the block's centre x and top, and
    its box (taken)."""
    rect = (tile.x0 * scale, tile.y0 * scale, tile.core_x1 * scale, tile.core_y1 * scale)
    span = spec.range_of(tile.x0, tile.y0, tile.core_x1, tile.core_y1)
    name = f"page {number}"
    roomy = [labels.shrink(box, -16) for box in symbols]
    for avoid, lines in (
        (roomy, (name, span)),
        (roomy, (name,)),
        ([], (name, span)),
        ([], (name,)),
    ):
        found = _head_spot(rect, lines, taken + avoid)
        if found is not None:
            taken.append(found[2])
            return (lines, *found)
    top = rect[3] - 1.5
    box = (rect[0], top - 10, rect[2], top)
    taken.append(box)
    return (name,), (rect[0] + rect[2]) / 2, top, box


def _head_spot(rect: Box, lines: tuple[str, ...], taken: labels.Taken) -> tuple[float, float, Box] | None:
    width = max([text_width(lines[0], HEAD_SIZES[0], BOLD), *(text_width(t, HEAD_SIZES[1]) for t in lines[1:])]) + 4
    height = 10.0 + 8.0 * (len(lines) - 1)
    inner = (rect[0] + 1.5 + width / 2, rect[1] + 1.5 + height, rect[2] - 1.5 - width / 2, rect[3] - 1.5)
    if inner[0] > inner[2] or inner[1] > inner[3]:
        return None
    cx = (rect[0] + rect[2]) / 2
    spots = [
        (inner[0] + (inner[2] - inner[0]) * i / 8, inner[3] - (inner[3] - inner[1]) * j / 8)
        for i in range(9)
        for j in range(9)
    ]
    spots.sort(key=lambda p: abs(p[0] - cx) + (inner[3] - p[1]) * 2)
    for x, top in spots:
        box = (x - width / 2, top - height, x + width / 2, top)
        if labels.free(box, taken, rect):
            return x, top, box
    return None


def _draw_page_head(c, lines: tuple[str, ...], cx: float, top: float, box: Box) -> None:
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.setFillAlpha(0.85)
    c.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], stroke=0, fill=1)
    c.setFillAlpha(1)
    c.setFillColorRGB(0.75, 0.1, 0.1)
    c.setFont(BOLD, HEAD_SIZES[0])
    c.drawCentredString(cx, top - 7.5, lines[0])
    if len(lines) > 1:
        c.setFont(FONT, HEAD_SIZES[1])
        c.drawCentredString(cx, top - 15, lines[1])
    c.restoreState()


def assembly_steps(first: int, at_corner: bool) -> tuple[str, ...]:
    """How to put the pages together, in the order of their page numbers: the first page is
    laid down, each next one trimmed and glued onto the strips of those before it."""
    where = ", at the bottom left," if at_corner else ""
    return (
        "To assemble the map:",
        "1. Print the pages at actual size (100 %) and check that each bar measures what its label says.",
        f"2. Lay the pages out as on this plan. Page {first}{where} comes first: it is not trimmed, and the next "
        "pages are glued onto its strips.",
        "3. Take the other pages in the order of their numbers: left to right along a row, then the row above. On "
        "each, trim the left or bottom edge, or both, on the solid line (the page's header says which).",
        "4. Lay each trimmed edge on the inner edge of the dashed glue strip of the page next to it, so that the half "
        "circles on the seam close into whole circles, and glue it down.",
    )


def _assembly_steps(c, steps: tuple[str, ...], x: float, top: float, width: float, room: float) -> None:
    """How to put the pages together, from ``top`` down, where there is room for it."""
    lines = _step_lines(steps, width)
    if room < len(lines) * 10:
        return
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for i, line in enumerate(lines):
        c.setFont(BOLD if i == 0 else FONT, 7.5)
        c.drawString(x, top - i * 10, line)
    c.restoreState()


def _legend(c, x: float, y: float, kinds: set[str]) -> None:
    """What the plan's symbols mean: those on this map."""
    c.saveState()
    c.setFont(FONT, 6.5)
    items = [
        ("island", "land"),
        ("shoal", "shallows (dashed)"),
        ("objective", "objective"),
        ("battery", "shore battery or garrison"),
        ("air-base", "air base"),
        ("deployment", "deployment zone (dashed, the side's color)"),
    ]
    cx = x
    for kind, text in [item for item in items if item[0] in kinds]:
        c.setStrokeColorRGB(0, 0, 0)
        c.setFillColorRGB(1, 1, 1)
        if kind in ("objective", "battery", "air-base"):  # the symbols as the map draws them
            c.saveState()
            _draw_point(c, Feature(kind, "", ((cx + 4, y + 4),)), 0.42)
            c.restoreState()
        else:
            c.setDash(*((2, 1.5) if kind != "island" else (1, 0)))
            c.setFillColorRGB(0.93, 0.93, 0.93)  # land is grey on the map
            c.rect(cx, y, 10, 8, stroke=1, fill=1 if kind == "island" else 0)
            c.setDash(1, 0)
        c.setFillColorRGB(0, 0, 0)
        c.drawString(cx + 13, y + 1.5, text)
        cx += 13 + c.stringWidth(text, FONT, 6.5) + 14
    c.restoreState()


# --- the poster: the whole map on one page at true size ----------------------------------------


def poster_pdf(spec: MapSpec, profile: PrinterProfile = PrinterProfile(), colour: bool = False) -> tuple[bytes, int]:
    """One page exactly the size of the map, at true size, for a print shop: the paper's edge
    is the board's edge. As on every sheet, nothing is printed in the outer 12 pt (the grid
    stops short of the edge there); the header, the check bars and the print note lie over
    the board's outer band, inside the edge sectors or hexes."""
    page = Page(spec.width, spec.height)
    # coordinates, scale bars and labels keep to the part inside the margins
    inner = Tile(0, 0, MARGIN, MARGIN, spec.width - 2 * MARGIN, spec.height - 2 * MARGIN, *_inner_corner(spec))

    size = f"{round(spec.width / 72, 1):g} x {round(spec.height / 72, 1):g} in"
    header = (
        f"{spec.title.removesuffix(': map')}: the whole map on one {size} sheet at true size "
        f"({spec.grid_note}). Print at 100 %: the paper's edge is the board's edge; its outer 12 pt are left blank."
    )

    def draw(c) -> None:
        c.saveState()
        clip = c.beginPath()
        clip.rect(SAFE, SAFE, spec.width - 2 * SAFE, spec.height - 2 * SAFE)
        c.clipPath(clip, stroke=0, fill=0)
        if colour:
            c.setFillColorRGB(*SEA)
            c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
        _draw_map(c, spec, inner, colour, [], (MARGIN, MARGIN, inner.core_x1, inner.core_y1), whole=True)
        c.restoreState()
        c.saveState()  # the header on a white ground over the grid
        c.setFillColorRGB(*((1, 1, 1) if not colour else SEA))
        lines = header_lines(page, header)
        top = spec.height - MARGIN + 12 + HEADER_SIZE if len(lines) == 1 else spec.height - SAFE - 10 + HEADER_SIZE
        low = top - HEADER_SIZE - 3 - (len(lines) - 1) * (HEADER_SIZE + 1.5)
        width = max(text_width(line, HEADER_SIZE) for line in lines)
        c.rect(MARGIN - 3, low, width + 6, top + 1 - low, stroke=0, fill=1)
        c.restoreState()
        draw_label(c, page, header)

    return document([(page, draw)], f"{spec.title} (poster)", profile)


def _inner_corner(spec: MapSpec) -> tuple[float, float]:
    return spec.width - MARGIN, spec.height - MARGIN


# --- map specs ------------------------------------------------------------------------------------


def square_map(title: str, columns: int, rows: int, sector: float, features=(), overlap: float = 36.0) -> MapSpec:
    return MapSpec(
        title,
        columns * sector,
        rows * sector,
        square_grid(columns, rows, sector),
        tuple(features),
        overlap,
        f"{columns} x {rows} sectors of {sector / 72:g} in",
        square_range(columns, rows, sector),
        square_plan(columns, rows, sector),
        grid_names=square_names(columns, rows, sector),
    )


def hex_map(title: str, width: float, height: float, flat: float, features=(), overlap: float = 36.0) -> MapSpec:
    """Whole hexes ``flat`` points flat to flat over a ``width`` x ``height`` table."""
    board = HexBoard(unit_pt=flat)
    columns, rows = board.fitting(width, height)  # the map ends with the last whole hex
    return _hex_spec(title, board, columns, rows, features, overlap)


def plain_map(
    title: str,
    width: float,
    height: float,
    unit: str,
    unit_pt: float,
    features=(),
    overlap: float = 36.0,
    bar: tuple[str, float] | None = None,
) -> MapSpec:
    label, length = bar or (f"1 {unit}", unit_pt)
    return MapSpec(
        title,
        width,
        height,
        plain_sea(label, length),
        tuple(features),
        overlap,
        "no grid",
        plain_range(unit, unit_pt, height),
        plain_plan(unit, unit_pt, width, height),
        extra={"unit": (unit, unit_pt)},
    )


def _square_spec(title: str, board: SquareBoard, columns: int, rows: int, features, overlap: float) -> MapSpec:
    return square_map(title, columns, rows, board.unit_pt, features, overlap)


def _hex_spec(title: str, board: HexBoard, columns: int, rows: int, features, overlap: float) -> MapSpec:
    flat = board.unit_pt
    width, height = hex_grid_extent(columns, rows, flat)
    return MapSpec(
        title,
        width,
        height,
        hex_grid(columns, rows, flat),
        tuple(features),
        overlap,
        f"{columns} x {rows} hexes, {round(flat * 2.54 / 72, 2):g} cm flat to flat",
        hex_range(columns, rows, flat),
        hex_plan(columns, rows, flat),
        grid_names=hex_names(columns, rows, flat),
    )


def _table_spec(title: str, board: TableBoard, width: float, height: float, features, overlap: float) -> MapSpec:
    w, h = board.extent(width, height)
    return plain_map(title, w, h, board.unit, board.unit_pt, features, overlap, board.scale_bar())


# The one table from a kind of board to its drawing: every map (a kit's board, a scenario's
# map, its poster) is drawn through ``board_map``, whatever the variant.
_DRAWINGS: dict[type, Callable[..., MapSpec]] = {
    SquareBoard: _square_spec,
    HexBoard: _hex_spec,
    TableBoard: _table_spec,
}


def board_map(title: str, board: Board, across: float, down: float, features=(), overlap: float = 36.0) -> MapSpec:
    """A map of ``board``, ``across`` x ``down`` in its units (columns and rows of a grid)."""
    return _DRAWINGS[type(board)](title, board, across, down, features, overlap)
