"""Cache entries are only a speed-up: each is written whole (a temporary file beside it,
then renamed into place) or not at all, and a folder that cannot be written is no error."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_entry(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically; False when the folder cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=".entry-")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(name, path)
        return True
    except OSError:
        Path(name).unlink(missing_ok=True)
        return False
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
