"""Step 2: JSON Schema (Draft 2020-12) problems, located at the field and in plain words,
with a suggestion for every misspelt name or value."""

from __future__ import annotations

import reprlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing.exceptions import Unresolvable

from ...core.problems import DataError, Problem, format_field
from ...core.suggest import closest, did_you_mean
from ..yamlio import DEFAULT_LIMITS, Document, Limits, mark_invalid
from .patterns import pattern_budget
from .schema_files import Schemas, load_schemas

SCHEMA_FILES = {
    "unit": "unit.schema.json",
    "sets": "sets.schema.json",
    "nations": "nations.schema.json",
    "abilities": "abilities.schema.json",
    "scenario": "scenario.schema.json",
}
# The `$schema=` reference each kind of file carries, relative to its usual folder.

# the schema keywords that judge a value itself (not which fields its parent has): a value
# one of them refuses is taken out of the data that later checks read
VALUE_CHECKS = {
    "type", "enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
    "contains", "minProperties", "maxProperties", "propertyNames", "anyOf", "oneOf", "allOf",
}  # fmt: skip


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


def schemas(root: Path, limits: Limits = DEFAULT_LIMITS) -> Schemas:
    """The repository's schemas, checked against the meta-schema unless a whole validation
    has just done so (``schemas_checked``)."""
    return load_schemas(root, limits, check=not _SCHEMAS_CHECKED.get())


def schema_validator(path: Path) -> Draft202012Validator:
    """The validator of one of the tool's own schemas (a file in the package); raises
    ``DataError`` when it cannot be used."""
    found = load_schemas(path.parent, folder=path.parent)
    checker = found.validator(path.name)
    if checker is None:
        raise DataError(found.problems or [Problem(str(path), 1, 1, "", "no such schema")])
    return checker


def validator(root: Path, kind: str) -> Draft202012Validator:
    """The validator of a kind of data file; raises ``DataError`` when its schema cannot be used."""
    return named_validator(root, SCHEMA_FILES[kind])


def named_validator(root: Path, name: str, limits: Limits = DEFAULT_LIMITS) -> Draft202012Validator:
    found = schemas(root, limits)
    checker = found.validator(name)
    if checker is None:
        problems = [p for p in found.problems if p.path.endswith(name)]
        raise DataError(problems or [Problem(found.shown(name, root), 1, 1, "", "no such schema in schemas/")])
    return checker


def schema_problems(doc: Document, root: Path, kind: str, limits: Limits = DEFAULT_LIMITS) -> list[Problem] | None:
    """The schema's problems with ``doc``; None when the schema cannot be used (its own
    problems are reported in its file, by ``repository.validate``)."""
    return document_problems(doc, root, SCHEMA_FILES[kind], limits)


def document_problems(doc: Document, root: Path, name: str, limits: Limits = DEFAULT_LIMITS) -> list[Problem] | None:
    try:
        checker = named_validator(root, name, limits)
    except DataError:
        return None
    problems = []
    refused: list[tuple] = []
    try:
        with pattern_budget():  # the timed-out matches of one document counted together
            for error in checker.iter_errors(doc.data):
                problems.extend(_located(doc, error, checker.schema.get("properties", {})))
                if error.validator in VALUE_CHECKS and error.absolute_path:
                    refused.append(tuple(error.absolute_path))
    except (Unresolvable, ValueError, TypeError, RecursionError) as exc:
        # the schema passed its checks but cannot be applied (a reference that loops, say)
        shown = schemas(root, limits).shown(name, root)
        return [Problem(shown, 1, 1, "", f"this schema cannot be applied to {doc.path}: {_short(str(exc))}")]
    mark_invalid(doc.data, refused)  # the checks after the schema's see only the values it passed
    return problems


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:200] + " [...]"


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
    if _not_allowed(error):
        return [
            Problem(doc.path, *doc.key_position(parts, key), format_field(parts + [key]), NOT_ALLOWED)
            for key in error.validator_value["required"]
            if key in error.instance
        ]
    return [doc.problem(parts, message_of(error))]


NOT_ALLOWED = "field is not allowed for this type of unit"


def _not_allowed(error) -> bool:
    """A ``not: {required: [...]}`` error: fields the value may not hold (by its type)."""
    value = error.validator_value
    return (
        error.validator == "not"
        and isinstance(value, dict)
        and isinstance(value.get("required"), list)
        and isinstance(error.instance, dict)
        and any(key in error.instance for key in value["required"])
    )


PLACEHOLDER = "replace me"  # what `wastools new unit` writes for each value only the printed card can give


def message_of(error) -> str:
    """A jsonschema error in words, the value it names cut short."""
    if error.instance == PLACEHOLDER:
        return "a placeholder from `wastools new unit`: write the printed card's value"
    shown = shown_value(error.instance)
    if error.validator in ("anyOf", "oneOf") and error.context:
        types = [e.validator_value for e in error.context if e.validator == "type"]
        if len(types) == len(error.context):
            return f"{shown} is not of type " + " or ".join(repr(t) for t in types)
        specific = [e for e in error.context if e.validator != "type"]
        if specific:
            return _with_value(specific[0].message, specific[0].instance)
    if error.validator == "enum":
        named = isinstance(error.instance, str) and len(error.instance) <= 80
        hint = did_you_mean(error.instance, map(str, error.validator_value)) if named else ""
        return (
            f"{shown} is not one of the allowed values{hint}"
            if hint
            else f"{shown} is not one of: " + ", ".join(map(str, error.validator_value))
        )
    if error.validator == "not" and isinstance(error.validator_value, dict) and "required" in error.validator_value:
        return f"{NOT_ALLOWED}: " + ", ".join(map(str, error.validator_value["required"]))
    return _with_value(error.message, error.instance)


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 60, 60, 4, 4, 2


def shown_value(value: object) -> str:
    """A value as a message quotes it: in full when short, else its beginning (a value can be
    a whole document, or a hundred thousand values an alias stands for)."""
    return _SHORT.repr(value)


def _with_value(message: str, value: object) -> str:
    """jsonschema's message with the value it quotes cut short."""
    full = repr(value)
    return message.replace(full, shown_value(value)) if len(full) > 60 else message
