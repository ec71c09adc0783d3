"""Land and sea of a scenario's map, as the printed map draws them: pure geometry, no drawing.

A scenario gives positions in its variant's map units (sectors, hexes, inches or
centimetres, y down from the north edge). ``Frame`` turns them into points on the printed
map (1/72 in, y up from the south edge), the coordinates every renderer draws in. ``Land``
answers what a point stands on: an island, a shoal or open sea. On a hex map land is the
hexes whose centres lie in an island's outline, exactly the hexes the map fills; elsewhere
it is the outline itself. Validation and the pack share these answers, so a shore battery
that validates on land is drawn on land.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..core.geometry import PT_PER_IN, Tile, hex_center, hex_radius, tiles
from ..core.outline import points_in_polygon
from ..variants.board import Board

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in map points

ON_OUTLINE_PT = 4.0  # a point this close to an island's outline stands on its shore


@dataclass(frozen=True)
class Frame:
    """Where a scenario's coordinates land on its printed map: its board at its size."""

    board: Board
    width: float  # the map's size in points
    height: float
    columns: int = 0  # sectors or hexes across and down; 0 on a plain table
    rows: int = 0

    @property
    def unit(self) -> str:
        return self.board.unit

    @property
    def unit_pt(self) -> float:
        return self.board.unit_pt

    @property
    def land_in_cells(self) -> bool:
        return self.board.land_in_cells

    def to_map(self, x: float, y: float) -> Point:
        """A scenario position [x, y] as a point on the printed map."""
        return self.board.to_map(x, y, self.rows, self.height)

    def holds(self, position: Sequence[float]) -> bool:
        """Whether a scenario position lies on the map (validation reports those that do not)."""
        x, y = position
        return self.board.holds(x, y, self.columns, self.rows, self.width, self.height)

    def hex_centre(self, hex_: tuple[int, int]) -> Point:
        return hex_center(hex_[0], hex_[1], self.unit_pt)

    def units(self, distance_pt: float) -> str:
        """A distance on the map in the scenario's own measure ("0.4 sectors", "2 hexes")."""
        return self.board.distance(distance_pt)

    def hex_at(self, point: Point) -> tuple[int, int]:
        """(column, row from the bottom) of the hex a point of the map lies in: the nearest centre."""
        flat = self.unit_pt
        r = hex_radius(flat)
        guess = round((point[0] - r) / (1.5 * r))
        best: tuple[float, int, int] | None = None
        for col in range(max(0, guess - 1), min(self.columns, guess + 2)):
            shift = flat / 2 if col % 2 else 0.0
            row_guess = round((point[1] - flat / 2 - shift) / flat)
            for row in range(max(0, row_guess - 1), min(self.rows, row_guess + 2)):
                cx, cy = hex_center(col, row, flat)
                d = math.hypot(point[0] - cx, point[1] - cy)
                if best is None or d < best[0]:
                    best = (d, col, row)
        if best is None:  # off the grid: the nearest column and row on it
            return min(max(guess, 0), self.columns - 1), 0
        return best[1], best[2]


def frame_of(data: dict[str, Any], board: Board) -> Frame | None:
    """The frame of a scenario's map, or None when its size is unusable (the schema says why)."""
    size: dict[str, Any] = data["map"] if isinstance(data.get("map"), dict) else {}
    width, height = size.get("width"), size.get("height")
    if not isinstance(width, (int, float)) or not isinstance(height, (int, float)) or width <= 0 or height <= 0:
        return None
    if not board.gridded:
        return Frame(board, *board.extent(width, height))
    cols, rows = (max(1, n) for n in board.cells(width, height))
    return Frame(board, *board.extent(cols, rows), cols, rows)


# --- polygons ----------------------------------------------------------------------------------


def inside(point: Point, polygon: Sequence[Point], tolerance: float = 1.0) -> bool:
    """Point in polygon, points on (or within ``tolerance`` of) the outline included."""
    if outline_distance(point, polygon) <= tolerance:
        return True
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def outline_distance(point: Point, polygon: Sequence[Point]) -> float:
    """The distance from a point to the nearest edge of a polygon's outline."""
    x, y = point
    best = math.inf
    for (x1, y1), (x2, y2) in zip(polygon, [*polygon[1:], polygon[0]], strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy or 1)))
        best = min(best, math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)))
    return best


