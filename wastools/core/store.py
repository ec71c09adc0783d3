"""One store for everything a build or a validation keeps between runs.

Entries live in the user's cache folder (``$WASTOOLS_CACHE``, else ``$XDG_CACHE_HOME/wastools``,
else ``~/.cache/wastools``), in a folder of their own for each data repository, and never
inside the repository: nothing a pull request commits is ever read back as a cache entry.

An entry is ``kind/key`` -> bytes. Each file holds a header naming its kind, its key and the
sha256 of its bytes, checked on every read, so a truncated, damaged or swapped entry reads as
missing (and is deleted): the caller makes it again. Writes are atomic (a temporary file in
the same folder, then a rename), so two processes may share a store. The store is
size-capped: ``prune`` drops the least recently used entries above the cap.

The store makes its own folder and the cache folder it lives in (``~/.cache``), never a
folder above them: a missing home folder stays missing, and the store is then unusable
(``unusable`` says why). A build keeps what its store refuses in a scratch folder of its
own (``spill``, see ``core.scratch``), so an unusable or full store never stops a build.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import shutil
import stat
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import WastoolsError
from .failures import cause

MAGIC = b"wastools-store 1\n"
DEFAULT_CAP = 3 * 1024**3  # bytes kept per repository before the least recently used go
PRUNE_EVERY = 3600.0  # seconds between two looks at every entry
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")
_FOLDERS: dict[str, int] = {}  # kind folder -> the descriptor this process holds open on it
_FOLDERS_HELD = 64  # at most (a test run opens many stores in one process)
_HOLDING = threading.Lock()  # a descriptor is not closed while another thread uses it


def _new_lock() -> None:
    global _HOLDING
    _HOLDING = threading.Lock()  # a fork's child has one thread: a lock held by another is free


os.register_at_fork(after_in_child=_new_lock)
_WRITES = itertools.count()  # names this process's temporary files


class UnsafePath(WastoolsError):
    """A path the tool will not follow: a symbolic link, or something that is not a folder
    where a folder belongs. ``str`` names the path and the cause."""


def cache_home() -> Path:
    """``$WASTOOLS_CACHE``, else ``$XDG_CACHE_HOME/wastools``, else ``~/.cache/wastools``: a
    path that is not absolute (no home folder known) makes a store that keeps nothing."""
    base = os.environ.get("WASTOOLS_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "wastools"
    try:
        return Path.home() / ".cache" / "wastools"
    except RuntimeError:  # no HOME and no account entry: nowhere to keep anything
        return Path(".cache", "wastools")


def _usable_base(base: Path, make: bool) -> None:
    """Raise UnsafePath when ``base`` cannot hold a store: not an absolute path, or missing
    with its parent's parent (a home folder) missing too, which the store never makes."""
    if not base.is_absolute():
        raise UnsafePath(f"{base}: not an absolute path (no home folder is known)")
    anchor = base.parent.parent
    if make and not os.path.isdir(base) and not os.path.isdir(anchor):
        what = "is not a folder" if os.path.lexists(anchor) else "does not exist (the store makes no home folder)"
        raise UnsafePath(f"{anchor}: {what}")


def no_links(base: Path, path: Path) -> None:
    """Raise UnsafePath when ``path`` is not inside ``base``, or when a step below ``base`` on
    the way to ``path`` (``path`` included) is a symbolic link, or a file where a folder
    belongs. ``base`` itself is the user's choice (a home folder may well be a link)."""
    # plain strings, not pathlib: a build checks every face it reads, thousands of paths
    top, target = os.path.abspath(base), os.path.abspath(path)
    if target != top and not target.startswith(top.rstrip(os.sep) + os.sep):
        raise UnsafePath(f"{target}: outside {top}")
    parts = target[len(top) :].strip(os.sep).split(os.sep) if target != top else []
    step = top
    for i, part in enumerate(parts):
        step = os.path.join(step, part)
        try:
            mode = os.lstat(step).st_mode
        except FileNotFoundError:
            return  # nothing further exists yet: it will be made as a plain folder or file
        if stat.S_ISLNK(mode):
            raise UnsafePath(f"{step}: is a symbolic link; the tool never reads, writes or deletes through one")
        if i < len(parts) - 1 and not stat.S_ISDIR(mode):
            raise UnsafePath(f"{step}: is not a folder")


def safe_folder(base: Path, folder: Path) -> Path:
    """``folder`` (under ``base``) made if missing, with no symbolic link on the way."""
    no_links(base, folder)
    folder.mkdir(parents=True, exist_ok=True)
    no_links(base, folder)  # made by another process meanwhile: checked again
    return folder


