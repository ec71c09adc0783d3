"""Card faces: a pure view model per adapted unit, HTML from jinja2, PDF from WeasyPrint.

The view model (:mod:`.card_view`) decides everything a card shows, :mod:`.card_fit` its
text size from the fonts' metrics, and the templates only lay it out; each card is laid
out once at its chosen size (tests check that nothing overflows and nothing is under 6 pt).
"""

from __future__ import annotations

import atexit
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from ..content.card_view import SIDE_LABELS, AttackRow, CardView
from ..content.card_view import card_view as build_view
from ..core import templating
from ..core.errors import WastoolsError
from ..core.model import Repository
from ..core.resources import TEMPLATES
from ..core.store import Store
from ..variants.base import AdaptedUnit, Variant
from . import card_body, card_fit, emblems, shared_fonts, sheets
from .libraries import load_weasyprint

CARD_DIR = TEMPLATES / "cards"


def environment() -> Environment:
    return templating.environment(CARD_DIR)  # made once per process there


def card_view(adapted: AdaptedUnit, variant: Variant, repo: Repository, body_max: float = card_fit.MAX_PT) -> CardView:
    """Everything one card shows, sized to fit with its body at most ``body_max`` (see
    card_view and card_fit)."""
    view = card_fit.apply(build_view(adapted, variant, repo), body_max)
    card_body.bring_back_what_fits(view)
    return view


def _context(view: CardView) -> dict[str, Any]:
    """The view plus the project's own marks (fixed SVG chosen by validated ids)."""
    context = view.as_dict()
    context.update(
        band_colour=emblems.nation_style(view.nation_id).band if view.side != "special" else "#555",
        emblem=emblems.emblem_svg(view.nation_id, 10) if view.side != "special" else Markup(""),
        type_icon=emblems.type_icon_svg(view.type_id, 8),
        side_label=SIDE_LABELS.get(view.side, "stat block"),
    )
    return context


# a line break with its indentation between two tags: template layout, never content (a
# space that matters is written on one line, and escaped values hold no "<" or ">")
_TEMPLATE_LAYOUT = re.compile(r">\s*\n\s*<")


def render_card_html(view: CardView) -> Markup:
    """A card face's HTML, without the templates' line breaks between tags: each would be a
    text node for WeasyPrint to parse and lay out (a tenth of a card's layout time)."""
    html = environment().get_template(view.template).render(card=_context(view))
    return Markup(_TEMPLATE_LAYOUT.sub("><", html))


def render_deck_html(cards: list[Markup], title: str, bleed: float = 0.0, layer: bool = False) -> str:
    """A document of card faces; ``layer``: drawn without their background and border, to go
    over their heads (see ``lay_out_cards``)."""
    return environment().get_template("deck.html.j2").render(cards=cards, title=title, bleed=bleed, layer=layer)


def render_back_html(variant: Variant) -> Markup:
    return Markup(
        environment()
        .get_template("back.html.j2")
        .render(
            title=variant.title,
            motif=emblems.back_motif_svg(variant.motif),
        )
    )


def overflows(page) -> bool:
    """True when a line of the card body runs below the body's space (into the footer) or
    a line anywhere runs past the card's right edge, where ``overflow: hidden`` would cut it."""
    from weasyprint.formatting_structure import boxes

    def walk(box):
        yield box
        for child in getattr(box, "children", ()):
            yield from walk(child)

    card = next((b for b in walk(page._page_box) if b.element_tag == "section"), None)
    if card is None:
        return False
    px = 4 / 3  # WeasyPrint lays out in CSS px
    right = card.border_box_x() + card_fit.CARD_W * px + 0.5
    bottom = card.border_box_y() + (card_fit.CARD_H - card_fit.BODY_BOTTOM) * px + 0.5
    body = next(
        (b for b in walk(card) if b.element is not None and "body" in (b.element.get("class") or "").split()), None
    )
    lines = [b for b in walk(card) if isinstance(b, boxes.LineBox)]
    if any(b.position_x + b.width > right for b in lines):
        return True
    return body is not None and any(
        b.position_y + b.height > bottom for b in walk(body) if isinstance(b, boxes.LineBox)
    )


