"""A scenario briefing's force-table figures (each unit's points, each side's total) are drawn
over a layout that holds a hidden placeholder for each (``scenario_pack.briefing_part``), so
that a change of points lays nothing out again: the text and its places must be those of the
briefing WeasyPrint lays out with the figures in it."""

from __future__ import annotations

import dataclasses
import io

import pdfplumber
import pytest

from wastools.render import scenario_pack, shared_fonts
from wastools.render.pdf_parts import read_part
from wastools.render.sheets import assemble

pytestmark = pytest.mark.slow
SCENARIOS = ("mers-el-kebir-1940", "savo-island-1942", "denmark-strait-1941")


def _laid_out_with_figures(s, paper: str) -> bytes:
    """The briefing as WeasyPrint lays it out with every figure in its table (tighter, as the
    pack does, where its last page would hold a few lines), for reference."""
    view = scenario_pack.briefing_view(s)
    with shared_fonts.programs_left_out():
        pdf = scenario_pack._laid_out(view, s.variant, paper).write_pdf()
    return assemble([scenario_pack.check_barred_part(pdf)], s.title)[0]


def _words(pdf: bytes) -> list[list[tuple]]:
    with pdfplumber.open(io.BytesIO(pdf)) as document:
        return [
            sorted(
                (w["text"], round(w["x0"], 1), round(w["x1"], 1), round(w["bottom"], 1)) for w in page.extract_words()
            )
            for page in document.pages
        ]


@pytest.mark.parametrize("scenario_id", SCENARIOS)
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_drawn_figures_read_as_the_briefing_laid_out_with_them(repo, scenario_id, paper):
    s = repo.extra["scenarios"][scenario_id]
    drawn = assemble([read_part(scenario_pack.briefing_part(s, paper))], s.title)[0]
    reference = _laid_out_with_figures(s, paper)
    _view, figures = scenario_pack.figured_view(s)
    assert figures and all(isinstance(f, int) for f in figures)
    mine, theirs = _words(drawn), _words(reference)
    assert mine == theirs  # every word, its ends and its baseline to a tenth of a point
    assert not [w for page in mine for w in page if scenario_pack.FIGURE_PLACEHOLDER in w[0]]  # never printed


def test_a_changed_figure_is_drawn_over_the_kept_layout(repo, tmp_path, monkeypatch):
    """A change of points draws the new figures over the layout kept in the folder: no layout,
    and the words of a briefing laid out with the new figures."""
    s = repo.extra["scenarios"]["mers-el-kebir-1940"]
    scenario_pack.briefing_part(s, "letter", tmp_path)
    assert len(list(tmp_path.glob("*.layout"))) == 1
    force = s.sides[0].forces[-1]
    changed = _with_unit(s, force.unit.id, dataclasses.replace(force.unit, points=force.unit.points - 1))
    assert scenario_pack.figured_view(changed)[1] != scenario_pack.figured_view(s)[1]
    assert scenario_pack.briefing_layout_inputs(changed, "letter") == scenario_pack.briefing_layout_inputs(s, "letter")
    monkeypatch.setattr(scenario_pack, "briefing_layout", _never)
    drawn = assemble([read_part(scenario_pack.briefing_part(changed, "letter", tmp_path))], s.title)[0]
    monkeypatch.undo()
    assert _words(drawn) == _words(_laid_out_with_figures(changed, "letter"))


def test_a_figure_wider_than_its_placeholder_is_laid_out_with_the_rest(repo):
    s = repo.extra["scenarios"]["mers-el-kebir-1940"]
    force = s.sides[0].forces[0]
    costly = _with_unit(s, force.unit.id, dataclasses.replace(force.unit, points=123456))
    drawn = assemble([read_part(scenario_pack.briefing_part(costly, "letter"))], s.title)[0]
    assert _words(drawn) == _words(_laid_out_with_figures(costly, "letter"))
    assert [w for page in _words(drawn) for w in page if w[0] == "123456"]


@pytest.mark.parametrize("entry", [b"", b"garbage", scenario_pack.BriefingLayout.MAGIC + b"[[1,2]]\n%PDF-1.7"])
def test_a_damaged_layout_is_laid_out_again(repo, tmp_path, entry):
    s = repo.extra["scenarios"]["savo-island-1942"]
    (tmp_path / scenario_pack.briefing_layout_name(s, "letter")).write_bytes(entry)
    drawn = assemble([read_part(scenario_pack.briefing_part(s, "letter", tmp_path))], s.title)[0]
    assert _words(drawn) == _words(_laid_out_with_figures(s, "letter"))
    kept = scenario_pack.BriefingLayout.from_bytes(
        (tmp_path / scenario_pack.briefing_layout_name(s, "letter")).read_bytes()
    )
    assert kept is not None and kept.slots


def _never(*_args):
    raise AssertionError("a briefing was laid out again")


def _with_unit(s, unit_id: str, unit):
    """The scenario with one unit replaced wherever its forces name it, and each side's total
    moved by the difference (the verdict kept)."""
    sides = []
    for side in s.sides:
        forces = [dataclasses.replace(f, unit=unit) if f.unit.id == unit_id else f for f in side.forces]
        moved = sum((unit.points - f.unit.points) * f.count for f in side.forces if f.unit.id == unit_id)
        fleet = dataclasses.replace(side.fleet, points=side.fleet.points + moved)
        sides.append(dataclasses.replace(side, forces=forces, fleet=fleet))
    return dataclasses.replace(s, sides=sides)
