"""What makes each kind of output: functions a worker runs, each returning the output's
bytes and its number of pages. They read card faces and keep parts (a deck's sheets, a
pack's briefing and map) through the store, so a one-unit change remakes only what it
touches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core.fingerprints import code_fingerprint, key
from ..core.model import Repository
from ..core.store import Store
from ..render import pdf_parts, sheets
from ..variants import BoardSheet, Variant
from .cards import face

SHEET, PART, LAYOUT = "sheet", "part", "layout"  # LAYOUT: a document laid out once for both papers


@dataclass(frozen=True)
class SheetPlan:
    """One sheet of a deck: its key (everything it prints), the cards on it and its margin."""

    key: str
    cards: tuple[str, ...]  # card keys
    back: str | None  # the back's card key, when backs are printed
    layout_name: str
    label: str
    profile: sheets.PrinterProfile


def remembered(store: Store, inputs: tuple, make: Callable[[], bytes]) -> pdf_parts.Part:
    """A part of an output kept in the store under everything that makes it (their reprs and
    the code): read when there, else made and kept. The store checks what it returns, so
    its parts are read without the token check (``pdf_parts.read_part``)."""
    part_key = key(code_fingerprint(), [repr(i) for i in inputs])
    try:
        return pdf_parts.read_part(kept(store, PART, part_key, make), trusted=True)
    except pdf_parts.BadPart:  # whole, as the store checked, but not a part: made again
        data = make()
        store.put(PART, part_key, data)
        return pdf_parts.read_part(data, trusted=True)


def _sheet(store: Store, plan: SheetPlan) -> pdf_parts.Part:
    data = store.get(SHEET, plan.key)
    if data is not None:
        try:
            return pdf_parts.read_part(data, trusted=True)
        except pdf_parts.BadPart:
            pass
    back = face(store, plan.back) if plan.back else None
    layout = sheets.shared_layout(plan.layout_name)
    part = sheets.sheet_part([face(store, k) for k in plan.cards], layout, plan.label, plan.profile, back)
    store.put(SHEET, plan.key, part.to_bytes())
    return part


def deck(store: Store, plans: list[SheetPlan], title: str, doc_id: str) -> tuple[bytes, int]:
    """A deck joined from its sheets, each imposed only when the store does not hold it."""
    return sheets.assemble([_sheet(store, plan) for plan in plans], title, doc_id)


def scenario_pack(
    store: Store, scenario, plans: list[SheetPlan], paper: str, profile, doc_id: str, colour: bool
) -> tuple[bytes, int]:
    """A scenario's pack, its card sheets kept and read back as a deck's are."""
    from ..render.scenario_pack import scenario_pack_pdf

    cards = [_sheet(store, plan) for plan in plans]
    remember = lambda inputs, make: remembered(store, inputs, make)  # noqa: E731
    laid_out = briefing(store, scenario)
    return scenario_pack_pdf(scenario, cards, paper, profile, doc_id, colour, remember, laid_out)


def kept(store: Store, kind: str, entry_key: str, make: Callable[[], bytes]) -> bytes:
    """What the store keeps under ``kind``/``entry_key``; made and kept when it holds nothing
    there (or something damaged, which it reads as nothing)."""
    data = store.get(kind, entry_key)
    if data is None:
        data = make()
        store.put(kind, entry_key, data)
    return data


def briefing(store: Store, scenario) -> bytes:
    """A scenario's briefing laid out, kept under what it shows (it shows no card face)."""
    from ..render.scenario_pack import briefing_inputs, briefing_layout

    layout_key = key(code_fingerprint(), [repr(i) for i in briefing_inputs(scenario)])
    return kept(store, LAYOUT, layout_key, lambda: briefing_layout(scenario))


def aid_layout(store: Store, repo: Repository, variant: str, params: dict, moved: tuple, layout_key: str) -> bytes:
    """A player aid laid out, kept under ``layout_key`` (its content: ``plan.aid_targets``)."""
    from ..render import aid

    return kept(store, LAYOUT, layout_key, lambda: aid.aid_layout(variant, repo, params, moved))


def aid(
    store: Store, repo: Repository, variant: str, params: dict, paper: str, moved: tuple, layout_key: str
) -> tuple[bytes, int]:
    from ..render.aid import aid_pdf

    laid_out = aid_layout(store, repo, variant, params, moved, layout_key)
    return aid_pdf(variant, repo, params, paper, f"aid:{variant}:{paper}", moved, laid_out)


def rulers(variant: Variant, params: dict, paper: str, profile) -> tuple[bytes, int]:
    from ..render.rulers import rulers_pdf

    return rulers_pdf(variant.rulers(params), paper, f"{variant.title}: range rulers ({paper})", profile)


def board_sheet(sheet: BoardSheet, paper: str, profile, colour: bool) -> tuple[bytes, int]:
    """A variant's own board (``Variant.sheet``), tiled over ``paper``."""
    from ..render.maps import board_map, map_pdf

    spec = board_map(f"{sheet.title} ({paper})", sheet.board, sheet.columns, sheet.rows)
    return map_pdf(spec, paper, profile, colour=colour)


def board_poster(sheet: BoardSheet, profile, colour: bool) -> tuple[bytes, int]:
    from ..render.maps import board_map, poster_pdf

    return poster_pdf(board_map(sheet.title, sheet.board, sheet.columns, sheet.rows), profile, colour)


def scenario_poster(scenario, profile, colour: bool) -> tuple[bytes, int]:
    from ..render.maps import poster_pdf
    from ..render.scenario_pack import scenario_map

    return poster_pdf(scenario_map(scenario), profile, colour)


def counters(paper: str, smoke: tuple[float, str, str] | None, profile, markers: tuple = ()) -> tuple[bytes, int]:
    from ..render.counters import counters_pdf

    return counters_pdf(paper, smoke, profile, markers)


def calibration(layout: str, profile) -> tuple[bytes, int]:
    """The duplex calibration sheet of a layout: ``letter``, or ``letter-bleed`` for the landscape one."""
    from ..render.calibration import calibration_pdf

    return calibration_pdf(sheets.load_layout(layout), profile)


STAGES = {  # what the build report and `make bench` call each kind of job
    deck: "deck assembly",
    scenario_pack: "scenario packs",
    calibration: "calibration sheets",
    rulers: "rulers",
    counters: "counters",
    board_sheet: "maps",
    board_poster: "map posters",
    scenario_poster: "map posters",
    aid: "player aids",
}