# an attribute value holding a tab or a line break, which XML would read as spaces
_ATTRIBUTE_WHITESPACE = re.compile(r'="[^"<>]*[\t\n\r][^"<>]*"')


def parse_as_xml(html: str):
    """The element tree of a card document read as XML, which expat (C) does much faster
    than tinyhtml5 (pure Python) reads it as HTML. The card templates are written as
    well-formed XML that both read alike (explicit ``tbody`` and ``colgroup``, closed empty
    tags, no named entities; a test compares the trees).
    None when ``html`` is not such XML (a data value with a character XML forbids,
    say): the caller then lets tinyhtml5 read it."""
    import xml.etree.ElementTree as ET

    if _ATTRIBUTE_WHITESPACE.search(html):
        return None
    try:
        return ET.fromstring(html)
    except ET.ParseError:
        return None


@lru_cache(maxsize=2)
def _card_document_class(reference: bool = False):
    """The document class cards are laid out with: WeasyPrint's ``HTML`` read by expat when
    it can (``parse_as_xml``), with the cards' own short user-agent stylesheet (``ua.css``)
    in place of the HTML5 one. ``reference``: WeasyPrint's own ``HTML``, which tests compare
    it with."""
    import cssselect2
    from weasyprint import CSS, HTML

    if reference:
        return HTML
    sheet = CSS(string=(CARD_DIR / "ua.css").read_text(encoding="utf-8"))

    class CardDocument(HTML):
        def __init__(self, string: str, base_url: str, url_fetcher) -> None:
            tree = parse_as_xml(string)
            if tree is None:
                super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher)
                return
            # what HTML.__init__ sets once tinyhtml5 has read the string (a test holds them equal)
            self.base_url, self.url_fetcher, self.media_type = base_url, url_fetcher, "print"
            self.wrapper_element = cssselect2.ElementWrapper.from_html_root(tree, content_language=None)
            self.etree_element = self.wrapper_element.etree_element

        def _ua_stylesheets(self, forms: bool = False) -> list:
            return [sheet]

    return CardDocument


