"""What validation found in each file, cached: an unchanged file is not parsed again.

An entry holds one file's parse (the positioned document) and the problems found in that
file alone (YAML, schema line, JSON Schema). It is keyed by a hash of the file's bytes, its
kind and shown name, the repository's schemas, the limits, and the tool's own code and
libraries, so any change to one of them misses the cache. Checks across files (ids,
references, numbers) always run on every file's document, cached or not.

The cache is a folder of small pickles, written atomically, and only by a run whose data
can be used (so a build stopped by bad data leaves build/ as it was). It is only a speed-up: a
folder that cannot be created or written, or a damaged entry, is ignored (the file is
simply parsed), and it is never placed inside the installed package.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import __version__, signed_pickle
from ..cache_entry import write_entry
from ..cache_prune import prune_folder
from ..resources import PACKAGE
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
    """Per-file validation results under ``folder`` (None: no cache at all)."""

    def __init__(self, folder: Path | None, root: Path, limits: Limits):
        self.folder = _usable(folder)
        self.limits = limits
        self.hits = self.misses = 0
        self._pending: dict[str, Any] = {}
        self._used: set[str] = set()  # every key looked up: what a whole validation keeps
        self._base = (
            hashlib.sha256(
                "\0".join((code_version(), _schemas_hash(root), repr(sorted(asdict(limits).items())))).encode()
            ).hexdigest()
            if self.folder
            else ""
        )

    def key(self, raw: bytes, *parts: str) -> str:
        digest = hashlib.sha256(self._base.encode())
        for part in parts:
            digest.update(b"\0" + part.encode())
        digest.update(b"\0" + hashlib.sha256(raw).digest())
        return digest.hexdigest()

    def get(self, key: str) -> Any | None:
        self._used.add(key)
        if self.folder is None:
            return None
        try:
            value = signed_pickle.loads((self.folder / f"{key}.pickle").read_bytes())
        except FileNotFoundError:
            value = None
        except Exception:  # damaged or from another version: parse again
            value = None
        if value is None:  # missing, damaged, or not signed by this machine: parse again
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: Any) -> None:
        """Kept in memory until ``flush``: a run that finds errors writes nothing (see validate)."""
        if self.folder is not None:
            self._pending[key] = value

    def flush(self) -> None:
        pending, self._pending = self._pending, {}
        for key, value in pending.items():
            self._write(key, value)

    def prune(self) -> None:
        """Delete the entries this run did not look up: after a validation of every file, those
        are of files changed or removed since (or of another version of the tool)."""
        if self.folder is not None:
            prune_folder(self.folder, self._used)

    def _write(self, key: str, value: Any) -> None:
        blob = signed_pickle.dumps(value)
        if self.folder is None or blob is None:
            return
        if not write_entry(self.folder / f"{key}.pickle", blob):
            self.folder = None  # read-only or full: carry on without a cache


def _usable(folder: Path | None) -> Path | None:
    """The folder, unless it lies inside the installed package (never written to)."""
    if folder is None:
        return None
    absolute = Path(os.path.abspath(folder))
    if absolute.is_relative_to(Path(os.path.abspath(PACKAGE))):
        return None
    return absolute


def default_folder(root: Path) -> Path:
    """Where `wastools validate` keeps this cache: with the build's caches (``wastools build``
    uses ``<out>/.cache/validate``)."""
    return root / "build" / ".cache" / "validate"
