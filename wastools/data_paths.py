"""Where a data repository's files are, and which of them may be opened: no more than paths,
so that a build can tell whether anything changed without loading the validator."""

from __future__ import annotations

import os
from pathlib import Path


class RepositoryNotFound(Exception):
    pass


def find_root(start: Path) -> Path:
    """The data repository: the nearest folder at or above ``start`` with cards/ and schemas/."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / "cards").is_dir() and (folder / "schemas").is_dir():
            return folder
    raise RepositoryNotFound(f"no data repository (a folder with cards/ and schemas/) at or above {start}")


def unit_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "cards").glob("*/*.yaml"))


def plain_path(path: Path) -> Path:
    """Absolute and normalised, but with symbolic links left as they are (unlike resolve())."""
    return Path(os.path.normpath(path.absolute()))


def refusal(path: Path, root: Path) -> str | None:
    """Why a file inside the repository must not be opened: it, or a folder on its way, is a
    symbolic link (which could lead outside the repository). None for plain files (and for
    files named on the command line that lie outside the repository)."""
    base, here = plain_path(root), plain_path(path)
    try:
        parts = here.relative_to(base).parts
    except ValueError:
        return None
    current = base
    for part in parts:
        current = current / part
        if current.is_symlink():
            what = "file" if current == here else "folder"
            return (
                f"this {what} is a symbolic link ({current.relative_to(base).as_posix()}): data must be plain "
                "files inside the repository; not opened"
            )
    # no part below the repository is a link, so the real path is the repository's real path
    # with the same parts: inside it (resolving each file again took a third of a no-op build)
    return None
