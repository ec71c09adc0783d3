"""Fleet rosters: the YAML file the fleet builder downloads, checked and printed as a deck.

``wastools build --roster FILE`` reads the roster (schema ``schemas/roster.schema.json``,
and what the code relies on checked again whatever the schema says (``roster_checks``):
every unit exists, at most ``MAX_CARDS`` cards), then writes
``build/rosters/<file name>.pdf`` (and ``-a4``): a first page with the fleet and its
legality under every variant's fleet rules, then exactly the roster's cards, each as
many times as its count, imposed like the decks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from markupsafe import Markup

from ..core import templating
from ..core.model import Repository, Unit
from ..core.problems import DataError, Problem, display_path, format_field
from ..core.resources import PACKAGE, TEMPLATES
from ..core.store import Store
from ..data.yamlio import DEFAULT_LIMITS, Document, Limits, load_document, read_limited
from ..variants import VARIANTS, capped_titles
from ..variants.fleet import FleetCheck, check_fleet
from .data import type_label
from .roster_checks import field_problems
from .roster_text import is_fleet_text, read_fleet_text, unit_code

MAX_CARDS = 300  # a roster is a fleet, not a print run: this keeps a hostile file from filling memory
SCHEMA = "roster.schema.json"
REPORT_TEMPLATE = "roster-report.html.j2"


@dataclass(frozen=True)
class Roster:
    name: str
    variant: str
    points_limit: int
    entries: tuple[tuple[Unit, int], ...]
    stem: str

    @property
    def cards(self) -> int:
        return sum(n for _u, n in self.entries)

    @property
    def points(self) -> int:
        return sum(u.points * n for u, n in self.entries)

    def checks(self) -> list[tuple[str, str, FleetCheck]]:
        """(variant name, title, verdict) for every variant, the roster's own first."""
        names = [self.variant] + [n for n in VARIANTS if n != self.variant]
        return [(n, VARIANTS[n].title, check_fleet(VARIANTS[n], list(self.entries), self.points_limit)) for n in names]


def _schema(root: Path) -> Draft202012Validator:
    """The roster schema of the repository (or of the project's checkout, when the repository
    has none), resolved only within its schemas; raises ``DataError`` when it cannot be used."""
    from ..data.repository.schema import named_validator, schema_validator

    if not (root / "schemas" / SCHEMA).exists():
        return schema_validator(PACKAGE.parent / "schemas" / SCHEMA)  # a checkout of the project
    return named_validator(root, SCHEMA)


def _located(doc: Document, error) -> list[Problem]:
    parts = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        return [
            Problem(doc.path, *doc.key_position(parts, key), format_field(parts + [key]), f"unknown field {key!r}")
            for key in error.instance
            if key not in allowed
        ]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        return [Problem(doc.path, *doc.position(parts), format_field(parts + [missing]), "required field is missing")]
    from ..data.repository.schema import message_of

    return [doc.problem(parts, message_of(error))]


def load_roster(path: Path, repo: Repository, root: Path, limits: Limits = DEFAULT_LIMITS) -> Roster:
    """The checked roster (a roster file, or a fleet as the fleet builder copies it as text,
    Markdown or BBCode); raises :class:`DataError` with every located problem."""
    shown = display_path(path, root)
    raw, _refused = read_limited(path, limits)
    text = _utf8(raw) if raw is not None else ""
    if is_fleet_text(text):
        return _text_roster(text, shown, repo, path.stem)
    doc, problems = load_document(path, shown, limits)
    if doc is None:
        raise DataError(problems)
    if not isinstance(doc.data, dict):
        raise DataError([Problem(shown, 1, 1, "", "expected a mapping of fields at the top level")])
    from ..data.repository.patterns import pattern_budget

    found: list[Problem] = []
    with pattern_budget():
        for error in _schema(root).iter_errors(doc.data):
            found.extend(_located(doc, error))
    reported = {p.field for p in found}  # the schema's message, where it has one, not the code's too
    problems += found + [p for p in field_problems(doc, MAX_CARDS) if p.field not in reported]
    entries: dict[str, list] = {}
    given = doc.data.get("units")
    items: list = given if isinstance(given, list) else []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("unit"), str):
            continue  # field_problems has said what is wrong with it
        unit = repo.units.get(item["unit"])
        if unit is None:
            close = [u for u in repo.units if item["unit"].split("-")[0] in u][:3]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            problems.append(doc.problem(["units", i, "unit"], f"no unit with id {item['unit']!r}{hint}"))
            continue
        count = item.get("count", 1)
        entries.setdefault(unit.id, [unit, 0])[1] += (
            count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
        )
    total = sum(n for _u, n in entries.values())
    if total > MAX_CARDS:
        problems.append(doc.problem(["units"], f"{total} cards is more than a roster may print ({MAX_CARDS})"))
    if problems:
        raise DataError(problems)
    data = doc.data
    return Roster(
        data["name"], data["variant"], data["points_limit"], tuple((u, n) for u, n in entries.values()), path.stem
    )