@lru_cache(maxsize=1)
def _card_stylesheet():
    """card.css parsed once per process, and the font configuration its ``@font-face`` fonts
    were loaded into. Linked from each card document, it would be parsed and its fonts
    loaded again for every document, which costs more than a card's layout."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    from .fetcher import ProjectFetcher

    fonts = FontConfiguration()
    # dropped before the interpreter tears its modules down, or FontConfiguration's clean-up
    # (removing its folder of fonts) fails with a message at exit
    atexit.register(_card_stylesheet.cache_clear)
    return CSS(url=(CARD_DIR / "card.css").as_uri(), url_fetcher=ProjectFetcher(), font_config=fonts), fonts


def _layout(html: str, reference: bool = False):
    """A WeasyPrint document of card pages, styled by card.css. ``reference``: read and styled
    the way WeasyPrint does by default (tinyhtml5, the full HTML5 user-agent stylesheet,
    card.css linked from the document), for tests to compare with."""
    from .fetcher import ProjectFetcher

    base_url = (CARD_DIR / "deck.html.j2").as_uri()
    document = _card_document_class(reference)
    if reference:
        linked = html.replace("<head>", '<head><link rel="stylesheet" href="card.css"/>', 1)
        return document(string=linked, base_url=base_url, url_fetcher=ProjectFetcher()).render()
    # card.css as a user stylesheet: below the document's own rules (a bleed's <style>, the
    # sizes in style attributes), as it was when linked; above the user-agent rules
    stylesheet, fonts = _card_stylesheet()
    return document(string=html, base_url=base_url, url_fetcher=ProjectFetcher()).render(
        stylesheets=[stylesheet], font_config=fonts
    )


def _smaller(card_html: str) -> str | None:
    """The same card with its body one step smaller, or None at the smallest size."""

    match = re.search(r'class="body" style="font-size: ([0-9.]+)pt', card_html)
    if match is None or float(match.group(1)) <= card_fit.MIN_PT:
        return None
    size = max(card_fit.MIN_PT, float(match.group(1)) - card_fit.STEP_PT)
    return card_html[: match.start(1)] + f"{size:g}" + card_html[match.end(1) :]


def lay_out_cards(cards: list[str], bleed: float = 0.0, count: bool = False, views: list | None = None):
    """Lay out cards (HTML sections), each at the size card_fit chose. Returns one single-page
    PDF per card, in order, whose card fonts have empty programs: it is read as text, or
    imposed on a sheet, which puts the fonts in (``shared_fonts``); with ``count``, also the
    number of WeasyPrint documents it took (``lay_out_faces`` says more)."""
    pages, documents, _head_keys = lay_out_faces(cards, bleed, views)
    return (pages, documents) if count else pages


def lay_out_faces(
    cards: list[str], bleed: float = 0.0, views: list | None = None, store: Store | None = None
) -> tuple[list[bytes], int, list[str | None]]:
    """``lay_out_cards``: each card's PDF, the WeasyPrint documents it took, and the key of
    each card's head (None for a face laid out whole).

    A card's head (band, title, points, stats) is the same in every variant of a unit, so it
    is laid out once and kept (in this process, and in ``store`` when given, where later
    builds find it); each card's body and foot are drawn by ``card_body`` from its view over
    the head, or laid out by WeasyPrint as a layer over it where ``card_body`` cannot draw
    them exactly. Faces without a body (backs) are laid out whole."""
    plans = {i: plan for i, html in enumerate(cards) if (plan := _plan(html, views[i] if views else None, bleed))}
    wanted = sorted({plan.head for plan in plans.values()})
    known = {h: pdf for h in wanted if (pdf := _known_head(h, bleed, store)) is not None}
    new = [h for h in wanted if h not in known]
    pdfs, documents = _fit_and_write(new, bleed, False, new)
    if len(_HEADS) + len(new) > _HEADS_KEPT:
        _HEADS.clear()
    for head, pdf in zip(new, pdfs, strict=True):
        _HEADS[(head, bleed)] = pdf
        if store is not None:
            store.put(HEAD, head_key(head, bleed), pdf)
    _HEADS.update({(h, bleed): pdf for h, pdf in known.items()})
    pages: list[bytes] = [b""] * len(cards)
    for i, plan in plans.items():
        if plan.body is not None:
            pages[i] = plan.compose(_HEADS[(plan.head, bleed)])
    layered = [i for i, plan in plans.items() if plan.body is None]
    laid_out, more = _fit_and_write([plans[i].layer for i in layered], bleed, True, [cards[i] for i in layered])
    for i, pdf in zip(layered, laid_out, strict=True):
        pages[i] = plans[i].compose(_HEADS[(plans[i].head, bleed)], pdf)
    whole = [i for i in range(len(cards)) if i not in plans]
    laid_out, most = _fit_and_write([cards[i] for i in whole], bleed, False, [cards[i] for i in whole])
    for i, pdf in zip(whole, laid_out, strict=True):
        pages[i] = pdf
    documents += more + most
    return pages, documents, [plans[i].head_key if i in plans else None for i in range(len(cards))]


HEAD = "card-head"  # the store's kind for a laid-out head


def warm(full: bool = False) -> None:
    """What most jobs need once per process: pikepdf and the card fonts' metrics (a worker
    does it as it starts); ``full``: WeasyPrint and the card stylesheet too, which a job that
    lays out cards, heads or briefings needs (else the first such job loads them). Loading
    WeasyPrint in every worker was half the CPU of a one-unit edit that needs none."""
    import pikepdf  # noqa: F401

    if full:
        load_weasyprint()
        _card_stylesheet()
    card_body.warm()


def head_key(head_html: str, bleed: float) -> str:
    from ..core.fingerprints import code_fingerprint, key

    return key(code_fingerprint(), "card head", bleed, head_html)


@dataclass(frozen=True)
class _Plan:
    """How one face is made: its head's HTML, its layer (body and foot), and the body as
    ``card_body`` draws it over the head (None when WeasyPrint lays it out instead)."""

    head: str
    layer: str
    body: tuple[bytes, set[str]] | None
    bleed: float

    @property
    def head_key(self) -> str:
        return head_key(self.head, self.bleed)

    def compose(self, head: bytes, layer: bytes | None = None) -> bytes:
        """The face's PDF over ``head``: with the drawn body, or with ``layer`` (the body
        laid out by WeasyPrint) when the body is not drawn."""
        if self.body is not None:
            content, files = self.body
            return _compose_drawn(head, content, files)
        assert layer is not None
        return _compose(head, layer)


def _plan(card_html: str, view, bleed: float) -> _Plan | None:
    """None for a face laid out whole (a back)."""
    split = _split(card_html)
    if split is None:
        return None
    head, layer = split
    body = card_body.draw(view, bleed) if view is not None else None
    return _Plan(head, layer, body, bleed)


def _known_head(head: str, bleed: float, store: Store | None) -> bytes | None:
    """A head laid out before: in this process, or kept in the store (checked whole: a damaged
    entry is laid out again)."""
    pdf = _HEADS.get((head, bleed))
    if pdf is not None or store is None:
        return pdf
    pdf = store.get(HEAD, head_key(head, bleed))
    if pdf is None or not _readable(pdf):
        return None
    _HEADS[(head, bleed)] = pdf
    return pdf


def _readable(pdf: bytes) -> bool:
    import pikepdf

    try:
        with pikepdf.open(io.BytesIO(pdf)) as document:
            return len(document.pages) == 1
    except (pikepdf.PdfError, ValueError):
        return False


# the heads laid out in this process, by (HTML, bleed): 1,000 heads are a few MB
_HEADS: dict[tuple[str, float], bytes] = {}
_HEADS_KEPT = 1000
_BODY = '<div class="body"'
_HEAD_FORM = "/WastoolsCardHead"  # the name of a card's head in its page's resources


def _split(card_html: str) -> tuple[str, str] | None:
    """A card face as its head (its section with everything above the body: band, title,
    points, stats) and its layer (the same section with the body and the foot, which names
    the variant). None for a face without a body (a back). Data never makes a ``<div``: it
    is escaped."""
    section, body = card_html.find("<section"), card_html.find(_BODY)
    if section < 0 or body < 0 or card_html.count(_BODY) != 1:
        return None
    opened, closed = card_html.index(">", section) + 1, card_html.rindex("</section>")
    return card_html[:body] + card_html[closed:], card_html[:opened] + card_html[body:]


def _compose(head: bytes, layer: bytes) -> bytes:
    """One card's PDF: its layer's page, drawing the head's page first. The head's drawing
    goes into the page's own content, its resources into the page's, each card font as its
    file's one dictionary (``shared_fonts.leave_out``), so a card has the objects it had when
    laid out whole (a deck joins as fast). Where a name would stand for two different things
    (a fallback font subset differently for the name and for an ability), the head is drawn
    as a form instead."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(layer)) as pdf, pikepdf.open(io.BytesIO(head)) as under:
        page = pdf.pages[0]
        form = pdf.copy_foreign(under.pages[0].as_form_xobject())
        shared_fonts.leave_out(pdf, [page.obj, form])
        if _merge_resources(page.obj.Resources, form.Resources):
            page.contents_add(b"q\n" + form.read_bytes() + b"\nQ\n", prepend=True)
            page.contents_coalesce()
        else:
            page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name(_HEAD_FORM))
            page.contents_add(f"q {_HEAD_FORM} Do Q\n".encode("ascii"), prepend=True)
        return sheets.pdf_bytes(pdf)


