"""Import the two public transcriptions of the official cards and cross-check them.

``shinn16`` (JSON, 275 units of the major navies) is the primary source;
``roberteliason`` (XML, 222 units) is independent and adds the smaller navies.
Parsing, matching and merging are pure functions; only :func:`run_import` touches disk.
The cross-check report lists every unit found in one source only and every field on
which the two disagree, with the value kept and why.
"""

from __future__ import annotations

import difflib
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import model
from ..core.abilities import ability_pattern, ability_regex  # noqa: F401  (re-exported for tests)
from ..core.slug import ascii_fold, unique_id

PRIMARY, SECONDARY = "shinn16", "roberteliason"

ATTACK_KINDS = ("main", "secondary", "tertiary", "aircraft_gunnery", "anti_air", "asw", "torpedo", "bomb")

SHINN_ATTACKS = {
    "main_gunnery_attack": "main",
    "secondary_gunnery_attack": "secondary",
    "tertiary_gunnery_attack": "tertiary",
    "aircraft_gunnery_attack": "aircraft_gunnery",
    "anti_aircraft_attack": "anti_air",
    "anti_submarine_attack": "asw",
    "torpedo_attack": "torpedo",
    "bomb_attack": "bomb",
}
ROBERT_ATTACKS = {
    "Main Guns": "main",
    "Secondary Guns": "secondary",
    "Tertiary Guns": "tertiary",
    "Teriary Guns": "tertiary",  # spelling in the source
    "Machine Guns": "aircraft_gunnery",
    "AA Guns": "anti_air",
    "Depth Charges": "asw",
    "Torpedoes": "torpedo",
    "Bombs": "bomb",
}
NATIONS = {
    "Australia": "australia",
    "Canada": "canada",
    "Finland": "finland",
    "France": "france",
    "Germany": "germany",
    "Greece": "greece",
    "Italy": "italy",
    "Japan": "japan",
    "The Netherlands": "netherlands",
    "New Zeeland": "new-zealand",
    "Poland": "poland",
    "Soviet Union": "soviet-union",
    "USSR": "soviet-union",
    "Sweden": "sweden",
    "United Kingdom": "uk",
    "United States": "us",
}
TYPES = {
    "Battleship": "battleship",
    "Carrier": "carrier",
    "Cruiser": "cruiser",
    "Destroyer": "destroyer",
    "Torpedo Boat": "torpedo-boat",
    "Auxiliary": "auxiliary",
    "Auxilliary": "auxiliary",
    "Submarine": "submarine",
    "Fighter": "fighter",
    "Dive Bomber": "dive-bomber",
    "Torpedo Bomber": "torpedo-bomber",
    "Patrol Bomber": "patrol-bomber",
}
SHINN_SETS = {
    "War At Sea": "war-at-sea",
    "Task Force": "task-force",
    "Flank Speed": "flank-speed",
    "Starter Set": "starter-2010",
    "Condition Zebra": "condition-zebra",
    "Set V": "fleet-command",
    "Surface Action": "surface-action",
}
ROBERT_SETS = {
    "Set 1": "war-at-sea",
    "Set 2": "task-force",
    "Set 3": "flank-speed",
    "Starter 2": "starter-2010",
    "Set 4": "condition-zebra",
    "Set 5": "fleet-command",
    "Set 6": "surface-action",
}
RARITIES = {"Common": "common", "Uncommon": "uncommon", "Rare": "rare", "Pre": "starter", "None": "starter"}

# Abilities that the card format records as fields of their own.
_FIELD_ABILITIES = re.compile(r"^(Flagship \d+|Base \d+ Squadron\(s\))$")


@dataclass
class SourceUnit:
    """One unit as one source transcribes it, in the project's vocabulary."""

    source: str
    name: str
    nation: str
    type: str | None
    set: str | None
    number: int | None
    rarity: str | None
    year: int | None
    points: int | None
    speed: int | None
    flagship: int | None
    carrier_capacity: int | None
    armor: int | None
    vital_armor: int | None
    hull: int | None
    attacks: dict[str, list[int | None]]
    abilities: list[str]
    raw_set: str = ""


