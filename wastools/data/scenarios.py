"""Scenarios: one YAML file each, validated against the units and the variant's rules.

Checks beyond the schema: the id is the file name; every unit exists; air groups sit
on carriers within their capacity (and land-based aircraft never do); air base
squadrons fit the base; each side's points keep to the limit under the variant's fleet
rules (tabletop-cm caps US-heavy fleets and submarine points); every coordinate lies on
the map; air bases, shore batteries and garrisons stand on land, deployment zones hold
sea and ships can reach every objective (``terrain``: land as the printed map draws it);
variant parameters are known; forces and words keep to history and the variant
(``scenario_rules``); a pack over the page budget is a warning. Every problem
names file, line, column and field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import model
from ..core.problems import Problem, Severity
from ..variants import VARIANTS, ParameterError
from ..variants.board import Board
from ..variants.fleet import FleetCheck, check_fleet
from . import scenario_rules, terrain
from .map_size import map_problems, printed_region, scenario_geometry
from .yamlio import DEFAULT_LIMITS, Limits

PLACED = ("air_bases", "shore_batteries", "garrisons", "objectives")


@dataclass(frozen=True)
class Force:
    unit: model.Unit
    count: int = 1
    flagship: bool = False
    air_groups: tuple[tuple[model.Unit, int], ...] = ()
    stands_for: str | None = None  # the ship a card stands in for, when the game lacks her


@dataclass(frozen=True)
class Side:
    side: str
    name: str
    forces: tuple[Force, ...]
    briefing: str | None
    fleet: FleetCheck


@dataclass(frozen=True)
class AirBase:
    name: str
    side: str
    squadrons: tuple[tuple[model.Unit, int], ...]


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    variant: str
    parameters: dict[str, Any]
    data: dict[str, Any]  # the checked file, for briefing and map features
    sides: tuple[Side, ...]
    map_unit: str = field(default="sectors")
    air_bases: tuple[AirBase, ...] = ()

    @property
    def board(self) -> Board:
        """The table it is played on: its variant's board at its parameters."""
        return VARIANTS[self.variant].board(self.parameters)

    def units(self) -> list[model.Unit]:
        """Every unit whose card the pack prints, once each, in force order."""
        seen: dict[str, model.Unit] = {}
        for side in self.sides:
            for force in side.forces:
                seen.setdefault(force.unit.id, force.unit)
                for unit, _n in force.air_groups:
                    seen.setdefault(unit.id, unit)
        for base in self.air_bases:
            for unit, _n in base.squadrons:
                seen.setdefault(unit.id, unit)
        return list(seen.values())


def scenario_files(root: Path) -> list[Path]:
    folder = root / "scenarios"
    from ..core.data_paths import plain_path

    return sorted(plain_path(p) for p in folder.glob("*.yaml")) if folder.is_dir() else []


# what a build writes for each scenario, by its id: the pack on each paper (the suffix of
# build.paper_suffix) and the poster; checked against the build's own targets in the tests
PAPER_SUFFIXES = ("", "-a4")


def scenario_outputs(scenario_id: str) -> list[str]:
    """The files a build writes for a scenario, relative to the output folder."""
    return [f"scenarios/{scenario_id}{sfx}.pdf" for sfx in PAPER_SUFFIXES] + [f"scenarios/{scenario_id}-poster.pdf"]


def output_clashes(loaded: list) -> list[Problem]:
    """A scenario whose outputs would be another scenario's (``skirmish-poster``'s pack is
    ``skirmish``'s poster): an error in each, since a build would write one over the other."""
    owners: dict[str, list] = {}
    for item in loaded:
        sid = item.doc.data.get("id") if item.doc is not None else None
        if isinstance(sid, str):
            for output in scenario_outputs(sid):
                owners.setdefault(output, []).append(item)
    problems = []
    for output, items in sorted(owners.items()):
        for item in items if len(items) > 1 else ():
            others = sorted({o.shown_as for o in items if o is not item})
            problems.append(
                item.doc.problem(
                    ["id"],
                    f"a build would write {output} for this scenario and for {', '.join(others[:3])}: "
                    "one would be lost, so choose another id",
                )
            )
    return problems


