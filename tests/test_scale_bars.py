"""Every scale bar measures what its label says: find the label in the PDF, then its line.

The plain-sea scenario maps (tabletop-inches, tabletop-cm, off-grid) carry a scale bar on
every tile; the test fixtures hold an inch and a centimetre scenario so they are covered.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from wastools import repository
from wastools.geometry import PT_PER_CM, PT_PER_IN
from wastools.render import scenario_pack
from wastools.render.maps import map_pdf

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "scenarios"
UNITS = {"in": PT_PER_IN, "cm": PT_PER_CM, "mm": PT_PER_CM / 10}


@pytest.fixture(scope="module")
def fixture_scenarios(tmp_path_factory):
    root = tmp_path_factory.mktemp("repo")
    for folder in ("cards", "schemas"):
        shutil.copytree(ROOT / folder, root / folder)
    shutil.copytree(FIXTURES, root / "scenarios")
    shutil.copy(ROOT / "scenarios" / "denmark-strait-1941.yaml", root / "scenarios")
    result = repository.validate(root)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    return result.repository.extra["scenarios"]


def words_with_lengths(page) -> list[tuple[dict, float]]:
    """Each word that states a length ("5 in", "10 cm", "1 leg = 3 in") with that length in points."""
    text_words = page.extract_words(keep_blank_chars=True, x_tolerance=2)
    out = []
    for w in text_words:
        m = re.search(r"(\d+(?:\.\d+)?) (in|cm|mm)$", w["text"].strip())
        if m:
            out.append((w, float(m.group(1)) * UNITS[m.group(2)]))
    return out


def bar_under(page, word: dict) -> float | None:
    """Length of the horizontal line that starts at the word's left edge just below it."""
    best = None
    for line in page.lines:
        if abs(line["top"] - line["bottom"]) < 0.01 and 0 < line["top"] - word["bottom"] < 8 and abs(line["x0"] - word["x0"]) < 1:
            best = max(best or 0, line["x1"] - line["x0"])
    return best


@pytest.mark.parametrize("scenario_id, label, length", [
    ("narvik-sortie-inches", "5 in", 5 * PT_PER_IN),
    ("channel-patrol-cm", "10 cm", 10 * PT_PER_CM),
    ("denmark-strait-1941", "1 leg = 3 in", 3 * PT_PER_IN),
])
def test_plain_sea_scale_bars_measure_their_label(fixture_scenarios, scenario_id, label, length):
    s = fixture_scenarios[scenario_id]
    assert scenario_pack.scale_bar(s) == (label, pytest.approx(length))
    pdf, _pages = map_pdf(scenario_pack.scenario_map(s), "letter")
    measured = 0
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages[1:]:  # every tile
            found = [(w, want) for w, want in words_with_lengths(page) if w["text"].strip() == label]
            assert found, f"no scale bar labelled {label!r} on page {page.page_number}"
            for word, want in found:
                bar = bar_under(page, word)
                assert bar is not None and bar == pytest.approx(want, abs=0.05), (label, bar, want)
                measured += 1
    assert measured >= 2
