"""The static site: a card catalogue, variant and scenario pages and a fleet builder.

``build_site_for`` is what ``wastools build`` calls; it writes ``build/site/``, which opens
from ``file://`` with nothing loaded from outside the folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model import Repository
from .builder import SiteReport, build_site, render_site
from .data import SiteSpec

__all__ = ["SiteReport", "SiteSpec", "build_site", "build_site_for", "render_site", "site_address"]


def site_address(root: Path) -> str:
    """Where the site is published (``[site] address`` in wastools.toml; checked when the
    command read the settings), or "" when it is not set."""
    from ..config import read

    setting = read(root).get("site.address")
    return str(setting.value) if setting is not None else ""


def build_site_for(
    repo: Repository, root: Path, out: Path, selection: Any, options: Any, force: bool = False
) -> SiteReport:
    """The site for a build's selection (``wastools.build.Selection``) and options: the chosen
    units, and each chosen variant with the parameters the decks use."""
    from ..build import DATA_FINGERPRINT, layout_name
    from ..fingerprints import data_fingerprint
    from ..render.sheets import load_layout

    spec = SiteSpec(
        tuple(selection.chosen_units(repo)),
        tuple((v, options.variant_params(v)) for v in selection.chosen_variants()),
        site_address(root),
    )
    # the card faces the PDF build made, under the keys it made them with (as in ``build.build``)
    bleed = load_layout(layout_name(options.papers[0], options)).get("bleed", 0) if options.papers else 0
    decks = (out / ".cache" / "cards", bleed)
    data_key = repo.extra.get(DATA_FINGERPRINT) or data_fingerprint(root)  # as the build loaded it
    return build_site(repo, out, spec, data_key, force, options.jobs, prune=selection.is_everything, decks=decks)
