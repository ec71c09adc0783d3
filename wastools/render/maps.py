"""Map sheets at exact scale: square sectors, hex grids or plain sea, tiled over pages.

Ink-light by default: white sea, thin grid, coordinates (``colour=True`` fills the sea).
One overlap scheme: each page prints its own area plus a glue strip along its right and
upper edges; the neighbor to the right (above) is trimmed on its left (bottom) solid line
and glued over that strip. Alignment marks are circles centered on each seam, each page
printing its half, so they close into whole circles when the pages meet. The first page is
a plan of the whole map with every page's area, its PDF page number and its coordinates.
``poster_pdf`` prints the whole map on one page at true size, for a print shop.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ..geometry import Tile, hex_center, hex_corners, hex_grid_extent, hex_grid_size, hex_radius, tiles
from ..outline import Box, Point, Segment, clip_polygon, hex_rings, hex_union_edges, meets, visible_runs
from .pages import HEADER_SIZE, MARGIN, Page, document, draw_label, header_lines
from .sheets import BOLD, FONT, SAFE, PrinterProfile, text_width

SEA = (0.86, 0.92, 0.97)
GRID = (0.45, 0.5, 0.58)
Draw = Callable[[object, Tile], None]
Plan = Callable[[object, float], None]  # draws the grid at the plan's scale
Range = Callable[[float, float, float, float], str]  # map rectangle -> "A1 to F3"


@dataclass(frozen=True)
class Feature:
    kind: str  # island, shoal, air-base, objective, deployment, battery
    label: str
    points: tuple[tuple[float, float], ...]  # polygon (island, shoal, deployment) or one point
    side: str | None = None
    hexes: float = 0.0  # if above 0: ``points`` are the centers of hexes this wide, the feature is their union

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


def column_name(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def sector_name(col: int, row_from_top: int) -> str:
    """The board's own label of a sector: column letter, row number from the top (C7)."""
    return f"{column_name(col)}{row_from_top + 1}"


def square_grid(columns: int, rows: int, sector: float) -> Draw:
    """Thin sector lines every ``sector`` points, each sector named column letter + row number."""

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
        c.setFillColorRGB(*GRID)
        c.setFont(FONT, 8)
        for i in cols:
            for j in rws:
                # each sector named in the top left corner of the part this page shows
                left, top = max(i * sector, tile.x0), min((j + 1) * sector, tile.core_y1)
                if min((i + 1) * sector, tile.core_x1) - left >= 30 and top - max(j * sector, tile.y0) >= 20:
                    c.drawString(left + 5, top - 12, sector_name(i, rows - 1 - j))

    return draw


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
    """Thin flat-topped hexes ``flat`` points flat to flat, labelled CCRR."""
    r = hex_radius(flat)
    top = hex_grid_extent(columns, rows, flat)[1]

    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(*GRID)
        c.setLineWidth(0.5)
        c.setFillColorRGB(*GRID)
        c.setFont(FONT, 7)
        for col, row in _hexes_near(columns, rows, flat, tile.x0, tile.y0, tile.x0 + tile.width, tile.y0 + tile.height):
            cx, cy = hex_center(col, row, flat)
            if not (tile.x0 - r <= cx <= tile.x0 + tile.width + r and tile.y0 - r <= cy <= tile.y0 + tile.height + r):
                continue
            _hex_path(c, cx, cy, flat)
            label_y = cy + flat / 2 - 10
            if cy + flat / 2 >= top - 0.01:  # a hex on the map's top edge: its name below the page's margin
                label_y = min(label_y, tile.core_y1 - 8)
            c.drawCentredString(cx, label_y, hex_name(col, rows - 1 - row))

    return draw


def _hexes_near(columns: int, rows: int, flat: float, x0: float, y0: float, x1: float, y1: float):
    """(col, row) of the hexes whose centers may lie in the rectangle, widened by a hex: a
    page visits the hexes it shows, not the whole map's."""
    r = hex_radius(flat)
    cols = range(max(0, math.floor((x0 - 2 * r) / (1.5 * r))), min(columns, math.ceil((x1 + r) / (1.5 * r)) + 1))
    rws = range(max(0, math.floor((y0 - 2 * flat) / flat)), min(rows, math.ceil((y1 + flat) / flat) + 1))
    return ((col, row) for col in cols for row in rws)