@dataclass
class Excluded:
    unit: SourceUnit
    reason: str


@dataclass
class Disagreement:
    unit_id: str
    field: str
    primary: Any
    secondary: Any
    kept: Any
    why: str


@dataclass
class ImportResult:
    cards: list[dict[str, Any]]
    only_primary: list[str] = field(default_factory=list)
    only_secondary: list[str] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)
    corrected: list[tuple[str, Correction, Any]] = field(default_factory=list)
    matched_by: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Correction:
    """A reviewed fix to one source's transcription, with the evidence for it."""

    source: str
    name: str
    field: str
    value: Any
    reason: str


CORRECTIONS: tuple[Correction, ...] = (
    Correction(
        PRIMARY,
        "R0-50",
        "name",
        "RO-50",
        "digit zero typed for the letter O of the IJN designation RO; roberteliason has RO-50",
    ),
    Correction(
        PRIMARY,
        'D4YI "Judy"',
        "name",
        'D4Y1 "Judy"',
        "letter I typed for the digit 1 of the Yokosuka D4Y1; roberteliason has D4Y1",
    ),
    Correction(
        PRIMARY,
        'H8KI Type 2 "Emily"',
        "name",
        'H8K1 Type 2 "Emily"',
        "letter I typed for the digit 1 of the Kawanishi H8K1; roberteliason has H8K1",
    ),
    Correction(
        PRIMARY,
        "USS Intrepid (CV II)",
        "name",
        "USS Intrepid (CV 11)",
        "hull number CV-11 typed as roman II; roberteliason has CV 11",
    ),
    *(
        Correction(PRIMARY, old, "name", new, f"spelled as the other cards spell it: {why}")
        for old, new, why in (
            ("Swordfish MK. I", "Swordfish Mk. I", "a mark is 'Mk.', as the Swordfish Mk. II"),
            ("Sea Hurricane Mk. 1B", "Sea Hurricane Mk. IB", "the mark is the roman IB, as every other mark"),
            ("USS Edsall (DD-219)", "USS Edsall (DD 219)", "hull numbers read '(DD 445)'"),
            ("USS Guadalcanal (CVE-60)", "USS Guadalcanal (CVE 60)", "hull numbers read '(CVE 63)'"),
            ("USS Hornet (CV8)", "USS Hornet (CV 8)", "hull numbers read '(CV 6)'; roberteliason has CV 8"),
            ("USS New Jersey (BB62)", "USS New Jersey (BB 62)", "hull numbers read '(BB 61)'"),
            ("Il-2m Sturmovik", "Il-2M Sturmovik", "the Ilyushin Il-2M; roberteliason has Il-2M"),
            ("Ju-87 R2 Picchiatelli", "Ju 87 R2 Picchiatelli", "Junkers types read 'Ju 87'; roberteliason has it"),
            ("FW 200 Kondor", "Fw 200 Kondor", "Focke-Wulf types read 'Fw', as the Fw 190A"),
        )
    ),
    Correction(
        SECONDARY,
        "Hr. Ms. Zvaardvisch",
        "name",
        "Hr. Ms. Zwaardvisch",
        "the Dutch submarine (ex-HMS Talent) is Zwaardvisch; 'v' typed for 'w'",
    ),
    Correction(
        SECONDARY,
        "Hr. Ms. Zvaardvisch",
        "type",
        "submarine",
        "filed under Torpedo Boat, but the card is a submarine: speed 1, torpedoes only, Submerged Shot",
    ),
    Correction(
        SECONDARY,
        "Giorgios Averoff",
        "number",
        7,
        (
            "condition-zebra 17 is USS Allen M. Sumner in both sources; 7 is the set's only gap and lies between "
            "the French (2-6) and Greek (8-9) cards"
        ),
    ),
    Correction(
        SECONDARY,
        "ORP Blyskawica",
        "number",
        4,
        (
            "fleet-command 8 is HMS Swale in shinn16 (between UK 7 and US 9); 4-5 are the gap between France (3) "
            "and UK (6), where Poland falls in the set's nation order"
        ),
    ),
    Correction(
        SECONDARY,
        "ORP Orzel",
        "number",
        5,
        "fleet-command 12 is USS Essex in both sources; 4-5 are the gap between France (3) and UK (6), B before O",
    ),
)