def _compose_drawn(head: bytes, body: bytes, files: set[str]) -> bytes:
    """One card's PDF: its head's page, with the body and foot ``card_body`` drew after it,
    in the card fonts' one dictionary per file (``shared_fonts.leave_out``)."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(head)) as pdf:
        page = pdf.pages[0]
        card_body.name_fonts(page.obj.Resources, shared_fonts.leave_out(pdf, [page.obj], also=files), files)
        page.contents_add(b"q\n", prepend=True)
        page.contents_add(b"\nQ\n" + body)
        page.contents_coalesce()
        return sheets.pdf_bytes(pdf)


def _merge_resources(into, other) -> bool:
    """Add ``other``'s named resources to ``into``; False, changing nothing, when a name is in
    both for different things (the same object, or equal direct values, are the same thing)."""
    import pikepdf

    def same(a, b) -> bool:
        if a.is_indirect or b.is_indirect:
            return a.is_indirect and b.is_indirect and a.objgen == b.objgen
        return a.unparse() == b.unparse()

    kinds = [kind for kind in other.keys() if kind != "/ProcSet"]
    for kind in kinds:
        ours = into.get(kind)
        if ours is not None and not isinstance(ours, pikepdf.Dictionary):
            return False
        if ours is not None and any(
            name in ours and not same(ours[name], other[kind][name]) for name in other[kind].keys()
        ):
            return False
    for kind in kinds:
        if kind not in into:
            into[kind] = pikepdf.Dictionary()
        for name in other[kind].keys():
            if name not in into[kind]:
                into[kind][name] = other[kind][name]
    return True


def _fit_and_write(htmls: list[str], bleed: float, layer: bool, faces: list[str]) -> tuple[list[bytes], int]:
    """Lay out card HTML in one WeasyPrint document (``layer``: as layers, without the
    card's background and border); a card the layout finds overflowing (rare: card_fit's
    estimate is conservative) is laid out again one step smaller, together with any others,
    in one more document. Returns each one's single-page PDF, and the documents it took.
    ``faces``: each one's whole face, which an error names."""
    pages: list[bytes | None] = [None] * len(htmls)
    documents = 0
    todo = list(range(len(htmls)))
    htmls = list(htmls)
    while todo:
        document = _layout(render_deck_html([Markup(htmls[i]) for i in todo], "cards", bleed, layer))
        documents += 1
        if len(document.pages) != len(todo):
            raise RuntimeError(f"expected {len(todo)} card pages, got {len(document.pages)}")
        again = []
        for i, page in zip(todo, document.pages, strict=True):
            too_big = overflows(page)
            smaller = (_smaller(htmls[i]) or _compacted(htmls[i])) if too_big else None
            if too_big and smaller is None:
                raise CardOverflow("a card's text does not fit even at the smallest size: " + _card_name(faces[i]))
            if smaller is None:
                # each page written on its own: a card's bytes do not depend on the cards laid
                # out with it (a one-card rebuild equals a cold one); without the card fonts'
                # programs, which the sheets holding it put in once (shared_fonts)
                with shared_fonts.programs_left_out():
                    pages[i] = document.copy([page]).write_pdf()
            else:
                htmls[i] = smaller
                again.append(i)
        todo = again
    return [p for p in pages if p is not None], documents


