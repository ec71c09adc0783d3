"""Where a data repository's files are, and which of them may be opened: no more than paths,
so that a build can tell whether anything changed without loading the validator."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import UsageProblem


class RepositoryNotFound(UsageProblem):
    """No data repository at or above the folder given: exit code 2."""


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
    symbolic link (which could lead outside the repository), or it is not a plain file (a
    folder or a named pipe named like a data file). None for plain files (and for files
    named on the command line that lie outside the repository)."""
    # plain strings, not pathlib: validation asks this of every data file
    base, here = os.path.normpath(os.path.abspath(root)), os.path.normpath(os.path.abspath(path))
    if not here.startswith(base.rstrip(os.sep) + os.sep):
        return None
    current, mode = base, stat.S_IFREG
    for part in here[len(base) :].strip(os.sep).split(os.sep):
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except OSError:
            return None  # not there: reading it says so
        if stat.S_ISLNK(mode):
            what = "file" if current == here else "folder"
            shown = os.path.relpath(current, base).replace(os.sep, "/")
            return (
                f"this {what} is a symbolic link ({shown}): data must be plain files inside the repository; not opened"
            )
    if not stat.S_ISREG(mode):
        return f"this is {kind_of_file(mode)} named like a data file, not a plain file: not opened"
    # no part below the repository is a link, so the real path is the repository's real path
    # with the same parts: inside it (resolving each file again would be much of a no-op build)
    return None


def kind_of_file(mode: int) -> str:
    """What a file that is not a plain file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file"
