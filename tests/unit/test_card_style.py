"""The card's geometry is written once, in card.css: what card_fit sizes to, what card_body
draws with and what the sheet layouts leave room for are read from it, or checked against it."""

from __future__ import annotations

import pytest

from wastools.core.resources import PACKAGE
from wastools.render import card_body, card_fit, card_style, sheets


def test_lengths_line_heights_and_colors_are_read_from_card_css(tmp_path, monkeypatch):
    css = tmp_path / "card.css"
    css.write_text(
        ".card { width: 200pt; height: 280pt; border: 0.8pt solid #abc; }\n"
        "/* a comment */ .body, .foot { left: 9pt; line-height: 1.3; color: #102030; }\n"
        "table.attacks td .dice { font-size: 1.2em; padding: 0 }\n"
    )
    monkeypatch.setattr(card_style, "CARD_CSS", css)
    card_style._rules.cache_clear()
    try:
        assert card_style.pt(".card", "width") == 200 and card_style.pt(".card", "border") == 0.8
        assert card_style.rgb(".card", "border") == (0xAA, 0xBB, 0xCC)
        assert card_style.pt(".foot", "left") == 9 and card_style.em(".body", "line-height") == 1.3
        assert card_style.rgb(".foot", "color") == (0x10, 0x20, 0x30)
        assert card_style.em("table.attacks td .dice", "font-size") == 1.2
        assert card_style.pt("table.attacks td .dice", "padding") == 0
        with pytest.raises(LookupError, match="no 'height' for '.body'"):
            card_style.pt(".body", "height")
    finally:
        card_style._rules.cache_clear()


def test_the_fitting_and_the_drawn_body_use_card_css_values():
    assert (card_fit.CARD_W, card_fit.CARD_H) == (card_style.pt(".card", "width"), card_style.pt(".card", "height"))
    assert card_fit.BODY_TOP == card_style.pt(".body", "top") + card_style.pt(".card", "border")
    assert card_fit.LINE == card_style.em(".body", "line-height")
    assert card_body.INK == card_style.rgb("html", "color")
    assert card_body.FOOT_BOTTOM == card_style.pt(".foot", "bottom")


@pytest.mark.parametrize("paper", sorted(p.stem for p in (PACKAGE / "layouts").glob("*.yaml")))
def test_every_sheet_layout_leaves_room_for_the_card_card_css_draws(paper):
    card = sheets.load_layout(paper)["card"]
    assert (card["width"], card["height"]) == (card_fit.CARD_W, card_fit.CARD_H)
