"""How numbers and rules read on paper: one small grammar for every card, aid and page.

Everything a person reads goes through here, so that quantities agree in number
("1 hex", "2 hexes"), ranges collapse ("range 4", not "ranges 4 to 4"), dice are
"1 die", and every variant speaks in its own terms (legs, hexes, inches, centimeters;
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


def number(value: Any) -> str:
    """30.0 -> '30', 2.5 -> '2.5', 2.25 -> '2.25'."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def setting(value: Any) -> str:
    """A setting's value as prose prints it: yes or no for a switch, 4.0 as 4."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return number(value)


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


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- variant terms -----------------------------------------------------------------------------


# How a variant without sectors reads the base game's sector words and range bands, as one
# explicit table per variant (the variant module builds it from its own numbers; the rules
# register records each one). Off-grid follows seed 003's own translation (same sector or
# local = within 1 leg, two friendly ships in the same sector = within 2 legs, adjacent =
# within 2 legs, a sector of movement = 2 legs, a range = the range table); the others make
# the same translation with their own sector and range table.
@dataclass(frozen=True)
class Measure:
    unit: str  # the plural noun or symbol every distance is printed in: legs, hexes, cm, in
    local: float  # a unit "in the same sector" or "local": within this
    pair: float  # two friendly ships "in the same sector": within this of each other
    adjacent: float  # "adjacent": within this
    per_sector: float  # one sector of movement
    discrete: bool  # counted in whole legs or hexes ("6 legs or more"), or measured ("more than 30 cm")
    band: Callable[[int, str | None], tuple[float, float] | None]  # (band, weapon) -> first and last as printed
    scale: str = ""  # what the numbers depend on, where a player chooses it: "6 ft table"
    per_weapon: bool = False  # a range in an ability reads off the weapon's own range table

    def q(self, value: float) -> str:
        return quantity(value, self.unit)

    def move(self, sectors: float) -> str:
        return self.q(sectors * self.per_sector)

    def reach(self, band: int, weapon: str | None = None) -> str:
        """A band's reach: '1 leg', '2-3 legs', '10-20 cm', '8-10 hexes'."""
        low, high = self._band(band, weapon)
        return span(low, high, self.unit)

    def farthest(self, band: int, weapon: str | None = None) -> str:
        return self.q(self._band(band, weapon)[1])

    def beyond(self, band: int, weapon: str | None = None) -> str:
        """Where a band starts: '6 legs or more', 'more than 30 cm'."""
        low = self._band(band, weapon)[0]
        return f"{self.q(low)} or more" if self.discrete else f"more than {self.q(low)}"

    def dice_at(self, band: int, weapon: str | None = None) -> str:
        """'its dice at 6-7 legs', 'its dice within 1 leg'."""
        low, high = self._band(band, weapon)
        where = f"within {self.q(high)}" if band == 0 else f"at {span(low, high, self.unit)}"
        return f"its dice {where}"

    def span_of(self, first: int, last: int, weapon: str | None = None) -> str:
        """Bands first..last as one reach: ranges 4 to 5 = '8-11 legs'."""
        low, high = self._band(first, weapon)[0], self._band(last, weapon)[1]
        return span(low, high, self.unit)

    def _band(self, band: int, weapon: str | None) -> tuple[float, float]:
        found = self.band(band, weapon)
        if found is None:
            raise ValueError(f"range {band} has no reach in {self.unit}")
        return found

    def table(self) -> list[tuple[str, str]]:
        """The translation as a player looks it up: (the base game's words, quoted; what to read)."""
        return [
            (_quoted("in the same sector", "local"), f"within {self.q(self.local)}"),
            (_quoted("two friendly ships in the same sector"), f"within {self.q(self.pair)} of each other"),
            (_quoted("adjacent", "next to"), f"within {self.q(self.adjacent)}"),
            (_quoted("move 1 sector"), self.move(1)),
            (_quoted("range 0"), f"within {self.farthest(0)}"),
        ] + [(_quoted(f"range {band}"), self.reach(band)) for band in (1, 2, 3)]


def _quoted(*words: str) -> str:
    """The base game's own words, in quotation marks (the wording lint reads past quotations)."""
    return ", ".join(f"\u201c{word}\u201d" for word in words)


_FRIENDLY_SHIP = r"(?:a |an |another )?(?:crippled )?friendly (?:carrier|destroyer|cruiser|battleship|ship)"
_N = r"(\d+)"


def _weapon(text: str) -> str | None:
    """The weapon an ability's ranges belong to (where a variant's reaches differ by weapon)."""
    for words, weapon in (
        ("main gunnery", "main"),
        ("torpedo attack reaches", "torpedo"),
        ("torpedo shots", "torpedo"),
        ("antiair reaches", "anti_air"),
    ):
        if words in text:
            return weapon
    return None


