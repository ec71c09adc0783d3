"""tabletop-cm: seed 001, Tabletop Conversions (centimeters by table scale).

A sector becomes 10 cm on the 6 ft scale and 15 cm on the 8 ft scale; range band r
reaches (r + 1) sectors; hidden submarines are searched for with a detection number;
ships re-arm torpedoes with counters; fleets have points limits (see fleet.py).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..core.model import Unit
from ..core.wording import Measure, quantity
from .aid import Table
from .base import AdaptedAttack, AdaptedUnit, Band, Parameter, Value, Variant, extended_bands
from .board import TableBoard, centimetre_table
from .dice import TABLE_CM as DICE
from .fleet import FleetCheck

SEED = "War at Sea: Tabletop Conversions"
SECTOR_CM = {"6ft": 10.0, "8ft": 15.0}


def sector_cm(params: dict[str, Any]) -> float:
    return SECTOR_CM[params["table_scale"]]


def reach_cm(band: int, sector: float) -> tuple[float, float]:
    """Band r reaches (r + 1) sectors: 0..1 sector for band 0, r..r+1 beyond."""
    return band * sector, (band + 1) * sector


def detection_number(unit: Unit) -> tuple[int, str]:
    """The roll on a d6 that finds a hidden submarine within this unit's range-0 reach."""
    if unit.is_aircraft:
        if unit.type == "patrol-bomber":
            return 4, "patrol bomber: 4+"
        return 6, "aircraft other than patrol bombers: 6"
    has_asw = unit.attack("asw") is not None
    if has_asw and unit.has_ability("Sub Hunter"):
        return 3, "ASW and the Sub Hunter ability: 3+"
    if has_asw:
        return 4, "ship with ASW weapons: 4+"
    return 5, "ship without ASW weapons: 5+"


def hidden_move_sectors(speed: int, turns_hidden: int) -> int:
    """A hidden submarine, when found or attacking, moves its speed plus one move saved per
    turn hidden (seed 001: an Italian submarine hidden 4 turns moves 1 + 4 sectors)."""
    return speed + speed * turns_hidden


def land_based(unit: Unit) -> bool:
    """Aircraft flying from land: patrol bombers and the Land Based and Land Fighter abilities."""
    return unit.type == "patrol-bomber" or unit.has_ability("Land Based") or unit.has_ability("Land Fighter")


def aircraft_rearm_counters(unit: Unit) -> tuple[int, str] | None:
    """Every aircraft re-arms with counters when it lands: carrier aircraft 1, land-based 2."""
    if not unit.is_aircraft:
        return None
    if land_based(unit):
        return 2, "land-based aircraft (patrol bombers, Land Based, Land Fighter) take two re-arm counters"
    return 1, "carrier aircraft take a re-arm counter"


def torpedo_rearm_counters(unit: Unit) -> tuple[int, str] | None:
    if unit.is_aircraft:
        return aircraft_rearm_counters(unit)
    if unit.attack("torpedo") is None:
        return None
    if unit.type in ("submarine", "torpedo-boat"):
        return 0, "submarines and torpedo boats take no re-arm counters"
    return 2, "ships take 2 counters after firing torpedoes and remove 1 a turn"


