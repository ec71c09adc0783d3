"""Card faces measured in their PDFs: text size, fill, wording, the attack-table header,
and one layout per card. The units are the densest of the data (long names, Extended
Range and Long Shot, carriers, aircraft with several abilities) plus a plain destroyer."""

from __future__ import annotations

import io
import re
from itertools import pairwise

import pdfplumber
import pytest
from markupsafe import Markup

from wastools.content import card_view
from wastools.core import wording
from wastools.render import card_fit, cards
from wastools.variants import VARIANTS

pytestmark = pytest.mark.slow
DENSE = (
    "gneisenau",
    "akagi",
    "hatsukaze",
    "camicia-nere",
    "a6m2-zero-kamikaze",
    "beaufighter-tf-mk-x",
    "yamato",
    "bismarck",
    "uss-enterprise-cv-6",
    "hms-cossack",
    "i-19",
    "pby-catalina",
)
HAS_SECTORS = {"standard", "large-map", "tabletop-cm", "tabletop-inches"}


@pytest.fixture(scope="module")
def decks(repo):
    """Per variant: (views, one single-page PDF per card), laid out as the build does."""
    out = {}
    for name, variant in VARIANTS.items():
        units = [repo.units[u] for u in DENSE if u in repo.units]
        views = [cards.card_view(variant.adapt(u, variant.defaults()), variant, repo) for u in units]
        views += [cards.card_view(variant.adapt(u, variant.defaults(), True), variant, repo) for u in units[:3]]
        out[name] = (views, cards.lay_out_cards([str(cards.render_card_html(v)) for v in views], views=views))
    return out


def _chars(pdf: bytes):
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        return page, list(page.chars)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_no_character_on_a_card_is_under_6_pt(decks, variant):
    views, pdfs = decks[variant]
    for view, pdf in zip(views, pdfs, strict=True):
        page, chars = _chars(pdf)
        assert (page.width, page.height) == (180, 252)
        small = [(c["text"], round(c["size"], 2)) for c in chars if c["size"] < 6 - 1e-6]
        assert not small, (variant, view.name, small[:5])


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_body_fills_the_card_down_to_the_footer(decks, variant):
    views, pdfs = decks[variant]
    for view, pdf in zip(views, pdfs, strict=True):
        _page, chars = _chars(pdf)
        footer_top = 252 - 5 - 6 * 1.2 - 2
        body = [c for c in chars if card_fit.BODY_TOP - 1 < c["top"] < footer_top - 0.5]
        assert body, view.name
        lowest = max(c["bottom"] for c in body)
        # the last line of the body ends within 1.4 lines of the space above the footer,
        # or the body is at its largest size with its widest gaps
        fills = lowest >= 252 - card_fit.BODY_BOTTOM - 1.4 * view.size_pt * card_fit.LINE - 6
        at_most = view.size_pt == card_fit.MAX_PT and view.gap_pt >= card_fit.MAX_GAP * view.size_pt - 0.01
        assert fills or at_most, (variant, view.name, round(lowest, 1), view.size_pt, view.gap_pt)
        assert lowest <= 252 - card_fit.BODY_BOTTOM + 1.5, (variant, view.name, "runs into the footer")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_card_wording_reads_as_a_person_wrote_it(decks, variant):
    views, pdfs = decks[variant]
    for view, pdf in zip(views, pdfs, strict=True):
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            text = doc.pages[0].extract_text() or ""  # line by line: a table's columns are not a sentence
        problems = wording.lint(text, has_sectors=variant in HAS_SECTORS)
        assert not problems, (variant, view.name, problems)
        assert "Armour" not in text and "ARMOR" not in text


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_ability_is_printed_with_its_text(decks, variant):
    """An ability's name is followed by a dash and its text on the card (HMS Cossack's
    Valiant Stand printed as a bare name)."""
    views, pdfs = decks[variant]
    for view, pdf in zip(views, pdfs, strict=True):
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            text = " ".join((doc.pages[0].extract_text() or "").split())
        for ability in view.abilities:
            assert ability["summary"], (variant, view.name, ability["name"])
            assert re.search(re.escape(ability["name"]) + r" – \S", text), (variant, view.name, ability["name"])


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_attack_table_header_has_no_overprinted_text(decks, variant):
    views, pdfs = decks[variant]
    for view, pdf in zip(views, pdfs, strict=True):
        page, _chars_ = _chars(pdf)
        words = page.extract_words(keep_blank_chars=False, use_text_flow=False)
        header = [wd for wd in words if wd["top"] > card_fit.BODY_TOP and wd["text"] in ("Range", "Weapon")]
        assert header or not view.attack_rows, view.name
        for top_word in header:
            row = [wd for wd in words if abs(wd["top"] - top_word["top"]) < 1.5]
            row.sort(key=lambda wd: wd["x0"])
            for left, right in pairwise(row):
                assert left["x1"] <= right["x0"] + 0.2, (variant, view.name, left["text"], right["text"])


