"""Unit ids: lowercase ASCII slugs of the unit's name."""

from __future__ import annotations

import re
import unicodedata

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def ascii_fold(text: str) -> str:
    """'Väinämöinen' -> 'Vainamoinen' (accents dropped, other non-ASCII removed)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def slugify(name: str) -> str:
    """'USS Cleveland (CL 55)' -> 'uss-cleveland-cl-55'; 'A6M2 "Zeke"' -> 'a6m2-zeke'."""
    return _NON_ALNUM.sub("-", ascii_fold(name).lower()).strip("-")


def unique_id(name: str, set_id: str, number: int, taken: set[str]) -> str:
    """The id for a new unit, following the collision rule in CONTRIBUTING.md:
    the slug of the name; if taken, add the set id; if still taken, the set number too."""
    for candidate in (slugify(name), f"{slugify(name)}-{set_id}", f"{slugify(name)}-{set_id}-{number}"):
        if candidate not in taken:
            return candidate
    raise ValueError(f"no free id for {name!r} in {set_id} #{number}")
