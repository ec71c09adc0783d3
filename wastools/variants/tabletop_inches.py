"""tabletop-inches: seed 004, War at Sea on a large playing surface (inches).

A sector is 5 inches; each weapon class has its own range table in inches; depth
charges reach 3 inches astern and hedgehogs 4 inches ahead; crippled units lose an
inch of speed and a torpedo die; victory at 150 points, objectives worth 50.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.model import Unit
from ..core.wording import Measure
from .aid import Table
from .base import AdaptedAttack, AdaptedUnit, Band, Parameter, Value, Variant, extended_bands
from .board import TableBoard, inch_table
from .dice import LARGE_SURFACE as DICE

SEED = "War at Sea on a large playing surface"

HEAVY_MAIN_IN = (5, 10, 20, 30, 35, 40)  # main battery of cruisers and battleships; 4-5 with Extended Range only
LIGHT_GUN_IN = (5, 10, 15, 20)  # main of carriers and destroyers; secondary and tertiary of all
TORPEDO_IN = (3, 6, 9, 12)  # band 3 for Long Lance torpedoes only
ANTI_AIR_IN = (5, 10)
DEPTH_CHARGE_IN = 3
HEDGEHOG_IN = 4
AIRCRAFT_ATTACK_IN = 5


def table_for(unit: Unit, kind: str) -> tuple[tuple[int, ...], str]:
    if kind == "main" and unit.type in ("cruiser", "battleship"):
        return HEAVY_MAIN_IN, "main battery of cruisers and battleships"
    if kind in ("main", "secondary", "tertiary"):
        return LIGHT_GUN_IN, "main battery of other ships, secondary and tertiary batteries"
    if kind == "torpedo" and not unit.is_aircraft:
        return TORPEDO_IN, "torpedoes"
    if kind == "anti_air" and not unit.is_aircraft:
        return ANTI_AIR_IN, "ship-based antiair"
    return (AIRCRAFT_ATTACK_IN,), f"aircraft attack within {AIRCRAFT_ATTACK_IN} in unless the card says otherwise"


def _bands(
    unit: Unit, kind: str, dice_by_band: list[tuple[int, int, str | None]]
) -> tuple[tuple[Band, ...], tuple[str, ...]]:
    table, what = table_for(unit, kind)
    bands, notes = [], [f"{what} ({SEED})"]
    for band, dice, condition in dice_by_band:
        if band >= len(table) and kind == "anti_air" and not unit.is_aircraft:
            # Heavy Antiair 2: antiair goes on past the table a sector (5 in) a band
            step = ANTI_AIR_IN[0]
            bands.append(Band(band, dice, band * step, (band + 1) * step, "in", condition))
            notes.append(f"band {band}: beyond the table, {step} in a band further")
            continue
        if band >= len(table) and kind == "main":
            low, high = beyond_main_table(table, band)
            notes.append(
                f"band {band}: {low}-{high} in, past the table's {table[-1]} in by its last step (the rules' "
                "table stops there: a house choice), in the ability's own line rather than the table"
            )
            continue
        if band >= len(table):
            notes.append(f"band {band} has no reach in this table")
            continue
        if kind == "torpedo" and band == 3 and not unit.is_aircraft:
            if not unit.has_ability("Long-Lance Torpedoes"):
                notes.append("band 3 (12 in) is for Long Lance torpedoes only")
                continue
            condition = "Long-Lance Torpedoes only"
        low = table[band - 1] if band else 0
        bands.append(Band(band, dice, low, table[band], "in", condition))
    return tuple(bands), tuple(notes)


def crippled_speed(speed: int) -> int:
    """The rules' crippled "-1 in" of speed, where an inch is a point of speed: one point
    less, never below 1 (a ship of speed 1 keeps it)."""
    return max(min(speed, 1), speed - 1)


def ship_movement(speed: int, params: dict[str, Any], crippled: bool) -> Value:
    """Inches a turn: each point of speed is a sector (``sector_in``) or, read literally, 1 in;
    crippled, the ship loses one point of speed either way."""
    points = crippled_speed(speed) if crippled else speed
    lost = " - 1 (crippled, minimum 1)" if crippled else ""
    if params["movement_rule"] == "sectors":
        return Value(points * params["sector_in"], "in", f"card speed {speed}{lost} x {params['sector_in']:g} in")
    return Value(points, "in", f"{SEED} read literally: inches equal to card speed {speed}{lost}")


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    sector = params["sector_in"]
    rules: dict[str, Value] = {}
    attacks = []
    for attack in unit.attacks:
        dice_by_band: list[tuple[int, int, str | None]] = [(r, d, None) for r, d in enumerate(attack.bands) if d]
        dice_by_band += [(r, d, c) for r, d, c in extended_bands(unit, attack, crippled)]
        if crippled and attack.kind == "torpedo":
            dice_by_band = [(r, max(1, d - 1), c) for r, d, c in dice_by_band]
        if attack.kind == "asw" and not unit.is_aircraft:
            attacks.append(
                AdaptedAttack(
                    "asw",
                    (Band(0, dice_by_band[0][1], 0, DEPTH_CHARGE_IN, "in", "depth charges: astern only"),),
                    (f"depth charges ({SEED})",),
                )
            )
            if unit.year >= params["hedgehog_from_year"] or unit.has_ability("Sub Hunter"):
                why = "Sub Hunter" if unit.has_ability("Sub Hunter") else f"built {unit.year}"
                rules["hedgehog"] = Value(
                    HEDGEHOG_IN, "in", f"{SEED}: hedgehog ahead only ({why}), {dice_by_band[0][1]} dice"
                )
            continue
        bands, notes = _bands(unit, attack.kind, dice_by_band)
        attacks.append(AdaptedAttack(attack.kind, bands, notes))
    if unit.is_aircraft:
        movement = Value(
            None, None, f"{SEED}: aircraft move in the air mission phase; the rules set no distance", "no set distance"
        )
    else:
        movement = ship_movement(unit.ship_speed, params, crippled)
    if crippled and not unit.is_aircraft:
        rules["armor"] = Value(max(0, unit.armor - 1), None, f"{SEED}: crippled, armor -1")
        rules["vital_armor"] = Value(max(0, unit.vital_armor - 1), None, f"{SEED}: crippled, vital armor -1")
        rules["attack_die_penalty"] = Value(1, "pip per die", f"{SEED}: crippled, -1 on each attack die")
    rules["objective_claim"] = Value(
        {"within": sector, "no_enemy_within": params["objective_enemy_clear_in"]},
        "in",
        (
            f"{SEED}: a ship within {sector:g} in of the token and no enemy ship within "
            f"{params['objective_enemy_clear_in']:g} in "
            "(the rules say 5 in at one point and 10 in at the end of the turn: parameter "
            "objective_enemy_clear_in)"
        ),
    )
    return AdaptedUnit(unit, "tabletop-inches", dict(params), movement, tuple(attacks), rules, crippled)


VARIANT = Variant(
    dice=DICE,
    name="tabletop-inches",
    title="Tabletop in inches",
    seed=SEED,
    parameters=(
        Parameter(
            "sector_in",
            5.0,
            "inches a ship moves for each point of speed (1 in is 1,000 yards)",
            minimum=1.0,
            maximum=12.0,
        ),
        Parameter(
            "movement_rule",
            "sectors",
            (
                "how far a ship moves for each point of speed (sectors: 5 in, a sector; "
                "literal: 1 in, the rules' own words)"
            ),
            choices=("sectors", "literal"),
        ),
        Parameter(
            "objective_enemy_clear_in",
            10.0,
            (
                "no enemy ship within this many inches of a claiming ship (the rules say 5 in one place and 10 in "
                "another; 10 is its end-of-turn claiming step)"
            ),
            choices=(5.0, 10.0),
        ),
        Parameter(
            "hedgehog_from_year",
            1944,
            "units built from this year on carry hedgehogs (the rules: 'made after 1943')",
            minimum=1930,
            maximum=1950,
        ),
    ),
    adapt_fn=adapt,
    distance_unit="in",
    description="Ships move 5 in for each point of speed; each weapon has a range table in inches.",
)


def rulers(params: dict[str, Any]) -> list:
    """One inch ruler per weapon class, its bands marked."""
    from ..core.geometry import PT_PER_IN, Ruler, Zone

    def zones(table: tuple[int, ...], last_label: str | None = None) -> tuple[Zone, ...]:
        out = []
        for band, end in enumerate(table):
            label = f"Range {band}"
            if last_label and band == len(table) - 1:
                label += last_label
            out.append(Zone(label, table[band - 1] if band else 0, end))
        return tuple(out)

    heavy = list(zones(HEAVY_MAIN_IN))
    heavy[4] = Zone("Range 4*", 30, 35)
    heavy[5] = Zone("Range 5*", 35, 40)
    return [
        Ruler(
            "Main battery, cruisers and battleships (in); * Extended Range", "in", PT_PER_IN, 40, 0.5, 5, tuple(heavy)
        ),
        Ruler("Other main batteries, secondary and tertiary (in)", "in", PT_PER_IN, 20, 0.5, 1, zones(LIGHT_GUN_IN)),
        Ruler(
            "Torpedoes (in); \u2021 Long-Lance Torpedoes only",
            "in",
            PT_PER_IN,
            12,
            0.5,
            1,
            zones(TORPEDO_IN, "\u2021"),
        ),
        Ruler("Antiair (ships) and aircraft attacks (in)", "in", PT_PER_IN, 10, 0.5, 1, zones(ANTI_AIR_IN)),
        Ruler(
            "Depth charges: astern only (in)",
            "in",
            PT_PER_IN,
            DEPTH_CHARGE_IN,
            0.25,
            1,
            (Zone("depth charges (astern only)", 0, DEPTH_CHARGE_IN),),
        ),
        Ruler(
            "Hedgehog: ahead only (in)",
            "in",
            PT_PER_IN,
            HEDGEHOG_IN,
            0.25,
            1,
            (Zone("hedgehog (ahead only)", 0, HEDGEHOG_IN),),
        ),
        Ruler(
            f"Movement, {params['sector_in']:g} in for each point of speed",
            "in",
            PT_PER_IN,
            3 * params["sector_in"],
            0.5,
            1,
            tuple(Zone(f"speed {s}", (s - 1) * params["sector_in"], s * params["sector_in"]) for s in (1, 2, 3)),
        ),
    ]


def beyond_main_table(table: tuple[int, ...], band: int) -> tuple[int, int]:
    """A main battery's band past the seed's table (a Long Shot 6 past its 40 in): the table
    goes on by its last step, so that an ability a player paid for reaches somewhere."""
    step = table[-1] - table[-2]
    low = table[-1] + (band - len(table)) * step
    return low, low + step


def weapon_reach(unit: Unit | None, band: int, weapon: str | None, sector: float) -> tuple[float, float] | None:
    """A band's reach in inches for a weapon: the seed's table for the unit's weapon where it
    has one (None beyond its end), else whole sectors (band r reaches r + 1 sectors, which is
    also the seed's table for secondary guns and antiair). Antiair beyond the table (Heavy
    Antiair 2) goes on a sector a band."""
    if unit is not None and weapon is not None and not unit.is_aircraft:
        table, _what = table_for(unit, weapon)
        if band < len(table):
            return (table[band - 1] if band else 0, table[band])
        if weapon == "main":
            return beyond_main_table(table, band)
        if weapon != "anti_air":
            return None
        return band * ANTI_AIR_IN[0], (band + 1) * ANTI_AIR_IN[0]  # as adapt() carries it on
    return band * sector, (band + 1) * sector


def measure(params: dict[str, Any], unit: Unit | None = None) -> Measure:
    """The base game's words on the large surface: a sector is 5 in, so the same sector or local
    is within 5 in (the seed's own reading for aircraft and antiair), two friendly ships in
    the same sector are within 5 in of each other, adjacent is within 10 in, a sector of
    movement is the movement rule's (5 in, or 1 in read literally), and a range is the unit's
    weapon table (whole sectors where the range is not a weapon's)."""
    sector = params["sector_in"]
    per_sector = sector if params["movement_rule"] == "sectors" else 1
    return Measure(
        "in",
        sector,
        sector,
        2 * sector,
        per_sector,
        False,
        lambda band, weapon: weapon_reach(unit, band, weapon, sector),
        per_weapon=True,
    )


def board(params: dict[str, Any]) -> TableBoard:
    """A plain table measured in inches; the scale bar is one sector."""
    return inch_table(params["sector_in"])


def placement(params: dict[str, Any]) -> str:
    return (
        f"in the air mission phase, no set distance; stops within {params['sector_in']:g} in of intercepting or "
        "escorting fighters"
    )


def claim(params: dict[str, Any]) -> str:
    return (
        f"within {params['sector_in']:g} in of the token, with no enemy ship within "
        f"{params['objective_enemy_clear_in']:g} in"
    )


def range_words(params: dict[str, Any]) -> None:
    return None  # each weapon's own table, in its attack's notes


def movement_words(params: dict[str, Any]) -> dict[str, str]:
    """How far a ship moves, in the aid's words: the rules' reading and the kit's setting, named
    as the choice it is (the rules give inches equal to speed, and a sector of 5 in)."""
    sectors = params["movement_rule"] == "sectors"
    per_point = f"{params['sector_in']:g}" if sectors else "1"
    sector = f"{params['sector_in']:g} in, one \u201csector\u201d, for each point"
    other = "1 in for each point, the rules' own words" if sectors else sector
    chosen = (
        f"{per_point} in, one \u201csector\u201d, for each point of speed, so that fleets close across a large table"
        if sectors
        else "1 in for each point of speed, as the rules' words say"
    )
    return {"move_in": per_point, "movement_chosen": chosen, "movement_other": other}


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/tabletop-inches.yaml``)."""
    table = Table(
        ("weapon", "0", "1", "2", "3", "4", "5"),
        (
            ("main battery, cruisers and battleships",) + tuple(f"{d} in" for d in HEAVY_MAIN_IN),
            ("other main batteries, secondary, tertiary",) + tuple(f"{d} in" for d in LIGHT_GUN_IN) + ("", ""),
            ("torpedoes (12 in: Long-Lance Torpedoes only)",) + tuple(f"{d} in" for d in TORPEDO_IN) + ("", ""),
            ("ship antiair",) + tuple(f"{d} in" for d in ANTI_AIR_IN) + ("", "", "", ""),
            ("depth charges (astern)", f"{DEPTH_CHARGE_IN} in", "", "", "", "", ""),
            ("hedgehog (ahead)", f"{HEDGEHOG_IN} in", "", "", "", "", ""),
            ("aircraft attacks", f"{AIRCRAFT_ATTACK_IN} in", "", "", "", "", ""),
        ),
        "35 and 40 in for a heavy main battery need Extended Range",
    )
    return movement_words(params) | {
        "ranges": table,
        "sector_in": f"{params['sector_in']:g}",
        "aircraft_stop_in": AIRCRAFT_ATTACK_IN,
        "antiair_in": ANTI_AIR_IN[0],
        "hedgehog_in": HEDGEHOG_IN,
        "depth_charge_in": DEPTH_CHARGE_IN,
    }


VARIANT = replace(
    VARIANT,
    aid="tabletop-inches",
    aid_fn=aid_parts,
    range_fn=range_words,
    label="Tabletop in inches",
    motif="ruler-8",
    board_fn=board,
    rulers_fn=rulers,
    measure_fn=measure,
    claim_fn=claim,
    placement_fn=placement,
)
