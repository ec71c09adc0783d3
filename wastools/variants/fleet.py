"""Scenario-level rules: fleet legality and objective/victory values per variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

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


def check_fleet(variant: str, units: list[tuple[Unit, int]], limit: int) -> FleetCheck:
    """Points against the limit, plus the variant's own fleet rules."""
    total = fleet_points(units)
    if variant != "tabletop-cm":
        problems = (f"{total} points is over the limit of {limit}",) if total > limit else ()
        return FleetCheck(total, limit, limit, problems=problems)
    return _tabletop_cm(units, total, limit)


def _tabletop_cm(units: list[tuple[Unit, int]], total: int, limit: int) -> FleetCheck:
    """Seed 001: more than a third of the points in US units caps the fleet at 90% of the
    limit; submarines may take at most 25% of the points available."""
    us = sum(u.points * n for u, n in units if u.nation == "us")
    subs = sum(u.points * n for u, n in units if u.type == "submarine")
    notes, problems = [], []
    effective = limit
    if total and Fraction(us, total) > Fraction(1, 3):
        effective = int(Fraction(limit) * Fraction(9, 10))
        notes.append(f"US units are {us} of {total} points (more than a third): limit capped at 90%, {effective}")
    if total > effective:
        problems.append(f"{total} points is over the limit of {effective}")
    sub_cap = int(Fraction(limit) / 4)
    if subs > sub_cap:
        problems.append(f"submarines are {subs} points, over 25% of {limit} ({sub_cap})")
    return FleetCheck(total, limit, effective, us, subs, tuple(problems), tuple(notes))


@dataclass(frozen=True)
class VictoryRules:
    objective_points: int
    win_points: int
    claim: str
    source: str


def victory_rules(variant: str, params: dict | None = None) -> VictoryRules:
    """How objectives are claimed and what they score. Every variant keeps the base game's
    scoring (objectives 50, victory at 150 points, as the large-surface rules restate it); the
    rule documents change only how near a ship must be to claim."""
    from . import hex as hexv
    from . import large_map, off_grid, tabletop_cm, tabletop_inches

    base = "the base game's rules"
    claims = {
        "standard": ("in the objective's sector with no enemy ship there", base),
        "large-map": ("in the objective's sector with no enemy ship there", large_map.SEED),
        "tabletop-cm": (
            "touch the objective with no enemy vessel within 20 cm (30 cm on the 8 ft scale)",
            tabletop_cm.SEED,
        ),
        "hex": ("in the objective's area, 3 hexes across, with no enemy ship there", hexv.SEED),
        "off-grid": ("within 1 leg of the marker with no enemy ship within 1 leg", off_grid.SEED),
        "tabletop-inches": ("within 5 in of the token, with no enemy ship within 10 in", tabletop_inches.SEED),
    }
    if variant == "tabletop-inches" and params and "objective_enemy_clear_in" in params:
        claims[variant] = (
            (
                f"within {params['sector_in']:g} in of the token, with no enemy ship within "
                f"{params['objective_enemy_clear_in']:g} in"
            ),
            tabletop_inches.SEED,
        )
    claim, source = claims[variant]
    return VictoryRules(50, 150, claim, source)
