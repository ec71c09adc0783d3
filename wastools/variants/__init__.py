"""The registry of rule variants: one pure module each."""

from __future__ import annotations

from . import hex, large_map, off_grid, standard, tabletop_cm, tabletop_inches
from .base import AdaptedUnit, ParameterError, Variant

VARIANTS: dict[str, Variant] = {
    module.VARIANT.name: module.VARIANT for module in (standard, large_map, tabletop_cm, hex, off_grid, tabletop_inches)
}


def get(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ParameterError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})") from None


__all__ = ["VARIANTS", "AdaptedUnit", "ParameterError", "Variant", "get"]
