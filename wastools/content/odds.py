"""The odds of an attack: exact chances, as fractions, from the dice distribution.

An attack rolls its dice; each face counts what the variant's :class:`DiceRule` says.
Gunnery, bombs, antiair and ASW add successes: at least the target's armor is 1 point of
hull damage (an aircraft aborts), at least its vital armor destroys it. Torpedoes add
points of hull damage directly. The optional luck die (the large playing surface's) is
one of the attack's dice: a natural 1 removes the best of the others, a natural 6 counts
two and is rolled again on every further 6. Chances are computed by convolution over the
dice, never by simulation; the luck die's endless re-rolls are summed in closed form up to
the one total that matters (every total at or above the highest threshold acts the same).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core.model import Unit
from ..variants.base import Variant
from ..variants.dice import DiceRule

SIXTH = Fraction(1, 6)
Dist = dict[int, Fraction]  # total -> probability


@dataclass(frozen=True)
class Defense:
    """What an attack must beat: armor and vital armor, and the hull points left (None for
    an aircraft, which aborts instead of taking damage)."""

    armor: int
    vital: int
    hull: int | None
    fewer: tuple[tuple[str, int], ...] = ()  # (attack kind, dice fewer) against this target

    @property
    def aircraft(self) -> bool:
        return self.hull is None

    def dice(self, kind: str, dice: int) -> int:
        """The dice an attack of ``kind`` rolls at this target."""
        return max(0, dice - sum(n for k, n in self.fewer if k == kind))


@dataclass(frozen=True)
class Odds:
    """``damaged``: at least 1 point of hull damage (an aircraft: aborted or worse);
    ``sunk``: sunk or destroyed; ``expected``: hull points lost on average, a sinking
    counting every point left (None against aircraft)."""

    damaged: Fraction
    sunk: Fraction
    expected: Fraction | None


def die_values(faces: tuple[int, ...], pips: int) -> list[int]:
    """What each face 1..6 counts with ``pips`` off it (a face pushed below 1 counts nothing)."""
    return [faces[f - 1 - pips] if f - pips >= 1 else 0 for f in range(1, 7)]


def pool(values: list[int], dice: int) -> Dist:
    """The distribution of the sum of ``dice`` dice whose faces count ``values``."""
    dist: Dist = {0: Fraction(1)}
    for _ in range(dice):
        step: Dist = defaultdict(Fraction)
        for total, p in dist.items():
            for v in values:
                step[total + v] += p * SIXTH
        dist = dict(step)
    return dist


def pool_with_best(values: list[int], dice: int) -> dict[tuple[int, int], Fraction]:
    """The joint distribution of (sum, best die) of ``dice`` dice (best is 0 for no dice)."""
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(dice):
        step: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (total, best), p in dist.items():
            for v in values:
                step[total + v, max(best, v)] += p * SIXTH
        dist = dict(step)
    return dist


def capped(dist: Dist, cap: int) -> Dist:
    """Every total at or above ``cap`` merged into ``cap``."""
    out: Dist = defaultdict(Fraction)
    for total, p in dist.items():
        out[min(total, cap)] += p
    return dict(out)


def rerolls(values: list[int], six: int, cap: int) -> Dist:
    """What the luck die adds after a lucky 6, capped at ``cap``: it is rolled again, a 1
    counting nothing, 2-5 their ``values``, a 6 ``six`` more and another roll."""
    last = [0] + values[1:5]  # a roll that ends the run
    if six <= 0:  # a six that adds nothing only repeats the roll: the run ends on 1-5
        return capped({v: Fraction(last.count(v), 5) for v in set(last)}, cap)
    out: Dist = defaultdict(Fraction)
    reach, weight = 0, Fraction(1)  # after k sixes: k * six counted, with chance (1/6)^k
    while reach < cap:
        for v in last:
            out[min(reach + v, cap)] += weight * SIXTH
        reach, weight = reach + six, weight * SIXTH
    out[cap] += weight  # enough sixes in a row: the cap is reached whatever follows
    return dict(out)


def luck_pool(values: list[int], faces: tuple[int, ...], dice: int, cap: int) -> Dist:
    """``dice`` dice, one of them the luck die, capped at ``cap``. The luck die's natural 1
    and 6 keep their meaning whatever the pips off the other faces (``values``)."""
    others = pool_with_best(values, dice - 1)
    plain = capped(pool(values, dice - 1), cap)
    out: Dist = defaultdict(Fraction)
    for (total, best), p in others.items():  # natural 1: the best other die does not count
        out[min(total - best, cap)] += p * SIXTH
    for face in range(2, 6):
        for total, p in plain.items():
            out[min(total + values[face - 1], cap)] += p * SIXTH
    six = faces[5]
    after = rerolls(values, six, cap)
    for total, p in plain.items():
        for extra, q in after.items():
            out[min(total + six + extra, cap)] += p * q * SIXTH
    return dict(out)


def totals(
    rule: DiceRule,
    kind: str,
    band: int,
    dice: int,
    cap: int,
    crippled: bool = False,
    luck: bool = False,
    arc: str = "",
) -> Dist:
    """The distribution of an attack's total (successes, or a torpedo's hull damage), capped;
    ``dice`` are those rolled (after any arc's share), ``arc`` adds its pips."""
    faces = rule.faces(kind)
    values = die_values(faces, rule.pips(kind, band, crippled, arc))
    if luck and rule.luck and dice >= 1:
        return luck_pool(values, faces, dice, cap)
    return capped(pool(values, dice), cap)


def outcome(dist: Dist, kind: str, target: Defense) -> Odds:
    """Damage and sinking from an attack's capped distribution."""
    if kind == "torpedo":
        hull = target.hull if target.hull is not None else 1
        damaged = sum((p for t, p in dist.items() if t >= 1), Fraction(0))
        sunk = sum((p for t, p in dist.items() if t >= hull), Fraction(0))
        expected = sum((p * min(t, hull) for t, p in dist.items()), Fraction(0))
        return Odds(damaged, sunk, None if target.aircraft else expected)
    destroyed = sum((p for t, p in dist.items() if t >= target.vital), Fraction(0))
    hit = sum((p for t, p in dist.items() if t >= target.armor and t < target.vital), Fraction(0))
    if target.aircraft:
        return Odds(destroyed + hit, destroyed, None)
    hull = target.hull or 1
    sunk = destroyed + (hit if hull <= 1 else Fraction(0))
    return Odds(destroyed + hit, sunk, destroyed * hull + hit)


def odds(
    rule: DiceRule,
    kind: str,
    band: int,
    dice: int,
    target: Defense,
    crippled: bool = False,
    luck: bool = False,
    arc: str = "",
) -> Odds:
    """The odds of the card's ``dice`` for an attack of ``kind`` at ``band`` against ``target``;
    ``crippled`` is the attacker's state (its dice are the variant's crippled dice already),
    ``arc`` where the target lies, in a variant whose guns have arcs."""
    if kind == "torpedo":
        cap = max(1, target.hull or 1)
    else:
        cap = max(0, target.armor, target.vital)
    rolled = target.dice(kind, rule.dice(kind, dice, arc))
    return outcome(totals(rule, kind, band, rolled, cap, crippled, luck, arc), kind, target)


def hull_damage(dist: Dist, kind: str, target: Defense) -> Dist:
    """Points of hull lost by one attack (a sinking counts every point left); against an
    aircraft 1 is aborted and 2 destroyed."""
    hull = target.hull if target.hull is not None else 1
    out: Dist = defaultdict(Fraction)
    for t, p in dist.items():
        if kind == "torpedo":
            lost = (2 if t >= 1 else 0) if target.aircraft else min(t, hull)
        elif t >= target.vital:
            lost = 2 if target.aircraft else hull
        else:
            lost = 1 if t >= target.armor else 0
        out[lost] += p
    return dict(out)


def together(parts: list[Dist], target: Defense) -> Odds:
    """Several attacks of one phase on one target: damage lands at the phase's end, so hull
    damage adds up (no attack meets a crippled target); an aircraft suffers the worst one."""
    if target.aircraft:
        untouched, alive = Fraction(1), Fraction(1)
        for d in parts:
            untouched *= d.get(0, Fraction(0))
            alive *= 1 - d.get(2, Fraction(0))
        return Odds(1 - untouched, 1 - alive, None)
    hull = target.hull or 1
    total: Dist = {0: Fraction(1)}
    for d in parts:
        step: Dist = defaultdict(Fraction)
        for a, p in total.items():
            for b, q in d.items():
                step[min(a + b, hull)] += p * q
        total = dict(step)
    expected = sum((k * p for k, p in total.items()), Fraction(0))
    return Odds(1 - total.get(0, Fraction(0)), total.get(hull, Fraction(0)), expected)


# --- units ---------------------------------------------------------------------------------


def can_attack(kind: str, target: Unit, immune_to_torpedoes: bool = False) -> bool:
    """Antiair fires at aircraft, ASW at submarines, every other attack at surface ships."""
    if kind == "anti_air":
        return target.is_aircraft
    if kind == "asw":
        return target.type == "submarine"
    if kind == "torpedo" and immune_to_torpedoes:
        return False
    return not target.is_aircraft and target.type != "submarine"


def defense(variant: Variant, params: dict[str, Any], target: Unit, crippled: bool = False, aboard: int = 0) -> Defense:
    """The target's armor, vital armor and hull left in ``variant``: a crippled target has 1
    hull point left and the variant's crippled armor; a carrier's vital armor drops by the
    squadrons ``aboard`` where the variant says so (the large map)."""
    adapted = variant.adapt(target, params, crippled=crippled)
    rules = adapted.rules
    armor = rules["armor"].value if "armor" in rules else target.armor
    vital = rules["vital_armor"].value if "vital_armor" in rules else target.vital_armor
    by_aboard = rules.get("vital_armor_by_squadrons_aboard")
    if by_aboard is not None and aboard:
        steps = by_aboard.value
        vital = min(vital, steps[min(aboard, len(steps) - 1)])
    fewer = tuple((kind, n) for kind, word, n in variant.dice.fewer_against if word in target.name)
    return Defense(armor, vital, None if target.is_aircraft else 1 if crippled else target.hull, fewer)


def torpedo_immune(variant: Variant, params: dict[str, Any], target: Unit) -> bool:
    """Whether the variant lets no torpedo at ``target`` (shallow draft on the table in cm)."""
    rule = variant.adapt(target, params).rules.get("torpedo_immune")
    return bool(rule and rule.value)


def attack_odds(
    variant: Variant,
    params: dict[str, Any],
    attacker: Unit,
    kind: str,
    band: int,
    target: Unit,
    *,
    attacker_crippled: bool = False,
    target_crippled: bool = False,
    luck: bool = False,
    aboard: int = 0,
    arc: str = "",
) -> Odds | None:
    """The odds of ``attacker``'s ``kind`` attack at range ``band`` against ``target`` in
    ``variant``, with the dice its card has there in that variant; None where it has no dice
    there or cannot fire at that target."""
    attack = variant.adapt(attacker, params, crippled=attacker_crippled).attack(kind)
    dice = next((b.dice for b in attack.bands if b.band == band and b.dice), 0) if attack else 0
    if not dice or not can_attack(kind, target, torpedo_immune(variant, params, target)):
        return None
    shown = defense(variant, params, target, target_crippled, aboard)
    return odds(variant.dice, kind, band, dice, shown, attacker_crippled, luck, arc)
