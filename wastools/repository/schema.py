"""Step 2: JSON Schema (Draft 2020-12) problems, located at the field and in plain words,
with a suggestion for every misspelt name or value."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator

from ..problems import Problem, format_field
from ..suggest import closest, did_you_mean
from ..yamlio import Document

SCHEMA_FILES = {
    "unit": "unit.schema.json",
    "sets": "sets.schema.json",
    "nations": "nations.schema.json",
    "abilities": "abilities.schema.json",
    "scenario": "scenario.schema.json",
}
# The `$schema=` reference each kind of file carries, relative to its usual folder.


# set while the schemas are known to be the ones a whole validation checked (see
# repository.incremental): checking a schema against the meta-schema is then skipped
_SCHEMAS_CHECKED: ContextVar[bool] = ContextVar("schemas_checked", default=False)


@contextmanager
def schemas_checked() -> Iterator[None]:
    """Within: the repository's schemas are unchanged since a whole validation checked them."""
    token = _SCHEMAS_CHECKED.set(True)
    try:
        yield
    finally:
        _SCHEMAS_CHECKED.reset(token)


@cache
def _validator(schema_path: str, check: bool = True) -> Draft202012Validator:
    schema = json.loads(Path(schema_path).read_text("utf-8"))
    if check:
        Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_validator(path: Path) -> Draft202012Validator:
    return _validator(str(path.resolve()))


def validator(root: Path, kind: str) -> Draft202012Validator:
    return _validator(str((root / "schemas" / SCHEMA_FILES[kind]).resolve()), not _SCHEMAS_CHECKED.get())


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
            Problem(
                doc.path,
                *doc.key_position(parts, key),
                format_field(parts + [key]),
                f"unknown field {key!r}{did_you_mean(str(key), allowed - set(error.instance))}",
            )
            for key in extra
        ]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        known = error.schema.get("properties", top_fields if not parts else None)  # a required list in if/then has none
        unknown = (
            [str(k) for k in error.instance if k not in known]
            if isinstance(known, dict) and isinstance(error.instance, dict)
            else []
        )
        if missing and closest(missing, unknown):
            return []  # a misspelt field: reported once, as an unknown field with this suggestion
        return [
            doc.problem(parts, "required field is missing")
            if not missing
            else Problem(doc.path, *doc.position(parts), format_field(parts + [missing]), "required field is missing")
        ]
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
        return (
            f"{error.instance!r} is not one of the allowed values{hint}"
            if hint
            else f"{error.instance!r} is not one of: " + ", ".join(map(str, error.validator_value))
        )
    if error.validator == "not" and isinstance(error.validator_value, dict) and "required" in error.validator_value:
        return "field is not allowed for this type of unit: " + ", ".join(error.validator_value["required"])
    return error.message
