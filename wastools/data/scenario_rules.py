"""A scenario's forces and words against its history and its variant: checks beyond the units.

- a warship card used more than once names whom every other copy stands in for (the same ship
  is never on the table twice);
- a garrison only where the other side can land: it brings a unit with a Landing ability;
- sides whose points differ by more than ``BALANCE_SHARE`` of the limit say why (``balance``);
- on a table or a hex grid the words players read speak the variant's measure: no "sector",
  "local", "adjacent" or "range band", which only a sector map has, and no "range 2" without
  its distance (the words the print lint refuses, ``wording.lint``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..core import model, wording
from ..core.problems import Problem

NAMED = ("battleship", "carrier", "cruiser", "destroyer", "submarine")  # cards of one ship each
LANDING = ("Landing {n}", "Beach Landing {n}")
BALANCE_SHARE = 0.1  # of the points limit: a wider gap between the sides needs a word on balance
# the words the print lint refuses off a sector map (``wording.lint``), and "range band"
GRID_WORDS = re.compile(r"(?i)\brange bands?\b|" + wording.SECTOR_WORDS.removeprefix("(?i)"))
BARE_RANGE = re.compile(wording.BARE_RANGE)


UNIT_WORDS = {"in": "inches", "cm": "centimeters"}


def check(doc, data: dict[str, Any], units: dict[str, model.Unit], measure: str, found: list[Problem]) -> None:
    """Every rule of this module on a scenario whose fields have their types; ``measure``: the
    unit its variant measures distances in (``Variant.distance_unit``: sectors, hexes, legs, in, cm)."""
    _same_ship_twice(doc, data, units, found)
    _garrisons_need_invaders(doc, data, units, found)
    if measure != "sectors":
        _grid_words(doc, data, UNIT_WORDS.get(measure, measure), found)


def _entries(data: dict[str, Any]) -> Iterator[tuple[list, dict]]:
    for i, side in enumerate(data.get("sides") or []):
        if isinstance(side, dict):
            for j, entry in enumerate(side.get("forces") or []):
                if isinstance(entry, dict):
                    yield ["sides", i, "forces", j], entry


def _count(entry: dict) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) else 1


def _unit(entry: dict, units: dict[str, model.Unit]) -> model.Unit | None:
    name = entry.get("unit")
    return units.get(name) if isinstance(name, str) else None


def _same_ship_twice(doc, data: dict[str, Any], units: dict[str, model.Unit], found: list[Problem]) -> None:
    """A warship's card fields the ship itself once; every other copy stands in for a named
    ship (``stands_for``): two HMS Cossacks without it are one ship twice."""
    plain: dict[str, int] = {}
    for parts, entry in _entries(data):
        unit = _unit(entry, units)
        if unit is None or unit.type not in NAMED or entry.get("stands_for"):
            continue
        seen = plain.get(unit.id, 0)
        plain[unit.id] = seen + _count(entry)
        if seen + _count(entry) > 1:
            where = parts + (["count"] if seen == 0 else ["unit"])
            found.append(
                doc.problem(
                    where,
                    f"{unit.name} is on the table {seen + _count(entry)} times: a ship is there once; give every "
                    "other copy its own entry with stands_for, the ship it stands in for",
                )
            )


def _invaders(data: dict[str, Any], units: dict[str, model.Unit]) -> dict[str, list[str]]:
    """Each side's units that can land troops, by side id."""
    out: dict[str, list[str]] = {}
    for i, side in enumerate(data.get("sides") or []):
        if not isinstance(side, dict):
            continue
        found = out.setdefault(str(side.get("side")), [])
        for parts, entry in _entries(data):
            unit = _unit(entry, units)
            if parts[1] == i and unit is not None and any(unit.has_ability(a) for a in LANDING):
                found.append(unit.name)
    return out


def _garrisons_need_invaders(doc, data: dict[str, Any], units: dict[str, model.Unit], found: list[Problem]) -> None:
    """A garrison is taken only by troops landed from transports: one that no enemy can invade
    plays no part (and its card misleads)."""
    invaders = _invaders(data, units)
    for i, garrison in enumerate(data.get("garrisons") or []):
        if not isinstance(garrison, dict) or garrison.get("side") not in invaders:
            continue
        enemies = [units for side, units in invaders.items() if side != garrison["side"]]
        if not any(enemies):
            found.append(
                doc.problem(
                    ["garrisons", i],
                    f"{garrison.get('name')}: no enemy unit can invade it (none has a Landing ability): "
                    "a garrison is there only to be invaded, so leave it out or give the other side a transport",
                )
            )


def balance_problem(doc, data: dict[str, Any], points: list[int]) -> Problem | None:
    """Sides far apart in points (``BALANCE_SHARE`` of the limit) with no ``balance`` to say why."""
    limit = data.get("points_limit")
    if len(points) != 2 or not isinstance(limit, int) or data.get("balance"):
        return None
    gap = abs(points[0] - points[1])
    if gap <= BALANCE_SHARE * limit:
        return None
    return doc.problem(
        ["sides"],
        f"the sides have {points[0]} and {points[1]} points, {gap} apart (more than "
        f"{round(BALANCE_SHARE * 100)} % of the limit of {limit}): say in balance why the game is even, "
        "or what each side must do to win",
    )


def _prose(data: dict[str, Any]) -> Iterator[tuple[list, str]]:
    """The texts a player reads as rules: briefings, victory, optional rules and balance."""
    for key in ("briefing", "balance"):
        if isinstance(data.get(key), str):
            yield [key], data[key]
    for i, side in enumerate(data.get("sides") or []):
        if isinstance(side, dict) and isinstance(side.get("briefing"), str):
            yield ["sides", i, "briefing"], side["briefing"]
    for key in ("victory", "optional_rules"):
        for i, text in enumerate(data.get(key) or []):
            if isinstance(text, str):
                yield [key, i], text


def _grid_words(doc, data: dict[str, Any], unit: str, found: list[Problem]) -> None:
    """Words of the sector map ("sector", "range band") on a board without sectors: a player
    has nothing to count them on."""
    for parts, text in _prose(data):
        if match := GRID_WORDS.search(text):
            found.append(
                doc.problem(
                    parts,
                    f"{match.group(0)!r} is a word of the sector map, and this variant measures in {unit}: "
                    f"give the distance in {unit}",
                )
            )
        elif match := BARE_RANGE.search(text):
            found.append(doc.problem(parts, f"{match.group(0)!r} without its distance: give the distance in {unit}"))
