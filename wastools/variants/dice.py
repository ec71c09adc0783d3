"""A variant's dice rule: what each face of an attack die is worth, as data.

Each variant gives one (``Variant.dice``); ``wastools.content.odds`` turns it into exact
chances and the site's ``odds.js`` reads the same numbers from JSON. Faces are listed for
1..6. Where a rule document leaves a point open, the reading chosen is named here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

BASE_GUNNERY = (0, 0, 0, 1, 1, 2)  # 4 or 5 one success, 6 two
SIXES_TWO_DAMAGE = (0, 0, 0, 0, 0, 2)  # torpedoes: only a 6 counts, for 2 points of hull damage
FIVES_AND_SIXES = (0, 0, 0, 0, 1, 2)  # the large playing surface's torpedoes: 5 one point, 6 two


GUN_KINDS = ("main", "secondary", "tertiary")


@dataclass(frozen=True)
class Arc:
    """Where a target lies from the firing ship, where the variant's guns care: ``share`` of
    the gun dice (``all``, half rounded ``up`` or ``down``) and pips off each gun die."""

    name: str
    label: str
    share: str = "all"
    pips: int = 0

    def dice(self, dice: int) -> int:
        return dice if self.share == "all" else math.ceil(dice / 2) if self.share == "up" else dice // 2

    def to_json(self) -> list[Any]:
        return [self.name, self.label, self.share, self.pips]


@dataclass(frozen=True)
class DiceRule:
    """How one attack die counts in a variant.

    ``gunnery`` gives the successes of each face for every attack but torpedoes (compared
    with armor and vital armor); ``torpedo`` the points of hull damage of each face of a
    torpedo die (torpedoes ignore armor in every rule document). ``penalties`` are
    ``(attack kind, band, pips)``: that many pips off each die at that band (off the grid's
    long-range antiair). ``crippled_pips`` come off each non-torpedo die of a crippled
    attacker (its torpedoes lose a die instead, which the variant's dice already show).
    ``fewer_against`` are ``(attack kind, word of the target's name, dice)``: that many dice
    fewer against such a target (antiair at a Swordfish on the hex grid).
    ``arcs`` are the variant's firing arcs for guns, the first one their full effect.
    ``luck`` says the variant offers the optional luck die. ``readings`` names each choice
    made where the rules are silent, for the docs and the site.
    """

    gunnery: tuple[int, ...] = BASE_GUNNERY
    torpedo: tuple[int, ...] = SIXES_TWO_DAMAGE
    penalties: tuple[tuple[str, int, int], ...] = ()
    crippled_pips: int = 0
    fewer_against: tuple[tuple[str, str, int], ...] = ()
    arcs: tuple[Arc, ...] = ()
    luck: bool = False
    readings: tuple[str, ...] = ()

    def faces(self, kind: str) -> tuple[int, ...]:
        return self.torpedo if kind == "torpedo" else self.gunnery

    def arc(self, kind: str, name: str) -> Arc | None:
        """The arc ``name`` where it applies to ``kind`` (guns only), else None."""
        return next((a for a in self.arcs if a.name == name), None) if kind in GUN_KINDS else None

    def dice(self, kind: str, dice: int, arc: str = "") -> int:
        """The dice an attack of ``kind`` rolls into ``arc``."""
        shown = self.arc(kind, arc)
        return shown.dice(dice) if shown else dice

    def pips(self, kind: str, band: int, crippled: bool = False, arc: str = "") -> int:
        """Pips off each die of an attack of ``kind`` at ``band`` (into ``arc``)."""
        off = sum(p for k, b, p in self.penalties if k == kind and b == band)
        shown = self.arc(kind, arc)
        off += shown.pips if shown else 0
        return off + (self.crippled_pips if crippled and kind != "torpedo" else 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "gunnery": list(self.gunnery),
            "torpedo": list(self.torpedo),
            "penalties": [list(p) for p in self.penalties],
            "crippled_pips": self.crippled_pips,
            "fewer_against": [list(f) for f in self.fewer_against],
            "arcs": [a.to_json() for a in self.arcs],
            "luck": self.luck,
            "readings": list(self.readings),
        }


TORPEDO_READING = (
    "Torpedoes: only a 6 counts, for 2 points of hull damage, ignoring armor (the base game's rule "
    "as the hexagon-grid rules restate it; the base game's player aid gives no amount)."
)
BASE = DiceRule(readings=(TORPEDO_READING,))
LARGE_MAP = DiceRule(readings=(TORPEDO_READING, "A carrier's vital armor is 1 lower for each squadron aboard."))
TABLE_CM = DiceRule(readings=(TORPEDO_READING, "A ship with Shallow Draft cannot be targeted by torpedoes."))
HEX = DiceRule(
    fewer_against=(("anti_air", "Swordfish", 1),),
    arcs=(
        Arc("beam", "on the beam: all the gun dice"),
        Arc("ahead", "ahead: half the gun dice, rounded up", "up"),
        Arc("astern", "astern: half the gun dice, rounded down", "down"),
    ),
    readings=(
        "Torpedoes: each 6 is 2 points of hull damage, ignoring armor, as the rules say.",
        "Antiair at a Swordfish (any unit with Swordfish in its name): one die fewer.",
    ),
)
OFF_GRID = DiceRule(
    penalties=(("anti_air", 1, 1),),
    arcs=(
        Arc("beam", "in the broadside arc, or without headings"),
        Arc("ends", "within 20 degrees of the bow or stern: -1 on each gun die (headings rule)", "all", 1),
    ),
    readings=(TORPEDO_READING, "Antiair at long range (2 legs): -1 on each die, as the rules say."),
)
LARGE_SURFACE = DiceRule(
    torpedo=FIVES_AND_SIXES,
    crippled_pips=1,
    luck=True,
    readings=(
        "Torpedoes: each 5 is 1 point of hull damage, each 6 two, ignoring armor.",
        "A crippled attacker: -1 on each die of its other attacks; its torpedoes lose a die instead "
        "(minimum 1), not a pip.",
        "Luck die: its natural 1 and 6 count whatever the penalties; its 2 to 5, and the dice rolled again "
        "after a 6, take them. A 1 removes the best of the other dice; a 1 rolled again after a 6 counts "
        "nothing. Torpedoes use it too, with their own faces.",
    ),
)