# an ability whose text is in the player aid, as _text.html.j2 writes it (names are escaped)
_REFERENCE_LINE = re.compile(r"<div><b>([^<]*)</b> – " + card_fit.REFERENCE + "</div>")


def _compacted(card_html: str) -> str | None:
    """The same card with the abilities that only point to the player aid on one line
    ("Slow 1, Heavy Antiair – see the player aid"): the last resort of a card too tall at the
    smallest size with every ability text in the aid. None when there is nothing to join."""
    names = _REFERENCE_LINE.findall(card_html)
    if len(names) < 2:
        return None
    first = _REFERENCE_LINE.search(card_html)
    assert first is not None
    joined = f"<div><b>{', '.join(names)}</b> – {card_fit.REFERENCE}</div>"
    rest = _REFERENCE_LINE.sub("", card_html[first.end() :])
    return card_html[: first.start()] + joined + rest


class CardOverflow(WastoolsError, RuntimeError):
    """A card whose text does not fit at 6 pt even with its ability texts in the aid."""


def _card_name(card_html: str) -> str:
    import html

    match = re.search(r'<div class="name[^"]*"[^>]*>(.*?)</div>', card_html, re.DOTALL)
    return html.unescape(match.group(1)) if match else card_html[:80]


@dataclass(frozen=True)
class StatBlock:
    """A scenario stat block drawn as a card (air base, shore battery, garrison)."""

    title: str
    kind: str
    stats: tuple[tuple[str, Any], ...]
    gunnery: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""


