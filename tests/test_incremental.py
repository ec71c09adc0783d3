"""A one-unit change rewrites only the outputs that hold that unit, and gives the very bytes
of a cold build of the changed data (the build caches card faces and imposed sheets)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import copy_data
from wastools import build as builder
from wastools import repository

pytestmark = pytest.mark.slow

CHANGED = "hms-cossack"
# 19 units: three sheets a deck, only one of which holds HMS Cossack
UNITS = (
    CHANGED,
    "hms-hood",
    "hms-prince-of-wales",
    "bismarck",
    "prinz-eugen",
    "strasbourg",
    "dunkerque",
    "provence",
    "le-terrible",
    "milan",
    "hms-warspite",
    "hms-royal-oak",
    "hms-ark-royal",
    "swordfish-mk-i",
    "hmas-arunta",
    "hmas-canberra",
    "gneisenau",
    "moltke",
    "u-47",
)
SELECTION = builder.Selection(variants=("large-map", "off-grid"), units=UNITS, name="sample")
OPTIONS = builder.Options(papers=("letter",), jobs=2)


def _validated(root: Path):
    result = repository.validate(root)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    return result.repository


def _raise_points(path: Path) -> None:
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("points:"))
    lines[at] = f"points: {int(lines[at].split(':')[1]) + 1}\n"
    path.write_text("".join(lines))


def _mtimes(out: Path, rels) -> dict[str, int]:
    return {rel: (out / rel).stat().st_mtime_ns for rel in rels}


def test_one_unit_change_rewrites_only_its_outputs_and_equals_a_cold_build(tmp_path):
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    first = builder.build(_validated(root), root, out, SELECTION, OPTIONS)
    before = json.loads((out / "manifest.json").read_text())["outputs"]
    stamps = _mtimes(out, before)
    assert first.sheets_imposed == 2 * 3  # two decks of 19 cards, nine to a sheet

    _raise_points(root / "cards" / "uk" / f"{CHANGED}.yaml")
    repo = _validated(root)
    again = builder.build(repo, root, out, SELECTION, OPTIONS)

    # what holds the unit, worked out from the data, not from the build
    holding = {f"{v}/cards-sample.pdf" for v in SELECTION.variants}
    holding |= {
        f"scenarios/{s.id}.pdf"
        for s in repo.extra["scenarios"].values()
        if s.variant in SELECTION.variants and any(u.id == CHANGED for u in s.units())
    }
    assert holding & {rel for rel in before if rel.startswith("scenarios/")}, "a pack must hold the unit"
    assert sorted(again.files) == sorted(holding)
    assert again.written == len(holding) and again.unchanged == len(before) - len(holding)
    assert again.sheets_imposed == 2  # the one sheet of each deck that holds the unit
    assert again.cards_rendered <= 3  # its card in each variant (and in a pack with its own parameters)
    after = json.loads((out / "manifest.json").read_text())["outputs"]
    now = _mtimes(out, after)
    for rel in before:
        if rel in holding:
            assert after[rel]["sha256"] != before[rel]["sha256"], rel
        else:
            assert now[rel] == stamps[rel] and after[rel] == before[rel], f"{rel} was rewritten"

    cold = tmp_path / "cold"
    builder.build(repo, root, cold, SELECTION, OPTIONS)
    assert (cold / "manifest.json").read_bytes() == (out / "manifest.json").read_bytes()
    for rel in after:
        assert (cold / rel).read_bytes() == (out / rel).read_bytes(), rel


def test_a_unit_change_its_packs_briefing_does_not_show_keeps_the_briefing(tmp_path, monkeypatch):
    """The briefing lists the units with their points: a change to a unit's hull remakes its
    packs (their cards) from the briefing kept in build/.cache/parts, with the bytes of a cold
    build; a change to its points draws the briefing's figures again over its kept layout
    (WeasyPrint lays out no briefing), and the packs are a cold build's bytes too."""
    from wastools.render import scenario_pack

    options = builder.Options(papers=("letter",), jobs=1)  # in this process, where the count is
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    builder.build(_validated(root), root, out, SELECTION, options)
    laid_out = []
    made = []
    real, layout = scenario_pack.briefing_part, scenario_pack.briefing_layout
    monkeypatch.setattr(scenario_pack, "briefing_part", lambda *args: made.append(args[0].id) or real(*args))
    monkeypatch.setattr(scenario_pack, "briefing_layout", lambda *args: laid_out.append(args[0].id) or layout(*args))

    unit = root / "cards" / "uk" / f"{CHANGED}.yaml"
    unit.write_text(unit.read_text().replace("\nhull: 2", "\nhull: 3", 1))
    hull = builder.build(_validated(root), root, out, SELECTION, options)
    packs = [rel for rel in hull.files if rel.startswith("scenarios/")]
    assert packs and laid_out == []
    cold = builder.build(_validated(root), root, tmp_path / "cold", SELECTION, options)
    briefed = [rel for rel in cold.files if rel.startswith("scenarios/") and not rel.endswith("-poster.pdf")]
    assert len(laid_out) == len(briefed) and set(packs) <= set(briefed)  # a cold build lays each one out
    for rel in packs:
        assert (out / rel).read_bytes() == (tmp_path / "cold" / rel).read_bytes(), rel

    laid_out.clear()
    made.clear()
    _raise_points(unit)
    points = builder.build(_validated(root), root, out, SELECTION, options)
    assert sorted(made) == sorted({rel.split("/")[1].removesuffix(".pdf") for rel in packs}) and laid_out == []
    assert sorted(points.files) == sorted(hull.files)
    assert points.card_layouts == 0 and points.cards_drawn_here == points.cards_rendered > 0  # no WeasyPrint
    cold = builder.build(_validated(root), root, tmp_path / "cold again", SELECTION, options)
    for rel in points.files:
        assert (out / rel).read_bytes() == (tmp_path / "cold again" / rel).read_bytes(), rel


