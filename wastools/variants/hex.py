"""hex: seed 002, play on a grid of 6 cm hexagons (Paul Wisken).

Speed is the historical top speed in km/h / 10, rounded half up; range band 0 is 1 hex
and band r spans 3r-1..3r+1 hexes; a ship covers 1 to 3 hexes; gunnery splits into
forward, aft and broadside dice; depth charges spread over the three hexes astern;
cards print weapons as `dice@max-hexes`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from ..core.geometry import PT_PER_CM, PT_PER_IN
from ..core.model import GUNNERY_KINDS, Unit
from ..core.wording import Measure, quantity
from .aid import Table
from .base import (
    AdaptedAttack,
    AdaptedUnit,
    Band,
    BoardSheet,
    Marker,
    Parameter,
    Value,
    Variant,
    crippled_dice,
    extended_bands,
    round_half_up,
)
from .board import HexBoard
from .dice import HEX as DICE

SEED = "War at Sea rules adapted for a hexagon grid, by Paul Wisken"
SURFACE_DECK_GUN = (1, 4)  # dice, up to hexes: "normally 1 die @ range 4"
HEXES_PER_SECTOR = 3  # the seed turns each map zone into 3 hexes side to side
CARD_LABELS = {
    "main": "Main Guns",
    "secondary": "2nd Guns",
    "tertiary": "3rd Guns",
    "anti_air": "AA Guns",
    "asw": "Depth Charge",
    "torpedo": "Torpedoes",
    "bomb": "Bombs",
    "aircraft_gunnery": "Guns",
}


# Abilities whose words the hex grid settles otherwise. Shallow Draft is the project's reading (a
# ship that enters a hex next to land runs aground, so "island and shoal sectors" are the hexes
# next to land). Harass from a Distance lets an aircraft's torpedoes reach one range further,
# but the rules fix aircraft torpedoes at 1 hex directly ahead whatever the card says: the
# card follows the rules' own figure, as its attack table does.
AMENDED_ABILITIES = {
    "Shallow Draft": "may enter hexes next to islands and shoals without running aground",
    "Harass from a Distance": (
        "no extra reach on the hex grid: aircraft torpedoes attack 1 hex straight ahead, with 2 dice a flight"
    ),
    # the card's "1 less speed" read as the seed reads a crippled ship's speed -1: one hex
    "Slow {n}": "at the start of your sea movement roll a die: on {n} or lower, it moves 1 hex less this turn",
}


AIRCRAFT_TORPEDO_DICE = 2  # "with 2 dice per flight", whatever the card's torpedo dice


def depth_charge_split(total: int) -> dict[str, Any]:
    """Depth charge dice over the hexes to port, astern and to starboard: at most a third of
    the total each (rounded up). The player chooses the split; this one is an example, the
    sides first as the rules' own (5 dice: 2 to port, 2 to starboard, 1 astern)."""
    per_hex = math.ceil(total / 3)
    port = min(per_hex, total)
    starboard = min(per_hex, total - port)
    return {
        "total": total,
        "per_hex_max": per_hex,
        "port_astern_starboard": [port, total - port - starboard, starboard],
    }


def band_hexes(band: int) -> tuple[int, int]:
    """0 -> (1, 1); r -> (3r - 1, 3r + 1): 1 = 2-4, 2 = 5-7 ... 6 = 17-19."""
    return (1, 1) if band == 0 else (3 * band - 1, 3 * band + 1)


def speed_hexes(kmh: float) -> int:
    """Historical top speed in km/h / 10, rounded half up (67 km/h -> 7 hexes)."""
    return round_half_up(kmh / 10)


def notation(bands: list[tuple[int, int]]) -> str:
    """The seed's card notation: runs of equal dice shown once, at their longest reach.
    [(0, 6), (1, 5), (2, 5)] -> '6@1, 5@7'."""
    parts: list[str] = []
    for i, (band, dice) in enumerate(bands):
        last_of_run = i + 1 == len(bands) or bands[i + 1][1] != dice or bands[i + 1][0] != band + 1
        if last_of_run:
            parts.append(f"{dice}@{band_hexes(band)[1]}")
    return ", ".join(parts)


