"""standard: the base game on its sector map; the baseline every variant is compared to."""

from __future__ import annotations

from typing import Any

from ..core.model import Unit
from .aid import Table
from .base import AdaptedAttack, AdaptedUnit, Band, Value, Variant, extended_bands
from .board import SquareBoard

SOURCE = "the base game (War at Sea rules)"


def sector_attacks(unit: Unit, crippled: bool, unit_name: str = "sectors") -> tuple[AdaptedAttack, ...]:
    """Range band r reaches r sectors; the card's dice unchanged."""
    attacks = []
    for attack in unit.attacks:
        bands = [Band(r, dice, r, r, unit_name) for r, dice in enumerate(attack.bands) if dice]
        bands += [Band(r, dice, r, r, unit_name, cond) for r, dice, cond in extended_bands(unit, attack, crippled)]
        attacks.append(AdaptedAttack(attack.kind, tuple(bands)))
    return tuple(attacks)


def sector_movement(unit: Unit, source: str) -> Value:
    if unit.is_aircraft:
        return Value(None, None, "aircraft are placed in their target's sector, not moved", "placed")
    return Value(unit.speed, "sectors", f"card speed {unit.speed} ({source})")


def board(params: dict[str, Any]) -> SquareBoard:
    """The base game's sectors, measured on the large-map board's 4 in (its own map is printed)."""
    return SquareBoard(default_size=(11, 7))


def aid_parts(repo: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The numbers and tables of the aid's prose (``wastools/aids/standard.yaml``)."""
    bands = Table(
        ("band", "reach"),
        tuple((b, "same sector" if b == 0 else "1 sector" if b == 1 else f"{b} sectors") for b in range(4)),
    )
    return {"bands": bands}


def adapt(unit: Unit, params: dict[str, Any], crippled: bool = False) -> AdaptedUnit:
    return AdaptedUnit(
        unit, "standard", dict(params), sector_movement(unit, SOURCE), sector_attacks(unit, crippled), {}, crippled
    )


VARIANT = Variant(
    name="standard",
    title="Base game",
    seed="the base game's rules",
    parameters=(),
    adapt_fn=adapt,
    distance_unit="sectors",
    description="Reproduction cards in sectors: nothing is converted.",
    label="Base game",
    motif="rose",
    board_fn=board,
    aid="standard",
    aid_fn=aid_parts,
)
