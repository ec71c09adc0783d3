"""What every variant shares: parameters, the adapted unit, and band helpers.

A variant is pure: ``adapt(unit, params)`` turns a validated :class:`~wastools.model.Unit`
into an :class:`AdaptedUnit` with no I/O. Every derived number carries ``from``, its
provenance in words, and every fallback is a warning naming the unit and the missing fact.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from ..core.errors import UsageProblem
from ..core.model import GUNNERY_KINDS, Attack, Unit
from .board import Board, SquareBoard
from .dice import BASE, DiceRule

TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
KIND_WORDS = {int: "whole number", float: "number", str: "text"}


class ParameterError(UsageProblem, ValueError):
    """A --param value that the variant cannot use."""


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    @property
    def label(self) -> str:
        """The setting as a person names it: its description up to any explanation in brackets."""
        return self.help.split(" (")[0]

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
    own_reach: bool = False  # its notes give its reach (off the grid's anti-air), not the variant's range rule

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
    note: str | None = None  # printed instead of a missing number ("placed"), or beside a fallback's

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
class BoardSheet:
    """A board a variant's kit prints on its own (not a scenario's map): its file stem, its
    board, and its size in the board's units (columns and rows of a grid)."""

    stem: str
    title: str
    board: Board
    columns: int
    rows: int


def _no_fleet_rules(units: list, total: int, limit: int) -> Any:
    return None


def _sectors(params: dict[str, Any]) -> Board:
    return SquareBoard()


@dataclass(frozen=True)
class Marker:
    """A counter a variant's own rules need beside the ones every game uses (the hex grid's
    face-down loads): its face (a line break where one line is too wide), a note under it,
    what its back says, and how many the sheet holds."""

    word: str
    note: str = ""
    back: str = ""
    count: int = 1


def _no_sheet(params: dict[str, Any]) -> BoardSheet | None:
    return None


def _as_printed(params: dict[str, Any]) -> str | None:
    return "each range is that many sectors away, as printed"


