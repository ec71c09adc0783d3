"""large-map: seed 000, afilter's Large Map House Rules.

A 24 x 12 board of 4-inch sectors; aircraft fly a limited number of sectors per air
phase, given by the seed's Air Range Chart where it lists the aircraft and by its
formula floor(mph / 12 x 1760 / 5000) elsewhere; carriers lose 1 vital armor per
squadron aboard; air bases, shore batteries and garrisons have stat blocks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypedDict

from ..core.geometry import PT_PER_IN
from ..core.model import Unit
from .aid import Table, turns
from .base import AdaptedUnit, BoardSheet, Parameter, Value, Variant
from .board import SquareBoard
from .dice import LARGE_MAP as DICE
from .standard import sector_attacks

SEED = "afilter's War at Sea Large Map House Rules"


@dataclass(frozen=True)
class ChartRow:
    chart_name: str  # as the seed spells it
    side: str
    sectors: int
    unit_id: str | None  # the unit it names, matched by hand across spellings
    note: str = ""


# The seed's Air Range Chart, row by row. Numbers are the seed's; the unit ids are ours.
AIR_RANGE_CHART: tuple[ChartRow, ...] = (
    ChartRow("Sea Hurricane Mk 1B", "allies", 9, "sea-hurricane-mk-1b"),
    ChartRow("Swordfish Mk. II", "allies", 4, "swordfish-mk-ii"),
    ChartRow("Barracuda Mk II", "allies", 6, "barracuda-mk-ii"),
    ChartRow("Halifax GR Mk V", "allies", 8, "halifax-gr-mk-v"),
    ChartRow("Beaufighter", "allies", 9, "beaufighter-tf-mk-x"),
    ChartRow("F4F Wildcat", "allies", 9, "f4f-wildcat"),
    ChartRow("PBY Catalina", "allies", 5, "pby-catalina"),
    ChartRow("SBD Dauntless", "allies", 7, "sbd-dauntless"),
    ChartRow("TBD Devastator", "allies", 5, "tbd-devastator"),
    ChartRow("B-25H Mitchell", "allies", 8, "b-25h-mitchell"),
    ChartRow("F6F-3 Hellcat", "allies", 10, "f6f-3-hellcat"),
    ChartRow("TBF Avenger", "allies", 7, "tbf-avenger"),
    ChartRow(
        "Martlet Mk. I", "allies", 9, "martlet-mk-ii", "the chart says Mk. I; the only Martlet card is the Mk. II"
    ),
    ChartRow("SB2C Helldiver", "allies", 8, "sb2c-helldiver"),
    ChartRow("D520", "allies", 10, "d-520"),
    ChartRow("V-156F Vindicator", "allies", 7, "v-156f-vindicator"),
    ChartRow("Sunderland Mk. 1", "allies", 6, "sunderland-mk-i"),
    ChartRow("B-24D Liberator", "allies", 8, "b-24d-liberator"),
    ChartRow("F4U-1A Corsair", "allies", 12, "usmc-f4u-1a-corsair"),
    ChartRow("P-40E Warhawk", "allies", 10, "p-40e-warhawk"),
    ChartRow("PBY Black Cat", "allies", 5, "pby-black-cat"),
    ChartRow("IL-2M Sturmovik", "allies", 7, "il-2m-sturmovik"),
    ChartRow("FW 200 Kondor", "axis", 6, "fw-200-kondor"),
    ChartRow("Ju 87B Stuka", "axis", 6, "ju-87b-stuka"),
    ChartRow("BF 109", "axis", 9, "bf-109"),
    ChartRow("C 202 Foglore", "axis", 10, "c-202-folgore", "the chart misspells Folgore"),
    ChartRow("JU-87 R2 Ricchiateli", "axis", 7, "ju-87-r2-picchiatelli", "the chart misspells Picchiatelli"),
    ChartRow("SM 79 Sparviero", "axis", 8, "sm-79-sparviero"),
    ChartRow('A6M2 "Zeke"', "axis", 9, "a6m2-zeke"),
    ChartRow('B5N2 "Kate"', "axis", 6, "b5n2-kate"),
    ChartRow('D3A "Val"', "axis", 6, "d3a-val"),
    ChartRow('G4M "Betty"', "axis", 7, "g4m-betty"),
    ChartRow("A6M2 Zero Kamikaze", "axis", 8, "a6m2-zero-kamikaze"),
    ChartRow('D4Y1 "Judy"', "axis", 9, "d4y1-judy"),
    ChartRow('H8K1 Type 2 "Emily"', "axis", 8, "h8k1-type-2-emily"),
    ChartRow("JU88A-4", "axis", 9, "ju-88a-4"),
    ChartRow("Re 2001 CB", "axis", 10, "re-2001-cb"),
    ChartRow("A6M5 \u201cZeke\u201d", "axis", 9, "a6m5-zeke"),
    ChartRow("B6N2 \u201cJill\u201d", "axis", 8, "b6n2-jill"),
    ChartRow("Fi 167", "axis", 6, "fi-167"),
    ChartRow("Z.506B Airone", "axis", 6, "z-506b-airone"),
    ChartRow("N1K1-J George", "axis", 11, "n1k1-j-george"),
    ChartRow("B-239 Buffalo", "axis", 9, "b-239-buffalo"),
    ChartRow('A6MN "Rufe"', "axis", 8, "a6m2-n-rufe", "the chart drops the 2 of A6M2-N"),
)
CHART_BY_UNIT = {row.unit_id: row for row in AIR_RANGE_CHART if row.unit_id}

# Stat blocks the seed gives as typical values (scenarios may change them).
AIR_BASE = {"capacity": 4, "armor": 4, "hull": 6, "anti_air": 5}
AIR_BASE_SQUADRONS = (2, 6)  # the scenario sets each base's; the rules' games range over these


class ShoreStats(TypedDict):
    armor: int
    hull: int
    anti_air: int


class BatteryStats(ShoreStats):
    gunnery: tuple[int, int, int]


class GarrisonStats(ShoreStats):
    units: tuple[int, int]


HEAVY_BATTERY: BatteryStats = {"gunnery": (8, 7, 6), "armor": 5, "hull": 4, "anti_air": 6}
LIGHT_BATTERY: BatteryStats = {"gunnery": (5, 4, 3), "armor": 3, "hull": 2, "anti_air": 5}
GARRISON: GarrisonStats = {"units": (1, 3), "armor": 3, "hull": 2, "anti_air": 4}


def formula_sectors(mph: float) -> int:
    """floor(mph / 12 x 1760 / 5000): miles in a 5-minute phase, in 5,000-yard sectors.
    Exact arithmetic, so that a boundary value never rounds the wrong way."""
    return int(Fraction(str(mph)) * 1760 / (12 * 5000))


def formula_text(mph: float) -> str:
    """The house rules' formula in words: '250 mph covers 7,333 yards in a 5-minute phase, 6 whole sectors'."""
    yards = Fraction(str(mph)) * 1760 / 12
    whole = formula_sectors(mph)
    return f"{mph:g} mph covers {float(yards):,.0f} yards in a 5-minute phase: {whole} whole sectors of 5,000 yards"