# Abilities seed 001 restates for the tabletop, in the project's own words ({reach}: range 0).
AMENDED_ABILITIES = {
    "Shallow Draft": "may go closer than 5 cm (or its own length) to land, and cannot be targeted by torpedoes",
    "Close Escort": (
        "may fire antiair at an aircraft that two other ships have fired on, if it is within {reach} of the "
        "target ship's conning tower"
    ),
}


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    sector = sector_cm(params)
    scale = params["table_scale"]
    attacks = []
    for attack in unit.attacks:
        bands = [Band(r, dice, *reach_cm(r, sector), "cm") for r, dice in enumerate(attack.bands) if dice]
        bands += [
            Band(r, dice, *reach_cm(r, sector), "cm", cond) for r, dice, cond in extended_bands(unit, attack, crippled)
        ]
        notes = (
            ("submarine torpedoes fire only within 45 degrees of dead ahead",)
            if unit.type == "submarine" and attack.kind == "torpedo"
            else ()
        )
        attacks.append(AdaptedAttack(attack.kind, tuple(bands), notes))
    rules: dict[str, Value] = {}
    if unit.is_aircraft:
        movement = Value(None, None, f"{SEED}: air attacks as in the base game (aircraft are placed)", "placed")
    else:
        movement = Value(
            unit.ship_speed * sector,
            "cm",
            f"card speed {unit.speed} x {sector:g} cm ({scale.removesuffix('ft')} ft scale, {SEED})",
        )
        for other, cm in SECTOR_CM.items():
            rules[f"movement_{other}"] = Value(
                unit.ship_speed * cm, "cm", f"card speed {unit.speed} x {cm:g} cm ({other.removesuffix('ft')} ft scale)"
            )
    number, why = detection_number(unit)
    rules["detection"] = Value(number, "d6", f"{SEED}: {why}")
    rearm = torpedo_rearm_counters(unit)
    if rearm:
        key = "rearm_counters" if unit.is_aircraft else "torpedo_rearm_counters"
        rules[key] = Value(rearm[0], "counters", f"{SEED}: {rearm[1]}")
    rules["range_0_reach"] = Value(
        sector, "cm", f"{SEED}: searching and supporting antiair fire reach as far as range 0, {sector:g} cm"
    )
    rules["objective_clear"] = Value(
        2 * sector, "cm", f"{SEED}: seizing an objective needs no enemy vessel within range 1, {2 * sector:g} cm"
    )
    for name, summary in AMENDED_ABILITIES.items():
        if unit.has_ability(name):
            rules[f"amended: {name}"] = Value(summary.format(reach=f"{sector:g} cm"), None, f"{SEED}, amended ability")
    if unit.has_ability("Shallow Draft"):
        rules["torpedo_immune"] = Value(True, None, f"{SEED}: shallow-draft vessels cannot be targeted by torpedoes")
    return AdaptedUnit(unit, "tabletop-cm", dict(params), movement, tuple(attacks), rules, crippled)


VARIANT = Variant(
    dice=DICE,
    name="tabletop-cm",
    title="Tabletop in centimeters",
    seed=SEED,
    parameters=(
        Parameter(
            "table_scale",
            "6ft",
            "table scale, 6ft (10 cm for each range and point of speed) or 8ft (15 cm)",
            choices=tuple(SECTOR_CM),
        ),
    ),
    adapt_fn=adapt,
    distance_unit="cm",
    description=(
        "10 cm (6 ft scale) or 15 cm (8 ft scale) for each range and each point of speed: range 0 reaches 10 cm, "
        "range 1 20 cm, and so on."
    ),
)


def rulers(params: dict[str, Any]) -> list:
    """Centimeter rulers for both table scales, ranges 0-6 (4-5 need Extended Range, *, and 6 Long Shot, \u2020,
    as the cards mark them)."""
    from ..core.geometry import PT_PER_CM, Ruler, Zone

    out = []
    for scale, sector in SECTOR_CM.items():
        zones = tuple(
            Zone(f"Range {b}" + ("*" if b in (4, 5) else "\u2020" if b == 6 else ""), *reach_cm(b, sector))
            for b in range(7)
        )
        out.append(
            Ruler(
                f"Range, {scale.removesuffix('ft')} ft scale ({sector:g} cm each); * Extended Range, \u2020 Long Shot",
                "cm",
                PT_PER_CM,
                7 * sector,
                1,
                5 if sector == 10 else 15,
                zones,
            )
        )
    return out


def measure(params: dict[str, Any], unit: Unit | None = None) -> Measure:
    """The base game's words at the table scale in use: a sector is 10 cm (6 ft scale) or 15 cm
    (8 ft scale); the same sector or local is range 0 (within 1 sector, as the seed's searching
    and supporting antiair use it), two friendly ships in the same sector are within range 0 of
    each other, adjacent is range 1 (within 2 sectors, as the seed's objective rule uses it), a
    sector of movement is 1 sector, and band r reaches from r to r + 1 sectors."""
    sector = sector_cm(params)
    return Measure(
        "cm",
        sector,
        sector,
        2 * sector,
        sector,
        False,
        lambda band, _weapon: reach_cm(band, sector),
        scale_name(params),
    )


