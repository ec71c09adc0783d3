"""Load the data repository, validate it whole, and build the model.

Validation = JSON Schema (Draft 2020-12) per file + the integrity checks a schema
cannot express (unique ids, file name = id, folder = nation, references resolve,
set numbers unique and within the set's total, attacks allowed for the unit type).
Every problem is collected with its file, line and column; nothing stops at the first.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from ruamel.yaml.comments import CommentedMap

from . import model
from .abilities import ability_regex
from .problems import Problem, Severity, display_path, format_field
from .suggest import closest, did_you_mean
from .yamlio import DEFAULT_LIMITS, SCHEMA_LINE_PREFIX, Document, Limits, flow, load_document

SCHEMA_FILES = {
    "unit": "unit.schema.json",
    "sets": "sets.schema.json",
    "nations": "nations.schema.json",
    "abilities": "abilities.schema.json",
    "scenario": "scenario.schema.json",
}
# The `$schema=` reference each kind of file carries, relative to its usual folder.
SCHEMA_REFS = {
    "unit": "../../schemas/unit.schema.json",
    "sets": "../schemas/sets.schema.json",
    "nations": "../schemas/nations.schema.json",
    "abilities": "../schemas/abilities.schema.json",
    "scenario": "../schemas/scenario.schema.json",
}
CATALOGUE_FILES = {"sets.yaml": "sets", "nations.yaml": "nations", "abilities.yaml": "abilities"}

UNIT_KEY_ORDER = (
    "id", "name", "nation", "type", "set", "number", "rarity", "year", "points", "flagship",
    "speed", "carrier_capacity", "armor", "vital_armor", "hull", "attacks", "abilities", "history",
)
HISTORY_KEY_ORDER = ("class", "top_speed", "length", "missing", "note")
FIGURE_KEY_ORDER = ("value", "unit", "source", "note")


class RepositoryNotFound(Exception):
    pass


def find_root(start: Path) -> Path:
    """The data repository: the nearest folder at or above ``start`` with cards/ and schemas/."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "cards").is_dir() and (folder / "schemas").is_dir():
            return folder
    raise RepositoryNotFound(f"no data repository (a folder with cards/ and schemas/) at or above {start}")


@lru_cache(maxsize=None)
def _validator(schema_path: str) -> Draft202012Validator:
    schema = json.loads(Path(schema_path).read_text("utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_validator(path: Path) -> Draft202012Validator:
    return _validator(str(path.resolve()))


def validator(root: Path, kind: str) -> Draft202012Validator:
    return _validator(str((root / "schemas" / SCHEMA_FILES[kind]).resolve()))


# --- schema errors with positions -----------------------------------------------


def schema_problems(doc: Document, root: Path, kind: str) -> list[Problem]:
    problems = []
    checker = validator(root, kind)
    for error in checker.iter_errors(doc.data):
        problems.extend(_located(doc, error, checker.schema.get("properties", {})))
    return problems


def _located(doc: Document, error, top_fields: dict) -> list[Problem]:
    parts = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        return [
            Problem(doc.path, *doc.key_position(parts, key), format_field(parts + [key]),
                    f"unknown field {key!r}{did_you_mean(str(key), allowed - set(error.instance))}")
            for key in extra
        ]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        known = error.schema.get("properties", top_fields if not parts else None)  # a required list in if/then has none
        unknown = [str(k) for k in error.instance if k not in known] if isinstance(known, dict) and isinstance(error.instance, dict) else []
        if missing and closest(missing, unknown):
            return []  # a misspelt field: reported once, as an unknown field with this suggestion
        return [doc.problem(parts, "required field is missing") if not missing else
                Problem(doc.path, *doc.position(parts), format_field(parts + [missing]), "required field is missing")]
    return [doc.problem(parts, _message(error))]


def _message(error) -> str:
    if error.validator in ("anyOf", "oneOf") and error.context:
        types = [e.validator_value for e in error.context if e.validator == "type"]
        if len(types) == len(error.context):
            return f"{error.instance!r} is not of type " + " or ".join(repr(t) for t in types)
        specific = [e for e in error.context if e.validator != "type"]
        if specific:
            return specific[0].message
    if error.validator == "enum":
        hint = did_you_mean(str(error.instance), map(str, error.validator_value))
        return f"{error.instance!r} is not one of the allowed values{hint}" if hint else \
            f"{error.instance!r} is not one of: " + ", ".join(map(str, error.validator_value))
    if error.validator == "not" and isinstance(error.validator_value, dict) and "required" in error.validator_value:
        return "field is not allowed for this type of unit: " + ", ".join(error.validator_value["required"])
    return error.message


# --- files ----------------------------------------------------------------------


@dataclass
class LoadedFile:
    path: Path
    shown_as: str
    kind: str
    doc: Document | None


@dataclass
class Validation:
    """Everything one validation run found, plus the model when there were no errors."""

    problems: list[Problem] = field(default_factory=list)
    repository: model.Repository | None = None  # the model, when there is no error at all
    files_checked: int = 0
    usable: model.Repository | None = None  # the model without the scenarios that have errors
    blocked: list[str] = field(default_factory=list)  # scenario files left out of ``usable``

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]


def kind_of(path: Path, root: Path) -> str:
    if path.name in CATALOGUE_FILES and path.parent.name == "cards":
        return CATALOGUE_FILES[path.name]
    if path.parent.name == "scenarios":
        return "scenario"
    return "unit"


def unit_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "cards").glob("*/*.yaml"))