def air_sectors(unit: Unit, use_chart: bool, assumed_mph: float = 250.0) -> tuple[Value, list[str]]:
    row = CHART_BY_UNIT.get(unit.id) if use_chart else None
    mph = unit.history.top_speed_mph
    if row:
        detail = f"; its top speed would give {formula_sectors(mph)} ({mph:g} mph)" if mph else ""
        return Value(row.sectors, "sectors/phase", f"Air Range Chart ({SEED}): {row.chart_name}{detail}"), []
    if mph:
        return Value(
            formula_sectors(mph), "sectors/phase", f"not in the Air Range Chart ({SEED}): {formula_text(mph)}"
        ), []
    warning = f"{unit.id}: history.top_speed missing and not in the Air Range Chart: {assumed_mph:g} mph assumed"
    return Value(
        formula_sectors(assumed_mph),
        "sectors/phase",
        f"fallback: no historical top speed and not in the Air Range Chart; {formula_text(assumed_mph)} "
        "(parameter unknown_aircraft_mph)",
        "assumed speed",
    ), [warning]


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    rules: dict[str, Value] = {}
    warnings: list[str] = []
    if unit.is_aircraft:
        movement, warnings = air_sectors(unit, params["use_air_range_chart"], params["unknown_aircraft_mph"])
        rules["take_off"] = Value(
            1, "sectors", f"{SEED}: in the phase it takes off a squadron moves at most 1 sector (forming up)"
        )
        rules["rearm"] = Value(
            params["rearm_turns"],
            "turns",
            (
                f"{SEED}: after landing, one full turn re-arming; +1 re-arm marker when landing on a carrier it is "
                "not assigned to"
            ),
        )
    else:
        movement = Value(
            unit.speed, "sectors", f"card speed {unit.speed}; sectors of {params['sector_in']:g} in ({SEED})"
        )
    if unit.type == "carrier" and unit.carrier_capacity:
        rules["launch_land_per_phase"] = Value(
            unit.carrier_capacity, "squadrons", f"{SEED}: launches plus landings per air phase up to the capacity"
        )
        by_squadrons = [max(0, unit.vital_armor - n) for n in range(unit.carrier_capacity + 1)]
        rules["vital_armor_by_squadrons_aboard"] = Value(
            by_squadrons,
            None,
            f"{SEED}: Vital Armor {unit.vital_armor} less 1 per squadron aboard (0..{unit.carrier_capacity})",
        )
    return AdaptedUnit(
        unit, "large-map", dict(params), movement, sector_attacks(unit, crippled), rules, crippled, tuple(warnings)
    )


