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

from ..core.geometry import PT_PER_CM, PT_PER_IN, hex_center, hex_grid_extent, hex_grid_size, hex_radius, tile_grid

MAX_POSTER_IN = 200.0  # PDF's largest page side (14,400 units), and so the poster's
PAPER_SIZES = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}  # as render.pages.PAPERS
PAGE_MARGIN = 36.0  # as render.pages.MARGIN: the tiles fill the page inside it
PLAIN_SEA = ("off-grid", "tabletop-inches", "tabletop-cm")
Region = tuple[float, float, float, float]  # x, y, width, height in points


@dataclass(frozen=True)
class MapGeometry:
    """A scenario map's size and grid in points, and where its coordinates lie."""

    variant: str
    width: float  # points
    height: float
    columns: int  # sectors or hexes across (0 on a plain table)
    rows: int
    cell: float  # a sector's side, a hex's flat-to-flat size, or the table's unit, in points
    overlap: float  # tiles overlap their neighbours by this many points

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        """A scenario position (the map's own units) as a point on the map."""
        if self.variant == "hex":
            if float(x).is_integer() and float(y).is_integer():
                return hex_center(int(x) - 1, self.rows - int(y), self.cell)
            r = hex_radius(self.cell)
            return r + (x - 1) * 1.5 * r, self.cell / 2 + (self.rows - y) * self.cell
        return x * self.cell, self.height - y * self.cell


def scenario_geometry(variant: str, params: dict[str, Any], map_data: dict[str, Any]) -> MapGeometry:
    """The geometry of a scenario's ``map`` (width and height in its variant's units)."""
    width, height = map_data["width"], map_data["height"]
    overlap = map_data.get("overlap_in", 0.5) * PT_PER_IN
    if variant in ("standard", "large-map"):
        sector = params.get("sector_in", 4.0) * PT_PER_IN
        cols, rows = int(round(width)), int(round(height))
        return MapGeometry(variant, cols * sector, rows * sector, cols, rows, sector, overlap)
    if variant == "hex":
        flat = params["hex_cm"] * PT_PER_CM
        cols, rows = int(width), int(height)
        return MapGeometry(variant, *hex_grid_extent(cols, rows, flat), cols, rows, flat, overlap)
    unit = PT_PER_CM if variant == "tabletop-cm" else PT_PER_IN
    return MapGeometry(variant, width * unit, height * unit, 0, 0, unit, overlap)


def printed_region(geo: MapGeometry, data: dict[str, Any]) -> Region | None:
    """The part of the map a pack tiles: the scenario's ``map.play_area`` if it sets one; on a
    table without a grid only the terrain (open sea needs no paper), or nothing when there is
    no terrain; otherwise (None) the whole map."""
    corners = data["map"].get("play_area")
    if not corners and geo.variant in PLAIN_SEA:
        points = [geo.to_map(*p) for t in data.get("terrain", []) for p in t["points"]]
        if not points:
            return 0.0, 0.0, 0.0, 0.0
        x0, x1 = min(p[0] for p in points) - PT_PER_IN, max(p[0] for p in points) + PT_PER_IN
        y0, y1 = min(p[1] for p in points) - PT_PER_IN, max(p[1] for p in points) + PT_PER_IN
        return _clip(geo, x0, y0, x1, y1)
    if not corners:
        return None
    (x0, y0), (x1, y1) = geo.to_map(*corners[0]), geo.to_map(*corners[1])
    if geo.variant == "hex":  # corners name hexes: take them whole
        pad_x, pad_y = hex_radius(geo.cell), geo.cell / 2
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
    if geo.variant in PLAIN_SEA and min(geo.width, geo.height) < geo.cell:
        unit = "cm" if geo.variant == "tabletop-cm" else "in"
        found.append(("size", f"{what} is less than 1 {unit} across: a table is at least 1 {unit} each way"))
    elif geo.variant not in PLAIN_SEA and min(geo.columns, geo.rows) < 1:
        cells = "hex" if geo.variant == "hex" else "sector"
        found.append(("size", f"{what} is less than one {cells} across: give whole {cells}s each way (1 or more)"))
        return found  # nothing else can be measured
    if geo.cells > max_cells:
        cells = "hexes" if geo.variant == "hex" else "sectors"
        found.append(("max_map_cells", f"{what} has {geo.cells} {cells}, over the limit of {max_cells}"))
    side = max(geo.width, geo.height) / PT_PER_IN
    if side > MAX_POSTER_IN:
        why = f"{what} is {side:.0f} in on its longer side: its true-size poster would be larger than a PDF page"
        found.append(("poster", f"{why} ({MAX_POSTER_IN:g} in)"))
    _x, _y, w, h = region if region is not None else (0.0, 0.0, geo.width, geo.height)
    pages = max(tiled_pages(w, h, geo.overlap, paper) for paper in PAPER_SIZES)
    if pages > max_pages:
        found.append(("max_map_pages", f"{what} would print on {pages} pages, over the limit of {max_pages}"))
    return found


def board_geometry(columns: int, rows: int, sector_in: float, hex_cm: float | None) -> MapGeometry:
    """The large-map board (``hex_cm`` None) or the hex board laid over the same table."""
    sector = sector_in * PT_PER_IN
    width, height = columns * sector, rows * sector
    if hex_cm is None:
        return MapGeometry("large-map", width, height, columns, rows, sector, 36.0)
    flat = hex_cm * PT_PER_CM
    cols, hex_rows = hex_grid_size(width, height, flat)
    return MapGeometry("hex", *hex_grid_extent(cols, hex_rows, flat), cols, hex_rows, flat, 36.0)
