"""Map sheets at exact scale: square sectors, hex grids or plain sea, tiled over pages.

Each page prints a rectangle of the map with an overlap strip along its right and upper
edges; a dashed cut line marks where the neighbouring page's own area begins, and
alignment crosses printed in the overlap appear on both pages at the same map position.
An assembly page shows how the pages fit together. Features (islands, shoals, air bases,
objectives, deployment zones) are given in map points and drawn on every page they touch.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Callable

from ..geometry import Tile, hex_center, hex_corners, hex_grid_extent, hex_grid_size, hex_radius, tiles
from .pages import Page, document, draw_label
from .sheets import BOLD, FONT, PrinterProfile

SEA = (0.86, 0.92, 0.97)
Draw = Callable[[object, Tile], None]


@dataclass(frozen=True)
class Feature:
    kind: str  # island, shoal, air-base, objective, deployment, battery
    label: str
    points: tuple[tuple[float, float], ...]  # polygon (island, shoal, deployment) or one point
    side: str | None = None


@dataclass(frozen=True)
class MapSpec:
    title: str
    width: float  # map size in points
    height: float
    draw_grid: Draw
    features: tuple[Feature, ...] = ()
    overlap: float = 36.0
    grid_note: str = ""
    extra: dict = field(default_factory=dict)


def square_grid(columns: int, rows: int, sector: float) -> Draw:
    """Sector lines every ``sector`` points, each sector named column letter + row number."""
    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(0.2, 0.3, 0.45)
        c.setLineWidth(0.8)
        for i in range(columns + 1):
            c.line(i * sector, 0, i * sector, rows * sector)
        for j in range(rows + 1):
            c.line(0, j * sector, columns * sector, j * sector)
        c.setFillColorRGB(0.2, 0.3, 0.45)
        c.setFont(FONT, 9)
        for i in range(columns):
            for j in range(rows):
                x, y = i * sector, j * sector
                if tile.x0 - sector < x < tile.x0 + tile.width and tile.y0 - sector < y < tile.y0 + tile.height:
                    c.drawString(x + 5, y + sector - 13, f"{_column_name(i)}{rows - j}")
    return draw


def _column_name(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def hex_grid(columns: int, rows: int, flat: float) -> Draw:
    """Flat-topped hexes ``flat`` points flat to flat, labelled CCRR."""
    r = hex_radius(flat)

    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(0.2, 0.3, 0.45)
        c.setLineWidth(0.6)
        c.setFillColorRGB(0.2, 0.3, 0.45)
        c.setFont(FONT, 6)
        for col in range(columns):
            for row in range(rows):
                cx, cy = hex_center(col, row, flat)
                if not (tile.x0 - r <= cx <= tile.x0 + tile.width + r and tile.y0 - r <= cy <= tile.y0 + tile.height + r):
                    continue
                corners = hex_corners(cx, cy, flat)
                path = c.beginPath()
                path.moveTo(*corners[0])
                for corner in corners[1:]:
                    path.lineTo(*corner)
                path.close()
                c.drawPath(path, stroke=1, fill=0)
                c.drawCentredString(cx, cy + flat / 2 - 9, f"{col + 1:02d}{rows - row:02d}")
    return draw


def plain_sea(label: str, length_pt: float) -> Draw:
    """No grid: a scale bar ``length_pt`` long, labelled with what it measures, on each page."""
    def draw(c, tile: Tile) -> None:
        c.setStrokeColorRGB(0.2, 0.3, 0.45)
        c.setFillColorRGB(0.2, 0.3, 0.45)
        c.setFont(FONT, 6)
        c.setLineWidth(0.6)
        y = tile.y0 + 14
        x = tile.x0 + 14
        c.line(x, y, x + length_pt, y)
        c.line(x, y - 3, x, y + 3)
        c.line(x + length_pt, y - 3, x + length_pt, y + 3)
        c.drawString(x, y + 5, label)
    return draw


def _draw_features(c, features: tuple[Feature, ...]) -> None:
    for f in features:
        c.saveState()
        if f.kind in ("island", "shoal", "deployment"):
            path = c.beginPath()
            path.moveTo(*f.points[0])
            for p in f.points[1:]:
                path.lineTo(*p)
            path.close()
            if f.kind == "island":
                c.setFillColorRGB(0.83, 0.78, 0.58)
                c.setStrokeColorRGB(0.45, 0.38, 0.2)
                c.drawPath(path, stroke=1, fill=1)
            elif f.kind == "shoal":
                c.setDash(3, 2)
                c.setStrokeColorRGB(0.35, 0.5, 0.6)
                c.setFillColorRGB(0.74, 0.85, 0.9)
                c.drawPath(path, stroke=1, fill=1)
            else:
                c.setDash(6, 3)
                c.setLineWidth(1.4)
                c.setStrokeColorRGB(0.7, 0.1, 0.1) if f.side == "axis" else c.setStrokeColorRGB(0.1, 0.2, 0.7)
                c.drawPath(path, stroke=1, fill=0)
        else:
            x, y = f.points[0]
            c.setLineWidth(1)
            c.setFillColorRGB(1, 1, 1)
            if f.kind == "air-base":
                c.rect(x - 9, y - 9, 18, 18, stroke=1, fill=1)
                c.line(x - 6, y, x + 6, y)
                c.line(x, y - 6, x, y + 6)
            elif f.kind == "battery":
                c.circle(x, y, 8, stroke=1, fill=1)
                c.line(x, y, x + 12, y + 6)
            else:  # objective
                c.circle(x, y, 10, stroke=1, fill=1)
                c.circle(x, y, 4, stroke=1, fill=0)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(BOLD, 7)
        x, y = _label_point(f)
        c.drawCentredString(x, y, f.label)
        c.restoreState()


def _label_point(f: Feature) -> tuple[float, float]:
    xs = [p[0] for p in f.points]
    ys = [p[1] for p in f.points]
    if len(f.points) == 1:
        return xs[0], ys[0] - 20
    return sum(xs) / len(xs), sum(ys) / len(ys)


def _alignment_marks(c, tile: Tile) -> None:
    """Crosses in the overlap strips, at fixed map positions, so both pages show them."""
    c.saveState()
    c.setStrokeColorRGB(0.8, 0.1, 0.1)
    c.setLineWidth(0.5)
    for x, y in alignment_marks_of(tile):
        c.line(x - 6, y, x + 6, y)
        c.line(x, y - 6, x, y + 6)
        c.circle(x, y, 3)
    c.restoreState()


def alignment_marks_of(tile: Tile) -> list[tuple[float, float]]:
    """Map positions of the crosses this page prints in its overlap strips: the middle of
    each strip, a quarter and three quarters along it."""
    marks = []
    if tile.core_x1 < tile.x0 + tile.width:
        mx = (tile.core_x1 + tile.x0 + tile.width) / 2
        marks += [(mx, tile.y0 + f * tile.height) for f in (0.25, 0.75)]
    if tile.core_y1 < tile.y0 + tile.height:
        my = (tile.core_y1 + tile.y0 + tile.height) / 2
        marks += [(tile.x0 + f * tile.width, my) for f in (0.25, 0.75)]
    return marks


def page_tiles(spec: MapSpec, page: Page) -> list[Tile]:
    _x, _y, w, h = page.area
    return tiles(spec.width, spec.height, w, h - 12, spec.overlap)


def map_pdf(spec: MapSpec, paper: str, profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    page = Page.of(paper, landscape=spec.width > spec.height)
    all_tiles = page_tiles(spec, page)
    ncols = max(t.col for t in all_tiles) + 1
    nrows = max(t.row for t in all_tiles) + 1
    pages = [(page, _assembly(spec, all_tiles, page, ncols, nrows))]
    for number, tile in enumerate(all_tiles, start=2):
        pages.append((page, _tile_page(spec, tile, page, number, len(all_tiles) + 1, nrows)))
    return document(pages, spec.title, profile)


def _tile_page(spec: MapSpec, tile: Tile, page: Page, number: int, total: int, nrows: int):
    def draw(c) -> None:
        x, y, _w, _h = page.area
        draw_label(c, page, f"{spec.title} - page {number} of {total}: row {nrows - tile.row}, column {tile.col + 1}"
                   f" (rows counted from the top) - cut on the dashed lines, lay the next page over the shaded strip")
        c.saveState()
        c.translate(x - tile.x0, y - tile.y0)  # map point (x0, y0) at the area's corner
        clip = c.beginPath()
        clip.rect(tile.x0, tile.y0, tile.width, tile.height)
        c.clipPath(clip, stroke=0, fill=0)
        c.setFillColorRGB(*SEA)
        c.rect(tile.x0, tile.y0, tile.width, tile.height, stroke=0, fill=1)
        c.setFillColorRGB(0.74, 0.8, 0.86)
        if tile.core_x1 < tile.x0 + tile.width:
            c.rect(tile.core_x1, tile.y0, tile.x0 + tile.width - tile.core_x1, tile.height, stroke=0, fill=1)
        if tile.core_y1 < tile.y0 + tile.height:
            c.rect(tile.x0, tile.core_y1, tile.width, tile.y0 + tile.height - tile.core_y1, stroke=0, fill=1)
        spec.draw_grid(c, tile)
        _draw_features(c, spec.features)
        _alignment_marks(c, tile)
        c.setDash(4, 3)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.5)
        if tile.core_x1 < tile.x0 + tile.width:
            c.line(tile.core_x1, tile.y0, tile.core_x1, tile.y0 + tile.height)
        if tile.core_y1 < tile.y0 + tile.height:
            c.line(tile.x0, tile.core_y1, tile.x0 + tile.width, tile.core_y1)
        c.restoreState()
    return draw


def _assembly(spec: MapSpec, all_tiles: list[Tile], page: Page, ncols: int, nrows: int):
    def draw(c) -> None:
        x, y, w, h = page.area
        draw_label(c, page, f"{spec.title} - page 1: assembly. {len(all_tiles)} pages, {nrows} rows x {ncols} columns; "
                   f"map {spec.width / 72:.1f} x {spec.height / 72:.1f} in. {spec.grid_note}")
        scale = min(w / spec.width, (h - 40) / spec.height)
        c.saveState()
        c.translate(x, y + 20)
        c.scale(scale, scale)
        c.setFillColorRGB(*SEA)
        c.rect(0, 0, spec.width, spec.height, stroke=0, fill=1)
        _draw_features(c, spec.features)
        c.setLineWidth(1 / scale)
        c.setFont(FONT, 8 / scale)
        for number, tile in enumerate(all_tiles, start=2):
            c.setStrokeColorRGB(0.1, 0.1, 0.1)
            c.rect(tile.x0, tile.y0, tile.core_x1 - tile.x0, tile.core_y1 - tile.y0, stroke=1, fill=0)
            c.setFillColorRGB(0, 0, 0)
            c.drawCentredString((tile.x0 + tile.core_x1) / 2, (tile.y0 + tile.core_y1) / 2, f"p{number}")
        c.restoreState()
    return draw


def square_map(title: str, columns: int, rows: int, sector: float, features=(), overlap: float = 36.0) -> MapSpec:
    return MapSpec(title, columns * sector, rows * sector, square_grid(columns, rows, sector), tuple(features), overlap,
                   f"{columns} x {rows} sectors of {sector / 72:g} in.")


def hex_map(title: str, width: float, height: float, flat: float, features=(), overlap: float = 36.0) -> MapSpec:
    cols, rows = hex_grid_size(width, height, flat)
    width, height = hex_grid_extent(cols, rows, flat)  # the map ends with the last whole hex
    return MapSpec(title, width, height, hex_grid(cols, rows, flat), tuple(features), overlap,
                   f"{cols} x {rows} hexes, {flat * 2.54 / 72:g} cm flat to flat.", {"columns": cols, "rows": rows})


def plain_map(title: str, width: float, height: float, unit: str, unit_pt: float, features=(), overlap: float = 36.0) -> MapSpec:
    return MapSpec(title, width, height, plain_sea(f"1 {unit}", unit_pt), tuple(features), overlap, f"plain sea; scale bar of 1 {unit} on each page.")
