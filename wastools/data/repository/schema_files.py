"""The repository's JSON Schemas, read as the untrusted data they are: a pull request can
change them as easily as a unit file.

- Only plain files in ``schemas/`` are read (no link, no pipe, nothing over
  ``max_file_bytes``), with the same characters, nesting and numbers allowed as in YAML.
- A file that is not JSON, or not a Draft 2020-12 schema, is a located problem in that
  file (line and column), never a traceback.
- A ``$ref`` resolves only to the schemas in ``schemas/`` (by file name, or by the ``$id``
  they declare) and the JSON Schema meta-schemas that come with the validator: the registry's
  ``retrieve`` refuses everything else, so no address (``http:``, ``file:``, a path) is ever
  fetched. A ``$ref`` that resolves to nothing is a located problem in the schema.
- A pattern is matched with a time limit, never with ``re`` (``patterns``); one that cannot
  be compiled is a located problem in the schema.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from ...core.data_paths import plain_path, refusal
from ...core.errors import WastoolsError
from ...core.problems import Problem, display_path, format_field
from ...core.safe_text import NOT_FINITE, bad_characters, text_problem
from ..yaml_compose import MAX_NUMBER_CHARS
from ..yamlio import DEFAULT_LIMITS, Limits, parse_document, read_limited
from .patterns import SafeValidator, pattern_problems, uses_pattern_properties

BASE = "https://wastools.invalid/schemas/"  # what a schema's file name resolves against
DIALECT = "https://json-schema.org/draft/2020-12/schema"
META = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


class BadJSON(WastoolsError):
    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


def _refuse(uri: str) -> Any:
    """The registry's retrieval: nothing outside the repository's schemas is ever fetched
    (the registry reports the reference as one it cannot retrieve)."""
    raise LookupError(f"{uri}: not one of the repository's schemas")


@dataclass
class Schemas:
    """Every schema in one folder, the registry that resolves references among them, and
    the problems that make some of them unusable."""

    folder: Path
    contents: dict[str, Any] = field(default_factory=dict)  # file name -> the parsed schema
    problems: list[Problem] = field(default_factory=list)
    broken: set[str] = field(default_factory=set)  # file names that cannot be used
    registry: Registry = field(default_factory=lambda: Registry(retrieve=_refuse))  # type: ignore[call-arg]
    _validators: dict[str, Draft202012Validator] = field(default_factory=dict)

    def validator(self, name: str) -> Draft202012Validator | None:
        """The validator of ``name`` (a file name in the folder); None when it cannot be used."""
        if name in self.broken or name not in self.contents:
            return None
        if name not in self._validators:
            self._validators[name] = SafeValidator(self.contents[name], registry=self.registry)
        return self._validators[name]

    def shown(self, name: str, root: Path) -> str:
        return display_path(self.folder / name, root)


def schema_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _fingerprint(folder: Path) -> tuple:
    """What the folder's schemas are, cheaply: their names, sizes and change times."""
    out: list[tuple] = []
    for path in schema_files(folder):
        try:
            info = path.lstat()
            out.append((path.name, info.st_mode, info.st_size, info.st_mtime_ns, info.st_ino))
        except OSError:
            out.append((path.name, None))
    return tuple(out)


def load_schemas(
    root: Path, limits: Limits = DEFAULT_LIMITS, check: bool = True, folder: Path | None = None
) -> Schemas:
    """The schemas of the repository at ``root`` (or of ``folder``, for the tool's own), read
    and checked once for as long as their files are unchanged. ``check``: against the
    meta-schema too (left out when a whole validation has just done so)."""
    where = plain_path(folder or root / "schemas")
    return _load(where, plain_path(root), limits, check, _fingerprint(where))


