"""How numbers and rules read on paper: one small grammar for every card, aid and page.

Everything a person reads goes through here, so that quantities agree in number
("1 hex", "2 hexes"), ranges collapse ("range 4", not "ranges 4 to 4"), dice are
"1 die", and every variant speaks in its own terms (legs, hexes, inches, centimetres;
"sector" only where the variant has sectors). Pure functions, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# singular -> plural of every unit a quantity may carry
_NOUNS: dict[str, str] = {
    "hex": "hexes",
    "leg": "legs",
    "sector": "sectors",
    "squadron": "squadrons",
    "turn": "turns",
    "counter": "counters",
    "die": "dice",
    "point": "points",
    "unit": "units",
    "ship": "ships",
    "aircraft": "aircraft",
    "hit point": "hit points",
    "marker": "markers",
}
_SINGULAR = {plural: singular for singular, plural in _NOUNS.items()}
# units written as symbols never take a plural
_SYMBOLS = {"in", "cm", "mm", "km/h", "kn", "mph", "m", "ft"}
SPELLING = {"armor": "Armor", "vital": "Vital Armor"}  # the game's own spelling, used everywhere


def number(value: Any) -> str:
    """30.0 -> '30', 2.5 -> '2.5', 2.25 -> '2.25'."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def noun(count: float, unit: str) -> str:
    """The unit as it reads after ``count``: noun('hexes', 1) -> 'hex'."""
    singular = _SINGULAR.get(unit, unit)
    if unit in _SYMBOLS or singular in _SYMBOLS:
        return unit
    if count == 1:
        return singular
    return _NOUNS.get(singular, unit)


def quantity(count: float, unit: str | None) -> str:
    """'1 hex', '2 hexes', '1 leg', '10 cm', '1 die', '3 squadrons'."""
    if not unit:
        return number(count)
    return f"{number(count)} {noun(count, unit)}"


def dice(count: int) -> str:
    return quantity(count, "die")


def plus_dice(count: int) -> str:
    """'+1 die', '+2 dice'."""
    return "+" + dice(count)


def span(low: float, high: float, unit: str | None) -> str:
    """A reach or distance: '1 hex', '2-4 hexes', '0-10 cm' written '10 cm' when it starts at 0."""
    if low == high or low == 0:
        return quantity(high, unit)
    return f"{number(low)}-{quantity(high, unit)}"


def span_bare(low: float, high: float) -> str:
    """A reach without its unit (the unit stands in the header): '1', '2-4'."""
    if low == high or low == 0:
        return number(high)
    return f"{number(low)}-{number(high)}"


def bands(first: int, last: int) -> str:
    """'range 4' or 'ranges 4 to 6'."""
    return f"range {first}" if first == last else f"ranges {first} to {last}"


def series(values: list[Any]) -> str:
    """Dice by band written with slashes: [6, 6, 5] -> '6/6/5'."""
    return "/".join(number(v) for v in values)


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- variant terms -----------------------------------------------------------------------------


# How a variant turns the base game's sector words into its own measure. Off-grid follows
# seed 003's translation (same sector or local = within 1 leg, two friendly ships in the same
# sector = within 2 legs, adjacent = within 2 legs, a sector of movement = 2 legs). Hex follows
# seed 002 (one zone = 3 hexes across) and its range bands (range 0 = 1 hex, range 1 reaches
# 4 hexes): the project's choice, documented in docs/variants/hex.md.
@dataclass(frozen=True)
class Measure:
    local: str  # "in the same sector"
    pair: str  # two friendly ships "in the same sector"
    adjacent: str
    per_sector: int  # movement: one sector of speed in this measure
    unit: str
    reach_from: Callable[[int], int]  # where range band n starts

    def move(self, sectors: int) -> str:
        return quantity(sectors * self.per_sector, self.unit)


MEASURES = {
    "off-grid": Measure("1 leg", "2 legs", "2 legs", 2, "legs", lambda n: 2 * n),
    "hex": Measure("1 hex", "1 hex", "4 hexes", 3, "hexes", lambda n: 3 * n - 1),
}
_FRIENDLY_SHIP = r"(?:a |an |another )?(?:crippled )?friendly (?:carrier|destroyer|cruiser|battleship|ship)"


