"""The importer: parsing both sources, matching across spellings, the cross-check."""

from __future__ import annotations

import pytest

from tests.conftest import DATA, ROOT, SHARED_DATA
from wastools.authoring import importer
from wastools.authoring.importer import SourceUnit, build_cards, match_key, match_units, render_report

needs_shared = pytest.mark.skipif(not SHARED_DATA.exists(), reason="shared reference data not present")


def unit(source: str, name: str, set_: str = "war-at-sea", number: int = 1, **kw) -> SourceUnit:
    base = dict(
        nation="us",
        type="cruiser",
        rarity="rare",
        year=1942,
        points=20,
        speed=2,
        flagship=None,
        carrier_capacity=None,
        armor=4,
        vital_armor=9,
        hull=3,
        attacks={"main": [9, 9, 8, None]},
        abilities=["Radar"],
    )
    base.update(kw)
    return SourceUnit(source=source, name=name, set=set_, number=number, **base)


def test_hull_designation_does_not_stop_a_match():
    assert match_key("USS Cleveland (CA 55)") == match_key("USS Cleveland (CL 55)") == match_key("USS Cleveland")
    pairs = match_units([unit("shinn16", "USS Cleveland (CL 55)")], [unit("roberteliason", "USS Cleveland (CA 55)")])
    assert [(a.name, b.name, rule) for a, b, rule in pairs] == [
        ("USS Cleveland (CL 55)", "USS Cleveland (CA 55)", "set and number")
    ]


def test_set_and_number_settle_a_match_despite_spelling():
    pairs = match_units(
        [unit("shinn16", "USS San Francisco (CA 38)", number=7)],
        [unit("roberteliason", "USS San Fransisco (CA 38)", number=7)],
    )
    assert pairs[0][1] is not None


def test_different_units_in_the_same_slot_do_not_match():
    pairs = match_units([unit("shinn16", "Bismarck", number=3)], [unit("roberteliason", "HMS Hood", number=3)])
    assert {(a is None, b is None) for a, b, _ in pairs} == {(False, True), (True, False)}


def test_name_within_set_matches_when_numbers_differ():
    pairs = match_units([unit("shinn16", "HMS Nelson", number=6)], [unit("roberteliason", "HMS Nelson", number=59)])
    assert pairs[0][2] == "name within set"


def test_merge_keeps_primary_and_records_every_disagreement():
    a = unit("shinn16", "USS Test", points=16, attacks={"main": [9, 9, 8, None]})
    b = unit("roberteliason", "USS Test", points=23, attacks={"main": [9, 9, 8, 7]}, abilities=["Radar", "Flank Speed"])
    result = build_cards([a], [b])
    card = result.cards[0]
    assert card["points"] == 16 and card["attacks"]["main"] == [9, 9, 8, None]
    fields = {d.field for d in result.disagreements}
    assert fields == {"points", "attacks.main", "abilities"}
    assert all(d.why for d in result.disagreements)


def test_gaps_in_the_primary_are_filled_and_reported():
    a = unit("shinn16", "Plane", type=None)
    b = unit("roberteliason", "Plane", type="fighter")
    result = build_cards([a], [b])
    assert result.cards[0]["type"] == "fighter"
    assert result.disagreements[0].why.startswith("shinn16 has no value")


def test_ids_are_slugs_and_collisions_take_the_set():
    result = build_cards([unit("shinn16", "Swordfish", number=1), unit("shinn16", "Swordfish", number=2)], [])
    assert [c["id"] for c in result.cards] == ["swordfish", "swordfish-war-at-sea"]


def test_existing_ids_are_never_renamed():
    result = build_cards(
        [unit("shinn16", "HMS Renamed", number=4)], [], existing_ids={("war-at-sea", 4): "hms-original"}
    )
    assert result.cards[0]["id"] == "hms-original"


def test_unofficial_set_is_left_out_with_reason():
    result = build_cards([unit("shinn16", "USS Cod", set_=None)], [])
    assert not result.cards and "not an official set" in result.excluded[0].reason


