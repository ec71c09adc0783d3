"""`wastools build`: one plan, one store outside the data, one lock, one pool.

``run.build`` reads as the pipeline: plan every target with its key, make the stale ones
on the pool, write each whole into the locked output folder, then the manifest. See
``plan`` (what is made, and who may write what), ``store`` (what is kept between runs),
``output`` (the folder: lock, links, atomic writes) and ``pool`` (the workers).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers (at run time, __getattr__)
    from .cards import CardSpec, CardText, deck_cards, unit_card_key  # noqa: F401
    from .model import load_repository  # noqa: F401
    from .output import OutputError  # noqa: F401
    from .plan import Target  # noqa: F401
    from .pool import Pool  # noqa: F401
    from .run import BuildReport, PlanError, build, make_faces  # noqa: F401
    from .selection import Options, Selection, deck_name, layout_name, paper_suffix  # noqa: F401

# what the package offers, and the module each name lives in: imported when first used, so
# a build that stops at once ("0 files written") or reads one module (the output folder,
# the record) does not load the card renderer and its templates
_HOME = {
    "CardSpec": "cards",
    "CardText": "cards",
    "deck_cards": "cards",
    "unit_card_key": "cards",
    "load_repository": "model",
    "OutputError": "output",
    "Target": "plan",
    "Pool": "pool",
    "BuildReport": "run",
    "PlanError": "run",
    "build": "run",
    "make_faces": "run",
    "Options": "selection",
    "Selection": "selection",
    "deck_name": "selection",
    "layout_name": "selection",
    "paper_suffix": "selection",
}
__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_HOME[name]}", __name__), name)