def check_all(
    loaded: list, units: dict[str, model.Unit], problems: list[Problem], limits: Limits = DEFAULT_LIMITS
) -> dict[str, Scenario]:
    built: dict[str, Scenario] = {}
    clashes = output_clashes(loaded)
    problems.extend(clashes)
    clashing = {p.path for p in clashes}
    for item in loaded:
        if item.doc is None:
            continue
        before = sum(1 for p in problems if p.is_error)
        schema_passed = not any(p.path == item.shown_as and p.is_error for p in problems)
        # the map's fields have their types only when the schema passed: then it can be measured,
        # and land, sea and pages are worked out only on a map within the limits
        map_found = _map_problems(item.doc, limits) if schema_passed else []
        measurable = schema_passed and not any(p.is_error for p in map_found)
        scenario = _check(item, units, problems, measurable)
        problems.extend(map_found)
        if scenario is not None and sum(1 for p in problems if p.is_error) == before and item.shown_as not in clashing:
            built[scenario.id] = scenario
    return built


def _check(item, units: dict[str, model.Unit], problems: list[Problem], measurable: bool = True) -> Scenario | None:
    doc, data = item.doc, item.doc.data
    found: list[Problem] = []
    if isinstance(data.get("id"), str) and item.path.stem != data["id"]:
        found.append(doc.problem(["id"], f"id {data['id']!r} must equal the file name {item.path.stem!r}"))
    variant = VARIANTS.get(data.get("variant")) if isinstance(data.get("variant"), str) else None
    params: dict[str, Any] = {}
    if variant is not None:
        given = {str(k): _param_text(v) for k, v in (data.get("parameters") or {}).items()}
        try:
            params = variant.resolve(given)
        except ParameterError as exc:
            found.append(doc.problem(["parameters"], str(exc)))
    sides = []
    for i, side in enumerate(data.get("sides") or []):
        if isinstance(side, dict):
            built = _side(doc, ["sides", i], side, units, data, variant, found)
            if built:
                sides.append(built)
    if len({s.side for s in sides}) != len(sides):
        found.append(doc.problem(["sides"], "the two sides need different ids"))
    side_ids = {s.get("side") for s in data.get("sides") or [] if isinstance(s, dict)}
    for key in ("air_bases", "shore_batteries", "garrisons", "deployment_zones"):
        for i, item in enumerate(data.get(key) or []):
            if isinstance(item, dict) and isinstance(item.get("side"), str) and item["side"] not in side_ids:
                found.append(
                    doc.problem(
                        [key, i, "side"],
                        f"no side with id {item['side']!r} (sides: {', '.join(sorted(map(str, side_ids)))})",
                    )
                )
    bases = [
        _air_base(doc, ["air_bases", i], base, units, found)
        for i, base in enumerate(data.get("air_bases") or [])
        if isinstance(base, dict)
    ]
    if variant is not None and isinstance(data.get("map"), dict):
        _coordinates(doc, data, variant.board(params), found)
    if variant is not None:
        scenario_rules.check(doc, data, units, variant.distance_unit, found)
    if len(sides) == 2 and (unbalanced := scenario_rules.balance_problem(doc, data, [s.fleet.points for s in sides])):
        found.append(unbalanced)
    if variant is not None and measurable:
        frame = terrain.frame_of(data, variant.board(params))
        if frame is not None:
            _land_and_sea(doc, data, frame, found)
    problems.extend(found)
    if any(p.is_error for p in found) or variant is None or len(sides) != 2:
        return None
    scenario = Scenario(
        data["id"], data["title"], variant.name, params, data, tuple(sides), variant.board(params).unit, tuple(bases)
    )
    if measurable:
        _page_budget(doc, scenario, problems)
    return scenario


def _map_problems(doc, limits: Limits) -> list[Problem]:
    """The map's size against the limits on cells, pages and a poster's page (``map_size``),
    in a scenario whose fields passed the schema."""
    data = doc.data
    variant = VARIANTS[data["variant"]]
    try:
        params = variant.resolve({str(k): _param_text(v) for k, v in (data.get("parameters") or {}).items()})
    except ParameterError:
        return []  # reported by the scenario's own checks
    geo = scenario_geometry(variant.board(params), data["map"])
    found = map_problems(geo, printed_region(geo, data), limits.max_map_pages, limits.max_map_cells, "the map")
    pages_at = ["map", "play_area"] if data["map"].get("play_area") else ["map"]
    return [doc.problem(pages_at if name == "max_map_pages" else ["map"], message) for name, message in found]