def hex_name(col: int, row_from_top: int) -> str:
    return f"{col + 1:02d}{row_from_top + 1:02d}"


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

    def draw(c, tile: Tile) -> None:
        from .sheets import Bar, draw_bar

        draw_bar(c, Bar(label, tile.x0 + 14, tile.y0 + 14, length_pt, False))

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


def _draw_features(
    c,
    features: tuple[Feature, ...],
    colour: bool = True,
    labels: bool = True,
    u: float = 1.0,
    tint: bool = False,
    shapes: bool = True,
    box: Box | None = None,
) -> None:
    """Terrain, zones and positions; ``u`` scales symbol sizes and line widths (the plan
    draws them larger than its own scale), ``tint`` fills deployment zones lightly;
    ``shapes=False`` draws the labels alone (over a grid drawn after the shapes). With
    ``box`` (a page's part of the map), only what can show there is drawn: a page's work
    and size grow with what it shows, not with the whole map."""
    for f in features:
        if box is not None and not _may_show(f, box, u):
            continue
        c.saveState()
        if shapes:
            _draw_shape(c, f, colour, u, tint, box)
        if labels and f.kind == "play-area":  # in its top left corner, clear of what it holds
            c.setFillColorRGB(0.2, 0.2, 0.2)
            c.setFont(BOLD, 9 * u)
            c.drawString(min(p[0] for p in f.points) + 60 * u, max(p[1] for p in f.points) + 6 * u, f.label)
        elif labels:
            x, y = _label_point(f)
            if box is None or _near((x, y), box, len(f.label) * 7 * u + 30 * u):
                c.setFillColorRGB(0, 0, 0)
                c.setFont(BOLD, 7 * u)
                c.drawCentredString(x, y - (20 * u if len(f.points) == 1 else 0), f.label)
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


def _draw_terrain_then_grid(c, spec: MapSpec, tile: Tile, colour: bool, whole: bool = False) -> None:
    """Islands and zones first, then the grid with its hex names, then the labels: a filled
    island never hides the names of the hexes it covers. The shapes are cut to the tile's
    area, unless ``whole`` (the poster, whose page is the map)."""
    box = None if whole else (tile.x0 - 2, tile.y0 - 2, tile.x0 + tile.width + 2, tile.y0 + tile.height + 2)
    _draw_features(c, spec.features, colour, labels=False, box=box)
    spec.draw_grid(c, tile)
    _draw_features(c, spec.features, colour, shapes=False, box=box)


def _label_point(f: Feature) -> tuple[float, float]:
    return f.middle


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


def map_pdf(
    spec: MapSpec,
    paper: str,
    profile: PrinterProfile = PrinterProfile(),
    colour: bool = False,
    numbering: Numbering = Numbering(),
    area: tuple[float, float, float, float] | None = None,
    note: str = "",
) -> tuple[bytes, int]:
    """A plan of the whole map, then the tiles of ``area`` (x, y, width, height in map
    points; the whole map unless given; no tiles if its width is 0). ``note`` is printed
    under the plan."""
    region = area or (0.0, 0.0, spec.width, spec.height)
    page = Page.of(paper, landscape=region[2] > region[3])
    plan = Page.of(paper, landscape=spec.width > spec.height)
    all_tiles = area_tiles(spec, page, area) if region[2] > 0 else []
    total = numbering.total or numbering.first + len(all_tiles)
    pages = [(plan, _assembly(spec, all_tiles, plan, numbering, colour, note))]
    for tile in all_tiles:
        pages.append((page, _tile_page(spec, tile, all_tiles, page, numbering, total, colour)))
    return document(pages, spec.title, profile)


