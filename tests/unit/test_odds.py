"""The odds module against a literal enumeration of every die outcome, in every variant,
plus properties and cases worked by hand from the rule documents' own words."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wastools.content.odds import (
    Defense,
    Odds,
    attack_odds,
    can_attack,
    defense,
    hull_damage,
    odds,
    together,
    torpedo_immune,
    totals,
)
from wastools.variants import VARIANTS
from wastools.variants.dice import DiceRule

KINDS = ("main", "anti_air", "torpedo")
F = Fraction


def _value(rule: DiceRule, kind: str, band: int, crippled: bool, face: int, arc: str = "") -> int:
    """What one die shows, read straight off the rule's face list."""
    shifted = face - rule.pips(kind, band, crippled, arc)
    return rule.faces(kind)[shifted - 1] if shifted >= 1 else 0


def _luck_runs(rule: DiceRule, kind: str, band: int, crippled: bool, enough: int):
    """Every run of the luck die after a lucky 6, as (what it adds, its chance), rolled out
    one die at a time until the run ends or has added enough to decide everything."""
    runs, open_runs = [], [(0, F(1))]
    while open_runs:
        added, p = open_runs.pop()
        if added >= enough:
            runs.append((added, p))
            continue
        for face in range(1, 7):
            q = p / 6
            if face == 6:
                open_runs.append((added + rule.faces(kind)[5], q))
            else:
                runs.append((added + (0 if face == 1 else _value(rule, kind, band, crippled, face)), q))
    return runs


def _rolls(rule: DiceRule, kind: str, band: int, dice: int, crippled: bool, luck: bool, enough: int):
    """(total, chance) for every way the dice can fall."""
    for faces in product(range(1, 7), repeat=dice):
        p = F(1, 6**dice)
        if not (luck and rule.luck and dice):
            yield sum(_value(rule, kind, band, crippled, f) for f in faces), p
            continue
        lucky, others = faces[0], sorted(_value(rule, kind, band, crippled, f) for f in faces[1:])
        if lucky == 1:
            yield sum(others[:-1]), p
        elif lucky == 6:
            for added, q in _luck_runs(rule, kind, band, crippled, enough):
                yield sum(others) + rule.faces(kind)[5] + added, p * q
        else:
            yield sum(others) + _value(rule, kind, band, crippled, lucky), p


