"""A group's own variants, named in ``wastools.toml``:

    [variants.six-inch-sectors]
    base = "tabletop-inches"           # the shipped variant whose rules it follows
    title = "Tabletop, 6 inch sectors" # the name every output gives it
    description = "Our club's table."  # optional
    sector_in = 6                      # any of the base's settings (`wastools variants` lists them)

Each becomes a variant like the shipped six (``variants/house.py``): its own folder under
``build/``, its own site pages and fleet-builder deck. Every problem names the file, its line
and the setting, with the closest valid names.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.problems import Problem
from ..core.safe_text import bad_characters
from ..core.suggest import did_you_mean
from ..variants import SHIPPED, ParameterError, Variant
from ..variants.house import MAX_DESCRIPTION, MAX_TITLE, base_of, check_id, house_variant, parameter_of, typed

SECTION = "variants"
FIELDS = ("base", "title", "description")
MAX_HOUSE = 20  # house variants one settings file may name (each adds a kit and a site deck)


def from_table(text: str, table: Any, shown: str) -> tuple[list[Variant], list[Problem]]:
    """The house variants of a settings file's ``[variants]`` table, and every problem in it."""
    problems: list[Problem] = []
    if not isinstance(table, dict):
        return [], [Problem(shown, _line(text, SECTION), 1, SECTION, "expected tables: [variants.<id>]")]
    made: list[Variant] = []
    for name, entry in table.items():
        if len(made) >= MAX_HOUSE:
            problems.append(Problem(shown, _line(text, name), 1, SECTION, f"at most {MAX_HOUSE} house variants"))
            break
        variant = _one(text, str(name), entry, shown, problems)
        if variant is not None:
            made.append(variant)
    return made, problems


def _one(text: str, name: str, entry: Any, shown: str, problems: list[Problem]) -> Variant | None:
    header = _line(text, name)
    where = f"{SECTION}.{name}"

    def problem(key: str, message: str) -> None:
        line = _key_line(text, header, key) if key else header
        problems.append(Problem(shown, line, 1, f"{where}.{key}" if key else where, message))

    before = len(problems)
    try:
        check_id(name, SHIPPED)
    except ParameterError as exc:
        problem("", str(exc))
    if not isinstance(entry, dict):
        problem("", "expected a table of settings: base, title and the values it changes")
        return None
    base: Variant | None = None
    try:
        base = base_of(entry.get("base"), SHIPPED)
    except ParameterError as exc:
        problem("base", str(exc) if "base" in entry else "needs base = one of " + ", ".join(SHIPPED))
    title = _text_field(entry, "title", MAX_TITLE, problem, required=True)
    description = _text_field(entry, "description", MAX_DESCRIPTION, problem)
    values = {}
    for key, value in entry.items():
        if key in FIELDS or base is None:  # a setting is checked against its base's
            continue
        try:
            values[key] = typed(parameter_of(base, str(key)), value)
        except ParameterError as exc:
            problem(str(key), str(exc) + (did_you_mean(str(key), FIELDS) if str(key) not in values else ""))
    if len(problems) > before or base is None:
        return None
    return house_variant(name, base, title, values, description, f"{shown}:{header}")


def _text_field(entry: dict, key: str, longest: int, problem, required: bool = False) -> str:
    value = entry.get(key)
    if value is None:
        if required:
            problem("", f"needs {key} = the name players read (at most {longest} characters)")
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > longest or "\n" in value:
        problem(key, f"expected text of 1 to {longest} characters on one line")
        return ""
    bad = next(iter(bad_characters(value)), None)
    if bad is not None:
        problem(key, f"{bad[1]}: remove it")
        return ""
    return value.strip()


def _line(text: str, name: str) -> int:
    """The line of ``[variants.<name>]`` (or of the first mention of ``name``)."""
    pattern = re.compile(r"^[ \t]*\[\s*" + SECTION + r"\s*\.\s*[\"']?" + re.escape(name) + r"[\"']?\s*\]", re.M)
    found = pattern.search(text) or re.search(re.escape(name), text)
    return text.count("\n", 0, found.start()) + 1 if found else 1


def _key_line(text: str, header: int, key: str) -> int:
    """The line of ``key = ...`` in the table that starts on line ``header``."""
    lines = text.split("\n")
    for number in range(header, len(lines)):
        line = lines[number].strip()
        if line.startswith("["):
            break
        if re.match(r"[\"']?" + re.escape(key) + r"[\"']?\s*=", line):
            return number + 1
    return header