VARIANT = Variant(
    dice=DICE,
    name="large-map",
    title="Large map with flying aircraft",
    seed=SEED,
    parameters=(
        Parameter("sector_in", 4.0, "sector side in inches", minimum=1.0, maximum=12.0),
        Parameter("columns", 24, "board width in sectors", minimum=1, maximum=200),
        Parameter("rows", 12, "board height in sectors", minimum=1, maximum=200),
        Parameter(
            "use_air_range_chart",
            True,
            (
                "air moves from the Air Range Chart of the Large Map House Rules for the aircraft it lists "
                "(no: from each aircraft's top speed)"
            ),
        ),
        Parameter(
            "unknown_aircraft_mph",
            250.0,
            "speed assumed for an aircraft with no historical top speed and not in the Air Range Chart "
            "(its card says the speed is assumed)",
            minimum=60.0,
            maximum=700.0,
        ),
        Parameter(
            "rearm_turns",
            1,
            "full turns a squadron re-arms after landing (the Large Map House Rules suggest 6 for a slower game)",
            minimum=0,
            maximum=10,
        ),
    ),
    adapt_fn=adapt,
    distance_unit="sectors",
    description="4-inch sectors on a 24 x 12 board; aircraft fly a set number of sectors each air phase.",
)


def chart_cross_check(units: dict[str, Unit]) -> list[dict[str, Any]]:
    """Each chart row against the formula applied to the unit's sourced top speed."""
    rows = []
    for row in AIR_RANGE_CHART:
        unit = units.get(row.unit_id) if row.unit_id else None
        mph = unit.history.top_speed_mph if unit else None
        computed = formula_sectors(mph) if mph else None
        rows.append(
            {
                "chart_name": row.chart_name,
                "unit": row.unit_id if unit else None,
                "chart": row.sectors,
                "mph": mph,
                "computed": computed,
                "source": unit.history.top_speed.source if unit and unit.history.top_speed else None,
                "difference": None if computed is None else computed - row.sectors,
                "note": row.note,
            }
        )
    return rows