def plain_path(path: Path) -> Path:
    """Absolute and normalised, but with symbolic links left as they are (unlike resolve())."""
    return Path(os.path.normpath(path.absolute()))


def refusal(path: Path, root: Path) -> str | None:
    """Why a file inside the repository must not be opened: it, or a folder on its way, is a
    symbolic link, or its real path lies outside the repository. None for plain files (and for
    files named on the command line that lie outside the repository)."""
    base, here = plain_path(root), plain_path(path)
    try:
        parts = here.relative_to(base).parts
    except ValueError:
        return None
    current = base
    for part in parts:
        current = current / part
        if current.is_symlink():
            what = "file" if current == here else "folder"
            return f"this {what} is a symbolic link ({current.relative_to(base).as_posix()}): data must be plain files inside the repository; not opened"
    if not here.resolve().is_relative_to(base.resolve()):
        return "the real path of this file lies outside the repository; not opened"
    return None


def _load(path: Path, root: Path, kind: str, limits: Limits, problems: list[Problem]) -> LoadedFile:
    shown = display_path(path, root)
    reason = refusal(path, root)
    if reason:
        problems.append(Problem(shown, 1, 1, "", reason))
        return LoadedFile(path, shown, kind, None)
    doc, found = load_document(path, shown, limits)
    problems.extend(found)
    if doc is not None:
        problems.extend(_schema_line_problems(path, shown, _expected_ref(path, root, kind)))
        if not isinstance(doc.data, dict):
            problems.append(Problem(shown, 1, 1, "", "expected a mapping of fields at the top level"))
            doc = None
        else:
            problems.extend(schema_problems(doc, root, kind))
    return LoadedFile(path, shown, kind, doc)


def _expected_ref(path: Path, root: Path, kind: str) -> str | None:
    """The `$schema=` reference a file must carry: relative to its folder, inside the repository."""

    try:
        plain_path(path).relative_to(plain_path(root))
    except ValueError:
        return None  # a file outside the repository: any project schema name will do
    return Path(os.path.relpath(plain_path(root) / "schemas" / SCHEMA_FILES[kind], plain_path(path).parent)).as_posix()


def _schema_line_problems(path: Path, shown: str, expected: str | None) -> list[Problem]:
    with path.open("rb") as handle:
        first = handle.readline().decode("utf-8-sig", "replace").rstrip("\r\n")
    if not first.startswith(SCHEMA_LINE_PREFIX):
        return [Problem(shown, 1, 1, "", f"first line must be '{SCHEMA_LINE_PREFIX}...' so that editors check the file")]
    ref = first[len(SCHEMA_LINE_PREFIX):].strip()
    if expected is not None and ref != expected:
        return [Problem(shown, 1, len(SCHEMA_LINE_PREFIX) + 1, "$schema", f"must name {expected!r}, not {ref[:80]!r}")]
    if expected is None and not ref.endswith(".schema.json"):
        return [Problem(shown, 1, len(SCHEMA_LINE_PREFIX) + 1, "$schema", f"{ref[:80]!r} is not a project schema")]
    return []


def read_plain(path: Path) -> Any:
    """Trusted read of a project file (importer use); raises on any problem."""
    doc, problems = load_document(path, str(path))
    if problems:
        raise ValueError("\n".join(map(str, problems)))
    return doc.data


