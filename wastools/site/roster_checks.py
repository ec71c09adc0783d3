"""What the roster code relies on, checked by the code whatever the roster schema says.

The schema is data a pull request can change (or empty): it gives the friendly, located
messages, but the code reads ``name``, ``variant``, ``points_limit`` and each unit's ``unit``
and ``count`` only after these checks have passed, so a schema that allows anything still
ends in located problems, never a ``KeyError``. The name holds only what the fleet builder
writes (``safe_text.bad_name_character``).
"""

from __future__ import annotations

from typing import Any

from ..core.problems import Problem, format_field
from ..core.safe_text import bad_name_character
from ..core.suggest import unknown
from ..data.yamlio import Document
from ..variants import VARIANTS

REQUIRED = ("name", "variant", "points_limit", "units")
NAME_MAX = 80  # characters (code points), as the fleet builder cuts a name
LIMIT_MAX = 10000
COUNT_MAX = 99


def field_problems(doc: Document, max_items: int) -> list[Problem]:
    """Every problem of the fields the code reads (``doc.data`` is a mapping)."""
    data: dict = doc.data
    problems = [
        Problem(doc.path, *doc.position([]), name, "required field is missing") for name in REQUIRED if name not in data
    ]
    checks = {"name": name_problem, "variant": _variant, "points_limit": limit_problem}
    for name, check in checks.items():
        message = check(data[name]) if name in data else None
        if message:
            problems.append(doc.problem([name], message))
    if "units" in data:
        problems += _units(doc, data["units"], max_items)
    return problems


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def name_problem(value: Any) -> str | None:
    """What is wrong with a fleet's name, or None (also for a name read from a fleet text)."""
    if not isinstance(value, str):
        return "expected the fleet's name, as text"
    if not value.strip():
        return "the fleet's name is empty"
    if len(value) > NAME_MAX:
        return f"{len(value)} characters is longer than a fleet's name may be ({NAME_MAX})"
    found = bad_name_character(value)
    return f"holds {found[1]} at character {found[0] + 1}: remove it" if found else None


def _variant(value: Any) -> str | None:
    if isinstance(value, str) and value in VARIANTS:
        return None
    return unknown("variant", str(value), VARIANTS) if isinstance(value, str) else "expected a variant's name"


def limit_problem(value: Any) -> str | None:
    """What is wrong with a points limit, or None."""
    if _whole(value) and 1 <= value <= LIMIT_MAX:
        return None
    return f"expected a whole number of points from 1 to {LIMIT_MAX}"


def _units(doc: Document, value: Any, max_items: int) -> list[Problem]:
    if not isinstance(value, list) or not value:
        return [doc.problem(["units"], "expected a list of the fleet's units (one at least)")]
    problems = []
    if len(value) > max_items:
        problems.append(doc.problem(["units"], f"{len(value)} entries is more than a roster may list ({max_items})"))
    for i, item in enumerate(value):
        problems += _unit(doc, i, item)
    return problems


def _unit(doc: Document, i: int, item: Any) -> list[Problem]:
    at = ["units", i]
    if not isinstance(item, dict):
        return [doc.problem(at, "expected a unit and its count (unit: ID, count: N)")]
    problems = []
    if "unit" not in item:
        problems.append(Problem(doc.path, *doc.position(at), format_field([*at, "unit"]), "required field is missing"))
    elif not isinstance(item["unit"], str) or not item["unit"]:
        problems.append(doc.problem([*at, "unit"], "expected a unit id"))
    count = item.get("count", 1)
    if not (_whole(count) and 1 <= count <= COUNT_MAX):
        problems.append(doc.problem([*at, "count"], f"expected a whole number of cards from 1 to {COUNT_MAX}"))
    return problems