def rulers(params: dict[str, Any]) -> list:
    """A sector ruler for counting air moves (up to 12 sectors a phase) across the board."""
    from ..core.geometry import Ruler, Zone

    zones = tuple(Zone(f"sector {n}", n - 1, n) for n in range(1, 13))
    return [
        Ruler(
            f"Air movement in {params['sector_in']:g}-inch sectors",
            "sector",
            params["sector_in"] * PT_PER_IN,
            12,
            0.25,
            1,
            zones,
        )
    ]


def board(params: dict[str, Any]) -> SquareBoard:
    return SquareBoard(unit_pt=params["sector_in"] * PT_PER_IN)


def sheet(params: dict[str, Any]) -> BoardSheet:
    """The whole board, tiled: ``columns`` x ``rows`` sectors."""
    return BoardSheet("map-square", "Large map board", board(params), params["columns"], params["rows"])


def range_words(params: dict[str, Any]) -> str:
    return f"each range is that many sectors away; a sector is {params['sector_in']:g} in"


def air_chart(units: list[Unit], nations: dict[str, str], params: dict[str, Any]) -> Table:
    """Every aircraft with its sectors a phase: the Air Range Chart's, or worked out from its top speed (*)."""
    rows = []
    for unit in sorted((u for u in units if u.is_aircraft), key=lambda u: (u.nation, u.name)):
        adapted = VARIANT.adapt(unit, params)
        charted = unit.id in CHART_BY_UNIT and params["use_air_range_chart"]
        worked_out = not charted and adapted.movement.value is not None
        mph = unit.history.top_speed_mph
        rows.append(
            (
                unit.name,
                nations.get(unit.nation, unit.nation),
                "-" if adapted.movement.value is None else f"{adapted.movement.value}{'*' if worked_out else ''}",
                f"{mph:.0f}" if mph else "-",
            )
        )
    return Table(
        ("aircraft", "nation", "sectors a phase", "top speed, mph"),
        tuple(rows),
        (
            "* Not in the house rules' chart: the whole sectors of 5,000 yards the aircraft covers at its top speed "
            "in a 5-minute phase."
        ),
    )


def position_blocks() -> Table:
    """The stat blocks of air bases, shore batteries and garrisons."""
    return Table(
        ("position", "armor", "hit points", "antiair", "other"),
        (
            (
                "Air base",
                AIR_BASE["armor"],
                AIR_BASE["hull"],
                AIR_BASE["anti_air"],
                f"squadrons: as the scenario sets ({AIR_BASE['capacity']} in the rules' example)",
            ),
            (
                "Heavy shore battery",
                HEAVY_BATTERY["armor"],
                HEAVY_BATTERY["hull"],
                HEAVY_BATTERY["anti_air"],
                "gunnery " + "/".join(map(str, HEAVY_BATTERY["gunnery"])),
            ),
            (
                "Light shore battery",
                LIGHT_BATTERY["armor"],
                LIGHT_BATTERY["hull"],
                LIGHT_BATTERY["anti_air"],
                "gunnery " + "/".join(map(str, LIGHT_BATTERY["gunnery"])),
            ),
            ("Garrison", GARRISON["armor"], GARRISON["hull"], GARRISON["anti_air"], "1-3 units"),
        ),
    )


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/large-map.yaml``)."""
    nations = {key: n.name for key, n in repo.nations.items()}
    return {
        "air_base_squadrons": "{} to {}".format(*AIR_BASE_SQUADRONS),
        "air_chart": air_chart(list(repo.units.values()), nations, params),
        "positions": position_blocks(),
        "rearm_turns": turns(params["rearm_turns"]),
    }


VARIANT = replace(
    VARIANT,
    aid="large-map",
    aid_fn=aid_parts,
    range_fn=range_words,
    label="Large map",
    motif="squares",
    board_fn=board,
    sheet_fn=sheet,
    rulers_fn=rulers,
    stat_blocks=True,
)