def existing_units(root: Path) -> dict[str, dict[str, Any]]:
    units = {}
    for path in unit_files(root):
        doc, problems = load_document(path, str(path))
        if doc is not None and isinstance(doc.data, dict) and "id" in doc.data:
            units[doc.data["id"]] = doc.data
    return units


# --- the whole repository ---------------------------------------------------------


def validate(root: Path, paths: Iterable[Path] | None = None, limits: Limits = DEFAULT_LIMITS) -> Validation:
    """Validate the repository at ``root``. With ``paths``, report only problems in those
    files (the rest of the repository is still read, so that cross-file checks work)."""
    problems: list[Problem] = []
    catalogues = {kind: _load(root / "cards" / name, root, kind, limits, problems) for name, kind in CATALOGUE_FILES.items()}
    extra = [plain_path(p) for p in (paths or [])]
    files = list(dict.fromkeys([plain_path(p) for p in unit_files(root)] + [p for p in extra if kind_of(p, root) == "unit"]))
    units = [_load(p, root, "unit", limits, problems) for p in files]
    context = _Context.build(catalogues)
    problems.extend(context.catalogue_problems(catalogues))
    repo_units: dict[str, model.Unit] = {}
    for loaded in units:
        unit = _check_unit(loaded, root, context, problems)
        if unit is not None:
            repo_units.setdefault(unit.id, unit)
    problems.extend(_cross_unit_problems(units))
    from . import scenarios  # scenarios build on the unit model

    known = scenarios.scenario_files(root)
    scenario_paths = known + [p for p in extra if kind_of(p, root) == "scenario" and p not in known]
    loaded_scenarios = [_load(p, root, "scenario", limits, problems) for p in dict.fromkeys(scenario_paths)]
    known_units = _KnownUnits(repo_units)
    known_units.broken = {u.path.stem for u in units} - set(repo_units)
    built_scenarios = scenarios.check_all(loaded_scenarios, known_units, problems)
    files += scenario_paths
    if paths is not None:
        wanted = {display_path(p, root) for p in extra}
        wanted_dirs = tuple(w.rstrip("/") + "/" for w in wanted)
        problems = [p for p in problems if p.path in wanted or p.path.startswith(wanted_dirs)]
    result = Validation(problems=sorted(set(problems)), files_checked=len(files) + len(catalogues))
    shown_scenarios = {display_path(p, root) for p in scenario_paths}
    bad_files = {p.path for p in problems if p.is_error}
    if paths is None and bad_files <= shown_scenarios:
        # errors only in scenarios: everything else is usable, each bad scenario blocks its own pack
        good = {sid: s for sid, s in built_scenarios.items() if display_path(root / "scenarios" / f"{sid}.yaml", root) not in bad_files}
        result.usable = model.Repository(
            units=dict(sorted(repo_units.items())),
            sets=context.sets,
            nations=context.nations,
            abilities=context.abilities,
            extra={"scenarios": good},
        )
        result.blocked = sorted(bad_files)
        if not bad_files:
            result.repository = result.usable
    return result


class _KnownUnits(dict):
    """The valid units, and the ids of unit files that have errors (reported in those files)."""

    broken: set[str] = set()


@dataclass
class _Context:
    sets: dict[str, model.CardSet]
    nations: dict[str, model.Nation]
    abilities: dict[str, model.AbilityInfo]
    ability_patterns: list[tuple[re.Pattern[str], str]]

    @classmethod
    def build(cls, catalogues: dict[str, LoadedFile]) -> "_Context":
        def entries(kind: str, key: str) -> list[dict]:
            doc = catalogues[kind].doc
            return [e for e in (doc.data.get(key, []) if doc else []) if isinstance(e, dict)]

        sets = {e["id"]: model.CardSet(e["id"], e["name"], e["year"], e["total"]) for e in entries("sets", "sets") if {"id", "name", "year", "total"} <= set(e)}
        nations = {e["id"]: model.Nation(e["id"], e["name"], e["side"]) for e in entries("nations", "nations") if {"id", "name", "side"} <= set(e)}
        abilities = {e["name"]: model.AbilityInfo(e["name"], e.get("summary")) for e in entries("abilities", "abilities") if "name" in e}
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
            for i, entry in enumerate(doc.data.get(key, [])):
                if isinstance(entry, dict) and id_key in entry:
                    if entry[id_key] in seen:
                        problems.append(doc.problem([key, i, id_key], f"{entry[id_key]!r} is listed twice (first at item {seen[entry[id_key]]})"))
                    seen.setdefault(entry[id_key], i)
        return problems

    def ability_hint(self, text: str) -> str:
        """Suggests a catalogue name, compared without its number: 'Extended Rang 5' ~ 'Extended Range {n}'."""
        from .abilities import ability_pattern

        found = closest(ability_pattern(text), self.abilities)
        return " (did you mean " + " or ".join(repr(f.replace("{n}", "N")) for f in found) + "?)" if found else ""

    def match_ability(self, text: str) -> model.Ability | None:
        for regex, pattern in self.ability_patterns:
            found = regex.match(text)
            if found:
                return model.Ability(text, pattern, int(found.group(1)) if found.groups() else None)
        return None