def test_reach_is_one_number_where_a_band_has_one_value(decks):
    views, _pdfs = decks["hex"]
    assert all(
        not re.fullmatch(r"(\d+)-\1", cell["reach"] or "")
        for v in views
        for r in v.attack_rows
        for cell in r.cells
        if cell
    )
    views, _pdfs = decks["off-grid"]
    header = next(v.reach_header for v in views if v.reach_header)
    assert header[:3] == ["1", "2-3", "4-5"]  # range 0 is within 1 leg; band r is 2r..2r+1 legs


def test_every_rule_a_variant_derives_has_card_wording(repo):
    for variant in VARIANTS.values():
        for unit in repo.units.values():
            for crippled in (False, True):
                adapted = variant.adapt(unit, variant.defaults(), crippled)
                for key in adapted.rules:
                    assert key.startswith("amended: ") or key in card_view.RULES, (variant.name, key)
                card_view.rule_lines(adapted)  # raises on a rule without wording


def test_a_card_that_cannot_fit_moves_ability_text_to_the_aid(repo):
    variant = VARIANTS["hex"]
    view = card_view.card_view(variant.adapt(repo.units["akagi"], variant.defaults()), variant, repo)
    view.abilities = [dict(a, summary=(a["summary"] + " ") * 3) for a in view.abilities]
    sized = card_fit.apply(view)
    assert sized.size_pt == card_fit.MIN_PT and sized.moved_to_aid
    assert any(a["summary"] == "see the player aid" for a in sized.abilities)
    assert card_fit.body_height(sized, sized.size_pt) <= card_fit.BODY_H


def test_fitting_chooses_the_largest_size_that_fits(repo):
    variant = VARIANTS["standard"]
    view = card_view.card_view(variant.adapt(repo.units["hms-cossack"], variant.defaults()), variant, repo)
    sized = card_fit.apply(view)
    assert card_fit.body_height(sized, sized.size_pt) <= card_fit.BODY_H
    if sized.size_pt < card_fit.MAX_PT:
        bigger = card_fit.body_height(sized, sized.size_pt + card_fit.STEP_PT)
        assert bigger is None or bigger > card_fit.BODY_H * card_fit.SAFETY


def test_ability_text_moved_off_a_card_is_printed_in_full_in_the_aid(repo):
    from wastools.render.aid import aid_pdf

    variant = VARIANTS["hex"]
    view = card_view.card_view(variant.adapt(repo.units["akagi"], variant.defaults()), variant, repo)
    full = {a["name"]: a["summary"] for a in view.abilities}
    view.abilities = [dict(a, summary=(a["summary"] + " ") * 3) for a in view.abilities]
    sized = card_fit.apply(view)
    assert sized.moved_text and all(text.startswith(full[name]) for name, text in sized.moved_text.items())
    pdf, _pages = aid_pdf("hex", repo, variant.defaults(), "letter", None, tuple(sorted(sized.moved_text.items())))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = " ".join(" ".join((p.extract_text() or "") for p in doc.pages).split())
    assert card_view.AID_ABILITIES_SECTION in text
    squeezed = text.replace(" ", "")
    for name in sized.moved_to_aid:  # a long name may wrap in its table cell
        assert name.replace(" ", "") in squeezed or all(word in text for word in name.split())


LONG_BANDS = ("swordfish-mk-i", "sunderland-mk-i", "barracuda-mk-ii", "halifax-gr-mk-v", "hms-cossack")


def test_the_nation_band_never_runs_into_the_type(repo):
    """A long nation and a long type (United Kingdom, Patrol bomber) share the 16 pt band:
    measured in the PDF, the side's last letter ends clear of the type icon and label."""
    variant = VARIANTS["standard"]
    units = [repo.units[u] for u in LONG_BANDS]
    views = [cards.card_view(variant.adapt(u, variant.defaults()), variant, repo) for u in units]
    assert any(v.band_pt < card_fit.BAND_PT for v in views) and all(v.band_pt >= 6 for v in views)
    for view, pdf in zip(views, cards.lay_out_cards([str(cards.render_card_html(v)) for v in views]), strict=True):
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            band = [w for w in doc.pages[0].extract_words() if w["bottom"] < 16]
        type_words = view.type_label.split()
        starts = [i for i, w in enumerate(band) if [x["text"] for x in band[i : i + len(type_words)]] == type_words]
        assert starts, (view.name, [w["text"] for w in band])
        type_x0 = band[starts[-1]]["x0"]
        left_x1 = max(w["x1"] for w in band[: starts[-1]])
        clear = type_x0 - card_fit.ICON_W - card_fit.MARK_MARGIN - left_x1
        assert clear >= 2, (view.name, round(clear, 2))
        assert ("Allies" in [w["text"] for w in band]) == view.band_side