def _param_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _resolve(doc, parts, unit_id, units, found) -> model.Unit | None:
    if not isinstance(unit_id, str):
        return None
    unit = units.get(unit_id)
    if unit is None:
        if unit_id in getattr(units, "broken", ()):
            return None  # the unit's own file has errors, reported there: one mistake, one error
        from ..core.suggest import did_you_mean

        found.append(doc.problem(parts, f"no unit with id {unit_id!r}{did_you_mean(unit_id, units)}"))
    return unit


def _side(doc, parts, side: dict, units, data, variant, found) -> Side | None:
    forces = []
    fleet_units: list[tuple[model.Unit, int]] = []
    flagships = 0
    for j, entry in enumerate(side.get("forces") or []):
        if not isinstance(entry, dict):
            continue
        here = parts + ["forces", j]
        unit = _resolve(doc, here + ["unit"], entry.get("unit"), units, found)
        count = entry.get("count", 1) if isinstance(entry.get("count", 1), int) else 1
        groups = []
        for k, group in enumerate(entry.get("air_groups") or []):
            if not isinstance(group, dict):
                continue
            plane = _resolve(doc, here + ["air_groups", k, "unit"], group.get("unit"), units, found)
            n = group.get("count", 1) if isinstance(group.get("count", 1), int) else 1
            if plane is not None:
                if not plane.is_aircraft:
                    found.append(doc.problem(here + ["air_groups", k, "unit"], f"{plane.id} is not an aircraft"))
                elif plane.has_ability("Land Based"):
                    found.append(
                        doc.problem(
                            here + ["air_groups", k, "unit"], f"{plane.id} is land based and cannot fly from a carrier"
                        )
                    )
                groups.append((plane, n))
                fleet_units.append((plane, n))
        if unit is None:
            continue
        aboard = sum(n for _p, n in groups)
        if groups and unit.type != "carrier":
            found.append(
                doc.problem(
                    here + ["air_groups"], f"{unit.id} is a {unit.type}, not a carrier: it carries no air groups"
                )
            )
        elif groups and aboard > (unit.carrier_capacity or 0) * count:
            found.append(
                doc.problem(
                    here + ["air_groups"],
                    (
                        f"{aboard} squadrons are over the capacity of {count} x {unit.id} "
                        f"({(unit.carrier_capacity or 0) * count})"
                    ),
                )
            )
        if entry.get("flagship") is True:
            flagships += 1
            if not unit.flagship:
                found.append(doc.problem(here + ["flagship"], f"{unit.id} has no flagship rating"))
        forces.append(Force(unit, count, entry.get("flagship") is True, tuple(groups), entry.get("stands_for")))
        fleet_units.append((unit, count))
    if flagships > 1:
        found.append(doc.problem(parts + ["forces"], "a side has at most one flagship"))
    for base in data.get("air_bases") or []:
        if isinstance(base, dict) and base.get("side") == side.get("side"):
            for squadron in base.get("squadrons") or []:
                if isinstance(squadron, dict) and squadron.get("unit") in units:
                    fleet_units.append((units[squadron["unit"]], squadron.get("count", 1)))
    limit = data.get("points_limit") if isinstance(data.get("points_limit"), int) else None
    if variant is None or limit is None:
        return None
    fleet = check_fleet(variant, fleet_units, limit)
    for message in fleet.problems:
        found.append(doc.problem(parts + ["forces"], f"{side.get('name', side.get('side'))}: {message}"))
    return Side(str(side.get("side", "")), side.get("name", ""), tuple(forces), side.get("briefing"), fleet)


def _air_base(doc, parts, base: dict, units, found) -> AirBase:
    squadrons = []
    for k, squadron in enumerate(base.get("squadrons") or []):
        if not isinstance(squadron, dict):
            continue
        plane = _resolve(doc, parts + ["squadrons", k, "unit"], squadron.get("unit"), units, found)
        count = squadron.get("count", 1) if isinstance(squadron.get("count", 1), int) else 1
        if plane is not None and not plane.is_aircraft:
            found.append(doc.problem(parts + ["squadrons", k, "unit"], f"{plane.id} is not an aircraft"))
        elif plane is not None:
            squadrons.append((plane, count))
    total = sum(n for _p, n in squadrons)
    capacity = base.get("capacity")
    if isinstance(capacity, int) and total > capacity:
        found.append(
            doc.problem(parts + ["squadrons"], f"{total} squadrons are over the air base's capacity of {capacity}")
        )
    return AirBase(str(base.get("name")), str(base.get("side")), tuple(squadrons))


