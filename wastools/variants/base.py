"""What every variant shares: parameters, the adapted unit, and band helpers.

A variant is pure: ``adapt(unit, params)`` turns a validated :class:`~wastools.model.Unit`
into an :class:`AdaptedUnit` with no I/O. Every derived number carries ``from``, its
provenance in words, and every fallback is a warning naming the unit and the missing fact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from ..core.model import GUNNERY_KINDS, Attack, Unit

TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
KIND_WORDS = {int: "whole number", float: "number", str: "text"}


class ParameterError(ValueError):
    """A --param value that the variant cannot use."""


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def parse(self, text: str) -> Any:
        kind = type(self.default)
        shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
        if kind is bool:
            if text.lower() not in TRUE + FALSE:
                raise ParameterError(f"{self.name}: {shown} is not true or false")
            value: Any = text.lower() in TRUE
        elif kind in (int, float) and not (text.isascii() and len(text) <= 40):
            raise ParameterError(f"{self.name}: {shown} is not a {KIND_WORDS[kind]} (ASCII digits)")
        else:
            try:
                value = kind(text)
            except ValueError:
                raise ParameterError(f"{self.name}: {shown} is not a {KIND_WORDS.get(kind, kind.__name__)}") from None
        self.check(value)
        return value

    def check(self, value: Any) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            raise ParameterError(f"{self.name}: {value} is not a finite number")
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"{self.name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        if self.minimum is not None and value < self.minimum:
            raise ParameterError(f"{self.name}: {value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ParameterError(f"{self.name}: {value} is above the maximum {self.maximum}")


@dataclass(frozen=True)
class Band:
    band: int
    dice: int
    min: float
    max: float
    unit: str
    condition: str | None = None  # e.g. "Extended Range 5, while undamaged"

    def to_json(self) -> dict[str, Any]:
        out = {"band": self.band, "dice": self.dice, "min": _num(self.min), "max": _num(self.max), "unit": self.unit}
        if self.condition:
            out["condition"] = self.condition
        return out


@dataclass(frozen=True)
class AdaptedAttack:
    type: str
    bands: tuple[Band, ...]
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "bands": [b.to_json() for b in self.bands]}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class Value:
    """A derived number (or text) with its unit and provenance."""

    value: Any
    unit: str | None
    source: str  # shown as "from"
    note: str | None = None  # what a card prints when there is no number (e.g. "placed")

    def to_json(self) -> dict[str, Any]:
        out = {"value": _num(self.value), "unit": self.unit, "from": self.source}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class AdaptedUnit:
    unit: Unit
    variant: str
    parameters: dict[str, Any]
    movement: Value
    attacks: tuple[AdaptedAttack, ...]
    rules: dict[str, Value]
    crippled: bool = False
    warnings: tuple[str, ...] = ()

    def attack(self, kind: str) -> AdaptedAttack | None:
        return next((a for a in self.attacks if a.type == kind), None)

    def to_json(self) -> dict[str, Any]:
        u = self.unit
        return {
            "unit": u.id,
            "name": u.name,
            "nation": u.nation,
            "type": u.type,
            "variant": self.variant,
            "parameters": {k: _num(v) for k, v in sorted(self.parameters.items())},
            "crippled": self.crippled,
            "card": {
                "points": u.points,
                "year": u.year,
                "set": u.set,
                "number": u.number,
                "rarity": u.rarity,
                "armor": u.armor,
                "vital_armor": u.vital_armor,
                "hull": u.hull,
                "speed": u.speed,
                "flagship": u.flagship,
                "carrier_capacity": u.carrier_capacity,
                "abilities": [a.text for a in u.abilities],
            },
            "movement": self.movement.to_json(),
            "attacks": [a.to_json() for a in self.attacks],
            "rules": {k: v.to_json() for k, v in self.rules.items()},
            "warnings": list(self.warnings),
        }


def _num(value: Any) -> Any:
    """Whole floats print as integers in JSON (30.0 -> 30); others keep two decimals."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    if isinstance(value, (list, tuple)):
        return [_num(v) for v in value]
    if isinstance(value, dict):
        return {k: _num(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    seed: str  # the rule document it comes from
    parameters: tuple[Parameter, ...]
    adapt_fn: Callable[[Unit, dict[str, Any], bool], AdaptedUnit]
    distance_unit: str
    description: str = ""
    extras: dict[str, Any] = field(default_factory=dict)

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.parameters}

    def resolve(self, given: dict[str, str] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``key=value`` texts; unknown keys are an error.
        Keys of the form ``footprint.<unit-id>`` are per-unit overrides where a variant allows them."""
        params = self.defaults()
        by_name = {p.name: p for p in self.parameters}
        for key, text in (given or {}).items():
            prefix = key.split(".", 1)[0]
            if key in by_name:
                params[key] = by_name[key].parse(text)
            elif "." in key and f"{prefix}.*" in self.extras.get("per_unit", ()):
                low, high = self.extras.get("per_unit_range", (1, 99))
                if not (text.isascii() and text.isdigit() and low <= int(text[:9]) <= high):
                    shown = repr(text) if len(text) <= 40 else repr(text[:40]) + "..."
                    raise ParameterError(f"{key}: {shown} is not a whole number from {low} to {high}")
                params[key] = int(text)
            else:
                known = ", ".join(sorted(by_name)) or "none"
                raise ParameterError(f"unknown parameter {key!r} for variant {self.name} (known: {known})")
        for p in self.parameters:
            p.check(params[p.name])
        return params

    def adapt(self, unit: Unit, params: dict[str, Any] | None = None, crippled: bool = False) -> AdaptedUnit:
        return self.adapt_fn(unit, params if params is not None else self.defaults(), crippled)


# --- shared arithmetic --------------------------------------------------------------


def round_half_up(value: float) -> int:
    """Schoolbook rounding (6.5 -> 7), not Python's banker's rounding."""
    return int(Decimal(str(value)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def crippled_dice(dice: int, crippled: bool, minimum: int = 0) -> int:
    return max(minimum, dice - 1) if crippled else dice


def extended_bands(unit: Unit, attack: Attack, crippled: bool) -> list[tuple[int, int, str]]:
    """(band, dice, condition) beyond band 3 granted by Extended Range N / Long Shot N.
    Both use the range-3 value and need an undamaged unit, so a crippled unit gets none."""
    if attack.kind != "main" or crippled or not attack.bands[3]:
        return []
    extra = []
    ext = unit.ability("Extended Range {n}")
    if ext and ext.n:
        extra += [(band, attack.bands[3], f"{ext.text}, while undamaged") for band in range(4, ext.n + 1)]
    shot = unit.ability("Long Shot {n}")
    if shot and shot.n:
        extra.append((shot.n, attack.bands[3], f"{shot.text}: once per game, against a battleship"))
    return extra


def gunnery(kind: str) -> bool:
    return kind in GUNNERY_KINDS


def ceil_half(n: int) -> int:
    return math.ceil(n / 2)
