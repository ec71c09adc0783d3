"""Player aids as data: per variant, the sections and tables a player looks up.

Pure: every table is computed from the variant modules' own constants and the unit data,
so an aid never disagrees with the cards. Prose is the project's own, each section
naming the seed it comes from. ``render/aid.py`` lays these out with WeasyPrint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import Repository
from .variants import VARIANTS, hex as hexv, large_map, off_grid, tabletop_cm, tabletop_inches
from .variants.fleet import victory_rules


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    source: str
    lines: tuple[str, ...] = ()
    tables: tuple[Table, ...] = field(default=())


BASE = "base game"


def turns(n: int) -> str:
    return "1 full turn" if n == 1 else f"{n} full turns"


def dice(torpedoes: str = "Torpedoes hit only on 6 and do hull damage directly, ignoring armour.") -> Section:
    return Section(
        "Dice and damage", "base game, as restated by seeds 002 and 004",
        ("Roll the dice the card gives for the range. Each 4 or 5 is one success, each 6 two.",
         "Successes at least equal to the target's armour: 1 point of hull damage. At least its vital armour: the target is destroyed.",
         torpedoes,
         "A unit with 1 hull point left is crippled; damage equal to its hull points sinks it."),
    )


DICE = dice()


def _sequence(extra_air: bool = False, winner_moves_second: bool = False, moving_air: bool = False) -> Section:
    initiative = ("the winner moves second, after seeing the loser's moves" if winner_moves_second else "the higher roller chooses who moves first")
    if extra_air:
        air = "Air missions: players take turns flying aircraft up to their sectors a phase."
    elif moving_air:
        air = "Air missions: aircraft move to their targets; re-arming counters go on or come off at the start of this phase."
    else:
        air = "Air missions: aircraft are placed with their targets."
    steps = [
        f"Initiative: both roll two dice and add the best flagship bonus; {initiative}.",
        "Sea movement: first player, then second player.",
        air,
        "Air defence: anti-air fire at aircraft, first player then second.",
        "Air attack: bombs, torpedoes and strafing.",
        "Surface attack: gunnery and surface torpedoes.",
        "Submarine attack: submarine torpedoes.",
    ]
    if not moving_air:
        steps.append("Air return: aircraft go home" + (", flying sectors like the outward leg" if extra_air else "") + ".")
    steps.append("End of turn: count objectives and victory points.")
    source = ("base game" + ("; seed 000 adds flying in the air mission and return phases" if extra_air else "")
              + ("; seed 004 moves aircraft and drops the air return phase" if moving_air else "")
              + ("; seed 002 changes initiative: the winner moves second" if winner_moves_second else ""))
    return Section("Sequence of play", source, tuple(f"{i}. {s}" for i, s in enumerate(steps, 1)))


def _victory(name: str) -> Section:
    rules = victory_rules(name)
    return Section("Objectives and victory", rules.source, (f"Objective: {rules.objective_points} points. Victory at {rules.win_points} points (or the scenario's conditions).", f"Claim: {rules.claim}."))


def standard(repo: Repository, params: dict) -> list[Section]:
    bands = Table(("band", "reach"), tuple((b, "same sector" if b == 0 else "1 sector" if b == 1 else f"{b} sectors") for b in range(4)))
    return [_sequence(), Section("Range bands", BASE, ("Count sectors from the attacker to the target.",), (bands,)), DICE, _victory("standard")]


def large_map_aid(repo: Repository, params: dict) -> list[Section]:
    chart = {row.unit_id: row for row in large_map.AIR_RANGE_CHART}
    rows = []
    for unit in sorted((u for u in repo.units.values() if u.is_aircraft), key=lambda u: (u.nation, u.name)):
        adapted = VARIANTS["large-map"].adapt(unit, params)
        how = "chart" if unit.id in chart and params["use_air_range_chart"] else ("formula" if adapted.movement.value is not None else "-")
        mph = unit.history.top_speed_mph
        rows.append((unit.name, repo.nations[unit.nation].name if unit.nation in repo.nations else unit.nation, "-" if adapted.movement.value is None else adapted.movement.value, how, f"{mph:.0f}" if mph else "-"))
    air = Table(("aircraft", "nation", "sectors a phase", "from", "mph"), tuple(rows), "chart = the seed's Air Range Chart; formula = floor(mph / 12 x 1760 / 5000)")
    blocks = Table(("position", "armour", "hit points", "anti-air", "other"), (
        ("Air base", large_map.AIR_BASE["armor"], large_map.AIR_BASE["hull"], large_map.AIR_BASE["anti_air"], f"{large_map.AIR_BASE['capacity']} squadrons"),
        ("Heavy shore battery", large_map.HEAVY_BATTERY["armor"], large_map.HEAVY_BATTERY["hull"], large_map.HEAVY_BATTERY["anti_air"], "gunnery " + "/".join(map(str, large_map.HEAVY_BATTERY["gunnery"]))),
        ("Light shore battery", large_map.LIGHT_BATTERY["armor"], large_map.LIGHT_BATTERY["hull"], large_map.LIGHT_BATTERY["anti_air"], "gunnery " + "/".join(map(str, large_map.LIGHT_BATTERY["gunnery"]))),
        ("Garrison", large_map.GARRISON["armor"], large_map.GARRISON["hull"], large_map.GARRISON["anti_air"], "1-3 units"),
    ))
    return [
        _sequence(extra_air=True),
        Section("The board", large_map.SEED, (f"{params['columns']} x {params['rows']} sectors of {params['sector_in']:g} in. Ships move their card speed in sectors; ranges count sectors as in the base game.",)),
        Section("Air Range Chart", large_map.SEED, ("Every aircraft in the data. Aircraft move up to this many sectors in each air mission and air return phase, and may stay aloft between turns.",), (air,)),
        Section("Flying, launching and re-arming", large_map.SEED, (
            "Passing through a sector with enemy anti-air lets that unit fire at once; a unit fires its anti-air once a turn.",
            "In the phase it takes off a squadron moves at most 1 sector.",
            "A carrier or air base launches plus lands at most its capacity in squadrons each air phase.",
            f"After landing a squadron re-arms for {turns(params['rearm_turns'])}; landing on a carrier it is not assigned to adds a marker.",
            "Aircraft must land to re-arm only after they attack. An aborted squadron falls back 1 sector and waits a phase.",
            "Carrier vulnerability: vital armour -1 for each squadron aboard. A sunk carrier takes its squadrons with it.",
        )),
        Section("Air bases, shore batteries, garrisons", large_map.SEED + ", typical values", (
            "An air base at half its hit points or worse cannot launch or land; it repairs 1 point a turn when unused and not attacked.",
            "A shore battery is an immobile ship; each point of damage costs it a die the next turn.",
            "Invaders need 2 to 1 odds in landed transports (1 unit each) against a garrison.",
        ), (blocks,)),
        DICE, _victory("large-map"),
    ]


def tabletop_cm_aid(repo: Repository, params: dict) -> list[Section]:
    bands = Table(("band",) + tuple(f"{s} scale" for s in tabletop_cm.SECTOR_CM), tuple(
        (b,) + tuple(f"{tabletop_cm.reach_cm(b, cm)[1]:g} cm" for cm in tabletop_cm.SECTOR_CM.values()) for b in range(7)), "bands 4-6 need Extended Range or Long Shot")
    move = Table(("speed",) + tuple(f"{s} scale" for s in tabletop_cm.SECTOR_CM), tuple((sp,) + tuple(f"{sp * cm:g} cm" for cm in tabletop_cm.SECTOR_CM.values()) for sp in (1, 2, 3)))
    detect = Table(("searcher", "roll to find a hidden submarine"), (
        ("aircraft other than patrol bombers", "6"), ("ships without ASW", "5+"), ("patrol bombers, ships with ASW", "4+"), ("ships with ASW and Sub Hunter", "3+")))
    return [
        _sequence(),
        Section("Sectors in centimetres", tabletop_cm.SEED, ("A sector is 10 cm on the 6 ft scale and 15 cm on the 8 ft scale; band r reaches (r + 1) sectors. Measure ranges between conning towers, movement from the bow.",), (move, bands)),
        Section("Hidden submarines", tabletop_cm.SEED, ("A hidden submarine stays put and saves a move each turn; when found or attacking it moves its speed plus the saved moves.", "Any unit that comes within its range-0 reach may search:"), (detect,)),
        Section("Re-arming and torpedoes", tabletop_cm.SEED, (
            "Ships take 2 re-arm counters after firing torpedoes and remove 1 a turn; submarines and torpedo boats take none.",
            "Carrier aircraft take a re-arming counter on landing, land-based aircraft two.",
            "Submarine torpedoes fire only within 45 degrees of dead ahead; shallow-draft vessels cannot be torpedoed."),),
        Section("Fleet limits", tabletop_cm.SEED, (
            "A fleet with more than a third of its points in US units is capped at 90% of the points limit (90 of 100, 180 of 200).",
            "Submarines may take at most 25% of the points limit.",
            "Ships keep at least 2 cm apart; turns over 45 degrees need a ship's length of straight movement before and after.")),
        DICE, _victory("tabletop-cm"),
    ]


def hex_aid(repo: Repository, params: dict) -> list[Section]:
    bands = Table(("band", "hexes"), tuple((b, "-".join(map(str, sorted(set(hexv.band_hexes(b)))))) for b in range(7)))
    speeds = Table(("top speed", "km/h", "hexes"), tuple((f"{kn} kn", f"{kn * 1.852:.1f}", hexv.speed_hexes(kn * 1.852)) for kn in (16, 21, 24, 28, 30, 33, 36, 38, 40)))
    mines = Table(("roll", "result"), (("1", "ship destroyed"), ("2-3", "2 points of hull damage"), ("4-5", "1 point of hull damage"), ("6", "no damage")))
    return [
        _sequence(winner_moves_second=True),
        Section("Movement", hexv.SEED, (
            f"A ship moves up to its historical top speed in km/h / 10 hexes, rounded half up; hexes are {params['hex_cm']:g} cm flat to flat.",
            "Each 60-degree turn costs 1 hex of movement and needs the ship's own length of straight movement first; long ships pivot on the stern.",
            "A ship that moved more than 1 hex last turn must move at least 1 hex forward; a stopped ship may go 1 hex astern.",
            "Only one base may occupy a hex: destroyers and smaller 1 hex, cruisers, carriers and small battleships 2, large battleships 3."), (speeds,)),
        Section("Range bands", hexv.SEED, ("Cards print each weapon as dice@max-hexes: 6@1, 5@7 means 6 dice up to 1 hex, 5 dice up to 7.",), (bands,)),
        Section("Arcs and depth charges", hexv.SEED, (
            "Main, secondary and tertiary guns roll half their dice (rounded up) ahead, half (rounded down) astern, and all on the beam.",
            "Guns, torpedoes and depth charges are exclusive: one kind of attack a turn.",
            "Depth charges go into the three hexes astern, up to a third of the dice (rounded up) in each.")),
        Section("Collisions, mines and sinking ships", hexv.SEED, (
            "Entering a hex with another ship is a collision: each rolls a die and takes half (rounded down) as hull damage.",
            "A destroyed ship becomes a sinking marker for 1d6 turns and blocks movement like a ship.",
            "Entering a mined hex:"), (mines,)),
        Section("Crippled and submerged", hexv.SEED, (
            "Crippled: armour, vital armour and speed -1 (minimum 1) and one die fewer per attack.",
            "A submerging submarine leaves 1d6 / 2 dummy tokens; only depth charges reach a submerged submarine.")),
        DICE, _victory("hex"),
    ]


def off_grid_aid(repo: Repository, params: dict) -> list[Section]:
    leg, text = off_grid.leg_inches(params)
    ranges = Table(("range", "legs", "inches"), tuple((b, "-".join(map(str, sorted(set(off_grid.band_legs(b))))) if b else "1", f"{off_grid.band_legs(b)[1] * leg:g}") for b in range(7)))
    moves = Table(("speed", "legs", "inches"), tuple((sp, 2 * sp, f"{2 * sp * leg:g}") for sp in (1, 2, 3)))
    amended = Table(("ability", "under these rules"), tuple((name.replace("{n}", "N"), summary) for name, summary in off_grid.AMENDED_ABILITIES.items()))
    return [
        _sequence(),
        Section("Legs", off_grid.SEED, (f"Measure with a compass set to one leg ({text}); step it from the bow.",), (moves, ranges)),
        Section("Anti-air and stacking", off_grid.SEED, (
            "Anti-air reaches 1 leg at full effect and 2 legs at -1 per die.",
            "Ships end more than 1 leg from friendly ships, submarines from submarines, fighters from fighters.",
            "Ships with ASW threaten submarines within 2 legs; objectives are claimed within 1 leg; smoke covers a 1-leg circle.")),
        Section("Amended abilities", off_grid.SEED, (), (amended,)),
        DICE, _victory("off-grid"),
    ]


def tabletop_inches_aid(repo: Repository, params: dict) -> list[Section]:
    t = tabletop_inches
    table = Table(("weapon", "0", "1", "2", "3", "4", "5"), (
        ("main battery, cruisers and battleships",) + tuple(f'{d}"' for d in t.HEAVY_MAIN_IN),
        ("other main batteries, secondary, tertiary",) + tuple(f'{d}"' for d in t.LIGHT_GUN_IN) + ("", ""),
        ("torpedoes (3 = Long Lance only)",) + tuple(f'{d}"' for d in t.TORPEDO_IN) + ("", ""),
        ("ship anti-air",) + tuple(f'{d}"' for d in t.ANTI_AIR_IN) + ("", "", "", ""),
        ("depth charges (aft)", f'{t.DEPTH_CHARGE_IN}"', "", "", "", "", ""),
        ("hedgehog (fore)", f'{t.HEDGEHOG_IN}"', "", "", "", "", ""),
        ("aircraft attacks", f'{t.AIRCRAFT_ATTACK_IN}"', "", "", "", "", ""),
    ), "bands 4 and 5 of heavy main batteries need Extended Range")
    return [
        _sequence(moving_air=True),
        Section("Range tables", t.SEED, (f"A sector is {params['sector_in']:g} in (1 in = 1,000 yards).",), (table,)),
        Section("Luck dice (optional)", t.SEED, (
            "Swap one attack die for a luck die of another colour.",
            "On a 1 remove your highest attack die; on a 6 count two successes and roll it again, and again on each further 6.")),
        Section("Torpedoes and damage", t.SEED, (
            "Torpedo dice: 5 is 1 point of hull damage, 6 is 2.",
            "Damage lands at the end of each phase. Crippled ships: armour, vital armour -1, speed -1 in, -1 on each attack die, a torpedo die fewer.",
            "Hedgehogs: units built after 1943 or with Sub Hunter.")),
        Section("Victory points", t.SEED, ("Each enemy unit destroyed scores its points; each objective held scores 50; 150 points wins.",)),
        dice("Torpedoes ignore armour: see Torpedoes and damage above (5 is 1 point, 6 is 2)."), _victory("tabletop-inches"),
    ]


AIDS = {
    "standard": standard, "large-map": large_map_aid, "tabletop-cm": tabletop_cm_aid,
    "hex": hex_aid, "off-grid": off_grid_aid, "tabletop-inches": tabletop_inches_aid,
}


def aid(name: str, repo: Repository, params: dict | None = None) -> list[Section]:
    variant = VARIANTS[name]
    return AIDS[name](repo, params if params is not None else variant.defaults())