@lru_cache(maxsize=8)
def _load(folder: Path, root: Path, limits: Limits, check: bool, _key: tuple) -> Schemas:
    schemas = Schemas(folder)
    resources = []
    for path in schema_files(folder):
        shown = display_path(path, root)
        schema = _read(path, root, shown, limits, schemas.problems)
        if schema is None:
            schemas.broken.add(path.name)
            continue
        found = _own_problems(schema, path, shown, limits, check)
        if found:
            schemas.problems.extend(found)
            schemas.broken.add(path.name)
            continue
        schemas.contents[path.name] = schema
        resource = DRAFT202012.create_resource(schema)
        resources.append((urljoin(BASE, path.name), resource))
        declared = schema.get("$id")
        if isinstance(declared, str) and declared and declared != urljoin(BASE, path.name):
            resources.append((urldefrag(declared)[0], resource))
    schemas.registry = Registry(retrieve=_refuse).with_resources(resources).crawl()  # type: ignore[call-arg]
    anywhere = any(uses_pattern_properties(schema) for schema in schemas.contents.values())
    for name, schema in list(schemas.contents.items()):
        shown = display_path(folder / name, root)
        found = _pattern_problems(folder / name, shown, schema, anywhere, limits)
        found = found or _reference_problems(schemas, name, schema, shown, limits)
        if found:
            schemas.problems.extend(found)
            schemas.broken.add(name)
    return schemas


def _read(path: Path, root: Path, shown: str, limits: Limits, problems: list[Problem]) -> Any:
    reason = refusal(path, root) if plain_path(path).is_relative_to(root) else None
    raw, refused = (None, reason) if reason else read_limited(path, limits)
    if raw is None:
        problems.append(Problem(shown, 1, 1, "", refused or "cannot read file"))
        return None
    try:
        return parse_json(raw, limits)
    except BadJSON as exc:
        problems.append(Problem(shown, exc.line, exc.column, "", exc.message))
        return None


