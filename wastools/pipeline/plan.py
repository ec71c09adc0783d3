"""The plan: every output a build is asked for, as a ``Target`` with its key, before anything
is made.

A target's key hashes everything that makes it (the tool, the data it reads, the settings),
so an output whose key is the one it was last made under is current. Who may write what:
a build of a subset (``--nation``, ``--unit``...) plans the decks named after its selection
and the sheets that read no unit (rulers, boards, counters: whole whatever the selection);
the outputs every deck shares (player aids, scenario packs, the full decks, the site) are
planned only by builds that make them whole, so a full deck and its aid always agree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..core.fingerprints import code_fingerprint, key
from ..core.model import Repository
from ..core.store import Store
from ..render import cards as card_render
from ..render import sheets
from ..variants import VARIANTS, Variant
from . import makers
from .cards import CardSpec, CardText, deck_cards, fixed_card, one_size_a_sheet, scenario_cards
from .selection import Options, Selection, card_bleed, deck_name, layout_name, paper_suffix


@dataclass(frozen=True)
class Faces:
    """Card faces an output reads from the store, and the sheet they are imposed on when the
    output is a deck: while the store holds that sheet, the deck reads it instead of them."""

    keys: tuple[str, ...]
    sheet: str = ""


@dataclass(frozen=True)
class Target:
    """One output: its path under the output folder, its key, and what makes it (a function
    a worker runs, with its arguments). ``cards``: the card faces it reads from the store,
    grouped by the sheet they are imposed on (``Faces``);
    ``parts``: jobs (function, arguments; the store first) that keep in the store a part of
    it that needs no face, run while the faces are laid out when the output is stale;
    ``carries``: for a folder output (the site), the other outputs it holds a copy of, so
    that the folder is whole on its own (hosted alone, its links work)."""

    path: str
    key: str
    make: Callable[..., Any]
    args: tuple
    cards: tuple[Faces, ...] = ()
    note: dict = field(default_factory=dict, compare=False)  # what else the manifest says of it
    reads_store: bool = False  # ``make`` takes the store first (faces, kept parts)
    parts: tuple[tuple[Callable[..., Any], tuple], ...] = ()
    # a folder output's copies of other outputs: (path inside the folder, output path); see ``carrying``
    carries: tuple[tuple[str, str], ...] = ()

    @property
    def stage(self) -> str:
        return makers.STAGES.get(self.make, getattr(self.make, "__name__", "output"))


def carrying(target: Target, available: set[str]) -> Target:
    """``target`` carrying only the outputs of ``available`` (those this build plans or an
    earlier one left as it wrote them), keyed by them and told them (its last argument), so
    that what it shows links only to files it holds."""
    if not target.carries:
        return target
    kept = tuple((inside, rel) for inside, rel in target.carries if rel in available)
    chosen = tuple(rel for _inside, rel in kept)
    return replace(target, carries=kept, key=key(target.key, "carries", chosen), args=(*target.args, chosen))


@dataclass
class Decks:
    """The card faces of a build, by deck: each variant's deck, its back, each pack's cards."""

    variants: dict[str, list[CardSpec]] = field(default_factory=dict)
    backs: dict[str, CardSpec] = field(default_factory=dict)
    packs: dict[str, list[CardSpec]] = field(default_factory=dict)

    def every_card(self) -> list[CardSpec]:
        specs = [s for deck in self.variants.values() for s in deck] + list(self.backs.values())
        return specs + [s for pack in self.packs.values() for s in pack]


def plan_cards(repo: Repository, selection: Selection, options: Options, store: Store) -> Decks:
    """Every card face the build's decks and packs show, keyed without being laid out, each
    sheet's cards at one body size (``one_size_a_sheet``)."""
    decks = Decks()
    bleed = card_bleed(options)
    units = selection.chosen_units(repo)
    digests: dict[str, str] = {}
    per_sheet = {len(sheets.shared_layout(layout_name(paper, options))["slots"]) for paper in options.papers}
    if not selection.scenarios:
        for variant in selection.chosen_variants():
            params = options.variant_params(variant)
            whole = selection.is_everything
            specs = deck_cards(repo, variant, params, units, whole, bleed, digests)
            # papers of another number of cards a sheet would need other faces: sized alone then
            decks.variants[variant.name] = one_size_a_sheet(store, specs, *per_sheet) if len(per_sheet) == 1 else specs
            decks.backs[variant.name] = fixed_card(str(card_render.render_back_html(variant)), bleed)
    for scenario in chosen_scenarios(repo, selection):
        pack_sheet = len(sheets.shared_layout(options.papers[0])["slots"])
        decks.packs[scenario.id] = one_size_a_sheet(store, scenario_cards(repo, scenario), pack_sheet)
    return decks