def footprint(unit: Unit, params: dict[str, Any]) -> tuple[int, str, list[str]]:
    override = params.get(f"footprint.{unit.id}")
    if override is not None:
        return int(override), f"per-unit override footprint.{unit.id}", []
    if unit.type in ("destroyer", "torpedo-boat", "submarine") or unit.is_aircraft:
        return 1, f"{SEED}: up to destroyer size, 1 hex", []
    if unit.type == "battleship":
        limit = params["large_battleship_m"]
        length = unit.history.length.value if unit.history.length else None
        if length is None:
            return (
                2,
                "battleship of unknown length: 2 hexes (documented fallback)",
                [f"{unit.id}: history.length missing: hex footprint falls back to 2"],
            )
        if length >= limit:
            return 3, f"{SEED}: large battleship ({length:g} m >= {limit:g} m), 3 hexes", []
        return 2, f"{SEED}: small battleship ({length:g} m < {limit:g} m), 2 hexes", []
    if unit.type == "auxiliary":
        length = unit.history.length.value if unit.history.length else None
        limit = params["one_hex_max_m"]
        if length is not None and length <= limit:
            return 1, f"auxiliary of {length:g} m <= {limit:g} m: destroyer-sized, 1 hex", []
        return 2, f"auxiliary {'of unknown length' if length is None else f'of {length:g} m'}: 2 hexes", []
    return 2, f"{SEED}: cruisers and carriers, 2 hexes", []


