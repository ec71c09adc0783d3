"""`wastools fmt`: one canonical layout for every data file, comments kept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.problems import Problem, display_path
from . import repository
from .yamlio import dump_canonical, load_document


@dataclass
class FormatResult:
    changed: list[str]
    problems: list[Problem]


def data_files(root: Path) -> list[Path]:
    files = [root / "cards" / name for name in repository.CATALOGUE_FILES]
    files += repository.unit_files(root)
    files += sorted((root / "scenarios").glob("*.yaml")) if (root / "scenarios").is_dir() else []
    return [f for f in files if f.exists() and repository.refusal(f, root) is None]  # validate reports links


def canonical_text(path: Path, root: Path) -> tuple[str | None, list[Problem]]:
    shown = display_path(path, root)
    doc, problems = load_document(path, shown, comments=True)
    if doc is None:
        return None, problems
    kind = repository.kind_of(path, root)
    tree = repository.canonical_unit(doc.tree) if kind == "unit" and isinstance(doc.tree, dict) else doc.tree
    return dump_canonical(tree, _schema_ref(path, root, kind)), []


def _schema_ref(path: Path, root: Path, kind: str) -> str:
    import os

    target = root / "schemas" / repository.SCHEMA_FILES[kind]
    return Path(os.path.relpath(target, path.parent)).as_posix()


def format_files(root: Path, paths: list[Path], check: bool) -> FormatResult:
    changed, problems = [], []
    for path in paths:
        text, found = canonical_text(path, root)
        problems.extend(found)
        if text is None:
            continue
        if path.read_bytes() != text.encode("utf-8"):  # a byte-order mark or CRLF is a change too
            changed.append(display_path(path, root))
            if not check:
                path.write_text(text, "utf-8")
    return FormatResult(changed, problems)