def chosen_scenarios(repo: Repository, selection: Selection) -> list:
    """The packs a build makes: the named ones, or every one of the chosen variants when the
    build makes the shared outputs; none for a subset of units."""
    scenarios = repo.scenarios
    if selection.scenarios:
        return [scenarios[s] for s in selection.scenarios if s in scenarios]
    if not selection.is_everything:
        return []
    chosen = {v.name for v in selection.chosen_variants()}
    return [s for s in scenarios.values() if s.variant in chosen]


def plan_outputs(
    repo: Repository, selection: Selection, options: Options, decks: Decks, texts: dict[str, CardText]
) -> list[Target]:
    """Every output of the build. ``texts``: each variant deck's text report, whose moved
    ability texts the player aid prints."""
    targets = deck_targets(selection, options, decks)
    targets += pack_targets(repo, selection, options, decks)
    if selection.is_everything:
        targets += aid_targets(repo, selection, options, texts)
    if not selection.scenarios:  # rulers, boards, counters read no unit: whole in any build
        targets += sheet_targets(repo, selection, options)
    return targets


def deck_targets(selection: Selection, options: Options, decks: Decks) -> list[Target]:
    targets = []
    profile = asdict(options.profile)
    for name, specs in decks.variants.items():
        variant = VARIANTS[name]
        back = decks.backs[name].key if options.backs else None
        keys = [s.key for s in specs]
        for paper in options.papers:
            rel = deck_name(name, paper, options, selection.label())
            plans = sheet_plans(f"{variant.title} cards ({paper})", layout_name(paper, options), options, keys, back)
            deck_key = key(code_fingerprint(), "deck", keys, back, layout_name(paper, options), profile)
            title = f"{variant.title} cards ({paper})"
            note = {"selection": selection.describe()} if selection.label() else {}
            cards = tuple(Faces(plan.cards + ((back,) if back else ()), plan.key) for plan in plans)
            targets.append(Target(rel, deck_key, makers.deck, (plans, title, deck_key), cards, note, reads_store=True))
    return targets


def sheet_plans(
    title: str, name: str, options: Options, card_keys: list[str], back: str | None = None
) -> list[makers.SheetPlan]:
    """The sheets of a deck or a pack's cards, in order, on sheet layout ``name``, each keyed
    by everything it prints: a one-unit change remakes only the sheets that hold that unit."""
    layout = sheets.shared_layout(name)
    per, total = len(layout["slots"]), sheets.sheets_needed(len(card_keys), layout)
    profile, code = asdict(options.profile), code_fingerprint()
    plans = []
    for index in range(total):
        chunk = tuple(card_keys[index * per : (index + 1) * per])
        label = sheets.sheet_label(title, index, total)
        plans.append(
            makers.SheetPlan(
                key(code, "sheet", chunk, back, name, profile, label), chunk, back, name, label, options.profile
            )
        )
    return plans


def pack_targets(repo: Repository, selection: Selection, options: Options, decks: Decks) -> list[Target]:
    """A pack per scenario and paper, and a poster of its map, keyed by the scenario file's
    own data and its cards' keys (which stand for its units and catalogue entries)."""
    targets = []
    profile = asdict(options.profile)
    colour = ("colour maps",) if options.colour_maps else ()
    for scenario_id, specs in decks.packs.items():
        scenario = repo.scenarios[scenario_id]
        cards = tuple(s.key for s in specs)
        source = hashlib.sha256(repr(scenario.data).encode()).hexdigest()
        for paper in options.papers:
            rel = f"scenarios/{scenario.id}{paper_suffix(paper)}.pdf"
            pack_key = key(code_fingerprint(), "pack", source, cards, paper, profile, *colour)
            plans = sheet_plans(f"{scenario.title}: cards", paper, options, list(cards))
            pack = (scenario, plans, paper, options.profile, pack_key, options.colour_maps)
            # one briefing layout serves every paper: made ahead with the first paper's pack
            briefing = ((makers.briefing, (scenario,)),) if paper == options.papers[0] else ()
            faces = tuple(Faces(plan.cards, plan.key) for plan in plans)
            targets.append(Target(rel, pack_key, makers.scenario_pack, pack, faces, reads_store=True, parts=briefing))
        rel = f"scenarios/{scenario.id}-poster.pdf"
        poster_key = key(code_fingerprint(), rel, source, scenario.parameters, profile, *colour)
        poster = (scenario, options.profile, options.colour_maps)
        targets.append(Target(rel, poster_key, makers.scenario_poster, poster))
    return targets