def _pixels(pdf: bytes) -> list[bytes]:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    return [document[i].render(scale=2).to_pil().tobytes() for i in range(len(document))]


@pytest.fixture(scope="module")
def every_kind_of_card(repo) -> list[str]:
    """The HTML of every kind of card: each variant, crippled, stat blocks, the backs."""
    htmls = []
    for name, variant in VARIANTS.items():
        units = [repo.units[u] for u in DENSE if u in repo.units]
        views = [cards.card_view(variant.adapt(u, variant.defaults()), variant, repo) for u in units]
        views += [cards.card_view(variant.adapt(units[0], variant.defaults(), True), variant, repo)]
        if name == "large-map":
            views += [cards.statblock_view(block, variant) for block in cards.large_map_stat_blocks()]
        htmls += [str(cards.render_card_html(v)) for v in views] + [str(cards.render_back_html(variant))]
    return htmls


@pytest.mark.parametrize("half", [0, 1])
def test_cards_laid_out_the_fast_way_print_what_weasyprints_own_way_does(every_kind_of_card, half):
    """For speed, card documents are read by expat and styled with their own short
    user-agent stylesheet (``ua.css``). Every kind of card, laid out so and the way WeasyPrint
    does by default (tinyhtml5, its full HTML5 stylesheet), must give the same pixels; a
    template tag that relies on a default ``ua.css`` lacks fails here. Every kind is laid out
    once, half of them with a bleed: what the stylesheets decide does not depend on it, and
    the page size it changes is checked with and without."""
    bleed = 9.0 * half
    kinds = every_kind_of_card[half::2]
    from weasyprint import (
        HTML,
        UA_STYLESHEET,  # type: ignore[attr-defined]
    )

    lean = cards._card_document_class()
    assert lean is not HTML and UA_STYLESHEET not in lean._ua_stylesheets(object.__new__(lean))
    deck = cards.render_deck_html([Markup(h) for h in kinds], "cards", bleed)
    fast = cards._layout(deck).write_pdf()
    reference = cards._layout(deck, reference=True).write_pdf()
    if fast == reference:  # the same bytes: the same pixels
        return
    differing = [i for i, (a, b) in enumerate(zip(_pixels(fast), _pixels(reference), strict=True)) if a != b]
    assert not differing, [kinds[i][:160] for i in differing]


def _tree_lines(element, depth: int = 0) -> list[str]:
    """An element tree as lines: tag, attributes, text and tail, indented by depth. tinyhtml5
    keeps an SVG's ``xmlns`` as an attribute, expat as its namespace: the attribute is left out."""
    xmlns = "{http://www.w3.org/2000/xmlns/}xmlns"
    attributes = sorted((k, v) for k, v in element.attrib.items() if k != xmlns)
    lines = ["  " * depth + f"{element.tag} {attributes} text={element.text!r} tail={element.tail!r}"]
    for child in element:
        lines += _tree_lines(child, depth + 1)
    return lines


@pytest.mark.parametrize("bleed", [0.0, 9.0])
def test_card_templates_are_xml_that_expat_reads_as_tinyhtml5_reads_the_html(every_kind_of_card, bleed):
    """The fast path is only taken when expat can read the document, and it must then build
    the tree tinyhtml5 builds: an implicit ``tbody``, an unclosed ``col`` or a named entity in a
    template fails here (or silently slows every card down)."""
    import tinyhtml5

    deck = cards.render_deck_html([Markup(h) for h in every_kind_of_card], "cards", bleed)
    tree = cards.parse_as_xml(deck)
    assert tree is not None, "a card template is not well-formed XML"
    assert _tree_lines(tree) == _tree_lines(tinyhtml5.parse(deck, namespace_html_elements=False))


