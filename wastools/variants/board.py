"""A variant's board: how its table is laid out, how a position on it is named and how a
distance on it reads. Pure geometry in PostScript points (y up from the south edge), no drawing.

Three kinds of board serve every variant: a grid of square sectors, a grid of hexes, and a
plain table measured with a ruler. Everything that differs between them is a method here,
so the code that validates, places and prints a scenario asks its board instead of testing
which variant it is (``render/maps.py`` holds the one table from a board to its drawing).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any

from ..core.geometry import PT_PER_CM, PT_PER_IN, hex_center, hex_grid_extent, hex_grid_size, hex_radius

Point = tuple[float, float]


def column_name(i: int) -> str:
    """A sector column's letter: A..Z, then AA, AB..."""
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def sector_name(col: int, row_from_top: int) -> str:
    """A sector as the board labels it: column letter, row number from the top (C7)."""
    return f"{column_name(col)}{row_from_top + 1}"


def hex_name(col: int, row_from_top: int) -> str:
    """A hex as the board labels it: column and row, two digits each, from the top left (0712)."""
    return f"{col + 1:02d}{row_from_top + 1:02d}"


@dataclass(frozen=True)
class Board:
    """The board every kind shares: ``unit`` is how positions and distances are given (a plural
    noun or a unit symbol), ``unit_pt`` one of them in points."""

    unit: str
    unit_pt: float
    default_size: tuple[int, int] = (24, 12)  # a new scenario's map, in the board's units

    gridded = True  # players move over cells, so a pack prints every one
    first = 0  # the lowest coordinate of a position
    cell = ""  # one cell, as a player says it ("sector", "hex"); "" on a plain table
    land_in_cells = False  # whether land is whole cells (the hexes an island's outline holds)
    positions = ""  # how a briefing tells a player to read positions

    def cells(self, width: float, height: float) -> tuple[int, int]:
        """Columns and rows of a map ``width`` x ``height`` in the board's units (0, 0 on a table)."""
        return int(round(width)), int(round(height))

    def extent(self, width: float, height: float) -> tuple[float, float]:
        """The printed size in points of a map ``width`` x ``height`` in the board's units."""
        return width * self.unit_pt, height * self.unit_pt

    def to_map(self, x: float, y: float, rows: int, height_pt: float) -> Point:
        """A scenario position (y down from the north edge) as a point on the printed map."""
        return x * self.unit_pt, height_pt - y * self.unit_pt

    def holds(self, x: float, y: float, columns: int, rows: int, width_pt: float, height_pt: float) -> bool:
        return 0 <= x * self.unit_pt <= width_pt and 0 <= y * self.unit_pt <= height_pt

    def corner_pad(self) -> Point:
        """How far a corner of a play area reaches beyond its point (a hex is taken whole)."""
        return 0.0, 0.0

    def distance(self, distance_pt: float) -> str:
        """A distance on the map in the board's own measure ("0.4 sectors", "3 in")."""
        value = distance_pt / self.unit_pt
        shown = f"{value:.2g}" if value < 10 else f"{value:.0f}"
        return f"{shown} {self.unit}"

    def position(self, x: float, y: float, columns: int, rows: int) -> str:
        """A position in the board's own terms, as a briefing prints it."""
        return f"{x:g} {self.unit} from the left edge, {y:g} {self.unit} from the top"

    def scale_bar(self) -> tuple[str, float] | None:
        """The label and length in points of the bar a map without a grid carries."""
        return None

    def site_grid(self, columns: int, rows: int, width_pt: float, height_pt: float) -> dict[str, Any]:
        """What the site's SVG plan draws of the grid: lines, hex outlines (map points), a scale bar."""
        return {"lines": [], "hexes": [], "scale": self.scale_bar()}


