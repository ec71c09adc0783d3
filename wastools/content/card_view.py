"""What one card says, as plain data: every word through :mod:`wastools.wording`.

The view decides the content; :mod:`.card_fit` decides its size; the templates only lay it
out. No HTML here, and nothing from the data is trusted as markup (jinja2 escapes it all).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import wording as w
from ..core.model import Repository, Unit
from ..variants.base import AdaptedAttack, AdaptedUnit, Band, Value, Variant
from ..variants.hex import CARD_LABELS, notation
from . import aids

ATTACK_LABELS = {
    "main": "Main",
    "secondary": "Secondary",
    "tertiary": "Tertiary",
    "aircraft_gunnery": "Gunnery",
    "anti_air": "Antiair",
    "asw": "ASW",
    "torpedo": "Torpedo",
    "bomb": "Bomb",
}
TYPE_LABELS = {
    "battleship": "Battleship",
    "cruiser": "Cruiser",
    "destroyer": "Destroyer",
    "torpedo-boat": "Torpedo boat",
    "carrier": "Carrier",
    "auxiliary": "Auxiliary",
    "submarine": "Submarine",
    "fighter": "Fighter",
    "bomber": "Bomber",
    "dive-bomber": "Dive bomber",
    "torpedo-bomber": "Torpedo bomber",
    "patrol-bomber": "Patrol bomber",
}
SIDE_LABELS = {"allies": "Allies", "axis": "Axis", "neutral": "Neutral"}
# Where the player aid holds the full text of an ability that does not fit on its card.
AID_ABILITIES_SECTION = aids.AID_ABILITIES_SECTION
# A band's condition is marked the same way on every card of every deck: * is always Extended
# Range, \u2020 Long Shot, \u2021 Long Lance torpedoes, \u00a7 depth charges astern only.
MARKS = (
    ("Extended Range", "*"),
    ("Long Shot", "\u2020"),
    ("Long-Lance", "\u2021"),
    ("depth charges", "\u00a7"),
)
OTHER_MARK = "\u00b6"  # any other condition (none in the shipped variants)


@dataclass
class AttackRow:
    label: str
    cells: list[dict[str, Any] | None] = field(default_factory=list)  # per band: dice, reach (or None), mark
    notation: str = ""
    arcs: list[str] = field(default_factory=list)  # hex: the dice ahead, the dice astern (seed notation)
    # the lines the arcs take (card_fit): one, joined, where it fits, else a line each, so a
    # list of dice never wraps inside itself
    arc_lines: list[str] = field(default_factory=list)


@dataclass
class CardView:
    """Everything one card face shows. ``size_pt`` and the gaps are set by card_fit."""

    template: str
    name: str
    side: str
    nation_id: str
    nation: str
    type_id: str
    type_label: str
    year: int | None
    class_name: str | None
    points: int | None
    stats: list[tuple[str, str]]
    movement_label: str
    movement: str
    distance_unit: str
    bands: list[int]
    reach_header: list[str] | None  # per band, when every attack shares it
    attack_rows: list[AttackRow]
    notation: bool
    rules: list[tuple[str, str]]
    abilities: list[dict[str, Any]]
    footnotes: list[tuple[str, str]]
    footer_left: str
    footer_right: str
    variant: str
    crippled: bool = False
    size_pt: float = 8.5
    name_pt: float = 12.0
    band_pt: float = 6.5  # the nation band's text: 6 pt, no letter spacing, when nation and type are long
    band_side: bool = True  # the band names the side unless nation and type leave no room for it
    name_lines: int = 1  # a name too long for one line at 7.5 pt wraps at 6 pt (and drops the year line at 3)
    gap_pt: float = 2.0
    label_pt: float = 40.0  # width of the weapon-label column
    table_pt: float = 8.5  # the attack table's text size (a wide table may need less than the body)
    stat_widths: list[float] = field(default_factory=list)
    moved_to_aid: list[str] = field(default_factory=list)
    moved_text: dict[str, str] = field(default_factory=dict)  # ability -> full text, printed in the aid

    def as_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


# --- rules a card prints, per rule key --------------------------------------------------------

RuleText = Callable[[Value, AdaptedUnit], "tuple[str, str] | None"]


def _move_in_sectors(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    return "Take-off", f"at most {w.quantity(value.value, 'sector')} in the air phase it launches"


def _rearm(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    turns = "1 full turn" if value.value == 1 else f"{w.number(value.value)} full turns"
    return "Re-arm", f"{turns} after landing; 1 more on a carrier it is not assigned to"


def _launch(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    return "Launch and land", f"up to {w.quantity(value.value, 'squadron')} in all each air phase"


def _vital_by_squadrons(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    steps = ", ".join(f"{n} aboard {v}" if n else f"none {v}" for n, v in enumerate(value.value))
    return "Vital Armor by squadrons aboard", steps


def _depth_charges(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    return "Depth charges", depth_charge_words(value.value)


def depth_charge_words(split: dict[str, Any]) -> str:
    """Seed 002's depth charges in words: the player shares the dice among the three hexes
    behind the ship, within a cap per hex; the split shown is an example, not a rule."""
    port, astern, starboard = split["port_astern_starboard"]
    return (
        f"{w.dice(split['total'])} shared as you choose among the 3 hexes behind "
        f"(port, dead astern, starboard), at most {split['per_hex_max']} in one hex "
        f"(e.g. {port}, {astern}, {starboard})"
    )


def _quantity(label: str, suffix: str = "") -> RuleText:
    def text(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
        return label, w.quantity(value.value, value.unit) + suffix

    return text


def _stacking(value: Value, a: AdaptedUnit) -> tuple[str, str]:
    u = a.unit
    if u.type == "torpedo-boat":
        return "Spacing", "may end within 1 leg of one other ship"
    if u.type == "submarine":
        return "Spacing", "more than 1 leg from friendly submarines"
    if u.type == "fighter":
        return "Spacing", "more than 1 leg from friendly fighters, unless in contact"
    if u.is_aircraft:
        return "Spacing", "no limit for bombers"
    return "Spacing", "more than 1 leg from friendly ships"


def _detection(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    return "Finds submarines", "on a 6" if value.value == 6 else f"on {value.value}+"


def _rearm_counters(value: Value, a: AdaptedUnit) -> tuple[str, str]:
    if not value.value:
        return "Re-arm", "no re-arm counters after firing torpedoes"
    if a.unit.is_aircraft:
        return "Re-arm", f"{w.quantity(value.value, 'counter')} when it lands; remove 1 a turn"
    return "Re-arm", (
        f"{w.quantity(value.value, 'counter')} after firing torpedoes; remove 1 a turn; no torpedoes while any remain"
    )


def _hedgehog(value: Value, a: AdaptedUnit) -> tuple[str, str]:
    asw = a.unit.attack("asw")
    dice = next((d for d in asw.bands if d), 0) if asw else 0
    return "Hedgehog", f"{w.dice(dice)} ahead only, up to {w.quantity(value.value, value.unit)}"


RULES: dict[str, RuleText | None] = {
    # None: belongs to the player aid or is shown elsewhere on the card
    "armor": None,
    "vital_armor": None,
    "card_notation": None,
    "leg": None,
    "movement_in": None,
    "range_0_reach": None,
    "objective_claim": None,
    "movement_6ft": None,
    "movement_8ft": None,
    "main_arcs": None,
    "secondary_arcs": None,
    "tertiary_arcs": None,
    "take_off": _move_in_sectors,
    "rearm": _rearm,
    "launch_land_per_phase": _launch,
    "vital_armor_by_squadrons_aboard": _vital_by_squadrons,
    "depth_charge_hexes": _depth_charges,
    "footprint": _quantity("Footprint"),
    "aircraft_min_move": _quantity("Minimum move"),
    "asw_threat": lambda v, a: ("ASW threat", f"a submarine within {w.quantity(v.value, v.unit)} attacks at a penalty"),
    "smoke_radius": None,  # said by the Lay Smoke Screen ability's own (amended) text
    "stacking": _stacking,
    "detection": _detection,
    "torpedo_rearm_counters": _rearm_counters,
    "torpedo_immune": None,  # said by the Shallow Draft ability's own text
    "attack_die_penalty": lambda v, a: ("Crippled", "-1 on each attack die"),
    "hedgehog": _hedgehog,
    "rearm_counters": _rearm_counters,
    "objective_clear": None,
    "surface_deck_gun": lambda v, a: (
        "Deck gun",
        f"on the surface {w.dice(v.value['dice'])} up to {w.quantity(v.value['hexes'], 'hex')}",
    ),
    "submerged_move": lambda v, a: (
        "Submerged",
        f"moves up to {w.quantity(v.value, 'hex')}; one free 60 degree turn first",
    ),
}


def rule_lines(adapted: AdaptedUnit) -> list[tuple[str, str]]:
    """The variant rules a card prints, in the adapted unit's order, in words."""
    lines = []
    for key, value in adapted.rules.items():
        if key.startswith("amended: "):
            continue  # replaces the ability's summary instead
        formatter = RULES.get(key, _unknown)
        if formatter is None:
            continue
        line = formatter(value, adapted)
        if line:
            lines.append((line[0], w.tidy(line[1])))
    return lines


