"""card_fit measures text with the fonts' metrics; its cached word widths must be exactly
what ReportLab's formula gives, or a card sized from the cache could differ from one sized
without."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from reportlab.pdfbase import pdfmetrics

from wastools.render import card_fit

TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF, exclude_categories=("Cs",)), max_size=40)


@given(TEXT, st.floats(min_value=4, max_value=20, allow_nan=False), st.booleans())
def test_cached_widths_are_reportlabs_to_the_last_bit(text, size, bold):
    """ReportLab's widths, with each character the font lacks counted as a whole em (drawn
    from a fallback font, it is no narrower) instead of the font's .notdef box. To the last
    bit against ReportLab's formula (its Python stringWidth: a thousandth of the size times
    the sum of the advances); rl_accel's C stringWidth, which the project installs, sums in
    another order, so it agrees to a billionth of a point."""
    font = card_fit._fonts()["bold" if bold else "regular"]
    face = pdfmetrics.getFont(font).face
    known = "".join(c for c in text if ord(c) in face.charWidths)
    missing = len(text) - len(known)
    formula = 0.001 * size * sum(face.charWidths.get(ord(c), face.defaultWidth) for c in known)
    assert card_fit.width(known, size, bold) == formula
    assert abs(formula - pdfmetrics.stringWidth(known, font, size)) < 1e-9
    expected = formula + 0.001 * size * card_fit.MISSING_ADVANCE * missing
    assert abs(card_fit.width(text, size, bold) - expected) < 1e-9


def test_widths_of_a_seed_phrase():
    # a wider run in bold, and linear in the size
    plain = card_fit.width("Expert Dogfighter", 8)
    assert card_fit.width("Expert Dogfighter", 8, bold=True) > plain > 0
    assert abs(card_fit.width("Expert Dogfighter", 16) - 2 * plain) < 1e-9


@given(
    set_name=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghij", min_size=1, max_size=60),
    rarity=st.sampled_from(["common", "uncommon", "rare"]),
    variant=st.text(alphabet="ABCDEFGHIJ abcdefghij,", min_size=1, max_size=60),
)
def test_the_foot_holds_the_set_line_and_the_variant_side_by_side(set_name, rarity, variant):
    from wastools.render.card_fit import BODY_W, FOOT_GAP, FOOT_PT, foot_fit, width

    left, right = foot_fit(f"{set_name.strip() or 'Set'} 12/40 \u00b7 {rarity}", variant.strip() or "V")
    assert width(left, FOOT_PT) + FOOT_GAP + width(right, FOOT_PT) <= BODY_W
    assert left.endswith("12/40") or left.endswith(rarity)  # the number is never cut


def test_a_foot_that_fits_is_left_as_it_is():
    from wastools.render.card_fit import foot_fit

    assert foot_fit("War at Sea 49/64 \u00b7 common", "Hex grid") == ("War at Sea 49/64 \u00b7 common", "Hex grid")
    assert foot_fit("Condition Zebra 33/40 \u00b7 uncommon", "Tabletop, 6 inch sectors")[0] == "Condition Zebra 33/40"


def test_a_card_sends_a_text_to_the_aid_only_when_the_exact_drawing_has_no_room_for_it(repo):
    """Every card of the fixture decks that says "see the player aid": with the last text it
    sent back in place, the card's own exact drawing would run into the foot."""
    import copy

    from wastools.render import card_body, cards
    from wastools.variants import VARIANTS

    sent = 0
    for variant in VARIANTS.values():
        for unit in repo.units.values():
            view = cards.card_view(variant.adapt(unit, variant.defaults()), variant, repo)
            if not view.moved_to_aid:
                continue
            sent += 1
            name = view.moved_to_aid[-1]
            whole = copy.deepcopy(view)
            next(a for a in whole.abilities if a["name"] == name)["summary"] = view.moved_text[name]
            whole.gap_pt = round(card_fit.MIN_GAP * whole.size_pt, 2)
            assert not card_body.body_fits(whole), (variant.name, unit.id, name)
    assert sent  # the fixture holds cards too full for their texts