def parse_json(raw: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Strict JSON within the limits data files keep; raises ``BadJSON`` with the place."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start].decode("utf-8")
        raise BadJSON(
            *_place(before, len(before)), f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded"
        ) from None
    for index, what in bad_characters(text):
        raise BadJSON(*_place(text, index), f"{what}: remove it")
    _nesting(text, limits.max_depth)

    def number(digits: str, kind: type) -> Any:
        value = kind(digits) if len(digits) <= MAX_NUMBER_CHARS else None
        if value is None or not math.isfinite(value):
            why = NOT_FINITE if value is not None else f"has more than {MAX_NUMBER_CHARS} characters"
            raise BadJSON(*_place(text, max(0, text.find(digits))), f"{digits[:20]} {why}")
        return value

    try:
        return json.loads(
            text,
            parse_constant=lambda name: number(name, float),
            parse_int=lambda digits: number(digits, int),
            parse_float=lambda digits: number(digits, float),
        )
    except json.JSONDecodeError as exc:
        raise BadJSON(exc.lineno, exc.colno, f"not valid JSON: {exc.msg}") from None


def _nesting(text: str, max_depth: int) -> None:
    """Refuse nesting deeper than ``max_depth`` before the recursive parser sees it."""
    depth, in_string, escaped = 0, False, False
    for index, ch in enumerate(text):
        if escaped:
            escaped = False
        elif in_string:
            escaped, in_string = ch == "\\", ch != '"'
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                raise BadJSON(*_place(text, index), f"nesting deeper than {max_depth} levels (limit max_depth)")
        elif ch in "]}":
            depth -= 1


def _place(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _own_problems(schema: Any, path: Path, shown: str, limits: Limits, check: bool) -> list[Problem]:
    """What makes a parsed file unusable as a schema: text no data may hold (an escape can
    write any code point), not an object, another dialect, or (with ``check``) not valid
    against the meta-schema, each at its place in the file."""
    refused = list(_refused_text(schema))
    if refused:  # the YAML reader, which keeps the same rules, says where each one is
        raw, _why = read_limited(path, limits)
        _doc, found = parse_document((raw or b"").replace(b"\t", b" "), shown, limits)
        located = [p for p in found if "U+" in p.message]
        return located or [Problem(shown, 1, 1, format_field(parts), message) for parts, message in refused[:20]]
    if not isinstance(schema, dict):
        return [Problem(shown, 1, 1, "", "a schema is a JSON object")]
    if schema.get("$schema") != DIALECT:
        where = _positions(path, limits)
        line, column = where(["$schema"]) if "$schema" in schema else (1, 1)
        return [Problem(shown, line, column, "$schema", f"must be {DIALECT!r} (JSON Schema 2020-12)")]
    if not check:
        return []
    errors = list(META.iter_errors(schema))
    if not errors:
        return []
    where = _positions(path, limits)
    return [
        Problem(shown, *where(list(e.absolute_path)), format_field(list(e.absolute_path)), _short(e.message))
        for e in errors
    ]


def _refused_text(node: Any) -> Iterator[tuple[list, str]]:
    """(place, why) for each key or string of a parsed schema that holds a refused character."""
    stack: list[tuple[Any, list]] = [(node, [])]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            message = text_problem(item)
            if message:
                yield at, message
        elif isinstance(item, dict):
            for key, value in item.items():
                message = text_problem(key)
                if message:
                    yield at, f"a key {message}"
                stack.append((value, at + [key]))
        elif isinstance(item, list):
            stack.extend((value, at + [i]) for i, value in enumerate(item))


def _pattern_problems(path: Path, shown: str, schema: Any, anywhere: bool, limits: Limits) -> list[Problem]:
    found = pattern_problems(schema, anywhere)
    if not found:
        return []
    where = _positions(path, limits)
    return [Problem(shown, *where(parts), format_field(parts), _short(why)) for parts, why in found]


def _reference_problems(schemas: Schemas, name: str, schema: Any, shown: str, limits: Limits) -> list[Problem]:
    """Every ``$ref`` and ``$dynamicRef`` of a schema that resolves to nothing in the folder."""
    resolver = schemas.registry.resolver(base_uri=urljoin(BASE, name))
    found = []
    where = None
    for parts, ref, base in _references(schema, urljoin(BASE, name)):
        try:
            resolver.lookup(urljoin(base, ref))
        except Exception:  # Unresolvable, or an address urljoin cannot read: the schema's fault
            where = where or _positions(schemas.folder / name, limits)
            message = (
                f"{ref!r} resolves to nothing: a $ref names a schema in schemas/ (or a part of one), never an address"
            )
            found.append(Problem(shown, *where(parts), format_field(parts), message))
    return found


def _references(node: Any, base: str, parts: list | None = None) -> list[tuple[list, str, str]]:
    """(place, reference, base address) of every reference in a schema, iteratively."""
    out = []
    stack = [(node, base, parts or [])]
    while stack:
        item, here, at = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$id"), str):
                here = _join(here, item["$id"])
            for key in ("$ref", "$dynamicRef"):
                if isinstance(item.get(key), str):
                    out.append((at + [key], item[key], here))
            stack.extend((value, here, at + [key]) for key, value in item.items())
        elif isinstance(item, list):
            stack.extend((value, here, at + [i]) for i, value in enumerate(item))
    return out


def _join(base: str, ref: str) -> str:
    try:
        return urljoin(base, ref)
    except ValueError:  # not an address at all: looking it up finds nothing
        return base


def _positions(path: Path, limits: Limits) -> Callable[[list], tuple[int, int]]:
    """A function from a place in the JSON file to its (line, column): JSON read as YAML
    for its positions (tabs, which JSON allows between tokens, taken as spaces)."""
    raw, _why = read_limited(path, limits)
    doc = None
    if raw is not None:
        doc, _problems = parse_document(raw.replace(b"\t", b" "), str(path), limits)
    return doc.position if doc is not None else (lambda _parts: (1, 1))


def _short(message: str) -> str:
    return message if len(message) <= 300 else message[:280] + " [...]"