@pytest.mark.parametrize(
    "odd",
    [
        ("HMS Cossack", "HMS\x0bCossack"),  # a character XML forbids, in text
        ('class="body"', 'class="body\n"'),  # XML reads a line break in an attribute as a space
        ("</tbody>", ""),  # not well-formed: HTML closes the body itself
    ],
)
def test_a_card_expat_cannot_read_as_html_reads_it_is_read_by_tinyhtml5(every_kind_of_card, odd):
    """Data the templates did not foresee never changes what is printed: the document is
    then read by tinyhtml5, as WeasyPrint would, and lays out the same."""
    html = next(h for h in every_kind_of_card if odd[0] in h and "HMS Cossack" in h)
    deck = cards.render_deck_html([Markup(html.replace(*odd))], "cards")
    assert cards.parse_as_xml(deck) is None
    assert cards._layout(deck).write_pdf() == cards._layout(deck, reference=True).write_pdf()


def test_a_card_document_read_by_expat_has_what_one_read_by_tinyhtml5_has(every_kind_of_card):
    """The fast path sets the attributes ``weasyprint.HTML.__init__`` sets; a WeasyPrint that
    sets more fails here instead of failing on a card."""
    from weasyprint import HTML

    from wastools.render.fetcher import ProjectFetcher

    deck = cards.render_deck_html([Markup(every_kind_of_card[0])], "cards")
    base = (cards.CARD_DIR / "deck.html.j2").as_uri()
    fast = cards._card_document_class()(string=deck, base_url=base, url_fetcher=ProjectFetcher())
    own = HTML(string=deck, base_url=base, url_fetcher=ProjectFetcher())
    assert set(vars(fast)) == set(vars(own))
    assert (fast.base_url, fast.media_type) == (own.base_url, own.media_type)


def test_a_card_too_tall_with_every_ability_in_the_aid_names_them_on_one_line(repo):
    """Found by the fuzz test: five weapons with arcs and four abilities on a hex card are too
    tall at 6 pt even when every ability's text is in the player aid. The card still prints,
    with the abilities that point to the aid named on one line."""
    from wastools.core.model import Ability, Attack, History, Unit

    unit = Unit(
        id="a", name="0", nation="us", type="auxiliary", set="war-at-sea", number=1, rarity="common",
        year=1935, points=1, armor=1, vital_armor=1, hull=1, speed=1, flagship=None, carrier_capacity=None,
        attacks=(
            Attack(kind="anti_air", bands=(14, None, None, None)),
            Attack(kind="asw", bands=(15, None, None, None)),
            Attack(kind="main", bands=(1, 3, 20, 6)),
            Attack(kind="secondary", bands=(1, None, None, None)),
            Attack(kind="tertiary", bands=(1, None, None, None)),
        ),
        abilities=(
            Ability(text="Extended Range 4", pattern="Extended Range {n}", n=4),
            Ability(text="Long Shot 6", pattern="Long Shot {n}", n=6),
            Ability(text="Slow 1", pattern="Slow {n}", n=1),
            Ability(text="Heavy Antiair", pattern="Heavy Antiair", n=None),
        ),
        history=History(class_name=None, top_speed=None, length=None, missing=()),
    )  # fmt: skip
    variant = VARIANTS["hex"]
    view = cards.card_view(variant.adapt(unit, None), variant, repo)
    assert len(view.moved_to_aid) == 4  # every ability's text is in the aid already
    html = str(cards.render_card_html(view))
    (pdf,) = cards.lay_out_cards([html])
    with pdfplumber.open(io.BytesIO(pdf)) as page:
        text = " ".join(page.pages[0].extract_text().split())
    assert "*Extended Range 4, †Long Shot 6, Slow 1, Heavy Antiair – see the player aid" in text
    assert cards._compacted(cards._compacted(html) or "") is None  # one line: nothing left to join


def test_a_name_in_a_script_the_card_font_lacks_is_sized_to_fit(repo):
    """Found by the fuzz test: an Ogham name, drawn from a fallback font, ran past the card's
    edge because its letters were measured as the card font's narrow .notdef box. A letter
    the card font lacks now counts as a whole em."""
    import dataclasses

    assert card_fit.width("᚛ᚄᚓᚐᚋ᚜", 10) == 60.0  # six letters Vera lacks: an em each
    unit = dataclasses.replace(repo.units["hms-cossack"], name="᚛ᚄᚓᚐᚋᚒᚄ\u1680ᚑᚄᚂᚑᚏᚅ᚜")
    for variant in VARIANTS.values():
        view = cards.card_view(variant.adapt(unit, None), variant, repo)
        assert view.name_pt < card_fit.NAME_MAX
        (_pdf,) = cards.lay_out_cards([str(cards.render_card_html(view))])  # no CardOverflow