def test_ability_patterns():
    assert importer.ability_pattern("Extended Range 5") == "Extended Range {n}"
    assert importer.ability_pattern("Opening Salvo 1 (Gunnery)") == "Opening Salvo {n} (Gunnery)"
    assert importer.ability_regex("Slow {n}").match("Slow 2").group(1) == "2"
    assert importer.ability_regex("Sub Hunter").match("Sub Hunter")


@needs_shared
def test_real_sources_give_the_union_of_both():
    primary = importer.parse_shinn16((SHARED_DATA / "shinn16" / "War_at_Sea.json").read_text())
    secondary = importer.parse_roberteliason((SHARED_DATA / "roberteliason" / "units.xml").read_text())
    assert len(primary) == 275 and len(secondary) == 222
    result = build_cards(primary, secondary)
    assert len(result.cards) >= 285
    nations = {c["nation"] for c in result.cards}
    assert {"finland", "greece", "netherlands", "new-zealand", "poland", "sweden"} <= nations
    keys = [(c["set"], c["number"]) for c in result.cards]
    assert len(keys) == len(set(keys)), "set numbers must be unique"
    bismarck = next(d for d in result.disagreements if d.unit_id == "bismarck" and d.field == "abilities")
    assert "Extended Range 4" in bismarck.primary and "Extended Range 5" in bismarck.secondary
    report = render_report(result, {"surface-action": 40})
    assert "## Only in roberteliason" in report and "hr-ms-de-ruyter" in report
    assert "surface-action (40 units): 4, 40" in report


@needs_shared
def test_import_keeps_the_committed_units_and_is_idempotent(tmp_path):
    """The importer is re-runnable: importing over the fixture repository's units (copies of
    committed cards) leaves each of them as it is, history included, and a second import
    changes nothing at all."""
    import shutil

    for folder in ("cards", "schemas"):
        shutil.copytree(DATA / folder, tmp_path / folder)
    units = [p for p in (tmp_path / "cards").glob("*/*.yaml")]
    before = {p: p.read_text() for p in units}
    sources = (SHARED_DATA / "shinn16" / "War_at_Sea.json", SHARED_DATA / "roberteliason" / "units.xml")

    def imported() -> tuple[dict, str]:
        importer.run_import(tmp_path, *sources)
        cards = {p: p.read_text() for p in (tmp_path / "cards").rglob("*.yaml")}
        return cards, (tmp_path / "docs" / "data" / "import-report.md").read_text()

    first, report = imported()
    assert len(first) > len(before)  # the sources hold far more units than the fixture
    assert [str(p) for p in units if first[p] != before[p]] == []
    assert all("history:" in first[p] for p in units if "history:" in before[p])
    second, second_report = imported()
    assert [str(p) for p in first if first[p] != second[p]] == [] and second_report == report


def test_abilities_text_is_not_copied():
    """The catalogue holds names and the project's own summaries, never the publisher's prose."""
    import json
    import xml.etree.ElementTree as ET

    catalogue = (ROOT / "cards" / "abilities.yaml").read_text()
    if not SHARED_DATA.exists():
        pytest.skip("shared reference data not present")
    texts = set()
    for nation in json.loads((SHARED_DATA / "shinn16" / "War_at_Sea.json").read_text()):
        for u in nation["units"]:
            texts.update(t.strip() for t in u["special_abilities"].values() if t and len(t.strip()) > 30)
    for d in ET.parse(SHARED_DATA / "roberteliason" / "abilities.xml").getroot().iter("description"):
        if d.text and len(d.text.strip()) > 30:
            texts.add(d.text.strip())
    assert not [t for t in texts if t[:40] in catalogue]

    def runs(text: str, size: int = 5) -> set[tuple[str, ...]]:
        import re

        words = re.findall(r"[a-z0-9']+", text.lower())
        return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}

    publisher = set().union(*(runs(t) for t in texts))
    from wastools.data.repository import read_plain

    for entry in read_plain(ROOT / "cards" / "abilities.yaml")["abilities"]:
        if entry.get("summary"):
            shared = runs(entry["summary"]) & publisher
            assert not shared, (entry["name"], shared)
