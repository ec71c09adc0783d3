"""The duplex calibration sheet follows the printer's flip edge."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from wastools.render import calibration, sheets


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_back_scales_sit_behind_the_front_crosses(paper, edge):
    layout = sheets.load_layout(paper)
    pdf, pages = calibration.calibration_pdf(layout, sheets.PrinterProfile(duplex_edge=edge))
    assert pages == 2
    w, h = layout["page"]["width"], layout["page"]["height"]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        front, back = doc.pages
        text = " ".join(front.extract_text().split())
        assert f"flipping on the {edge} edge" in text
        # zero ticks of the back's horizontal scales: 10 pt upright lines
        zero_marks = {
            (round(ln["x0"], 1), round(h - (ln["top"] + ln["bottom"]) / 2, 1))
            for ln in back.lines
            if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["height"] - 10) < 0.01
        }
    for x, y in calibration.targets(layout):
        # the point behind the cross: mirrored left-right (long edge) or top-bottom (short edge)
        expected = (w - x, y) if edge == "long" else (x, h - y)
        assert any(abs(mx - expected[0]) < 0.2 and abs(my - expected[1]) < 0.2 for mx, my in zero_marks), expected