def _coordinates(doc, data: dict, board: Board, found) -> None:
    width, height = data["map"].get("width"), data["map"].get("height")
    if not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
        return
    low, unit = board.first, board.unit

    def check(parts, point) -> None:
        if isinstance(point, list) and len(point) == 2 and all(isinstance(v, (int, float)) for v in point):
            x, y = point
            if not (low <= x <= width and low <= y <= height):
                found.append(
                    doc.problem(parts, f"[{x:g}, {y:g}] is off the map ({low}..{width:g} x {low}..{height:g} {unit})")
                )

    for key in PLACED:
        for i, item in enumerate(data.get(key) or []):
            if isinstance(item, dict):
                check([key, i, "at"], item.get("at"))
    for j, point in enumerate(data["map"].get("play_area") or []):
        check(["map", "play_area", j], point)
    _in_play_area(doc, data, unit, found)
    for key in ("terrain", "deployment_zones"):
        for i, item in enumerate(data.get(key) or []):
            if isinstance(item, dict):
                for j, point in enumerate(item.get("points") or []):
                    check([key, i, "points", j], point)


def _in_play_area(doc, data: dict, unit: str, found) -> None:
    """What the players place (deployment zones, objectives, bases, batteries, garrisons) must
    lie in the play area a scenario declares: only that area is printed as tiles. Terrain may
    reach beyond it (the plan of the whole map shows it)."""
    corners = data["map"].get("play_area")
    if not (isinstance(corners, list) and len(corners) == 2 and all(_is_point(p) for p in corners)):
        return
    (ax, ay), (bx, by) = corners
    x0, x1, y0, y1 = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)

    def check(parts, point) -> None:
        if _is_point(point) and not (x0 <= point[0] <= x1 and y0 <= point[1] <= y1):
            found.append(
                doc.problem(
                    parts,
                    f"[{point[0]:g}, {point[1]:g}] is outside the play area "
                    f"({x0:g}..{x1:g} x {y0:g}..{y1:g} {unit}, map.play_area): only that area is printed",
                )
            )

    for key in PLACED:
        for i, item in enumerate(data.get(key) or []):
            if isinstance(item, dict):
                check([key, i, "at"], item.get("at"))
    for i, zone in enumerate(data.get("deployment_zones") or []):
        if isinstance(zone, dict):
            for j, point in enumerate(zone.get("points") or []):
                check(["deployment_zones", i, "points", j], point)


def _is_point(point) -> bool:
    return isinstance(point, list) and len(point) == 2 and all(isinstance(v, (int, float)) for v in point)


# --- land and sea ------------------------------------------------------------------------------

ON_LAND = {"air_bases": "an air base", "shore_batteries": "a shore battery", "garrisons": "a garrison"}
COAST_REACH = {"in": 1.0, "cm": 2.5}  # how far inland ships still reach an objective on a plain table


def _land_and_sea(doc, data: dict, frame: terrain.Frame, found: list[Problem]) -> None:
    """Bases, batteries and garrisons stand on land; deployment zones hold sea for the ships
    they deploy; ships can reach every objective. Land is what the printed map draws."""
    land = terrain.land_of(frame, data)
    for key, kind in ON_LAND.items():
        for i, item in enumerate(data.get(key) or []):
            if isinstance(item, dict) and terrain.is_point(item.get("at")) and frame.holds(item["at"]):
                point = frame.to_map(*item["at"])
                if land.is_sea(point):
                    where = _at_sea(land, point)
                    found.append(
                        doc.problem(
                            [key, i, "at"],
                            f"{item.get('name')} at {_shown(item['at'])} is at sea{where}: "
                            f"{kind} stands on land (an island in terrain)",
                        )
                    )
    for i, zone in enumerate(data.get("deployment_zones") or []):
        if isinstance(zone, dict) and isinstance(zone.get("points"), list) and len(zone["points"]) >= 3:
            if all(terrain.is_point(p) and frame.holds(p) for p in zone["points"]):
                _zone_sea(doc, land, i, zone, found)
    for i, objective in enumerate(data.get("objectives") or []):
        if isinstance(objective, dict) and terrain.is_point(objective.get("at")) and frame.holds(objective["at"]):
            _reachable(doc, land, i, objective, found)


