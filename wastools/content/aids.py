"""Player aids: per variant, the sections and tables a player looks up.

The words are data, ``wastools/aids/<aid>.yaml`` (checked against ``aid.schema.json``): each
section's title, prose and the names of its tables; ``common.yaml`` holds the sections every
aid includes and the words the tool puts around them. The numbers in braces and the tables
come from the variant (``Variant.aid_parts``), from the same constants the cards use, so an aid
never disagrees with the cards. Each section keeps the rule document it comes from, named once
in the aid's colophon. ``render/aid.py`` lays the sections out with WeasyPrint.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..core.errors import WastoolsError
from ..core.model import Repository
from ..core.resources import PACKAGE
from ..core.wording import setting
from ..variants import SHIPPED, VARIANTS, Variant
from ..variants.aid import BASE, Section, Table, turns
from ..variants.fleet import victory_rules
from ..variants.house import changed_words

AIDS = PACKAGE / "aids"
AID_SCHEMA = AIDS / "aid.schema.json"
UNIT_WORDS = {"legs": "legs", "hexes": "hexes", "cm": "centimeters", "in": "inches"}
AID_ABILITIES_SECTION = "Abilities in full"  # where a card whose ability text did not fit sends players

__all__ = ["BASE", "Section", "Table", "aid", "colophon", "rules_colophon", "turns"]


class AidError(WastoolsError, ValueError):
    """An aid's words that do not match their schema, or name a number the variant does not give."""


