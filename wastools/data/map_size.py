"""How big a map is on paper, worked out before anything is drawn: its true size, its
sectors or hexes, and the pages its tiles take. Validation refuses a scenario (and the
settings refuse a board) whose map passes a limit, so that every map that validates is
drawn in seconds and fits a PDF page as a poster:

- ``max_map_cells``: sectors or hexes on one map (the plan and the poster draw every one);
- ``max_map_pages``: tiled pages of the part a pack prints, on the larger of the two papers' counts;
- ``MAX_POSTER_IN``: the true-size poster is one page, and a PDF page is at most 200 in
  (14,400 pt) a side: a fact of the format, not a setting.

Pure arithmetic (no drawing library): the scenario pack draws from the same geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.geometry import PT_PER_IN, tile_grid
from ..variants import BoardSheet
from ..variants.board import Board

MAX_POSTER_IN = 200.0  # PDF's largest page side (14,400 units), and so the poster's
PAPER_SIZES = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}  # as render.pages.PAPERS
PAGE_MARGIN = 36.0  # as render.pages.MARGIN: the tiles fill the page inside it
Region = tuple[float, float, float, float]  # x, y, width, height in points


@dataclass(frozen=True)
class MapGeometry:
    """A scenario map's size and grid in points, and where its coordinates lie."""

    board: Board
    width: float  # points
    height: float
    columns: int  # sectors or hexes across (0 on a plain table)
    rows: int
    overlap: float  # tiles overlap their neighbours by this many points

    @property
    def cell(self) -> float:
        """A sector's side, a hex's flat-to-flat size, or the table's unit, in points."""
        return self.board.unit_pt

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        """A scenario position (the map's own units) as a point on the map."""
        return self.board.to_map(x, y, self.rows, self.height)


def scenario_geometry(board: Board, map_data: dict[str, Any]) -> MapGeometry:
    """The geometry of a scenario's ``map`` (width and height in its board's units)."""
    width, height = map_data["width"], map_data["height"]
    overlap = map_data.get("overlap_in", 0.5) * PT_PER_IN
    cols, rows = board.cells(width, height)
    size = board.extent(cols, rows) if board.gridded else board.extent(width, height)
    return MapGeometry(board, *size, cols, rows, overlap)


def printed_region(geo: MapGeometry, data: dict[str, Any]) -> Region | None:
    """The part of the map a pack tiles: the scenario's ``map.play_area`` if it sets one; on a
    table without a grid only the terrain (open sea needs no paper), or nothing when there is
    no terrain; otherwise (None) the whole map."""
    corners = data["map"].get("play_area")
    if not corners and not geo.board.gridded:
        points = [geo.to_map(*p) for t in data.get("terrain", []) for p in t["points"]]
        if not points:
            return 0.0, 0.0, 0.0, 0.0
        x0, x1 = min(p[0] for p in points) - PT_PER_IN, max(p[0] for p in points) + PT_PER_IN
        y0, y1 = min(p[1] for p in points) - PT_PER_IN, max(p[1] for p in points) + PT_PER_IN
        return _clip(geo, x0, y0, x1, y1)
    if not corners:
        return None
    (x0, y0), (x1, y1) = geo.to_map(*corners[0]), geo.to_map(*corners[1])
    pad_x, pad_y = geo.board.corner_pad()  # corners that name hexes take them whole
    x0, x1 = min(x0, x1) - pad_x, max(x0, x1) + pad_x
    y0, y1 = min(y0, y1) - pad_y, max(y0, y1) + pad_y
    return _clip(geo, x0, y0, x1, y1)


def _clip(geo: MapGeometry, x0: float, y0: float, x1: float, y1: float) -> Region:
    left, right = max(0.0, min(x0, x1)), min(geo.width, max(x0, x1))
    bottom, top = max(0.0, min(y0, y1)), min(geo.height, max(y0, y1))
    return left, bottom, right - left, top - bottom


def tiled_pages(width: float, height: float, overlap: float, paper: str) -> int:
    """Pages the tiles of a ``width`` x ``height`` region take on ``paper`` (turned to
    landscape for a wide region, as the map sheets are); 0 for an empty region."""
    if width <= 0:
        return 0
    w, h = PAPER_SIZES[paper]
    if width > height:
        w, h = h, w
    cols, rows = tile_grid(width, height, w - 2 * PAGE_MARGIN, h - 2 * PAGE_MARGIN, overlap)
    return cols * rows


def map_problems(
    geo: MapGeometry, region: Region | None, max_pages: int, max_cells: int, what: str
) -> list[tuple[str, str]]:
    """(the limit, why) for each limit a map passes; ``what`` names the map in the message."""
    found = []
    board = geo.board
    if not board.gridded and min(geo.width, geo.height) < geo.cell:
        found.append(
            ("size", f"{what} is less than 1 {board.unit} across: a table is at least 1 {board.unit} each way")
        )
    elif board.gridded and min(geo.columns, geo.rows) < 1:
        cell = board.cell
        found.append(("size", f"{what} is less than one {cell} across: give whole {cell}s each way (1 or more)"))
        return found  # nothing else can be measured
    if geo.cells > max_cells:
        found.append(("max_map_cells", f"{what} has {geo.cells} {board.unit}, over the limit of {max_cells}"))
    side = max(geo.width, geo.height) / PT_PER_IN
    if side > MAX_POSTER_IN:
        why = f"{what} is {side:.0f} in on its longer side: its true-size poster would be larger than a PDF page"
        found.append(("poster", f"{why} ({MAX_POSTER_IN:g} in)"))
    _x, _y, w, h = region if region is not None else (0.0, 0.0, geo.width, geo.height)
    pages = max(tiled_pages(w, h, geo.overlap, paper) for paper in PAPER_SIZES)
    if pages > max_pages:
        found.append(("max_map_pages", f"{what} would print on {pages} pages, over the limit of {max_pages}"))
    return found


def sheet_geometry(sheet: BoardSheet) -> MapGeometry:
    """A variant's own board (``Variant.sheet``) as a map."""
    board = sheet.board
    return MapGeometry(board, *board.extent(sheet.columns, sheet.rows), sheet.columns, sheet.rows, 36.0)
