"""House variants: a group names its own table in wastools.toml and gets a kit, a site deck and
fleet checks at its own scale; bad values are located with the closest valid names; --param
never overwrites a shipped variant's files."""

from __future__ import annotations

import io
import json
import re
from itertools import pairwise
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import copy_data
from wastools.core.geometry import PT_PER_CM, PT_PER_IN
from wastools.variants import SHIPPED, VARIANTS, use_house

SETTINGS = """\
[build]
papers = ["letter"]
variants = ["five-cm-hexes", "six-inch-sectors", "three-inch-squares"]

[variants.five-cm-hexes]
base = "hex"
title = "Hex grid on 5 cm hexes"
hex_cm = 5

[variants.six-inch-sectors]
base = "tabletop-inches"
title = "Tabletop, 6 inch sectors"
description = "Our club's table: every sector is 6 inches."
sector_in = 6

[variants.three-inch-squares]
base = "large-map"
title = "Large map on 3 inch squares"
sector_in = 3
"""


@pytest.fixture(autouse=True)
def _shipped_registry_after():
    yield
    use_house(())  # the next test sees the shipped six only


@pytest.fixture(scope="module")
def house_build(tmp_path_factory):
    """A whole build of a fixture repository whose settings name three house variants."""
    from click.testing import CliRunner

    from wastools.cli import main

    root = copy_data(tmp_path_factory.mktemp("house"))
    (root / "wastools.toml").write_text(SETTINGS, "utf-8")
    result = CliRunner().invoke(main, ["--root", str(root), "build"], catch_exceptions=False)
    use_house(())
    assert result.exit_code == 0, result.output
    return root, result.output


def _pdf(path: Path):
    return pdfplumber.open(io.BytesIO(path.read_bytes()))


def _tick_steps(path: Path) -> set[float]:
    """The distances between a ruler's numbered ticks, strip by strip, on its first page."""
    from tests.e2e.test_tabletop import strip_ticks

    with _pdf(path) as doc:
        return {round(b - a, 2) for strip in strip_ticks(doc.pages[0], 13).values() for a, b in pairwise(strip)}


def _text(path: Path) -> str:
    with _pdf(path) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


@pytest.mark.slow
def test_each_house_variant_has_its_own_kit(house_build):
    root, output = house_build
    out = root / "build"
    for name, files in {
        "five-cm-hexes": ["cards.pdf", "player-aid.pdf", "rulers.pdf", "map-hex.pdf", "map-hex-poster.pdf"],
        "six-inch-sectors": ["cards.pdf", "player-aid.pdf", "rulers.pdf"],
        "three-inch-squares": ["cards.pdf", "player-aid.pdf", "rulers.pdf", "map-square.pdf"],
    }.items():
        assert {p.name for p in (out / name).iterdir()} >= set(files), name
    assert not any((out / shipped).exists() for shipped in SHIPPED)  # only what the settings ask for
    manifest = json.loads((out / "manifest.json").read_text())
    assert "five-cm-hexes/cards.pdf" in json.dumps(manifest)
    assert "five-cm-hexes cards: smallest text" in output


@pytest.mark.slow
def test_a_house_hex_board_and_ruler_are_at_its_scale(house_build):
    root, _output = house_build
    flat = 5 * PT_PER_CM  # 141.73 pt flat to flat
    with _pdf(root / "build" / "five-cm-hexes" / "map-hex.pdf") as doc:
        page = doc.pages[3]  # a tile: the plan comes first
        ys = sorted({round(pt[1], 2) for c in page.curves for pt in c["pts"]})
        steps = {round(b - a, 2) for a, b in pairwise(ys)}
    assert round(flat, 2) in steps or round(flat / 2, 2) in steps
    assert round(6 * PT_PER_CM, 2) not in steps and round(3 * PT_PER_CM, 2) not in steps
    assert _tick_steps(root / "build" / "five-cm-hexes" / "rulers.pdf") == {round(flat, 2)}


@pytest.mark.slow
def test_a_house_square_board_is_at_its_scale(house_build):
    root, _output = house_build
    with _pdf(root / "build" / "three-inch-squares" / "map-square.pdf") as doc:
        page = doc.pages[3]
        xs = sorted({round(ln["x0"], 2) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["height"] > 150})
    steps = {round(b - a, 2) for a, b in pairwise(xs)}
    assert 3 * PT_PER_IN in steps and 4 * PT_PER_IN not in steps


@pytest.mark.slow
def test_a_house_variant_says_what_it_follows_and_changes(house_build):
    root, _output = house_build
    aid = _text(root / "build" / "six-inch-sectors" / "player-aid.pdf")
    assert "Tabletop, 6 inch sectors is a house variant" in aid
    assert "Tabletop in inches" in aid and "6 (the rules' own: 5)" in aid
    assert "Our club's table" in aid
    cards = _text(root / "build" / "six-inch-sectors" / "cards.pdf")
    assert "Tabletop, 6 inch sectors" in cards  # the card's foot names the variant
    assert "sector_in" not in aid + cards
    squares = _text(root / "build" / "three-inch-squares" / "player-aid.pdf")
    assert "4-inch sectors" not in squares  # the base's description gives the base's numbers
    assert "Large map with flying aircraft, with sector side in inches: 3 (the rules' own: 4)." in squares


