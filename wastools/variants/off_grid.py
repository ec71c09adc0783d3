"""off-grid: seed 003, Playing Off the Grid (measuring in compass "legs").

A leg is 3 inches (or a grid square x 0.56). A sector of movement is 2 legs; range 0 is
within 1 leg and band r spans legs 2r..2r+1; antiair has a short (1 leg) and a long
(2 legs, -1 per die) range; several special abilities are amended.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.model import Unit
from ..core.wording import Measure
from .aid import Table
from .base import AdaptedAttack, AdaptedUnit, Band, Parameter, Value, Variant, extended_bands
from .board import TableBoard, inch_table
from .dice import OFF_GRID as DICE

SEED = "War at Sea: Playing Off the Grid"
GRID_TO_LEG = 0.56

# Abilities the seed amends, summarised in the project's own words.
AMENDED_ABILITIES = {
    "Combined Attack": "one extra torpedo die while attacking the same target as a friendly dive bomber",
    "Close Escort": "may end within 1 leg of one friendly ship (stacking otherwise needs more than 1 leg)",
    "Divide the Defense": (
        "once a game: the target and enemy ships within 2 legs of it take -1 per AA die; this unit -1 per bomb die "
        "and no torpedoes that turn"
    ),
    "Escort": (
        "while within 1 leg of an enemy ship a friendly bomber targets, enemy fighters get -1 on each attack die "
        "against that bomber"
    ),
    "Guard the Convoy": (
        "protects a friendly auxiliary within 2 legs: enemies cannot attack it until they have attacked this unit "
        "in the same phase, nor place aircraft on it until aircraft have been placed on this unit"
    ),
    "Heavy Antiair": "antiair reaches 2 legs short and 3 legs long",
    "Heavy Antiair {n}": "antiair reaches 2 legs short and 3 legs long",  # as aa_legs reads it too
    "Lay Smoke Screen": (
        "instead of attacking, a smoke circle of 1 leg radius, its bow on the edge and the ship inside, until the end "
        "of next turn: it blocks line of sight and conceals units inside"
    ),
    "Shallow Draft": "may come within 1 leg of islands and shoals",
    "Slow {n}": "no die roll: moves 1 leg less than its speed allows; speed 1 when crippled",
    "Sub Hunter": "after the second player's sea movement, may move 2 legs to end within 1 leg of an enemy submarine",
}


def leg_inches(params: dict[str, Any]) -> tuple[float, str]:
    if params["grid_in"] > 0:
        leg = params["grid_in"] * GRID_TO_LEG
        return leg, f"grid of {params['grid_in']:g} in x {GRID_TO_LEG} = {leg:.2f} in leg"
    return params["leg_in"], f"{params['leg_in']:g} in leg"


def band_legs(band: int) -> tuple[int, int]:
    """Range 0 is within 1 leg; band r is 2r..2r+1 legs (1 = 2-3, 2 = 4-5 ...)."""
    return (0, 1) if band == 0 else (2 * band, 2 * band + 1)


def band_reach(band: int) -> tuple[int, int]:
    """Band r as distances: from just beyond 2r - 1 legs up to 2r + 1 (band 1 starts just beyond 1 leg)."""
    return (0, 1) if band == 0 else (2 * band - 1, 2 * band + 1)


def stacking(unit: Unit) -> Value:
    """How near a friendly unit of the same kind this unit may end its move."""
    if unit.type == "torpedo-boat":
        return Value(1, "legs", f"{SEED}: a torpedo boat may be within 1 leg of one other ship")
    if unit.type == "submarine":
        return Value(1, "legs", f"{SEED}: end more than 1 leg from other friendly submarines")
    if unit.type == "fighter":
        return Value(
            1,
            "legs",
            f"{SEED}: fighters not in contact with enemy ships end more than 1 leg from friendly fighters likewise",
        )
    if unit.is_aircraft:
        return Value(None, None, f"{SEED}: no limit on the number of bombers", "no limit")
    return Value(1, "legs", f"{SEED}: end more than 1 leg from other friendly ships")


def aa_legs(unit: Unit) -> tuple[int, int, str]:
    if unit.has_ability("Heavy Antiair") or unit.has_ability("Heavy Antiair {n}"):
        return 2, 3, "Heavy Antiair (amended): short 2 legs, long 3 legs"
    return 1, 2, "short 1 leg, long 2 legs at -1 per die"


def movement_legs(unit: Unit, crippled: bool) -> tuple[int | None, str]:
    if unit.is_aircraft:
        return None, "aircraft are placed touching their target, not moved"
    slow = unit.ability("Slow {n}")
    legs = 2 * unit.ship_speed
    if slow and crippled:
        # Speed 1 when crippled, but never more than the undamaged 2 x speed - 1 legs
        # (a speed-1 slow ship would otherwise gain a leg by being crippled).
        return min(2, legs - 1), f"{slow.text} (amended), crippled: speed 1, at most {min(2, legs - 1)} legs"
    if slow:
        return legs - 1, f"{slow.text} (amended): 2 legs x speed {unit.speed} - 1 leg"
    return legs, f"2 legs x speed {unit.speed}"


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    leg, leg_text = leg_inches(params)
    legs, why = movement_legs(unit, crippled)
    movement = Value(
        legs,
        "legs" if legs is not None else None,
        f"{SEED}: {why}; {leg_text}",
        None if legs is not None else "placed on target",
    )
    attacks = []
    short, long_, aa_text = aa_legs(unit)
    for attack in unit.attacks:
        if attack.kind == "anti_air":
            dice = next(d for d in attack.bands if d)
            aa_bands = (
                Band(0, dice, 0, short, "legs"),
                Band(1, dice, short, long_, "legs", "long range: -1 on each die"),
            )
            attacks.append(AdaptedAttack("anti_air", aa_bands, (aa_text,), own_reach=True))
            continue
        bands = [Band(r, d, *band_reach(r), "legs") for r, d in enumerate(attack.bands) if d]
        bands += [Band(r, d, *band_reach(r), "legs", c) for r, d, c in extended_bands(unit, attack, crippled)]
        attacks.append(AdaptedAttack(attack.kind, tuple(bands)))
    rules: dict[str, Value] = {
        "leg": Value(leg, "in", f"{SEED}: {leg_text}"),
        "movement_in": Value(
            None if legs is None else legs * leg,
            "in",
            f"{legs} legs x {leg:g} in" if legs is not None else "no movement",
        ),
        "stacking": stacking(unit),
    }
    if unit.attack("asw") and not unit.is_aircraft:
        rules["asw_threat"] = Value(2, "legs", f"{SEED}: penalizes a submarine's attack from within 2 legs")
    if unit.has_ability("Lay Smoke Screen"):
        rules["smoke_radius"] = Value(1, "legs", f"{SEED}: the smoke circle has a 1-leg radius, the ship inside it")
    for pattern, summary in AMENDED_ABILITIES.items():
        ability = unit.ability(pattern)
        if ability:
            rules[f"amended: {ability.text}"] = Value(summary, None, f"{SEED}, amended ability")
    return AdaptedUnit(unit, "off-grid", dict(params), movement, tuple(attacks), rules, crippled)


VARIANT = Variant(
    dice=DICE,
    name="off-grid",
    title="Off the grid (compass legs)",
    seed=SEED,
    parameters=(
        Parameter("leg_in", 3.0, "length of a leg in inches", minimum=1.0, maximum=12.0),
        Parameter(
            "grid_in",
            0.0,
            (
                "side in inches of a grid square to match, 0 for none (a leg is then 0.56 of the square, "
                "whatever its length is set to)"
            ),
            minimum=0.0,
            maximum=24.0,
        ),
    ),
    adapt_fn=adapt,
    distance_unit="legs",
    description="3-inch legs stepped with a compass; ships move 2 legs for each point of speed.",
)


def rulers(params: dict[str, Any]) -> list:
    """A leg ruler with every range band (6 for Long Shot) and the antiair reaches."""
    from ..core.geometry import PT_PER_IN, Ruler, Zone

    leg, _ = leg_inches(params)
    bands = tuple(
        Zone(f"Range {b}" + ("*" if b in (4, 5) else "\u2020" if b == 6 else ""), *band_legs(b)) for b in range(7)
    )
    bands = tuple(
        Zone(z.label, 0 if z.start == 0 else z.start - 1, z.end) for z in bands
    )  # band r covers (2r-1, 2r+1] legs
    anti_air = (
        Zone("AA short", 0, 1),
        Zone("AA long (-1)", 1, 2),
        Zone("Heavy AA short", 0, 2),
        Zone("Heavy AA long (-1)", 2, 3),
    )
    return [
        Ruler(
            f"Range in legs ({leg:g} in); * Extended Range, \u2020 Long Shot", "leg", leg * PT_PER_IN, 13, 1, 1, bands
        ),
        Ruler(f"Antiair in legs ({leg:g} in)", "leg", leg * PT_PER_IN, 3, 0.5, 1, anti_air),
    ]


def measure(params: dict[str, Any], unit: Unit | None = None) -> Measure:
    """Seed 003's own translation of the base game's words: same sector or local = within 1 leg,
    two friendly ships in the same sector = within 2 legs, adjacent = within 2 legs, a sector of
    movement = 2 legs, a range = the range table (band r = 2r-2r+1 legs)."""
    return Measure("legs", 1, 2, 2, 2, True, lambda band, _weapon: band_legs(band))


def board(params: dict[str, Any]) -> TableBoard:
    """A plain table measured in inches; the scale bar is one leg."""
    leg, _text = leg_inches(params)
    return inch_table(leg, f"1 leg = {leg:.3g} in")


def smoke(params: dict[str, Any]) -> tuple[float, str, str]:
    """A smoke template's radius (1 leg, in inches), its label and the page's heading."""
    leg, _text = leg_inches(params)
    return leg, f"radius 1 leg = {leg:.3g} in", "Smoke templates for play off the grid: radius 1 leg, bow on the edge."


def claim(params: dict[str, Any]) -> str:
    return "within 1 leg of the marker with no enemy ship within 1 leg"


def placement(params: dict[str, Any]) -> str:
    return "placed with its nose touching its target"


def range_words(params: dict[str, Any]) -> str:
    return "range 0 is within 1 leg, range 1 is 2-3 legs, and each further range reaches 2 legs more"


def leg_phrase(params: dict[str, Any], leg: float) -> str:
    """'3 in', or how a leg follows from the grid a player already has."""
    if params.get("grid_in", 0) > 0:
        return f"{leg:.2f} in, {GRID_TO_LEG:g} of the {params['grid_in']:g} in grid square"
    return f"{leg:g} in"


def amended_rows(repo: Any) -> tuple[tuple[str, str], ...]:
    """The amended abilities as the cards name them ("Slow 1, Slow 2"), one row for each
    summary: "Heavy Antiair" and "Heavy Antiair 2" read alike, so they share a row."""
    named: dict[str, set[str]] = {}  # pattern -> the texts the data's cards print
    for unit in repo.units.values():
        for ability in unit.abilities:
            named.setdefault(ability.pattern, set()).add(ability.text)
    patterns: dict[str, list[str]] = {}  # summary -> the patterns the rules amend that way
    for pattern, summary in AMENDED_ABILITIES.items():
        patterns.setdefault(summary, []).append(pattern)
    return tuple((", ".join(_row_names(named, p)), summary) for summary, p in patterns.items())


def _row_names(named: dict[str, set[str]], patterns: list[str]) -> list[str]:
    """The names the data's cards print for these patterns; with none, the plain names, or
    "Slow (any number)" for a numbered ability alone."""
    found = sorted({text for p in patterns for text in named.get(p, ())})
    plain = [p for p in patterns if "{n}" not in p]
    return found or plain or [p.replace(" {n}", " (any number)") for p in patterns]


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/off-grid.yaml``)."""
    leg, _text = leg_inches(params)
    ranges = Table(
        ("range", "legs", "inches"),
        tuple(
            (b, "-".join(map(str, sorted(set(band_legs(b))))) if b else "1", f"{band_legs(b)[1] * leg:g}")
            for b in range(7)
        ),
    )
    moves = Table(("speed", "legs", "inches"), tuple((sp, 2 * sp, f"{2 * sp * leg:g}") for sp in (1, 2, 3)))
    amended = Table(("ability", "under these rules"), amended_rows(repo))
    return {
        "ranges": ranges,
        "moves": moves,
        "amended": amended,
        "leg": leg_phrase(params, leg),
        "grid_to_leg": f"{GRID_TO_LEG:g}",
    }


VARIANT = replace(
    VARIANT,
    aid="off-grid",
    aid_fn=aid_parts,
    range_fn=range_words,
    label="Off the grid",
    motif="compass",
    board_fn=board,
    rulers_fn=rulers,
    measure_fn=measure,
    claim_fn=claim,
    smoke_fn=smoke,
    placement_fn=placement,
)