def bounds(points: Sequence[Point]) -> Rect:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def polygon_meets_rect(polygon: Sequence[Point], rect: Rect) -> bool:
    """Whether a polygon and a rectangle share any area or outline."""
    x0, y0, x1, y1 = rect
    px0, py0, px1, py1 = bounds(polygon)
    if px1 < x0 or px0 > x1 or py1 < y0 or py0 > y1:
        return False
    if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in polygon):
        return True
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if any(inside(c, polygon, 0.0) for c in corners):
        return True
    edges = list(zip(polygon, [*polygon[1:], polygon[0]], strict=True))
    sides = list(zip(corners, [*corners[1:], corners[0]], strict=True))
    return any(_segments_cross(a, b, c, d) for a, b in edges for c, d in sides)


def samples(polygon: Sequence[Point], across: int = 10) -> list[Point]:
    """Points spread over a polygon's inside (a grid over its bounds, kept where inside), or
    its middle when the grid misses a sliver of a polygon."""
    x0, y0, x1, y1 = bounds(polygon)
    grid = [
        (x0 + (i + 0.5) * (x1 - x0) / across, y0 + (j + 0.5) * (y1 - y0) / across)
        for i in range(across)
        for j in range(across)
    ]
    found = [p for p in grid if inside(p, polygon, 0.0)]
    return found or [(sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))]


def hexes_in(frame: Frame, positions: Sequence[Sequence[float]]) -> tuple[tuple[int, int], ...]:
    """(column, row from the bottom) of the hexes inside a polygon given as the scenario gives
    it, in hex coordinates: the hexes whose own coordinates (column, row as printed) lie in
    (or on) it, so that an outline along row 24 takes every hex of row 24 although odd
    columns sit half a hex higher. The hex nearest the polygon's middle if none does."""
    polygon = [(float(x), float(y)) for x, y in positions]
    x0, y0, x1, y1 = bounds(polygon)
    rows = [float(row) for row in range(max(1, math.floor(y0)), min(frame.rows, math.ceil(y1)) + 1)]
    columns = range(max(1, math.floor(x0)), min(frame.columns, math.ceil(x1)) + 1)
    found = tuple(
        (round(col) - 1, frame.rows - round(row))
        for col, row in points_in_polygon(polygon, ((float(c), rows) for c in columns), 0.01)
    )
    if found:
        return found
    middle = sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon)
    return (frame.hex_at(frame.to_map(*middle)),)


def hex_steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hexes from one hex to another, counted across the grid (neighbours are 1 apart).
    Axial coordinates of this grid: q = column, r = row - floor(column / 2)."""
    dq = b[0] - a[0]
    dr = (b[1] - b[0] // 2) - (a[1] - a[0] // 2)
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --- land and sea ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """An island or a shoal of the scenario's terrain, in map points."""

    kind: str  # island or shoal
    name: str
    outline: tuple[Point, ...]
    hexes: frozenset[tuple[int, int]] = frozenset()  # on a hex map: the hexes it fills

    @property
    def described(self) -> str:
        return f"{self.name} ({'land' if self.kind == 'island' else 'shallows'})"


