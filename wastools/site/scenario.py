"""A scenario's web page: the pack's briefing and forces, and its map plan as SVG.

The map plan is drawn from the same geometry as the pack's map sheets
(``render.scenario_pack.map_spec`` and ``features``), so islands, zones and objectives
sit where the printed map puts them. SVG shapes are plain numbers; every label is text
that the template escapes.
"""

from __future__ import annotations

from typing import Any

from ..core.geometry import hex_corners
from ..data.scenarios import Scenario
from ..render import labels
from ..render.maps import SYMBOL_RADIUS, Feature, Placing, place_words
from ..render.scenario_pack import briefing_view, features, map_spec
from .data import CARRIED

GRID_LIMIT = 4000  # hexes or sectors drawn; a larger board shows its outline only


def _points(points: list[tuple[float, float]], height: float) -> str:
    """SVG y runs down the page; the map's points run up."""
    return " ".join(f"{x:.1f},{height - y:.1f}" for x, y in points)


def _grid(s: Scenario, width: float, height: float) -> dict[str, Any]:
    """The grid the plan draws, from the scenario's board (a larger board shows its outline only)."""
    board = s.board
    cols, rows = board.cells(s.data["map"]["width"], s.data["map"]["height"])
    if cols * rows > GRID_LIMIT:
        return {"lines": [], "hexes": [], "scale": board.scale_bar()}
    grid = board.site_grid(cols, rows, width, height)
    if grid["hexes"]:
        grid["hexes"] = [_points(hex_corners(x, y, grid["flat"]), height) for x, y in grid["hexes"]]
    return grid


def _path(points: list[tuple[float, float]], height: float) -> str:
    """A closed SVG path through map points (y flipped)."""
    head, *rest = points
    return f"M{head[0]:.1f},{height - head[1]:.1f}" + "".join(f"L{x:.1f},{height - y:.1f}" for x, y in rest) + "Z"


def _area(f: Feature, height: float) -> dict[str, Any]:
    """An area as the sheets draw it: a polygon, or on a hex map the hexes it takes (the rings
    of their union, filled) and the outline of their union (its edge), never a line through
    the hexes' centres."""
    if not f.hexes:
        outline = _path(list(f.points), height)
        return {"kind": f.kind, "side": f.side or "", "fill": outline, "edge": outline}
    fill = "".join(_path(ring, height) for ring in f.rings)  # filled even-odd: a hole stays open
    edge = "".join(f"M{x1:.1f},{height - y1:.1f}L{x2:.1f},{height - y2:.1f}" for (x1, y1), (x2, y2) in f.edges)
    return {"kind": f.kind, "side": f.side or "", "fill": fill, "edge": edge}


def _estimate(text: str, size: float) -> float:
    """A bold label's width without the font's metrics: 0.62 em a character (the site's
    pages are made without loading the PDF fonts)."""
    return len(text) * size * 0.62


def map_plan(s: Scenario) -> dict[str, Any]:
    """Everything the SVG map plan draws, in map points (1/72 in), y down: areas as the
    sheets draw them, symbols, and every name placed beside its symbol or inside its area
    clear of the others (the sheets' own placing, ``render.maps.place_words``)."""
    spec, to_map = map_spec(s)
    width, height = spec.width, spec.height
    font = max(9.0, round(min(width, height) / 60, 1))
    found = features(s, to_map)
    shapes = [_area(f, height) for f in found if len(f.points) > 1]
    marks = [
        {"kind": f.kind, "x": round(f.points[0][0], 1), "y": round(height - f.points[0][1], 1)}
        for f in found
        if len(f.points) == 1
    ]
    radius = font * 0.8 / SYMBOL_RADIUS["objective"]  # the marks' size, as a factor of the sheets'
    taken = labels.Taken(labels.square(f.points[0], font * 0.8 + 1) for f in found if len(f.points) == 1)
    how = Placing(1.0, (0.0, 0.0, width, height), font, radius)
    words = []
    for text, placed in place_words(found, how, taken, _estimate):
        leader = None
        if placed.leader is not None:
            (x1, y1), (x2, y2) = placed.leader
            leader = (round(x1, 1), round(height - y1, 1), round(x2, 1), round(height - y2, 1))
        words.append({"text": text, "x": round(placed.x, 1), "y": round(height - placed.baseline, 1), "leader": leader})
    return {
        "width": round(width, 1),
        "height": round(height, 1),
        "grid": _grid(s, width, height),
        "shapes": shapes,
        "marks": marks,
        "words": words,
        "note": map_caption(s, spec.grid_note),
        "font": font,
    }


def map_caption(s: Scenario, grid_note: str) -> str:
    """What the plan shows, in sentences: its grid (or a plain table), where north is and how
    positions are read, in the board's own words."""
    board = s.board
    grid = f"The map is {grid_note}." if board.gridded else "A plain table, measured from its edges: no grid."
    if board.gridded or s.data.get("terrain"):
        printed = "The pack prints this map at true size over several pages."
    else:  # open sea needs no printing: the pack's plan places the zones and objectives
        printed = "The table is open sea: the pack prints this plan, to measure from, and no map pages."
    return f"{grid} North is up. {board.positions} {printed}"


def scenario_page(
    s: Scenario,
    on_site: frozenset[str],
    variants_on_site: frozenset[str] = frozenset(),
    plan: dict[str, Any] | None = None,
    pdfs: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """What a scenario's page shows; ``plan``: its ``map_plan``, when the caller keeps it;
    ``pdfs``: the build's PDFs the site carries (its pack is linked when among them)."""
    from ..variants import VARIANTS

    view = briefing_view(s)
    units = []
    for unit in s.units():
        units.append({"name": unit.name, "href": f"../units/{unit.id}.html" if unit.id in on_site else None})
    variant = {
        "title": VARIANTS[s.variant].title,
        "href": f"../variants/{s.variant}.html" if s.variant in variants_on_site else None,
    }
    return {
        "id": s.id,
        "view": view,
        "variant": variant,
        "units": units,
        "map": plan if plan is not None else map_plan(s),
        "pack": [
            {"label": f"Scenario pack ({paper})", "href": f"../{CARRIED}/{rel}"}
            for paper, rel in (("Letter", f"scenarios/{s.id}.pdf"), ("A4", f"scenarios/{s.id}-a4.pdf"))
            if rel in pdfs
        ],
    }