def _unknown(value: Value, _a: AdaptedUnit) -> tuple[str, str]:
    raise KeyError(f"no card wording for this rule: add it to wastools.render.card_view.RULES ({value.source})")


# --- movement -----------------------------------------------------------------------------------


def movement_text(adapted: AdaptedUnit, variant: Variant) -> tuple[str, str]:
    """The move line, at the card's own scale (a tabletop-cm card names its scale in its foot)."""
    u, move = adapted.unit, adapted.movement
    label = "Air move" if u.is_aircraft else "Move"
    if move.value is None:
        return label, _no_movement(move, adapted, variant)
    if move.unit == "sectors/phase":
        return label, f"{w.quantity(move.value, 'sector')} each air phase"
    text = w.quantity(move.value, move.unit)
    if scale_of(adapted, variant):
        text += f" ({scale_of(adapted, variant)})"
    if "movement_in" in adapted.rules and adapted.rules["movement_in"].value is not None:  # legs, and in inches
        text += f" ({w.quantity(adapted.rules['movement_in'].value, 'in')})"
    if move.note:  # a fallback, not the unit's history: the card says so
        text += f" ({move.note}: no historical figure)"
    return label, text


def _no_movement(move: Value, adapted: AdaptedUnit, variant: Variant) -> str:
    own = variant.placement(adapted.parameters)
    if own:
        return own
    measure = measure_of(adapted, variant)
    if measure is not None:
        return f"placed within {measure.q(measure.local)} of its target"
    return "placed in its target's sector"


