"""A variant is one thing: a made-up seventh variant (its converter, its board, its words, its
aid) is registered here and planned and built with no other module of the tool touched."""

from __future__ import annotations

import io
from itertools import pairwise
from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from tests.conftest import copy_data
from wastools.core.geometry import PT_PER_IN, Ruler, Zone
from wastools.core.model import Unit
from wastools.variants import VARIANTS, add, use_house
from wastools.variants.aid import Table
from wastools.variants.base import AdaptedUnit, BoardSheet, Parameter, Value, Variant
from wastools.variants.board import SquareBoard
from wastools.variants.standard import sector_attacks

NAME = "quarter-sectors"
AID_WORDS = """\
sections:
  - title: Quarter sectors
    lines:
      - "Sectors are {sector_in} in; a ship moves {per_speed} sectors for each point of speed."
    tables: [moves]
  - include: dice
  - include: victory
"""


def board(params: dict[str, Any]) -> SquareBoard:
    return SquareBoard(unit_pt=params["sector_in"] * PT_PER_IN, default_size=(8, 6))


def sheet(params: dict[str, Any]) -> BoardSheet:
    return BoardSheet("map-quarter", "Quarter-sector board", board(params), 8, 6)


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    move = Value(unit.speed * 2, "sectors", "twice the card speed") if unit.speed else Value(None, None, "placed")
    return AdaptedUnit(unit, NAME, dict(params), move, sector_attacks(unit, crippled), {}, crippled)


def rulers(params: dict[str, Any]) -> list[Ruler]:
    zones = tuple(Zone(f"Range {b}", b, b + 1) for b in range(4))
    return [Ruler("Range in quarter sectors", "sector", params["sector_in"] * PT_PER_IN, 4, 1, 1, zones)]


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    return {"per_speed": 2, "moves": Table(("speed", "sectors"), tuple((s, 2 * s) for s in (1, 2, 3)))}


def seventh(aid: Path) -> Variant:
    return Variant(
        name=NAME,
        title="Quarter sectors",
        seed="A made-up rule sheet",
        parameters=(Parameter("sector_in", 1.5, "sector side in inches", minimum=1.0, maximum=6.0),),
        adapt_fn=adapt,
        distance_unit="sectors",
        label="Quarter sectors",
        motif="squares",
        board_fn=board,
        sheet_fn=sheet,
        rulers_fn=rulers,
        aid=aid,
        aid_fn=aid_parts,
    )


@pytest.fixture
def registered(tmp_path):
    words = tmp_path / "quarter-aid.yaml"
    words.write_text(AID_WORDS, "utf-8")
    add(seventh(words))
    yield VARIANTS[NAME]
    use_house(())


@pytest.mark.slow
def test_a_made_up_variant_plans_and_builds_its_own_kit(registered, tmp_path):
    from wastools import pipeline
    from wastools.data import repository

    root = copy_data(tmp_path / "data")
    repo = repository.validate(root).repository
    assert repo is not None
    out = root / "build"
    selection = pipeline.Selection((NAME,))
    report = pipeline.build(repo, root, out, selection, pipeline.Options(papers=("letter",)), whole=True)
    made = sorted(p.name for p in (out / NAME).iterdir())
    assert made == ["cards.pdf", "map-quarter-poster.pdf", "map-quarter.pdf", "player-aid.pdf", "rulers.pdf"]
    assert {stem for stem, _label in registered.outputs()} == {"cards", "player-aid", "rulers", "map-quarter"}
    assert report.written >= len(made)
    with pdfplumber.open(io.BytesIO((out / NAME / "player-aid.pdf").read_bytes())) as doc:
        aid = " ".join(page.extract_text() or "" for page in doc.pages)
    assert "Sectors are 1.5 in; a ship moves 2 sectors" in aid and "A made-up rule sheet" in aid
    with pdfplumber.open(io.BytesIO((out / NAME / "map-quarter.pdf").read_bytes())) as doc:
        page = doc.pages[-1]
        xs = sorted({round(ln["x0"], 2) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["height"] > 90})
    assert 1.5 * PT_PER_IN in {round(b - a, 2) for a, b in pairwise(xs)}  # its board at its own scale
    with pdfplumber.open(io.BytesIO((out / NAME / "cards.pdf").read_bytes())) as doc:
        cards = doc.pages[0].extract_text() or ""
    assert "Quarter sectors" in cards
