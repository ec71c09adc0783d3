"""Write the site: every page rendered in memory first, then only the files that changed.

``build/site/`` holds ``index.html`` (every unit, filters, search), ``units.json`` beside it,
``units/<id>.html``, ``variants/<name>.html``, ``scenarios/<id>.html``, ``fleet.html``,
``print.html`` (the fleet's print view), ``cards/<id>.js`` (a unit's cards for the print
view), ``tts/<deck>/`` (the images of the fleet builder's Tabletop Simulator download, for
every deck) and ``assets/``. Nothing is written until every page is rendered, so a build that fails
leaves the previous site as it was. A file whose bytes did not change is not written
again (its date stays, so a sync to a web server sends only what changed); a changed file
is written beside its place and moved in whole. A build whose inputs did not change does
not render at all (the site is one target of the build, keyed by everything it shows).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from jinja2 import Environment

from .. import __version__
from ..core import templating
from ..core.model import Repository
from ..core.store import Store
from ..variants import capped_titles
from . import data
from .assets import SITE_TEMPLATES, static_files
from .cards import card_keys, site_cards
from .data import SiteSpec, safe_id
from .odds import odds_script
from .printview import card_script, print_data
from .scenario import map_plan, scenario_page
from .tabletop import tabletop_decks, tabletop_images


@dataclass
class SiteReport:
    pages: int = 0
    files: int = 0
    changed: int = 0  # files written or removed; the others were left alone
    written: bool = False
    skipped_ids: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = templating.environment(SITE_TEMPLATES, keep_trailing_newline=True)
    env.filters["num"] = lambda v: f"{v:g}" if isinstance(v, float) else v
    return env


def _render(template: str, **values: Any) -> bytes:
    return environment().get_template(template).render(version=__version__, **values).encode("utf-8")


def render_site(
    repo: Repository, spec: SiteSpec, store: Store | None = None, bleed: float = 0.0
) -> tuple[dict[str, bytes], SiteReport]:
    """Every file of the site by its path inside the site folder. Card faces come from the
    store, where the build keeps them under its decks' keys (whose cards have ``bleed``),
    or are made here; each unit page is kept in the store under a key of everything it
    shows and is not rendered again while that is unchanged (a one-unit change renders one
    unit page, not 289)."""
    report = SiteReport()
    skipped = [u.id for u in spec.units if not safe_id(u.id)]
    units = [u for u in spec.units if safe_id(u.id)]
    scenarios = {k: s for k, s in repo.scenarios.items() if safe_id(s.id)}
    skipped += [k for k in repo.scenarios if k not in scenarios]
    spec = SiteSpec(tuple(units), spec.variants, spec.address, spec.pdfs)
    rows = [data.index_entry(repo, u) for u in units]
    variants = [
        {"name": v.name, "title": v.title, "seed": v.seed, "description": v.description} for v, _p in spec.variants
    ]
    scenario_list = [{"id": s.id, "title": s.title, "variant": s.variant} for s in scenarios.values()]
    files: dict[str, bytes] = {}
    common = {"variants": variants, "scenarios": scenario_list}
    files["index.html"] = _render("index.html.j2", root="", rows=rows, choices=data.filter_choices(rows), **common)
    files["units.json"] = (
        json.dumps({"tool": f"wastools {__version__}", "units": rows}, indent=1, ensure_ascii=False) + "\n"
    ).encode("utf-8")
    files.update(_fleet_pages(rows, spec, common))
    files["assets/odds-data.js"] = odds_script(repo, spec)  # the odds' numbers, for unit pages and the builder
    # a unit page is keyed by its cards' keys, which make its faces: only the faces of the
    # pages to render again are read (a one-unit change reads six, not 1,734)
    jobs = data.card_jobs(spec)
    keys = card_keys(repo, jobs, bleed)
    shared = [spec_digest(spec), common, [(s.id, s.title) for s in scenarios.values()], sorted(spec.pdfs)]
    kept = _PageCache(store, shared)
    faces: dict[str, list] = {}
    for (unit_id, name), card in sorted(keys.items()):
        faces.setdefault(unit_id, []).append((name, card))
    found: dict[str, bytes] = {}
    page_keys = {}
    found_scripts: dict[str, bytes] = {}
    for unit in units:
        page_keys[unit.id] = key = kept.key(_unit_page_inputs(repo, unit, scenarios, faces.get(unit.id, [])))
        page, script = kept.get(key), kept.get(key, ".js")
        if page is not None and script is not None:
            found[unit.id], found_scripts[unit.id] = page, script
    todo = {unit.id for unit in units if unit.id not in found}
    cards = site_cards(repo, [job for job in jobs if job[0] in todo], store, bleed, keys)
    for unit in units:
        page = found.get(unit.id)
        if page is None:
            page = _render(
                "unit.html.j2", root="../", page=data.unit_page(repo, unit, spec, scenarios, cards), **common
            )
            kept.put(page_keys[unit.id], page)
        script = found_scripts.get(unit.id)
        if script is None:  # the print view's cards of this unit: the same faces as its page
            script = card_script(unit.id, {v.name: str(cards[unit.id, v.name]) for v, _p in spec.variants})
            kept.put(page_keys[unit.id], script, ".js")
        files[f"units/{unit.id}.html"] = page
        files[f"cards/{unit.id}.js"] = script
    for variant, params in spec.variants:
        files[f"variants/{variant.name}.html"] = _render(
            "variant.html.j2", root="../", page=data.variant_page(repo, variant, params, spec), **common
        )
    for s in scenarios.values():
        on_site = frozenset(v.name for v, _p in spec.variants)
        shown = scenario_page(s, spec.unit_ids, on_site, _map_plan(kept, s), spec.pdfs)
        files[f"scenarios/{s.id}.html"] = _render("scenario.html.j2", root="../", page=shown, **common)
    report.pages = sum(1 for name in files if name.endswith(".html"))
    files.update(tabletop_images(repo, spec, store))
    files.update({f"assets/{name}": content for name, content in static_files().items()})
    report.files = len(files)
    report.skipped_ids = tuple(skipped)
    return files, report


def _map_plan(kept: _PageCache, s) -> dict[str, Any]:
    """A scenario's map plan (placing its words is most of a scenario page's work), kept under
    what it is drawn from: the scenario file alone, so a unit's edit finds it kept. Read
    back from JSON whether kept or made now, so both give the same page."""
    plan_key = kept.key(["map plan", s.id, s.variant, s.parameters, s.map_unit, s.data])
    plan = kept.get(plan_key, ".json")
    if plan is None:
        plan = json.dumps(map_plan(s)).encode()
        kept.put(plan_key, plan, ".json")
    return json.loads(plan)


def _fleet_pages(rows: list[dict[str, Any]], spec: SiteSpec, common: dict[str, Any]) -> dict[str, bytes]:
    """The fleet builder and its print view."""
    fleet_variants = data.fleet_variants(spec)
    return {
        "fleet.html": _render(
            "fleet.html.j2",
            root="",
            rows=rows,
            choices=data.filter_choices(rows),
            fleet_variants=fleet_variants,
            capped=capped_titles(),
            owned_filter=True,
            tabletop=bool(tabletop_decks(spec)),
            address=spec.address,
            **common,
        ),
        "print.html": _render(
            "print.html.j2",
            root="",
            fleet_variants=fleet_variants,
            data=print_data(rows, fleet_variants, spec.address, _card_backs(spec)),
            **common,
        ),
    }


def _card_backs(spec: SiteSpec) -> dict[str, str]:
    """Each deck's card back, the decks' own (``render_back_html``), for the print view's duplex backs."""
    from ..render.cards import render_back_html

    return {v.name: str(render_back_html(v)) for v, _p in spec.variants}


