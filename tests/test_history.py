"""Historical facts: the `history` block, coverage, and the Air Range Chart report."""

from __future__ import annotations

from tests.conftest import ROOT
from wastools.air_chart import implied_mph, render_report
from wastools.coverage import missing_fields, summary


def test_every_figure_has_a_source_and_plausible_value(repo):
    for unit in repo.units.values():
        speed, length = unit.history.top_speed, unit.history.length
        if speed:
            assert speed.source.strip()
            assert (speed.unit == "mph") == unit.is_aircraft, unit.id
            low, high = (90, 460) if unit.is_aircraft else (5, 46)
            assert low <= speed.value <= high, (unit.id, speed.value)
        if length:
            assert length.source.strip() and 10 <= length.value <= 300, unit.id


def test_coverage_is_at_least_95_percent(repo):
    assert summary(repo)["percent"] >= 95


def test_every_missing_figure_has_a_reason(repo):
    for unit in repo.units.values():
        reasons = dict(unit.history.missing)
        for name in missing_fields(unit):
            assert reasons.get(name), f"{unit.id}: {name} missing without a reason"


def test_coverage_command(cli):
    by_nation = cli("coverage")
    assert by_nation.exit_code == 0
    assert by_nation.output.splitlines()[0].split()[:3] == ["nation", "units", "complete"]
    assert any(line.startswith("japan") for line in by_nation.output.splitlines())
    assert "% complete" in by_nation.output
    by_unit = cli("coverage", "--by", "unit")
    assert "germany/moltke: top_speed missing: class unidentified" in by_unit.output
    by_field = cli("coverage", "--by", "field")
    assert any(line.startswith("aircraft") for line in by_field.output.splitlines())


def test_history_missing_figure_is_reported_by_coverage(tmp_repo, cli):
    path = tmp_repo / "cards/uk/hms-cossack.yaml"
    text = path.read_text()
    path.write_text(text[: text.index("  top_speed:")] + text[text.index("  length:"):])
    result = cli("coverage", "--by", "unit", root=tmp_repo)
    assert "uk/hms-cossack: top_speed missing: no reason recorded" in result.output


def test_implied_mph_brackets_the_formula():
    low, high = implied_mph(9)
    assert round(low, 1) == 306.8 and round(high, 1) == 340.9


def test_air_chart_report_is_current_and_complete(repo):
    text = render_report(repo.units)
    committed = (ROOT / "docs" / "data" / "air-range-chart.md").read_text()
    assert text == committed, "run `wastools air-chart --write`"
    assert text.count("\n| ") - 1 == 44  # every chart row, header excluded
    assert "| Martlet Mk. I | `martlet-mk-ii` | 9 |" in text