def footer_variant(adapted: AdaptedUnit, variant: Variant) -> str:
    """The variant as the card's foot names it (short: the foot also holds the set and number)."""
    return variant.short + (" \u00b7 crippled" if adapted.crippled else "")


def scale_of(adapted: AdaptedUnit, variant: Variant) -> str:
    """The table scale a card's distances are for, where the player chooses one ('6 ft scale')."""
    measure = measure_of(adapted, variant)
    return measure.scale if measure is not None else ""


# --- attacks ------------------------------------------------------------------------------------


def _reach(band: Band) -> str:
    if band.unit == "legs" and band.min:
        # off-grid counts whole legs: a band from just beyond 1 leg to 3 reads "2-3", as seed 003 prints it
        return w.span_bare(band.min + 1, band.max)
    return w.span_bare(band.min, band.max)


def attack_table(
    adapted: AdaptedUnit, distance_unit: str, marks: dict[str, str]
) -> tuple[list[int], list[str] | None, list[AttackRow]]:
    """Bands shown, the shared reach per band (None when the bands are the reach), and rows."""
    attacks = table_attacks(adapted)
    bands = sorted({b.band for a in attacks for b in a.bands}) or [0]
    common = shared_reach(attacks)
    header: list[str] | None = [common.get(b, "") for b in bands]
    if distance_unit == "sectors":
        header = None  # the band number is the reach in sectors
    rows = []
    for attack in attacks:
        by_band = {b.band: b for b in attack.bands}
        cells: list[dict[str, Any] | None] = []
        for band in bands:
            found = by_band.get(band)
            if found is None:
                cells.append(None)
                continue
            own = _reach(found)
            cells.append(
                {
                    "dice": found.dice,
                    "reach": own if header is not None and own != common.get(band) else None,
                    "mark": marks.get(found.condition or "", ""),
                }
            )
        rows.append(AttackRow(ATTACK_LABELS[attack.type], cells))
    return bands, header, rows


