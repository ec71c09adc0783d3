"""Ruler strips measured in their PDFs: each join is named at the end it names, on both sides
of the join alike, and every band's name is printed at the band's start line."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import printcheck
from wastools.core.geometry import Ruler, Zone
from wastools.render import rulers
from wastools.variants import VARIANTS

SHIPPED = ("off-grid", "tabletop-cm", "tabletop-inches", "hex", "large-map")


def _strips(page) -> list[dict]:
    """The strips' outlines (a glue tab is narrower and dashed)."""
    return [r for r in page.rects if abs(r["height"] - rulers.STRIP) < 0.1 and r["width"] > rulers.TAB + 1]


def _holding(strips: list[dict], box: dict) -> dict:
    return next(s for s in strips if s["x0"] <= box["x0"] <= s["x1"] and s["top"] <= box["top"] <= s["bottom"])


def _joins(pdf: bytes) -> tuple[list[tuple[int, float, float]], list[int]]:
    """Each part's join note as (join, its left edge less its strip's, its strip's width), and
    the joins the glue tabs name."""
    notes, tabs = [], []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            strips = _strips(page)
            for text, box, vertical in printcheck.labels(page):
                found = re.match(r"join (\d+)", text)
                if found is None:
                    continue
                if vertical:
                    tabs.append(int(found.group(1)))
                    continue
                strip = _holding(strips, box)
                notes.append((int(found.group(1)), box["x0"] - strip["x0"], strip["x1"] - strip["x0"]))
    return notes, tabs


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("name", SHIPPED)
def test_every_join_is_named_at_the_left_end_it_names_and_on_its_tab(name, paper):
    v = VARIANTS[name]
    made = rulers.pieces(v.rulers(v.defaults()), rulers.ruler_sheets([], paper)[0].area[2])
    pdf, _ = rulers.rulers_pdf(v.rulers(v.defaults()), paper, "t")
    notes, tabs = _joins(pdf)
    assert len(notes) == sum(p.segment.index > 0 for p in made)  # every part after the first says its join
    for _join, offset, width in notes:
        assert offset < 6 and offset < width / 4  # at the left end, the one "this left end" names
    assert sorted(j for j, _o, _w in notes) == sorted(tabs)  # the tab it goes over names the same join


def _band_starts_unnamed(pdf: bytes) -> list[tuple[int, float]]:
    """Band start lines (the short lines at a strip's foot) with no name just right of them."""
    missing = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for number, page in enumerate(doc.pages):
            for strip in _strips(page):
                foot = strip["bottom"]
                starts = [
                    ln["x0"]
                    for ln in page.lines
                    if abs(ln["x0"] - ln["x1"]) < 0.01
                    and abs(ln["height"] - 14) < 0.1
                    and abs(ln["bottom"] - foot) < 0.1
                ]
                names = [c["x0"] for c in page.chars if foot - 14 < c["top"] and c["bottom"] <= foot]
                missing += [(number, x) for x in starts if not any(x + 1 < n < x + 3.5 for n in names)]
    return missing


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("name", SHIPPED)
def test_every_band_start_of_every_ruler_is_named(name, paper):
    v = VARIANTS[name]
    pdf, _ = rulers.rulers_pdf(v.rulers(v.defaults()), paper, "t")
    assert _band_starts_unnamed(pdf) == []


@settings(max_examples=25, deadline=None)
@given(
    unit_pt=st.floats(40, 120),  # a band of one unit holds its name
    widths=st.lists(st.integers(1, 8), min_size=2, max_size=9),
)
def test_a_band_starting_just_before_a_cut_is_still_named_at_its_start(unit_pt, widths):
    edges = [sum(widths[:i]) for i in range(len(widths) + 1)]
    zones = tuple(Zone(f"Range {i}*", a, b) for i, (a, b) in enumerate(zip(edges, edges[1:], strict=False)))
    ruler = Ruler("t", "u", unit_pt, edges[-1], 1, 1, zones)
    pdf, _ = rulers.rulers_pdf([ruler], "letter", "t")
    assert _band_starts_unnamed(pdf) == []
    parts = rulers.pieces([ruler], rulers.ruler_sheets([], "letter")[0].area[2])
    assert all(p.width <= rulers.ruler_sheets([], "letter")[0].area[2] + 1e-6 for p in parts)  # each still fits


def test_a_cut_moves_back_to_a_band_start_too_close_before_it():
    zones = (Zone("Range 0", 0, 9.9), Zone("Range 1", 9.9, 20))
    segments = rulers.cut(20 * 72, zones, 72, 740)
    assert [round(s.end_pt / 72, 3) for s in segments] == [9.9, 20]  # not 10: Range 1 would start 7 pt before it


@pytest.mark.slow
def test_the_rulers_of_a_full_build_name_each_join_at_its_end_and_every_band_start(full_build):
    found = sorted((full_build / "build").glob("*/rulers*.pdf"))
    assert {p.parent.name for p in found} >= set(SHIPPED)
    for path in found:
        pdf = path.read_bytes()
        notes, tabs = _joins(pdf)
        assert all(offset < 6 for _j, offset, _w in notes), path
        assert sorted(j for j, _o, _w in notes) == sorted(tabs), path
        assert _band_starts_unnamed(pdf) == [], path
