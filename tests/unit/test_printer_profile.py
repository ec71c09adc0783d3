"""The printer profile from wastools.toml: the duplex edge decides where each card's back goes."""

from __future__ import annotations

import pytest

from wastools.render import sheets


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_backs_sit_behind_their_fronts_for_either_duplex_edge(paper):
    layout = sheets.load_layout(paper)
    width, height = layout["page"]["width"], layout["page"]["height"]
    card_w, card_h = layout["card"]["width"], layout["card"]["height"]
    for slot in layout["slots"]:
        # long edge: the sheet turns about its vertical axis, so x mirrors and y stays
        x, y = sheets.back_slot(slot, layout, sheets.PrinterProfile())
        assert (round(x + card_w, 6), round(y, 6)) == (round(width - slot["x"], 6), round(slot["y"], 6))
        # short edge: it turns about the horizontal axis, so y mirrors and x stays
        x, y = sheets.back_slot(slot, layout, sheets.PrinterProfile(duplex_edge="short"))
        assert (round(x, 6), round(y + card_h, 6)) == (round(slot["x"], 6), round(height - slot["y"], 6))
    shifted = sheets.back_slot(
        layout["slots"][0], layout, sheets.PrinterProfile(back_dx=3.0, back_dy=-2.0, duplex_edge="short")
    )
    plain = sheets.back_slot(layout["slots"][0], layout, sheets.PrinterProfile(duplex_edge="short"))
    assert (round(shifted[0] - plain[0], 6), round(shifted[1] - plain[1], 6)) == (3.0, -2.0)
