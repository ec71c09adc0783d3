"""Step 1: find the repository's files and load each with line and column positions.

A data file must be a plain file inside the repository: a symbolic link (or a file in a
linked folder) or a file whose real path lies outside is refused by its own name and never
opened.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.data_paths import refusal, unit_files
from ...core.problems import Problem, display_path
from ..yamlio import SCHEMA_LINE_PREFIX, Document, Limits, first_line, load_document, read_limited
from .cache import FileCache
from .schema import SCHEMA_FILES, schema_problems

SCHEMA_REFS = {
    "unit": "../../schemas/unit.schema.json",
    "sets": "../schemas/sets.schema.json",
    "nations": "../schemas/nations.schema.json",
    "abilities": "../schemas/abilities.schema.json",
    "scenario": "../schemas/scenario.schema.json",
}
CATALOGUE_FILES = {"sets.yaml": "sets", "nations.yaml": "nations", "abilities.yaml": "abilities"}


@dataclass
class LoadedFile:
    path: Path
    shown_as: str
    kind: str
    doc: Document | None


def kind_of(path: Path, root: Path) -> str:
    if path.name in CATALOGUE_FILES and path.parent.name == "cards":
        return CATALOGUE_FILES[path.name]
    if path.parent.name == "scenarios":
        return "scenario"
    return "unit"


def load_file(
    path: Path, root: Path, kind: str, limits: Limits, problems: list[Problem], cache: FileCache | None = None
) -> LoadedFile:
    """One file parsed and checked on its own (YAML, schema line, JSON Schema); from ``cache``
    when the file's bytes are unchanged."""
    shown = display_path(path, root)
    reason = refusal(path, root)
    if reason:
        problems.append(Problem(shown, 1, 1, "", reason))
        return LoadedFile(path, shown, kind, None)
    key = _cache_key(path, root, shown, kind, limits, cache)
    hit = cache.get(key) if cache is not None and key is not None else None
    if hit is not None:
        doc, found = hit
    else:
        doc, found = _load_and_check(path, root, shown, kind, limits)
        if cache is not None and key is not None:
            cache.put(key, (doc, found))
    problems.extend(found)
    return LoadedFile(path, shown, kind, doc)


def _cache_key(path: Path, root: Path, shown: str, kind: str, limits: Limits, cache: FileCache | None) -> str | None:
    """None when the file is not to be cached: no cache, unreadable, or over the size limit."""
    if cache is None or cache.folder is None:
        return None
    raw, _why = read_limited(path, limits)
    return None if raw is None else cache.key(raw, kind, shown, str(_expected_ref(path, root, kind)))


def _load_and_check(path: Path, root: Path, shown: str, kind: str, limits: Limits) -> tuple[Document | None, list]:
    doc, found = load_document(path, shown, limits, partial=True)  # every bad value in one report
    read_at = {(p.line, p.column) for p in found}  # what the reader refused, said there already
    if doc is not None:
        found.extend(_schema_line_problems(path, shown, _expected_ref(path, root, kind)))
        if not isinstance(doc.data, dict):
            found.append(Problem(shown, 1, 1, "", "expected a mapping of fields at the top level"))
            doc = None
        else:
            checked = schema_problems(doc, root, kind, limits)
            if checked is None:  # the schema cannot be used: its problems are reported in its own file
                return None, found
            found.extend(p for p in checked if not _said(p.field, doc.refused) and (p.line, p.column) not in read_at)
    return doc, found


def _said(field: str, refused: tuple[str, ...]) -> bool:
    """Whether ``field`` is, or lies in, a value the reader refused (its problem already said)."""
    return any(field == r or field.startswith((r + ".", r + "[")) for r in refused if r)


def _expected_ref(path: Path, root: Path, kind: str) -> str | None:
    """The `$schema=` reference a file must carry: relative to its folder, inside the repository."""
    base, here = os.path.normpath(os.path.abspath(root)), os.path.normpath(os.path.abspath(path))
    if not here.startswith(base.rstrip(os.sep) + os.sep):
        return None  # a file outside the repository: any project schema name will do
    schema = os.path.join(base, "schemas", SCHEMA_FILES[kind])
    return os.path.relpath(schema, os.path.dirname(here)).replace(os.sep, "/")


def _schema_line_problems(path: Path, shown: str, expected: str | None) -> list[Problem]:
    first = first_line(path)
    if not first.startswith(SCHEMA_LINE_PREFIX):
        return [
            Problem(shown, 1, 1, "", f"first line must be '{SCHEMA_LINE_PREFIX}...' so that editors check the file")
        ]
    ref = first[len(SCHEMA_LINE_PREFIX) :].strip()
    if expected is not None and ref != expected:
        return [Problem(shown, 1, len(SCHEMA_LINE_PREFIX) + 1, "$schema", f"must name {expected!r}, not {ref[:80]!r}")]
    if expected is None and not ref.endswith(".schema.json"):
        return [Problem(shown, 1, len(SCHEMA_LINE_PREFIX) + 1, "$schema", f"{ref[:80]!r} is not a project schema")]
    return []


def read_plain(path: Path) -> Any:
    """Trusted read of a project file (importer use); raises on any problem."""
    doc, problems = load_document(path, str(path))
    if problems or doc is None:
        raise ValueError("\n".join(map(str, problems)) or f"{path}: cannot read file")
    return doc.data


def existing_units(root: Path) -> dict[str, dict[str, Any]]:
    units = {}
    for path in unit_files(root):
        doc, problems = load_document(path, str(path))
        if doc is not None and isinstance(doc.data, dict) and "id" in doc.data:
            units[doc.data["id"]] = doc.data
    return units
