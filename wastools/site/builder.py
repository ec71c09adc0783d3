"""Write the site: every page rendered in memory first, then only the files that changed.

``build/site/`` holds ``index.html`` (every unit, filters, search), ``units.json`` beside it,
``units/<id>.html``, ``variants/<name>.html``, ``scenarios/<id>.html``, ``fleet.html``,
``print.html`` (the fleet's print view), ``cards/<id>.js`` (a unit's cards for the print
view) and ``assets/``. Nothing is written until every page is rendered, so a build that fails
leaves the previous site as it was. A file whose bytes did not change is not written
again (its date stays, so a sync to a web server sends only what changed); a changed file
is written beside its place and moved in whole. A build whose inputs did not change does
not render at all (the key of the last build is kept in ``build/.cache/site-key``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from .. import __version__, template_cache
from ..cache_entry import write_entry
from ..cache_prune import prune_folder
from ..model import Repository
from ..variants import VARIANTS
from . import data
from .assets import SITE_TEMPLATES, static_files
from .cards import card_keys, site_cards
from .data import SiteSpec, safe_id
from .printview import card_script, print_data
from .scenario import scenario_page


@dataclass
class SiteReport:
    pages: int = 0
    files: int = 0
    changed: int = 0  # files written or removed; the others were left alone
    written: bool = False
    skipped_ids: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        bytecode_cache=template_cache.shared(),
        loader=FileSystemLoader(str(SITE_TEMPLATES)),
        undefined=StrictUndefined,
        autoescape=select_autoescape(default=True, default_for_string=True),
        keep_trailing_newline=True,
    )
    env.filters["num"] = lambda v: f"{v:g}" if isinstance(v, float) else v
    return env


def _render(template: str, **values: Any) -> bytes:
    return environment().get_template(template).render(version=__version__, **values).encode("utf-8")


def render_site(
    repo: Repository,
    spec: SiteSpec,
    cache: Path | None = None,
    workers: int = 1,
    prune: bool = False,
    decks: tuple[Path, float] | None = None,
    pages: Path | None = None,
) -> tuple[dict[str, bytes], SiteReport]:
    """Every file of the site by its path inside the site folder; card faces come from the
    build's card cache ``decks`` or from ``cache`` (a folder) where current, the rest are
    made on ``workers`` processes. With ``pages`` (a folder), each unit page is kept there
    under a key of everything it shows and is not rendered again while that is unchanged
    (a one-unit change renders one unit page, not 289). ``prune`` (a site of every unit)
    drops the cached pages and card faces it did not use."""
    report = SiteReport()
    skipped = [u.id for u in spec.units if not safe_id(u.id)]
    units = [u for u in spec.units if safe_id(u.id)]
    scenarios = {k: s for k, s in repo.extra.get("scenarios", {}).items() if safe_id(s.id)}
    skipped += [k for k in repo.extra.get("scenarios", {}) if k not in scenarios]
    spec = SiteSpec(tuple(units), spec.variants, spec.address)
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
    # a unit page is keyed by its cards' keys, which make its faces: only the faces of the
    # pages to render again are read (a one-unit change reads six, not 1,734)
    jobs = data.card_jobs(spec)
    keys = card_keys(repo, jobs)
    kept = _PageCache(pages, [spec_digest(spec), common, [(s.id, s.title) for s in scenarios.values()]])
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
    cards = site_cards(repo, [job for job in jobs if job[0] in todo], cache, workers, False, decks, keys)
    if prune and cache is not None:  # a site of every unit: the faces it shows are these
        prune_folder(cache, keys.values())
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
    if prune and pages is not None:  # a site of every unit: the pages it did not use are stale
        prune_folder(pages, kept.used)
    for variant, params in spec.variants:
        files[f"variants/{variant.name}.html"] = _render(
            "variant.html.j2", root="../", page=data.variant_page(repo, variant, params), **common
        )
    for s in scenarios.values():
        files[f"scenarios/{s.id}.html"] = _render(
            "scenario.html.j2",
            root="../",
            page=scenario_page(s, spec.unit_ids, frozenset(v.name for v, _p in spec.variants)),
            **common,
        )
    report.pages = sum(1 for name in files if name.endswith(".html"))
    files.update({f"assets/{name}": content for name, content in static_files().items()})
    report.files = len(files)
    report.skipped_ids = tuple(skipped)
    return files, report


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
            capped=VARIANTS["tabletop-cm"].title,
            owned_filter=True,
            **common,
        ),
        "print.html": _render(
            "print.html.j2",
            root="",
            fleet_variants=fleet_variants,
            data=print_data(rows, fleet_variants, spec.address),
            **common,
        ),
    }


def _unit_page_inputs(repo: Repository, unit, scenarios: dict[str, Any], faces: list) -> list:
    """Everything ``data.unit_page`` reads besides the code and the variants: the unit and
    its catalogue entries, its cards (by their keys, which make their faces), and the
    scenarios it is in."""
    from ..build import _unit_digest

    scenario_ids = [s.id for s in scenarios.values() if any(u.id == unit.id for u in s.units())]
    return [_unit_digest(repo, unit), faces, scenario_ids]


def spec_digest(spec: SiteSpec) -> list:
    """The chosen variants and their parameters, as keys record them."""
    return [(v.name, sorted((k, str(p)) for k, p in params.items())) for v, params in spec.variants]


class _PageCache:
    """Rendered pages kept in a folder under a key of their inputs, the code (the site's, the
    variants') and the tool's version; ``folder`` None keeps nothing. Only a speed-up: an
    entry that cannot be read or written is rendered again."""

    def __init__(self, folder: Path | None, shared: list):
        from ..build import code_fingerprint

        self.folder = folder
        self.used: set[str] = set()  # the keys looked up: what a site of every unit keeps
        self._base = json.dumps([__version__, code_fingerprint(), site_fingerprint(), shared], default=str)

    def key(self, inputs: list) -> str:
        return hashlib.sha256((self._base + json.dumps(inputs, default=str)).encode()).hexdigest()

    def get(self, key: str, suffix: str = ".html") -> bytes | None:
        self.used.add(key)
        if self.folder is None:
            return None
        try:
            return (self.folder / f"{key}{suffix}").read_bytes()
        except OSError:
            return None

    def put(self, key: str, page: bytes, suffix: str = ".html") -> None:
        if self.folder is not None:
            write_entry(self.folder / f"{key}{suffix}", page)


def site_fingerprint() -> str:
    """The site's own code and templates (left out of the decks' code fingerprint, so that
    editing the site never makes the PDFs again)."""
    from ..fingerprints import hash_files as _hash_files
    from ..resources import PACKAGE

    files = [*(PACKAGE / "site").rglob("*.py"), *(p for p in SITE_TEMPLATES.rglob("*") if p.is_file())]
    return _hash_files(files, PACKAGE)


def site_key(repo_fingerprint: str, spec: SiteSpec) -> str:
    from ..build import code_fingerprint

    parts = [
        code_fingerprint(),
        site_fingerprint(),
        repo_fingerprint,
        [u.id for u in spec.units],
        spec_digest(spec),
        spec.address,
    ]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def write_site(files: dict[str, bytes], target: Path) -> int:
    """Make ``target`` hold exactly ``files``: a file is written only when its bytes differ
    (into a folder beside ``target``, then moved into place whole), files the site no longer
    has are removed. Returns how many files were written or removed."""
    from ..atomic import _alive

    target.parent.mkdir(parents=True, exist_ok=True)
    for leftover in target.parent.glob(".site-*"):  # of a build that was killed while writing the site
        if not _alive(leftover.name.split("-")[1]):
            shutil.rmtree(leftover, ignore_errors=True)
    target.mkdir(exist_ok=True)
    target.chmod(0o755)
    changed = 0
    staging = Path(tempfile.mkdtemp(prefix=f".site-{os.getpid()}-", dir=target.parent))
    try:
        for name, content in files.items():
            path = target / name
            if _same(path, content):
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            fresh = staging / name.replace("/", "_")
            fresh.write_bytes(content)
            fresh.chmod(0o644)
            os.replace(fresh, path)
            changed += 1
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for path in sorted(target.rglob("*"), reverse=True):  # files before the folders that hold them
        rel = path.relative_to(target).as_posix()
        if path.is_dir() and not path.is_symlink():
            if not any(path.iterdir()):
                path.rmdir()
        elif rel not in files:
            path.unlink()
            changed += 1
    return changed


def _same(path: Path, content: bytes) -> bool:
    try:
        return (
            path.is_file()
            and not path.is_symlink()
            and path.stat().st_size == len(content)
            and path.read_bytes() == content
        )
    except OSError:
        return False


def build_site(
    repo: Repository,
    out: Path,
    spec: SiteSpec,
    repo_fingerprint: str = "",
    force: bool = False,
    workers: int = 1,
    prune: bool = False,
    decks: tuple[Path, float] | None = None,
) -> SiteReport:
    """Render ``out/site`` and write what changed; a no-op when nothing it depends on
    changed. ``decks`` is the build's card cache and the bleed of its keys, whose card faces
    are reused."""
    target = out / "site"
    key_file = out / ".cache" / "site-key"
    key = site_key(repo_fingerprint, spec)
    if (
        not force
        and repo_fingerprint
        and target.is_dir()
        and key_file.is_file()
        and key_file.read_text().strip() == key
    ):
        return SiteReport()
    files, report = render_site(
        repo, spec, out / ".cache" / "site-cards", workers, prune, decks, pages=out / ".cache" / "site-pages"
    )
    report.changed = write_site(files, target)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(key + "\n")
    report.written = True
    return report
