"""What a player aid is made of: sections of prose and tables. Pure data.

The prose of every aid lives in ``wastools/aids/<aid>.yaml``; the numbers and tables in it
come from the variant (``Variant.aid_parts``), computed from the same constants the cards
use, so an aid never disagrees with the cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BASE = "the base game's rules"


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class Section:
    title: str
    source: str  # the rule document, by its title (named once, in the aid's colophon)
    lines: tuple[str, ...] = ()
    tables: tuple[Table, ...] = field(default=())


def turns(n: int) -> str:
    return "1 full turn" if n == 1 else f"{n} full turns"
