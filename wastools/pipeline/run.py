"""``build``: plan every output, make the stale ones on the pool, write each whole.

    load (validated model, from the store)  ->  plan cards  ->  make missing faces (pool)
    ->  plan outputs (decks, packs, aids, sheets, site)  ->  stale targets -> pool
    ->  atomic write into the locked output folder  ->  manifest and record

Nothing is written to the output folder until the whole model is valid and planned; each
file is moved into place whole, so a failed or killed build leaves every file as it was or
new. ``build/manifest.json`` lists every output with its sha256 and page count.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import WastoolsError
from ..core.fingerprints import source_date
from ..core.model import Repository
from ..core.store import Store
from . import cards as faces
from . import makers
from .output import OutputFolder
from .plan import (
    Decks,
    Faces,
    Target,
    carrying,
    deck_targets,
    duplicate_paths,
    pack_targets,
    plan_cards,
    plan_outputs,
)
from .pool import Pool
from .record import Record
from .selection import Options, Selection

Progress = Callable[[int, int], None]
DATED = "source_date_epoch"  # in the manifest, when the outputs carry that date (see source_date)


class PlanError(WastoolsError):
    """The plan cannot be made as asked (two outputs on one path)."""


@dataclass
class BuildReport:
    outputs: dict[str, dict] = field(default_factory=dict)
    cards_total: int = 0
    cards_rendered: int = 0
    card_layouts: int = 0  # WeasyPrint documents made for cards
    written: int = 0
    unchanged: int = 0
    files: list[str] = field(default_factory=list)  # written by this build, in order
    card_text: dict[str, faces.CardText] = field(default_factory=dict)  # per variant deck
    site: Any = None  # the site's report, when the build made the site
    pruned: int = 0  # store entries dropped (least recently used, over the cap)
    clock: float = 0.0
    milestones: dict[str, float] = field(default_factory=dict)  # seconds from the start to each
    stages: dict[str, float] = field(default_factory=dict)  # seconds of work per stage, summed over workers

    def timed(self, stage: str, seconds: float) -> None:
        self.stages[stage] = round(self.stages.get(stage, 0.0) + seconds, 3)

    def reached(self, milestone: str) -> None:
        self.milestones[milestone] = round(time.perf_counter() - self.clock, 3)

    def to_json(self) -> dict:
        return {
            "stages": self.stages,
            "cards_laid_out": self.cards_rendered,
            "card_layouts": self.card_layouts,
            "store_entries_pruned": self.pruned,
            "milestones": dict(sorted(self.milestones.items(), key=lambda item: item[1])),
            "written": self.written,
            "unchanged": self.unchanged,
        }


class _Tracker:
    """One count over all the work of a build: cards laid out, then files made."""

    def __init__(self, progress: Progress | None):
        self.progress, self.done, self.total = progress, 0, 0

    def add(self, n: int) -> None:
        self.total += n
        self.tick(0)

    def tick(self, n: int = 1) -> None:
        self.done += n
        if self.progress:
            self.progress(self.done, self.total)


@dataclass
class Run:
    """What one build works with: where it writes, what it keeps, and its report."""

    repo: Repository
    folder: OutputFolder
    store: Store
    pool: Pool
    record: Record
    report: BuildReport
    tracker: _Tracker


def build(
    repo: Repository,
    root: Path,
    out: Path,
    selection: Selection = Selection(),  # noqa: B008 (frozen: one shared default is safe)
    options: Options = Options(),  # noqa: B008
    *,
    progress: Progress | None = None,
    store: Store | None = None,
    site: Target | None = None,
    stamp: str = "",
    started: float | None = None,
    waiting: Callable[[str], None] | None = None,
    pdfs: bool = True,
    whole: bool = False,
    pool: Pool | None = None,
) -> BuildReport:
    """Make every stale output of ``selection`` of the repository at ``root`` into ``out``,
    keeping what it makes in ``store`` (by default the repository's). ``site``: the site's target,
    when this build makes it (``pdfs`` False: only the site); ``stamp``: what the record
    keeps to tell a later build with the same inputs that nothing changed; ``whole``: the
    build makes everything the settings ask for, so an output it made before and no longer
    plans (a removed scenario's pack) is removed. ``pool``: the caller's, started before the
    data was loaded; else one is made here."""
    store = store or Store.for_repository(root)
    report = BuildReport(clock=started if started is not None else time.perf_counter())
    decks = plan_cards(repo, selection, options, store) if pdfs else Decks()
    workers = pool if pool is not None else Pool(options.jobs)
    with OutputFolder(out, waiting) as folder, nullcontext() if pool is not None else workers:
        if pool is None:
            workers.warm()  # the workers read what jobs need while this process plans
        run = Run(repo, folder, store, workers, Record.read(store, out), report, _Tracker(progress))
        specs, early = _stale_cards(run, decks, selection, options) if pdfs else ([], [])
        card_jobs = _submit_faces(run, specs)
        part_jobs = _submit_parts(run, early)  # the other worker, meanwhile
        _wait_for_faces(run, card_jobs)
        report.card_text = {name: faces.deck_text(store, specs) for name, specs in decks.variants.items()}
        # the site first: the longest job (every page, an image a card), so the other worker
        # makes the decks, packs and aids meanwhile instead of waiting for it at the end
        planned = plan_outputs(repo, selection, options, decks, report.card_text) if pdfs else []
        if site is not None:  # it carries what this build makes, and (unless whole) what earlier ones left
            kept = set() if whole else run.record.as_written(folder)
            site = carrying(site, {t.path for t in planned} | kept)
        targets = ([site] if site else []) + planned
        if twice := duplicate_paths(targets):
            raise PlanError("two outputs would be written to " + ", ".join(twice))
        stale = [t for t in targets if not _current(run, t)]
        # queued behind the parts, so planned while they are made; an output that reads a part
        # (a pack, its briefing) finds it in the store, or makes it itself if it gets there first
        done_early = {t.path for t in early}
        part_jobs += _submit_parts(run, [t for t in stale if t.path not in done_early])  # the aids' layouts
        output_jobs = _submit(run, stale)
        for job in part_jobs:
            run.report.timed("output parts", job.result()[1])
        _write_outputs(run, stale, output_jobs)
        if whole:
            _remove_unplanned(run, targets)
        _carry_outputs(run)
        run.record.stamp = stamp
        _finish(run, targets)
    return report


def _remove_unplanned(run: Run, targets: list[Target]) -> None:
    """Outputs an earlier whole build made that this one no longer plans (a scenario removed
    or made invalid): removed, so nobody prints an old version. A subset's deck and a
    roster's are kept: no whole build plans them."""
    planned = {t.path for t in targets} | {"manifest.json"}
    for rel, entry in list(run.record.outputs.items()):
        if rel in planned or entry.get("selection") or rel.startswith("rosters/") or "files" in entry:
            continue
        if list(run.folder.state(rel) or ()) == entry.get("state"):  # as written: ours to remove
            run.folder.delete(rel)
        del run.record.outputs[rel]


def _stale_cards(
    run: Run, decks: Decks, selection: Selection, options: Options
) -> tuple[list[faces.CardSpec], list[Target]]:
    """The faces to make: every card of a deck or pack whose output is stale, or whose text
    the player aid needs and the store does not hold; and those stale outputs (whose parts,
    which need no face, are made meanwhile)."""
    run.report.cards_total = sum(len(specs) for specs in decks.variants.values())
    provisional = deck_targets(selection, options, decks) + pack_targets(run.repo, selection, options, decks)
    stale = [t for t in provisional if t.cards and not _current(run, t)]
    stale_keys = {k for t in stale for group in t.cards for k in _faces_to_check(run.store, group)}
    wanted = [s for s in decks.every_card() if s.key in stale_keys]
    wanted += [s for specs in decks.variants.values() for s in specs if not run.store.has(faces.META, s.key)]
    return faces.missing_faces(run.store, wanted), stale


def _submit_parts(run: Run, targets: list[Target]) -> list[Future]:
    """The parts of ``targets`` (a pack's briefing, an aid's layout) queued on the pool."""
    return [run.pool.submit(fn, run.store, *args) for t in targets for fn, args in t.parts]


def _faces_to_check(store: Store, faces: Faces) -> tuple[str, ...]:
    """The faces a stale output will read: none of a deck's sheet that the store holds (read
    whole now, so that a damaged sheet counts as missing and its faces are checked too). A
    one-unit edit then checks the faces of a few sheets, not those of every deck."""
    if faces.sheet and store.get(makers.SHEET, faces.sheet) is not None:
        return ()
    return faces.keys


def submit_faces(store: Store, pool: Pool, specs: list[faces.CardSpec]) -> list[tuple[int, Future]]:
    """The missing faces queued on the pool, their views sized here meanwhile: each batch's
    card count and future (its WeasyPrint documents and seconds)."""
    return [
        (len(batch), pool.submit(faces.lay_out_batch, store, batch, bleed))
        for batch, bleed in faces.batches(specs, pool.jobs)
    ]


def make_faces(store: Store, pool: Pool, specs: list[faces.CardSpec]) -> Iterator[tuple[int, int, float]]:
    """Lay out the missing faces; yields each batch's cards, documents and seconds when done."""
    for count, future in submit_faces(store, pool, specs):
        documents, seconds = future.result()
        yield count, documents, seconds


def _submit_faces(run: Run, specs: list[faces.CardSpec]) -> list[tuple[int, Future]]:
    run.report.cards_rendered = len(specs)
    run.tracker.add(len(specs))
    return submit_faces(run.store, run.pool, specs)


def _wait_for_faces(run: Run, jobs: list[tuple[int, Future]]) -> None:
    started = time.perf_counter()
    for count, future in jobs:
        documents, seconds = future.result()
        run.report.card_layouts += documents
        run.report.timed("card layout", seconds)
        run.tracker.tick(count)
    if jobs:
        run.report.timed("card layout (wall)", time.perf_counter() - started)
    run.report.reached("card faces made")


def _current(run: Run, target: Target) -> bool:
    return run.record.current(run.folder, target.path, target.key)


def _submit(run: Run, stale: list[Target]) -> list[Future]:
    """Stale outputs queued on the pool, the store holding their faces."""
    run.tracker.add(len(stale))
    return [run.pool.submit(t.make, *_arguments(run, t)) for t in stale]


def _write_outputs(run: Run, stale: list[Target], futures: list[Future]) -> None:
    """Each output written whole as its worker hands it over."""
    started = time.perf_counter()
    for target, future in zip(stale, futures, strict=True):
        result, seconds = future.result()
        run.report.timed(target.stage, seconds)
        if isinstance(result[0], dict):
            result[1].changed = _write_folder(run, target, result[0])
            result[1].written = True
            run.report.site = result[1]
        else:
            _write_file(run, target, *result)
        run.tracker.tick()
    if stale:
        run.report.timed("outputs (wall)", time.perf_counter() - started)
    run.report.reached("every output written")


def _arguments(run: Run, target: Target) -> tuple:
    """A target's arguments, with the store first for those that read faces or keep parts."""
    return (run.store, *target.args) if target.reads_store else target.args


def _write_file(run: Run, target: Target, pdf: bytes, pages: int) -> None:
    run.folder.write(target.path, pdf)
    entry = {"sha256": hashlib.sha256(pdf).hexdigest(), "pages": pages, "bytes": len(pdf), "key": target.key}
    entry.update(target.note)
    run.report.outputs[target.path] = entry
    run.record.outputs[target.path] = {**entry, "state": list(run.folder.state(target.path) or ())}
    run.report.written += 1
    run.report.files.append(target.path)


def _write_folder(run: Run, target: Target, files: dict[str, bytes]) -> int:
    """A folder output (the site): a file is written only when its bytes changed (a sync to a
    web server then sends only those), and files it no longer has are removed. Returns how
    many files were written or removed."""
    changed = 0
    carried = {inside for inside, _rel in target.carries}  # brought up to date by ``_carry_outputs``
    for name in run.folder.files_under(target.path):
        if name not in files and name not in carried:
            run.folder.delete(f"{target.path}/{name}")
            changed += 1
    states = {}
    for name, content in sorted(files.items()):
        rel = f"{target.path}/{name}"
        if not _same(run.folder.path(rel), content):
            run.folder.write(rel, content)
            changed += 1
        states[name] = list(run.folder.state(rel) or ())
    run.record.outputs[target.path] = {"key": target.key, "files": states, "carries": [list(c) for c in target.carries]}
    return changed


def _carry_outputs(run: Run) -> None:
    """Each folder output's copies of other outputs (the site's PDFs) made to match them: a
    hard link where the file system allows (no second copy on disk), else a copy; a copy
    whose output is gone is removed. Every build does it, since any build may remake an
    output a folder carries (a narrowed one, its rulers)."""
    for rel, entry in run.record.outputs.items():
        carries, files = entry.get("carries"), entry.get("files")
        if not isinstance(carries, list) or not isinstance(files, dict):
            continue
        for pair in carries:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
                continue
            inside, source = pair
            copy = f"{rel}/{inside}"
            if run.folder.state(source) is None:
                if run.folder.state(copy) is not None:
                    run.folder.delete(copy)
                files.pop(inside, None)
                continue
            if not run.folder.same_file(source, copy):
                run.folder.link(source, copy)
            files[inside] = list(run.folder.state(copy) or ())


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


def _finish(run: Run, targets: list[Target]) -> None:
    """The manifest, the record and the report; the store trimmed to its cap."""
    for target in targets:
        if target.path not in run.report.outputs and target.path in run.record.outputs:
            if "files" not in run.record.outputs[target.path]:
                run.report.outputs[target.path] = _manifest_entry(run.record.outputs[target.path])
                run.report.unchanged += 1
    listed = {
        rel: _manifest_entry(entry)
        for rel, entry in run.record.outputs.items()
        if "sha256" in entry and run.folder.state(rel) is not None
    }
    manifest: dict[str, Any] = {"tool": f"wastools {__version__}", "outputs": dict(sorted(listed.items()))}
    if source_date() is not None:
        manifest[DATED] = source_date()
    text = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    if not _same(run.folder.path("manifest.json"), text):
        run.folder.write("manifest.json", text)
    run.record.outputs["manifest.json"] = {"key": "", "state": list(run.folder.state("manifest.json") or ())}
    run.record.write(run.store, run.folder.out)
    if run.report.written or run.report.cards_rendered:
        run.report.pruned = run.store.prune_now_and_then()


def _manifest_entry(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k != "state"}
