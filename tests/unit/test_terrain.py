"""Land and sea on a scenario's map (``wastools.data.terrain``): the geometry validation and the
pack share, tested on classes of input."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from wastools.core.geometry import hex_center
from wastools.core.outline import points_in_polygon
from wastools.data import terrain
from wastools.render.pages import MARGIN, PAPERS
from wastools.variants.board import HexBoard, SquareBoard, TableBoard

HEX = terrain.frame_of({"map": {"width": 40, "height": 24}}, HexBoard())
SQUARE = terrain.frame_of({"map": {"width": 24, "height": 12}}, SquareBoard())
assert HEX is not None and SQUARE is not None


@given(col=st.integers(0, 39), row=st.integers(0, 23), angle=st.floats(0, 2 * math.pi), r=st.floats(0, 0.49))
def test_a_point_inside_a_hex_belongs_to_that_hex(col, row, angle, r):
    cx, cy = hex_center(col, row, HEX.unit_pt)
    point = (cx + r * HEX.unit_pt * math.cos(angle), cy + r * HEX.unit_pt * math.sin(angle))
    assert HEX.hex_at(point) == (col, row)


@given(a=st.tuples(st.integers(0, 39), st.integers(0, 23)), b=st.tuples(st.integers(0, 39), st.integers(0, 23)))
def test_hex_steps_count_neighbours_as_one_and_are_a_distance(a, b):
    assert terrain.hex_steps(a, b) == terrain.hex_steps(b, a) >= 0
    assert (terrain.hex_steps(a, b) == 0) == (a == b)
    centres = math.dist(hex_center(*a, HEX.unit_pt), hex_center(*b, HEX.unit_pt))
    assert (terrain.hex_steps(a, b) == 1) == (abs(centres - HEX.unit_pt) < 0.01)
    assert terrain.hex_steps(a, b) * HEX.unit_pt >= centres - 0.01  # never shorter than the straight line


@given(
    x0=st.floats(0, 20),
    y0=st.floats(0, 10),
    w=st.floats(0.5, 4),
    h=st.floats(0.5, 2),
    px=st.floats(0, 24),
    py=st.floats(0, 12),
)
def test_inside_agrees_with_a_rectangle(x0, y0, w, h, px, py):
    rect = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]
    clear = min(abs(px - x0), abs(px - x0 - w), abs(py - y0), abs(py - y0 - h)) > 1e-6
    if clear:
        assert terrain.inside((px, py), rect, 0.0) == (x0 < px < x0 + w and y0 < py < y0 + h)


@given(ax=st.floats(0, 20), ay=st.floats(0, 10), bx=st.floats(0, 20), by=st.floats(0, 10), w=st.floats(0.1, 5))
def test_polygon_meets_rect_when_they_share_any_point(ax, ay, bx, by, w):
    square = [(ax, ay), (ax + w, ay), (ax + w, ay + w), (ax, ay + w)]
    rect = (bx, by, bx + 2, by + 1)
    overlap = ax <= bx + 2 and bx <= ax + w and ay <= by + 1 and by <= ay + w
    assert terrain.polygon_meets_rect(square, rect) == overlap


def test_an_outline_along_a_row_takes_every_hex_of_that_row():
    """Odd columns sit half a hex higher, but an outline along row 24 takes all of row 24."""
    bottom = terrain.hexes_in(HEX, [[1, 22], [40, 22], [40, 24], [1, 24]])
    assert {(c, 0) for c in range(40)} <= set(bottom)
    assert len(bottom) == 3 * 40


def test_land_tells_island_shoal_and_sea_apart():
    data = {
        "map": {"width": 24, "height": 12},
        "terrain": [
            {"kind": "island", "name": "Coast", "points": [[0, 8], [24, 8], [24, 12], [0, 12]]},
            {"kind": "shoal", "name": "Bank", "points": [[2, 6], [4, 6], [4, 7], [2, 7]]},
        ],
    }
    land = terrain.land_of(SQUARE, data)
    assert land.island_at(SQUARE.to_map(5, 9)).name == "Coast"
    assert land.is_sea(SQUARE.to_map(3, 6.5)) and land.shoal_at(SQUARE.to_map(3, 6.5)).name == "Bank"
    assert not land.is_sea(SQUARE.to_map(5, 8))  # on the shore is on land
    island, distance = land.nearest_island(SQUARE.to_map(5, 7))
    assert island.name == "Coast" and SQUARE.units(distance) == "1 sector"
    found = land.sea_distance(SQUARE.to_map(5, 8.5), SQUARE.unit_pt)  # on rings an eighth of the reach apart
    assert found is not None and SQUARE.unit_pt / 2 < found <= SQUARE.unit_pt / 2 + SQUARE.unit_pt / 8
    assert land.sea_distance(SQUARE.to_map(5, 11), SQUARE.unit_pt) is None


def test_the_page_budget_uses_the_sheets_own_margins():
    assert terrain.LETTER == PAPERS["letter"] and terrain.PAGE_MARGIN == MARGIN


def test_a_plain_table_prints_only_the_tiles_that_hold_terrain():
    frame = terrain.frame_of({"map": {"width": 72, "height": 48}}, TableBoard())
    data = {
        "map": {"width": 72, "height": 48},
        "terrain": [{"kind": "shoal", "name": "Ice", "points": [[0, 0], [30, 0], [22, 8], [10, 16], [0, 22]]}],
    }
    area = terrain.play_area(frame, data)
    every = terrain.area_tiles(area, terrain.letter_area(True), 36.0)
    needed = terrain.tile_needed(frame, terrain.land_of(frame, data))
    kept = [t for t in every if needed(t)]
    assert 0 < len(kept) < len(every)
    assert terrain.pack_pages(frame, data, 4).map_tiles == len(kept)


@given(
    corners=st.lists(st.tuples(st.integers(0, 41), st.integers(0, 25)), min_size=3, max_size=9),
    tolerance=st.sampled_from([0.01, 0.5, 1.0]),
)
def test_the_column_sweep_finds_exactly_the_points_a_point_by_point_test_finds(corners, tolerance):
    """``points_in_polygon`` (one sweep a column) against ``terrain.inside`` for every point,
    on polygons of any shape, self-crossing ones included; a point at the tolerance itself may
    fall either way (rounding)."""
    polygon = [(float(x), float(y)) for x, y in corners]
    grid = [(float(x), [float(y) for y in range(27)]) for x in range(43)]
    swept = set(points_in_polygon(polygon, grid, tolerance))
    points = [(x, y) for x, ys in grid for y in ys]
    surely = {p for p in points if terrain.inside(p, polygon, tolerance - 1e-9)}
    maybe = {p for p in points if terrain.inside(p, polygon, tolerance + 1e-9)}
    assert surely <= swept <= maybe
