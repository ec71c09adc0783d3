"""A scenario's web page: the pack's briefing and forces, and its map plan as SVG.

The map plan is drawn from the same geometry as the pack's map sheets
(``render.scenario_pack.map_spec`` and ``features``), so islands, zones and objectives
sit where the printed map puts them. SVG shapes are plain numbers; every label is text
that the template escapes.
"""

from __future__ import annotations

from typing import Any

from ..geometry import PT_PER_CM, PT_PER_IN, hex_center, hex_corners
from ..render.scenario_pack import briefing_view, features, map_spec
from ..scenarios import Scenario

GRID_LIMIT = 4000  # hexes or sectors drawn; a larger board shows its outline only


def _points(points: list[tuple[float, float]], height: float) -> str:
    """SVG y runs down the page; the map's points run up."""
    return " ".join(f"{x:.1f},{height - y:.1f}" for x, y in points)


def _grid(s: Scenario, width: float, height: float) -> dict[str, Any]:
    cols, rows = int(round(s.data["map"]["width"])), int(round(s.data["map"]["height"]))
    if s.variant in ("standard", "large-map") and cols * rows <= GRID_LIMIT:
        sector = s.parameters.get("sector_in", 4.0) * PT_PER_IN
        lines = [(i * sector, 0.0, i * sector, height) for i in range(cols + 1)]
        lines += [(0.0, j * sector, width, j * sector) for j in range(rows + 1)]
        return {"lines": [tuple(round(v, 1) for v in line) for line in lines], "hexes": [], "scale": None}
    if s.variant == "hex" and cols * rows <= GRID_LIMIT:
        flat = s.parameters["hex_cm"] * PT_PER_CM
        hexes = [_points(hex_corners(*hex_center(c, r, flat), flat), height) for c in range(cols) for r in range(rows)]
        return {"lines": [], "hexes": hexes, "scale": None}
    unit, unit_pt = ("cm", PT_PER_CM) if s.variant == "tabletop-cm" else ("in", PT_PER_IN)
    if s.variant == "off-grid":
        scale = (f"1 leg = {s.parameters['leg_in']:g} in", s.parameters["leg_in"] * PT_PER_IN)
    else:
        step = 10 if unit == "cm" else 5
        scale = (f"{step} {unit}", step * unit_pt)
    return {"lines": [], "hexes": [], "scale": scale}


def _inside(x: float, label: str, font: float, width: float) -> float:
    """A centered label's x, moved in so that the label stays on the map (an estimate of
    its width: 0.6 em a character)."""
    half = min(width / 2, len(label) * font * 0.3)
    return round(min(max(x, half), width - half), 1)


def map_plan(s: Scenario) -> dict[str, Any]:
    """Everything the SVG map plan draws, in map points (1/72 in), y down."""
    spec, to_map = map_spec(s)
    width, height = spec.width, spec.height
    font = max(9.0, round(min(width, height) / 45, 1))
    shapes, marks = [], []
    for f in features(s, to_map):
        xs, ys = [p[0] for p in f.points], [p[1] for p in f.points]
        label_at = (sum(xs) / len(xs), height - sum(ys) / len(ys))
        if len(f.points) > 1:
            shapes.append(
                {
                    "kind": f.kind,
                    "label": f.label,
                    # a hex area's points are its hexes' centres: it is drawn as their outline
                    "points": "" if f.hexes else _points(list(f.points), height),
                    "path": " ".join(f"M {_points(ring, height)} Z" for ring in f.rings) if f.hexes else "",
                    "side": f.side or "",
                    "label_x": _inside(label_at[0], f.label, font, width),
                    "label_y": round(label_at[1], 1),
                }
            )
        else:
            marks.append(
                {
                    "kind": f.kind,
                    "label": f.label,
                    "x": round(xs[0], 1),
                    "y": round(height - ys[0], 1),
                    "label_x": _inside(xs[0], f.label, font, width),
                }
            )
    return {
        "width": round(width, 1),
        "height": round(height, 1),
        "grid": _grid(s, width, height),
        "shapes": shapes,
        "marks": marks,
        "note": spec.grid_note,
        "font": font,
    }


def scenario_page(
    s: Scenario, on_site: frozenset[str], variants_on_site: frozenset[str] = frozenset()
) -> dict[str, Any]:
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
        "map": map_plan(s),
        "pack": [
            {"label": "Scenario pack (Letter)", "href": f"../../scenarios/{s.id}.pdf"},
            {"label": "Scenario pack (A4)", "href": f"../../scenarios/{s.id}-a4.pdf"},
        ],
    }
