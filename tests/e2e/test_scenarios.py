"""Scenarios: validation with locations, legality, packs, aids and scaffolds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import DATA
from wastools.aids import aid
from wastools.variants import VARIANTS, large_map

SAVO = Path("scenarios/savo-island-1942.yaml")
MERS = Path("scenarios/mers-el-kebir-1940.yaml")


@pytest.fixture
def scen_repo(tmp_repo):
    shutil.copytree(DATA / "scenarios", tmp_repo / "scenarios")
    return tmp_repo


def edit(root: Path, path: Path, old: str, new: str) -> None:
    text = (root / path).read_text()
    assert old in text, old
    (root / path).write_text(text.replace(old, new, 1))


def line_of(root: Path, path: Path, needle: str) -> int:
    return next(i for i, line in enumerate((root / path).read_text().splitlines(), 1) if needle in line)


def test_the_three_scenarios_are_valid_and_use_three_variants(repo):
    scenarios = repo.extra["scenarios"]
    assert {s.variant for s in scenarios.values()} == {"large-map", "off-grid", "hex"}
    mers = scenarios["mers-el-kebir-1940"]
    assert mers.data["shore_batteries"] and mers.data["air_bases"]
    assert any(f.air_groups for side in mers.sides for f in side.forces)
    for s in scenarios.values():
        assert all(side.fleet.legal for side in s.sides)


def test_unknown_unit_is_rejected_with_its_location(scen_repo, cli):
    edit(scen_repo, SAVO, "unit: aoba", "unit: aobaa")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    line = line_of(scen_repo, SAVO, "unit: aobaa")
    assert (
        f"scenarios/savo-island-1942.yaml:{line}:15: sides[0].forces[1].unit: no unit with id 'aobaa'" in result.output
    )


def test_over_capacity_carrier_is_rejected(scen_repo, cli):
    edit(scen_repo, MERS, "count: 3\n", "count: 4\n")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    assert "sides[0].forces[3].air_groups: 4 squadrons are over the capacity of 1 x hms-ark-royal (3)" in result.output
    line = line_of(scen_repo, MERS, "air_groups:")
    assert f"scenarios/mers-el-kebir-1940.yaml:{line + 1}:" in result.output


def test_points_over_the_limit_are_rejected(scen_repo, cli):
    edit(scen_repo, SAVO, "points_limit: 65", "points_limit: 50")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    assert "is over the limit of 50" in result.output
    assert "scenarios/savo-island-1942.yaml:" in result.output


def test_object_off_the_map_is_rejected(scen_repo, cli):
    edit(scen_repo, SAVO, "at: [35, 19]", "at: [45, 19]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    line = line_of(scen_repo, SAVO, "at: [45, 19]")
    assert (
        f"scenarios/savo-island-1942.yaml:{line}:9: objectives[0].at: [45, 19] is off the map (1..40 x 1..24 hexes)"
        in result.output
    )


def test_what_players_place_must_lie_in_the_declared_play_area(scen_repo, cli):
    # the pack prints tiles only for the play area, so an objective outside it has no paper
    edit(scen_repo, SAVO, "at: [35, 19]", "at: [37, 19]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    line = line_of(scen_repo, SAVO, "at: [37, 19]")
    assert (
        f"scenarios/savo-island-1942.yaml:{line}:9: objectives[0].at: [37, 19] is outside the play area "
        "(9..35 x 7..21 hexes, map.play_area)" in result.output
    )
    assert "off the map" not in result.output


def test_terrain_may_reach_beyond_the_play_area(scen_repo, cli):
    # Florida Island lies outside Savo's play area: shown on the plan, not an error
    assert "[[30, 1], [40, 1], [40, 7], [34, 6]]" in (scen_repo / SAVO).read_text()
    assert cli("validate", root=scen_repo).exit_code == 0


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("variant: hex", "variant: chess", "is not one of"),
        ("side: ijn\n", "side: allies\n", "the two sides need different ids"),
        ("      - unit: nagatsuki", "      - unit: nagatsuki\n        flagship: true", "at most one flagship"),
        ("id: savo-island-1942", "id: savo-1942", "must equal the file name"),
        ("turn_limit: 8", "turn_limit: 8\nweather: rain", "unknown field 'weather'"),
    ],
)
def test_other_scenario_mistakes(scen_repo, cli, old, new, message):
    edit(scen_repo, SAVO, old, new)
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_tabletop_cm_fleet_rules_apply_to_scenarios(scen_repo, cli):
    path = scen_repo / "scenarios" / "us-heavy.yaml"
    text = (
        (scen_repo / SAVO)
        .read_text()
        .replace("id: savo-island-1942", "id: us-heavy")
        .replace("variant: hex", "variant: tabletop-cm")
    )
    text = (
        text.replace("width: 40", "width: 180")
        .replace("height: 24", "height: 120")
        .replace("points_limit: 65", "points_limit: 64")
    )
    path.write_text(text)
    result = cli("validate", str(path), root=scen_repo)
    assert result.exit_code == 1
    assert "over the limit of 57" in result.output  # 61 Allied points, more than a third US: 90% of 64


def test_new_scenario_and_unit_validate(scen_repo, cli):
    assert cli("new", "scenario", "my-battle", "--variant", "off-grid", root=scen_repo).exit_code == 0
    written = (scen_repo / "scenarios" / "my-battle.yaml").read_text()
    assert "every coordinate are in inches;" in written  # words for people, not the parser's "in"
    assert (
        cli(
            "new",
            "unit",
            "HMS Example",
            "--nation",
            "uk",
            "--type",
            "destroyer",
            "--set",
            "surface-action",
            "--number",
            "40",
            root=scen_repo,
        ).exit_code
        == 0
    )
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 0, result.output
    assert cli("fmt", "--check", root=scen_repo).exit_code == 0
    again = cli("new", "scenario", "my-battle", "--variant", "off-grid", root=scen_repo)
    assert again.exit_code == 2 and "exists already" in again.output


# --- aids ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, needles",
    [
        ("large-map", ["Air Range Chart", "F4U-1D Corsair", "5-minute phase", "chart", "Heavy shore battery"]),
        ("hex", ["17-19", "ship destroyed", "half (rounded down)", "winner moves second"]),
        ("off-grid", ["10-11", "33", "Heavy Antiair", "Slow N"]),
        ("tabletop-inches", ["torpedoes (12 in: Long-Lance Torpedoes only)", "Luck dice", "150 points"]),
        ("tabletop-cm", ["3+", "90%", "25%", "20 cm"]),
        ("standard", ["Sequence of play", "Dice and damage"]),
    ],
)
def test_aid_sections_hold_the_variant_tables(repo, name, needles):
    text = repr(aid(name, repo, VARIANTS[name].defaults()))
    for needle in needles:
        assert needle in text, (name, needle)


def test_air_range_chart_lists_every_aircraft(repo):
    table = next(
        s for s in aid("large-map", repo, VARIANTS["large-map"].defaults()) if s.title == "Air Range Chart"
    ).tables[0]
    assert {row[0] for row in table.rows} == {u.name for u in repo.units.values() if u.is_aircraft}
    # a figure worked out from the top speed is marked, and the caption says how it was worked out
    chart = {row.unit_id for row in large_map.AIR_RANGE_CHART}
    names = {u.name: u.id for u in repo.units.values() if u.is_aircraft}
    for row in table.rows:
        assert row[2].endswith("*") == (names[row[0]] not in chart), row
    assert table.caption.startswith("* Not in the house rules' chart") and "5,000 yards" in table.caption


@pytest.mark.slow
def test_aids_and_packs_build(full_build):
    tmp_path = full_build / "build"
    with pdfplumber.open(tmp_path / "hex" / "player-aid.pdf") as pdf:
        text = " ".join(p.extract_text() for p in pdf.pages)
    text = " ".join(text.split())
    assert "17-19" in text and "seed" not in text
    assert "\u201cWar at Sea rules adapted for a hexagon grid, by Paul Wisken\u201d" in text  # the colophon
    with pdfplumber.open(tmp_path / "scenarios" / "savo-island-1942.pdf") as pdf:
        first = pdf.pages[0].extract_text()
        texts = [p.extract_text() or "" for p in pdf.pages]
    assert "Savo Island, 9 August 1942" in first and "within the limit of 65 points" in " ".join(first.split())
    assert any("HMAS Canberra" in t and "hexes" in t for t in texts[1:4])  # the cards
    assert any(": plan of the whole map (" in t for t in texts)  # the map
    with pdfplumber.open(tmp_path / "scenarios" / "denmark-strait-1941.pdf") as pdf:
        assert "Bismarck" in pdf.pages[0].extract_text()


def test_a_pack_made_again_takes_its_map_from_the_store_and_is_the_same(repo, tmp_path, monkeypatch):
    """A pack made again takes its map part, which no unit changes, from the store, and is
    byte for byte what it was (``--scenario``: only that pack and its poster)."""
    from wastools import build as builder
    from wastools.render import scenario_pack

    selection = builder.Selection(variants=("hex",), scenarios=("savo-island-1942",))
    options = builder.Options(papers=("letter",), jobs=2)
    first_report = builder.build(repo, DATA, tmp_path, selection, options)
    assert sorted(first_report.files) == ["scenarios/savo-island-1942-poster.pdf", "scenarios/savo-island-1942.pdf"]
    pack = tmp_path / "scenarios" / "savo-island-1942.pdf"
    first = pack.read_bytes()
    pack.unlink()

    def no_map(*_args):
        raise AssertionError("the map part was made again")

    monkeypatch.setattr(scenario_pack, "_map_part", no_map)  # the workers fork from this process
    builder.build(repo, DATA, tmp_path, selection, options)
    assert pack.read_bytes() == first


def test_a_damaged_pack_part_is_made_again_and_the_pack_is_the_same(repo, tmp_path):
    """A briefing or map part in the store that is damaged is made again and replaced, never
    read as it is."""
    from wastools import build as builder
    from wastools.store import Store

    store = Store(tmp_path, tmp_path / "store")
    selection = builder.Selection(variants=("hex",), scenarios=("savo-island-1942",))
    options = builder.Options(papers=("letter",), jobs=1)
    builder.build(repo, DATA, tmp_path / "out", selection, options, store=store)
    pack = tmp_path / "out" / "scenarios" / "savo-island-1942.pdf"
    first = pack.read_bytes()
    entries = sorted(p for p in (store.folder / "part").rglob("*") if p.is_file())
    assert len(entries) >= 2  # a briefing and a map
    for n, entry in enumerate(entries):
        entry.write_bytes([b"%PDF-1.7 not a part", entry.read_bytes()[:-7]][n % 2])  # foreign, cut short
    pack.unlink()
    builder.build(repo, DATA, tmp_path / "out", selection, options, store=store)
    assert pack.read_bytes() == first
    assert all(store.get("part", entry.name) is not None for entry in entries)  # made again whole
