"""Properties every variant keeps, for any schema-valid unit."""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import units
from wastools.variants import VARIANTS

variants = st.sampled_from(sorted(VARIANTS))


def _numbers(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _numbers(v)


@settings(max_examples=150, deadline=None)
@given(unit=units(), name=variants, crippled=st.booleans())
def test_reach_grows_with_band_and_nothing_is_negative(unit, name, crippled):
    adapted = VARIANTS[name].adapt(unit, None, crippled)
    for attack in adapted.attacks:
        ordered = sorted(attack.bands, key=lambda b: b.band)
        for band in ordered:
            assert 0 <= band.min <= band.max and band.dice >= 0
        for lower, higher in pairwise(ordered):
            if lower.band < higher.band:
                assert higher.max > lower.max and higher.min >= lower.min, (name, attack.type, lower, higher)
    doc = adapted.to_json()
    for key in ("movement", "attacks", "rules"):
        assert all(n >= 0 for n in _numbers(doc[key]) if n is not None), key


@settings(max_examples=150, deadline=None)
@given(unit=units(), name=variants)
def test_a_crippled_unit_never_outperforms_itself(unit, name):
    variant = VARIANTS[name]
    whole, hurt = variant.adapt(unit, None, False), variant.adapt(unit, None, True)
    if whole.movement.value is not None and hurt.movement.value is not None:
        assert hurt.movement.value <= whole.movement.value
    for attack in hurt.attacks:
        healthy = {b.band: b for b in whole.attack(attack.type).bands}
        for band in attack.bands:
            assert band.band in healthy, "crippling never adds reach"
            assert band.dice <= healthy[band.band].dice
            assert band.max <= healthy[band.band].max


@settings(max_examples=100, deadline=None)
@given(unit=units(), name=variants)
def test_converting_is_deterministic_and_json_safe(unit, name):
    variant = VARIANTS[name]
    first = json.dumps(variant.adapt(unit).to_json(), sort_keys=True)
    assert first == json.dumps(variant.adapt(unit).to_json(), sort_keys=True)


@settings(max_examples=100, deadline=None)
@given(unit=units(), name=variants)
def test_every_card_attack_survives_conversion(unit, name):
    adapted = VARIANTS[name].adapt(unit)
    assert [a.type for a in adapted.attacks] == [a.kind for a in unit.attacks]


@given(mph=st.floats(50, 500))
def test_large_map_formula_is_monotonic(mph):
    from wastools.variants.large_map import formula_sectors

    assert formula_sectors(mph) <= formula_sectors(mph + 1) and formula_sectors(mph) >= 0


@given(kmh=st.floats(1, 1000))
def test_hex_speed_is_km_h_over_10_half_up(kmh):
    from wastools.variants.hex import speed_hexes

    assert abs(speed_hexes(kmh) - kmh / 10) <= 0.5
