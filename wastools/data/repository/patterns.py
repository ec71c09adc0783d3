"""A schema's regular expressions, matched as the untrusted data they are.

A pull request can change a schema, and Python's ``re`` (which python-jsonschema uses for
``pattern`` and ``patternProperties``) can take for ever on a pattern such as ``(a+)+$``
against a long value that almost matches. Here every such match goes through the
``regex`` package with a time limit; a match that runs out of time is a located problem
at the value, and after a few of them in one document its remaining matches are refused
without trying (``pattern_budget``), so the work on any file stays bounded.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import regex
from jsonschema import Draft202012Validator, ValidationError, validators

from ...core.errors import WastoolsError

MATCH_SECONDS = 0.25  # a real pattern answers in microseconds; this only stops the runaway ones
SLOW_MATCHES = 3  # timed-out matches in one document before its other matches are refused untried


@dataclass
class _Budget:
    slow: int = 0


_BUDGET: ContextVar[_Budget | None] = ContextVar("pattern_budget", default=None)


@contextmanager
def pattern_budget() -> Iterator[None]:
    """Within: one document's validation, whose timed-out matches are counted together."""
    token = _BUDGET.set(_Budget())
    try:
        yield
    finally:
        _BUDGET.reset(token)


class PatternRefused(WastoolsError):
    """A pattern that cannot be read, or that took too long on a value."""


@functools.lru_cache(maxsize=512)
def compiled(pattern: str) -> regex.Pattern | str:
    """The pattern compiled, or why it cannot be (as a message)."""
    try:
        return regex.compile(pattern)
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        return f"the schema's pattern {_shown(pattern)} cannot be read: {exc}"


def search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``; raises ``PatternRefused`` when it
    cannot be read or takes longer than ``MATCH_SECONDS``."""
    found = compiled(pattern)
    if isinstance(found, str):
        raise PatternRefused(found)
    budget = _BUDGET.get()
    slow = (
        f"the schema's pattern {_shown(pattern)} took more than {MATCH_SECONDS} s on this value "
        "(it backtracks without end): the schema must be fixed"
    )
    if budget is not None and budget.slow >= SLOW_MATCHES:
        raise PatternRefused(f"{slow}; not tried, after {SLOW_MATCHES} such patterns in this file")
    try:
        return found.search(text, timeout=MATCH_SECONDS) is not None
    except TimeoutError:
        if budget is not None:
            budget.slow += 1
        raise PatternRefused(slow) from None


def _shown(pattern: str) -> str:
    return repr(pattern) if len(pattern) <= 60 else repr(pattern[:60]) + "..."


# --- the keywords that match patterns, as python-jsonschema's but through ``search`` ------------


def _pattern(validator, pattern: str, instance: Any, schema: dict) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        matched = search(pattern, instance)
    except PatternRefused as exc:
        yield ValidationError(str(exc))
        return
    if not matched:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _matching_keys(pattern: str, instance: dict) -> tuple[list[str], list[ValidationError]]:
    keys, errors = [], []
    for key in instance:
        try:
            if search(pattern, key):
                keys.append(key)
        except PatternRefused as exc:
            errors.append(ValidationError(str(exc), path=[key]))
    return keys, errors


def _pattern_properties(validator, patterns: dict, instance: Any, schema: dict) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        keys, errors = _matching_keys(pattern, instance)
        yield from errors
        for key in keys:
            yield from validator.descend(instance[key], subschema, path=key, schema_path=pattern)


_ADDITIONAL = Draft202012Validator.VALIDATORS["additionalProperties"]


def _additional_properties(validator, additional: Any, instance: Any, schema: dict) -> Iterator[ValidationError]:
    """As jsonschema's, the keys that match a ``patternProperties`` pattern found through
    ``search`` (jsonschema's own looks them up with ``re``)."""
    patterns = schema.get("patternProperties")
    if not patterns or not validator.is_type(instance, "object"):
        yield from _ADDITIONAL(validator, additional, instance, schema)
        return
    matched: set[str] = set()
    for pattern in patterns:
        keys, errors = _matching_keys(pattern, instance)
        if errors:
            return  # reported by patternProperties, whose keywords sit beside this one
        matched.update(keys)
    extras = [k for k in instance if k not in schema.get("properties", {}) and k not in matched]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        joined = ", ".join(repr(each) for each in sorted(extras))
        yield ValidationError(f"{joined} not allowed: they match none of the patterns {', '.join(map(repr, patterns))}")


SafeValidator = validators.extend(
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties},
)


# --- at load: what the schema file itself must not hold ---------------------------------------

# keywords whose value is a mapping of names (or data), not of keywords: a "pattern" there is a name
_DATA = frozenset({"const", "enum", "default", "examples"})
_NOT_KEYWORDS = frozenset({"properties", "$defs", "definitions", "dependentSchemas"}) | _DATA


def _schemas_in(schema: Any) -> Iterator[tuple[list, dict]]:
    """(place, mapping) of every (sub)schema in a schema, iteratively; data values left out."""
    stack: list[tuple[Any, list]] = [(schema, [])]
    while stack:
        node, at = stack.pop()
        if at and at[-1] in _DATA:
            continue
        if isinstance(node, list):
            stack.extend((value, at + [i]) for i, value in enumerate(node))
        elif isinstance(node, dict):
            if not at or at[-1] not in _NOT_KEYWORDS:
                yield at, node
            stack.extend((value, at + [key]) for key, value in node.items())


def uses_pattern_properties(schema: Any) -> bool:
    return any(isinstance(node.get("patternProperties"), dict) for _at, node in _schemas_in(schema))


def pattern_problems(schema: Any, pattern_properties: bool) -> list[tuple[list, str]]:
    """(place, why) of every pattern in a schema that ``regex`` cannot compile, and, when a
    schema of the folder uses ``patternProperties`` (``pattern_properties``), of each
    ``unevaluatedProperties``: python-jsonschema matches those patterns for it with ``re``,
    without a time limit."""
    found: list[tuple[list, str]] = []
    for at, node in _schemas_in(schema):
        patterns = [(at + ["pattern"], node["pattern"])] if isinstance(node.get("pattern"), str) else []
        if isinstance(node.get("patternProperties"), dict):
            patterns += [(at + ["patternProperties", key], key) for key in node["patternProperties"]]
        for place, pattern in patterns:
            problem = compiled(pattern)
            if isinstance(problem, str):
                found.append((place, problem))
        if pattern_properties and "unevaluatedProperties" in node:
            why = "not allowed where a schema uses patternProperties: those patterns could not be timed for it"
            found.append((at + ["unevaluatedProperties"], why))
    return found