def brute(rule, kind, band, dice, target: Defense, crippled=False, luck=False, arc="") -> Odds:
    damaged = sunk = expected = F(0)
    enough = max(target.armor, target.vital, target.hull or 1)
    shown = rule.arc(kind, arc)
    if shown is not None:  # the arc's share of the dice, and its pips on each
        dice = {"all": dice, "up": (dice + 1) // 2, "down": dice // 2}[shown.share]
        rule = dataclasses.replace(rule, penalties=rule.penalties + ((kind, band, shown.pips),), arcs=())
    for total, p in _rolls(rule, kind, band, dice, crippled, luck, enough):
        if kind == "torpedo":
            hull = target.hull or 1
            damaged += p if total >= 1 else 0
            sunk += p if total >= hull else 0
            expected += p * min(total, hull)
        elif total >= target.vital:
            damaged, sunk, expected = damaged + p, sunk + p, expected + p * (target.hull or 0)
        elif total >= target.armor:
            damaged += p
            expected += p
            sunk += p if target.hull is not None and target.hull <= 1 else 0
    return Odds(damaged, sunk, None if target.aircraft else expected)


TARGETS = [Defense(1, 2, 1), Defense(2, 4, 3), Defense(3, 5, 2), Defense(4, 3, 4), Defense(1, 3, None)]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_variant_agrees_with_enumerating_every_die(name):
    rule = VARIANTS[name].dice
    arcs = ("", *(a.name for a in rule.arcs))
    for kind, dice, target, band, arc in product(KINDS, range(0, 5), TARGETS, (0, 1), arcs):
        for crippled, luck in product((False, True), (False, True) if rule.luck else (False,)):
            got = odds(rule, kind, band, dice, target, crippled, luck, arc)
            want = brute(rule, kind, band, dice, target, crippled, luck, arc)
            assert got == want, (name, kind, dice, target, luck, arc)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_five_dice_agree_too(name):
    rule = VARIANTS[name].dice
    for kind in ("main", "torpedo"):
        for luck in (False, True) if rule.luck else (False,):
            target = Defense(3, 6, 3)
            assert odds(rule, kind, 0, 5, target, luck=luck) == brute(rule, kind, 0, 5, target, luck=luck)


def test_the_rules_differ_where_the_documents_do():
    torpedo = Defense(9, 9, 2)
    one = {name: odds(VARIANTS[name].dice, "torpedo", 0, 1, torpedo).damaged for name in VARIANTS}
    assert one["hex"] == one["standard"] == F(1, 6)  # only a 6
    assert one["tabletop-inches"] == F(1, 3)  # fives and sixes
    assert VARIANTS["tabletop-inches"].dice.luck and not VARIANTS["hex"].dice.luck


# --- worked by hand from the rules' text ---------------------------------------------------


def test_base_game_gunnery_by_hand():
    rule = VARIANTS["standard"].dice
    # 1 die: a 4, 5 or 6 reaches armor 1; only a 6 (two successes) reaches vital armor 2
    assert odds(rule, "main", 0, 1, Defense(1, 2, 3)) == Odds(F(1, 2), F(1, 6), F(1, 3) + F(1, 6) * 3)
    # 2 dice against armor 2: not 0 successes (1/4) nor exactly 1 (2 x 1/2 x 1/3)
    assert odds(rule, "main", 0, 2, Defense(2, 4, 3)).damaged == 1 - F(1, 4) - F(1, 3)
    assert odds(rule, "main", 0, 2, Defense(2, 4, 3)).sunk == F(1, 36)  # boxcars only
    # a target with 1 hull point left sinks on any damage
    assert odds(rule, "main", 0, 1, Defense(1, 2, 1)).sunk == F(1, 2)


def test_hex_torpedoes_by_hand():
    # "Torpedo attacks cause 2 points of hull damage on a roll of 6"
    two = odds(VARIANTS["hex"].dice, "torpedo", 0, 2, Defense(5, 9, 3))
    assert two.damaged == 1 - F(25, 36) and two.sunk == F(1, 36)
    assert odds(VARIANTS["hex"].dice, "torpedo", 0, 1, Defense(5, 9, 2)).sunk == F(1, 6)


def test_large_surface_by_hand():
    rule = VARIANTS["tabletop-inches"].dice
    # "a 5 counts as a hit for 1 point of hull damage while a 6 counts as 2"
    assert odds(rule, "torpedo", 0, 1, Defense(9, 9, 2)) == Odds(F(1, 3), F(1, 6), F(1, 6) + F(2, 6))
    # a crippled attacker: -1 on each die, so only a 5 or 6 is a success, and never two
    assert odds(rule, "main", 0, 1, Defense(1, 2, 3), crippled=True) == Odds(F(1, 3), F(0), F(1, 3))
    # the luck die alone: 3 successes only as a 6 (2) then a 4, 5 or 6
    assert odds(rule, "main", 0, 1, Defense(3, 3, 3), luck=True).damaged == F(1, 6) * F(1, 2)
    # a 6 and another 6 makes 4, whatever comes after
    assert odds(rule, "main", 0, 1, Defense(4, 4, 3), luck=True).damaged == F(1, 36)
    # two dice, one the luck die, against armor 2: a luck 1 removes the other die
    got = odds(rule, "main", 0, 2, Defense(2, 9, 3), luck=True).damaged
    other = {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    by_hand = F(2, 6) * other[2] + F(2, 6) * (other[1] + other[2]) + F(1, 6)  # 2-3, 4-5, 6
    assert got == by_hand


def test_a_swordfish_takes_one_antiair_die_fewer_on_the_hex_grid(repo):
    hex_ = VARIANTS["hex"]
    swordfish = next(u for u in repo.units.values() if "Swordfish" in u.name)
    shown = defense(hex_, hex_.defaults(), swordfish)
    plain = dataclasses.replace(shown, fewer=())
    assert shown.dice("anti_air", 3) == 2 and shown.dice("main", 3) == 3
    assert odds(hex_.dice, "anti_air", 0, 3, shown) == odds(hex_.dice, "anti_air", 0, 2, plain)
    assert defense(VARIANTS["standard"], {}, swordfish).fewer == ()


def test_arcs_by_hand():
    hex_, off = VARIANTS["hex"].dice, VARIANTS["off-grid"].dice
    ship = Defense(2, 5, 3)
    # "half dice rounded up at targets in the forward arc, ... rounded down in the rearward arc"
    assert odds(hex_, "main", 1, 5, ship, arc="ahead") == odds(hex_, "main", 1, 3, ship)
    assert odds(hex_, "main", 1, 5, ship, arc="astern") == odds(hex_, "main", 1, 2, ship)
    assert odds(hex_, "main", 1, 5, ship, arc="beam") == odds(hex_, "main", 1, 5, ship)
    assert odds(hex_, "torpedo", 1, 5, ship, arc="ahead") == odds(hex_, "torpedo", 1, 5, ship)  # guns only
    # off the grid, outside the broadside arc: -1 on each gun die, so one die reaches armor 1 on a 5 or 6
    assert odds(off, "main", 0, 1, Defense(1, 3, 2), arc="ends").damaged == F(1, 3)
    assert odds(off, "anti_air", 0, 1, Defense(1, 3, None), arc="ends").damaged == F(1, 2)


def test_off_grid_long_range_antiair_by_hand():
    rule = VARIANTS["off-grid"].dice
    plane = Defense(1, 3, None)
    assert odds(rule, "anti_air", 0, 1, plane).damaged == F(1, 2)
    assert odds(rule, "anti_air", 1, 1, plane).damaged == F(1, 3)  # -1: a 5 or a 6
    assert odds(VARIANTS["standard"].dice, "anti_air", 1, 1, plane).damaged == F(1, 2)


def test_large_map_carriers_lose_vital_armor_per_squadron(repo):
    carrier = next(u for u in repo.units.values() if u.type == "carrier" and u.carrier_capacity)
    v = VARIANTS["large-map"]
    empty, full = defense(v, v.defaults(), carrier), defense(v, v.defaults(), carrier, aboard=carrier.carrier_capacity)
    assert full.vital == max(0, carrier.vital_armor - carrier.carrier_capacity) < empty.vital == carrier.vital_armor
    assert defense(VARIANTS["standard"], {}, carrier, aboard=2).vital == carrier.vital_armor


def test_crippled_targets_take_the_variants_armor(repo):
    ship = next(u for u in repo.units.values() if u.type == "battleship")
    for name in ("hex", "tabletop-inches"):
        v = VARIANTS[name]
        hurt = defense(v, v.defaults(), ship, crippled=True)
        assert hurt.hull == 1 and hurt.armor == ship.armor - 1 and hurt.vital == ship.vital_armor - 1
    assert defense(VARIANTS["standard"], {}, ship, crippled=True).armor == ship.armor


def test_crippled_pips_are_the_variants_own(repo):
    ship = next(u for u in repo.units.values() if u.type == "battleship")
    for v in VARIANTS.values():
        rule = v.adapt(ship, None, crippled=True).rules.get("attack_die_penalty")
        assert v.dice.crippled_pips == (rule.value if rule else 0), v.name


def test_targets(repo):
    units = list(repo.units.values())
    plane = next(u for u in units if u.is_aircraft)
    sub = next(u for u in units if u.type == "submarine")
    ship = next(u for u in units if u.type == "destroyer")
    assert can_attack("anti_air", plane) and not can_attack("anti_air", ship)
    assert can_attack("asw", sub) and not can_attack("main", sub) and can_attack("main", ship)
    assert not can_attack("torpedo", ship, immune_to_torpedoes=True)
    shallow = [u for u in units if u.has_ability("Shallow Draft")]
    v = VARIANTS["tabletop-cm"]
    assert all(torpedo_immune(v, v.defaults(), u) for u in shallow)
    assert not any(torpedo_immune(VARIANTS["standard"], {}, u) for u in shallow)


# --- properties ----------------------------------------------------------------------------

rules = st.sampled_from(sorted(VARIANTS)).map(lambda n: VARIANTS[n].dice)
defenses = st.builds(Defense, st.integers(0, 8), st.integers(0, 10), st.one_of(st.none(), st.integers(1, 6)))


@settings(max_examples=300, deadline=None)
@given(
    rule=rules,
    kind=st.sampled_from(KINDS),
    band=st.integers(0, 3),
    dice=st.integers(0, 12),
    target=defenses,
    crippled=st.booleans(),
    luck=st.booleans(),
)
def test_odds_are_probabilities_and_sinking_needs_damage(rule, kind, band, dice, target, crippled, luck):
    got = odds(rule, kind, band, dice, target, crippled, luck)
    assert 0 <= got.sunk <= got.damaged <= 1
    assert (got.expected is None) == target.aircraft
    if got.expected is not None:
        assert got.damaged <= got.expected <= (target.hull or 1)  # every damage is at least 1 point


@settings(max_examples=200, deadline=None)
@given(
    rule=rules,
    kind=st.sampled_from(KINDS),
    band=st.integers(0, 3),
    dice=st.integers(0, 10),
    target=defenses,
    luck=st.booleans(),
)
def test_more_dice_never_lower_the_odds(rule, kind, band, dice, target, luck):
    fewer, more = odds(rule, kind, band, dice, target, luck=luck), odds(rule, kind, band, dice + 1, target, luck=luck)
    assert more.damaged >= fewer.damaged and more.sunk >= fewer.sunk


@settings(max_examples=200, deadline=None)
@given(
    rule=rules,
    kind=st.sampled_from(KINDS),
    dice=st.integers(0, 10),
    target=defenses,
    luck=st.booleans(),
    which=st.sampled_from(("armor", "vital")),
)
def test_more_armor_never_raises_the_odds(rule, kind, dice, target, luck, which):
    thicker = Defense(target.armor + (which == "armor"), target.vital + (which == "vital"), target.hull)
    thin, thick = odds(rule, kind, 0, dice, target, luck=luck), odds(rule, kind, 0, dice, thicker, luck=luck)
    assert thick.damaged <= thin.damaged and thick.sunk <= thin.sunk


@settings(max_examples=100, deadline=None)
@given(rule=rules, dice=st.integers(1, 8), target=defenses)
def test_the_luck_die_changes_nothing_where_the_variant_has_none(rule, dice, target):
    if not rule.luck:
        assert odds(rule, "main", 0, dice, target, luck=True) == odds(rule, "main", 0, dice, target)


@settings(max_examples=150, deadline=None)
@given(rule=rules, kind=st.sampled_from(KINDS), dice=st.integers(0, 8), target=defenses, luck=st.booleans())
def test_one_attack_together_is_that_attack(rule, kind, dice, target, luck):
    alone = odds(rule, kind, 0, dice, target, luck=luck)
    cap = max(1, target.hull or 1) if kind == "torpedo" else max(0, target.armor, target.vital)
    dist = totals(rule, kind, 0, dice, cap, luck=luck)
    assert together([hull_damage(dist, kind, target)], target) == alone


def test_two_attacks_together_by_hand():
    rule = VARIANTS["standard"].dice
    ship = Defense(1, 9, 2)  # each die: 1 damage on 4-6; two damages sink it
    one = hull_damage(totals(rule, "main", 0, 1, 9), "main", ship)
    both = together([one, one], ship)
    assert both.sunk == F(1, 4) and both.damaged == F(3, 4)
    plane = Defense(1, 2, None)
    aa = hull_damage(totals(rule, "anti_air", 0, 1, 2), "anti_air", plane)
    assert together([aa, aa], plane) == Odds(F(3, 4), 1 - F(5, 6) ** 2, None)


def test_a_units_attack_on_a_unit(repo):
    cossack, nagatsuki, wildcat = repo.units["hms-cossack"], repo.units["nagatsuki"], repo.units["f4f-wildcat"]
    base = VARIANTS["standard"]
    torpedo = next(a for a in cossack.attacks if a.kind == "torpedo")
    got = attack_odds(base, {}, cossack, "torpedo", 0, nagatsuki)
    assert got == odds(base.dice, "torpedo", 0, torpedo.bands[0], Defense(9, 9, nagatsuki.hull))
    assert attack_odds(base, {}, cossack, "main", 0, wildcat) is None  # guns do not fire at aircraft
    assert attack_odds(base, {}, cossack, "torpedo", 9, nagatsuki) is None  # no dice at that range
    inches = VARIANTS["tabletop-inches"]
    main = next(a for a in cossack.attacks if a.kind == "main").bands[0]
    hurt = attack_odds(inches, inches.defaults(), cossack, "main", 0, nagatsuki, attacker_crippled=True)
    target = defense(inches, inches.defaults(), nagatsuki)
    assert hurt == odds(inches.dice, "main", 0, main, target, crippled=True)
    assert hurt is not None and hurt.damaged < odds(inches.dice, "main", 0, main, target).damaged


def test_the_sites_data_holds_each_variants_dice_attacks_and_defense(repo):
    from tests.site_check import small_spec
    from wastools.site.odds import odds_data, odds_script

    spec = small_spec(repo)
    data = odds_data(repo, spec)
    assert [u[0] for u in data["units"]] == [u.id for u in spec.units]
    for v, params in spec.variants:
        shown = data["variants"][v.name]
        assert shown["dice"] == v.dice.to_json()
        for i, unit in enumerate(spec.units):
            whole = defense(v, params, unit)
            assert shown["defense"][i][:3] == [whole.armor, whole.vital, whole.hull]
            dice = [[b[1] for b in bands] for _kind, bands in shown["attacks"][i]]
            assert dice == [
                [b.dice for b in a.bands] for a in v.adapt(unit, params).attacks if any(b.dice for b in a.bands)
            ]
    hex_ = data["variants"]["hex"]
    for i, unit in enumerate(spec.units):
        hurt = hex_["crippled_attacks"][i]
        if unit.is_aircraft or unit.hull < 2:
            assert hurt is None
        else:  # one die fewer per attack on the hex grid
            adapted = VARIANTS["hex"].adapt(unit, None, crippled=True).attacks
            assert hurt and [[b[1] for b in bands] for _k, bands in hurt] == [
                [b.dice for b in a.bands] for a in adapted if any(b.dice for b in a.bands)
            ]
    hostile = "</script><img src=x onerror=alert(1)> \u2028 Cossack"
    units = dict(repo.units, **{"hms-cossack": dataclasses.replace(repo.units["hms-cossack"], name=hostile)})
    bad = dataclasses.replace(repo, units=units)
    script = odds_script(bad, small_spec(bad))
    assert script.isascii() and b"<" not in script
    loaded = json.loads(script.decode().removeprefix("window.wasOddsData = ").removesuffix(";\n"))
    assert [u[1] for u in loaded["units"] if u[0] == "hms-cossack"] == [hostile]