@dataclass(frozen=True)
class SquareBoard(Board):
    """Square sectors, ``unit_pt`` a side; positions name sectors by column letter and row."""

    unit: str = "sectors"
    unit_pt: float = 4 * PT_PER_IN
    positions = "Positions name the board's sectors: column letter, then row number from the top."
    cell = "sector"

    def distance(self, distance_pt: float) -> str:
        text = super().distance(distance_pt)
        return "1 sector" if text == "1 sectors" else text

    def position(self, x: float, y: float, columns: int, rows: int) -> str:
        return f"sector {sector_name(min(int(x), columns - 1), min(int(y), rows - 1))}"

    def site_grid(self, columns: int, rows: int, width_pt: float, height_pt: float) -> dict[str, Any]:
        s = self.unit_pt
        lines = [(i * s, 0.0, i * s, height_pt) for i in range(columns + 1)]
        lines += [(0.0, j * s, width_pt, j * s) for j in range(rows + 1)]
        return {"lines": [tuple(round(v, 1) for v in line) for line in lines], "hexes": [], "scale": None}


@dataclass(frozen=True)
class HexBoard(Board):
    """Flat-topped hexes, ``unit_pt`` flat to flat; positions are hexes counted from 1."""

    unit: str = "hexes"
    unit_pt: float = 6 * PT_PER_CM
    default_size: tuple[int, int] = (40, 24)
    first = 1
    cell = "hex"
    land_in_cells = True
    positions = "Positions name hexes by column and row, both counted from the top left (hex 0712: column 7, row 12)."

    def cells(self, width: float, height: float) -> tuple[int, int]:
        return int(width), int(height)

    def extent(self, width: float, height: float) -> tuple[float, float]:
        return hex_grid_extent(int(width), int(height), self.unit_pt)

    def fitting(self, width_pt: float, height_pt: float) -> tuple[int, int]:
        """Columns and rows of whole hexes that fit a table of that size."""
        return hex_grid_size(width_pt, height_pt, self.unit_pt)

    def to_map(self, x: float, y: float, rows: int, height_pt: float) -> Point:
        flat = self.unit_pt
        if float(x).is_integer() and float(y).is_integer():
            return hex_center(int(x) - 1, rows - int(y), flat)
        r = hex_radius(flat)
        return r + (x - 1) * 1.5 * r, flat / 2 + (rows - y) * flat

    def holds(self, x: float, y: float, columns: int, rows: int, width_pt: float, height_pt: float) -> bool:
        return 1 <= x <= columns and 1 <= y <= rows

    def corner_pad(self) -> Point:
        return hex_radius(self.unit_pt), self.unit_pt / 2

    def distance(self, distance_pt: float) -> str:
        n = max(1, round(distance_pt / self.unit_pt))  # hexes are counted whole
        return f"{n} hex" if n == 1 else f"{n} hexes"

    def position(self, x: float, y: float, columns: int, rows: int) -> str:
        return f"hex {int(round(x)):02d}{int(round(y)):02d}"

    def site_grid(self, columns: int, rows: int, width_pt: float, height_pt: float) -> dict[str, Any]:
        centres = [hex_center(c, r, self.unit_pt) for c in range(columns) for r in range(rows)]
        return {"lines": [], "hexes": centres, "scale": None, "flat": self.unit_pt}


@dataclass(frozen=True)
class TableBoard(Board):
    """A plain table measured with a ruler: the table is the sea, so open sea needs no paper.
    ``bar`` is the scale bar's label and length in points."""

    unit: str = "in"
    unit_pt: float = PT_PER_IN
    default_size: tuple[int, int] = (72, 48)
    bar: tuple[str, float] = ("5 in", 5 * PT_PER_IN)
    gridded = False
    positions = "Positions are measured from the table's left and top edges."

    def cells(self, width: float, height: float) -> tuple[int, int]:
        return 0, 0

    def scale_bar(self) -> tuple[str, float] | None:
        return self.bar


def inch_table(bar_in: float, label: str | None = None) -> TableBoard:
    """A table measured in inches whose scale bar is ``bar_in`` inches long."""
    return TableBoard(bar=(label or f"{bar_in:g} in", bar_in * PT_PER_IN))


def centimetre_table(bar_cm: float) -> TableBoard:
    """A table measured in centimeters, 180 x 120 cm for a new scenario."""
    return TableBoard("cm", PT_PER_CM, (180, 120), (f"{bar_cm:g} cm", bar_cm * PT_PER_CM))