def _nothing_computed(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    return {}


def _no_placement(params: dict[str, Any]) -> str:
    return ""  # the card says it from the variant's measure, or "placed in its target's sector"


def _in_the_sector(params: dict[str, Any]) -> str:
    return "in the objective's sector with no enemy ship there"


@dataclass(frozen=True, repr=False)
class Variant:
    """Everything a rule variant means, in one place: every other module asks it.

    ``name`` is its id (folders, ``--variant``), ``title`` the one name a player reads
    everywhere, ``label`` the short form a card's foot has room for. ``board`` gives the
    table it plays on for a set of parameters, ``rulers`` and ``measure`` (how the base
    game's sector words read in it) what its kit prints, ``claim`` how an objective is held,
    ``fleet_rules`` any limit beyond the points. A house variant is a shipped one with other
    defaults: ``base`` names the variant whose rules it follows, ``changes`` what it changes.
    """

    name: str
    title: str
    seed: str  # the rule document it comes from, by its title
    parameters: tuple[Parameter, ...]
    adapt_fn: Callable[[Unit, dict[str, Any], bool], AdaptedUnit]
    distance_unit: str
    description: str = ""
    label: str = ""
    motif: str = "rose"  # what its card backs show: rose, squares, hexes, compass, ruler
    board_fn: Callable[[dict[str, Any]], Board] = _sectors
    sheet_fn: Callable[[dict[str, Any]], BoardSheet | None] = _no_sheet
    rulers_fn: Callable[[dict[str, Any]], list] | None = None
    measure_fn: Callable[..., Any] | None = None
    claim_fn: Callable[[dict[str, Any]], str] = _in_the_sector
    fleet_rules: Callable[[list, int, int], Any] = _no_fleet_rules
    fleet_rule: str = ""  # the browser's name for its fleet rules (the fleet builder mirrors them)
    smoke_fn: Callable[[dict[str, Any]], tuple[float, str, str]] | None = (
        None  # smoke templates: radius (in), label, heading
    )
    markers: tuple[Marker, ...] = ()  # its own counters, printed with the common ones in its own counters file
    placement_fn: Callable[[dict[str, Any]], str] = _no_placement  # how an aircraft card says it is placed
    range_fn: Callable[[dict[str, Any]], str | None] = _as_printed  # how card ranges become distances, in words
    scale_parameter: str = ""  # the setting whose every choice the aid's measure table shows side by side
    aid: str | Path = (
        ""  # its aid's words: wastools/aids/<aid>.yaml, or a file of its own (a house variant keeps its base's)
    )
    aid_fn: Callable[[Any, dict[str, Any]], dict[str, Any]] = _nothing_computed  # the numbers and tables in them
    stat_blocks: bool = False  # its deck ends with air base, shore battery and garrison blocks
    per_unit: tuple[str, ...] = ()  # per-unit parameter patterns ("footprint.*")
    per_unit_range: tuple[int, int] = (1, 99)
    base: str = ""  # a house variant's shipped variant ("" for a shipped one)
    changes: tuple[tuple[str, Any], ...] = ()  # the parameters a house variant sets, in its file's order
    source: str = ""  # the file a house variant comes from
    dice: DiceRule = BASE  # what each face of an attack die counts (wastools.content.odds)

    def __repr__(self) -> str:
        """Stable across processes (keys hash it): what it is, never where its functions live."""
        return f"Variant({self.name!r}, base={self.base!r}, title={self.title!r}, changes={self.changes!r})"

    __str__ = __repr__

    @property
    def family(self) -> str:
        """The shipped variant whose rules it follows (itself, unless it is a house variant)."""
        return self.base or self.name

    @property
    def has_fleet_rules(self) -> bool:
        """Whether it limits a fleet beyond its points (the tabletop conversions' caps)."""
        return self.fleet_rules is not _no_fleet_rules

    @property
    def short(self) -> str:
        return self.label or self.title

    def board(self, params: dict[str, Any] | None = None) -> Board:
        return self.board_fn(params if params is not None else self.defaults())

    def sheet(self, params: dict[str, Any] | None = None) -> BoardSheet | None:
        return self.sheet_fn(params if params is not None else self.defaults())

    def outputs(self, params: dict[str, Any] | None = None) -> list[tuple[str, str]]:
        """The PDFs of its kit in its own folder: (file stem, what a player calls it). Counters
        are its own where it has counters or templates of its own (then they hold the common
        counters too); else it prints the common file, ``build/counters.pdf``."""
        out = [("cards", "cards"), ("player-aid", "player aid")]
        if self.rulers_fn is not None:
            out.append(("rulers", "range rulers"))
        sheet = self.sheet(params)
        if sheet is not None:
            out.append((sheet.stem, "board"))
        if self.has_own_counters:
            out.append(("counters", "counters and smoke templates" if self.smoke_fn else "counters"))
        return out

    @property
    def has_own_counters(self) -> bool:
        """Whether its counters file is its own: counters or templates no other variant prints."""
        return bool(self.markers) or self.smoke_fn is not None

    def rulers(self, params: dict[str, Any]) -> list:
        return self.rulers_fn(params) if self.rulers_fn else []

    def range_words(self, params: dict[str, Any]) -> str | None:
        """How the card's range bands become distances, in words with their numbers; None where
        each attack's notes say it (per-weapon tables)."""
        return self.range_fn(params)

    def aid_parts(self, repo: Any, params: dict[str, Any]) -> dict[str, Any]:
        """The numbers (words) and tables its aid's prose names, by name."""
        return self.aid_fn(repo, params)

    def placement(self, params: dict[str, Any]) -> str:
        """How an aircraft is placed with its target, where the variant says it in its own words."""
        return self.placement_fn(params)

    def measure(self, params: dict[str, Any], unit: Unit | None = None) -> Any:
        """How the base game's sector words read (None where the variant has sectors)."""
        return self.measure_fn(params, unit) if self.measure_fn else None

    def defaults(self) -> dict[str, Any]:
        out = {p.name: p.default for p in self.parameters}
        out.update((k, v) for k, v in self.changes if "." in k)  # per-unit values a house variant sets
        return out

    def resolve(self, given: dict[str, str] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``key=value`` texts; unknown keys are an error.
        Keys of the form ``footprint.<unit-id>`` are per-unit overrides where a variant allows them."""
        params = self.defaults()
        by_name = {p.name: p for p in self.parameters}
        for key, text in (given or {}).items():
            prefix = key.split(".", 1)[0]
            if key in by_name:
                params[key] = by_name[key].parse(text)
            elif "." in key and f"{prefix}.*" in self.per_unit:
                low, high = self.per_unit_range
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
        adapted = self.adapt_fn(unit, params if params is not None else self.defaults(), crippled)
        return adapted if adapted.variant == self.name else replace(adapted, variant=self.name)


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