def area_tiles(spec: MapSpec, page: Page, area: tuple[float, float, float, float] | None = None) -> list[Tile]:
    if area is None:
        return page_tiles(spec, page)
    ax, ay, aw, ah = area
    _x, _y, w, h = page.area
    return [
        Tile(t.row, t.col, t.x0 + ax, t.y0 + ay, t.width, t.height, t.core_x1 + ax, t.core_y1 + ay)
        for t in tiles(aw, ah, w, h, spec.overlap)
    ]


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

    def draw(c) -> None:
        x, y, _w, _h = page.area
        steps = []
        if left is not None or below is not None:
            edges = [name for name, n in (("left", left), ("bottom", below)) if n is not None]
            steps.append(
                f"trim the {' and '.join(edges)} "
                f"edge{'s on the solid lines' if len(edges) > 1 else ' on the solid line'}"
            )
        steps += [
            f"glue it over the {where} strip of page {numbering.tile(n)}"
            for where, n in (("right", left), ("top", below))
            if n is not None
        ]
        how = ("; ".join(steps) + ".") if steps else "the first page: the others are glued onto its strips."
        draw_label(
            c,
            page,
            (
                f"{spec.title} - page {numbering.tile(index)} of {total}: "
                f"{spec.range_of(tile.x0, tile.y0, tile.core_x1, tile.core_y1)}. "
            )
            + how[0].upper()
            + how[1:],
        )
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
        _draw_terrain_then_grid(c, spec, tile, colour)
        _draw_seam_marks(c, seam_marks(tile, all_tiles))
        c.restoreState()
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.6)
        c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=1, fill=0)
        c.restoreState()

    return draw


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
                f"{spec.title} - page {numbering.first}: plan of the whole map ({spec.width / 72:.3g} x "
                f"{spec.height / 72:.3g} in, {spec.grid_note}). {pages}"
            ),
        )
        if note:
            c.saveState()
            c.setFont(FONT, 7)
            c.drawString(x, page.height - MARGIN + 3, note)
            c.restoreState()
        legend = 14 if spec.features else 0
        scale = min(w / spec.width, (h - 14 - legend) / spec.height)
        c.saveState()
        c.translate(x, y + legend + (h - 14 - legend - spec.height * scale))
        c.scale(scale, scale)
        if colour:
            c.setFillColorRGB(*SEA)
            c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
        spec.draw_plan(c, scale)
        _draw_features(c, spec.features, colour, labels=False, u=0.6 / scale, tint=True)
        c.setLineWidth(0.8 / scale)
        c.setStrokeColorRGB(0, 0, 0)
        c.rect(0, 0, spec.width, spec.height, stroke=1, fill=0)
        taken: list[Box] = []  # what feature labels must not cover, in plan points
        for index, tile in enumerate(all_tiles):
            c.setLineWidth(0.8 / scale)
            c.setStrokeColorRGB(0.75, 0.1, 0.1)
            c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=1, fill=0)
            cx, top = (tile.x0 + tile.core_x1) / 2, tile.core_y1
            head = text_width(f"page {numbering.tile(index)}", 7, BOLD)
            span = spec.range_of(tile.x0, tile.y0, tile.core_x1, tile.core_y1)
            spans = text_width(span, 6) + 4 <= (tile.core_x1 - tile.x0) * scale  # else the page's own header says it
            if spans:
                head = max(head, text_width(span, 6))
            c.setFillColorRGB(1, 1, 1)
            c.setFillAlpha(0.85)
            ground = (head + 4) / scale, (18 if spans else 10) / scale
            c.rect(cx - ground[0] / 2, top - 1.5 / scale - ground[1], ground[0], ground[1], stroke=0, fill=1)
            c.setFillAlpha(1)
            c.setFillColorRGB(0.75, 0.1, 0.1)
            c.setFont(BOLD, 7 / scale)
            c.drawCentredString(cx, top - 9 / scale, f"page {numbering.tile(index)}")
            if spans:
                c.setFont(FONT, 6 / scale)
                c.drawCentredString(cx, top - 16 / scale, span)
            taken.append(_box(cx * scale, top * scale - 18, head, 18))
        for f in spec.features:
            if len(f.points) == 1:  # the symbol itself
                fx, fy = f.points[0][0] * scale, f.points[0][1] * scale
                taken.append((fx - 7, fy - 7, fx + 7, fy + 7))
        bottom = legend + 2 - (legend + (h - 14 - legend - spec.height * scale))  # down to the legend
        bounds = (0.0, bottom, w, spec.height * scale)
        for f in spec.features:
            fx, fy = _label_point(f)
            anchor = (fx * scale, fy * scale)
            size = text_width(f.label, 6.5, BOLD), 6.5
            lx, ly, moved = place_label(anchor, size, len(f.points) == 1, taken, bounds)
            box = _box(lx, ly - 1.5, size[0] + 2, size[1] + 1.5)
            taken.append(box)
            c.saveState()
            c.scale(1 / scale, 1 / scale)  # plan points from here
            if moved:  # a thin leader from the label to what it names
                c.setStrokeColorRGB(0.3, 0.3, 0.3)
                c.setLineWidth(0.4)
                c.line(*anchor, min(max(anchor[0], box[0]), box[2]), min(max(anchor[1], box[1]), box[3]))
            c.setFillColorRGB(1, 1, 1)
            c.setFillAlpha(0.8)
            c.rect(lx - size[0] / 2 - 1, ly - 1.5, size[0] + 2, size[1] + 1.5, stroke=0, fill=1)
            c.setFillAlpha(1)
            c.setFillColorRGB(0, 0, 0)
            c.setFont(BOLD, 6.5)
            c.drawCentredString(lx, ly, f.label)
            c.restoreState()
        c.restoreState()
        if spec.features:
            _legend(c, x, y)
        plan_bottom = y + legend + (h - 14 - legend - spec.height * scale)
        if len(all_tiles) > 1:
            _assembly_steps(c, x, plan_bottom - 16, w, plan_bottom - 16 - (y + legend + 4))

    return draw


