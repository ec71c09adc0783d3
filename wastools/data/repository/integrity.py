"""Step 3: the checks a schema cannot express: file name = id, folder = nation, references
to the catalogues resolve, attacks allowed for the unit type, a reason for every missing
historical figure, unique ids and set numbers across files. One mistake, one error."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core import model
from ...core.abilities import ability_pattern, ability_regex
from ...core.problems import Problem, Severity
from ...core.suggest import closest, did_you_mean
from ..yamlio import Document
from .building import build_unit
from .files import LoadedFile
from .sources import weak_source_problems


class KnownUnits(dict):
    """The valid units, and the ids of unit files that have errors (reported in those files)."""

    broken: set[str] = set()


STAT_FIELDS = ("points", "speed", "armor", "vital_armor", "hull", "flagship", "carrier_capacity", "year")


def stat_field(text: str) -> str | None:
    """The unit field an ability's text names ('Flagship 1', 'Vital Armour 5'), or None."""
    words = re.sub(r"\s*\d+\s*$", "", text).strip().lower().replace("armour", "armor")
    name = re.sub(r"[\s-]+", "_", words)
    return name if name in STAT_FIELDS else None


@dataclass
class Context:
    sets: dict[str, model.CardSet]
    nations: dict[str, model.Nation]
    abilities: dict[str, model.AbilityInfo]
    ability_patterns: list[tuple[re.Pattern[str], str]]
    shapes: dict[str, list[tuple[re.Pattern[str], str]]] = field(default_factory=dict)  # see match_ability

    @classmethod
    def build(cls, catalogues: dict[str, LoadedFile]) -> Context:
        """The catalogues' entries whose fields have the types the model needs (the schema
        has reported any other, and ``INVALID`` stands in for its values)."""

        def entries(kind: str, key: str, fields: dict[str, type]) -> list[dict]:
            doc = catalogues[kind].doc
            given = doc.data.get(key) if doc else None
            return [
                e
                for e in (given if isinstance(given, list) else [])
                if isinstance(e, dict) and all(isinstance(e.get(f), t) for f, t in fields.items())
            ]

        sets = {
            e["id"]: model.CardSet(e["id"], e["name"], e["year"], e["total"])
            for e in entries("sets", "sets", {"id": str, "name": str, "year": int, "total": int})
        }
        nations = {
            e["id"]: model.Nation(e["id"], e["name"], e["side"])
            for e in entries("nations", "nations", {"id": str, "name": str, "side": str})
        }
        abilities = {
            e["name"]: model.AbilityInfo(e["name"], e.get("summary") if isinstance(e.get("summary"), str) else None)
            for e in entries("abilities", "abilities", {"name": str})
        }
        patterns = [(ability_regex(name), name) for name in abilities]
        return cls(sets, nations, abilities, patterns)

    def catalogue_problems(self, catalogues: dict[str, LoadedFile]) -> list[Problem]:
        problems = []
        for kind, key in (("sets", "sets"), ("nations", "nations"), ("abilities", "abilities")):
            doc = catalogues[kind].doc
            if doc is None:
                continue
            seen: dict[str, int] = {}
            id_key = "name" if kind == "abilities" else "id"
            for i, entry in enumerate(doc.data.get(key) or []):
                if isinstance(entry, dict) and isinstance(entry.get(id_key), str):
                    if entry[id_key] in seen:
                        problems.append(
                            doc.problem(
                                [key, i, id_key],
                                f"{entry[id_key]!r} is listed twice (first at item {seen[entry[id_key]]})",
                            )
                        )
                    seen.setdefault(entry[id_key], i)
        return problems

    def ability_hint(self, text: str) -> str:
        """Suggests a catalogue name, compared without its number: 'Extended Rang 5' ~ 'Extended Range {n}';
        or the unit's own field when the text names one ('Flagship 1' is ``flagship: 1``)."""
        stat = stat_field(text)
        if stat is not None:
            number = re.search(r"\d+\s*$", text)
            value = number[0].strip() if number else "N"
            return f" (it is the field {stat!r}, not an ability: write `{stat}: {value}`)"
        found = closest(ability_pattern(text), self.abilities)
        return " (did you mean " + " or ".join(repr(f.replace("{n}", "N")) for f in found) + "?)" if found else ""

    def match_ability(self, text: str) -> model.Ability | None:
        """The catalogue entry ``text`` is (the earliest listed, if more than one): only the
        entries of the same shape (words, with each run of numbers or ``{n}`` as one mark)
        are tried, so the work grows with the card's abilities, not the catalogue's length."""
        if not self.shapes and self.ability_patterns:  # made once, on first use
            for regex, pattern in self.ability_patterns:
                self.shapes.setdefault(_shape(pattern), []).append((regex, pattern))
        for regex, pattern in self.shapes.get(_shape(text), ()):
            found = regex.match(text)
            if found:
                return model.Ability(text, pattern, int(found.group(1)) if found.groups() else None)
        return None


