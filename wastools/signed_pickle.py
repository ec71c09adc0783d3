"""Pickled caches that only this machine's wastools can have written.

Unpickling runs code, and a build folder can arrive with the data (a pull request may
force-add `build/.cache/...`). So every cached pickle carries an HMAC made with a random
key kept in the user's cache folder, outside any repository; an entry without a valid MAC
is treated as missing and never unpickled. No usable key means no cache at all.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any

KEY_BYTES = 32
MAC_BYTES = hashlib.sha256().digest_size


def key_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wastools" / "cache-key"


@lru_cache(maxsize=4)
def _key(path: Path) -> bytes | None:
    """This machine's key, made once; None when it cannot be read or created."""
    data: bytes | None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = _create(path)
    except OSError:
        return None
    return data if data is not None and len(data) == KEY_BYTES else None


def _create(path: Path) -> bytes | None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".key-{os.getpid()}-{secrets.token_hex(4)}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
        try:
            os.link(temp, path)  # atomic, and never replaces a key another process made first
        except FileExistsError:
            pass
        finally:
            temp.unlink(missing_ok=True)
        return path.read_bytes()
    except OSError:
        return None


def signature(data: bytes) -> bytes | None:
    """This machine's MAC of ``data``; None when there is no key."""
    key = _key(key_path())
    return None if key is None else hmac.new(key, data, hashlib.sha256).digest()


def signed_by_us(data: bytes, mac: bytes) -> bool:
    """Whether ``mac`` is this machine's MAC of ``data``."""
    ours = signature(data)
    return ours is not None and hmac.compare_digest(mac, ours)


def dumps(value: Any) -> bytes | None:
    """The signed pickle of ``value``; None when there is no key (then do not cache)."""
    key = _key(key_path())
    if key is None:
        return None
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return hmac.new(key, data, hashlib.sha256).digest() + data


def loads(blob: bytes) -> Any | None:
    """The value, or None for anything this machine did not sign (never unpickled)."""
    key = _key(key_path())
    if key is None or len(blob) <= MAC_BYTES:
        return None
    mac, data = blob[:MAC_BYTES], blob[MAC_BYTES:]
    if not hmac.compare_digest(mac, hmac.new(key, data, hashlib.sha256).digest()):
        return None
    return pickle.loads(data)
