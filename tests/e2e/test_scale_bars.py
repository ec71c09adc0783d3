"""Every scale bar measures what its label says: find the label in the PDF, then its line.

The plain-sea scenario maps (tabletop-inches, tabletop-cm, off-grid) carry a scale bar on
every tile; the test fixtures hold an inch and a centimetre scenario so they are covered.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests import printcheck
from wastools.core.geometry import PT_PER_CM, PT_PER_IN
from wastools.data import repository
from wastools.render import scenario_pack
from wastools.render.maps import map_pdf

DATA = Path(__file__).parents[1] / "fixtures" / "repo"  # the tests' own repository, not the shipped data
FIXTURES = Path(__file__).parents[1] / "fixtures" / "scenarios"


@pytest.fixture(scope="module")
def fixture_scenarios(tmp_path_factory):
    root = tmp_path_factory.mktemp("repo")
    for folder in ("cards", "schemas"):
        shutil.copytree(DATA / folder, root / folder)
    shutil.copytree(FIXTURES, root / "scenarios")
    shutil.copy(DATA / "scenarios" / "denmark-strait-1941.yaml", root / "scenarios")
    result = repository.validate(root)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    return result.repository.scenarios


@pytest.mark.parametrize(
    "scenario_id, label, length",
    [
        ("narvik-sortie-inches", "5 in", 5 * PT_PER_IN),
        ("channel-patrol-cm", "10 cm", 10 * PT_PER_CM),
        ("denmark-strait-1941", "1 leg = 3 in", 3 * PT_PER_IN),
    ],
)
def test_plain_sea_scale_bars_measure_their_label(fixture_scenarios, scenario_id, label, length):
    s = fixture_scenarios[scenario_id]
    assert s.board.scale_bar() == (label, pytest.approx(length))
    pdf, _pages = map_pdf(scenario_pack.scenario_map(s), "letter")
    measured = 0
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages[1:]:  # every tile
            bars = [b for b in printcheck.check_bars(page) if b.label == label]
            assert bars, f"no scale bar labelled {label!r} on page {page.page_number}"
            for bar in bars:
                assert bar.measured == pytest.approx(length, abs=0.05), bar
                measured += 1
    assert measured >= 2


def test_a_declared_play_area_is_all_the_pack_tiles(fixture_scenarios):
    import dataclasses

    from wastools.render import maps
    from wastools.render.pages import Page

    s = fixture_scenarios["narvik-sortie-inches"]
    whole = map_pdf(scenario_pack.scenario_map(s), "letter")[1]
    small = dataclasses.replace(s, data={**s.data, "map": {**s.data["map"], "play_area": [[0, 0], [18, 12]]}})
    spec, to_map = scenario_pack.map_spec(small)
    area = scenario_pack.play_area(small, spec, to_map)
    assert area == pytest.approx((0, 12 * PT_PER_IN, 18 * PT_PER_IN, 12 * PT_PER_IN))
    tiles = maps.area_tiles(spec, Page.of("letter", True), area)
    assert all(area[0] - 1e-6 <= t.x0 and t.x0 + t.width <= area[0] + area[2] + 1e-6 for t in tiles)
    assert all(area[1] - 1e-6 <= t.y0 and t.y0 + t.height <= area[1] + area[3] + 1e-6 for t in tiles)
    pdf, pages = map_pdf(spec, "letter", area=area)
    assert pages == 1 + len(tiles) < whole


def test_play_area_corners_must_be_on_the_map(tmp_path):
    root = tmp_path
    for folder in ("cards", "schemas"):
        shutil.copytree(DATA / folder, root / folder)
    (root / "scenarios").mkdir()
    text = (
        (FIXTURES / "narvik-sortie-inches.yaml")
        .read_text()
        .replace("  height: 24\n", "  height: 24\n  play_area: [[0, 0], [40, 12]]\n")
    )
    (root / "scenarios" / "narvik-sortie-inches.yaml").write_text(text)
    result = repository.validate(root)
    assert result.repository is None
    assert any("map.play_area[1]" in str(e) and "off the map" in str(e) for e in result.errors)


@pytest.mark.parametrize("scenario_id", ["narvik-sortie-inches", "channel-patrol-cm", "denmark-strait-1941"])
def test_the_site_caption_of_a_plain_table_reads_as_sentences(fixture_scenarios, scenario_id):
    from wastools.site.scenario import map_caption

    caption = map_caption(fixture_scenarios[scenario_id], "no grid")
    assert caption.startswith("A plain table, measured from its edges: no grid. North is up. Positions are measured")
    assert " in in" not in caption and "cm cm" not in caption