def _substitutions(m: Measure) -> list[tuple[str, Any]]:
    """(pattern, replacement) pairs, most specific first, from the summaries' own phrasing."""
    return [
        (rf"\bsharing a sector with ({_FRIENDLY_SHIP})", rf"within {m.pair} of \1"),
        (r"\bsharing (?:a|its) sector with\b", f"within {m.local} of"),
        (r"\bshares its sector\b", f"is within {m.local} of it"),
        (r"\bsharing its sector\b", f"within {m.local} of it"),
        (
            r"\badjacent friendly (\S+) alone in their sector\b",
            rf"friendly \1 within {m.adjacent} of it, each with no other ship within {m.local}",
        ),
        (r"\blocal(?:/| or )adjacent (cruiser or destroyer)\b", rf"\1 within {m.adjacent}"),
        (
            (
                r"\b(a |one )?(damaged )?local ((?:friendly |enemy |foe "
                r")?(?:friend|ship|sub|destroyer|cruiser)s?(?: ship)?)\b"
            ),
            rf"\1\2\3 within {m.local}",
        ),
        (r"\bin or adjacent to its sector\b", f"within {m.adjacent}"),
        (r"\blocal(?:/| or )adjacent\b", f"within {m.adjacent}"),
        (r"\bjump to an adjacent sector holding\b", f"move up to {m.adjacent} to end within {m.local} of"),
        (r"\bmove to an adjacent sector with foes\b", f"move up to {m.adjacent} toward foes"),
        (r"\bshift to an adjacent sector\b", f"move up to {m.adjacent}"),
        (r"\bin adjacent sectors\b", f"within {m.adjacent}"),
        (r"\bin different sectors\b", f"more than {m.local} apart"),
        (r"\b(?:step|move) (?:one|a) sector\b", f"move {m.move(1)}"),
        (r"\beach move a sector\b", f"each move {m.move(1)}"),
        (r"\bup to (\d+) sectors\b", lambda g: f"up to {m.move(int(g.group(1)))}"),
        (r"\b(\d+)\+ sectors away\b", lambda g: f"{quantity(m.reach_from(int(g.group(1))), m.unit)} or more away"),
        (r"\bon entering a sector with an enemy sub\b", f"on coming within {m.local} of an enemy sub"),
        (
            r"\bfrom a sector without enemy planes to one with some\b",
            f"from where no enemy planes are to within {m.local} of some",
        ),
        (r"\bsmokes its sector\b", f"lays smoke within {m.local} of itself"),
        (r"\bmines own sector\b", f"lays mines within {m.local} of itself"),
        (
            r"\bits sector may hold three friendly ships rather than two\b",
            f"two other friendly ships may end within {m.pair} of it",
        ),
        (r"\b(?:in|from) (?:its|that|the) sector\b", f"within {m.local}"),
        (
            r"\b(island|shoal|coast|sea)( and shoal| or island)? sectors?\b",
            lambda g: g.group(0).replace("sectors", "areas").replace("sector", "area"),
        ),
        (r"\blocal\b", f"within {m.local}"),
    ]


def in_variant_terms(text: str, variant: str) -> str:
    """An ability summary written for sectors, in the variant's own measure (unchanged for
    variants that have sectors)."""
    measure = MEASURES.get(variant)
    if measure is None:
        return text
    for pattern, replacement in _substitutions(measure):
        text = re.sub(pattern, replacement, text)
    return text


def tidy(text: str) -> str:
    """Last grammar pass over generated prose: '1 hexes' -> '1 hex', 'ranges 4 to 4' -> 'range 4',
    '+1 dice' -> '+1 die', doubled spaces."""
    text = re.sub(r"\branges (\d+) to \1\b", r"range \1", text)
    text = re.sub(
        r"(?<![\d.])1 (hexes|legs|sectors|squadrons|turns|counters|dice|points|markers)\b",
        lambda m: "1 " + _SINGULAR[m.group(1)],
        text,
    )
    text = re.sub(r"\s{2,}", " ", text)
    return text.strip()


# Patterns that must never be printed (the wording lint of every deck, aid and page).
LINT_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        r"(?<![\d.,])1 (?:hexes|legs|sectors|squadrons|turns|counters|dice|points|markers)\b",
        "singular count with a plural noun",
    ),
    (r"\branges (\d+) to \1\b", "a range that should collapse"),
    (r"\b[a-z]+_[a-z_]+\b", "an internal key"),
    (r"\(s\)", "a lazy plural"),
    (r"\bair mission move\b", "a placeholder instead of a movement"),
    (r"\bNone\b", "a missing value printed as None"),
)


def lint(text: str, has_sectors: bool = True) -> list[str]:
    """Wording problems in a printed text (empty when it reads as a person wrote it)."""
    found = [f"{why}: {m.group(0)!r}" for pattern, why in LINT_PATTERNS for m in re.finditer(pattern, text)]
    if not has_sectors:
        found += [
            f"'sector' in a variant without sectors: ...{text[max(0, m.start() - 30) : m.end() + 10]!r}"
            for m in re.finditer(r"\bsectors?\b", text, re.IGNORECASE)
        ]
    return found
