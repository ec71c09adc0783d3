"""Writing files so that a failed or killed build never leaves a half-written one."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


class AtomicWriter:
    """Temporary files live in ``<root>/.build-tmp/<pid>-*`` (the same file system as build/,
    but outside it) and are moved into place whole. Each build has its own folder, so two
    builds never clear each other's; folders of builds that died are cleared."""

    def __init__(self, root: Path):
        base = root / ".build-tmp"
        base.mkdir(parents=True, exist_ok=True)
        for folder in base.iterdir():
            if not _alive(folder.name.split("-", 1)[0]):
                shutil.rmtree(folder, ignore_errors=True)  # leftovers of a killed build
        self.base = base
        self.tmp = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=base))

    def write(self, target: Path, data: bytes, durable: bool = True) -> None:
        """``durable``: on disk before it is moved into place (outputs); a cache entry, which
        a lost write only makes again, skips the wait (a thousandth of a second a file)."""
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=self.tmp, prefix=target.name + ".")
        try:
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide outputs from other users
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                if durable:
                    handle.flush()
                    os.fsync(handle.fileno())
            os.replace(name, target)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)
        try:
            self.base.rmdir()  # only when no other build is using it
        except OSError:
            pass


def _alive(pid_text: str) -> bool:
    if not pid_text.isdigit():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
