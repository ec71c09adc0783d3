"""Pure geometry for what goes on the table: rulers, grids and tiling, in PostScript points.

No drawing here: rendering modules draw what these functions compute, and tests check
the numbers both here and, measured, in the PDFs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PT_PER_IN = 72.0
PT_PER_CM = 72.0 / 2.54


# --- rulers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Zone:
    """A labelled stretch of a ruler: a range band or a weapon's reach."""

    label: str
    start: float  # in ruler units
    end: float


@dataclass(frozen=True)
class Ruler:
    title: str
    unit: str  # name of one ruler unit: "leg", "in", "cm", "hex", "sector"
    unit_pt: float  # length of one unit in points
    length: float  # in units
    minor: float  # tick every `minor` units
    label_every: float  # number printed every `label_every` units
    zones: tuple[Zone, ...] = ()

    @property
    def length_pt(self) -> float:
        return self.length * self.unit_pt

    def ticks(self) -> list[tuple[float, bool]]:
        """(position in points, is_labelled) for every tick from 0 to the end."""
        count = round(self.length / self.minor)
        out = []
        for i in range(count + 1):
            units = i * self.minor
            labelled = abs(units / self.label_every - round(units / self.label_every)) < 1e-9
            out.append((units * self.unit_pt, labelled))
        return out


@dataclass(frozen=True)
class Segment:
    index: int
    start_pt: float
    end_pt: float


def split(length_pt: float, max_pt: float) -> list[Segment]:
    """Cut a ruler into equal segments no longer than ``max_pt``; joins are marked on both."""
    pieces = max(1, math.ceil(length_pt / max_pt - 1e-9))
    step = length_pt / pieces
    return [Segment(i, i * step, (i + 1) * step) for i in range(pieces)]


# --- hex grid (flat-topped) ----------------------------------------------------------------


def hex_radius(flat_to_flat: float) -> float:
    """Circumradius of a regular hexagon from its flat-to-flat width."""
    return flat_to_flat / math.sqrt(3)


def hex_center(col: int, row: int, flat_to_flat: float) -> tuple[float, float]:
    """Center of hex (col, row) of a flat-topped grid, odd columns shifted up half a hex.
    Column spacing is 1.5 x the circumradius; row spacing is the flat-to-flat width."""
    r = hex_radius(flat_to_flat)
    x = r + col * 1.5 * r
    y = flat_to_flat / 2 + row * flat_to_flat + (flat_to_flat / 2 if col % 2 else 0)
    return x, y


def hex_corners(cx: float, cy: float, flat_to_flat: float) -> list[tuple[float, float]]:
    r = hex_radius(flat_to_flat)
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 60)]


def hex_grid_size(width_pt: float, height_pt: float, flat_to_flat: float) -> tuple[int, int]:
    """Columns and rows of whole hexes that fit the area (odd columns sit half a hex higher)."""
    r = hex_radius(flat_to_flat)
    cols = max(1, math.floor((width_pt - 2 * r) / (1.5 * r)) + 1)
    rows = max(1, math.floor((height_pt - flat_to_flat / 2) / flat_to_flat))
    return cols, rows


# --- tiling a large map over pages -------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    row: int  # 0 = bottom row of the map
    col: int
    x0: float  # map area printed on this page, in map points
    y0: float
    width: float
    height: float
    core_x1: float  # where this tile's own area ends (the rest is overlap under the next page)
    core_y1: float


def tile_grid(map_w: float, map_h: float, area_w: float, area_h: float, overlap: float) -> tuple[int, int]:
    """Columns and rows of the tiles that cover the map (see ``tiles``), counted without
    making them: how many pages a map takes is known before it is drawn."""
    if area_w - overlap <= 0 or area_h - overlap <= 0:
        raise ValueError("overlap must be smaller than the printable area")
    cols = max(1, math.ceil((map_w - overlap) / (area_w - overlap) - 1e-9))
    rows = max(1, math.ceil((map_h - overlap) / (area_h - overlap) - 1e-9))
    return cols, rows


def tiles(map_w: float, map_h: float, area_w: float, area_h: float, overlap: float) -> list[Tile]:
    """Cover the map with equal page areas (at most area_w x area_h) that overlap their right
    and upper neighbours by ``overlap``. Tiles are listed row by row from the bottom left, the
    order in which they are assembled: each page's left and bottom edges go over the glue
    strips of the pages before it."""
    cols, rows = tile_grid(map_w, map_h, area_w, area_h, overlap)
    step_x = (map_w - overlap) / cols if cols > 1 else map_w
    step_y = (map_h - overlap) / rows if rows > 1 else map_h
    out = []
    for row in range(rows):
        for col in range(cols):
            x0, y0 = col * step_x, row * step_y
            core_x1 = x0 + step_x if col < cols - 1 else map_w
            core_y1 = y0 + step_y if row < rows - 1 else map_h
            w = min(map_w, core_x1 + (overlap if col < cols - 1 else 0)) - x0
            h = min(map_h, core_y1 + (overlap if row < rows - 1 else 0)) - y0
            out.append(Tile(row, col, x0, y0, w, h, core_x1, core_y1))
    return out


def hex_grid_extent(columns: int, rows: int, flat_to_flat: float) -> tuple[float, float]:
    """Width and height of the area a grid of whole hexes covers."""
    r = hex_radius(flat_to_flat)
    return 2 * r + (columns - 1) * 1.5 * r, rows * flat_to_flat + (flat_to_flat / 2 if columns > 1 else 0)
