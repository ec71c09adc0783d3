"""Player aids as data: per variant, the sections and tables a player looks up.

Pure: every table is computed from the variant modules' own constants and the unit data,
so an aid never disagrees with the cards. Prose is the project's own; each section keeps
the rule document it comes from (by its title), and the aid names those documents once,
in its colophon. ``render/aid.py`` lays these out with WeasyPrint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.model import Repository
from ..variants import SHIPPED, VARIANTS, Variant, large_map, off_grid, tabletop_cm, tabletop_inches
from ..variants import hex as hexv
from ..variants.fleet import victory_rules
from ..variants.house import changed_words


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    source: str  # the rule document, by its title (named once, in the aid's colophon)
    lines: tuple[str, ...] = ()
    tables: tuple[Table, ...] = field(default=())


BASE = "the base game's rules"


def turns(n: int) -> str:
    return "1 full turn" if n == 1 else f"{n} full turns"


def dice(torpedoes: str = "Torpedoes hit only on 6 and do hull damage directly, ignoring armor.") -> Section:
    return Section(
        "Dice and damage",
        BASE,
        (
            "Roll the dice the card gives for the range. Each 4 or 5 is one success, each 6 two.",
            (
                "Successes at least equal to the target's armor: 1 point of hull damage. At least its vital armor: "
                "the target is destroyed."
            ),
            torpedoes,
            "A unit with 1 hull point left is crippled; damage equal to its hull points sinks it.",
        ),
    )


DICE = dice()


def _sequence(
    extra_air: bool = False,
    winner_moves_second: bool = False,
    moving_air: bool = False,
    air_text: str | None = None,
    document: str | None = None,
) -> Section:
    initiative = (
        "the winner moves second, after seeing the loser's moves"
        if winner_moves_second
        else "the higher roller chooses who moves first"
    )
    if extra_air:
        air = "Air missions: players take turns flying aircraft up to their sectors a phase."
    elif moving_air:
        air = (
            "Air missions: aircraft move to their targets; re-arm counters go on or come off at the start of "
            "this phase."
        )
    else:
        air = "Air missions: aircraft are placed with their targets."
    air = air_text or air
    steps = [
        f"Initiative: both roll two dice and add the best flagship bonus; {initiative}.",
        "Sea movement: first player, then second player.",
        air,
        "Air defense: antiair fire at aircraft, first player then second.",
        "Air attack: bombs, torpedoes and strafing.",
        "Surface attack: gunnery and surface torpedoes.",
        "Submarine attack: submarine torpedoes.",
    ]
    if not moving_air:
        steps.append(
            "Air return: aircraft go home" + (", flying sectors like the outward leg" if extra_air else "") + "."
        )
    steps.append("End of turn: count objectives and victory points.")
    source = document if document is not None else BASE
    return Section("Sequence of play", source, tuple(f"{i}. {s}" for i, s in enumerate(steps, 1)))


def _victory(name: str, params: dict | None = None) -> Section:
    rules = victory_rules(SHIPPED[name], params)
    return Section(
        "Objectives and victory",
        rules.source,
        (
            (
                f"Objective: {rules.objective_points} points. Victory at {rules.win_points} points (or the "
                "scenario's conditions)."
            ),
            f"Claim: {rules.claim}.",
        ),
    )


def standard(repo: Repository, params: dict) -> list[Section]:
    bands = Table(
        ("band", "reach"),
        tuple((b, "same sector" if b == 0 else "1 sector" if b == 1 else f"{b} sectors") for b in range(4)),
    )
    return [
        _sequence(),
        Section("Range bands", BASE, ("Count sectors from the attacker to the target.",), (bands,)),
        DICE,
        _victory("standard"),
    ]


def _air_chart(repo: Repository, params: dict) -> Table:
    """Every aircraft with its sectors a phase: the Air Range Chart's, or worked out from its top speed (*)."""
    chart = {row.unit_id: row for row in large_map.AIR_RANGE_CHART}
    rows = []
    for unit in sorted((u for u in repo.units.values() if u.is_aircraft), key=lambda u: (u.nation, u.name)):
        adapted = VARIANTS["large-map"].adapt(unit, params)
        worked_out = not (unit.id in chart and params["use_air_range_chart"]) and adapted.movement.value is not None
        mph = unit.history.top_speed_mph
        rows.append(
            (
                unit.name,
                repo.nations[unit.nation].name if unit.nation in repo.nations else unit.nation,
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


def _position_blocks() -> Table:
    """The stat blocks of air bases, shore batteries and garrisons."""
    return Table(
        ("position", "armor", "hit points", "antiair", "other"),
        (
            (
                "Air base",
                large_map.AIR_BASE["armor"],
                large_map.AIR_BASE["hull"],
                large_map.AIR_BASE["anti_air"],
                f"{large_map.AIR_BASE['capacity']} squadrons",
            ),
            (
                "Heavy shore battery",
                large_map.HEAVY_BATTERY["armor"],
                large_map.HEAVY_BATTERY["hull"],
                large_map.HEAVY_BATTERY["anti_air"],
                "gunnery " + "/".join(map(str, large_map.HEAVY_BATTERY["gunnery"])),
            ),
            (
                "Light shore battery",
                large_map.LIGHT_BATTERY["armor"],
                large_map.LIGHT_BATTERY["hull"],
                large_map.LIGHT_BATTERY["anti_air"],
                "gunnery " + "/".join(map(str, large_map.LIGHT_BATTERY["gunnery"])),
            ),
            (
                "Garrison",
                large_map.GARRISON["armor"],
                large_map.GARRISON["hull"],
                large_map.GARRISON["anti_air"],
                "1-3 units",
            ),
        ),
    )


def large_map_aid(repo: Repository, params: dict) -> list[Section]:
    air, blocks = _air_chart(repo, params), _position_blocks()
    return [
        _sequence(extra_air=True, document=large_map.SEED),
        Section(
            "The board",
            large_map.SEED,
            (
                (
                    f"{params['columns']} x {params['rows']} sectors of {params['sector_in']:g} in. Ships move "
                    "their card speed in sectors; ranges count sectors as in the base game."
                ),
            ),
        ),
        Section(
            "Air Range Chart",
            large_map.SEED,
            (
                (
                    "Every aircraft in the data. Aircraft move up to this many sectors in each air mission and air "
                    "return phase, and may stay aloft between turns."
                ),
            ),
            (air,),
        ),
        Section(
            "Flying, launching and re-arming",
            large_map.SEED,
            (
                (
                    "Passing through a sector with enemy antiair lets that unit fire at once; a unit fires its "
                    "antiair once a turn."
                ),
                "In the phase it takes off a squadron moves at most 1 sector.",
                "A carrier or air base launches plus lands at most its capacity in squadrons each air phase.",
                (
                    f"After landing a squadron re-arms for {turns(params['rearm_turns'])}; landing on a carrier it "
                    "is not assigned to adds a marker."
                ),
                (
                    "Aircraft must land to re-arm only after they attack. An aborted squadron falls back 1 sector "
                    "the way it came, keeping its load and staying aloft, and cannot move in the next air phase."
                ),
                (
                    "Carrier vulnerability: vital armor -1 for each squadron aboard. A sunk carrier takes its "
                    "squadrons with it."
                ),
            ),
        ),
        Section(
            "Air bases, shore batteries, garrisons",
            large_map.SEED,
            (
                (
                    "An air base at half its hit points or worse cannot launch or land; it repairs 1 point a turn "
                    "when unused and not attacked."
                ),
                (
                    "A shore battery is an immobile ship, firing only into the arc the scenario gives it; each point "
                    "of damage costs it a die the next turn, and damage equal to its hit points destroys it."
                ),
                (
                    "A garrison cannot attack ships. Invaders need 2 to 1 odds in landed transports (1 unit each); "
                    "ships and aircraft can wear a garrison down first, and once it is at 0 units one transport "
                    "that lands takes the island."
                ),
            ),
            (blocks,),
        ),
        DICE,
        _victory("large-map"),
    ]


def tabletop_cm_aid(repo: Repository, params: dict) -> list[Section]:
    bands = Table(
        ("band",) + tuple(f"{s.removesuffix('ft')} ft scale" for s in tabletop_cm.SECTOR_CM),
        tuple(
            (b,) + tuple(f"{tabletop_cm.reach_cm(b, cm)[1]:g} cm" for cm in tabletop_cm.SECTOR_CM.values())
            for b in range(7)
        ),
        "bands 4-6 need Extended Range or Long Shot",
    )
    move = Table(
        ("speed",) + tuple(f"{s.removesuffix('ft')} ft scale" for s in tabletop_cm.SECTOR_CM),
        tuple((sp,) + tuple(f"{sp * cm:g} cm" for cm in tabletop_cm.SECTOR_CM.values()) for sp in (1, 2, 3)),
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
    return [
        _sequence(),
        Section(
            "Distances in centimeters",
            tabletop_cm.SEED,
            (
                (
                    "Every distance is in centimeters at a table scale: the cards name theirs. A ship moves 10 cm "
                    "(15 cm on the 8 ft scale) for each point of speed; range 0 reaches 10 cm (15 cm) and each "
                    "further range reaches 10 cm (15 cm) more. Measure ranges between conning towers, movement "
                    "from the bow; a ship may move less than its full move. The 6 ft scale on an 8 ft table gives "
                    "50% more room to play in."
                ),
            ),
            (move, bands),
        ),
        Section(
            "Hidden submarines",
            tabletop_cm.SEED,
            (
                (
                    "A hidden submarine stays put and saves a move each turn; when found or attacking it moves its "
                    "speed plus the saved moves."
                ),
                _hidden_example(),
                "Any unit that comes within 10 cm of it (15 cm on the 8 ft scale) may search:",
            ),
            (detect,),
        ),
        Section(
            "Re-arming and torpedoes",
            tabletop_cm.SEED,
            (
                (
                    "Ships take 2 re-arm counters after firing torpedoes and remove 1 a turn; they cannot fire "
                    "torpedoes while any remain. Submarines and torpedo boats take none."
                ),
                "Carrier aircraft take a re-arm counter on landing, land-based aircraft two.",
                (
                    "Submarine torpedoes fire only within 45 degrees of dead ahead; shallow-draft vessels cannot "
                    "be torpedoed."
                ),
            ),
        ),
        Section(
            "Fleet limits",
            tabletop_cm.SEED,
            (
                (
                    "A fleet with more than a third of its points in US units is capped at 90% of the points limit "
                    "(90 of 100, 180 of 200)."
                ),
                "Submarines may take at most 25% of the points limit.",
                (
                    "Ships keep at least 2 cm apart; turns over 45 degrees need a ship's length of straight "
                    "movement before and after."
                ),
            ),
        ),
        DICE,
        _victory("tabletop-cm"),
    ]


def _hex_tables() -> tuple[Table, Table, Table]:
    """The hex aid's tables: range bands, speeds in hexes, and what a mine does."""
    bands = Table(("band", "hexes"), tuple((b, "-".join(map(str, sorted(set(hexv.band_hexes(b)))))) for b in range(7)))
    speeds = Table(
        ("top speed", "km/h", "hexes"),
        tuple(
            (f"{kn} kn", f"{kn * 1.852:.1f}", hexv.speed_hexes(kn * 1.852))
            for kn in (16, 21, 24, 28, 30, 33, 36, 38, 40)
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
    return bands, speeds, mines


def hex_aid(repo: Repository, params: dict) -> list[Section]:
    bands, speeds, mines = _hex_tables()
    return [
        _sequence(
            winner_moves_second=True,
            document=hexv.SEED,
            air_text=(
                "Air missions: each flight flies between its minimum and maximum hexes to attack the hex straight "
                "ahead."
            ),
        ),
        Section(
            "Movement",
            hexv.SEED,
            (
                (
                    "A ship moves up to a hex for each 10 km/h of its historical top speed, rounded half up (67 "
                    f"km/h is 7 hexes); hexes are {params['hex_cm']:g} cm flat to flat."
                ),
                (
                    "Each 60-degree turn costs 1 hex of movement and needs the ship's own length of straight "
                    "movement first; long ships pivot on the stern."
                ),
                (
                    "A ship that moved more than 1 hex last turn must move at least 1 hex forward; a stopped ship "
                    "may go 1 hex astern."
                ),
                (
                    "Only one base may occupy a hex: destroyers and smaller 1 hex, cruisers, carriers and small "
                    "battleships 2, large battleships 3."
                ),
            ),
            (speeds,),
        ),
        Section(
            "Range bands",
            hexv.SEED,
            ("Cards print each weapon as dice@max-hexes: 6@1, 5@7 means 6 dice up to 1 hex, 5 dice up to 7.",),
            (bands,),
        ),
        Section(
            "Arcs and depth charges",
            hexv.SEED,
            (
                (
                    "Forward guns fire into a 120 degree arc from the front face of the bow hex, rear guns into a "
                    "120 degree arc from the rear face of the stern hex; the broadside is anything within 60 "
                    "degrees of the middle of the side of the bow and stern hexes. Any part of the target in the "
                    "arc will do."
                ),
                (
                    "Main, secondary and tertiary guns roll half their dice (rounded up) ahead, half (rounded "
                    "down) astern, and all on the beam. Each battery fires on its own and may pick its own target; "
                    "forward and rear guns may fire at different targets."
                ),
                "Guns, torpedoes and depth charges are exclusive: one kind of attack a turn.",
                (
                    "Depth charges go into the three hexes astern, up to a third of the dice (rounded up) in each, "
                    "the sides first: 5 dice go 2 to port, 2 to starboard and 1 astern."
                ),
            ),
        ),
        Section(
            "Collisions, mines and sinking ships",
            hexv.SEED,
            (
                (
                    "Entering a hex with another ship is a collision, and may be meant (ramming a submarine): each "
                    "rolls a die and takes half (rounded down) as hull damage; a sinking ship does not roll."
                ),
                "A destroyed ship becomes a sinking marker for 1d6 turns and blocks movement like a ship.",
                "Entering a mined hex:",
            ),
            (mines,),
        ),
        Section(
            "Crippled and submerged",
            hexv.SEED,
            (
                (
                    "Crippled: armor, vital armor and speed -1 (minimum 1) and one die fewer per attack, so a "
                    "1-die attack is lost."
                ),
                "A submerging submarine leaves 1d6 / 2 dummy tokens; only depth charges reach a submerged submarine.",
            ),
        ),
        dice("Torpedoes hit only on a 6, and each 6 does 2 points of hull damage, ignoring armor."),
        _victory("hex"),
    ]


def off_grid_aid(repo: Repository, params: dict) -> list[Section]:
    leg, _text = off_grid.leg_inches(params)
    ranges = Table(
        ("range", "legs", "inches"),
        tuple(
            (
                b,
                "-".join(map(str, sorted(set(off_grid.band_legs(b))))) if b else "1",
                f"{off_grid.band_legs(b)[1] * leg:g}",
            )
            for b in range(7)
        ),
    )
    moves = Table(("speed", "legs", "inches"), tuple((sp, 2 * sp, f"{2 * sp * leg:g}") for sp in (1, 2, 3)))
    amended = Table(
        ("ability", "under these rules"),
        tuple((name.replace("{n}", "N"), summary) for name, summary in off_grid.AMENDED_ABILITIES.items()),
    )
    return [
        _sequence(),
        Section(
            "Legs",
            off_grid.SEED,
            (
                (
                    f"Measure with a compass set to one leg ({_leg_phrase(params, leg)}), stepping it from the bow of "
                    "ships and submarines and the front of an aircraft's base. A move ends with the bow at the far "
                    "point of the compass, or short of it; ranges run bow to bow. To match a grid of another size, a "
                    f"leg is the grid square x {off_grid.GRID_TO_LEG:g}."
                ),
            ),
            (moves, ranges),
        ),
        Section(
            "Antiair and stacking",
            off_grid.SEED,
            (
                "Antiair reaches 1 leg at full effect and 2 legs at -1 per die.",
                "Ships end more than 1 leg from friendly ships, submarines from submarines, fighters from fighters.",
                (
                    "Ships with ASW threaten submarines within 2 legs; objectives are claimed within 1 leg; smoke "
                    "is a circle of 1 leg radius with the ship that lays it inside and its bow on the edge."
                ),
            ),
        ),
        Section("Amended abilities", off_grid.SEED, (), (amended,)),
        DICE,
        _victory("off-grid"),
    ]


def tabletop_inches_aid(repo: Repository, params: dict) -> list[Section]:
    t = tabletop_inches
    table = Table(
        ("weapon", "0", "1", "2", "3", "4", "5"),
        (
            ("main battery, cruisers and battleships",) + tuple(f"{d} in" for d in t.HEAVY_MAIN_IN),
            ("other main batteries, secondary, tertiary",) + tuple(f"{d} in" for d in t.LIGHT_GUN_IN) + ("", ""),
            ("torpedoes (12 in: Long-Lance Torpedoes only)",) + tuple(f"{d} in" for d in t.TORPEDO_IN) + ("", ""),
            ("ship antiair",) + tuple(f"{d} in" for d in t.ANTI_AIR_IN) + ("", "", "", ""),
            ("depth charges (astern)", f"{t.DEPTH_CHARGE_IN} in", "", "", "", "", ""),
            ("hedgehog (ahead)", f"{t.HEDGEHOG_IN} in", "", "", "", "", ""),
            ("aircraft attacks", f"{t.AIRCRAFT_ATTACK_IN} in", "", "", "", "", ""),
        ),
        "35 and 40 in for a heavy main battery need Extended Range",
    )
    return [
        _sequence(moving_air=True, document=tabletop_inches.SEED),
        Section(
            "Range tables",
            t.SEED,
            (
                (
                    f"Distances are in inches (1 in = 1,000 yards); a ship moves {params['sector_in']:g} in for each "
                    "point of speed. Each weapon reaches as far as its row says:"
                ),
            ),
            (table,),
        ),
        Section(
            "Luck dice (optional)",
            t.SEED,
            (
                "Swap one attack die for a luck die of another color.",
                (
                    "On a 1 remove your highest attack die; on a 6 count two successes and roll it again, and "
                    "again on each further 6. A 1 rolled after a lucky 6 does not count against you."
                ),
            ),
        ),
        Section(
            "Torpedoes and damage",
            t.SEED,
            (
                "Torpedo dice: 5 is 1 point of hull damage, 6 is 2.",
                (
                    "Damage lands at the end of each phase. Crippled ships: armor, vital armor -1, speed -1 in, -1 "
                    "on each attack die, a torpedo die fewer."
                ),
                "Hedgehogs: units built after 1943 or with Sub Hunter.",
            ),
        ),
        Section(
            "Victory points",
            t.SEED,
            ("Each enemy unit destroyed scores its points; each objective held scores 50; 150 points wins.",),
        ),
        dice("Torpedoes ignore armor: see Torpedoes and damage above (5 is 1 point, 6 is 2)."),
        _victory("tabletop-inches", params),
    ]


AIDS = {
    "standard": standard,
    "large-map": large_map_aid,
    "tabletop-cm": tabletop_cm_aid,
    "hex": hex_aid,
    "off-grid": off_grid_aid,
    "tabletop-inches": tabletop_inches_aid,
}


def aid(
    name: str, repo: Repository, params: dict | None = None, moved: tuple[tuple[str, str], ...] = ()
) -> list[Section]:
    """The aid's sections; ``moved`` holds (ability, full text) of the abilities whose text
    did not fit on some card of the deck (the card says "see the player aid")."""
    variant = VARIANTS[name]
    params = params if params is not None else variant.defaults()
    measure = abilities_in_measure(name, params)
    family = variant.family  # a house variant prints its base's rules at its own values
    own = house_rules(variant)
    return own + AIDS[family](repo, params) + MORE_RULES[family](params) + measure + abilities_in_full(moved)


def house_rules(variant: Variant) -> list[Section]:
    """What a house variant is, in words: whose rules it follows and which settings it changes."""
    if not variant.base:
        return []
    base = SHIPPED[variant.base]
    changed = changed_words(variant, SHIPPED)
    lines = [
        f"{variant.title} is a house variant: it follows {base.title} ({base.seed}) in every rule, "
        + ("with these settings of its own:" if changed else "at the rules' own settings.")
    ]
    lines += [f"{line[0].upper()}{line[1:]}." for line in changed]
    if variant.description and variant.description != base.description:
        lines.append(variant.description)
    return [Section("This house variant", base.seed, tuple(lines))]


UNIT_WORDS = {"legs": "legs", "hexes": "hexes", "cm": "centimeters", "in": "inches"}


def abilities_in_measure(name: str, params: dict) -> list[Section]:
    """How the cards read the base game's sector words and ranges in this variant's measure:
    the same table the cards were written with (the variant's ``measure``)."""
    variant = VARIANTS[name]
    if variant.measure_fn is None:
        return []
    scale = next((p for p in variant.parameters if p.name == variant.scale_parameter), None)
    if scale is not None and scale.choices:
        scales = [
            (variant.measure(dict(params, **{scale.name: c})).scale, dict(params, **{scale.name: c}))
            for c in scale.choices
        ]
    else:
        scales = [("read", params)]
    tables = [variant.measure(p).table() for _label, p in scales]
    rows = tuple((said,) + tuple(t[i][1] for t in tables) for i, (said, _read) in enumerate(tables[0]))
    words = UNIT_WORDS[variant.measure(params).unit]
    lines = [
        (
            f"The cards give every ability in {words}. Where the base game's rules count the \u201csectors\u201d "
            "of its map, the cards read them as this table does:"
        ),
    ]
    after = [
        (
            "A range in an ability is an attack range, read off the range table; a move in an ability is "
            "movement, as far as a ship moves for that much speed."
        )
    ]
    if variant.measure(params).per_weapon:
        after.append("A range that belongs to a weapon (main guns, torpedoes, antiair) reads off that weapon's table.")
    return [
        Section(
            f"Abilities in {words}",
            variant.seed,
            tuple(lines),
            (Table(("the base game says",) + tuple(label for label, _p in scales), rows, " ".join(after)),),
        )
    ]


def colophon(sections: list[Section]) -> str:
    """The rule documents an aid summarizes, named once, by their titles."""
    return rules_colophon([s.source for s in sections])


def rules_colophon(documents: list[str]) -> str:
    """'Made by wastools from “War at Sea: Playing Off the Grid”, with the base game's rules ...'."""
    named = [d for d in dict.fromkeys(documents) if d and d != BASE]
    if not named:
        return "Made by wastools from the base game's rules. Every summary is in the project's own words."
    titles = " and ".join(f"\u201c{d}\u201d" for d in named)
    return (
        f"Made by wastools from {titles}, with the base game's rules where it says nothing. Every summary is in "
        "the project's own words."
    )


AID_ABILITIES_SECTION = "Abilities in full"  # where a card whose ability text did not fit sends players


def abilities_in_full(moved: tuple[tuple[str, str], ...]) -> list[Section]:
    if not moved:
        return []
    rows = tuple((ability, text) for ability, text in moved)
    return [
        Section(
            AID_ABILITIES_SECTION,
            "",  # the deck's own cards, no rule document
            ("A card too full to print these abilities in full says \u201csee the player aid\u201d for them.",),
            (Table(("ability", "what it does"), rows),),
        )
    ]


# --- rules the registers (rules/<variant>.yaml) print in the aid, beyond the tables above ----------


def _standard_more(params: dict) -> list[Section]:
    return [
        Section(
            "Aircraft",
            BASE,
            (
                (
                    "Aircraft are not moved: they are placed in their target's sector in the air mission phase and "
                    "go home in the air return phase."
                ),
                "Ranges and antiair count sectors; every attack is rolled and resolved on its own.",
            ),
        )
    ]


def _large_map_more(params: dict) -> list[Section]:
    return [
        Section(
            "Carriers, air bases and stacking",
            large_map.SEED,
            (
                (
                    "At set-up each squadron is assigned to a carrier or air base; a carrier's special abilities "
                    "go only to its own squadrons, and are lost with them."
                ),
                "Landing at an air base never costs an extra marker, whatever the squadron's home.",
                (
                    "Squadrons must land to re-arm only after an attack: bombers after attacking a ship, submarine "
                    "or air base; fighters after air defense or strafing."
                ),
                (
                    "A unit that fired antiair in the air mission or air defense phase cannot fire in the air "
                    "return phase."
                ),
                (
                    "An air base takes 1 damage each time an attack reaches its armor; at its full hit points it "
                    "is destroyed with every aircraft on it."
                ),
                "A shore battery beside an air base gives the base its antiair.",
                (
                    "The base game's stacking limits stay, even with fleets of 500 points or more, unless the "
                    "scenario changes them."
                ),
            ),
        )
    ]


def _hidden_example(speed: int = 1, turns: int = 4) -> str:
    moves = tabletop_cm.hidden_move_sectors(speed, turns)
    six, eight = (moves * tabletop_cm.SECTOR_CM[s] for s in ("6ft", "8ft"))
    return (
        f"For example a speed-{speed} submarine hidden for {turns} turns may then move up to {six:g} cm "
        f"({eight:g} cm on the 8 ft scale)."
    )


def _tabletop_cm_more(params: dict) -> list[Section]:
    six, eight = (tabletop_cm.SECTOR_CM[s] for s in ("6ft", "8ft"))
    return [
        Section(
            "At the table",
            tabletop_cm.SEED,
            (
                (
                    f"Fleets deploy up to {six:g} cm ({eight:g} cm on the 8 ft scale) in from their short table "
                    f"edge; submarines may start further forward but at least {six:g} cm ({eight:g} cm) from the "
                    "center line."
                ),
                (
                    "Ships keep 5 cm or their own length, whichever is more, from land unless they have Shallow "
                    "Draft; a Shallow Draft ship may attack ships sheltering on the same coast."
                ),
                (
                    "A turn of 90 degrees or more counts as two turns over 45 degrees; turns under 45 degrees in a "
                    "whole move are free."
                ),
                "Abilities that move a ship (Sub Hunter and the like) work as closely as the table allows.",
                "Guns fire all round; only submarine torpedoes need the target ahead.",
                "Ranges run between conning towers, or between model centers where there is none.",
            ),
        ),
        Section(
            "Found submarines and aircraft",
            tabletop_cm.SEED,
            (
                (
                    "A submarine found by aircraft moves as normal and the aircraft move with it; found by a ship, "
                    "it moves up to that ship's speed and the ship may follow. It need not move toward a target."
                ),
                "Once a submarine has moved it cannot hide again.",
                (
                    "Antiair: besides the target, one friendly ship with its conning tower within "
                    f"{six:g} cm ({eight:g} cm on the 8 ft scale) of the target's may fire."
                ),
                (
                    "Close Escort: may fire antiair at an aircraft that two other ships have fired on, within "
                    f"{six:g} cm ({eight:g} cm) of the target ship's conning tower."
                ),
                "At most 4 aircraft may attack one ship, friendly and enemy aircraft counted together.",
            ),
        ),
    ]


def _hex_more(params: dict) -> list[Section]:
    deck = hexv.SURFACE_DECK_GUN
    return [
        Section(
            "Flights of aircraft",
            hexv.SEED,
            (
                (
                    "Aircraft fly in flights of 3, or as single bombers; each turn a flight flies between its "
                    "minimum and maximum hexes, turning at most 60 degrees per hex flown."
                ),
                (
                    "A flight takes off over the bow and lands over the stern, flying 1 hex straight ahead in line "
                    "with the carrier; the minimum move does not apply then."
                ),
                (
                    "A flight attacks only the hex straight ahead, so it ends its move facing a hex edge. A flight "
                    "that attacks flies home and re-arms for 1 full turn; a carrier cannot launch and recover in "
                    "the same turn. Flights may stay aloft for the whole battle unless the scenario limits them."
                ),
                (
                    "Each flight takes off with a face-down load: depth charges (the only weapon against a "
                    "submerged submarine), bombs or torpedoes (2 dice a flight)."
                ),
                "Only one flight a turn may attack each hex of a ship: a 3-hex ship may be attacked by 3 flights.",
                "A flight that takes 1 damage aborts and flies home; a flight that fails to land is lost.",
                (
                    "Antiair fires at enemy aircraft within 1 hex; a ship with Heavy Antiair also reaches "
                    f"{hexv.band_hexes(1)[0]}-{hexv.band_hexes(1)[1]} hexes (Heavy Antiair 2 out to "
                    f"{hexv.band_hexes(2)[1]} hexes), with the dice its card gives there. Against Swordfish antiair "
                    "rolls one die fewer."
                ),
            ),
        ),
        Section(
            "Submarines and surface fire",
            hexv.SEED,
            (
                (
                    "Submerged: a token showing its heading; it moves up to "
                    f"{w_quantity(params['submerged_hexes'], 'hex')} and may make one free 60 degree turn before "
                    "it moves."
                ),
                (
                    "On the surface: a model like any ship, moving at its card's higher surface speed under the "
                    f"normal turning rules, with its torpedoes and one deck gun ({w_quantity(deck[0], 'die')} up "
                    f"to {w_quantity(deck[1], 'hex')})."
                ),
                "Submarines fire torpedoes straight ahead along their heading.",
                (
                    "Ships torpedo out of the beam, within 60 degrees of the ship's center point, at the gun "
                    "ranges (1, 4, 7 hexes)."
                ),
                (
                    "The second player's ships fire back even if the first player's attacks destroyed them. Each "
                    "salvo is resolved on its own and damage from two attackers is not added."
                ),
                (
                    "Line of sight: no ship, smoke or land between the firing hex and the target. Depth charges "
                    "only in a turn without gunnery or torpedoes."
                ),
                (
                    "A ship entering a hex next to land (not a dock) runs aground and is out of the battle. A "
                    "minesweeper may clear the mines in the hexes next to it instead of firing: each goes on a 4-6."
                ),
            ),
        ),
    ]


def _off_grid_more(params: dict) -> list[Section]:
    return [
        Section(
            "Headings and arcs (optional)",
            off_grid.SEED,
            (
                (
                    "A ship that moves at least 1 leg less than its full speed may end facing any way; at full "
                    "speed it ends lined up with the compass points."
                ),
                (
                    "Guns fire with full effect into a 140 degree arc on each beam; within 20 degrees of dead "
                    "ahead or astern they roll at -1 per die. A ship with no aft turret cannot fire main guns "
                    "astern. Torpedoes, ASW and antiair ignore headings."
                ),
            ),
        ),
        Section(
            "Placing aircraft and measuring antiair",
            off_grid.SEED,
            (
                (
                    "Aircraft that bomb, torpedo, strafe or attack submarines are placed touching their target, "
                    "chosen when placed; others may go anywhere."
                ),
                (
                    "Antiair is measured from a ship's bow or the front of an aircraft's base, to the bow of the "
                    "ship an aircraft is attacking, or to the aircraft's base when it attacks none."
                ),
                (
                    "Fighters in contact with enemy ships are free of stacking; bombers have no limit; a torpedo "
                    "boat may end within 1 leg of one other ship."
                ),
                "Only Shallow Draft ships may come within 1 leg of islands and shoals.",
            ),
        ),
    ]


def _tabletop_inches_more(params: dict) -> list[Section]:
    t = tabletop_inches
    return [
        Section(
            "At the table",
            t.SEED,
            (
                "Initiative: a crippled flagship gives no bonus.",
                "Ships may not share space: a ship stops short of any unit its move would touch.",
                (
                    "Before aircraft move, give each fighter its mission (escort, strafing or CAP) and each bomber "
                    "its attack and target."
                ),
                (
                    f"Aircraft stop within {t.AIRCRAFT_ATTACK_IN} in of enemy fighters that intercept them or "
                    f"escort others. Antiair reaches aircraft within {t.ANTI_AIR_IN[0]} in of its target."
                ),
                (
                    "Aborted units (PT boats and aircraft) cannot attack unless an ability lets them (Press the "
                    "Attack), but may still fire antiair in that phase. Each aircraft makes one attack in the air "
                    "attack phase."
                ),
                (
                    "Each ship may use its special actions (Lay Smoke Screen, Repair, High-Speed Run) in its sea "
                    "movement step. In bad weather or at night (optional) only ships within visibility range can "
                    "be attacked."
                ),
                (
                    f"Hedgehogs fire ahead only, up to {t.HEDGEHOG_IN} in; depth charges astern only, up to "
                    f"{t.DEPTH_CHARGE_IN} in."
                ),
                (
                    "Line of sight runs from the attacker's center to any part of the target: any ship but a "
                    "surfaced submarine or PT boat blocks it within 5 in, any ship but a destroyer, surfaced "
                    "submarine or PT boat beyond 5 in, and islands, fog, squalls and smoke always."
                ),
                (
                    "Stalemate (one side has only a fighter, the other only a submarine): the side with more "
                    "points left wins."
                ),
            ),
        )
    ]


def w_quantity(count: float, unit: str) -> str:
    from ..core.wording import quantity

    return quantity(count, unit)


MORE_RULES = {
    "standard": _standard_more,
    "large-map": _large_map_more,
    "tabletop-cm": _tabletop_cm_more,
    "hex": _hex_more,
    "off-grid": _off_grid_more,
    "tabletop-inches": _tabletop_inches_more,
}


def _leg_phrase(params: dict, leg: float) -> str:
    """'3 in', or how a leg follows from the grid a player already has."""
    if params.get("grid_in", 0) > 0:
        return f"{leg:.2f} in: {params['grid_in']:g} in of grid x {off_grid.GRID_TO_LEG:g}"
    return f"{leg:g} in"
