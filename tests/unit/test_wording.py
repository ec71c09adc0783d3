"""The wording layer: plurals, ranges, dice, variant terms and the lint that guards them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wastools.core import wording as w
from wastools.variants import VARIANTS


def test_quantities_agree_in_number():
    assert w.quantity(1, "hexes") == "1 hex"
    assert w.quantity(2, "hexes") == "2 hexes"
    assert w.quantity(1, "legs") == "1 leg"
    assert w.quantity(1, "sectors") == "1 sector"
    assert w.quantity(3, "squadron") == "3 squadrons"
    assert w.quantity(1.0, "in") == "1 in"
    assert w.quantity(20.0, "cm") == "20 cm"
    assert w.dice(1) == "1 die" and w.dice(4) == "4 dice"


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


def _measure(variant: str, unit=None, **params):
    v = VARIANTS[variant]
    return v.measure(dict(v.defaults(), **params), unit)


def test_off_grid_terms_follow_playing_off_the_grid():
    # "in the same sector" or "local" = within 1 leg; adjacent = within 2 legs; a sector of movement = 2 legs
    m = _measure("off-grid")
    assert w.in_variant_terms("gets +1 torpedo die against local enemy destroyers", m).endswith(
        "enemy destroyers within 1 leg"
    )
    assert "within 2 legs" in w.in_variant_terms(
        "turn 1 only: friendly units in or adjacent to its sector get +1 die", m
    )
    assert "move 2 legs" in w.in_variant_terms("may step one sector toward the closest enemy ship", m)
    # two friendly ships "in the same sector" may be within 2 legs
    assert "within 2 legs of a friendly carrier" in w.in_variant_terms(
        "while sharing a sector with a friendly carrier", m
    )
    assert "within 1 leg of a friendly dive bomber" in w.in_variant_terms(
        "while sharing a sector with a friendly dive bomber", m
    )
    # "Range X" is attack range: the range table (range 3 = 6-7 legs)
    assert w.in_variant_terms("with no enemy ship within range 3", m) == "with no enemy ship within 7 legs"
    assert w.tidy(w.in_variant_terms("main gunnery also reaches ranges 4 to 4 with its range-3 dice", m)) == (
        "main gunnery also reaches 8-9 legs with its dice at 6-7 legs"
    )


def test_hex_terms_use_hexes_and_the_band_table():
    m = _measure("hex")
    assert "move 3 hexes" in w.in_variant_terms("may step one sector toward the closest enemy ship", m)
    assert "up to 6 hexes" in w.in_variant_terms("may shift up to 2 sectors to reach enemy planes", m)
    assert "8 hexes or more away" in w.in_variant_terms("one enemy battleship 3+ sectors away", m)
    assert w.in_variant_terms("antiair reaches range 1", m) == "antiair reaches 4 hexes"
    assert w.in_variant_terms("main gunnery at range 6 with its range-3 dice", m) == (
        "main gunnery at 17-19 hexes with its dice at 8-10 hexes"
    )


def test_tabletop_cm_terms_follow_the_table_scale():
    six, eight = _measure("tabletop-cm"), _measure("tabletop-cm", table_scale="8ft")
    assert w.in_variant_terms("while sharing a sector with a friendly destroyer", six) == (
        "while within 10 cm of a friendly destroyer"
    )
    assert w.in_variant_terms("while sharing a sector with a friendly destroyer", eight) == (
        "while within 15 cm of a friendly destroyer"
    )
    assert w.in_variant_terms("from range 1 or more", six) == "from more than 10 cm"
    assert w.in_variant_terms("if an enemy ship is within range 3", eight) == "if an enemy ship is within 60 cm"
    assert six.scale == "6 ft scale" and eight.scale == "8 ft scale"


def test_tabletop_inches_ranges_follow_each_weapons_table(repo):
    battleship, destroyer = repo.units["bismarck"], repo.units["hms-cossack"]
    big, small = _measure("tabletop-inches", battleship), _measure("tabletop-inches", destroyer)
    text = "while undamaged, main gunnery also reaches ranges 4 to 5 with its range-3 dice"
    assert w.in_variant_terms(text, big).endswith("reaches 30-40 in with its dice at 20-30 in")
    assert w.in_variant_terms("torpedo attack reaches range 1", small) == "torpedo attack reaches 6 in"
    assert w.in_variant_terms("antiair reaches range 1", big) == "antiair reaches 10 in"
    # a range that is no weapon's: 5 in (the rules' sector) a range
    assert w.in_variant_terms("if an enemy ship is within range 3", small) == "if an enemy ship is within 20 in"
    # a main battery past the table (Long Shot 6) goes on by the table's last step, 5 in;
    # any other weapon past its table says so rather than inventing a reach
    assert w.in_variant_terms("main gunnery at range 6", big) == "main gunnery at 40-45 in"
    assert w.in_variant_terms("main gunnery at range 6", small) == "main gunnery at 30-35 in"
    assert "beyond this variant's range table" in w.in_variant_terms("torpedo attack reaches range 5", small)


GRIDLESS = ("off-grid", "hex", "tabletop-cm", "tabletop-inches")


@pytest.mark.parametrize("variant", GRIDLESS)
def test_every_ability_summary_reads_in_the_variants_measure(repo, variant):
    """Every summary of the catalogue, for a battleship, a destroyer and an aircraft: no sector
    word and no bare range is left (quotations aside, which summaries do not use)."""
    units = [repo.units[u] for u in ("bismarck", "hms-cossack", "b5n2-kate")]
    for unit in units:
        m = _measure(variant, unit)
        for info in repo.abilities.values():
            if not info.summary:
                continue
            text = w.tidy(w.in_variant_terms(info.summary.replace("{n}", "5"), m))
            if variant == "tabletop-inches" and "beyond this variant's range table" in text:
                continue  # Long Shot 6 and the like on the inch table: said, and amended on the card
            assert w.lint(text, has_sectors=False) == [], (unit.id, info.pattern, text)


def test_variants_with_sectors_keep_the_text():
    text = "smokes its sector until end of next turn"
    assert w.in_variant_terms(text, None) == text
    assert VARIANTS["large-map"].measure_fn is None and VARIANTS["standard"].measure_fn is None


def test_die_faces_read_as_a_player_says_them():
    assert w.tidy("roll a die: on 1 or lower, 1 less speed") == "roll a die: on a 1, 1 less speed"
    assert w.tidy("on 2 or lower") == "on a 1 or 2" and w.tidy("on 3 or lower") == "on 1-3"
    assert w.tidy("on 4 or higher") == "on 4+" and w.tidy("on 6 or higher") == "on a 6"


def test_the_lint_finds_what_the_review_found():
    found = w.lint(
        "1 hexes; ranges 4 to 4; per_hex_max; re-arms for 1 full turn(s); Air move: air mission move", has_sectors=True
    )
    assert len(found) == 5
    assert w.lint("within 1 sector", has_sectors=False)
    assert not w.lint("within 1 sector", has_sectors=True)


def test_a_variants_folder_in_a_file_name_passes_the_lint_and_its_name_alone_does_not():
    assert w.lint("Print large-map/rulers.pdf beside the pack.") == []
    assert w.lint("the large-map rules")
