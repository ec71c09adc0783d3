"""Files the tool writes into the repository itself (the data files `fmt`, `new` and `import`
write, the generated parts of ``docs/``), read and written only as plain files inside it: a
pull request can make ``docs/``, ``cards/uk`` or any file a symbolic link to somewhere
outside, and the tool follows none. Each file is replaced whole (a temporary file beside it,
on disk, then a rename), so a full disk or a kill leaves it as it was; a failure of the
machine is ``WriteFailed``, one line naming the file and the cause."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import WastoolsError
from .failures import cause
from .store import UnsafePath, no_links, safe_folder, write_atomically


class WriteFailed(WastoolsError):
    """The machine refused a write (disk full, read-only, permission): ``str`` is one line."""


def _checked(root: Path, path: Path) -> bool:
    """Whether ``path`` exists; raises ``UnsafePath`` (naming it from ``root``) when it, or a
    folder on its way, is a link, or it is there but not a plain file."""
    shown = os.path.relpath(path, root)
    try:
        no_links(root, path)
    except UnsafePath as exc:
        step, _, why = str(exc).partition(": ")
        raise UnsafePath(f"{os.path.relpath(step, root)}: {why} ({shown} not read or written)") from None
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(mode):
        raise UnsafePath(f"{shown}: not a plain file; not read or written")
    return True


def read_inside(root: Path, path: Path) -> str | None:
    """The text of ``path`` (under ``root``), None when it is missing."""
    return path.read_text("utf-8") if _checked(root, path) else None


def write_inside(root: Path, path: Path, text: str) -> None:
    """``text`` into ``path`` (under ``root``), its folders made as plain folders, the file
    replaced whole. Raises ``UnsafePath`` or ``WriteFailed``."""
    try:
        _checked(root, path)
        safe_folder(root, path.parent)
        _checked(root, path)  # and again: a link made meanwhile on the way
        write_atomically(path, text.encode("utf-8"), durable=True)
    except OSError as exc:
        raise WriteFailed(f"cannot write {os.path.relpath(path, root)}: {cause(exc)}") from None
