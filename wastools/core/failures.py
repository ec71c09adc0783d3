"""The machine's failures in words: what a full disk, a read-only file system or a missing
permission is called in the one line a command ends with (never a traceback)."""

from __future__ import annotations

import errno

CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EXDEV: "it is on another file system",
    errno.ENOTDIR: "a file stands where a folder belongs",
    errno.EISDIR: "a folder stands where a file belongs",
    errno.ELOOP: "it is a symbolic link",
}


def cause(exc: OSError) -> str:
    """Why ``exc`` happened, in a few words."""
    return CAUSES.get(exc.errno or 0, exc.strerror or str(exc))
