"""What validation found in each file, cached: an unchanged file is not parsed again.

An entry holds one file's parse (the positioned document) and the problems found in that
file alone (YAML, schema line, JSON Schema). It is keyed by a hash of the file's bytes, its
kind and shown name, the repository's schemas, the limits, and the tool's own code and
libraries, so any change to one of them misses the cache. Checks across files (ids,
references, numbers) always run on every file's document, cached or not.

The entries live in the user's store (``wastools.store``), outside the data repository,
written only by a run whose data can be used. It is only a speed-up: a store that cannot be
written, or a damaged entry, is ignored (the file is simply parsed).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from ... import __version__
from ...core.resources import PACKAGE
from ...core.store import Store
from ..yamlio import Limits

FORMAT = "1"  # bump when the shape of an entry changes


@lru_cache(maxsize=1)
def code_version() -> str:
    """The tool's code and the libraries that parse and check: any change misses every entry."""
    digest = hashlib.sha256(f"{FORMAT}\0{__version__}".encode())
    for library in ("ruamel.yaml", "jsonschema"):
        try:
            digest.update(f"\0{library}={metadata.version(library)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"\0{library}=?".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(b"\0" + path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _schemas_hash(root: Path) -> str:
    digest = hashlib.sha256()
    folder = root / "schemas"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if path.is_symlink() or not path.is_file():  # refused unread (a named pipe would block)
            continue
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            digest.update(path.name.encode() + b"\0unreadable\0")
    return digest.hexdigest()


class FileCache:
    """Per-file validation results kept in the store (None: no cache at all)."""

    KIND = "validate"

    def __init__(self, store: Store | None, root: Path, limits: Limits):
        self.folder = store  # what ``files`` asks of: None when nothing is kept
        self.limits = limits
        self._pending: dict[str, Any] = {}
        self._base = (
            hashlib.sha256(
                "\0".join((code_version(), _schemas_hash(root), repr(sorted(asdict(limits).items())))).encode()
            ).hexdigest()
            if store is not None
            else ""
        )

    def key(self, raw: bytes, *parts: str) -> str:
        digest = hashlib.sha256(self._base.encode())
        for part in parts:
            digest.update(b"\0" + part.encode())
        digest.update(b"\0" + hashlib.sha256(raw).digest())
        return digest.hexdigest()

    def get(self, key: str) -> Any | None:
        return self.folder.get_object(self.KIND, key) if self.folder is not None else None

    def put(self, key: str, value: Any) -> None:
        """Kept in memory until ``flush``: a run that finds errors writes nothing (see validate)."""
        if self.folder is not None:
            self._pending[key] = value

    def flush(self) -> None:
        pending, self._pending = self._pending, {}
        for key, value in pending.items():
            if self.folder is not None and not self.folder.put_object(self.KIND, key, value):
                self.folder = None  # read-only or full: carry on without a cache
