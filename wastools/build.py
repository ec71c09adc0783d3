"""`wastools build`: plan every output, render only what changed, write atomically.

1. Validate the whole repository first; nothing is written if the data is invalid.
2. Plan: one card deck per variant and paper (``build/<variant>/cards.pdf``, ``cards-a4.pdf``).
3. Each card's HTML is hashed with the templates and tool version; cards whose hash is
   in the cache (``build/.cache/cards``) are never laid out again. The rest are laid out
   by WeasyPrint in batches, on every core.
4. Each PDF is written to a temporary file outside ``build/`` and moved into place, so a
   failed or killed build never leaves a half-written output; ``build/manifest.json``
   lists each output with its sha256 and page count.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from . import __version__
from .model import Repository, Unit
from .render import cards as card_render
from .render import sheets
from .variants import VARIANTS, Variant

BATCH = 24  # cards per WeasyPrint document: amortises style and font set-up


@dataclass(frozen=True)
class Selection:
    variants: tuple[str, ...] = ()
    nations: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    units: tuple[str, ...] = ()

    def chosen_variants(self) -> list[Variant]:
        return [VARIANTS[v] for v in (self.variants or tuple(VARIANTS))]

    def chosen_units(self, repo: Repository) -> list[Unit]:
        def keep(u: Unit) -> bool:
            return ((not self.nations or u.nation in self.nations) and (not self.sets or u.set in self.sets)
                    and (not self.types or u.type in self.types) and (not self.units or u.id in self.units))

        return [u for u in repo.units.values() if keep(u)]


@dataclass
class BuildReport:
    outputs: dict[str, dict] = field(default_factory=dict)
    cards_total: int = 0
    cards_rendered: int = 0
    decks_written: int = 0
    decks_unchanged: int = 0


@dataclass(frozen=True)
class CardJob:
    key: str
    html: str


def card_key(html: str) -> str:
    digest = hashlib.sha256()
    for part in (__version__, card_render.template_fingerprint(), html):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _render_batch(jobs: list[CardJob]) -> list[tuple[str, bytes]]:
    """Worker: lay out a batch of cards; returns (key, single-page PDF) pairs."""
    html = card_render.render_deck_html([card_render.Markup(j.html) for j in jobs], "cards")
    pages = card_render.html_to_pages(html)
    if len(pages) != len(jobs):
        raise RuntimeError(f"expected {len(jobs)} card pages, got {len(pages)}: a card overflowed its page")
    return [(job.key, page) for job, page in zip(jobs, pages)]


class AtomicWriter:
    """Temporary files live in ``<root>/.build-tmp`` (same file system as build/, outside it)
    and are moved into place whole."""

    def __init__(self, root: Path):
        self.tmp = root / ".build-tmp"
        shutil.rmtree(self.tmp, ignore_errors=True)  # leftovers of a killed build
        self.tmp.mkdir(parents=True, exist_ok=True)

    def write(self, target: Path, data: bytes) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=self.tmp, prefix=target.name + ".")
        try:
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide outputs from other users
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(name, target)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise

    def close(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def deck_path(out: Path, variant: str, paper: str) -> Path:
    return out / variant / ("cards.pdf" if paper == "letter" else f"cards-{paper}.pdf")


def build(
    repo: Repository,
    root: Path,
    out: Path,
    selection: Selection = Selection(),
    papers: Iterable[str] = ("letter", "a4"),
    profile: sheets.PrinterProfile = sheets.PrinterProfile(),
    jobs: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> BuildReport:
    report = BuildReport()
    cache = out / ".cache" / "cards"
    writer = AtomicWriter(root)
    try:
        decks = _plan_decks(repo, selection)
        report.cards_total = sum(len(keys) for keys, _title in decks.values())
        wanted = {key: html for keys, _t in decks.values() for key, html in keys}
        missing = [CardJob(k, h) for k, h in wanted.items() if not (cache / f"{k}.pdf").exists()]
        report.cards_rendered = len(missing)
        _render_missing(missing, cache, writer, jobs, progress)
        manifest_path = out / "manifest.json"
        previous = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"outputs": {}}
        layouts = {paper: sheets.load_layout(paper) for paper in papers}
        tasks = []
        for variant, (keys, title) in decks.items():
            for paper, layout in layouts.items():
                target = deck_path(out, variant, paper)
                rel = target.relative_to(out).as_posix()
                inputs = hashlib.sha256(json.dumps([[k for k, _h in keys], layout, profile.__dict__, title]).encode()).hexdigest()
                old = previous["outputs"].get(rel)
                if old and old.get("inputs") == inputs and target.exists() and _sha256(target.read_bytes()) == old["sha256"]:
                    report.outputs[rel] = old
                    report.decks_unchanged += 1
                else:
                    paths = [str(cache / f"{k}.pdf") for k, _h in keys]
                    tasks.append((rel, inputs, (paths, layout, f"{title} ({paper})", profile)))
        for (rel, inputs, _args), (pdf, pages) in zip(tasks, _map(_impose_task, [t[2] for t in tasks], jobs)):
            writer.write(out / rel, pdf)
            report.outputs[rel] = {"sha256": _sha256(pdf), "pages": pages, "bytes": len(pdf), "inputs": inputs}
            report.decks_written += 1
        manifest = {"tool": f"wastools {__version__}", "outputs": dict(sorted(report.outputs.items()))}
        writer.write(manifest_path, (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode())
    finally:
        writer.close()
    return report


def _plan_decks(repo: Repository, selection: Selection) -> dict[str, tuple[list[tuple[str, str]], str]]:
    decks = {}
    units = selection.chosen_units(repo)
    for variant in selection.chosen_variants():
        params = variant.defaults()
        keys = []
        for unit in units:
            html = str(card_render.render_card_html(card_render.card_view(variant.adapt(unit, params), variant, repo)))
            keys.append((card_key(html), html))
        if variant.name == "large-map" and not (selection.nations or selection.sets or selection.types or selection.units):
            for block in card_render.large_map_stat_blocks():
                html = str(card_render.render_card_html(card_render.statblock_view(block, variant)))
                keys.append((card_key(html), html))
        decks[variant.name] = (keys, f"{variant.title} cards")
    return decks


def _render_missing(missing: list[CardJob], cache: Path, writer: AtomicWriter, jobs: int, progress) -> None:
    if not missing:
        return
    batches = [missing[i:i + BATCH] for i in range(0, len(missing), BATCH)]
    done = 0
    if jobs <= 1 or len(batches) == 1:
        results = map(_render_batch, batches)
        for result in results:
            done = _store(result, cache, writer, done, len(missing), progress)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(_render_batch, batches):
            done = _store(result, cache, writer, done, len(missing), progress)


def _store(result, cache: Path, writer: AtomicWriter, done: int, total: int, progress) -> int:
    for key, pdf in result:
        writer.write(cache / f"{key}.pdf", pdf)
    done += len(result)
    if progress:
        progress(done, total)
    return done


def _impose_task(args) -> tuple[bytes, int]:
    paths, layout, title, profile = args
    return sheets.impose([Path(p).read_bytes() for p in paths], layout, title, profile)


def _map(fn, items: list, jobs: int):
    """fn over items, on ``jobs`` processes when there is more than one item."""
    if jobs <= 1 or len(items) <= 1:
        return list(map(fn, items))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(fn, items))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
