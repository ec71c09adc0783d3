"""The output folder: one build at a time, nothing written or deleted through a link, every
file moved into place whole, and every failure of the machine said in one line.

``OutputFolder`` is entered by a build before it writes anything. It takes the folder's
lock (a second build waits, saying so), refuses a folder that is, or lies behind, a
symbolic link, and clears what a killed build left (temporary files beside their
targets). Every write checks that no step from the folder to the file is a link; a
temporary file is made in the target's own folder, so an output folder on another file
system works as any other.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from ..core.errors import WastoolsError
from ..core.failures import cause
from ..core.store import UnsafePath, no_links, safe_folder, write_atomically

LOCK = ".wastools-lock"
TEMPORARY_SUFFIX = ".tmp"  # write_atomically's temporary files: ".<name>.<random>.tmp"


class OutputError(WastoolsError):
    """A build that cannot write its outputs: one line naming the path and the cause."""


def explain(exc: OSError, path: Path | str | None = None) -> OutputError:
    where = exc.filename if exc.filename else path
    return OutputError(f"cannot write {where}: {cause(exc)}")


def checked_rel(rel: str) -> PurePosixPath:
    """A path under the output folder, as the plan names it: relative, with no '..'."""
    path = PurePosixPath(rel)
    if path.is_absolute() or not path.parts or ".." in path.parts or "" in path.parts:
        raise UnsafePath(f"{rel}: not a path inside the output folder")
    return path


class OutputFolder:
    """The folder a build writes into (see the module's docstring). ``waiting`` is told once
    when another build holds the lock."""

    def __init__(self, out: Path, waiting: Callable[[str], None] | None = None):
        self.out = Path(os.path.abspath(out))
        self.base = self.out.parent
        self._waiting = waiting
        self._lock: int | None = None

    def __enter__(self) -> OutputFolder:
        try:
            safe_folder(self.base, self.out)
            self._take_lock()
            self._clear_leftovers()
        except OSError as exc:
            self.__exit__()
            raise explain(exc, self.out) from None
        except UnsafePath as exc:
            self.__exit__()
            raise OutputError(str(exc)) from None
        return self

    def __exit__(self, *exc_info) -> None:
        if self._lock is not None:
            os.close(self._lock)  # closing the file releases the lock
            self._lock = None

    def _take_lock(self) -> None:
        self._lock = os.open(self.out / LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if self._waiting is not None:
                self._waiting(f"another build is writing {self.out}: waiting for it to finish")
            fcntl.flock(self._lock, fcntl.LOCK_EX)

    def _clear_leftovers(self) -> None:
        """Temporary files of a killed build (only this build writes here now: it holds the lock)."""
        for folder, dirs, files in os.walk(self.out):  # os.walk does not follow links
            for name in files:
                if name.startswith(".") and name.endswith(TEMPORARY_SUFFIX):
                    os.unlink(os.path.join(folder, name))
            dirs[:] = [d for d in dirs if not d.startswith(".")]
        legacy = self.out / ".cache"  # where builds before the user-cache store kept theirs
        if legacy.is_dir() and not legacy.is_symlink():
            shutil.rmtree(legacy, ignore_errors=True)

    def path(self, rel: str) -> Path:
        return self.out.joinpath(*checked_rel(rel).parts)

    def write(self, rel: str, data: bytes) -> None:
        """``data`` moved into ``rel`` whole, on disk first."""
        path = self.path(rel)
        try:
            safe_folder(self.out, path.parent)
            no_links(self.out, path)
            write_atomically(path, data, durable=True)
        except OSError as exc:
            raise explain(exc, path) from None
        except UnsafePath as exc:
            raise OutputError(str(exc)) from None

    def delete(self, rel: str) -> None:
        path = self.path(rel)
        try:
            no_links(self.out, path)
            path.unlink(missing_ok=True)
        except OSError as exc:
            raise explain(exc, path) from None
        except UnsafePath as exc:
            raise OutputError(str(exc)) from None

    def state(self, rel: str) -> tuple[int, int] | None:
        """The file's size and change time (what tells that it is as a build left it); None when
        it is missing or not a plain file."""
        try:
            info = os.lstat(self.path(rel))
        except (OSError, UnsafePath):
            return None
        return (info.st_size, info.st_mtime_ns) if stat.S_ISREG(info.st_mode) else None

    def files_under(self, rel: str) -> list[str]:
        """Every plain file under the folder ``rel`` (relative to it), links left out."""
        top = self.path(rel)
        if not top.is_dir() or top.is_symlink():
            return []
        found = []
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
            found += [Path(folder, name).relative_to(top).as_posix() for name in files]
        return sorted(found)