STAT_LABELS = {
    "armor": "Armor",
    "vital": "Vital Armor",
    "hull": "Hull",
    "hit points": "Hit Points",
    "anti-air": "Antiair",
    "squadrons": "Squadrons",
    "units": "Units",
}


def statblock_view(block: StatBlock, variant: Variant, body_max: float = card_fit.MAX_PT) -> CardView:
    rows = []
    if block.gunnery:
        rows.append(AttackRow("Gunnery", [{"dice": d, "reach": None, "mark": ""} for d in block.gunnery]))
    view = CardView(
        template="statblock.html.j2",
        name=block.title,
        side="special",
        nation_id="",
        nation="Scenario",
        type_id="auxiliary",
        type_label=block.kind.capitalize(),
        year=None,
        class_name=None,
        points=None,
        stats=[(STAT_LABELS.get(label, label.title()), str(value)) for label, value in block.stats],
        movement_label="Move",
        movement="none: it stays where it is placed",
        distance_unit="sectors",
        bands=list(range(len(block.gunnery))) or [0],
        reach_header=None,
        attack_rows=rows,
        notation=False,
        rules=[("Rule", note) for note in block.notes],
        abilities=[],
        footnotes=[],
        footer_left=block.source,
        footer_right=variant.short,
        variant=variant.name,
    )
    return card_fit.apply(view, body_max)


def large_map_stat_blocks() -> list[StatBlock]:
    """Seed 000's typical air base, shore batteries and garrison as cards."""
    from ..variants import large_map as lm

    source = "typical values, large map house rules"
    return [
        StatBlock(
            "Island Air Base",
            "air base",
            (
                ("armor", lm.AIR_BASE["armor"]),
                ("hit points", lm.AIR_BASE["hull"]),
                ("anti-air", lm.AIR_BASE["anti_air"]),
                ("squadrons", lm.AIR_BASE["capacity"]),
            ),
            notes=(
                "inoperable at half its hit points: no take-off or landing",
                "repairs 1 point a turn when not attacked and unused",
                "a co-located battery's AA replaces its own",
            ),
            source=source,
        ),
        StatBlock(
            "Heavy Shore Battery",
            "shore battery",
            (
                ("armor", lm.HEAVY_BATTERY["armor"]),
                ("hit points", lm.HEAVY_BATTERY["hull"]),
                ("anti-air", lm.HEAVY_BATTERY["anti_air"]),
            ),
            gunnery=lm.HEAVY_BATTERY["gunnery"],
            notes=(
                "each point of damage: 1 die less the next turn",
                "an immobile ship with the arc of fire the terrain allows",
            ),
            source=source,
        ),
        StatBlock(
            "Light Shore Battery",
            "shore battery",
            (
                ("armor", lm.LIGHT_BATTERY["armor"]),
                ("hit points", lm.LIGHT_BATTERY["hull"]),
                ("anti-air", lm.LIGHT_BATTERY["anti_air"]),
            ),
            gunnery=lm.LIGHT_BATTERY["gunnery"],
            notes=("each point of damage: 1 die less the next turn",),
            source=source,
        ),
        StatBlock(
            "Island Garrison",
            "garrison",
            (
                ("armor", lm.GARRISON["armor"]),
                ("hit points", lm.GARRISON["hull"]),
                ("anti-air", lm.GARRISON["anti_air"]),
                ("units", "1-3"),
            ),
            notes=(
                "invaders need 2 to 1 odds in landed transports (1 unit each)",
                "reduce it with ships and aircraft first",
            ),
            source=source,
        ),
    ]