ASSEMBLY_STEPS = (
    "To assemble the map:",
    "1. Print the pages at actual size (100 %) and check that each bar measures what its label says.",
    "2. Lay the pages out as on this plan, the top left page first.",
    "3. On every page that has a page to its left or below it, trim that left or bottom edge on the solid line "
    "(the page's header says which edges).",
    "4. Lay the trimmed edge on the inner edge of the dashed glue strip of the page next to it, so that the half "
    "circles on the seam close into whole circles, and glue it down. Work along the top row, then row by row "
    "downwards.",
)


def _assembly_steps(c, x: float, top: float, width: float, room: float) -> None:
    """How to put the pages together, under the plan where there is room for it."""
    from reportlab.lib.utils import simpleSplit

    lines = [line for step in ASSEMBLY_STEPS for line in simpleSplit(step, FONT, 7.5, width)]
    if room < len(lines) * 10:
        return
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    for i, line in enumerate(lines):
        c.setFont(BOLD if i == 0 else FONT, 7.5)
        c.drawString(x, top - i * 10, line)
    c.restoreState()


def _box(cx: float, y: float, width: float, height: float) -> Box:
    return cx - width / 2, y, cx + width / 2, y + height


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_label(
    anchor: tuple[float, float], size: tuple[float, float], point: bool, taken: list[Box], bounds: Box
) -> tuple[float, float, bool]:
    """Where a feature's label goes on the plan (center x, baseline y, and whether it moved
    away from its own place): under a point symbol (over an area's middle) if that is free,
    else the nearest free place around it, moving out step by step; it never leaves
    ``bounds``. Falls back to its own place if none is free."""
    ax, ay = anchor
    w, h = size
    first = (ax, ay - 14) if point else (ax, ay - h / 2)
    candidates = [first]
    for step in range(1, 12):
        d = 8.5 * step
        candidates += [(first[0], first[1] - d), (first[0], first[1] + d + (14 if point else 0))]
        candidates += [(ax + 12 + w / 2 + d - 8.5, ay - h / 2), (ax - 12 - w / 2 - d + 8.5, ay - h / 2)]
    for i, (lx, ly) in enumerate(candidates):
        lx = min(max(lx, bounds[0] + w / 2 + 1), bounds[2] - w / 2 - 1)
        box = _box(lx, ly - 1.5, w + 2, h + 1.5)
        inside = bounds[1] <= box[1] and box[3] <= bounds[3]
        if inside and not any(_overlaps(box, other) for other in taken):
            return lx, ly, i > 0
    lx = min(max(first[0], bounds[0] + w / 2 + 1), bounds[2] - w / 2 - 1)
    return lx, first[1], False


def _legend(c, x: float, y: float) -> None:
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
    for kind, text in items:
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
        _draw_terrain_then_grid(c, spec, inner, colour, whole=True)
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
    )


def hex_map(title: str, width: float, height: float, flat: float, features=(), overlap: float = 36.0) -> MapSpec:
    cols, rows = hex_grid_size(width, height, flat)
    width, height = hex_grid_extent(cols, rows, flat)  # the map ends with the last whole hex
    return MapSpec(
        title,
        width,
        height,
        hex_grid(cols, rows, flat),
        tuple(features),
        overlap,
        f"{cols} x {rows} hexes, {round(flat * 2.54 / 72, 2):g} cm flat to flat",
        hex_range(cols, rows, flat),
        hex_plan(cols, rows, flat),
    )


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
    )