def _substitutions(m: Measure, weapon: str | None) -> list[tuple[str, Any]]:
    """(pattern, replacement) pairs, most specific first, from the summaries' own phrasing."""

    def band(fn: Callable[..., str]) -> Callable[[re.Match[str]], str]:
        """A replacement from the match's band numbers (and the summary's weapon)."""

        def text(g: re.Match[str]) -> str:
            try:
                return fn(*(int(n) for n in g.groups()), weapon)
            except ValueError:  # a band past the end of the variant's table for this weapon
                return f"{g.group(0)} (beyond this variant's range table)"

        return text

    local, pair, adjacent, one_move = m.q(m.local), m.q(m.pair), m.q(m.adjacent), m.move(1)
    return [
        # ranges, read off the variant's range table
        (rf"\branges {_N} to {_N}\b", band(m.span_of)),
        (rf"\bwith its range-{_N} dice\b", band(lambda n, wpn: "with " + m.dice_at(n, wpn))),
        (rf"\b(?:within|up to) range {_N}\b", band(lambda n, wpn: "within " + m.farthest(n, wpn))),
        (rf"\bat range {_N} or less\b", band(lambda n, wpn: "within " + m.farthest(n, wpn))),
        (rf"\bfrom range {_N} or more\b", band(lambda n, wpn: "from " + m.beyond(n, wpn))),
        (rf"\bat range {_N}\b", band(lambda n, wpn: "at " + m.reach(n, wpn))),
        (rf"\breaches range {_N}\b", band(lambda n, wpn: "reaches " + m.farthest(n, wpn))),
        (rf"\b{_N}\+ sectors away\b", band(lambda n, _wpn: m.beyond(n) + " away")),
        # sector words
        (rf"\bsharing a sector with ({_FRIENDLY_SHIP})", rf"within {pair} of \1"),
        (r"\bsharing (?:a|its) sector with\b", f"within {local} of"),
        (r"\bshares its sector\b", f"is within {local} of it"),
        (r"\bsharing its sector\b", f"within {local} of it"),
        (
            r"\badjacent friendly ([\w ]+?) alone in their sector\b",
            rf"friendly \1 within {adjacent} of it, each with no other ship within {local},",
        ),
        (r"\blocal(?:/| or )adjacent (cruiser or destroyer)\b", rf"\1 within {adjacent}"),
        (
            (
                r"\b(a |one )?(damaged )?local ((?:friendly |enemy |foe "
                r")?(?:friend|ship|sub|destroyer|cruiser)s?(?: ship)?)\b"
            ),
            rf"\1\2\3 within {local}",
        ),
        (r"\bin or adjacent to its sector\b", f"within {adjacent}"),
        (r"\blocal(?:/| or )adjacent\b", f"within {adjacent}"),
        (r"\bjump to an adjacent sector holding\b", f"move up to {one_move} to end within {local} of"),
        (r"\bmove to an adjacent sector with foes\b", f"move up to {one_move} to end within {local} of foes"),
        (r"\bshift to an adjacent sector\b", f"move up to {one_move}"),
        (r"\bin adjacent sectors\b", f"within {adjacent}"),
        (r"\bin different sectors\b", f"more than {local} apart"),
        (r"\b(?:step|move) (?:one|a) sector\b", f"move {one_move}"),
        (r"\beach move a sector\b", f"each move {one_move}"),
        (r"\bstep a sector away\b", f"move {one_move} away"),
        (rf"\bup to {_N} sectors\b", lambda g: f"up to {m.move(int(g.group(1)))}"),
        (r"\bon entering a sector with an enemy sub\b", f"on coming within {local} of an enemy sub"),
        (
            r"\bfrom a sector without enemy planes to one with some\b",
            f"from where no enemy planes are to within {local} of some",
        ),
        (r"\bsmokes its sector\b", f"lays smoke within {local} of itself"),
        (r"\bmines its sector\b", f"lays mines within {local} of itself"),
        (r"\bmine its sector\b", f"lay mines within {local} of itself"),
        (
            r"\bits sector may hold three friendly ships rather than two\b",
            f"two other friendly ships may end within {pair} of it",
        ),
        (r"\bjoins it in its sector\b", f"ends within {local} of it"),
        (r"\bevery other enemy ship in that sector\b", f"every other enemy ship within {local} of the target"),
        (r"\b(?:in|from) (?:its|that|the) sector\b", f"within {local}"),
        (r"\bin island sectors\b", f"within {local} of an island"),
        (r"\bin coast or island sectors\b", f"within {local} of a coast or island"),
        (r"\bnext to (an? )?", rf"within {adjacent} of \1"),
        (r"\b(island|shoal|coast)( and shoal| or island)? sectors\b", r"\1\2 areas"),
        (r"\blocal\b", f"within {local}"),
    ]


