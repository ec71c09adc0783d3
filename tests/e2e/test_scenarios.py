"""Scenarios: validation with locations, legality, packs, aids and scaffolds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import DATA
from wastools.content.aids import aid
from wastools.render.table_needs import print_beside
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
    scenarios = repo.scenarios
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


def test_a_shore_battery_at_sea_is_located_with_what_it_stands_in_and_near(scen_repo, cli):
    edit(scen_repo, MERS, "at: [3.05, 8.5]", "at: [2.5, 7]")  # Fort Santon, off the coast
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    line = line_of(scen_repo, MERS, "at: [2.5, 7]")
    assert (
        f"scenarios/mers-el-kebir-1940.yaml:{line}:9: shore_batteries[0].at: Fort Santon at [2.5, 7] is at sea, "
        "0.74 sectors off Algerian coast: a shore battery stands on land (an island in terrain)"
    ) in result.output


def test_a_battery_in_shallows_is_at_sea_and_the_message_names_them(scen_repo, cli):
    edit(
        scen_repo,
        MERS,
        "objectives:",
        "  - kind: shoal\n    name: Harbor shallows\n    points: [[2.2, 7], [3, 7], [3, 7.5], [2.2, 7.5]]\nobjectives:",
    )
    edit(scen_repo, MERS, "at: [3.05, 8.5]", "at: [2.5, 7.2]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    assert "Fort Santon at [2.5, 7.2] is at sea, in Harbor shallows (shallows), 0.55 sectors off" in result.output


@pytest.mark.parametrize(
    "at, on_land",
    [("[20, 10]", True), ("[18, 11]", True), ("[20, 16]", False), ("[16, 10]", False)],
)
def test_on_a_hex_map_land_is_the_hexes_the_map_fills(scen_repo, cli, at, on_land):
    """Savo Island fills the hexes whose centers lie in its outline; a shore battery on one of
    them is on land, one a hex off it is at sea."""
    edit(
        scen_repo,
        SAVO,
        "terrain:",
        f"shore_batteries:\n  - name: Savo\n    side: allies\n    at: {at}\n    kind: light\nterrain:",
    )
    result = cli("validate", root=scen_repo)
    assert (result.exit_code == 0) == on_land, result.output
    if not on_land:
        steps = {"[20, 16]": "3 hexes", "[16, 10]": "2 hexes"}[at]
        assert f"shore_batteries[0].at: Savo at {at} is at sea, {steps} off Savo Island: a shore battery stands" in (
            result.output
        )


def test_an_air_base_on_a_map_without_land_is_refused(scen_repo, cli):
    denmark = Path("scenarios/denmark-strait-1941.yaml")
    edit(
        scen_repo,
        denmark,
        "objectives:",
        "air_bases:\n  - name: Reykjavik\n    side: royal-navy\n    at: [60, 40]\n    capacity: 2\nobjectives:",
    )
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    assert "air_bases[0].at: Reykjavik at [60, 40] is at sea, and the map has no island: an air base" in result.output


def test_a_deployment_zone_wholly_on_land_is_refused_and_one_mostly_on_land_warned(scen_repo, cli):
    edit(scen_repo, SAVO, "[[12, 14], [28, 14], [28, 19], [12, 19]]", "[[5, 22], [12, 22], [12, 24], [5, 24]]")
    edit(scen_repo, SAVO, "play_area: [[9, 7], [35, 21]]", "play_area: [[1, 7], [35, 24]]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    line = line_of(scen_repo, SAVO, "[[5, 22], [12, 22], [12, 24], [5, 24]]")
    assert (
        f"savo-island-1942.yaml:{line}:13: deployment_zones[1].points: 'Patrol line south of Savo' lies wholly on "
        "land (Guadalcanal): ships deploy at sea"
    ) in result.output
    edit(scen_repo, SAVO, "[[5, 22], [12, 22], [12, 24], [5, 24]]", "[[5, 19], [12, 19], [12, 24], [5, 24]]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 0
    assert "warning: deployment_zones[1].points: about" in result.output and "lies on land (Guadalcanal)" in (
        result.output
    )


@pytest.mark.parametrize("at, reached", [("[35, 19]", True), ("[35, 22]", True), ("[35, 24]", False)])
def test_ships_must_reach_an_objective(scen_repo, cli, at, reached):
    """An objective at sea, or on a coast hex, is reached; one inland is an error."""
    edit(scen_repo, SAVO, "at: [35, 19]", f"at: {at}")
    edit(scen_repo, SAVO, "play_area: [[9, 7], [35, 21]]", "play_area: [[9, 7], [35, 24]]")
    result = cli("validate", root=scen_repo)
    assert (result.exit_code == 0) == reached, result.output
    if not reached:
        assert f"objectives[0].at: Lunga transport anchorage at {at} lies inland on Guadalcanal: ships cannot" in (
            result.output
        )


def test_an_objective_inland_on_a_plain_table_is_refused(scen_repo, cli):
    denmark = Path("scenarios/denmark-strait-1941.yaml")
    edit(
        scen_repo,
        denmark,
        "  - kind: shoal\n    name: Greenland pack ice",
        "  - kind: island\n    name: Iceland\n"
        "    points: [[40, 30], [70, 30], [70, 46], [40, 46]]\n  - kind: shoal\n    name: Greenland pack ice",
    )
    edit(scen_repo, denmark, "at: [6, 44]", "at: [55, 38]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 1
    assert "objectives[0].at: Atlantic exit at [55, 38] lies inland on Iceland: ships cannot reach it; put it at " in (
        result.output
    )
    assert "(within 1 in of the sea)" in result.output
    edit(scen_repo, denmark, "at: [55, 38]", "at: [55, 30.5]")  # half an inch from the shore
    assert "objectives[0]" not in cli("validate", root=scen_repo).output


def test_a_pack_over_the_page_budget_is_a_warning_naming_its_pages_and_the_play_area(scen_repo, cli):
    edit(scen_repo, SAVO, "play_area: [[9, 7], [35, 21]]", "play_area: [[1, 1], [40, 24]]")
    result = cli("validate", root=scen_repo)
    assert result.exit_code == 0, result.output
    line = line_of(scen_repo, SAVO, "play_area: [[1, 1], [40, 24]]")
    assert f"savo-island-1942.yaml:{line}:14: warning: map.play_area: the pack runs to at least " in result.output
    assert "map pages for map.play_area" in result.output and "over the 40 the docs keep a pack within" in (
        result.output
    )
    edit(scen_repo, SAVO, "play_area: [[1, 1], [40, 24]]", "play_area: [[9, 7], [35, 21]]")
    assert "map.play_area" not in cli("validate", root=scen_repo).output


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
    unit = scen_repo / "cards" / "uk" / "hms-example.yaml"
    result = cli("validate", root=scen_repo)  # an unedited scaffold is no card: every placeholder refused
    placeholders = [line for line in result.output.splitlines() if "a placeholder from `wastools new unit`" in line]
    assert result.exit_code == 1 and len(placeholders) == 8, result.output
    assert all(line.startswith("cards/uk/hms-example.yaml:") for line in placeholders)
    assert cli("fmt", "--check", root=scen_repo).exit_code == 0
    printed = {"rarity": "common", "year": "1939", "anti_air": "4", "speed": "2"}
    lines = []
    for line in unit.read_text().splitlines():
        key = line.strip().split(":")[0]
        lines.append(line.replace("replace me", printed.get(key, "3"), 1))
    unit.write_text("\n".join(lines) + "\n")
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
        ("off-grid", ["10-11", "33", "Heavy Antiair", "Slow 1, Slow 3"]),
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
def test_aids_and_packs_build(full_build, repo):
    tmp_path = full_build / "build"
    with pdfplumber.open(tmp_path / "hex" / "player-aid.pdf") as pdf:
        text = " ".join(p.extract_text() for p in pdf.pages)
    text = " ".join(text.split())
    assert "17-19" in text and "seed" not in text
    assert "\u201cWar at Sea rules adapted for a hexagon grid, by Paul Wisken\u201d" in text  # the colophon
    with pdfplumber.open(tmp_path / "scenarios" / "savo-island-1942.pdf") as pdf:
        first = pdf.pages[0].extract_text()
        texts = [p.extract_text() or "" for p in pdf.pages]
    assert "Savo Island, 9 August 1942" in first and "What the table needs" in first
    assert "within the limit of 65 points" in " ".join(" ".join(texts[:3]).split())
    # the first page names every file of the variant's kit to print beside the pack, and the
    # build made each one where the page says
    kit = [f"hex/{stem}.pdf" for stem, _what in VARIANTS["hex"].outputs() if stem != "cards"] + ["counters.pdf"]
    flat = "".join(first.split())
    for name in kit:
        assert name in flat and (tmp_path / name).is_file(), name
    # the pages it gives each file are the pages the build printed
    savo = repo.scenarios["savo-island-1942"]
    for item in print_beside(savo):
        for paper, name in (("letter", item["letter"]), ("a4", item["a4"])):
            if item["pages"][paper] is not None and (tmp_path / name).is_file():
                with pdfplumber.open(tmp_path / name) as kit_pdf:
                    assert len(kit_pdf.pages) == item["pages"][paper], name
    assert any(item["pages"]["letter"] for item in print_beside(savo))
    assert any("HMAS Canberra" in t and "hexes" in t for t in texts[1:4])  # the cards
    assert any(": plan of the whole map (" in t for t in texts)  # the map
    with pdfplumber.open(tmp_path / "scenarios" / "denmark-strait-1941.pdf") as pdf:
        assert "Bismarck" in " ".join(p.extract_text() for p in pdf.pages[:3])


def test_a_pack_made_again_takes_its_map_from_the_store_and_is_the_same(repo, tmp_path, monkeypatch):
    """A pack made again takes its map part, which no unit changes, from the store, and is
    byte for byte what it was (``--scenario``: only that pack and its poster)."""
    from wastools import pipeline as builder
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
    from wastools import pipeline as builder
    from wastools.core.store import Store

    store = Store(tmp_path, tmp_path / "store")
    selection = builder.Selection(variants=("hex",), scenarios=("savo-island-1942",))
    options = builder.Options(papers=("letter",), jobs=1)
    builder.build(repo, DATA, tmp_path / "out", selection, options, store=store)
    pack = tmp_path / "out" / "scenarios" / "savo-island-1942.pdf"
    first = pack.read_bytes()
    entries = sorted(p for kind in ("part", "layout") for p in (store.folder / kind).rglob("*") if p.is_file())
    assert {e.relative_to(store.folder).parts[0] for e in entries} == {"part", "layout"}  # a map, a briefing
    for n, entry in enumerate(entries):
        entry.write_bytes([b"%PDF-1.7 not a part", entry.read_bytes()[:-7]][n % 2])  # foreign, cut short
    pack.unlink()
    builder.build(repo, DATA, tmp_path / "out", selection, options, store=store)
    assert pack.read_bytes() == first
    # made again whole
    assert all(store.get(e.relative_to(store.folder).parts[0], e.name) is not None for e in entries)


@pytest.mark.parametrize("left", ["us", "japan-destroyers", "axis"])
def test_new_scenario_starts_with_what_the_repository_has_or_says_what_is_missing(scen_repo, cli, left):
    """No US destroyer, no Japanese destroyer, or no Axis unit at all: a scenario that starts
    with the side's nearest unit, or one line saying what to add (never a StopIteration)."""
    from wastools.data.repository import read_plain

    nations = {n["id"]: n["side"] for n in read_plain(scen_repo / "cards/nations.yaml")["nations"]}
    for unit in list((scen_repo / "cards").glob("*/*.yaml")):
        text = unit.read_text()
        nation = unit.parent.name
        gone = {
            "us": nation == "us",
            "japan-destroyers": nation == "japan" and "\ntype: destroyer\n" in text,
            "axis": nations.get(nation) == "axis",
        }[left]
        if gone:
            unit.unlink()
    for scenario in (scen_repo / "scenarios").glob("*.yaml"):
        scenario.unlink()  # they field the units just taken out
    result = cli("new", "scenario", "a-new-one", "--variant", "hex", root=scen_repo)
    assert "Traceback" not in result.output and not isinstance(result.exception, StopIteration), result.output
    if left == "axis":
        assert result.exit_code == 2 and "no unit of the axis side in cards/" in result.output, result.output
    else:
        assert result.exit_code == 0, result.output
        assert cli("validate", "--quiet", root=scen_repo).exit_code == 0