@dataclass(frozen=True)
class Land:
    """What each point of a scenario's map is: an island, a shoal, or open sea."""

    frame: Frame
    areas: tuple[Area, ...] = field(default_factory=tuple)

    @property
    def islands(self) -> tuple[Area, ...]:
        return tuple(a for a in self.areas if a.kind == "island")

    def _on(self, area: Area, point: Point) -> bool:
        if self.frame.land_in_cells:
            return self.frame.hex_at(point) in area.hexes
        return inside(point, area.outline, ON_OUTLINE_PT)

    @cached_property
    def _island_of_hex(self) -> dict[tuple[int, int], Area]:
        """On a hex map, the first island that holds each hex: one lookup a point, however
        many islands the map has."""
        found: dict[tuple[int, int], Area] = {}
        for area in reversed(self.islands):
            found.update(dict.fromkeys(area.hexes, area))
        return found

    def island_at(self, point: Point) -> Area | None:
        if self.frame.land_in_cells:
            return self._island_of_hex.get(self.frame.hex_at(point))
        return next((a for a in self.islands if self._on(a, point)), None)

    def shoal_at(self, point: Point) -> Area | None:
        return next((a for a in self.areas if a.kind == "shoal" and self._on(a, point)), None)

    def is_sea(self, point: Point) -> bool:
        return self.island_at(point) is None

    def nearest_island(self, point: Point) -> tuple[Area, float] | None:
        """The island whose land lies nearest a point, and how far it is (map points)."""
        best: tuple[Area, float] | None = None
        for area in self.islands:
            if self.frame.land_in_cells:
                here = self.frame.hex_at(point)
                d = min(hex_steps(here, h) for h in area.hexes) * self.frame.unit_pt
            else:
                d = outline_distance(point, area.outline)
            if best is None or d < best[1]:
                best = (area, d)
        return best

    def sea_distance(self, point: Point, reach: float) -> float | None:
        """How far a point on land lies from the sea, if the sea is within ``reach`` map
        points (looked for on rings of points around it); None when it is farther."""
        steps = 8
        for k in range(1, steps + 1):
            radius = reach * k / steps
            for i in range(16):
                a = 2 * math.pi * i / 16
                p = (point[0] + radius * math.cos(a), point[1] + radius * math.sin(a))
                if 0 <= p[0] <= self.frame.width and 0 <= p[1] <= self.frame.height and self.is_sea(p):
                    return radius
        return None

    def hex_reaches_sea(self, point: Point) -> bool:
        """On a hex map: the point's hex or one of its six neighbours is sea."""
        flat = self.frame.unit_pt
        cx, cy = hex_center(*self.frame.hex_at(point), flat)
        around = [(cx, cy)] + [
            (cx + flat * math.cos(math.radians(30 + 60 * k)), cy + flat * math.sin(math.radians(30 + 60 * k)))
            for k in range(6)
        ]
        return any(
            0 <= x <= self.frame.width and 0 <= y <= self.frame.height and self.is_sea((x, y)) for x, y in around
        )


def land_of(frame: Frame, data: dict[str, Any]) -> Land:
    """The scenario's islands and shoals, skipping entries the schema has already refused."""
    areas = []
    for item in data.get("terrain") or []:
        if not isinstance(item, dict) or item.get("kind") not in ("island", "shoal"):
            continue
        points = item.get("points")
        if not isinstance(points, list) or len(points) < 3 or not all(is_point(p) for p in points):
            continue
        outline = tuple(frame.to_map(*p) for p in points)
        hexes = frozenset(hexes_in(frame, points)) if frame.land_in_cells else frozenset()
        areas.append(Area(item["kind"], str(item.get("name", item["kind"])), outline, hexes))
    return Land(frame, tuple(areas))


def is_point(point: Any) -> bool:
    return (
        isinstance(point, list)
        and len(point) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
    )


# --- the printed area -----------------------------------------------------------------------


def play_area(frame: Frame, data: dict[str, Any]) -> tuple[float, float, float, float] | None:
    """The part of the map the pack tiles (x, y, width, height in map points): the
    scenario's ``map.play_area`` corners if it sets them; on a table without a grid only
    the terrain (open sea needs no paper: the table is the sea), or nothing at all when
    there is no terrain; otherwise (None) the whole map."""
    corners = data["map"].get("play_area")
    if not corners and not frame.board.gridded:
        points = [p for area in land_of(frame, data).areas for p in area.outline]
        if not points:
            return 0.0, 0.0, 0.0, 0.0
        x0, y0, x1, y1 = bounds(points)
        return _clip(frame, x0 - PT_PER_IN, y0 - PT_PER_IN, x1 + PT_PER_IN, y1 + PT_PER_IN)
    if not corners:
        return None
    (x0, y0), (x1, y1) = frame.to_map(*corners[0]), frame.to_map(*corners[1])
    pad_x, pad_y = frame.board.corner_pad()  # corners that name hexes take them whole
    x0, x1 = min(x0, x1) - pad_x, max(x0, x1) + pad_x
    y0, y1 = min(y0, y1) - pad_y, max(y0, y1) + pad_y
    return _clip(frame, x0, y0, x1, y1)


