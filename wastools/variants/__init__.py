"""The registry of rule variants: one pure module each, plus a repository's house variants.

``SHIPPED`` holds the six variants of the rule documents; ``VARIANTS`` those plus the house
variants of the repository in use (``use_house``, called once a command knows its
repository, before any worker is forked, so every process sees the same registry).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.suggest import did_you_mean
from . import hex, large_map, off_grid, standard, tabletop_cm, tabletop_inches
from .base import AdaptedUnit, BoardSheet, Marker, ParameterError, Variant
from .board import Board, HexBoard, SquareBoard, TableBoard

SHIPPED: dict[str, Variant] = {
    module.VARIANT.name: module.VARIANT for module in (standard, large_map, tabletop_cm, hex, off_grid, tabletop_inches)
}
VARIANTS: dict[str, Variant] = dict(SHIPPED)
BASELINE = standard.VARIANT.name  # the base game: what every other variant is compared to


def use_house(house: Iterable[Variant]) -> None:
    """The registry becomes the shipped variants plus ``house`` (a repository's own)."""
    VARIANTS.clear()
    VARIANTS.update(SHIPPED)
    VARIANTS.update((v.name, v) for v in house)


def add(variant: Variant) -> None:
    """One more variant for this process (a build's ``--param`` variant)."""
    VARIANTS[variant.name] = variant


def capped_titles() -> str:
    """The variants with fleet rules beyond the points, by title ('Tabletop in centimeters')."""
    return " and ".join(v.title for v in VARIANTS.values() if v.has_fleet_rules)


def get(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ParameterError(
            f"unknown variant {name!r} (known: {', '.join(VARIANTS)}){did_you_mean(name, VARIANTS)}"
        ) from None


__all__ = [
    "BASELINE",
    "SHIPPED",
    "VARIANTS",
    "AdaptedUnit",
    "Board",
    "BoardSheet",
    "Marker",
    "HexBoard",
    "ParameterError",
    "SquareBoard",
    "TableBoard",
    "Variant",
    "add",
    "capped_titles",
    "get",
    "use_house",
]
