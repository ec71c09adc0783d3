"""Historical facts: the `history` block, coverage, and the Air Range Chart report."""

from __future__ import annotations

from wastools.content.air_chart import implied_mph, render_report
from wastools.content.coverage import missing_fields, summary


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


def test_validate_checks_coverage_of_historical_figures(repo):
    from wastools.data.datarules import coverage_problems

    found = summary(repo)
    assert 0 < found["complete"] < found["units"]
    below = coverage_problems(repo, minimum=found["percent"] + 0.1)
    assert len(below) == 1 and f"only {found['complete']} of {found['units']} units" in below[0].message
    assert coverage_problems(repo, minimum=found["percent"]) == []


def test_every_missing_figure_has_a_reason(repo):
    for unit in repo.units.values():
        reasons = dict(unit.history.missing)
        for name in missing_fields(unit):
            assert reasons.get(name), f"{unit.id}: {name} missing without a reason"


def test_validate_refuses_a_missing_figure_without_a_reason(tmp_repo, cli):
    path = tmp_repo / "cards/uk/hms-cossack.yaml"
    text = path.read_text()
    path.write_text(text[: text.index("  top_speed:")] + text[text.index("  length:") :])
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.exit_code == 1
    assert (
        "cards/uk/hms-cossack.yaml" in result.output and "history.top_speed: no figure and no reason" in result.output
    )


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
    reason = "  missing:\n    top_speed: no source found yet\n"
    path.write_text(text[: text.index("  top_speed:")] + reason + text[text.index("  length:") :])
    result = cli("coverage", "--by", "unit", root=tmp_repo)
    assert result.exit_code == 0, result.output
    assert "uk/hms-cossack: top_speed missing: no source found yet" in result.output


def test_implied_mph_brackets_the_formula():
    low, high = implied_mph(9)
    assert round(low, 1) == 306.8 and round(high, 1) == 340.9


def test_validate_reports_an_air_chart_report_out_of_date(tmp_repo, cli):
    from wastools.data import repository

    docs = tmp_repo / "docs" / "data"
    docs.mkdir(parents=True)
    current = render_report(repository.validate(tmp_repo).repository.units)
    (docs / "air-range-chart.md").write_text(current)
    assert cli("validate", "--quiet", root=tmp_repo).exit_code == 0
    (docs / "air-range-chart.md").write_text(current.replace("| 9 |", "| 8 |", 1))
    stale = cli("validate", "--quiet", root=tmp_repo)
    assert stale.exit_code == 1 and "docs/data/air-range-chart.md:1:1: out of date with the cards" in stale.output


def test_air_chart_report_is_complete(repo):
    text = render_report(repo.units)
    assert text.count("\n| ") - 1 == 44  # every chart row, header excluded
    assert "| Martlet Mk. I | `martlet-mk-ii` | 9 |" in text