def _shown(at: list) -> str:
    return f"[{at[0]:g}, {at[1]:g}]"


def _at_sea(land: terrain.Land, point: terrain.Point) -> str:
    """What a point at sea is in and near, for a message: ", in X (shallows), 0.3 sectors off Y"."""
    shoal = land.shoal_at(point)
    text = f", in {shoal.described}" if shoal else ""
    nearest = land.nearest_island(point)
    if nearest is None:
        return text + ", and the map has no island"
    island, distance = nearest
    return text + f", {land.frame.units(distance)} off {island.name}"


def _zone_sea(doc, land: terrain.Land, i: int, zone: dict, found: list[Problem]) -> None:
    frame = land.frame
    outline = [frame.to_map(*p) for p in zone["points"]]
    if frame.land_in_cells:
        points = [frame.hex_centre(h) for h in terrain.hexes_in(frame, zone["points"])]
    else:
        points = terrain.samples(outline)
    on_land = [p for p in points if not land.is_sea(p)]
    if not on_land:
        return
    islands = sorted({a.name for p in on_land if (a := land.island_at(p)) is not None})
    name = zone.get("name")
    if len(on_land) == len(points):
        found.append(
            doc.problem(
                ["deployment_zones", i, "points"],
                f"{name!r} lies wholly on land ({', '.join(islands)}): ships deploy at sea",
            )
        )
    elif len(on_land) * 2 > len(points):
        share = round(100 * len(on_land) / len(points))
        found.append(
            doc.problem(
                ["deployment_zones", i, "points"],
                f"about {share} % of {name!r} lies on land ({', '.join(islands)}): ships deploy only on its sea",
                severity=Severity.WARNING,
            )
        )


def _reachable(doc, land: terrain.Land, i: int, objective: dict, found: list[Problem]) -> None:
    """An objective at sea, or on land where ships still reach it: a coast hex or one next to
    the sea, a sector with sea in it, or (on a plain table) within COAST_REACH of the sea."""
    frame = land.frame
    point = frame.to_map(*objective["at"])
    island = land.island_at(point)
    if island is None:
        return
    if frame.land_in_cells:
        reached, rule = land.hex_reaches_sea(point), "on a hex at or next to the sea"
    elif frame.board.gridded:
        col, row = min(int(objective["at"][0]), frame.columns - 1), min(int(objective["at"][1]), frame.rows - 1)
        sector = [frame.to_map(col + dx, row + dy) for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1))]
        reached, rule = any(land.is_sea(p) for p in terrain.samples(sector)), "in a sector with sea in it"
    else:
        reach = COAST_REACH[frame.unit]
        reached = land.sea_distance(point, reach * frame.unit_pt) is not None
        rule = f"within {reach:g} {frame.unit} of the sea"
    if not reached:
        found.append(
            doc.problem(
                ["objectives", i, "at"],
                f"{objective.get('name')} at {_shown(objective['at'])} lies inland on {island.name}: "
                f"ships cannot reach it; put it at sea or on the coast ({rule})",
            )
        )


def _page_budget(doc, s: Scenario, problems: list[Problem]) -> None:
    """A warning when the pack would pass the page budget the docs keep packs within."""
    frame = terrain.frame_of(s.data, s.board)
    if frame is None:
        return
    blocks = sum(len(s.data.get(k) or []) for k in ("air_bases", "shore_batteries", "garrisons"))
    pages = terrain.pack_pages(frame, s.data, len(s.units()) + blocks)
    if pages.at_least <= terrain.PAGE_BUDGET:
        return
    declared = "play_area" in s.data["map"]
    where = "map.play_area" if declared else "the map (no map.play_area)"
    problems.append(
        doc.problem(
            ["map", "play_area"] if declared else ["map"],
            f"the pack runs to at least {pages.at_least} Letter pages ({pages.map_tiles} map pages for {where}, "
            f"{pages.card_sheets} card sheets, the plan and the briefing), over the {terrain.PAGE_BUDGET} "
            "the docs keep a pack within: a smaller map.play_area prints fewer",
            severity=Severity.WARNING,
        )
    )