_RUNS = re.compile(r"(?:\d|\{n\})+")


def _shape(text: str) -> str:
    """'Extended Range 5' and 'Extended Range {n}' -> 'Extended Range #'."""
    return _RUNS.sub("#", text)


def check_unit(loaded: LoadedFile, root: Path, ctx: Context, problems: list[Problem]) -> model.Unit | None:
    doc = loaded.doc
    if doc is None:
        return None
    data = doc.data
    if isinstance(data.get("id"), str) and loaded.path.stem != data["id"]:
        problems.append(doc.problem(["id"], f"id {data['id']!r} must equal the file name {loaded.path.stem!r}"))
    nation = data.get("nation")
    if isinstance(nation, str):
        reported = any(p.path == doc.path and p.field == "nation" for p in problems)  # by the schema
        if nation not in ctx.nations and not reported:
            problems.append(
                doc.problem(
                    ["nation"], f"nation {nation!r} is not in cards/nations.yaml{did_you_mean(nation, ctx.nations)}"
                )
            )
        if (
            nation in ctx.nations
            and loaded.path.parent.name != nation  # first: resolving paths is slow, a wrong folder rare
            and loaded.path.parent.parent.resolve() == (root / "cards").resolve()
        ):
            problems.append(
                doc.problem(["nation"], f"unit of nation {nation!r} is in folder cards/{loaded.path.parent.name}/")
            )
    card_set = ctx.sets.get(data.get("set")) if isinstance(data.get("set"), str) else None
    if isinstance(data.get("set"), str) and card_set is None:
        problems.append(
            doc.problem(["set"], f"set {data['set']!r} is not in cards/sets.yaml{did_you_mean(data['set'], ctx.sets)}")
        )
    if card_set and isinstance(data.get("number"), int) and data["number"] > card_set.total:
        problems.append(
            doc.problem(
                ["number"], f"number {data['number']} is above the {card_set.total} units of set {card_set.id!r}"
            )
        )
    abilities = []
    for i, text in enumerate(data.get("abilities") or []):
        if not isinstance(text, str):
            continue
        ability = ctx.match_ability(text)
        if ability is None:
            problems.append(
                doc.problem(
                    ["abilities", i], f"ability {text!r} is not in cards/abilities.yaml{ctx.ability_hint(text)}"
                )
            )
        else:
            abilities.append(ability)
    problems.extend(_type_problems(doc, data))
    problems.extend(_history_problems(doc, data))
    problems.extend(_name_problems(doc, data))
    if any(p.path == doc.path and p.is_error for p in problems):
        return None  # schema or integrity errors: no model object from this file
    try:
        return build_unit(data, abilities)
    except (KeyError, TypeError, ValueError):
        return None  # schema problems already reported


def _type_problems(doc: Document, data: dict) -> list[Problem]:
    unit_type = data.get("type")
    if unit_type not in model.AIRCRAFT_TYPES | model.SHIP_TYPES | {"submarine"}:
        return []
    cat = model.category(unit_type)
    problems = []
    attacks = _mapping(data.get("attacks"))
    for kind in attacks:
        if kind in model.ATTACK_KINDS and kind not in model.ALLOWED_ATTACKS[cat]:
            problems.append(doc.problem(["attacks", kind], f"a {unit_type} cannot have a {kind} attack"))
    if "carrier_capacity" in data and unit_type != "carrier":
        problems.append(doc.problem(["carrier_capacity"], f"only carriers have a capacity, not a {unit_type}"))
    if unit_type == "carrier" and "carrier_capacity" not in data:
        problems.append(doc.problem([], "a carrier needs carrier_capacity"))
    for kind, bands in attacks.items():
        if isinstance(bands, list) and len(bands) == 4 and all(b is None or isinstance(b, int) for b in bands):
            if not any(bands):
                problems.append(doc.problem(["attacks", kind], "no dice at any range: leave the attack out instead"))
    return problems


HULL_NUMBER = re.compile(r"\(([A-Z]{2,4})[- ]?(\d+)\)")
MARK = re.compile(r"\bMK\.? ?|\bMk ")