def scale_name(params: dict[str, Any]) -> str:
    """'6 ft scale': what every centimeter on a card depends on."""
    return f"{params['table_scale'].removesuffix('ft')} ft scale"


def board(params: dict[str, Any]) -> TableBoard:
    """A plain table in centimeters; the scale bar is one sector at the table scale."""
    return centimetre_table(sector_cm(params))


def claim(params: dict[str, Any]) -> str:
    return "touch the objective with no enemy vessel within 20 cm (30 cm on the 8 ft scale)"


def fleet_rules(units: list[tuple[Unit, int]], total: int, limit: int) -> FleetCheck:
    """More than a third of the points in US units caps the fleet at 90% of the limit;
    submarines may take at most 25% of the points available."""
    us = sum(u.points * n for u, n in units if u.nation == "us")
    subs = sum(u.points * n for u, n in units if u.type == "submarine")
    notes, problems = [], []
    effective = limit
    if total and Fraction(us, total) > Fraction(1, 3):
        effective = int(Fraction(limit) * Fraction(9, 10))
        notes.append(f"US units are {us} of {total} points (more than a third): limit capped at 90%, {effective}")
    if total > effective:
        problems.append(f"{total} points is over the limit of {effective}")
    sub_cap = int(Fraction(limit) / 4)
    if subs > sub_cap:
        problems.append(f"submarines are {subs} points, over 25% of {limit} ({sub_cap})")
    return FleetCheck(total, limit, effective, us, subs, tuple(problems), tuple(notes))


def range_words(params: dict[str, Any]) -> str:
    sector = sector_cm(params)
    scale = params["table_scale"].replace("ft", " ft")
    return (
        f"range 0 reaches {quantity(sector, 'cm')}, range 1 {quantity(2 * sector, 'cm')}, each further "
        f"range reaches {quantity(sector, 'cm')} more (the {scale} scale)"
    )


def hidden_example(speed: int = 1, turns: int = 4) -> str:
    moves = hidden_move_sectors(speed, turns)
    six, eight = (moves * SECTOR_CM[s] for s in ("6ft", "8ft"))
    return (
        f"For example a speed-{speed} submarine hidden for {turns} turns may then move up to {six:g} cm "
        f"({eight:g} cm on the 8 ft scale)."
    )


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/tabletop-cm.yaml``): both
    table scales side by side, as a table may be played at either."""
    scales = tuple(f"{s.removesuffix('ft')} ft scale" for s in SECTOR_CM)
    bands = Table(
        ("band",) + scales,
        tuple((b,) + tuple(f"{reach_cm(b, cm)[1]:g} cm" for cm in SECTOR_CM.values()) for b in range(7)),
        "bands 4-6 need Extended Range or Long Shot",
    )
    move = Table(
        ("speed",) + scales, tuple((sp,) + tuple(f"{sp * cm:g} cm" for cm in SECTOR_CM.values()) for sp in (1, 2, 3))
    )
    detect = Table(
        ("searcher", "roll to find a hidden submarine"),
        (
            ("aircraft other than patrol bombers", "6"),
            ("ships without ASW", "5+"),
            ("patrol bombers, ships with ASW", "4+"),
            ("ships with ASW and Sub Hunter", "3+"),
        ),
    )
    six, eight = SECTOR_CM["6ft"], SECTOR_CM["8ft"]
    return {
        "bands": bands,
        "move": move,
        "detect": detect,
        "hidden_example": hidden_example(),
        "six": f"{six:g}",
        "eight": f"{eight:g}",
    }


VARIANT = replace(
    VARIANT,
    aid="tabletop-cm",
    aid_fn=aid_parts,
    range_fn=range_words,
    label="Tabletop in cm",
    motif="ruler-10",
    board_fn=board,
    rulers_fn=rulers,
    measure_fn=measure,
    claim_fn=claim,
    fleet_rules=fleet_rules,
    fleet_rule="us-third",
    scale_parameter="table_scale",
)