def _check_unit(loaded: LoadedFile, root: Path, ctx: _Context, problems: list[Problem]) -> model.Unit | None:
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
            problems.append(doc.problem(["nation"], f"nation {nation!r} is not in cards/nations.yaml{did_you_mean(nation, ctx.nations)}"))
        if nation in ctx.nations and loaded.path.parent.parent.resolve() == (root / "cards").resolve() and loaded.path.parent.name != nation:
            problems.append(doc.problem(["nation"], f"unit of nation {nation!r} is in folder cards/{loaded.path.parent.name}/"))
    card_set = ctx.sets.get(data.get("set")) if isinstance(data.get("set"), str) else None
    if isinstance(data.get("set"), str) and card_set is None:
        problems.append(doc.problem(["set"], f"set {data['set']!r} is not in cards/sets.yaml{did_you_mean(data['set'], ctx.sets)}"))
    if card_set and isinstance(data.get("number"), int) and data["number"] > card_set.total:
        problems.append(doc.problem(["number"], f"number {data['number']} is above the {card_set.total} units of set {card_set.id!r}"))
    abilities = []
    for i, text in enumerate(data.get("abilities") or []):
        if not isinstance(text, str):
            continue
        ability = ctx.match_ability(text)
        if ability is None:
            problems.append(doc.problem(["abilities", i], f"ability {text!r} is not in cards/abilities.yaml{ctx.ability_hint(text)}"))
        else:
            abilities.append(ability)
    problems.extend(_type_problems(doc, data))
    problems.extend(_history_problems(doc, data))
    if any(p.path == doc.path and p.is_error for p in problems):
        return None  # schema or integrity errors: no model object from this file
    try:
        return _build_unit(data, abilities)
    except (KeyError, TypeError, ValueError):
        return None  # schema problems already reported


def _type_problems(doc: Document, data: dict) -> list[Problem]:
    unit_type = data.get("type")
    if unit_type not in model.AIRCRAFT_TYPES | model.SHIP_TYPES | {"submarine"}:
        return []
    cat = model.category(unit_type)
    problems = []
    attacks = data.get("attacks") if isinstance(data.get("attacks"), dict) else {}
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


def _history_problems(doc: Document, data: dict) -> list[Problem]:
    history = data.get("history")
    unit_type = data.get("type")
    if not isinstance(unit_type, str) or unit_type not in model.AIRCRAFT_TYPES | model.SHIP_TYPES | {"submarine"}:
        return []
    aircraft = unit_type in model.AIRCRAFT_TYPES
    history = history if isinstance(history, dict) else {}
    problems = []
    speed = history.get("top_speed")
    if isinstance(speed, dict) and speed.get("unit") in ("kn", "mph"):
        expected = "mph" if aircraft else "kn"
        if speed["unit"] != expected:
            problems.append(doc.problem(["history", "top_speed", "unit"], f"top speed of a {unit_type} is given in {expected}"))
    if aircraft and "length" in history:
        problems.append(doc.problem(["history", "length"], "aircraft carry no length"))
    needed = ("top_speed",) if aircraft else ("top_speed", "length")
    missing = history.get("missing") if isinstance(history.get("missing"), dict) else {}
    for name in needed:
        where = doc.position(["history"] if "history" in data else [])
        if name not in history and not missing.get(name):
            problems.append(Problem(doc.path, *where, f"history.{name}",
                                    f"no figure and no reason: add it with its source, or say why under history.missing.{name}"))
        elif name not in history:
            problems.append(Problem(doc.path, *where, f"history.{name}",
                                    f"missing ({missing[name]}); variants that need it use their documented fallback", Severity.WARNING))
        elif name in missing:
            problems.append(doc.problem(["history", "missing", name], "figure is present: remove it from missing"))
    return problems