def apply_corrections(units: list[SourceUnit], corrections=CORRECTIONS) -> list[tuple[SourceUnit, Correction, Any]]:
    """Copies of ``units`` with each correction applied; plus (unit, correction, old value)."""
    applied = []
    for c in corrections:
        for unit in units:
            if unit.source == c.source and unit.name == c.name:
                applied.append((unit, c, getattr(unit, c.field)))
    for unit, c, _old in applied:
        setattr(unit, c.field, c.value)
    return applied


# --- parsing -------------------------------------------------------------------


def _int_or_none(text: Any) -> int | None:
    if text is None:
        return None
    text = str(text).strip()
    return int(text) if text.isdigit() else None


def _shinn_bands(values: list[str]) -> list[int | None] | None:
    if not values:
        return None
    # '-' is no attack; one card's '0' (a carrier's empty main battery) means the same.
    bands = [None if v.strip() in ("-", "", "0") else int(v) for v in values]
    return bands if any(b is not None for b in bands) else None


def parse_shinn16(text: str) -> list[SourceUnit]:
    units = []
    for nation in json.loads(text):
        for u in nation["units"]:
            type_text = u["type"].split(" - ")[-1]
            abilities = [a for a in u["special_abilities"] if not _FIELD_ABILITIES.match(a)]
            attacks = {kind: bands for key, kind in SHINN_ATTACKS.items() if (bands := _shinn_bands(u.get(key) or []))}
            number = u["set_number"].split("/")[0]
            units.append(
                SourceUnit(
                    source=PRIMARY,
                    name=u["name"].strip(),
                    nation=NATIONS[nation["name"]],
                    type=TYPES.get(type_text),  # bare "Aircraft" carries no subtype
                    set=SHINN_SETS.get(u["set"]),
                    raw_set=u["set"],
                    number=_int_or_none(number),
                    rarity=RARITIES.get(u["rarity"]),
                    year=u["year"],
                    points=u["points"],
                    speed=_int_or_none(u["speed"]),
                    flagship=u["flagship"],
                    carrier_capacity=u["planes"],
                    armor=u["armor"],
                    vital_armor=u["vital_armor"],
                    hull=u["hull_points"],
                    attacks=attacks,
                    abilities=abilities,
                )
            )
    return units


def parse_roberteliason(text: str) -> list[SourceUnit]:
    root = ET.fromstring(text)
    units = []
    for nation in root.findall("nation"):
        for unittype in nation.iter("unittype"):
            for u in unittype.findall("units/unit"):
                units.append(_robert_unit(_text(nation, "name"), _text(unittype, "name"), u))
    return units


def _text(element: ET.Element, tag: str) -> str:
    """A child's text, stripped; empty when the child is missing (the source omits some)."""
    return (element.findtext(tag) or "").strip()


def _robert_unit(nation: str, type_name: str, u: ET.Element) -> SourceUnit:
    attacks = {}
    for attack in u.findall("attacks/attack/attacktype"):
        # This source writes 0 where the card shows no attack at that range.
        bands = [_int_or_none(attack.findtext(f"range_{i}")) or None for i in range(4)]
        if any(b is not None for b in bands):
            attacks[ROBERT_ATTACKS[_text(attack, "name")]] = bands
    abilities = [_text(a, "name") for a in u.findall("abilities/ability") if _text(a, "name")]
    return SourceUnit(
        source=SECONDARY,
        name=_text(u, "name"),
        nation=NATIONS[nation],
        type=TYPES.get(type_name),
        set=ROBERT_SETS.get(_text(u, "set")),
        raw_set=_text(u, "set"),
        number=_int_or_none(u.findtext("number")),
        rarity=RARITIES.get(_text(u, "rarity")),
        year=_int_or_none(u.findtext("year")),
        points=_int_or_none(u.findtext("cost")),
        speed=_int_or_none(u.findtext("speed")),
        flagship=_int_or_none(u.findtext("flags")) or None,
        carrier_capacity=_int_or_none(u.findtext("aircraft")) or None,
        armor=_int_or_none(u.findtext("armor")),
        vital_armor=_int_or_none(u.findtext("vitalarmor")),
        hull=_int_or_none(u.findtext("hullpoints")),
        attacks=attacks,
        abilities=abilities,
    )