def in_variant_terms(text: str, measure: Measure | None) -> str:
    """An ability summary written for sectors, in the variant's own measure (unchanged for
    variants that have sectors, whose measure is None)."""
    if measure is None:
        return text
    weapon = _weapon(text)
    for pattern, replacement in _substitutions(measure, weapon):
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
    text = re.sub(r"\ba (?=(?:enemy|auxiliary|aircraft|air)\b)", "an ", text)
    text = re.sub(r"\bon (\d) or lower\b", lambda m: "on " + _faces(int(m.group(1))), text)
    text = re.sub(r"\bon (\d) or higher\b", lambda m: "on " + ("a 6" if m.group(1) == "6" else f"{m.group(1)}+"), text)
    text = re.sub(r"\s{2,}", " ", text)
    return text.strip()


def _faces(top: int) -> str:
    """A die's faces up to ``top``: 'a 1', 'a 1 or 2', '1-3'."""
    return {1: "a 1", 2: "a 1 or 2"}.get(top, f"1-{top}")


# Patterns that must never be printed (the wording lint of every deck, aid and page).
LINT_PATTERNS: tuple[tuple[str, str], ...] = (
    (
        r"(?<![\d.,-])1 (?:hexes|legs|sectors|squadrons|turns|counters|dice|points|markers)\b",
        "singular count with a plural noun",
    ),
    (r"\branges (\d+) to \1\b", "a range that should collapse"),
    (r"\b[a-z]+_[a-z_]+\b", "an internal key"),
    (r"\(s\)", "a lazy plural"),
    (r"\bair mission move\b", "a placeholder instead of a movement"),
    (r"\bNone\b", "a missing value printed as None"),
    # the project's own words: a rule document is named by its title, never by its number
    (r"(?i)\bseeds?\b", "the project's name for a rule document"),
    # formulas, where a person would write words and numbers
    (r"\bfloor\(|\bmph ?/ ?12\b|\bx 1760\b|\b\d?r ?[-+] ?\d\b|\(r \+ 1\)|\bband r\b", "a formula"),
    # a variant's name as the code spells it (a folder of the build, "large-map/rulers.pdf", is
    # a file's name a player looks for, and passes)
    (r"\b(?:large-map|off-grid|tabletop-cm|tabletop-inches)\b(?!/)", "a variant's internal name"),
    # one spelling, the game's American one
    (
        r"(?i)\b(?:armour\w*|defence\w*|colour\w*|harbour\w*|centimetres?|millimetres?|metres?|centres?|centred"
        r"|neighbours?|favour\w*|penalis\w*|recognis\w*|organis\w*|travelled|manoeuvr\w*|behaviour\w*|grey)\b",
        "a British spelling",
    ),
)
# In a variant without sectors: the base game's words are read in the variant's measure. Words
# in quotation marks are the base game's own, quoted (a translation table), and pass.
SECTOR_WORDS = r"(?i)\b(?:sectors?|local|adjacent)\b"
DISTANCE = r"\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s*(?:legs?|hex(?:es)?|cm|in|inches)\b"
# "range 3" not followed by its distance ("range 0 (1 leg)", "range 1 is 2-4 hexes", a table row "range 1 2-3 legs")
BARE_RANGE = rf"\brange[ -]\d+\b(?!\s*(?:\(|is\b|reaches\b|=|:|,)?\s*(?:within |up to |at )?{DISTANCE})"
QUOTED = re.compile(r"\u201c[^\u201d]*\u201d")


def lint(text: str, has_sectors: bool = True) -> list[str]:
    """Wording problems in a printed text (empty when it reads as a person wrote it)."""
    found = [f"{why}: {_around(text, m)}" for pattern, why in LINT_PATTERNS for m in re.finditer(pattern, text)]
    if not has_sectors:
        plain = QUOTED.sub("\u201c\u201d", text)
        found += [f"a sector word without sectors: {_around(plain, m)}" for m in re.finditer(SECTOR_WORDS, plain)]
        found += [f"a range without its distance: {_around(plain, m)}" for m in re.finditer(BARE_RANGE, plain)]
    return found


def _around(text: str, match: re.Match[str]) -> str:
    """The match with a little of its context, on one line."""
    start, end = max(0, match.start() - 30), match.end() + 20
    return repr(" ".join(text[start:end].split()))