def _build_unit(data: dict, abilities: list[model.Ability]) -> model.Unit:
    attacks = tuple(
        model.Attack(kind, tuple(data["attacks"][kind]))  # type: ignore[arg-type]
        for kind in model.ATTACK_KINDS
        if kind in (data.get("attacks") or {})
    )
    return model.Unit(
        id=data["id"], name=data["name"], nation=data["nation"], type=data["type"], set=data["set"],
        number=data["number"], rarity=data["rarity"], year=data["year"], points=data["points"],
        armor=data["armor"], vital_armor=data["vital_armor"], hull=data["hull"], speed=data.get("speed"),
        flagship=data.get("flagship"), carrier_capacity=data.get("carrier_capacity"), attacks=attacks,
        abilities=tuple(abilities), history=_build_history(data.get("history") or {}),
    )


def _build_history(h: dict) -> model.History:
    def figure(d: dict | None) -> model.Figure | None:
        return model.Figure(float(d["value"]), d["unit"], d["source"], d.get("note")) if d else None

    return model.History(h.get("class"), figure(h.get("top_speed")), figure(h.get("length")), tuple(sorted((h.get("missing") or {}).items())))


def _cross_unit_problems(units: list[LoadedFile]) -> list[Problem]:
    """Unique ids and set numbers, checked on every parsed file, even one with other
    errors. A clash is reported in each file involved, naming the others."""
    by_id: dict[str, list[LoadedFile]] = {}
    by_number: dict[tuple[str, int], list[LoadedFile]] = {}
    for loaded in (u for u in units if u.doc is not None):
        data = loaded.doc.data
        if isinstance(data.get("id"), str):
            by_id.setdefault(data["id"], []).append(loaded)
        if isinstance(data.get("set"), str) and isinstance(data.get("number"), int):
            by_number.setdefault((data["set"], data["number"]), []).append(loaded)
    problems = []
    for groups, field_name, describe in (
        (by_id, "id", lambda key: f"duplicate id {key!r}"),
        (by_number, "number", lambda key: f"{key[0]} #{key[1]} is used twice"),
    ):
        for key, files in groups.items():
            for loaded in files if len(files) > 1 else ():
                others = ", ".join(sorted(f.shown_as for f in files if f is not loaded))
                problems.append(loaded.doc.problem([field_name], f"{describe(key)}: also used by {others}"))
    return problems


# --- canonical layout -----------------------------------------------------------------


def _ordered(data: dict, order: tuple[str, ...]) -> CommentedMap:
    out = CommentedMap()
    for key in order:
        if key in data:
            out[key] = data[key]
    for key in data:  # unknown keys keep their place at the end: validate reports them
        if key not in out:
            out[key] = data[key]
    return out


def canonical_unit(data: dict) -> CommentedMap:
    """Key order and flow style of a unit file; keeps comments when given a round-trip map."""
    out = _ordered(data, UNIT_KEY_ORDER)
    _copy_comments(data, out)
    if isinstance(out.get("attacks"), dict):
        attacks = _ordered(out["attacks"], model.ATTACK_KINDS)
        _copy_comments(out["attacks"], attacks)
        for kind, bands in list(attacks.items()):
            if isinstance(bands, list):
                attacks[kind] = flow(list(bands))
        out["attacks"] = attacks
    if isinstance(out.get("history"), dict):
        history = _ordered(out["history"], HISTORY_KEY_ORDER)
        _copy_comments(out["history"], history)
        for key in ("top_speed", "length"):
            if isinstance(history.get(key), dict):
                fig = _ordered(history[key], FIGURE_KEY_ORDER)
                _copy_comments(history[key], fig)
                history[key] = fig
        out["history"] = history
    return out


def _copy_comments(source: Any, target: CommentedMap) -> None:
    if isinstance(source, CommentedMap):
        for key, value in source.ca.items.items():
            if key in target:
                target.ca.items[key] = value
        if source.ca.comment:
            target.ca.comment = source.ca.comment