def _utf8(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ""  # not a fleet text: the YAML reader says where the file is not UTF-8


def _text_roster(text: str, shown: str, repo: Repository, stem: str) -> Roster:
    fields, entries, problems = read_fleet_text(text, shown, repo)
    total = sum(n for _u, n in entries)
    if total > MAX_CARDS:
        problems.append(Problem(shown, 1, 1, "", f"{total} cards is more than a roster may print ({MAX_CARDS})"))
    if problems:
        raise DataError(problems)
    return Roster(fields["name"], fields["variant"], fields["points_limit"], tuple(entries), stem)


# --- the deck --------------------------------------------------------------------------------


def fleet_link(roster: Roster, address: str, ids: frozenset[str] | set[str] = frozenset()) -> str:
    """The fleet builder's address of this fleet on the published site, as fleet-core.js's
    ``fleetLink`` writes one: the fleet as its compact code (``c=1.CODE:N...``) when no two
    of the site's units ``ids`` share a code of the fleet's, else as ``fleet=ID:N,...``."""
    from urllib.parse import quote_plus, urlencode

    rest = [("name", roster.name), ("limit", str(roster.points_limit)), ("deck", roster.variant)]
    taken = Counter(unit_code(i) for i in ids)
    parts = [(unit_code(u.id), n) for u, n in roster.entries]
    if ids and all(taken[c] == 1 for c, _n in parts):
        code = ".".join(["1"] + [c + (f":{n}" if n > 1 else "") for c, n in parts])
        query = "c=" + code + "&" + urlencode(rest, quote_via=quote_plus)
    else:
        pairs = [("fleet", ",".join(f"{u.id}:{n}" for u, n in roster.entries)), *rest]
        query = urlencode(pairs, quote_via=quote_plus).replace("%3A", ":").replace("%2C", ",")
    return address.rstrip("/") + "/fleet.html#" + query


QR_MODULE = 1.5  # points: the narrowest module printed, 3 pixels at 150 dpi


def qr_svg(text: str) -> tuple[Markup, float] | None:
    """A QR code of ``text`` as inline SVG (segno: numbers and paths only) and its width in
    points (no module under ``QR_MODULE``, 90 pt at least), or None when the text is too
    long for one. A fleet code is written in the alphanumeric mode, the rest as bytes."""
    import re

    import segno
    from segno import DataOverflowError
    from segno.consts import MODE_ALPHANUMERIC, MODE_BYTE

    segments, at = [], 0
    for run in re.finditer(r"[0-9A-Z.:-]{16,}", text):
        segments += [(text[at : run.start()], MODE_BYTE)] if run.start() > at else []
        segments.append((run.group(), MODE_ALPHANUMERIC))
        at = run.end()
    segments += [(text[at:], MODE_BYTE)] if at < len(text) or not segments else []
    try:
        # segno's stubs name one string, but make() takes a list of (content, mode) segments
        # (segno.encoder.prepare_data documents it)
        code = segno.make(segments, error="m", micro=False)  # type: ignore[arg-type]
    except DataOverflowError:
        return None
    svg = Markup(code.svg_inline(scale=1, border=4, omitsize=True, svgclass="qr", lineclass="qrline"))
    return svg, max(90.0, code.symbol_size(border=4)[0] * QR_MODULE)


def report_view(roster: Roster, repo: Repository, address: str = "") -> dict[str, Any]:
    rows = [
        {
            "name": u.name,
            "nation": repo.nations[u.nation].name if u.nation in repo.nations else u.nation,
            "type": type_label(u.type),
            "count": n,
            "points": u.points * n,
        }
        for u, n in roster.entries
    ]
    link = fleet_link(roster, address, frozenset(repo.units)) if address else ""
    qr = qr_svg(link) if address else None
    checks = []
    for name, title, check in roster.checks():
        verdict = (
            f"legal: {check.points} of {check.effective_limit}"
            + (f" ({'; '.join(check.notes)})" if check.notes else "")
            if check.legal
            else "not legal: " + "; ".join(check.problems)
        )
        checks.append(
            {"name": name, "title": title, "legal": check.legal, "verdict": verdict, "chosen": name == roster.variant}
        )
    return {
        "name": roster.name,
        "variant": VARIANTS[roster.variant].title,
        "limit": roster.points_limit,
        "rows": rows,
        "cards": roster.cards,
        "points": roster.points,
        "checks": checks,
        "capped": capped_titles(),
        "link": link,
        "qr": qr[0] if qr else None,
        "qr_size": qr[1] if qr else 0,
    }


def report_pdf(roster: Roster, repo: Repository, paper: str, address: str = "") -> bytes:
    """The roster's first page: its units, totals and the verdict of every variant's fleet
    rules, with the check bars of every sheet (the template's margins leave room for them)."""
    from weasyprint import HTML

    from ..render.fetcher import ProjectFetcher
    from ..render.pages import with_check_bars
    from ..render.scenario_pack import PAGE_SIZES

    env = templating.environment(TEMPLATES / "site")
    html = env.get_template(REPORT_TEMPLATE).render(r=report_view(roster, repo, address), page=PAGE_SIZES[paper])
    pdf = HTML(
        string=html, base_url=(TEMPLATES / "site" / REPORT_TEMPLATE).as_uri(), url_fetcher=ProjectFetcher()
    ).write_pdf()
    return with_check_bars(pdf)[0]  # like every printed sheet: a horizontal and a vertical bar in the margins


def roster_output(roster: Roster, paper: str, options=None, variant: str | None = None) -> str:
    """``rosters/<file name>[-<variant>][-a4][-bleed][-duplex].pdf``: the variant only when it is
    not the roster's own, the other parts as the decks name them."""
    from ..pipeline.selection import paper_suffix

    own = "" if variant in (None, roster.variant) else f"-{variant}"
    extra = ("-bleed" if options is not None and options.bleed else "") + (
        "-duplex" if options is not None and options.backs else ""
    )
    return f"rosters/{roster.stem}{own}{paper_suffix(paper)}{extra}.pdf"


def roster_faces(
    repo: Repository, roster: Roster, options, bleed: float, store: Store, per_sheet: int = 0
) -> tuple[list[bytes], bytes]:
    """The PDF of each of the roster's cards and of its deck's back, for the roster's variant
    and ``options``' parameters; made into the store where not there yet. One a unit, in
    order; with ``per_sheet``, every card as many times as its count, each sheet of that many
    at one body size (``one_size_a_sheet``)."""
    from ..pipeline import Pool, deck_cards, make_faces
    from ..pipeline.cards import face, fixed_card, missing_faces, one_size_a_sheet
    from ..render import cards as card_render

    variant = VARIANTS[roster.variant]
    params = options.variant_params(variant)
    specs = deck_cards(repo, variant, params, [u for u, _n in roster.entries], stat_blocks=False, bleed=bleed)
    if per_sheet:
        dealt = [spec for spec, (_u, n) in zip(specs, roster.entries, strict=True) for _ in range(n)]
        specs = one_size_a_sheet(store, dealt, per_sheet)
    back = fixed_card(str(card_render.render_back_html(variant)), bleed)
    with Pool(options.jobs) as pool:  # starts only if a card is missing
        for _done in make_faces(store, pool, missing_faces(store, [*specs, back])):
            pass
    return [face(store, spec.key) for spec in specs], face(store, back.key)


def build_roster(
    repo: Repository, root: Path, out: Path, roster: Roster, options, store: Store, variant: str | None = None
) -> list[str]:
    """Write the roster's deck for each paper of ``options`` (its bleed, backs and printer
    profile as a deck's), in ``variant``'s cards when given (else the roster's own);
    returns the paths written."""
    import dataclasses

    from ..pipeline.output import OutputFolder
    from ..pipeline.selection import card_bleed, layout_name
    from ..render import sheets
    from . import site_address

    printed = dataclasses.replace(roster, variant=variant or roster.variant)
    title_variant = VARIANTS[printed.variant]
    per_sheet = {len(sheets.load_layout(layout_name(paper, options))["slots"]) for paper in options.papers}
    if len(per_sheet) == 1:  # each sheet at one body size
        dealt, back = roster_faces(repo, printed, options, card_bleed(options), store, *per_sheet)
    else:  # papers of another number of cards a sheet: each card at its own size
        faces, back = roster_faces(repo, printed, options, card_bleed(options), store)
        dealt = [face for face, (_u, n) in zip(faces, printed.entries, strict=True) for _ in range(n)]
    written = []
    with OutputFolder(out) as folder:
        for paper in options.papers:
            rel = roster_output(roster, paper, options, printed.variant)
            title = f"{roster.name}: {title_variant.title} cards ({paper})"
            layout = sheets.load_layout(layout_name(paper, options))
            deck, _pages = sheets.impose(dealt, layout, title, options.profile, back if options.backs else None, rel)
            report = report_pdf(printed, repo, paper, site_address(root))
            folder.write(rel, sheets.assemble([report, deck], title, rel)[0])
            written.append(rel)
    return written