def _unit_page_inputs(repo: Repository, unit, scenarios: dict[str, Any], faces: list) -> list:
    """Everything ``data.unit_page`` reads besides the code and the variants: the unit and
    its catalogue entries, its cards (by their keys, which make their faces), and the
    scenarios it is in."""
    from ..pipeline.cards import unit_digest

    scenario_ids = [s.id for s in scenarios.values() if any(u.id == unit.id for u in s.units())]
    return [unit_digest(repo, unit), faces, scenario_ids]


def spec_digest(spec: SiteSpec) -> list:
    """The chosen variants and their parameters, as keys record them."""
    return [(v.name, sorted((k, str(p)) for k, p in params.items())) for v, params in spec.variants]


class _PageCache:
    """Rendered pages kept in the store under a key of their inputs, the code (the site's,
    the variants') and the tool's version; no store keeps nothing."""

    def __init__(self, store: Store | None, shared: list):
        from ..core.fingerprints import code_fingerprint

        self.store = store
        self._base = json.dumps([__version__, code_fingerprint(), site_fingerprint(), shared], default=str)

    def key(self, inputs: list) -> str:
        return hashlib.sha256((self._base + json.dumps(inputs, default=str)).encode()).hexdigest()

    KINDS = {".html": "site-page", ".js": "site-script", ".json": "site-data"}

    def get(self, key: str, suffix: str = ".html") -> bytes | None:
        return self.store.get(self.KINDS[suffix], key) if self.store is not None else None

    def put(self, key: str, page: bytes, suffix: str = ".html") -> None:
        if self.store is not None:
            self.store.put(self.KINDS[suffix], key, page)


def site_fingerprint() -> str:
    """The site's own code and templates (left out of the decks' code fingerprint, so that
    editing the site never makes the PDFs again)."""
    from ..core.fingerprints import hash_files as _hash_files
    from ..core.resources import PACKAGE

    files = [*(PACKAGE / "site").rglob("*.py"), *(p for p in SITE_TEMPLATES.rglob("*") if p.is_file())]
    return _hash_files(files, PACKAGE)


def site_key(repo_fingerprint: str, spec: SiteSpec) -> str:
    from ..core.fingerprints import code_fingerprint

    parts = [
        code_fingerprint(),
        site_fingerprint(),
        repo_fingerprint,
        [u.id for u in spec.units],
        spec_digest(spec),
        spec.address,
    ]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def site_files(
    store: Store, repo: Repository, spec: SiteSpec, bleed: float, pdfs: tuple[str, ...] = ()
) -> tuple[dict[str, bytes], SiteReport]:
    """Worker: the site's files (the build writes them into ``site/``); ``pdfs``: the build's
    PDFs the site carries (the build copies them in), which its pages link to."""
    return render_site(repo, replace(spec, pdfs=frozenset(pdfs)), store, bleed)
