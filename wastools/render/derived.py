"""What the tool reads from its own files (the card fonts' metrics, the sheet layouts), kept
between runs in the tool's part of the user's store.

Card sizing (``card_fit``), drawing (``card_body``) and the card fonts' one dictionary per
file (``shared_fonts``) read the fonts' advances, kerning and character maps, and the
sheets read their layouts (YAML, checked against a schema). Each reading is kept under the
source file's bytes and the tool's code and read back in a millisecond; an entry that is
missing or damaged is read from the source again. The values are plain data: the same
whichever way they were got (a test compares them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from ..core.resources import FONTS
from ..core.store import Store, cache_home

T = TypeVar("T")


def kept(kind: str, file: str, read: Callable[[], T], source: Path | None = None) -> T:
    """What ``read`` gets from the font ``file`` (or the file ``source``), kept under
    ``kind``: read from the store when kept there for those bytes and this code, else read
    and kept."""
    store = Store(cache_home(), cache_home() / "tool")
    entry = f"{kind}-{Path(file).stem}-{_digest(source or FONTS / file)}".lower()
    value = store.get_object("derived", entry)
    if value is not None:
        return value
    value = read()
    store.put_object("derived", entry, value)
    return value


@cache
def _digest(source: Path) -> str:
    from ..core.fingerprints import code_fingerprint

    return hashlib.sha256(source.read_bytes() + code_fingerprint().encode()).hexdigest()[:32]