def test_a_small_change_builds_with_light_workers_to_a_cold_builds_bytes(tmp_path):
    """From the command line, a change of a unit's points after a build forks light workers
    (no WeasyPrint imported first), draws the unit's cards in the main process over their
    kept heads, and writes what a cold build of the changed data writes."""
    from click.testing import CliRunner

    from wastools.cli import main

    root = copy_data(tmp_path / "data")
    args = ["--root", str(root), "build", "--variant", "large-map", "--paper", "letter", "--jobs", "2"]
    for unit in UNITS:
        args += ["--unit", unit]
    first = CliRunner().invoke(main, args, catch_exceptions=False)
    assert first.exit_code == 0, first.output
    _raise_points(root / "cards" / "uk" / f"{CHANGED}.yaml")
    second = CliRunner().invoke(main, args, catch_exceptions=False)
    assert second.exit_code == 0, second.output
    report = json.loads((root / "build" / ".cache" / "build-report.json").read_text())
    assert report["cards_drawn_here"] == report["cards_laid_out"] > 0 and report["card_layouts"] == 0
    assert report["light_workers"] and "workers ready" in report["milestones"]  # they made the sheets, decks, packs
    cold = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "cold")], catch_exceptions=False)
    assert cold.exit_code == 0, cold.output
    written = [line.split("/", 1)[1] for line in second.output.splitlines() if line.startswith("wrote ")]
    assert any(rel.startswith("scenarios/") for rel in written)
    for rel in written:
        assert (root / "build" / rel).read_bytes() == (tmp_path / "cold" / rel).read_bytes(), rel


def test_a_damaged_cached_sheet_is_imposed_again_with_the_same_bytes(tmp_path):
    """A cached sheet is only a speed-up: one that is damaged, or not a part this tool wrote,
    is imposed again (and kept) when its deck is joined, and the deck is what it was."""
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    options = builder.Options(papers=("letter",), jobs=1)
    repo = _validated(root)
    first = builder.build(repo, root, out, SELECTION, options)
    deck = next(rel for rel in first.files if rel.startswith("large-map/cards"))
    before = (out / deck).read_bytes()
    entries = sorted((out / ".cache" / "sheets").glob("*.part"))
    damages = [b"not a part", b"", entries[0].read_bytes()[:-9]]  # foreign, empty, cut short
    for n, entry in enumerate(entries):
        entry.write_bytes(damages[n % 3])
    (out / deck).unlink()
    again = builder.build(repo, root, out, SELECTION, options)
    assert again.files == [deck] and (out / deck).read_bytes() == before
    assert sum(_reads(entry) for entry in entries) == first.outputs[deck]["pages"]  # its sheets, kept again


def _reads(entry: Path) -> bool:
    from wastools.render import pdf_parts

    try:
        pdf_parts.read_part(entry.read_bytes())
        return True
    except pdf_parts.BadPart:
        return False


@pytest.mark.parametrize("planted", [b"", b"[1, 2]", b'{"k": 1}', b"not json"])
def test_the_card_index_is_only_a_speed_up(tmp_path, planted):
    """A build reads what the report says of each cached card from one index
    (``build/.cache/card-index.json``) instead of a file per card: a damaged index reads as
    empty, the build reports what it reported, and writes the index whole again."""
    options = builder.Options(papers=("letter",), jobs=1)
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    first = builder.build(_validated(root), root, out, SELECTION, options)
    index = json.loads((out / ".cache" / builder.CARD_INDEX).read_text())
    backs = len(SELECTION.variants)  # a card back has nothing to report
    assert len(index) == first.cards_rendered - backs and all("size_pt" in entry for entry in index.values())
    (out / ".cache" / builder.CARD_INDEX).write_bytes(planted)
    (out / "manifest.json").unlink()  # every output made again, from the cached cards
    second = builder.build(_validated(root), root, out, SELECTION, options)
    assert second.cards_rendered == 0
    assert {k: v.to_json() for k, v in second.card_text.items()} == {k: v.to_json() for k, v in first.card_text.items()}
    assert json.loads((out / ".cache" / builder.CARD_INDEX).read_text()) == index