# --- matching ------------------------------------------------------------------

_PARENTHESES = re.compile(r"\([^)]*\)")


def match_key(name: str) -> str:
    """Name folded for matching: hull designations dropped ('(CA 55)' ~ '(CL 55)' ~ none)."""
    text = _PARENTHESES.sub(" ", ascii_fold(name).lower())
    text = re.sub(r"\b(hr\.?\s*ms\.?|hms|uss|hmas|hmcs|hmnzs|orp)\b", " ", text)
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, match_key(a), match_key(b)).ratio()


def match_units(
    primary: list[SourceUnit], secondary: list[SourceUnit]
) -> list[tuple[SourceUnit | None, SourceUnit | None, str]]:
    """Pair the two sources' units. Set and number settle a match when the names agree
    reasonably; then equal names within a set (number disagreement); then equal names
    anywhere (set disagreement)."""
    left = list(primary)
    right = list(secondary)
    pairs: list[tuple[SourceUnit | None, SourceUnit | None, str]] = []

    def take(rule: str, accept) -> None:
        for a in list(left):
            candidates = [b for b in right if accept(a, b)]
            if not candidates:
                continue
            best = max(candidates, key=lambda b: similarity(a.name, b.name))
            pairs.append((a, best, rule))
            left.remove(a)
            right.remove(best)

    take("set and number", lambda a, b: (a.set, a.number) == (b.set, b.number) and similarity(a.name, b.name) >= 0.5)
    take("name within set", lambda a, b: a.set == b.set and similarity(a.name, b.name) >= 0.85)
    take("name", lambda a, b: match_key(a.name) == match_key(b.name))
    pairs.extend((a, None, "") for a in left)
    pairs.extend((None, b, "") for b in right)
    return pairs


# --- merging -------------------------------------------------------------------

CARD_FIELDS = model.CARD_FIELDS


def _ability_key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def merge(a: SourceUnit | None, b: SourceUnit | None, unit_id: str) -> tuple[dict[str, Any], list[Disagreement]]:
    """One card from one or two transcriptions. The primary source's value is kept where
    both have one; the other fills gaps. Every difference is recorded."""
    disagreements: list[Disagreement] = []
    values: dict[str, Any] = {}
    for name in CARD_FIELDS:
        pa = getattr(a, name) if a else None
        pb = getattr(b, name) if b else None
        values[name] = pa if pa is not None else pb
        if a and b and pa != pb and not (name == "name" and _same_name(pa, pb)):
            if pa is None:
                why = f"{PRIMARY} has no value; {SECONDARY}'s fills the gap"
            elif pb is None:
                why = f"{SECONDARY} has no value"
            else:
                why = f"{PRIMARY} is the primary source (see docs/data/import.md)"
            disagreements.append(Disagreement(unit_id, name, pa, pb, values[name], why))
    values["attacks"] = _merge_attacks(a, b, unit_id, disagreements)
    values["abilities"] = _merge_abilities(a, b, unit_id, disagreements)
    return values, disagreements


def _same_name(a: object, b: object) -> bool:
    """Names that differ only in spacing or punctuation are one name, not a disagreement."""
    return isinstance(a, str) and isinstance(b, str) and match_key(a) == match_key(b) and a.lower() == b.lower()


def _merge_attacks(a, b, unit_id, disagreements) -> dict[str, list[int | None]]:
    merged = {}
    for kind in ATTACK_KINDS:
        pa = a.attacks.get(kind) if a else None
        pb = b.attacks.get(kind) if b else None
        kept = pa if a else pb
        if a and b and pa != pb:
            why = f"{PRIMARY} is the primary source" if pa else f"{PRIMARY} shows no such attack; kept as none"
            disagreements.append(Disagreement(unit_id, f"attacks.{kind}", pa, pb, kept, why))
        if kept:
            merged[kind] = kept
    return merged


