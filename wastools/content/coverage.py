"""Coverage of the historical figures the variants need, per nation, field or unit."""

from __future__ import annotations

from collections import defaultdict

from ..core.model import Repository, Unit


def needed_fields(unit: Unit) -> tuple[str, ...]:
    """Aircraft need a top speed (mph); ships and submarines a top speed (kn) and a length."""
    return ("top_speed",) if unit.is_aircraft else ("top_speed", "length")


def missing_fields(unit: Unit) -> list[str]:
    return [name for name in needed_fields(unit) if getattr(unit.history, name) is None]


def summary(repo: Repository) -> dict[str, float | int]:
    units = list(repo.units.values())
    complete = sum(1 for u in units if not missing_fields(u))
    return {
        "units": len(units),
        "complete": complete,
        "percent": round(100 * complete / len(units), 1) if units else 0.0,
    }


def coverage_table(repo: Repository, by: str) -> str:
    if by == "unit":
        return _by_unit(repo)
    rows: dict[str, list[int]] = defaultdict(
        lambda: [0, 0, 0, 0, 0]
    )  # units, complete, speed have/need, length have/need
    for unit in repo.units.values():
        keys = [unit.nation] if by == "nation" else [unit.category]
        for key in keys:
            row = rows[key]
            row[0] += 1
            row[1] += not missing_fields(unit)
            row[2] += unit.history.top_speed is not None
            row[3] += unit.history.length is not None
            row[4] += "length" in needed_fields(unit)
    title = "nation" if by == "nation" else "kind"
    lines = [f"{title:<14} {'units':>5} {'complete':>9} {'top speed':>10} {'length':>9}"]
    for key, (n, complete, speed, length, need_length) in sorted(rows.items()):
        lines.append(f"{key:<14} {n:>5} {complete:>9} {speed:>6}/{n:<3} {length:>5}/{need_length:<3}")
    total = summary(repo)
    lines.append(f"{'all':<14} {total['units']:>5} {total['complete']:>9}   ({total['percent']}% complete)")
    return "\n".join(lines)


def _by_unit(repo: Repository) -> str:
    lines = []
    for unit in repo.units.values():
        reasons = dict(unit.history.missing)
        for name in missing_fields(unit):
            lines.append(f"{unit.nation}/{unit.id}: {name} missing: {reasons.get(name, 'no reason recorded')}")
    return "\n".join(lines) if lines else "every unit has every figure it needs"