def table_attacks(adapted: AdaptedUnit) -> tuple[AdaptedAttack, ...]:
    """The attacks the range table shows: all but an antiair with its own short and long
    reach (off the grid), which the card gives as two entries of its own."""
    return tuple(a for a in adapted.attacks if not _own_reach_anti_air(a))


def _own_reach_anti_air(attack: AdaptedAttack) -> bool:
    return attack.type == "anti_air" and attack.bands[-1].unit == "legs"


def shared_reach(attacks: tuple[AdaptedAttack, ...]) -> dict[int, str]:
    """The reach the table's header gives for each band: the first weapon's (the main guns,
    or whatever comes first), so that a header never mixes two weapons' reaches; a band it
    lacks takes the reach the other weapons agree on, else none (each cell says its own)."""
    if not attacks:
        return {}
    header = {b.band: _reach(b) for b in attacks[0].bands}
    others: dict[int, set[str]] = {}
    for attack in attacks[1:]:
        for b in attack.bands:
            others.setdefault(b.band, set()).add(_reach(b))
    for band, reaches in others.items():
        if band not in header and len(reaches) == 1:
            header[band] = next(iter(reaches))
    return header


def anti_air_entries(adapted: AdaptedUnit) -> list[tuple[str, str]]:
    """Off the grid, antiair has a short and a long reach of its own: two entries."""
    out = []
    for attack in adapted.attacks:
        if _own_reach_anti_air(attack):
            short, long_ = attack.bands[0], attack.bands[-1]
            out.append(("AA short", f"{w.dice(short.dice)} within {w.quantity(short.max, short.unit)}"))
            out.append(("AA long", f"{w.dice(long_.dice)} within {w.quantity(long_.max, long_.unit)}, -1 on each die"))
    return out


def hex_rows(adapted: AdaptedUnit, marks: dict[str, str]) -> list[AttackRow]:
    """The seed 002 card notation, dice@max-hexes, with the dice ahead and astern."""
    rows = []
    for attack in adapted.attacks:
        dice_by_band = [(b.band, b.dice) for b in attack.bands]
        arcs = adapted.rules.get(f"{attack.type}_arcs")
        arc_groups = []
        if arcs is not None:
            ahead = notation([(band, d) for (band, _), d in zip(dice_by_band, arcs.value["fore"], strict=True) if d])
            astern = notation([(band, d) for (band, _), d in zip(dice_by_band, arcs.value["aft"], strict=True) if d])
            arc_groups = [f"ahead {ahead or 'none'}", f"astern {astern or 'none'}"]
        rows.append(AttackRow(CARD_LABELS[attack.type], notation=_marked_notation(attack, marks), arcs=arc_groups))
    return rows


def _marked_notation(attack: AdaptedAttack, marks: dict[str, str]) -> str:
    """The seed's notation with each part marked by the conditions of the bands it covers."""
    parts = notation([(b.band, b.dice) for b in attack.bands]).split(", ")
    out, i = [], 0
    for part in parts:
        covered = []
        while i < len(attack.bands):
            covered.append(attack.bands[i])
            i += 1
            reach = int(part.split("@")[1])
            if attack.bands[i - 1].max == reach:
                break
        mark = "".join(dict.fromkeys(marks.get(b.condition or "", "") for b in covered))
        out.append(part + mark)
    return ", ".join(out)


def _conditions(attacks: tuple[AdaptedAttack, ...]) -> list[str]:
    seen: list[str] = []
    for attack in attacks:
        for b in attack.bands:
            if b.condition and b.condition not in seen:
                seen.append(b.condition)
    return seen


# --- abilities ----------------------------------------------------------------------------------


def measure_of(adapted: AdaptedUnit, variant: Variant) -> w.Measure | None:
    """How the variant reads the base game's sector words and ranges (None: it has sectors)."""
    return variant.measure(adapted.parameters, adapted.unit)