@pytest.mark.slow
def test_a_house_variant_has_site_pages_and_a_fleet_deck(house_build):
    root, _output = house_build
    site = root / "build" / "site"
    page = (site / "variants" / "six-inch-sectors.html").read_text("utf-8")
    assert "Tabletop, 6 inch sectors" in page and "sector_in" not in page
    assert re.search(r"Inches a ship moves for each point of speed[^<]*</th><td>6</td><td>5</td>", page)
    fleet = (site / "fleet.html").read_text("utf-8")
    assert 'value="six-inch-sectors"' in fleet and 'value="five-cm-hexes"' in fleet


def test_show_and_fleet_checks_know_a_house_variant(tmp_repo, cli):
    (tmp_repo / "wastools.toml").write_text(SETTINGS, "utf-8")
    shown = json.loads(cli("show", "hms-cossack", "--variant", "six-inch-sectors", "--json", root=tmp_repo).output)
    base = json.loads(cli("show", "hms-cossack", "--variant", "tabletop-inches", "--json", root=tmp_repo).output)
    assert shown["variant"] == "six-inch-sectors" and shown["parameters"]["sector_in"] == 6
    assert shown["movement"]["value"] == base["movement"]["value"] * 6 / 5  # 6 in a point of speed, not 5
    assert "five-cm-hexes" in cli("variants", root=tmp_repo).output
    assert VARIANTS["five-cm-hexes"].board().unit_pt == pytest.approx(5 * PT_PER_CM)


@pytest.mark.parametrize(
    "settings, where, message",
    [
        ('[variants.x-y]\nbase = "hexx"\ntitle = "X"\n', "wastools.toml:2", "did you mean 'hex'"),
        ('[variants.x-y]\nbase = "hex"\ntitle = "X"\nhex_cmm = 5\n', "wastools.toml:4", "did you mean 'hex_cm'"),
        ('[variants.x-y]\nbase = "hex"\ntitle = "X"\nhex_cm = 500\n', "wastools.toml:4", "above the maximum"),
        ('[variants.x-y]\nbase = "hex"\ntitle = "X"\nhex_cm = "big"\n', "wastools.toml:4", "is not a number"),
        ('[variants.x-y]\nbase = "hex"\n', "wastools.toml:1", "needs title"),
        ('[variants.hex]\nbase = "hex"\ntitle = "X"\n', "wastools.toml:1", "is a shipped variant"),
        ('[variants.Big_One]\nbase = "hex"\ntitle = "X"\n', "wastools.toml:1", "is not a variant id"),
    ],
)
def test_bad_house_variants_are_located_with_the_closest_names(tmp_repo, cli, settings, where, message):
    (tmp_repo / "wastools.toml").write_text(settings, "utf-8")
    result = cli("config", root=tmp_repo)
    assert result.exit_code != 0
    line = next(line for line in result.output.splitlines() if line.startswith(where))
    assert message in line, result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_param_builds_under_its_own_name_and_leaves_the_shipped_files(tmp_repo, cli):
    first = cli("build", "--variant", "off-grid", "--paper", "letter", root=tmp_repo)
    assert first.exit_code == 0, first.output
    shipped = (tmp_repo / "build" / "off-grid" / "rulers.pdf").read_bytes()
    changed = cli("build", "--param", "off-grid.leg_in=2.5", "--paper", "letter", root=tmp_repo)
    assert changed.exit_code == 0, changed.output
    assert (tmp_repo / "build" / "off-grid" / "rulers.pdf").read_bytes() == shipped
    own = tmp_repo / "build" / "off-grid+leg-in-2.5" / "rulers.pdf"
    assert _tick_steps(own) == {round(2.5 * PT_PER_IN, 2)}


def test_validate_reports_a_bad_house_variant_so_ci_catches_it(tmp_repo, cli):
    (tmp_repo / "wastools.toml").write_text('[variants.x-y]\nbase = "hex"\ntitle = "X"\nhex_cm = 0\n', "utf-8")
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.exit_code == 1
    assert "wastools.toml:4:1: variants.x-y.hex_cm: hex_cm: 0.0 is below the minimum 1.0" in result.output
    (tmp_repo / "wastools.toml").write_text(SETTINGS, "utf-8")
    assert cli("validate", "--quiet", root=tmp_repo).exit_code == 0


def test_a_problem_after_a_blank_line_is_placed_on_its_own_line(tmp_repo, cli):
    (tmp_repo / "wastools.toml").write_text('[build]\npapers = ["a4"]\n\n[variants.x-y]\nbase = "hexx"\n', "utf-8")
    output = cli("config", root=tmp_repo).output
    assert "wastools.toml:5:1: variants.x-y.base:" in output and "wastools.toml:4:1: variants.x-y:" in output
