"""The static site: a card catalogue, variant and scenario pages and a fleet builder.

``site_target`` is the site as one target of a build: made on the build's pool from the
card faces the build keeps in the store, written into ``build/site/``, which opens from
``file://`` with nothing loaded from outside the folder.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from ..core.model import Repository
from .builder import SiteReport, render_site, site_files, site_key
from .data import SiteSpec

__all__ = ["SiteReport", "SiteSpec", "build_site", "render_site", "site_address", "site_spec", "site_target"]


def site_address(root: Path) -> str:
    """Where the site is published (``[site] address`` in wastools.toml; checked when the
    command read the settings), or "" when it is not set."""
    from ..data.config import read

    setting = read(root).get("site.address")
    return str(setting.value) if setting is not None else ""


def site_spec(repo: Repository, selection: Any, options: Any, address: str = "") -> SiteSpec:
    """Every unit, and each chosen variant with the parameters its deck uses."""
    return SiteSpec(
        tuple(repo.units.values()),
        tuple((v, options.variant_params(v)) for v in selection.chosen_variants()),
        address,
    )


def site_target(repo: Repository, selection: Any, options: Any, data_key: str, address: str = ""):
    """The site of a build (``build.Selection``, ``build.Options``): a folder target keyed by
    everything it shows, which reads the decks' faces from the store."""
    from ..pipeline.selection import card_bleed

    spec = site_spec(repo, selection, options, address)
    return _target(repo, spec, site_key(data_key, spec), card_bleed(options))


def _target(repo: Repository, spec: SiteSpec, made_key: str, bleed: float):
    """The site's target; its Tabletop Simulator images are its parts, drawn on both workers
    before the site's own job (which finds them in the store, or draws what is missing). It
    carries the PDFs its pages offer, in ``site/pdf/``: the build narrows them to those it
    has (``pipeline.plan.carrying``) and links or copies them in."""
    from ..pipeline.plan import Target
    from .data import CARRIED, offered_pdfs
    from .tabletop import tabletop_parts

    parts = tabletop_parts(repo, spec)
    carries = tuple((f"{CARRIED}/{rel}", rel) for rel in offered_pdfs(repo, spec))
    args = (repo, spec, bleed)
    return Target("site", made_key, site_files, args, reads_store=True, parts=parts, carries=carries)


def build_site(repo: Repository, out: Path, spec: SiteSpec, data_key: str = "", store=None) -> SiteReport:
    """Only the site of ``spec``, built into ``out/site`` as a build makes it (locked, written
    file by file where changed); with ``data_key`` empty it is made whatever the record says.
    The report's ``written`` says whether it was made."""
    from ..pipeline import Options, Selection, build

    made_key = site_key(data_key, spec) if data_key else uuid.uuid4().hex
    target = _target(repo, spec, made_key, 0.0)
    report = build(repo, out.parent, out, Selection(), Options(jobs=1), store=store, site=target, pdfs=False)
    return report.site or SiteReport()
