"""`wastools fmt`: one canonical layout for every data file, comments kept; each file replaced
whole inside the repository (``repo_files.write_inside``), never through a link."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.problems import Problem, display_path
from ..core.repo_files import WriteFailed, write_inside
from ..core.store import UnsafePath
from . import repository
from .yamlio import dump_canonical, load_document


@dataclass
class FormatResult:
    changed: list[str]
    problems: list[Problem]
    failure: str = ""  # the write that stopped it (one line), the files after it left as they were


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
    result = FormatResult([], [])
    for path in paths:
        text, found = canonical_text(path, root)
        result.problems.extend(found)
        if text is None or path.read_bytes() == text.encode("utf-8"):  # a byte-order mark or CRLF is a change too
            continue
        if not check:
            try:
                write_inside(_base(path, root), path, text)
            except (UnsafePath, WriteFailed) as exc:
                result.failure = str(exc)
                break
        result.changed.append(display_path(path, root))
    return result


def _base(path: Path, root: Path) -> Path:
    """Below which no link is followed: the repository, or the folder of a file named on the
    command line outside it."""
    import os

    inside = os.path.abspath(path).startswith(os.path.abspath(root).rstrip(os.sep) + os.sep)
    return root if inside else path.parent