def ability_lines(adapted: AdaptedUnit, repo: Repository, variant: Variant) -> list[dict[str, Any]]:
    amended = {k.removeprefix("amended: "): v.value for k, v in adapted.rules.items() if k.startswith("amended: ")}
    measure = measure_of(adapted, variant)
    out = []
    for ability in adapted.unit.abilities:
        info = repo.abilities.get(ability.pattern)
        own = amended.get(ability.text)  # already in the variant's own terms
        summary = own or (info.summary if info else None)
        if summary and ability.n is not None:
            summary = summary.replace("{n}", str(ability.n))
        if summary:
            summary = w.tidy(summary if own else w.in_variant_terms(summary, measure))
        out.append({"name": ability.text, "summary": summary, "mark": ""})
    return out


# --- the whole card -----------------------------------------------------------------------------


def card_view(adapted: AdaptedUnit, variant: Variant, repo: Repository) -> CardView:
    u = adapted.unit
    nation = repo.nations.get(u.nation)
    card_set = repo.sets.get(u.set)
    conditions = _conditions(table_attacks(adapted))
    abilities = ability_lines(adapted, repo, variant)
    marks, footnotes = _marks(conditions, abilities)
    notation_rows = "card_notation" in adapted.rules
    bands, header, rows = attack_table(adapted, variant.distance_unit, marks)
    if notation_rows:
        rows, header = hex_rows(adapted, marks), None
    label, movement = movement_text(adapted, variant)
    return CardView(
        template={"aircraft": "aircraft.html.j2", "submarine": "submarine.html.j2"}.get(u.category, "ship.html.j2"),
        name=u.name,
        side=nation.side if nation else "neutral",
        nation_id=u.nation,
        nation=nation.name if nation else u.nation,
        type_id=u.type,
        type_label=TYPE_LABELS.get(u.type, u.type),
        year=u.year,
        class_name=u.history.class_name,
        points=u.points,
        stats=_stats(adapted),
        movement_label=label,
        movement=movement,
        distance_unit=_distance_unit(adapted, variant)
        + (f" ({scale_of(adapted, variant).removesuffix(' scale')})" if scale_of(adapted, variant) else ""),
        bands=bands,
        reach_header=header,
        attack_rows=rows,
        notation=notation_rows,
        rules=anti_air_entries(adapted) + rule_lines(adapted),
        abilities=abilities,
        footnotes=footnotes,
        footer_left=_set_line(u, card_set),
        footer_right=footer_variant(adapted, variant),
        variant=variant.name,
        crippled=adapted.crippled,
    )


def _marks(conditions: list[str], abilities: list[dict[str, Any]]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """A mark per band condition; an ability that grants it carries the mark instead of a footnote."""
    marks: dict[str, str] = {}
    footnotes: list[tuple[str, str]] = []
    for condition in conditions:
        mark = next((m for start, m in MARKS if start in condition), OTHER_MARK)
        marks[condition] = mark
        granting = next((a for a in abilities if condition.startswith(a["name"])), None)
        if granting is not None:
            granting["mark"] += mark
        else:
            footnotes.append((mark, w.capitalised(condition)))
    return marks, footnotes


def _stats(adapted: AdaptedUnit) -> list[tuple[str, str]]:
    u = adapted.unit
    armor = adapted.rules["armor"].value if "armor" in adapted.rules else u.armor
    vital = adapted.rules["vital_armor"].value if "vital_armor" in adapted.rules else u.vital_armor
    stats = [("Armor", str(armor)), ("Vital Armor", str(vital)), ("Hull", str(u.hull))]
    if u.flagship:
        stats.append(("Flagship", f"+{u.flagship}"))
    if u.carrier_capacity:
        stats.append(("Squadrons", str(u.carrier_capacity)))
    return stats


def _distance_unit(adapted: AdaptedUnit, variant: Variant) -> str:
    unit = next((b.unit for a in adapted.attacks for b in a.bands), variant.distance_unit)
    return {"in": "inches", "cm": "cm"}.get(unit, unit)


def _set_line(u: Unit, card_set) -> str:
    rarity = "" if u.rarity == "starter" else f" \u00b7 {u.rarity}"  # a starter set's name says it
    if card_set is None:
        return f"{u.set} {u.number}{rarity}"
    return f"{card_set.name} {u.number}/{card_set.total}{rarity}"
