"""`wastools build`: one plan, one store outside the data, one lock, one pool.

``run.build`` reads as the pipeline: plan every target with its key, make the stale ones
on the pool, write each whole into the locked output folder, then the manifest. See
``plan`` (what is made, and who may write what), ``store`` (what is kept between runs),
``output`` (the folder: lock, links, atomic writes) and ``pool`` (the workers).
"""

from __future__ import annotations

from .cards import CardSpec, CardText, deck_cards, unit_card_key
from .model import DATA_FINGERPRINT, load_repository
from .output import OutputError
from .plan import Target
from .pool import Pool
from .run import BuildReport, PlanError, build, make_faces
from .selection import Options, Selection, deck_name, layout_name, paper_suffix

__all__ = [
    "DATA_FINGERPRINT",
    "BuildReport",
    "CardSpec",
    "CardText",
    "Options",
    "OutputError",
    "PlanError",
    "Pool",
    "Selection",
    "Target",
    "build",
    "deck_cards",
    "deck_name",
    "layout_name",
    "load_repository",
    "make_faces",
    "paper_suffix",
    "unit_card_key",
]