def _clip(frame: Frame, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    left, right = max(0.0, min(x0, x1)), min(frame.width, max(x0, x1))
    bottom, top = max(0.0, min(y0, y1)), min(frame.height, max(y0, y1))
    return left, bottom, right - left, top - bottom


def area_tiles(area: tuple[float, float, float, float], page: tuple[float, float], overlap: float) -> list[Tile]:
    """The pages (tiles) that print a rectangle of the map, each ``page`` (width, height) in size."""
    ax, ay, aw, ah = area
    w, h = page
    return [
        Tile(t.row, t.col, t.x0 + ax, t.y0 + ay, t.width, t.height, t.core_x1 + ax, t.core_y1 + ay)
        for t in tiles(aw, ah, w, h, overlap)
    ]


NEEDED_TERRAIN = 4  # points of a half-inch grid: about a square inch of terrain makes a page worth printing


def tile_needed(frame: Frame, land: Land) -> Callable[[Tile], bool] | None:
    """Which tiles a pack prints: on a table without a grid only those that hold terrain,
    about a square inch of it at least (a page of open sea, or with a sliver of a coast in
    its corner, holds nothing a player needs); on a grid every one (None)."""
    if frame.board.gridded:
        return None

    def needed(tile: Tile) -> bool:
        core = (tile.x0, tile.y0, tile.core_x1, tile.core_y1)
        areas = [a.outline for a in land.areas if polygon_meets_rect(a.outline, core)]
        if not areas:
            return False
        step = PT_PER_IN / 2
        grid = (
            (tile.x0 + (i + 0.5) * step, tile.y0 + (j + 0.5) * step)
            for i in range(int((tile.core_x1 - tile.x0) / step))
            for j in range(int((tile.core_y1 - tile.y0) / step))
        )
        found = 0
        for point in grid:
            if any(inside(point, outline, 0.0) for outline in areas):
                found += 1
                if found >= NEEDED_TERRAIN:
                    return True
        return False

    return needed


# --- the page budget ----------------------------------------------------------------------------

LETTER = (612.0, 792.0)
PAGE_MARGIN = 36.0  # as render.pages.MARGIN: the drawable area of a sheet
CARDS_PER_SHEET = 9
PAGE_BUDGET = 40  # the docs keep shipped packs within 40 Letter pages


def letter_area(landscape: bool) -> tuple[float, float]:
    w, h = (LETTER[1], LETTER[0]) if landscape else LETTER
    return w - 2 * PAGE_MARGIN, h - 2 * PAGE_MARGIN


@dataclass(frozen=True)
class PackPages:
    """How many Letter pages a pack takes, at least: the briefing is laid out only when the
    pack is built, so it counts here as one page."""

    map_tiles: int
    card_sheets: int

    @property
    def at_least(self) -> int:
        return 1 + self.card_sheets + 1 + self.map_tiles  # briefing, cards, plan, tiles


def pack_pages(frame: Frame, data: dict[str, Any], cards: int) -> PackPages:
    area = play_area(frame, data)
    region = area if area is not None else (0.0, 0.0, frame.width, frame.height)
    if region[2] <= 0:
        return PackPages(0, math.ceil(cards / CARDS_PER_SHEET))
    overlap = float(data["map"].get("overlap_in", 0.5)) * PT_PER_IN
    page = letter_area(landscape=region[2] > region[3])
    needed = tile_needed(frame, land_of(frame, data))
    printed = [t for t in area_tiles(region, page, overlap) if needed is None or needed(t)]
    return PackPages(len(printed), math.ceil(cards / CARDS_PER_SHEET))
