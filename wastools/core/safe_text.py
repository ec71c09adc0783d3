"""Which characters data may hold, and which numbers: the rules every data file, schema and
setting keeps, so that what validates is what the PDFs and the site can show.

Refused in any text: control characters other than tab and line ends, invisible format
characters (the bidirectional overrides and isolates, zero-width characters, the soft
hyphen), lone surrogates, private-use characters, noncharacters and the Unicode line and
paragraph separators. They are invisible or reorder the text around them, so a name that
holds one can read differently on the card from what a reviewer saw in the pull request.
Refused numbers: not-a-number and the infinities, which no measure or stat can be.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_NOT_CLEAN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|[^\x00-\x7f]")
_WHAT = {
    "Cc": "a control character",
    "Cf": "an invisible format character (it can reorder or hide the text around it)",
    "Cs": "a lone surrogate (half of a character: the text is not valid Unicode)",
    "Co": "a private-use character (no font shows it)",
    "Zl": "a line separator (use a new line instead)",
    "Zp": "a paragraph separator (use a blank line instead)",
}


def _noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def bad_characters(text: str) -> Iterator[tuple[int, str]]:
    """Each character ``text`` may not hold, as (index, what it is), in order; tab, line feed
    and carriage return are allowed."""
    for match in (_ASCII_CONTROL if text.isascii() else _NOT_CLEAN).finditer(text):
        ch = match.group()
        if ch.isascii() or unicodedata.category(ch) in _WHAT or _noncharacter(ord(ch)):
            yield match.start(), _describe(ch)


def bad_character(text: str) -> tuple[int, str] | None:
    return next(bad_characters(text), None)


_LINE_CONTROLS = re.compile(r"[\t\n\r]")


def bad_name_character(text: str) -> tuple[int, str] | None:
    """The first character a one-line name (a fleet's) may not hold: those no text may hold,
    and tab and line ends too. The fleet builder's script strips exactly these (the Unicode
    categories Cc, Cf, Cs, Co, Zl, Zp and the noncharacters) from a name before it writes one."""
    found = [hit for hit in (bad_character(text), _first(_LINE_CONTROLS, text)) if hit is not None]
    return min(found) if found else None


def _first(pattern: re.Pattern, text: str) -> tuple[int, str] | None:
    match = pattern.search(text)
    return (match.start(), _describe(match.group())) if match else None


def _describe(ch: str) -> str:
    code = ord(ch)
    name = unicodedata.name(ch, "")
    category = unicodedata.category(ch)
    what = "a noncharacter" if _noncharacter(code) and category not in _WHAT else _WHAT.get(category, "a character")
    return f"U+{code:04X}{' ' + name if name else ''}, {what}"


def text_problem(text: str) -> str | None:
    """A message for the first character ``text`` may not hold, or None."""
    found = bad_character(text)
    if found is None:
        return None
    index, what = found
    where = f" at character {index + 1}" if len(text) > 1 else ""
    return f"holds {what}{where}: remove it"


NOT_FINITE = "is not a finite number (not-a-number and infinity are refused)"