def _sheet_pixels(card_pdfs: list[bytes], paper: str) -> bytes:
    """The first page of the sheet holding these cards, rendered at 1x, as raw RGB bytes."""
    import pypdfium2

    from wastools.render import sheets

    deck, _pages = sheets.impose(card_pdfs, sheets.load_layout(paper), "t")
    document = pypdfium2.PdfDocument(deck)
    try:
        return document[0].render(scale=1).to_pil().convert("RGB").tobytes()
    finally:
        document.close()


@pytest.mark.parametrize("paper", ["letter", "a4-bleed"])
def test_a_card_drawn_over_its_shared_head_is_the_card_laid_out_whole(repo, paper):
    """A unit's head (band, title, points, stats) is laid out once for all its variants and
    each card's body and foot are drawn over it: the sheet's pixels and every glyph are the
    same as with each card laid out whole, with and without bleed."""
    from wastools.render import sheets

    bleed = sheets.load_layout(paper).get("bleed", 0.0)
    unit = repo.units["bismarck"]
    htmls = [str(cards.render_card_html(cards.card_view(v.adapt(unit, None), v, repo))) for v in VARIANTS.values()]
    composed = cards.lay_out_cards(htmls, bleed)
    whole = [cards._fit_and_write([h], bleed, False, [h])[0][0] for h in htmls]
    assert _sheet_pixels(composed, paper) == _sheet_pixels(whole, paper)
    for one, other in zip(composed, whole, strict=True):
        assert [_glyph(c) for c in _chars(one)[1]] == [_glyph(c) for c in _chars(other)[1]]


def _glyph(char: dict) -> tuple:
    return (
        char["text"],
        char["fontname"].split("+")[-1],
        round(char["size"], 3),
        round(char["x0"], 3),
        round(char["top"], 3),
    )


def test_a_card_face_splits_into_head_and_layer_only_at_its_own_markup(repo):
    """Data cannot move the split: a name that spells the body's markup is escaped."""
    import dataclasses

    variant = VARIANTS["standard"]
    unit = dataclasses.replace(repo.units["hms-cossack"], name='<div class="body"> x')
    html = str(cards.render_card_html(cards.card_view(variant.adapt(unit, None), variant, repo)))
    head, layer = cards._split(html) or ("", "")
    assert "&lt;div" in head and 'class="band' in head and 'class="body"' not in head
    assert layer.lstrip().startswith('<section class="card ship') and 'class="foot"' in layer and "band" not in layer
    assert cards._split(str(cards.render_back_html(variant))) is None  # a back is laid out whole


def test_resources_merge_only_when_no_name_stands_for_two_things():
    import pikepdf

    pdf = pikepdf.new()
    shared = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font))
    into = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=shared), ExtGState=pikepdf.Dictionary(a1=pikepdf.Dictionary(ca=1))
    )
    other = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=shared, F2=pdf.make_indirect(pikepdf.Dictionary())),
        ExtGState=pikepdf.Dictionary(a1=pikepdf.Dictionary(ca=1)),
        ColorSpace=pikepdf.Dictionary(cs=pikepdf.Name.DeviceRGB),
    )
    assert cards._merge_resources(into, other)
    assert set(into.Font.keys()) == {"/F1", "/F2"} and "/ColorSpace" in into
    before = into.unparse(resolved=True)
    clash = pikepdf.Dictionary(
        ExtGState=pikepdf.Dictionary(a1=pikepdf.Dictionary(ca=0.5)), Shading=pikepdf.Dictionary()
    )
    assert not cards._merge_resources(into, clash)
    assert into.unparse(resolved=True) == before  # nothing half merged
    other_font = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary())))
    assert not cards._merge_resources(into, other_font)  # another font under the same name


def test_a_head_whose_resources_clash_is_drawn_as_a_form(repo, monkeypatch):
    """When a name would stand for two things, the head is drawn as a form: the same pixels."""
    variant = VARIANTS["hex"]
    htmls = [str(cards.render_card_html(cards.card_view(variant.adapt(repo.units["akagi"], None), variant, repo)))]
    cards._HEADS.clear()
    merged = cards.lay_out_cards(htmls)
    monkeypatch.setattr(cards, "_merge_resources", lambda _into, _other: False)
    cards._HEADS.clear()
    as_form = cards.lay_out_cards(htmls)
    assert as_form != merged
    assert _sheet_pixels(as_form, "letter") == _sheet_pixels(merged, "letter")
    assert [_glyph(c) for c in _chars(as_form[0])[1]] == [_glyph(c) for c in _chars(merged[0])[1]]
