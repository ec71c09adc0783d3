"""The wording layer: plurals, ranges, dice, variant terms and the lint that guards them."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from wastools import wording as w


def test_quantities_agree_in_number():
    assert w.quantity(1, "hexes") == "1 hex"
    assert w.quantity(2, "hexes") == "2 hexes"
    assert w.quantity(1, "legs") == "1 leg"
    assert w.quantity(1, "sectors") == "1 sector"
    assert w.quantity(3, "squadron") == "3 squadrons"
    assert w.quantity(1.0, "in") == "1 in"
    assert w.quantity(20.0, "cm") == "20 cm"
    assert w.dice(1) == "1 die" and w.dice(4) == "4 dice" and w.plus_dice(1) == "+1 die"


def test_spans_collapse():
    assert w.span(4, 4, "hexes") == "4 hexes"
    assert w.span(0, 1, "legs") == "1 leg"
    assert w.span(2, 4, "hexes") == "2-4 hexes"
    assert w.bands(4, 4) == "range 4" and w.bands(4, 6) == "ranges 4 to 6"


def test_tidy_repairs_machine_wording():
    assert w.tidy("reaches ranges 4 to 4, 1 hexes and +1 dice") == "reaches range 4, 1 hex and +1 die"
    assert w.tidy("11 hexes") == "11 hexes"


@given(
    st.integers(min_value=0, max_value=500), st.sampled_from(["hexes", "legs", "sectors", "squadrons", "dice", "turns"])
)
def test_a_quantity_never_fails_the_lint(count, unit):
    assert w.lint(w.quantity(count, unit)) == []


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=0, max_value=30))
def test_a_span_reads_low_to_high(low, high):
    low, high = sorted((low, high))
    text = w.span(low, high, "hexes")
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    assert numbers[-1] == high and numbers == sorted(numbers)
    assert w.lint(text) == []


def test_off_grid_terms_follow_seed_003():
    # "in the same sector" or "local" = within 1 leg; adjacent = within 2 legs; a sector of movement = 2 legs
    assert w.in_variant_terms("gets +1 die on torpedo attacks vs local enemy destroyers", "off-grid").endswith(
        "enemy destroyers within 1 leg"
    )
    assert "within 2 legs" in w.in_variant_terms(
        "turn 1 only: friendly units in or adjacent to its sector get +1 die", "off-grid"
    )
    assert "move 2 legs" in w.in_variant_terms("may step one sector toward the closest enemy ship", "off-grid")
    # two friendly ships "in the same sector" may be within 2 legs
    assert "within 2 legs of a friendly carrier" in w.in_variant_terms(
        "while sharing a sector with a friendly carrier", "off-grid"
    )
    assert "within 1 leg of a friendly dive bomber" in w.in_variant_terms(
        "while sharing a sector with a friendly dive bomber", "off-grid"
    )


def test_hex_terms_use_hexes():
    assert "move 3 hexes" in w.in_variant_terms("may step one sector toward the closest enemy ship", "hex")
    assert "up to 6 hexes" in w.in_variant_terms("may shift up to 2 sectors to reach enemy planes", "hex")
    assert "8 hexes or more away" in w.in_variant_terms("one enemy battleship 3+ sectors away", "hex")


def test_variants_with_sectors_keep_the_text():
    text = "smokes its sector until end of next turn"
    assert w.in_variant_terms(text, "large-map") == text


def test_the_lint_finds_what_the_review_found():
    found = w.lint(
        "1 hexes; ranges 4 to 4; per_hex_max; re-arms for 1 full turn(s); Air move: air mission move", has_sectors=True
    )
    assert len(found) == 5
    assert w.lint("within 1 sector", has_sectors=False)
    assert not w.lint("within 1 sector", has_sectors=True)
