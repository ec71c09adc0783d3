"""The printer profile from wastools.toml: the duplex edge and the page's orientation decide
where each card's back goes, and the back offset is turned into the page's frame (the
paper's model: ``tests/duplex_model.py``)."""

from __future__ import annotations

import pytest

from tests.duplex_model import behind, paper_shift
from wastools.render import sheets

LAYOUTS = ["letter", "a4", "letter-bleed", "a4-bleed"]


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("name", LAYOUTS)
def test_backs_sit_behind_their_fronts_for_either_duplex_edge_and_orientation(name, edge):
    layout = sheets.load_layout(name)
    w, h = layout["page"]["width"], layout["page"]["height"]
    card_w, card_h = layout["card"]["width"], layout["card"]["height"]
    for slot in layout["slots"]:
        x, y = sheets.back_slot(slot, layout, sheets.PrinterProfile(duplex_edge=edge))
        centre = behind(slot["x"] + card_w / 2, slot["y"] + card_h / 2, w, h, edge)
        assert (x + card_w / 2, y + card_h / 2) == pytest.approx(centre)


@pytest.mark.parametrize("turn", ["counterclockwise", "clockwise"])
@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("name", LAYOUTS)
def test_the_back_offset_moves_backs_along_the_papers_axes(name, edge, turn):
    """Along the paper's axes for either quarter turn of a landscape page onto the paper: the
    two turns move a landscape sheet's backs opposite ways, a portrait sheet's alike."""
    layout = sheets.load_layout(name)
    w, h = layout["page"]["width"], layout["page"]["height"]
    slot = layout["slots"][0]
    plain = sheets.back_slot(slot, layout, sheets.PrinterProfile(duplex_edge=edge, landscape_turn=turn))
    profile = sheets.PrinterProfile(back_dx=3.0, back_dy=-2.0, duplex_edge=edge, landscape_turn=turn)
    shifted = sheets.back_slot(slot, layout, profile)
    assert (shifted[0] - plain[0], shifted[1] - plain[1]) == pytest.approx(paper_shift(3.0, -2.0, w, h, turn))