def write_atomically(path: Path, data: bytes, durable: bool = False) -> None:
    """``data`` into ``path`` through a temporary file beside it (the same file system), moved
    into place whole; ``durable``: on disk before the move (outputs, not cache entries)."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide outputs from other users
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Store:
    """The entries of one data repository (picklable: workers open the same folder)."""

    base: Path  # the cache home, below which no link is followed
    folder: Path
    cap: int = DEFAULT_CAP
    root: Path | None = None  # the data repository it keeps entries for
    spill: Path | None = None  # a build's scratch folder: the entries ``folder`` refuses are kept there

    @classmethod
    def for_repository(cls, root: Path, cap: int = DEFAULT_CAP) -> Store:
        base = cache_home()
        name = hashlib.sha256(os.path.abspath(root).encode("utf-8", "surrogateescape")).hexdigest()[:20]
        return cls(base, base / "store" / name, cap, Path(os.path.abspath(root)))

    def name_of(self, path: Path) -> str:
        """``path`` as entries name it: relative to the repository when inside it (a copy of
        the repository and its store then finds its entries), else absolute."""
        absolute = Path(os.path.abspath(path))
        if self.root is not None and absolute.is_relative_to(self.root):
            return absolute.relative_to(self.root).as_posix()
        return absolute.as_posix()

    def _kind_folder(self, kind: str, key: str, make: bool = False) -> int:
        """An open descriptor of ``kind``'s folder, entries being opened relative to it (never
        through a link): checked for links from the cache home when first opened, and opened
        again when the folder at its path is no longer the one held (removed, or replaced by a
        link, which is then refused). Raises OSError or UnsafePath."""
        if not kind or not key or not set(kind) <= _NAME_CHARS or not set(key) <= _NAME_CHARS:
            raise ValueError(f"not a store name: {kind!r}/{key!r}")
        # plain strings: a build reads thousands of entries, and pathlib was most of the cost
        path = os.path.join(self.folder, kind)
        held = _FOLDERS.get(path)
        if held is None:
            _usable_base(self.base, make)
        try:
            now = os.lstat(path)
        except FileNotFoundError:
            if not make:
                raise
            now = None
        if held is not None and now is not None and _same(os.fstat(held), now):
            return held
        (safe_folder if make else no_links)(self.base, Path(path))
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        if held is not None:
            os.close(_FOLDERS.pop(path))
        while len(_FOLDERS) >= _FOLDERS_HELD:  # the one opened longest ago
            os.close(_FOLDERS.pop(next(iter(_FOLDERS))))
        _FOLDERS[path] = fd
        return fd

    def _spilled(self) -> Store | None:
        return Store(self.spill, self.spill) if self.spill is not None else None

    def get(self, kind: str, key: str) -> bytes | None:
        """The entry's bytes, or None when it is missing, damaged or not this entry."""
        with _HOLDING:
            data = self._get(kind, key)
            spill = self._spilled() if data is None else None
            return spill._get(kind, key) if spill is not None else data

    def _get(self, kind: str, key: str) -> bytes | None:
        try:
            folder = self._kind_folder(kind, key)
            fd = os.open(key, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=folder)
        except (OSError, UnsafePath):  # missing, unreadable or a link
            return None
        data = None
        try:
            blob = _read_all(fd)
            data = _unwrap(blob, kind, key) if blob is not None else None
            if data is not None:
                os.utime(fd)  # recently used: ``prune`` keeps it
        except OSError:
            pass
        finally:
            os.close(fd)
        if data is None:
            try:
                os.unlink(key, dir_fd=folder)
            except OSError:
                pass
        return data

    def put(self, kind: str, key: str, data: bytes) -> bool:
        """Keep an entry, written whole (a temporary file in its folder, then a rename, so two
        processes may share a store); False when the store cannot be written (full, read-only,
        a link) and no ``spill`` folder took it: an entry is only a speed-up, so the build
        carries on without it."""
        with _HOLDING:
            if self._put(kind, key, data):
                return True
            spill = self._spilled()
            return spill is not None and spill._put(kind, key, data)

    def _put(self, kind: str, key: str, data: bytes) -> bool:
        temporary = f".{key}.{os.getpid()}.{next(_WRITES)}.tmp"
        try:
            folder = self._kind_folder(kind, key, make=True)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder)
        except (OSError, UnsafePath):
            return False
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_wrap(kind, key, data))
            os.replace(temporary, key, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError:
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            return False
        return True

    def has(self, kind: str, key: str) -> bool:
        """Whether an entry is there (unchecked: ``get`` checks it when it is read)."""
        with _HOLDING:
            spill = self._spilled()
            return self._has(kind, key) or (spill is not None and spill._has(kind, key))

    def _has(self, kind: str, key: str) -> bool:
        try:
            return stat.S_ISREG(os.stat(key, dir_fd=self._kind_folder(kind, key), follow_symlinks=False).st_mode)
        except (OSError, UnsafePath):
            return False

    def unusable(self) -> str | None:
        """Why this store cannot keep entries, in one line (None when it can): its folder made
        if missing, then a byte written there and removed."""
        with _HOLDING:
            try:
                folder = self._kind_folder("probe", "writable", make=True)
                name = f".writable.{os.getpid()}.{next(_WRITES)}.tmp"
                fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder)
                try:
                    os.write(fd, b"x")
                finally:
                    os.close(fd)
                    os.unlink(name, dir_fd=folder)
            except OSError as exc:
                where = exc.filename if isinstance(exc.filename, str) and os.path.isabs(exc.filename) else self.folder
                return f"{where}: {cause(exc)}"
            except UnsafePath as exc:
                return str(exc)
        return None

    def spilled(self) -> bool:
        """Whether the ``spill`` folder took an entry the store refused."""
        return self.spill is not None and any(files for _dir, _dirs, files in os.walk(self.spill))

    def get_object(self, kind: str, key: str) -> Any | None:
        """A pickled entry. The store is the user's own folder, outside every data repository,
        so what it holds was written by this tool; a damaged entry reads as missing."""
        data = self.get(kind, key)
        if data is None:
            return None
        try:
            return pickle.loads(data)
        except Exception:  # written by another version of a class: made again
            return None

    def put_object(self, kind: str, key: str, value: Any) -> bool:
        return self.put(kind, key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def prune_now_and_then(self, every: float = PRUNE_EVERY) -> int:
        """``prune``, when the last one is over ``every`` seconds old: looking at every entry
        grows with the store (a quarter of a second at 20,000 entries), and a store over its
        cap by one hour's builds does no harm."""
        mark = self.folder / ".pruned"
        try:
            _usable_base(self.base, make=False)
            no_links(self.base, mark)
            if time.time() - os.lstat(mark).st_mtime < every:
                return 0
        except FileNotFoundError:
            pass
        except (OSError, UnsafePath):
            return 0
        removed = self.prune()
        try:
            write_atomically(mark, b"")
        except OSError:
            pass
        return removed

    def _entries(self) -> list[tuple[Path, os.stat_result]]:
        """What each kind's folder holds, not following a link (a linked kind is passed over)."""
        found: list[tuple[Path, os.stat_result]] = []
        if not os.path.isdir(self.folder):
            return found
        for kind in os.scandir(self.folder):
            if kind.is_dir(follow_symlinks=False):
                found += [(Path(e.path), e.stat(follow_symlinks=False)) for e in os.scandir(kind.path)]
        return found

    def prune(self) -> int:
        """Delete the least recently used entries until the store is under its cap; returns how
        many went. Temporary files of killed writers go too."""
        try:
            _usable_base(self.base, make=False)
            no_links(self.base, self.folder)
        except UnsafePath:
            return 0
        entries = []
        removed = 0
        for path, info in self._entries():
            if path.name.startswith("."):  # a temporary file left by a killed process
                path.unlink(missing_ok=True)
                removed += 1
            elif stat.S_ISDIR(info.st_mode):  # entries of an older layout (a folder per key prefix)
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
            elif stat.S_ISREG(info.st_mode):
                entries.append((info.st_mtime, info.st_size, path))
        total = sum(size for _m, size, _p in entries)
        for _mtime, size, path in sorted(entries):
            if total <= self.cap:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
        return removed


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _read_all(fd: int) -> bytes | None:
    """A plain file's bytes (None for anything else: a folder, a device, a pipe)."""
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        return None
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _wrap(kind: str, key: str, data: bytes) -> bytes:
    return MAGIC + f"{kind}/{key} {hashlib.sha256(data).hexdigest()}\n".encode() + data


def _unwrap(blob: bytes, kind: str, key: str) -> bytes | None:
    if not blob.startswith(MAGIC):
        return None
    end = blob.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    header, data = blob[len(MAGIC) : end].decode("ascii", "replace"), blob[end + 1 :]
    return data if header == f"{kind}/{key} {hashlib.sha256(data).hexdigest()}" else None