@cache
def _words(path: Path) -> dict[str, Any]:
    """An aid file read and checked once per process."""
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from ruamel.yaml import YAML

    data = YAML(typ="safe", pure=True).load(path.read_text("utf-8"))
    schema = json.loads(AID_SCHEMA.read_text("utf-8"))
    checker = Draft202012Validator(schema, registry=Registry())  # an empty registry: nothing is fetched
    errors = sorted(checker.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(map(str, errors[0].absolute_path))
        raise AidError(f"{path.name}: {where}: {errors[0].message}")
    return data


def aid_file(variant: Variant) -> Path:
    """Where a variant's aid words are: its own ``aid`` (a house variant keeps its base's)."""
    if isinstance(variant.aid, Path):
        return variant.aid
    return AIDS / f"{variant.aid or variant.family}.yaml"


def _common() -> dict[str, Any]:
    return _words(AIDS / "common.yaml")


def _shared(name: str) -> dict[str, Any]:
    return next(s for s in _common()["sections"] if s.get("id") == name)


def _word(name: str) -> str:
    return _common()["words"][name]


def _fill(text: str, values: dict[str, Any], where: str) -> str:
    try:
        return text.format_map(values)
    except (KeyError, IndexError, ValueError) as exc:
        raise AidError(f"{where}: {text[:60]!r} names {exc} that the variant does not give") from None


def _section(
    entry: dict[str, Any], values: dict[str, Any], tables: dict[str, Table], sources: dict[str, str], where: str
) -> Section:
    lines = tuple(_fill(line, values, where) for line in entry.get("lines", ()))
    try:
        made = tuple(tables[name] for name in entry.get("tables", ()))
    except KeyError as exc:
        raise AidError(f"{where}: the table {exc} is not one the variant makes") from None
    return Section(_fill(entry["title"], values, where), sources[entry.get("from", "rules")], lines, made)


def variant_sections(variant: Variant, repo: Repository, params: dict) -> list[Section]:
    """The sections of the variant's own aid file, its numbers and tables filled in."""
    parts = variant.aid_parts(repo, params)
    tables = {k: v for k, v in parts.items() if isinstance(v, Table)}
    rules = victory_rules(variant, params)
    values = {k: setting(v) for k, v in params.items()} | {k: v for k, v in parts.items() if k not in tables}
    values |= {"objective_points": rules.objective_points, "win_points": rules.win_points, "claim": rules.claim}
    sources = {"rules": variant.seed, "base": BASE, "claim": rules.source, "none": ""}
    path = aid_file(variant)
    out = []
    for i, entry in enumerate(_words(path)["sections"]):
        where = f"{path.name}: section {i + 1}"
        if "include" in entry:
            shared = _shared(entry["include"])
            own = {"torpedoes": entry.get("torpedoes", _word("torpedoes"))}
            out.append(_section(shared, values | own, tables, sources, where))
        else:
            out.append(_section(entry, values, tables, sources, where))
    return out


def aid(
    name: str, repo: Repository, params: dict | None = None, moved: tuple[tuple[str, str], ...] = ()
) -> list[Section]:
    """The aid's sections; ``moved`` holds (ability, full text) of the abilities whose text
    did not fit on some card of the deck (the card says "see the player aid")."""
    variant = VARIANTS[name]
    params = params if params is not None else variant.defaults()
    own = house_rules(variant)
    return (
        own + variant_sections(variant, repo, params) + abilities_in_measure(variant, params) + abilities_in_full(moved)
    )


def house_rules(variant: Variant) -> list[Section]:
    """What a house variant is, in words: whose rules it follows and which settings it changes."""
    if not variant.base:
        return []
    base = SHIPPED[variant.base]
    changed = changed_words(variant, SHIPPED)
    values = {
        "title": variant.title,
        "base_title": base.title,
        "base_rules": base.seed,
        "how": _word("house_changes") if changed else _word("house_same"),
    }
    section = _section(_shared("house"), values, {}, {"base-variant": base.seed}, "common.yaml: house")
    lines = list(section.lines) + [f"{line[0].upper()}{line[1:]}." for line in changed]
    return [Section(section.title, section.source, tuple(lines))]


def abilities_in_measure(variant: Variant, params: dict) -> list[Section]:
    """How the cards read the base game's sector words and ranges in this variant's measure:
    the same table the cards were written with (the variant's ``measure``)."""
    if variant.measure_fn is None:
        return []
    scale = next((p for p in variant.parameters if p.name == variant.scale_parameter), None)
    if scale is not None and scale.choices:
        chosen = [dict(params, **{scale.name: c}) for c in scale.choices]
        scales = [(variant.measure(p).scale, p) for p in chosen]
    else:
        scales = [(_word("measure_read"), params)]
    tables = [variant.measure(p).table() for _label, p in scales]
    rows = tuple((said,) + tuple(t[i][1] for t in tables) for i, (said, _read) in enumerate(tables[0]))
    measure = variant.measure(params)
    values = {"unit_words": UNIT_WORDS[measure.unit]}
    after = [_word("measure_caption")] + ([_word("measure_per_weapon")] if measure.per_weapon else [])
    header = (_word("measure_said"),) + tuple(label for label, _p in scales)
    table = Table(header, rows, " ".join(after))
    section = _section(_shared("measure"), values, {}, {"rules": variant.seed}, "common.yaml: measure")
    return [Section(section.title, section.source, section.lines, (table,))]


def colophon(sections: list[Section]) -> str:
    """The rule documents an aid summarizes, named once, by their titles."""
    return rules_colophon([s.source for s in sections])


def rules_colophon(documents: list[str]) -> str:
    """'Made by wastools from “War at Sea: Playing Off the Grid”, with the base game's rules ...'."""
    named = [d for d in dict.fromkeys(documents) if d and d != BASE]
    if not named:
        return _word("colophon_base")
    titles = " and ".join(f"\u201c{d}\u201d" for d in named)
    return _fill(_word("colophon"), {"titles": titles}, "common.yaml: colophon")


def abilities_in_full(moved: tuple[tuple[str, str], ...]) -> list[Section]:
    if not moved:
        return []
    section = _section(_shared("abilities"), {}, {}, {"none": ""}, "common.yaml: abilities")
    table = Table((_word("abilities_header"), _word("abilities_text")), tuple((a, text) for a, text in moved))
    return [Section(section.title, section.source, section.lines, (table,))]
