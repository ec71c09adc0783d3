"""Text and JSON views of adapted units (`wastools show`, `wastools variants`)."""

from __future__ import annotations

from typing import Any

from ..variants.base import AdaptedUnit, Band, Variant, _num


def fmt_value(value: Any) -> str:
    """A value as a card or table prints it: 30.0 -> 30, lists with slashes, None as a dash."""
    value = _num(value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {fmt_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "/".join(fmt_value(v) for v in value)
    return "-" if value is None else str(value)


def band_text(band: Band) -> str:
    reach = f"{fmt_value(band.max)}" if band.min == band.max else f"{fmt_value(band.min)}-{fmt_value(band.max)}"
    return f"{band.dice} @ {reach}" + ("*" if band.condition else "")


def render_text(adapted: AdaptedUnit, variant: Variant) -> str:
    u = adapted.unit
    lines = [
        f"{u.name} ({u.id}): {u.nation} {u.type}, {u.points} points, {u.set} #{u.number}",
        f"variant {variant.name}: {variant.title} [{variant.seed}]" + ("  CRIPPLED" if adapted.crippled else ""),
    ]
    if adapted.parameters:
        lines.append("parameters: " + ", ".join(f"{k}={fmt_value(v)}" for k, v in sorted(adapted.parameters.items())))
    m = adapted.movement
    shown = f"{fmt_value(m.value)} {m.unit or ''}".rstrip() if m.value is not None else (m.note or "-")
    lines.append(f"movement: {shown}   ({m.source})")
    if adapted.attacks:
        width = max(len(a.type) for a in adapted.attacks) + 2
        top = max(b.band for a in adapted.attacks for b in a.bands) if any(a.bands for a in adapted.attacks) else 3
        unit = next((b.unit for a in adapted.attacks for b in a.bands), "")
        lines.append(
            f"{'attack':<{width}}"
            + "".join(f"{'band ' + str(i):<13}" for i in range(top + 1))
            + f"(dice @ reach in {unit})"
        )
        for attack in adapted.attacks:
            cells = {b.band: band_text(b) for b in attack.bands}
            lines.append(f"{attack.type:<{width}}" + "".join(f"{cells.get(i, ''):<13}" for i in range(top + 1)))
        conditions = sorted({f"band {b.band}: {b.condition}" for a in adapted.attacks for b in a.bands if b.condition})
        lines += [f"  * {c}" for c in conditions]
        notes = sorted({f"{a.type}: {n}" for a in adapted.attacks for n in a.notes})
        lines += [f"  - {n}" for n in notes]
    if adapted.rules:
        lines.append("rules:")
        for name, value in adapted.rules.items():
            lines.append(f"  {name}: {fmt_value(value.value)} {value.unit or ''}".rstrip() + f"   ({value.source})")
    lines += [f"warning: {w}" for w in adapted.warnings]
    return "\n".join(lines)


def variants_text(variants: list[Variant]) -> str:
    lines = []
    for v in variants:
        lines.append(f"{v.name}: {v.title} [{v.seed}]")
        if v.base:
            lines.append(f"  a house variant ({v.source}) following {v.base}")
        lines.append(f"  {v.description}")
        for p in v.parameters:
            choices = f" (one of {', '.join(map(str, p.choices))})" if p.choices else ""
            default = str(p.default).lower() if isinstance(p.default, bool) else fmt_value(p.default)
            lines.append(f"  --param {v.name}.{p.name}={default}{choices}: {p.help}")
        for pattern in v.per_unit:
            lines.append(f"  --param {v.name}.{pattern.replace('*', '<unit-id>')}=N: per-unit override")
    return "\n".join(lines)


def variants_json(variants: list[Variant]) -> list[dict[str, Any]]:
    return [
        {
            "name": v.name,
            "title": v.title,
            "seed": v.seed,
            "distance_unit": v.distance_unit,
            "base": v.base or None,  # a house variant's shipped variant
            "changes": {k: _num(value) for k, value in v.changes} if v.base else None,
            "parameters": [
                {
                    "name": p.name,
                    "default": _num(p.default),
                    "help": p.help,
                    "choices": list(p.choices) if p.choices else None,
                }
                for p in v.parameters
            ],
        }
        for v in variants
    ]