def _name_problems(doc: Document, data: dict) -> list[Problem]:
    """Names spelled as every card spells them: hull numbers '(DD 445)', marks 'Mk. II'. A
    warning, with the spelling to use: the name prints on the card, the id stays."""
    name = data.get("name")
    if not isinstance(name, str):
        return []
    wanted = HULL_NUMBER.sub(lambda m: f"({m.group(1)} {m.group(2)})", name)
    wanted = MARK.sub("Mk. ", wanted)
    if wanted == name:
        return []
    problem = doc.problem(
        ["name"], f"write {wanted!r}: hull numbers as '(DD 445)' and marks as 'Mk. II', as the cards do"
    )
    return [dataclasses.replace(problem, severity=Severity.WARNING)]


def _history_problems(doc: Document, data: dict) -> list[Problem]:
    history = data.get("history")
    unit_type = data.get("type")
    if not isinstance(unit_type, str) or unit_type not in model.AIRCRAFT_TYPES | model.SHIP_TYPES | {"submarine"}:
        return []
    aircraft = unit_type in model.AIRCRAFT_TYPES
    history = _mapping(history)
    problems = []
    speed = history.get("top_speed")
    if isinstance(speed, dict) and speed.get("unit") in ("kn", "mph"):
        expected = "mph" if aircraft else "kn"
        if speed["unit"] != expected:
            problems.append(
                doc.problem(["history", "top_speed", "unit"], f"top speed of a {unit_type} is given in {expected}")
            )
    if aircraft and "length" in history:
        problems.append(doc.problem(["history", "length"], "aircraft carry no length"))
    needed = ("top_speed",) if aircraft else ("top_speed", "length")
    missing = _mapping(history.get("missing"))
    for name in needed:
        where = doc.position(["history"] if "history" in data else [])
        if name not in history and not missing.get(name):
            problems.append(
                Problem(
                    doc.path,
                    *where,
                    f"history.{name}",
                    f"no figure and no reason: add it with its source, or say why under history.missing.{name}",
                )
            )
        elif name not in history:
            problems.append(
                Problem(
                    doc.path,
                    *where,
                    f"history.{name}",
                    f"missing ({missing[name]}); variants that need it use their documented fallback",
                    Severity.WARNING,
                )
            )
        elif name in missing:
            problems.append(doc.problem(["history", "missing", name], "figure is present: remove it from missing"))
    return problems + weak_source_problems(doc, history)


def _mapping(value: Any) -> dict:
    """A mapping field's value, or an empty one when the schema check has already reported it."""
    return value if isinstance(value, dict) else {}


def cross_unit_problems(units: list[LoadedFile]) -> list[Problem]:
    """Unique ids and set numbers, checked on every parsed file, even one with other
    errors. A clash is reported in each file involved, naming the others."""
    by_id: dict[str, list[tuple[LoadedFile, Document]]] = {}
    by_number: dict[tuple[str, int], list[tuple[LoadedFile, Document]]] = {}
    for loaded, doc in ((u, u.doc) for u in units if u.doc is not None):
        data = doc.data
        if isinstance(data.get("id"), str):
            by_id.setdefault(data["id"], []).append((loaded, doc))
        if isinstance(data.get("set"), str) and isinstance(data.get("number"), int):
            by_number.setdefault((data["set"], data["number"]), []).append((loaded, doc))
    problems = []
    for groups, field_name, describe in (
        (by_id, "id", lambda key, _n: f"duplicate id {key!r}"),
        (by_number, "number", lambda key, n: f"{key[0]} #{key[1]} is used {'twice' if n == 2 else f'{n} times'}"),
    ):
        for key, files in groups.items():
            names = sorted(f.shown_as for f, _doc in files)
            for loaded, doc in files if len(files) > 1 else ():
                message = f"{describe(key, len(files))}: also used by {_others(names, loaded)}"
                problems.append(doc.problem([field_name], message))
    return problems


NAMED_OTHERS = 3  # a clash names this many other files, and counts the rest


def _others(names: list[str], loaded: LoadedFile) -> str:
    """The other files of a clash (sorted ``names``): a few by name, the rest counted, so
    that a thousand files with one number do not each list the other 999."""
    others = [n for n in names[: NAMED_OTHERS + 1] if n != loaded.shown_as][:NAMED_OTHERS]
    rest = len(names) - 1 - len(others)
    return ", ".join(others) + (f" and {rest} more" if rest else "")
