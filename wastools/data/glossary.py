"""The glossary of game terms (``wastools/glossary/glossary.yaml``, checked against its schema
like the sheet layouts): one spelling of every term for every output, the spellings that are
wrong, and why. ``wrong_spellings`` finds the wrong ones in a printed text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..core.resources import PACKAGE

GLOSSARY = PACKAGE / "glossary" / "glossary.yaml"
GLOSSARY_SCHEMA = PACKAGE / "glossary" / "glossary.schema.json"
_INFLECTIONS = r"(?:s|es|ed|ing)?"


@dataclass(frozen=True)
class Term:
    term: str  # the one spelling
    wrong: tuple[str, ...]  # never printed
    names: tuple[str, ...]  # the game's proper names, kept as the game spells them
    note: str  # why

    def pattern(self) -> re.Pattern[str]:
        """Any wrong spelling as a whole word (inflected, or capitalised at a sentence start),
        its words apart by any space (a PDF's text breaks lines anywhere)."""
        forms = {w for w in self.wrong} | {w[:1].upper() + w[1:] for w in self.wrong}
        words = sorted((_spaced(w) for w in forms), key=len, reverse=True)
        return re.compile(rf"(?<![\w-])(?:{'|'.join(words)}){_INFLECTIONS}(?![\w-])")


def _spaced(words: str) -> str:
    return r"\s+".join(re.escape(w) for w in words.split())


@cache
def terms() -> tuple[Term, ...]:
    """The glossary, read and checked once per process; raises ``ValueError`` naming the file
    and the first problem when it does not match its schema."""
    from .repository import read_plain, schema_validator

    data = read_plain(GLOSSARY)
    errors = sorted(schema_validator(GLOSSARY_SCHEMA).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        where = "/".join(map(str, errors[0].path))
        raise ValueError(f"{GLOSSARY}: {where}: {errors[0].message}")
    return tuple(
        Term(t["term"], tuple(t["wrong"]), tuple(t.get("names", ())), " ".join(t["note"].split()))
        for t in data["terms"]
    )


def wrong_spellings(text: str) -> list[str]:
    """Each wrong spelling of a glossary term in ``text``, with a little context (the game's
    proper names read past)."""
    found = []
    for term in terms():
        plain = text
        for name in term.names:
            plain = re.sub(_spaced(name).replace(r"/", r"/\s*"), " ", plain)
        for m in term.pattern().finditer(plain):
            around = " ".join(plain[max(0, m.start() - 30) : m.end() + 20].split())
            found.append(f"{m.group(0)!r} for {term.term!r}: {around!r}")
    return found
