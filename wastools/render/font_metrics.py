"""The card fonts' metrics, kept between runs, signed like every cached pickle.

Card sizing (``card_fit``), drawing (``card_body``) and the card fonts' one dictionary per
file (``shared_fonts``) read the fonts' advances, kerning and character maps, which meant
importing fontTools and parsing each font with it and with ReportLab at every build: a
tenth of a second of the main process before a changed unit's cards could be drawn, as long
as the drawing itself. Each reading is kept in the user's wastools cache folder (beside the
key that signs it, outside any build folder), under the font file's bytes and the tool's
code, and read back in a millisecond; an entry that is missing, stale or not signed by this
machine is read from the font again. The values are plain data: the same whichever way
they were got (a test compares them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from .. import signed_pickle
from ..cache_entry import write_entry
from ..resources import FONTS

T = TypeVar("T")


def kept(kind: str, file: str, read: Callable[[], T]) -> T:
    """What ``read`` gets from the font ``file``, kept under ``kind``: read from the cache
    when this machine kept it for these font bytes and this code, else read and kept."""
    folder = signed_pickle.key_path().parent / "fonts"
    stem = f"{kind}-{Path(file).stem}"
    path = folder / f"{stem}-{_digest(file)}.pickle"
    try:
        value = signed_pickle.loads(path.read_bytes())
    except Exception:  # missing, damaged, or from another Python: read the font again
        value = None
    if value is not None:
        return value
    value = read()
    blob = signed_pickle.dumps(value)
    if blob is not None and write_entry(path, blob):
        for old in folder.glob(f"{stem}-*.pickle"):  # other versions of the tool or the font
            if old != path:
                old.unlink(missing_ok=True)
    return value


@cache
def _digest(file: str) -> str:
    from ..fingerprints import code_fingerprint

    return hashlib.sha256((FONTS / file).read_bytes() + code_fingerprint().encode()).hexdigest()[:32]
