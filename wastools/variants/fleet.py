"""Scenario-level rules: fleet legality and objective/victory values per variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.model import Unit


@dataclass(frozen=True)
class FleetCheck:
    points: int
    limit: int
    effective_limit: int
    us_points: int = 0
    submarine_points: int = 0
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def legal(self) -> bool:
        return not self.problems


def fleet_points(units: list[tuple[Unit, int]]) -> int:
    return sum(unit.points * count for unit, count in units)


def check_fleet(variant: Any, units: list[tuple[Unit, int]], limit: int) -> FleetCheck:
    """Points against the limit, plus the variant's own fleet rules (``Variant.fleet_rules``)."""
    total = fleet_points(units)
    own = variant.fleet_rules(units, total, limit)
    if own is not None:
        return own
    problems = (f"{total} points is over the limit of {limit}",) if total > limit else ()
    return FleetCheck(total, limit, limit, problems=problems)


@dataclass(frozen=True)
class VictoryRules:
    objective_points: int
    win_points: int
    claim: str
    source: str


def victory_rules(variant: Any, params: dict | None = None) -> VictoryRules:
    """How objectives are claimed and what they score. Every variant keeps the base game's
    scoring (objectives 50, victory at 150 points, as the large-surface rules restate it); the
    rule documents change only how near a ship must be to claim (``Variant.claim_fn``)."""
    return VictoryRules(50, 150, variant.claim_fn(params if params is not None else variant.defaults()), variant.seed)
