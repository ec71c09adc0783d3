"""What the tool reads from its own files (the card fonts' metrics, the sheet layouts), kept
between runs, signed like every cached pickle.

Card sizing (``card_fit``), drawing (``card_body``) and the card fonts' one dictionary per
file (``shared_fonts``) read the fonts' advances, kerning and character maps, and the
sheets read their layouts (YAML, checked against a schema): at every build that meant
importing fontTools and parsing each font with it and with ReportLab, and parsing and
checking each layout, a tenth of a second of the main process before a changed unit's
cards could be drawn, as long as the drawing itself. Each reading is kept in the user's
wastools cache folder (beside the key that signs it, outside any build folder), under the
source file's bytes and the tool's code, and read back in a millisecond; an entry that is
missing, stale or not signed by this machine is read from the source again. The values are
plain data: the same whichever way they were got (a test compares them).
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


def kept(kind: str, file: str, read: Callable[[], T], source: Path | None = None) -> T:
    """What ``read`` gets from the font ``file`` (or the file ``source``), kept under
    ``kind``: read from the cache when this machine kept it for those bytes and this code,
    else read and kept."""
    folder = signed_pickle.key_path().parent / "derived"
    stem = f"{kind}-{Path(file).stem}"
    path = folder / f"{stem}-{_digest(source or FONTS / file)}.pickle"
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
def _digest(source: Path) -> str:
    from ..fingerprints import code_fingerprint

    return hashlib.sha256(source.read_bytes() + code_fingerprint().encode()).hexdigest()[:32]