def aid_targets(repo: Repository, selection: Selection, options: Options, texts: dict[str, CardText]) -> list[Target]:
    """A player aid per variant and paper, keyed by what it prints (its sections), so a data
    change remakes an aid only when the aid's own content changes."""
    targets = []
    for variant in selection.chosen_variants():
        params = options.variant_params(variant)
        moved = texts[variant.name].moved() if variant.name in texts else ()
        content = aid_content(repo, variant.name, params, moved)
        layout_key = key(code_fingerprint(), "aid layout", variant.name, params, content)
        for paper in options.papers:
            rel = f"{variant.name}/player-aid{paper_suffix(paper)}.pdf"
            args = (repo, variant.name, params, paper, moved, layout_key)
            # one layout serves every paper: made ahead with the first paper's aid
            first = paper == options.papers[0]
            parts = ((makers.aid_layout, (repo, variant.name, params, moved, layout_key)),) if first else ()
            aid_key = key(code_fingerprint(), rel, params, content)
            targets.append(Target(rel, aid_key, makers.aid, args, reads_store=True, parts=parts))
    return targets


def aid_content(repo: Repository, variant: str, params: dict, moved: tuple = ()) -> str:
    """A hash of what an aid prints (its sections)."""
    import json

    from ..content.aids import aid

    return hashlib.sha256(
        json.dumps(aid(variant, repo, params, moved), default=_plain, sort_keys=True).encode()
    ).hexdigest()


def _plain(value: Any) -> Any:
    from dataclasses import is_dataclass

    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else str(value)


def sheet_targets(repo: Repository, selection: Selection, options: Options) -> list[Target]:
    """Rulers, boards and their posters, counters and calibration sheets: each keyed by the
    arguments that make it (they read no unit data). Each variant says which it has."""
    chosen = sorted(selection.chosen_variants(), key=lambda v: v.name)
    jobs: list[tuple[str, Callable[..., Any], tuple]] = []
    for paper in options.papers:
        jobs += _paper_sheets(chosen, options, paper)
    jobs += _posters(chosen, options)
    return [Target(rel, key(code_fingerprint(), rel, make.__name__, args), make, args) for rel, make, args in jobs]


def _smoke(variant: Variant, options: Options) -> tuple[float, str, str] | None:
    """The smoke templates a variant's counters carry (radius in inches, label, the page's heading)."""
    if variant.smoke_fn is None:
        return None
    return variant.smoke_fn(options.variant_params(variant))


def _paper_sheets(chosen: list[Variant], options: Options, paper: str) -> list[tuple[str, Callable[..., Any], tuple]]:
    sfx, profile, colour = paper_suffix(paper), options.profile, options.colour_maps
    jobs: list[tuple[str, Callable[..., Any], tuple]] = []
    for variant in chosen:
        params = options.variant_params(variant)
        if variant.rulers_fn is not None:
            jobs.append((f"{variant.name}/rulers{sfx}.pdf", makers.rulers, (variant, params, paper, profile)))
        sheet = variant.sheet(params)
        if sheet is not None:
            jobs.append((f"{variant.name}/{sheet.stem}{sfx}.pdf", makers.board_sheet, (sheet, paper, profile, colour)))
        if variant.has_own_counters:  # its own counters and templates, at its own scale
            args = (paper, _smoke(variant, options), profile, variant.markers)
            jobs.append((f"{variant.name}/counters{sfx}.pdf", makers.counters, args))
    jobs.append((f"counters{sfx}.pdf", makers.counters, (paper, None, profile, ())))  # the common ones
    jobs.append((f"calibration/duplex-{paper}.pdf", makers.calibration, (paper, profile)))
    jobs.append((f"calibration/duplex-{paper}-landscape.pdf", makers.calibration, (f"{paper}-bleed", profile)))
    return jobs


def _posters(chosen: list[Variant], options: Options) -> list[tuple[str, Callable[..., Any], tuple]]:
    """One true-size poster of each board, whatever the papers."""
    jobs: list[tuple[str, Callable[..., Any], tuple]] = []
    for variant in chosen:
        sheet = variant.sheet(options.variant_params(variant))
        if sheet is not None:
            args = (sheet, options.profile, options.colour_maps)
            jobs.append((f"{variant.name}/{sheet.stem}-poster.pdf", makers.board_poster, args))
    return jobs


def duplicate_paths(targets: list[Target]) -> list[str]:
    """Paths two targets would both write (two scenario ids whose files collide, say)."""
    seen: set[str] = set()
    twice = []
    for target in targets:
        if target.path in seen:
            twice.append(target.path)
        seen.add(target.path)
    return sorted(set(twice))
