"""A number that is not the unit's history says so on its card, and every unit can be played
in every deck: a fallback moves it and is named beside the number."""

from __future__ import annotations

import dataclasses

import pytest

from wastools.content.card_view import movement_text
from wastools.render import cards
from wastools.variants import VARIANTS


def _without_speed(unit):
    return dataclasses.replace(unit, history=dataclasses.replace(unit.history, top_speed=None))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_an_aircraft_without_a_top_speed_can_still_be_played_and_its_card_says_why(repo, variant):
    v = VARIANTS[variant]
    plane = _without_speed(repo.units["b5n2-kate"])
    adapted = v.adapt(plane, v.defaults())
    label, text = movement_text(adapted, v)
    assert "no historical speed recorded" not in text
    if adapted.movement.value is not None and adapted.movement.source.startswith("fallback"):
        assert text.endswith("(assumed speed: no historical figure)"), text


def test_the_assumed_speeds_follow_each_variants_own_formula(repo):
    plane = _without_speed(repo.units["b5n2-kate"])
    hex_move = VARIANTS["hex"].adapt(plane, {**VARIANTS["hex"].defaults(), "unknown_aircraft_kmh": 330.0}).movement
    assert hex_move.value == 33 and hex_move.note == "assumed speed"  # a hex for each 10 km/h
    large = VARIANTS["large-map"]
    params = {**large.defaults(), "use_air_range_chart": False, "unknown_aircraft_mph": 375.0}
    assert large.adapt(plane, params).movement.value == 11  # 375 mph is exactly 11 sectors a phase


def test_a_ship_on_card_speed_says_so_and_one_with_history_does_not(repo):
    hex_ = VARIANTS["hex"]
    ship = repo.units["hms-cossack"]
    _label, sourced = movement_text(hex_.adapt(ship, None), hex_)
    _label, fallback = movement_text(hex_.adapt(_without_speed(ship), None), hex_)
    assert "no historical figure" not in sourced
    assert fallback == f"{ship.ship_speed * 3} hexes (from card speed: no historical figure)"


def test_hex_depth_charges_are_the_players_choice_within_the_cap(repo):
    hex_ = VARIANTS["hex"]
    view = cards.card_view(hex_.adapt(repo.units["hms-cossack"], None), hex_, repo)
    text = " ".join(value for label, value in view.rules if label == "Depth charges")
    assert "as you choose" in text and "at most" in text and "(e.g. " in text


def test_slow_on_the_hex_grid_costs_a_hex_not_a_speed_point(repo):
    hex_ = VARIANTS["hex"]
    slow = next(u for u in repo.units.values() if u.ability("Slow {n}"))
    rule = hex_.adapt(slow, None).rules[f"amended: {slow.ability('Slow {n}').text}"]
    assert "1 hex less" in rule.value and "{n}" not in rule.value and "speed" not in rule.value.split("on")[-1]