def _merge_abilities(a, b, unit_id, disagreements) -> list[str]:
    if not a:
        return list(b.abilities)
    if b and sorted(map(_ability_key, a.abilities)) != sorted(map(_ability_key, b.abilities)):
        disagreements.append(
            Disagreement(
                unit_id, "abilities", a.abilities, b.abilities, a.abilities, f"{PRIMARY} is the primary source"
            )
        )
    return list(a.abilities)


def build_cards(
    primary: list[SourceUnit],
    secondary: list[SourceUnit],
    existing_ids: dict[tuple[str | None, int | None], str] | None = None,
) -> ImportResult:
    """Match, merge and give ids. ``existing_ids`` maps (set, number) to the id already
    published, so that re-running the import never renames a unit."""
    existing_ids = existing_ids or {}
    result = ImportResult(cards=[])
    primary = [replace(u) for u in primary]
    secondary = [replace(u) for u in secondary]
    result.corrected = [(c.name, c, old) for _u, c, old in apply_corrections(primary + secondary)]
    taken: set[str] = set(existing_ids.values())
    for a, b, rule in sorted(match_units(primary, secondary), key=_pair_order):
        unit = a or b
        assert unit is not None, "match_units never pairs two blanks"
        if unit.set is None:
            result.excluded.append(Excluded(unit, f"set {unit.raw_set!r} is not an official set"))
            continue
        unit_id = existing_ids.get((unit.set, unit.number)) or unique_id(unit.name, unit.set, unit.number or 0, taken)
        taken.add(unit_id)
        values, disagreements = merge(a, b, unit_id)
        result.disagreements.extend(disagreements)
        if a and not b:
            result.only_primary.append(unit_id)
        elif b and not a:
            result.only_secondary.append(unit_id)
        else:
            result.matched_by[unit_id] = rule
        result.cards.append({"id": unit_id, **values})
    return result


def _pair_order(pair) -> tuple:
    unit = pair[0] or pair[1]
    return (unit.set or "~", unit.number or 0, unit.name)


def card_document(values: dict[str, Any]) -> dict[str, Any]:
    """Key order and omission of empty fields, as every unit file is written."""
    order = ("id",) + CARD_FIELDS + ("attacks", "abilities")
    doc = {k: values[k] for k in order if values.get(k) not in (None, [], {})}
    if doc.get("type") in ("fighter", "dive-bomber", "torpedo-bomber", "patrol-bomber"):
        doc.pop("speed", None)
    return doc


# --- report --------------------------------------------------------------------


def missing_numbers(cards: list[dict[str, Any]], totals: dict[str, int]) -> dict[str, list[int]]:
    present: dict[str, set[int]] = {}
    for card in cards:
        present.setdefault(card["set"], set()).add(card["number"])
    return {s: [n for n in range(1, total + 1) if n not in present.get(s, set())] for s, total in totals.items()}


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) if not isinstance(v, str) else v for v in value) + "]"
    return str(value).replace("|", "\\|")