def movement(unit: Unit, params: dict[str, Any], crippled: bool) -> tuple[Value, list[str]]:
    speed = unit.history.top_speed
    kmh = unit.history.top_speed_kmh
    if speed is None or kmh is None:
        if unit.is_aircraft:
            assumed = params["unknown_aircraft_kmh"]
            return Value(
                speed_hexes(assumed),
                "hexes",
                f"fallback: no historical top speed; {assumed:g} km/h assumed (parameter unknown_aircraft_kmh)",
                "assumed speed",
            ), [f"{unit.id}: history.top_speed missing: aircraft speed in hexes from an assumed {assumed:g} km/h"]
        hexes = max(1, unit.ship_speed * HEXES_PER_SECTOR - (1 if crippled else 0))
        return Value(
            hexes,
            "hexes",
            f"fallback: {HEXES_PER_SECTOR} hexes for each point of card speed {unit.speed} (no historical top speed)",
            "from card speed",
        ), [f"{unit.id}: history.top_speed missing: hex speed falls back to card speed x {HEXES_PER_SECTOR}"]
    hexes = speed_hexes(kmh)
    text = f"{speed.value:g} {speed.unit} is {kmh:.1f} km/h: a hex for each 10 km/h, rounded half up ({SEED})"
    if crippled and not unit.is_aircraft:
        return Value(max(1, hexes - 1), "hexes", text + "; crippled: -1"), []
    return Value(hexes, "hexes", text), []


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    move, warnings = movement(unit, params, crippled)
    attacks, notations = [], {}
    rules: dict[str, Value] = {}
    for attack in unit.attacks:
        # crippled: one die fewer per attack; the seed's "minimum 1" covers armor, vital armor
        # and speed only, so a 1-die attack of a crippled ship is lost
        dice_by_band = [(r, crippled_dice(d, crippled)) for r, d in enumerate(attack.bands) if d]
        dice_by_band += [(r, crippled_dice(d, crippled)) for r, d, _c in extended_bands(unit, attack, crippled)]
        dice_by_band = [(r, d) for r, d in dice_by_band if d]
        if not dice_by_band:
            continue
        notes: tuple[str, ...] = ()
        if attack.kind == "torpedo" and unit.is_aircraft:
            # "torpedo attacks against enemy ships 1 hex directly ahead with 2 dice per flight"
            dice_by_band = [(0, AIRCRAFT_TORPEDO_DICE)]
            notes = (f"{SEED}: aircraft torpedo 1 hex straight ahead with {AIRCRAFT_TORPEDO_DICE} dice a flight",)
        conditions = {r: c for r, _d, c in extended_bands(unit, attack, crippled)}
        bands = tuple(Band(r, d, *band_hexes(r), "hexes", conditions.get(r)) for r, d in dice_by_band)
        attacks.append(AdaptedAttack(attack.kind, bands, notes))
        notations[CARD_LABELS[attack.kind]] = notation(dice_by_band)
        if attack.kind in GUNNERY_KINDS:
            rules[f"{attack.kind}_arcs"] = Value(
                {
                    "fore": [math.ceil(d / 2) for _r, d in dice_by_band],
                    "aft": [d // 2 for _r, d in dice_by_band],
                    "broadside": [d for _r, d in dice_by_band],
                },
                "dice by band",
                f"{SEED}: half rounded up ahead, half rounded down astern, full on the beam",
            )
        if attack.kind == "asw" and not unit.is_aircraft:
            total = dice_by_band[0][1]
            rules["depth_charge_hexes"] = Value(
                depth_charge_split(total),
                "dice",
                (
                    f"{SEED}: the player shares the dice among the three hexes astern, up to a third each "
                    "(rounded up), the total unchanged; the split shown is the rules' example (5 dice: 2 each "
                    "side, 1 astern)"
                ),
            )
    rules["card_notation"] = Value(
        notations, None, f"{SEED}: dice@max-hexes, a run of equal dice shown at its longest reach"
    )
    size, why, more = footprint(unit, params)
    warnings += more
    rules["footprint"] = Value(size, "hexes", why)
    if unit.is_aircraft and move.value is not None:
        low = max(1, math.ceil(move.value * params["aircraft_min_fraction"]))
        rules["aircraft_min_move"] = Value(
            low,
            "hexes",
            (
                f"the hex rules give aircraft a minimum speed without a number: {params['aircraft_min_fraction']:g} "
                "of the maximum, rounded up (parameter aircraft_min_fraction)"
            ),
        )
    if unit.type == "submarine":
        rules["surface_deck_gun"] = Value(
            {"dice": SURFACE_DECK_GUN[0], "hexes": SURFACE_DECK_GUN[1]},
            "dice",
            f"{SEED}: on the surface, one deck gun, normally 1 die @ 4",
        )
        rules["submerged_move"] = Value(
            params["submerged_hexes"],
            "hexes",
            (
                "the hex rules give no submerged speed; the surface speed (the historical top speed) is the higher; "
                f"submerged {params['submerged_hexes']} (parameter submerged_hexes)"
            ),
        )
    for pattern, summary in AMENDED_ABILITIES.items():
        ability = unit.ability(pattern)
        if ability:
            words = summary.replace("{n}", str(ability.n)) if ability.n is not None else summary
            rules[f"amended: {ability.text}"] = Value(words, None, "the project's reading on the hex grid")
    if crippled and not unit.is_aircraft:
        rules["armor"] = Value(max(1, unit.armor - 1), None, f"{SEED}: crippled, armor -1 (minimum 1)")
        rules["vital_armor"] = Value(
            max(1, unit.vital_armor - 1), None, f"{SEED}: crippled, vital armor -1 (minimum 1)"
        )
    return AdaptedUnit(unit, "hex", dict(params), move, tuple(attacks), rules, crippled, tuple(warnings))


VARIANT = Variant(
    dice=DICE,
    name="hex",
    title="Hex grid",
    seed=SEED,
    parameters=(
        Parameter("hex_cm", 6.0, "hex size flat to flat in centimeters", minimum=1.0, maximum=30.0),
        Parameter(
            "large_battleship_m",
            225.0,
            (
                "length in meters from which a battleship covers 3 hexes (Prince of Wales, 227 m, and Bismarck, 251 m, "
                "are the large ships of the hex rules)"
            ),
            minimum=50.0,
            maximum=400.0,
        ),
        Parameter(
            "one_hex_max_m",
            130.0,
            "an auxiliary up to this length in meters is destroyer-sized (1 hex)",
            minimum=10.0,
            maximum=400.0,
        ),
        Parameter(
            "submerged_hexes",
            1,
            (
                "hexes a submerged submarine moves a turn (the hex rules give surface speed only; their submerged turn "
                "rule moves 1 hex)"
            ),
            minimum=0,
            maximum=10,
        ),
        Parameter(
            "unknown_aircraft_kmh",
            400.0,
            "speed assumed for an aircraft with no historical top speed (its card says the speed is assumed)",
            minimum=100.0,
            maximum=1000.0,
        ),
        Parameter(
            "aircraft_min_fraction",
            0.5,
            "aircraft minimum move as a fraction of the maximum (the hex rules name a minimum but give no number)",
            minimum=0.0,
            maximum=1.0,
        ),
    ),
    adapt_fn=adapt,
    distance_unit="hexes",
    description=(
        "6 cm hexes; a ship moves a hex for each 10 km/h of its top speed; range 0 is 1 hex, range 1 is 2-4 hexes, "
        "range 2 is 5-7 hexes, and so on."
    ),
    per_unit=("footprint.*",),
    per_unit_range=(1, 3),  # the seed's footprints: 1 to 3 hexes
)


def rulers(params: dict[str, Any]) -> list:
    """A hex-count ruler: one tick per hex, ranges 0-6 marked as the cards mark them (* Extended Range,
    \u2020 Long Shot)."""
    from ..core.geometry import Ruler, Zone

    zones = tuple(
        Zone(
            f"Range {b}" + ("*" if b in (4, 5) else "\u2020" if b == 6 else ""),
            band_hexes(b)[0] - 1 if b else 0,
            band_hexes(b)[1],
        )
        for b in range(7)
    )
    return [
        Ruler(
            f"Range in {params['hex_cm']:g} cm hexes; * Extended Range, \u2020 Long Shot",
            "hex",
            params["hex_cm"] * PT_PER_CM,
            19,
            1,
            1,
            zones,
        )
    ]


def measure(params: dict[str, Any], unit: Unit | None = None) -> Measure:
    """The base game's words on the hex grid: one map zone is 3 hexes across (a sector of
    movement), range 0 is 1 hex (so the same sector or local is within 1 hex, and two friendly
    ships side by side are within 1 hex), adjacent is range 1 (within 4 hexes), and a range is
    the seed's band table (0 = 1 hex, 1 = 2-4, 2 = 5-7 ...)."""
    return Measure("hexes", 1, 1, band_hexes(1)[1], HEXES_PER_SECTOR, True, lambda band, _weapon: band_hexes(band))


def board(params: dict[str, Any]) -> HexBoard:
    return HexBoard(unit_pt=params["hex_cm"] * PT_PER_CM)


BOARD_TABLE_IN = (96.0, 48.0)  # the hex board covers the large-map board's table: 24 x 12 sectors of 4 in


def sheet(params: dict[str, Any]) -> BoardSheet:
    """Whole hexes over a 96 x 48 in table."""
    hexes = board(params)
    columns, rows = hexes.fitting(BOARD_TABLE_IN[0] * PT_PER_IN, BOARD_TABLE_IN[1] * PT_PER_IN)
    return BoardSheet("map-hex", f"Hex board, {params['hex_cm']:g} cm hexes", hexes, columns, rows)


def claim(params: dict[str, Any]) -> str:
    return "in the objective's area, 3 hexes across, with no enemy ship there"


def range_words(params: dict[str, Any]) -> str:
    return "range 0 is 1 hex, range 1 is 2-4 hexes, and each further range reaches 3 hexes more"


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/hex.yaml``)."""
    bands = Table(("band", "hexes"), tuple((b, "-".join(map(str, sorted(set(band_hexes(b)))))) for b in range(7)))
    speeds = Table(
        ("top speed", "km/h", "hexes"),
        tuple(
            (f"{kn} kn", f"{kn * 1.852:.1f}", speed_hexes(kn * 1.852)) for kn in (16, 21, 24, 28, 30, 33, 36, 38, 40)
        ),
    )
    mines = Table(
        ("roll", "result"),
        (
            ("1", "ship destroyed"),
            ("2-3", "2 points of hull damage"),
            ("4-5", "1 point of hull damage"),
            ("6", "no damage"),
        ),
    )
    dice, reach = SURFACE_DECK_GUN
    return {
        "bands": bands,
        "speeds": speeds,
        "mines": mines,
        "hex_cm": f"{params['hex_cm']:g}",
        "submerged_move": quantity(params["submerged_hexes"], "hex"),
        "deck_gun": f"{quantity(dice, 'die')} up to {quantity(reach, 'hex')}",
        "heavy_aa_reach": "-".join(map(str, band_hexes(1))),
        "heavy_aa_2_reach": band_hexes(2)[1],
    }


# Each flight takes off with one face-down counter showing its load (the rules name the three);
# ten of each fit beside the common counters on one sheet of either paper.
LOADS = tuple(Marker(word, "face down", "LOAD", 10) for word in ("DEPTH\nCHARGE", "BOMB", "TORPEDO"))

VARIANT = replace(
    VARIANT,
    aid="hex",
    markers=LOADS,
    aid_fn=aid_parts,
    range_fn=range_words,
    label="Hex grid",
    motif="hexes",
    board_fn=board,
    sheet_fn=sheet,
    rulers_fn=rulers,
    measure_fn=measure,
    claim_fn=claim,
)
