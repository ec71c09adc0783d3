"""Rules about a data repository as a whole, beyond each file: checked by `wastools validate`
(not by `build`, which needs only the data), so that validate green means CI green."""

from __future__ import annotations

from pathlib import Path

from ..core.model import Repository
from ..core.problems import Problem, Severity

AIR_CHART = Path("docs/data/air-range-chart.md")
MINIMUM_COVERAGE = 95.0  # per cent of units with every historical figure their variants need


def repository_problems(root: Path, repo: Repository) -> list[Problem]:
    return air_chart_problems(root, repo) + coverage_problems(repo)


def coverage_problems(repo: Repository, minimum: float = MINIMUM_COVERAGE) -> list[Problem]:
    """Missing figures are allowed with a reason, but the data as a whole should keep its
    sources: a warning (each unit's reason is already checked) when coverage falls."""
    from ..content.coverage import summary

    found = summary(repo)
    if found["percent"] < minimum:
        return [
            Problem(
                "cards",
                1,
                1,
                "",
                f"only {found['complete']} of {found['units']} units ({found['percent']} %) have every "
                f"historical figure, below {minimum:g} %: `wastools coverage --by unit` lists what is missing",
                Severity.WARNING,
            )
        ]
    return []


def air_chart_problems(root: Path, repo: Repository) -> list[Problem]:
    """The committed Air Range Chart report must be the one the cards give today."""
    from ..content.air_chart import render_report

    path = root / AIR_CHART
    if not path.is_file() or path.is_symlink():
        return []
    if path.read_text("utf-8", errors="replace") != render_report(repo.units):
        return [Problem(AIR_CHART.as_posix(), 1, 1, "", "out of date with the cards: run `wastools air-chart --write`")]
    return []