def render_report(result: ImportResult, totals: dict[str, int]) -> str:
    cards = {c["id"]: c for c in result.cards}
    lines = [
        "# Import cross-check report",
        "",
        "Generated by `wastools import`; do not edit by hand. Re-run it to refresh.",
        "",
        f"- units written: {len(result.cards)}",
        f"- found in both sources: {len(result.matched_by)}",
        f"- only in {PRIMARY}: {len(result.only_primary)}",
        f"- only in {SECONDARY}: {len(result.only_secondary)}",
        f"- fields on which the sources disagree: {len(result.disagreements)}",
        f"- left out: {len(result.excluded)}",
        "",
        "Rule: where both sources give a value, the primary source's (`shinn16`) is kept; where it",
        "gives none, the other fills the gap. Each disagreement is listed so that a contributor",
        "holding the printed card can settle it by editing the unit file.",
        "",
    ]
    lines += ["## Matches not settled by set and number", ""]
    odd = [(uid, rule) for uid, rule in sorted(result.matched_by.items()) if rule != "set and number"]
    lines += [f"- `{uid}`: matched by {rule}" for uid, rule in odd] or ["- none"]
    for title, ids in ((f"Only in {PRIMARY}", result.only_primary), (f"Only in {SECONDARY}", result.only_secondary)):
        lines += ["", f"## {title}", ""]
        lines += [
            f"- `{uid}` {cards[uid]['name']} ({cards[uid]['set']} #{cards[uid]['number']})" for uid in sorted(ids)
        ] or ["- none"]
    lines += [
        "",
        "## Corrections to a source",
        "",
        "| source | unit as transcribed | field | was | now | evidence |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {c.source} | {name} | {c.field} | {_show(old)} | {_show(c.value)} | {c.reason} |"
        for name, c, old in result.corrected
    ]
    lines += ["", "## Left out", ""]
    lines += [f"- {e.unit.name} ({e.unit.source}): {e.reason}" for e in result.excluded] or ["- none"]
    lines += [
        "",
        "## Disagreements",
        "",
        f"| unit | field | {PRIMARY} | {SECONDARY} | kept | why |",
        "|---|---|---|---|---|---|",
    ]
    for d in sorted(result.disagreements, key=lambda d: (d.unit_id, d.field)):
        lines.append(
            f"| `{d.unit_id}` | {d.field} | {_show(d.primary)} | {_show(d.secondary)} | {_show(d.kept)} | {d.why} |"
        )
    lines += ["", "## Set numbers still missing", ""]
    for set_id, numbers in missing_numbers(result.cards, totals).items():
        lines.append(
            f"- {set_id} ({totals[set_id]} units): " + (", ".join(map(str, numbers)) if numbers else "complete")
        )
    return "\n".join(lines) + "\n"


# --- abilities catalogue -------------------------------------------------------


def catalogue(cards: list[dict[str, Any]], existing: dict[str, str | None]) -> list[dict[str, str]]:
    """Every ability pattern used by a card, keeping summaries already written."""
    patterns = {ability_pattern(a) for card in cards for a in card.get("abilities", [])}
    entries = []
    for pattern in sorted(patterns | set(existing), key=str.lower):
        entry = {"name": pattern}
        summary = existing.get(pattern)
        if summary:
            entry["summary"] = summary
        entries.append(entry)
    return entries


# --- disk ----------------------------------------------------------------------


def run_import(root: Path, shinn16: Path, roberteliason: Path, write_cards: bool = True) -> ImportResult:
    """Re-read both sources, rewrite ``cards/`` (keeping each unit's ``history``) and the
    cross-check report. With ``write_cards=False`` only the report is refreshed."""
    from ..core.repo_files import write_inside
    from ..data import repository, yamlio  # local: keeps the pure part importable alone

    existing = repository.existing_units(root)
    ids = {(d.get("set"), d.get("number")): d["id"] for d in existing.values() if "id" in d}
    result = build_cards(
        parse_shinn16(shinn16.read_text("utf-8")), parse_roberteliason(roberteliason.read_text("utf-8")), ids
    )
    totals = {s["id"]: s["total"] for s in repository.read_plain(root / "cards" / "sets.yaml")["sets"]}
    write_inside(root, root / "docs" / "data" / "import-report.md", render_report(result, totals))
    if not write_cards:
        return result
    for values in result.cards:
        doc = card_document(values)
        old = existing.get(doc["id"], {})
        if old.get("history"):
            doc["history"] = old["history"]
        path = root / "cards" / doc["nation"] / f"{doc['id']}.yaml"
        write_inside(root, path, yamlio.dump_canonical(repository.canonical_unit(doc), repository.SCHEMA_REFS["unit"]))
    abilities_file = root / "cards" / "abilities.yaml"
    known = {}
    if abilities_file.exists():
        known = {a["name"]: a.get("summary") for a in repository.read_plain(abilities_file)["abilities"]}
    entries = catalogue(result.cards, known)
    write_inside(
        root, abilities_file, yamlio.dump_canonical({"abilities": entries}, repository.SCHEMA_REFS["abilities"])
    )
    return result
