"""`wastools build`: plan every output, make only what changed, write atomically.

1. The data is validated whole before anything is written (a validated model is cached
   by the hash of every data file and of the tool's own code).
2. Every output has a key: a hash of everything that affects it (data, code, templates,
   layouts, parameters, printer profile). An output whose key and bytes match the
   manifest is left alone, so a no-op rebuild does almost nothing.
3. Card faces are cached one by one (``build/.cache/cards``) by a hash of their HTML and
   the code; only new cards are laid out, by WeasyPrint, in batches on every core.
4. Each file is written to a temporary file outside ``build/`` and moved into place:
   a failed or killed build never leaves a half-written output. ``build/manifest.json``
   lists every output with its sha256 and page count.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__, signed_pickle, workers
from .atomic import AtomicWriter
from .cache_entry import write_entry
from .cache_prune import entry_stem, record_and_prune
from .fingerprints import DataState, changed_files, code_fingerprint, data_state, source_date
from .fingerprints import key as _key
from .model import Repository, Unit
from .render import card_fit, pdf_parts, sheets
from .render import cards as card_render
from .variants import VARIANTS, Variant
from .workers import WorkerPool

if TYPE_CHECKING:  # the validator is the main process's: the workers never import it
    from . import repository

# a worker function and its arguments; it returns the output, its pages, and optionally
# what else the manifest should say of the output (a dict)
Job = tuple[Callable[..., tuple[Any, ...]], tuple]
BATCH = 24  # cards per WeasyPrint document: amortises style and font set-up
Progress = Callable[[int, int], None]


DATA_FINGERPRINT = "data_fingerprint"  # in Repository.extra: the data the model was loaded from
DATED = "source_date_epoch"  # in the manifest, when the outputs carry that date (see source_date)


# --- the validated model, cached -------------------------------------------------------------


def load_repository(
    root: Path,
    out: Path,
    limits=None,
    on_change: Callable[[], None] | None = None,
    data: DataState | None = None,
) -> tuple[Repository | None, repository.Validation | None]:
    """The validated model, from the cache when neither the data nor the code changed;
    ``on_change`` is called first when they did (the build starts its workers then). After
    a change to a few unit files, the last model is checked again where they can change it
    (``repository.incremental``) instead of every file being read again. ``data``: the
    data's state, when the caller has just read it (the build's stamp has)."""
    from . import repository
    from .yamlio import DEFAULT_LIMITS

    limits = limits or DEFAULT_LIMITS
    data = data or data_state(root)
    data_key = data.fingerprint
    code, kept_limits = code_fingerprint(), asdict(limits)
    key = _key(code, data_key, kept_limits)
    cached = out / ".cache" / f"repository-{key[:32]}.pickle"
    if cached.exists():
        stored = _stored_model(cached)
        if stored is not None:
            return stored["model"], None
        cached.unlink(missing_ok=True)
    if on_change is not None:
        on_change()
    digests = data.digests
    model = _revalidated(root, out, digests, code, kept_limits, limits)
    result = None
    if model is None:
        result = repository.validate(root, limits=limits, cache=out / ".cache" / "validate")
        if result.repository is None:
            return result.usable, result  # None, or the model without the scenarios that have errors
        model = result.repository
    model.extra[DATA_FINGERPRINT] = data_key
    for old in (out / ".cache").glob("repository-*.pickle"):
        old.unlink(missing_ok=True)
    blob = signed_pickle.dumps({"model": model, "digests": digests, "code": code, "limits": kept_limits})
    writer = AtomicWriter(root)
    try:
        if blob is not None:
            writer.write(cached, blob)
    finally:
        writer.close()
    return model, result


def _stored_model(path: Path) -> dict | None:
    """A validated model this machine kept, with what it was validated from; None for
    anything else (a stale or damaged entry is simply made again)."""
    try:
        stored = signed_pickle.loads(path.read_bytes())  # None unless this machine wrote it
    except Exception:
        return None
    return stored if isinstance(stored, dict) and isinstance(stored.get("model"), Repository) else None


def _revalidated(root: Path, out: Path, digests: dict[str, str], code: str, kept: dict, limits) -> Repository | None:
    """The last model kept here, checked again where the unit files changed since can change
    it; None when there is none under this code and these limits, or the change needs a
    whole validation (``repository.incremental``)."""
    from .repository.incremental import revalidate

    previous = next(
        (
            stored
            for path in (out / ".cache").glob("repository-*.pickle")
            if (stored := _stored_model(path)) is not None
            and stored.get("code") == code
            and stored.get("limits") == kept
            and isinstance(stored.get("digests"), dict)
        ),
        None,
    )
    if previous is None:
        return None
    before: dict = previous["digests"]
    changed = changed_files(before, digests)
    if len(changed) > SMALL_DATA_CHANGE or any(name not in before or name not in digests for name in changed):
        return None
    return revalidate(
        root, previous["model"], [root / name for name in sorted(changed)], limits, out / ".cache" / "validate"
    )


SMALL_DATA_CHANGE = 8  # unit files: more, and the whole repository is validated again


# --- what to build ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    variants: tuple[str, ...] = ()
    nations: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    name: str | None = None  # what a subset's files are called (default: from the filters)

    @property
    def is_everything(self) -> bool:
        return not (self.nations or self.sets or self.types or self.units)

    def label(self) -> str:
        """'' for the whole deck; else the part of a file name that says which subset it is:
        ``uk``, ``uk+us``, ``uk_destroyer``, or the given name."""
        if self.is_everything:
            return ""
        if self.name:
            return self.name
        groups = ["+".join(sorted(values)) for values in (self.nations, self.sets, self.types, self.units) if values]
        text = "_".join(groups)
        return text if len(text) <= 60 else "selection-" + hashlib.sha256(text.encode()).hexdigest()[:10]

    def describe(self) -> dict[str, list[str]]:
        """The filters, for the manifest."""
        return {
            k: sorted(v)
            for k, v in (("nations", self.nations), ("sets", self.sets), ("types", self.types), ("units", self.units))
            if v
        }

    def chosen_variants(self) -> list[Variant]:
        return [VARIANTS[v] for v in (self.variants or tuple(VARIANTS))]

    def chosen_units(self, repo: Repository) -> list[Unit]:
        def keep(u: Unit) -> bool:
            return (
                (not self.nations or u.nation in self.nations)
                and (not self.sets or u.set in self.sets)
                and (not self.types or u.type in self.types)
                and (not self.units or u.id in self.units)
            )

        return [u for u in repo.units.values() if keep(u)]


@dataclass(frozen=True)
class Options:
    papers: tuple[str, ...] = ("letter", "a4")
    profile: sheets.PrinterProfile = sheets.PrinterProfile()
    backs: bool = False
    bleed: bool = False
    jobs: int = 2
    params: tuple[tuple[str, str, str], ...] = ()  # (variant, key, value) overrides
    colour_maps: bool = False  # boards with a blue sea instead of ink-light white

    def variant_params(self, variant: Variant) -> dict:
        return variant.resolve({k: v for name, k, v in self.params if name == variant.name})


@dataclass
class BuildReport:
    outputs: dict[str, dict] = field(default_factory=dict)
    cards_total: int = 0
    cards_rendered: int = 0
    written: int = 0
    unchanged: int = 0
    files: list[str] = field(default_factory=list)  # written by this build, in order
    card_text: dict[str, CardText] = field(default_factory=dict)  # per variant whose deck was laid out
    card_layouts: int = 0  # WeasyPrint documents made for cards (1 per batch when every card fits)
    cards_drawn_here: int = 0  # new cards drawn by the main process over heads laid out before
    light_workers: bool = False  # the workers were forked from the main process (workers.WorkerPool)
    sheets_imposed: int = 0  # card sheets imposed (the others came from the cache)
    pruned: int = 0  # cache files deleted, as no recent build used them (see cache_prune)
    clock: float = 0.0  # time.perf_counter() when the command started
    milestones: dict[str, float] = field(default_factory=dict)  # seconds from the start to each
    stages: dict[str, float] = field(default_factory=dict)  # seconds of work per stage, summed over workers
    alongside: Any = None  # what the ``alongside`` step of ``build`` returned
    card_heads: dict[str, str] = field(default_factory=dict)  # card key -> its head's key, where read or made
    sheet_plans: dict[str, list[SheetJob]] = field(default_factory=dict)  # a stale deck's sheets, by its path

    def timed(self, stage: str, seconds: float) -> None:
        self.stages[stage] = round(self.stages.get(stage, 0.0) + seconds, 3)

    def reached(self, milestone: str, at: float | None = None) -> None:
        """When (by default now) the build got this far, from the start of the command."""
        self.milestones[milestone] = round((time.perf_counter() if at is None else at) - self.clock, 3)

    def to_json(self) -> dict:
        return {
            "stages": self.stages,
            "cards_laid_out": self.cards_rendered,
            "card_layouts": self.card_layouts,
            "cards_drawn_here": self.cards_drawn_here,
            "light_workers": self.light_workers,
            "sheets_imposed": self.sheets_imposed,
            "cache_files_pruned": self.pruned,
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


def paper_suffix(paper: str) -> str:
    return "" if paper == "letter" else f"-{paper}"


def deck_name(variant: str, paper: str, options: Options, label: str = "") -> str:
    suffix = (
        ("" if paper == "letter" else f"-{paper}")
        + ("-bleed" if options.bleed else "")
        + ("-duplex" if options.backs else "")
    )
    return f"{variant}/cards{'-' + label if label else ''}{suffix}.pdf"


def layout_name(paper: str, options: Options) -> str:
    return f"{paper}-bleed" if options.bleed else paper


@dataclass
class _Deck:
    variant: Variant
    paper: str
    rel: str
    key: str
    text: CardText | None = None


def build(
    repo: Repository,
    root: Path,
    out: Path,
    selection: Selection = Selection(),
    options: Options = Options(),
    progress: Progress | None = None,
    load_seconds: float | None = None,
    alongside: Callable[[], Any] | None = None,
    pool: WorkerPool | None = None,
    head_start: HeadStart | None = None,
    command_start: float | None = None,
    whole: bool | None = None,
) -> BuildReport:
    """Makes every stale output. ``alongside`` (the site) runs on a thread of the main process
    once the card faces are written, while the workers lay them out and make the sheets,
    decks and packs; what it returns is kept in ``report.alongside`` and its time under the
    stage "site". A ``pool`` given is used (and left open); else the build makes its own.
    ``head_start``: the sheets that read no data, started while the data was validated.
    ``command_start``: when the command started (``time.perf_counter()``), for the report's
    milestones; when this was called, if not given. ``whole``: whether this is a build of
    everything the settings ask for, after which the caches drop what recent builds did not
    use (``cache_prune``); by default, a build of every unit in every variant."""
    given = pool
    report = BuildReport()
    report.clock = command_start if command_start is not None else time.perf_counter()
    pool = pool or WorkerPool(options.jobs, root)
    beside = _Alongside(alongside, pool)
    if pool.inherit(workers.WARM, sheets.warm):  # light workers: forked now, they warm up while this plans
        card_render.warm_drawing()  # which this needs too: done once, before the fork, for all three
        pool.start()
    if load_seconds is not None:
        report.timed("load and validate", load_seconds)
        report.reached("data loaded", report.clock + load_seconds)
    manifest_path = out / "manifest.json"
    previous = _read_manifest(manifest_path)
    units = selection.chosen_units(repo)
    bleed = sheets.shared_layout(layout_name(options.papers[0], options)).get("bleed", 0) if options.papers else 0
    adapting = time.perf_counter()
    # every card's key from its inputs (no layout, no view): decks and sheets are keyed by them
    card_sets: dict[str, tuple[list[CardSpec], float]] = {}
    for variant in selection.chosen_variants():
        params = options.variant_params(variant)
        card_sets[variant.name] = (deck_cards(repo, variant, params, units, selection.is_everything, bleed), bleed)
        card_sets[variant.name + ":back"] = ([_fixed_card(card_render.render_back_html(variant), bleed)], bleed)
    decks = []
    for v in selection.chosen_variants():
        for paper in options.papers:
            keys = [c.key for c in card_sets[v.name][0]] + (
                [card_sets[v.name + ":back"][0][0].key] if options.backs else []
            )
            decks.append(
                _Deck(
                    v,
                    paper,
                    deck_name(v.name, paper, options, selection.label()),
                    _key(
                        code_fingerprint(),
                        "deck",
                        keys,
                        layout_name(paper, options),
                        asdict(options.profile),
                        options.backs,
                    ),
                )
            )
    calibrations = {
        f"calibration/duplex-{paper}.pdf": (paper, _key(code_fingerprint(), paper, asdict(options.profile)))
        for paper in options.papers
    }
    writer = AtomicWriter(root)
    own_pool = given is None
    saved_tmp = (tempfile.tempdir, os.environ.get("TMPDIR"))
    # WeasyPrint writes fonts to temporary folders: keep them in our own, outside build/
    tempfile.tempdir = os.environ["TMPDIR"] = str(writer.tmp)
    try:
        tracker = _Tracker(progress)
        stale = [d for d in decks if not _current(out, d.rel, d.key, previous, report)]
        stale_calibrations = {
            rel: v for rel, v in calibrations.items() if not _current(out, rel, v[1], previous, report)
        }
        report.cards_total = len(units) * len(selection.chosen_variants())
        stale_variants = {d.variant.name for d in stale}
        every_card_set = card_sets
        card_sets = {name: cs for name, cs in card_sets.items() if name.split(":")[0] in stale_variants}
        packs = scenario_targets(repo, root, selection, options)
        stale_packs = [p for p in packs if not _current(out, p[0], p[1], previous, report)]
        for _rel, _pack_key, scenario, _paper, _card_keys in stale_packs:
            card_sets["scenario:" + scenario.id] = (scenario_cards(repo, scenario), 0.0)
        report.timed("adapt and card views", time.perf_counter() - adapting)
        tracker.add(len(stale) + len(stale_packs) + len(stale_calibrations))
        parts_cache = out / ".cache" / "parts"
        briefings: list[Future] = []

        def after_faces_sent() -> None:
            # a pack's briefing reads no card face: the workers lay it out once they have the
            # cards, while the main process writes those and plans the sheets. Light workers
            # (a small change, whose briefings only draw figures) get the sheets first: the
            # decks wait for them, not for the site or the briefings
            for _rel, _pack_key, scenario, paper, _card_keys in stale_packs:
                briefings.append(pool.submit(_run, (_pack_briefing, (scenario, paper, str(parts_cache)))))
            beside.start()

        laying_out = time.perf_counter()
        then_cards = None if pool.light else after_faces_sent
        later: list[Callable[[], None]] = []  # main-process work that no job waits for
        cards = _make_cards(card_sets, out, writer, report, pool, tracker, then=then_cards, later=later)
        report.timed("card layout (wall)", time.perf_counter() - laying_out)
        report.reached("card faces made")
        cache = out / ".cache" / "cards"
        jobs: list[tuple[str, str, Job]] = []
        for rel, key, scenario, paper, _card_keys in stale_packs:
            paths = [str(cache / f"{k}.pdf") for k in cards["scenario:" + scenario.id]]
            jobs.append(
                (
                    rel,
                    key,
                    (
                        _scenario_pack,
                        (scenario, paths, paper, options.profile, key, options.colour_maps, str(parts_cache)),
                    ),
                )
            )
        for deck in stale:
            deck.text = report.card_text.get(deck.variant.name)
        then_sheets = after_faces_sent if pool.light else None
        deck_sheets = _make_sheets(stale, cards, options, out, writer, report, pool, tracker, then=then_sheets)
        report.reached("card sheets made")
        for future in briefings:  # kept in the parts cache, where the packs' jobs read them
            _nothing, seconds = future.result()
            report.timed(stage_name(_pack_briefing), seconds)
        for deck in stale:
            folder = str(out / ".cache" / "sheets")
            jobs.append(
                (deck.rel, deck.key, (_assemble_deck, (deck_sheets[deck.rel], folder, deck_title(deck), deck.key)))
            )
        for rel, (paper, key) in stale_calibrations.items():
            jobs.append((rel, key, (_calibration, (paper, options.profile))))
        moved = {
            d.variant.name: tuple(
                sorted(
                    (report.outputs.get(d.rel, {}).get("card_text") or (d.text.to_json() if d.text else {}))
                    .get("moved_text", {})
                    .items()
                )
            )
            for d in decks
        }
        stale_sheets = [
            t for t in sheet_targets(repo, selection, options, moved) if not _current(out, t[0], t[1], previous, report)
        ]
        tracker.add(len(stale_sheets))
        # the sheets that read no data may already be on the way (see HeadStart): they come last
        if head_start is not None:
            pool.started()  # the head start has been handed out, if the workers were started
        started = [(t, head_start.take(t[0], t[1]) if head_start is not None else None) for t in stale_sheets]
        jobs += [t for t, future in started if future is None]
        early = [(t, future) for t, future in started if future is not None]
        deck_files = {d.rel for d in decks}
        making = time.perf_counter()
        results = itertools.chain(
            pool.map(_run, [j[2] for j in jobs]),  # every job is queued: the workers start on them
            (future.result() for _t, future in early),
        )
        jobs += [t for t, _future in early]
        for step in later:
            step()
        beside.finish(report)
        for (rel, key, job), ((pdf, pages, *noted), seconds) in zip(jobs, results, strict=True):
            report.timed(stage_name(job[0]), seconds)
            writer.write(out / rel, pdf)
            report.outputs[rel] = {"sha256": _sha256(pdf), "pages": pages, "bytes": len(pdf), "key": key}
            for extra in noted:  # what else a job says of its output (the cache parts a pack used)
                report.outputs[rel].update(extra)
            deck_text = next((d.text for d in stale if d.rel == rel and d.text is not None), None)
            if deck_text is not None:
                report.outputs[rel]["card_text"] = deck_text.to_json()
            if rel in deck_files and not selection.is_everything:
                report.outputs[rel]["selection"] = selection.describe()
            report.written += 1
            report.files.append(rel)
            tracker.tick()
        if jobs:
            report.timed("decks, packs, aids, maps (wall)", time.perf_counter() - making)
        report.reached("every output written")
        if pool.ready_at is not None:
            report.reached("workers ready", pool.ready_at)
        report.light_workers = pool.light
        kept = {rel: entry for rel, entry in previous.items() if rel not in report.outputs and (out / rel).exists()}
        manifest: dict[str, Any] = {
            "tool": f"wastools {__version__}",
            "outputs": dict(sorted({**kept, **report.outputs}.items())),
        }
        if source_date() is not None:
            manifest[DATED] = source_date()
        text = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
        if not manifest_path.exists() or manifest_path.read_bytes() != text:
            writer.write(manifest_path, text)
        if report.written or report.cards_rendered or report.sheets_imposed:  # else no entry was added
            outputs = {**kept, **report.outputs}
            used = _cache_used(every_card_set, decks, packs, outputs, options, out, report)
            if whole is None:
                whole = selection.is_everything and {v.name for v in selection.chosen_variants()} == set(VARIANTS)
            report.pruned = record_and_prune(out / ".cache", used, whole)
        writer.write(out / ".cache" / "build-report.json", (json.dumps(report.to_json(), indent=2) + "\n").encode())
    finally:
        beside.wait()  # a failed build still lets the site finish before it returns
        tempfile.tempdir = saved_tmp[0]
        if saved_tmp[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved_tmp[1]
        if own_pool:
            pool.close()
        writer.close()
    return report


ALONGSIDE = "alongside"  # what light workers inherit the ``alongside`` step of a build as
SWITCH_SECONDS = 0.0002  # how long a thread may hold the GIL while the site step runs (default 0.005)


class _Alongside:
    """A step run beside the build's jobs (the site): on a thread of the main process, whose
    main thread mostly waits for the workers, so that the step takes the main process's idle
    time instead of adding to the build's; or, when the workers are light (forked from the
    main process, ``workers.WorkerPool``), as a job of theirs, which they inherit with the
    data instead of receiving it. Started once the card faces it shows are written; ``finish``
    keeps its result."""

    def __init__(self, step: Callable[[], Any] | None, pool: WorkerPool | None = None):
        self._step = step
        self._executor: ThreadPoolExecutor | None = None
        self._future: Future | None = None
        self._seconds = 0.0
        self._pool = pool if pool is not None and step is not None and pool.inherit(ALONGSIDE, step) else None

    def start(self) -> None:
        if self._step is None or self._future is not None:
            return
        if self._pool is not None:
            self._future = self._pool.submit(_run, (workers.run_inherited, (ALONGSIDE,)))
            return
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wastools-site")
        self._future = self._executor.submit(self._timed, self._step)

    def _timed(self, step: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        # the step holds the GIL most of the time; the main thread and the pool's own thread
        # must get it at once when a result comes back, or the workers wait for their next job
        switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_SECONDS)
        try:
            return step()
        finally:
            sys.setswitchinterval(switch)
            self._seconds = time.perf_counter() - started

    def finish(self, report: BuildReport) -> None:
        """Wait for the step (start it first if nothing started it) and keep what it returned;
        an exception it raised is raised here."""
        self.start()
        if self._future is None:
            return
        if self._pool is not None:
            report.alongside, self._seconds = self._future.result()
        else:
            report.alongside = self._future.result()
        report.timed("site", self._seconds)

    def wait(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)


def _cache_used(
    card_sets: dict[str, tuple[list[CardSpec], float]],
    decks: list[_Deck],
    packs: list[tuple[str, str, Any, str, list[str]]],
    outputs: dict[str, dict],
    options: Options,
    out: Path,
    report: BuildReport,
) -> dict[str, set[str]]:
    """The entries of each cache folder that this build's outputs are made from, the ones
    it found current included (``cache_prune``): every card face of every deck and pack,
    the heads they are drawn over (``report.card_heads``, where the build read or made the card;
    else from the card's entry), every sheet of every deck, and the pack parts the manifest
    records."""
    cards = {spec.key for specs, _bleed in card_sets.values() for spec in specs}
    cards.update(k for *_pack, card_keys in packs for k in card_keys)
    folder = out / ".cache" / "cards"
    known = report.card_heads
    heads = {known[k] if k in known else _read_meta(folder / f"{k}.json").get("head") for k in cards}
    sheet_keys: set[str] = set()
    for deck in decks:
        backs = card_sets[deck.variant.name + ":back"][0]
        faces = [spec.key for spec in card_sets[deck.variant.name][0]]
        planned = report.sheet_plans.get(deck.rel) or deck_sheet_jobs(deck, faces, backs[0].key, options, out)
        sheet_keys.update(job.key for job in planned)
    parts = {name for entry in outputs.values() for name in entry.get("parts", ())}
    return {
        "cards": cards,
        HEADS: {h for h in heads if isinstance(h, str)},
        "sheets": sheet_keys,
        "parts": {entry_stem(p) for p in parts},
    }


def _read_manifest(path: Path) -> dict[str, dict]:
    """The outputs the manifest lists; none when they were dated otherwise (``source_date``)."""
    try:
        manifest = json.loads(path.read_text())
        return manifest["outputs"] if manifest.get(DATED) == source_date() else {}
    except (OSError, ValueError, KeyError, AttributeError):
        return {}


def _current(out: Path, rel: str, key: str, previous: dict, report: BuildReport) -> bool:
    if _is_current(out, rel, key, previous):
        report.outputs[rel] = previous[rel]
        report.unchanged += 1
        return True
    return False


def _is_current(out: Path, rel: str, key: str, previous: dict) -> bool:
    """The output on disk is the one the manifest records, made under this key."""
    old = previous.get(rel)
    target = out / rel
    return bool(
        old
        and old.get("key") == key
        and target.exists()
        and target.stat().st_size == old.get("bytes")
        and _sha256(target.read_bytes()) == old["sha256"]
    )


# --- cards -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardJob:
    key: str
    html: str
    bleed: float
    view: Any = None  # the sized CardView the HTML shows, from which card_body draws the body


def card_key(html: str, bleed: float) -> str:
    return _key(code_fingerprint(), bleed, html)


@dataclass
class CardText:
    """What the build report says of one deck's text: its smallest size and the units whose
    longest ability texts moved to the player aid."""

    smallest_pt: float = card_fit.MAX_PT
    moved_to_aid: dict[str, list[str]] = field(default_factory=dict)
    moved_text: dict[str, str] = field(default_factory=dict)  # ability -> full text, for the aid

    def add(self, meta: dict) -> None:
        """One card, from its cached report entry (stat blocks and backs have none)."""
        if "size_pt" in meta:
            self.smallest_pt = min(self.smallest_pt, meta["size_pt"], meta["table_pt"])
        if meta.get("moved_to_aid"):
            self.moved_to_aid[meta["name"]] = list(meta["moved_to_aid"])
        self.moved_text.update(meta.get("moved_text") or {})

    def to_json(self) -> dict:
        return {
            "smallest_text_pt": self.smallest_pt,
            "moved_to_aid": dict(sorted(self.moved_to_aid.items())),
            "moved_text": dict(sorted(self.moved_text.items())),
        }


@dataclass(frozen=True)
class CardSpec:
    """A card's cache key and how to make its sized view when it is not cached yet; the unit
    it shows, if any (its cards in every variant share a head: see ``_make_cards``)."""

    key: str
    view: Callable[[], Any]
    unit: str = ""


def unit_card_key(repo: Repository, variant: Variant, params: dict, unit: Unit, bleed: float) -> str:
    """Everything a unit's card face depends on: the tool, the variant and its parameters,
    the unit and the catalogue entries it shows (nation, set, abilities)."""
    return _key(code_fingerprint(), "card", variant.name, params, bleed, _unit_digest(repo, unit))


_UNIT_DIGESTS: dict[int, tuple[Repository, Unit, str]] = {}


def _unit_digest(repo: Repository, unit: Unit) -> str:
    """A digest of the unit and the catalogue entries its cards show. A build keys each unit's
    card in every variant, and the site does again: computed once per unit (the repr of a
    unit is most of a key's cost), remembered by identity while the objects are alive."""
    hit = _UNIT_DIGESTS.get(id(unit))
    if hit is not None and hit[0] is repo and hit[1] is unit:
        return hit[2]
    catalogue = (
        repr(repo.nations.get(unit.nation)),
        repr(repo.sets.get(unit.set)),
        [repr(repo.abilities.get(a.pattern)) for a in unit.abilities],
    )
    digest = _key(repr(unit), catalogue)
    if len(_UNIT_DIGESTS) > 20_000:  # a long-lived process (tests) that loads many repositories
        _UNIT_DIGESTS.clear()
    _UNIT_DIGESTS[id(unit)] = (repo, unit, digest)
    return digest


def _unit_view(repo: Repository, variant: Variant, params: dict, unit: Unit):
    return card_render.card_view(variant.adapt(unit, params), variant, repo)


def _fixed_card(html: str, bleed: float) -> CardSpec:
    return CardSpec(card_key(str(html), bleed), lambda: str(html))


def deck_cards(
    repo: Repository, variant: Variant, params: dict, units: list[Unit], stat_blocks: bool, bleed: float
) -> list[CardSpec]:
    """Every card face of one deck, in deck order, keyed without being laid out."""
    specs = [
        CardSpec(unit_card_key(repo, variant, params, u, bleed), partial(_unit_view, repo, variant, params, u), u.id)
        for u in units
    ]
    if stat_blocks and variant.name == "large-map":
        for block in card_render.large_map_stat_blocks():
            view = card_render.statblock_view(block, variant)
            specs.append(CardSpec(card_key(str(card_render.render_card_html(view)), bleed), partial(lambda v: v, view)))
    return specs


def deck_views(repo: Repository, variant: Variant, params: dict, units: list[Unit], stat_blocks: bool) -> list:
    """The sized view of every card face of one deck, in deck order."""
    return [spec.view() for spec in deck_cards(repo, variant, params, units, stat_blocks, 0.0)]


def deck_htmls(repo: Repository, variant: Variant, params: dict, units: list[Unit], stat_blocks: bool) -> list[str]:
    """The HTML of every card face of one deck, in deck order."""
    return [str(card_render.render_card_html(view)) for view in deck_views(repo, variant, params, units, stat_blocks)]


def _card_meta(view) -> dict:
    return {
        "name": view.name,
        "size_pt": view.size_pt,
        "table_pt": view.table_pt,
        "moved_to_aid": list(view.moved_to_aid),
        "moved_text": dict(view.moved_text),
    }


def _make_cards(
    card_sets: dict[str, tuple[list[CardSpec], float]],
    out: Path,
    writer: AtomicWriter,
    report: BuildReport,
    pool: WorkerPool,
    tracker: _Tracker,
    then: Callable[[], None] | None = None,
    later: list[Callable[[], None]] | None = None,
) -> dict[str, list[str]]:
    """Cache keys of every card of every set, in order; lays out the cards not cached yet.
    Beside each cached card, ``<key>.json`` keeps what the build report says of it and
    ``<key>.html`` its face, which the site shows instead of sizing the card again.
    A batch goes to the workers as soon as its cards are sized, so the main process sizes
    the next ones while the workers lay out the first. ``then`` is called once every face
    is written and sent, before the layouts come back; ``later`` collects what no job waits
    for (the card index), for the build to do while its workers make the outputs."""
    cache = out / ".cache" / "cards"
    heads = out / ".cache" / HEADS
    planned = {name: [spec.key for spec in specs] for name, (specs, _bleed) in card_sets.items()}
    missing: dict[str, tuple[CardSpec, float]] = {}
    metas: dict[str, dict] = {}
    index = _read_card_index(out)
    for specs, bleed in card_sets.values():
        for spec in specs:
            if spec.key in missing or spec.key in metas:
                continue
            if (cache / f"{spec.key}.pdf").exists():
                known = index.get(spec.key)
                metas[spec.key] = known if known is not None else _read_meta(cache / f"{spec.key}.json")
                if "head" in metas[spec.key]:
                    report.card_heads[spec.key] = metas[spec.key]["head"]
            else:
                missing[spec.key] = (spec, bleed)
    report.cards_rendered = len(missing)
    tracker.add(len(missing))
    # a unit's cards side by side, so that one worker lays out the head they share once
    missing = dict(sorted(missing.items(), key=lambda item: (item[1][1], item[1][0].unit)))
    # a few cards (a one-unit change) are shared out between the workers too
    size = max(1, min(BATCH, -(-len(missing) // max(1, pool.jobs))))
    # a few cards (a unit's change) are drawn here when their heads were laid out before,
    # without waiting for the workers; many go to the workers, two cores at a time
    here = len(missing) <= DRAWN_HERE
    htmls: dict[str, str] = {}
    pending: dict[float, list[CardJob]] = {}
    futures = []
    for key, (spec, bleed) in missing.items():
        view = spec.view()
        if isinstance(view, str):
            htmls[key], metas[key], view = view, {}, None
        else:
            htmls[key], metas[key] = str(card_render.render_card_html(view)), _card_meta(view)
        writer.write(cache / f"{key}.html", htmls[key].encode(), durable=False)
        drawing = time.perf_counter()
        drawn = card_render.drawn_face(htmls[key], view, bleed, heads) if here and view is not None else None
        if drawn is not None:
            face, metas[key]["head"] = drawn
            report.card_heads[key] = metas[key]["head"]
            _keep_card(cache, writer, key, face, metas[key])
            report.timed("card faces drawn here", time.perf_counter() - drawing)
            report.cards_drawn_here += 1
            tracker.tick()
            continue
        batch = pending.setdefault(bleed, [])  # one bleed per batch
        batch.append(CardJob(key, htmls[key], bleed, view))
        if len(batch) == size:
            futures.append(pool.submit(_run, (_render_batch, (pending.pop(bleed), str(heads)))))
    futures += [pool.submit(_run, (_render_batch, (batch, str(heads)))) for batch in pending.values()]
    if then is not None:
        then()
    for name, keys in planned.items():
        if name in VARIANTS:
            text = report.card_text.setdefault(name, CardText())
            for key in keys:
                text.add(metas.get(key) or {})
    for future in futures:
        (result, documents), seconds = future.result()
        report.card_layouts += documents
        report.timed("card layout", seconds)
        for key, pdf, head in result:
            if metas.get(key) and head is not None:
                metas[key]["head"] = report.card_heads[key] = head
            _keep_card(cache, writer, key, pdf, metas[key])
        tracker.tick(len(result))
    if later is not None:  # written while the workers make the outputs
        later.append(partial(_write_card_index, out, writer, index, metas))
    else:
        _write_card_index(out, writer, index, metas)
    return planned


CARD_INDEX = "card-index.json"  # under build/.cache: every card's report entry, read at once


def _read_card_index(out: Path) -> dict[str, dict]:
    """What the build report says of each cached card (``<key>.json`` beside it), gathered in
    one file: a build reads it instead of a file per card (a tenth of a one-unit rebuild).
    A cache entry is only a speed-up: anything but a mapping of mappings reads as empty."""
    try:
        index = json.loads((out / ".cache" / CARD_INDEX).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(index, dict):
        return {}
    return {k: v for k, v in index.items() if isinstance(k, str) and isinstance(v, dict)}


def _write_card_index(out: Path, writer: AtomicWriter, index: dict[str, dict], metas: dict[str, dict]) -> None:
    """The index with this build's cards; an entry whose card has left the cache is dropped."""
    cards = out / ".cache" / "cards"
    kept = {k: v for k, v in index.items() if k in metas or (cards / f"{k}.pdf").exists()}
    merged = {**kept, **{k: v for k, v in metas.items() if v}}
    if merged != index:
        writer.write(out / ".cache" / CARD_INDEX, json.dumps(merged, sort_keys=True).encode(), durable=False)


HEADS = "heads"  # under build/.cache: card heads, which later builds draw changed cards over
DRAWN_HERE = 48  # at most this many new cards are drawn in the main process (see _make_cards)


def _keep_card(cache: Path, writer: AtomicWriter, key: str, pdf: bytes, meta: dict) -> None:
    """A new card face into the cache, with what the build report says of it (beside it)."""
    if meta:
        writer.write(cache / f"{key}.json", json.dumps(meta, sort_keys=True).encode(), durable=False)
    writer.write(cache / f"{key}.pdf", pdf, durable=False)


def _read_meta(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _render_batch(jobs: list[CardJob], heads: str) -> tuple[list[tuple[str, bytes, str | None]], int]:
    """Worker: lay out a batch of cards; returns (key, single-page PDF, head key) for each and
    the number of WeasyPrint documents it took: one for the heads not laid out before (kept
    in the folder ``heads``), and one more for any card whose body ``card_body`` could not
    draw (or a second size)."""
    pages, documents, head_keys = card_render.lay_out_faces(
        [j.html for j in jobs], jobs[0].bleed, [j.view for j in jobs], Path(heads)
    )
    return [(job.key, page, head) for job, page, head in zip(jobs, pages, head_keys, strict=True)], documents


# --- sheets of cards ------------------------------------------------------------------------


def deck_title(deck: _Deck) -> str:
    return f"{deck.variant.title} cards ({deck.paper})"


@dataclass(frozen=True)
class SheetJob:
    """One sheet of a deck: its cache key, the card faces on it and what its margin says."""

    key: str
    cards: tuple[str, ...]  # paths of the cached card faces
    back: str | None  # path of the cached card back, when backs are printed
    layout: dict
    label: str
    profile: sheets.PrinterProfile


def deck_sheet_jobs(deck: _Deck, card_keys: list[str], back_key: str, options: Options, out: Path) -> list[SheetJob]:
    """The sheets of one deck, in order. A sheet's key is everything it prints: its cards'
    keys, the card back, the layout, the printer profile, its label and the code, so a
    one-unit change remakes only the sheets that hold that unit."""
    cache = os.fspath(out / ".cache" / "cards")  # a string: a deck has hundreds of paths
    name = layout_name(deck.paper, options)
    layout = sheets.shared_layout(name)
    per, total = len(layout["slots"]), sheets.sheets_needed(len(card_keys), layout)
    back = back_key if options.backs else None
    profile, code = asdict(options.profile), code_fingerprint()
    jobs = []
    for index in range(total):
        chunk = card_keys[index * per : (index + 1) * per]
        label = sheets.sheet_label(deck_title(deck), index, total)
        jobs.append(
            SheetJob(
                _key(code, "sheet", chunk, back, name, profile, label),
                tuple(f"{cache}/{k}.pdf" for k in chunk),
                f"{cache}/{back}.pdf" if back else None,
                layout,
                label,
                options.profile,
            )
        )
    return jobs


def _make_sheets(
    decks: list[_Deck],
    cards: dict[str, list[str]],
    options: Options,
    out: Path,
    writer: AtomicWriter,
    report: BuildReport,
    pool: WorkerPool,
    tracker: _Tracker,
    then: Callable[[], None] | None = None,
) -> dict[str, list[SheetJob]]:
    """The sheets of every stale deck, in order (kept in ``report.sheet_plans``); imposes (on
    every core) the sheets not cached yet into ``build/.cache/sheets``. ``then`` is called
    once they are queued, before they come back."""
    cache = out / ".cache" / "sheets"
    planned: dict[str, list[SheetJob]] = {}
    missing: dict[str, SheetJob] = {}
    for deck in decks:
        jobs = deck_sheet_jobs(deck, cards[deck.variant.name], cards[deck.variant.name + ":back"][0], options, out)
        planned[deck.rel] = report.sheet_plans[deck.rel] = jobs
        missing.update({job.key: job for job in jobs if not (cache / f"{job.key}{SHEET_SUFFIX}").exists()})
    report.sheets_imposed = len(missing)
    tracker.add(len(missing))
    todo = list(missing.values())
    started = time.perf_counter()
    work = [(_impose_sheet, (job,)) for job in todo]
    results = pool.map(_run, work)
    if then is not None:
        then()
    for job, (part, seconds) in zip(todo, results, strict=True):
        report.timed("card sheet imposition", seconds)
        writer.write(cache / f"{job.key}{SHEET_SUFFIX}", part, durable=False)
        tracker.tick()
    if todo:
        report.timed("card sheet imposition (wall)", time.perf_counter() - started)
    return planned


SHEET_SUFFIX = ".part"  # a cached sheet is a part ready to join (render.pdf_parts), not a PDF


def _impose_sheet(job: SheetJob) -> bytes:
    return _sheet(job).to_bytes()


def _sheet(job: SheetJob) -> pdf_parts.Part:
    back = Path(job.back).read_bytes() if job.back else None
    return sheets.sheet_part([Path(p).read_bytes() for p in job.cards], job.layout, job.label, job.profile, back)


def _assemble_deck(sheet_jobs: list[SheetJob], folder: str, title: str, key: str) -> tuple[bytes, int]:
    return sheets.assemble([_cached_sheet(Path(folder), job) for job in sheet_jobs], title, key)


def _cached_sheet(folder: Path, job: SheetJob) -> pdf_parts.Part:
    """A sheet from the cache, or imposed again (and kept) when its entry cannot be read or is
    damaged: a cache entry is only a speed-up."""
    path = folder / f"{job.key}{SHEET_SUFFIX}"
    try:
        return pdf_parts.read_part(path.read_bytes())
    except (OSError, pdf_parts.BadPart):
        part = _sheet(job)
        write_entry(path, part.to_bytes())
        return part


# --- scenario packs ----------------------------------------------------------------------


def scenario_targets(
    repo: Repository, root: Path, selection: Selection, options: Options
) -> list[tuple[str, str, Any, str, list[str]]]:
    """(path, key, scenario, paper, card keys) for every scenario pack; a variant filter
    selects packs too."""
    from .scenarios import Scenario

    scenarios: dict[str, Scenario] = repo.extra.get("scenarios", {})
    chosen = {v.name for v in selection.chosen_variants()}
    out = []
    for scenario in scenarios.values():
        if scenario.variant not in chosen:
            continue
        source = (root / "scenarios" / f"{scenario.id}.yaml").read_bytes()
        # the scenario file, and its units and catalogue entries through its cards' keys
        card_keys = [c.key for c in scenario_cards(repo, scenario)]
        for paper in options.papers:
            key = _key(
                code_fingerprint(),
                hashlib.sha256(source).hexdigest(),
                card_keys,
                paper,
                asdict(options.profile),
                *(("colour maps",) if options.colour_maps else ()),
            )
            out.append((f"scenarios/{scenario.id}{paper_suffix(paper)}.pdf", key, scenario, paper, card_keys))
    return out


def scenario_cards(repo: Repository, scenario) -> list[CardSpec]:
    from .render.scenario_pack import scenario_stat_blocks

    variant = VARIANTS[scenario.variant]
    specs = deck_cards(repo, variant, scenario.parameters, scenario.units(), False, 0.0)
    for block in scenario_stat_blocks(scenario):
        view = card_render.statblock_view(block, variant)
        specs.append(CardSpec(card_key(str(card_render.render_card_html(view)), 0.0), partial(lambda v: v, view)))
    return specs


def _scenario_pack(
    scenario, card_paths: list[str], paper: str, profile, key: str, colour: bool = False, parts: str | None = None
) -> tuple[bytes, int, dict[str, list[str]]]:
    """Worker: a scenario pack; its map part and briefing are kept in the folder ``parts`` (a
    unit change remakes the cards, not the map). Returns the pack, its pages, and the names
    of the parts it used, for the manifest (the cache keeps what recent outputs use)."""
    from .render.scenario_pack import briefing_layout_name, scenario_pack_pdf

    used: list[str] = []
    remember = partial(_remembered, Path(parts), used=used) if parts else None
    cards = [Path(p).read_bytes() for p in card_paths]
    layouts = Path(parts) if parts else None
    pdf, pages = scenario_pack_pdf(scenario, cards, paper, profile, key, colour, remember=remember, layouts=layouts)
    if parts:  # the briefing's layout, which a change of points draws the figures over
        used.append(briefing_layout_name(scenario, paper))
    return pdf, pages, {"parts": used}


def _pack_briefing(scenario, paper: str, parts: str) -> None:
    """Worker: a pack's briefing made into the parts cache unless it is there (its figures
    drawn over its layout when the layout is there too: see ``scenario_pack.briefing_part``)."""
    from .render.scenario_pack import briefing_inputs, briefing_part

    folder = Path(parts)
    _remembered(folder, briefing_inputs(scenario, paper), partial(briefing_part, scenario, paper, folder))


def _remembered(
    folder: Path, inputs: tuple, make: Callable[[], bytes], used: list[str] | None = None
) -> pdf_parts.Part:
    """A part of an output (``render.pdf_parts``), kept in ``folder`` under a key of everything
    that makes it (their reprs, and the code): read when there, else made and kept. A cache
    entry is only a speed-up: one that cannot be read, or is damaged, is made again and
    replaced. ``used`` collects the names."""
    path = folder / f"{_key(code_fingerprint(), [repr(i) for i in inputs])}.part"
    if used is not None:
        used.append(path.name)
    try:
        return pdf_parts.read_part(path.read_bytes())
    except (OSError, pdf_parts.BadPart):
        pass
    data = make()
    write_entry(path, data)
    return pdf_parts.read_part(data)


# --- rulers, maps and counters -----------------------------------------------------------------


def sheet_targets(
    repo: Repository | None, selection: Selection, options: Options, moved: dict | None = None
) -> list[tuple[str, str, tuple]]:
    """(path, key, job) for every aid, ruler, map and counter sheet of the chosen variants.
    A key hashes the job's arguments; aids also read the data, so theirs hashes the data.
    Without ``repo``, only the sheets that read no data (``board_targets``)."""
    out: list = []
    aids = []
    poster_keys: dict[str, tuple] = {}
    chosen = {v.name: v for v in selection.chosen_variants()}
    for paper in options.papers:
        sfx = paper_suffix(paper)
        for name, variant in chosen.items():
            params = options.variant_params(variant)
            if "rulers" in variant.extras:
                out.append((f"{name}/rulers{sfx}.pdf", (_rulers, (name, params, paper, options.profile))))
        for name, variant in chosen.items():
            aids.append(
                (
                    f"{name}/player-aid{sfx}.pdf",
                    (name, options.variant_params(variant), paper, (moved or {}).get(name, ())),
                )
            )
        board = options.variant_params(VARIANTS["large-map"])
        width, height = board["columns"] * board["sector_in"] * 72, board["rows"] * board["sector_in"] * 72
        if "large-map" in chosen:
            out.append(
                (
                    f"large-map/map-square{sfx}.pdf",
                    (
                        _square_map,
                        (
                            board["columns"],
                            board["rows"],
                            board["sector_in"] * 72,
                            paper,
                            options.profile,
                            options.colour_maps,
                        ),
                    ),
                )
            )
        if "hex" in chosen:
            hex_cm = options.variant_params(VARIANTS["hex"])["hex_cm"]
            out.append(
                (
                    f"hex/map-hex{sfx}.pdf",
                    (_hex_map, (width, height, hex_cm, paper, options.profile, options.colour_maps)),
                )
            )
        if paper == options.papers[0]:  # one true-size poster of each board, whatever the paper
            if "large-map" in chosen:
                out.append(
                    (
                        "large-map/map-square-poster.pdf",
                        (
                            _square_poster,
                            (
                                board["columns"],
                                board["rows"],
                                board["sector_in"] * 72,
                                options.profile,
                                options.colour_maps,
                            ),
                        ),
                    )
                )
            if "hex" in chosen:
                out.append(
                    (
                        "hex/map-hex-poster.pdf",
                        (
                            _hex_poster,
                            (
                                width,
                                height,
                                options.variant_params(VARIANTS["hex"])["hex_cm"],
                                options.profile,
                                options.colour_maps,
                            ),
                        ),
                    )
                )
            for scenario in (repo.extra.get("scenarios", {}) if repo is not None else {}).values():
                if scenario.variant in chosen:
                    rel = f"scenarios/{scenario.id}-poster.pdf"
                    out.append((rel, (_scenario_poster, (scenario, options.profile, options.colour_maps))))
                    # keyed by the scenario file's own data (all the map draws), not its units'
                    poster_keys[rel] = (scenario.data, scenario.parameters, options.profile, options.colour_maps)
        leg = options.variant_params(VARIANTS["off-grid"])
        out.append(
            (
                f"counters{sfx}.pdf",
                (_counters, (paper, leg["grid_in"] * 0.56 if leg["grid_in"] > 0 else leg["leg_in"], options.profile)),
            )
        )
    jobs = [
        (rel, _key(code_fingerprint(), rel, job[0].__name__, poster_keys.get(rel, job[1])), job) for rel, job in out
    ]
    if repo is not None:
        jobs += [
            (
                rel,
                _key(code_fingerprint(), rel, args, aid_content(repo, args[0], args[1], args[3])),
                (_aid, (repo,) + args),
            )
            for rel, args in aids
        ]
    return jobs


def board_targets(selection: Selection, options: Options) -> list[tuple[str, str, tuple]]:
    """The sheets that read no data: rulers, the boards and their posters, counters."""
    return sheet_targets(None, selection, options)


class HeadStart:
    """The sheets that read no data, made on the workers while the main process still
    validates the data (one core is idle then); ``build`` takes their results instead of
    making them again. Nothing is written until ``build`` writes every output."""

    def __init__(self) -> None:
        self.jobs: dict[str, tuple[str, Future]] = {}  # output path -> (its key, its result)

    def start(self, pool: WorkerPool, out: Path, selection: Selection, options: Options) -> None:
        previous = _read_manifest(out / "manifest.json")
        for rel, key, job in board_targets(selection, options):
            if not _is_current(out, rel, key, previous):
                self.jobs[rel] = (key, pool.submit(_run, job))

    def take(self, rel: str, key: str) -> Future | None:
        """The result started for this output under this key, if any (taken once)."""
        started = self.jobs.get(rel)
        if started is None or started[0] != key:
            return None
        del self.jobs[rel]
        return started[1]


def aid_content(repo: Repository, variant: str, params: dict, moved: tuple = ()) -> str:
    """A hash of what an aid prints (its sections), so that an aid is remade only when its
    content changes, not on every data change."""
    from .aids import aid

    return hashlib.sha256(
        json.dumps(aid(variant, repo, params, moved), default=_plain, sort_keys=True).encode()
    ).hexdigest()


def _plain(value: Any) -> Any:
    from dataclasses import asdict, is_dataclass

    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else str(value)


def _aid(repo: Repository, variant: str, params: dict, paper: str, moved: tuple = ()) -> tuple[bytes, int]:
    from .render.aid import aid_pdf

    return aid_pdf(variant, repo, params, paper, f"aid:{variant}:{paper}", moved)


def _rulers(variant: str, params: dict, paper: str, profile) -> tuple[bytes, int]:
    from .render.rulers import rulers_pdf

    v = VARIANTS[variant]
    return rulers_pdf(v.extras["rulers"](params), paper, f"{v.title}: range rulers ({paper})", profile)


def _square_map(columns: int, rows: int, sector: float, paper: str, profile, colour: bool = False) -> tuple[bytes, int]:
    from .render.maps import map_pdf, square_map

    return map_pdf(square_map(f"large-map board ({paper})", columns, rows, sector), paper, profile, colour=colour)


def _hex_map(
    width: float, height: float, hex_cm: float, paper: str, profile, colour: bool = False
) -> tuple[bytes, int]:
    from .geometry import PT_PER_CM
    from .render.maps import hex_map, map_pdf

    return map_pdf(
        hex_map(f"hex board, {hex_cm:g} cm hexes ({paper})", width, height, hex_cm * PT_PER_CM),
        paper,
        profile,
        colour=colour,
    )


def _square_poster(columns: int, rows: int, sector: float, profile, colour: bool = False) -> tuple[bytes, int]:
    from .render.maps import poster_pdf, square_map

    return poster_pdf(square_map("large-map board", columns, rows, sector), profile, colour)


def _hex_poster(width: float, height: float, hex_cm: float, profile, colour: bool = False) -> tuple[bytes, int]:
    from .geometry import PT_PER_CM
    from .render.maps import hex_map, poster_pdf

    return poster_pdf(hex_map(f"hex board, {hex_cm:g} cm hexes", width, height, hex_cm * PT_PER_CM), profile, colour)


def _scenario_poster(scenario, profile, colour: bool = False) -> tuple[bytes, int]:
    from .render.maps import poster_pdf
    from .render.scenario_pack import scenario_map

    return poster_pdf(scenario_map(scenario), profile, colour)


def _counters(paper: str, leg_in: float, profile) -> tuple[bytes, int]:
    from .render.counters import counters_pdf

    return counters_pdf(paper, leg_in, profile)


# --- workers -------------------------------------------------------------------------------


def _calibration(paper, profile) -> tuple[bytes, int]:
    from .render.calibration import calibration_pdf

    return calibration_pdf(sheets.load_layout(paper), profile)


STAGES = {  # what the build report and `make bench` call each kind of job
    "_assemble_deck": "deck assembly",
    "_pack_briefing": "scenario packs",
    "_calibration": "calibration sheets",
    "_rulers": "rulers",
    "_counters": "counters",
    "_square_map": "maps",
    "_hex_map": "maps",
    "_square_poster": "map posters",
    "_hex_poster": "map posters",
    "_scenario_poster": "map posters",
    "_scenario_pack": "scenario packs",
    "_aid": "player aids",
}


def stage_name(fn: Callable) -> str:
    """A job's stage in plain words; a job missing from STAGES is a mistake the tests catch."""
    return STAGES.get(fn.__name__, fn.__name__)


def _run(job):
    """Worker: one output job; returns its result and the seconds it took."""
    fn, args = job
    started = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - started


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
