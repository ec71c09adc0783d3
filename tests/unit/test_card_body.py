"""A card's body and foot drawn by card_body instead of laid out by WeasyPrint: every glyph
where WeasyPrint puts it, the same rules and pixels, lines broken where Pango breaks them,
and every card card_body cannot draw exactly left to WeasyPrint."""

from __future__ import annotations

import dataclasses
import io
import itertools

import pdfplumber
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wastools.render import card_body, card_fit, cards, sheets
from wastools.variants import VARIANTS

# the densest units of the fixture data (long names, several abilities, hex notation, aircraft)
UNITS = ("gneisenau", "akagi", "hatsukaze", "a6m2-zero-kamikaze", "uss-enterprise-cv-6", "hms-cossack", "i-19")


def _views(repo, units=UNITS, crippled: bool = True):
    views = []
    for variant in VARIANTS.values():
        for unit in units:
            views.append(cards.card_view(variant.adapt(repo.units[unit], None), variant, repo))
        if crippled:
            views.append(cards.card_view(variant.adapt(repo.units[units[0]], None, True), variant, repo))
    return views


STRAY_PIXELS = 20  # per card, at 2x (see test_a_drawn_body_prints_the_pixels_weasyprint_prints)


def _glyphs(pdf: bytes) -> list[tuple]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [(c["text"], c["fontname"].split("+")[-1], c["size"], c["x0"], c["top"]) for c in doc.pages[0].chars]


def _render(pdfs: list[bytes], paper: str):
    """The first sheet holding these cards (their fonts put back), at 2x, in grey."""
    import pypdfium2

    deck, _pages = sheets.impose(pdfs, sheets.load_layout(paper), "t")
    document = pypdfium2.PdfDocument(deck)
    try:
        return document[0].render(scale=2).to_pil().convert("L")
    finally:
        document.close()


def _pixels_apart(one, other) -> int:
    """Pixels of ``one`` more than a quarter of the range from every pixel of ``other`` within
    one pixel: a glyph a few hundredths of a point off moves its edge by a pixel, a missing
    or moved rule or word does not hide."""
    from PIL import ImageChops

    nearest = None
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            diff = ImageChops.difference(one, ImageChops.offset(other, dx, dy))
            nearest = diff if nearest is None else ImageChops.darker(nearest, diff)
    assert nearest is not None
    return sum(nearest.histogram()[64:])


def _in_points_box(glyph: tuple) -> bool:
    """A glyph of the points figure (12 pt, top right): sorted last, keeping the others' order."""
    return glyph[2] > 11.9 and glyph[3] > 140 and glyph[4] < 40


@pytest.fixture(scope="module")
def drawn_and_laid_out(repo):
    """Each fixture card of ``UNITS`` in every variant (and a crippled one), drawn over its
    head and laid out whole by WeasyPrint's layer, on Letter and on A4 with bleed."""
    views = _views(repo)
    htmls = [str(cards.render_card_html(v)) for v in views]
    out = {}
    for paper in ("letter", "a4-bleed"):
        bleed = sheets.load_layout(paper).get("bleed", 0.0)
        out[paper] = (views, cards.lay_out_cards(htmls, bleed, views=views), cards.lay_out_cards(htmls, bleed))
    return out


@pytest.mark.parametrize("paper", ["letter", "a4-bleed"])
def test_a_drawn_body_puts_every_glyph_where_weasyprint_puts_it(drawn_and_laid_out, paper):
    views, drawn, laid_out = drawn_and_laid_out[paper]
    for view, one, other in zip(views, drawn, laid_out, strict=True):
        # the points figure is drawn after the head, where WeasyPrint writes it within it
        mine, theirs = sorted(_glyphs(one), key=_in_points_box), sorted(_glyphs(other), key=_in_points_box)
        assert [g[:2] for g in mine] == [g[:2] for g in theirs], (view.variant, view.name)
        for a, b in zip(mine, theirs, strict=True):
            assert abs(a[2] - b[2]) < 0.002, (view.variant, view.name, a, b)  # size
            assert abs(a[3] - b[3]) < 0.05 and abs(a[4] - b[4]) < 0.01, (view.variant, view.name, a, b)


@pytest.mark.parametrize("paper", ["letter", "a4-bleed"])
def test_a_drawn_body_prints_the_pixels_weasyprint_prints(drawn_and_laid_out, paper):
    """Rules, colours and text, on a sheet with the fonts put in, at 2x: apart from a glyph's
    edge a pixel over, a few stray pixels of glyphs placed a few hundredths of a point apart
    (rasterised a little differently), under 20 a card; a missing rule is 300."""
    views, drawn, laid_out = drawn_and_laid_out[paper]
    per = len(sheets.load_layout(paper)["slots"])
    for start in range(0, len(views), per):
        mine, theirs = _render(drawn[start : start + per], paper), _render(laid_out[start : start + per], paper)
        allowed = STRAY_PIXELS * len(views[start : start + per])
        assert _pixels_apart(mine, theirs) <= allowed and _pixels_apart(theirs, mine) <= allowed, [
            (v.variant, v.name) for v in views[start : start + per]
        ]


def test_the_drawn_check_finds_a_missing_rule(drawn_and_laid_out, monkeypatch):
    """The pixel comparison above is not blind: without the table's rules it fails."""
    views, _drawn, laid_out = drawn_and_laid_out["letter"]
    monkeypatch.setattr(card_body._Canvas, "rule", lambda *_args: None)
    cards._HEADS.clear()
    htmls = [str(cards.render_card_html(v)) for v in views[:1]]
    without_rules = cards.lay_out_cards(htmls, views=views[:1])
    # the rules WeasyPrint draws find nothing near them in the card drawn without
    assert _pixels_apart(_render(laid_out[:1], "letter"), _render(without_rules, "letter")) > 10 * STRAY_PIXELS


def test_a_card_with_a_letter_the_card_font_lacks_is_laid_out_by_weasyprint(repo):
    variant = VARIANTS["standard"]
    view = cards.card_view(variant.adapt(repo.units["hms-cossack"], None), variant, repo)
    odd = dataclasses.replace(view, movement="10 in \u1681 Ogham")
    assert card_body.draw(view) is not None and card_body.draw(odd) is None
    html = str(cards.render_card_html(odd))
    (pdf,), documents = cards.lay_out_cards([html], views=[odd], count=True)
    assert documents >= 1 and "\u1681" in "".join(g[0] for g in _glyphs(pdf))


def test_a_table_whose_rows_do_not_match_its_bands_is_left_to_weasyprint(repo):
    variant = VARIANTS["standard"]
    view = cards.card_view(variant.adapt(repo.units["hms-cossack"], None), variant, repo)
    assert card_body.draw(view) is not None
    assert card_body.draw(dataclasses.replace(view, bands=view.bands[:-1])) is None
    assert card_body.draw(dataclasses.replace(view, bands=[])) is None


def test_data_reaches_the_page_as_glyph_numbers_never_as_pdf_operators(repo):
    variant = VARIANTS["standard"]
    view = cards.card_view(variant.adapt(repo.units["hms-cossack"], None), variant, repo)
    hostile = ") Tj ET BT (x) Tj q <<>> endstream \\"
    odd = dataclasses.replace(view, movement=hostile, footer_left="<</S /JavaScript>> (" + hostile)
    drawn = card_body.draw(odd)
    assert drawn is not None
    content, _fonts = drawn
    assert b"JavaScript" not in content and b"(" not in content
    (pdf,) = cards.lay_out_cards([str(cards.render_card_html(odd))], views=[odd])
    text = "".join(g[0] for g in _glyphs(pdf)).replace(" ", "")  # (a line's last space is not drawn)
    assert ("Move:" + hostile).replace(" ", "") in text
    assert ("<</S /JavaScript>> (" + hostile + "Base game").replace(" ", "") in text


# --- line breaking, against Pango's own ------------------------------------------------------


def _pango_lines(text: str, size: float, box: float) -> list[str]:
    """The lines WeasyPrint (Pango) makes of ``text`` in the card's regular font."""
    from markupsafe import escape
    from weasyprint.formatting_structure import boxes

    html = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"/></head><body>'
        f'<section class="card"><div class="body" style="width: {box}pt; right: auto; font-size: {size}pt">'
        f"<div>{escape(text)}</div></div></section></body></html>"
    )
    lines: list[str] = []

    def walk(box_) -> None:
        if isinstance(box_, boxes.LineBox):
            lines.append("".join(t.text for t in box_.descendants() if isinstance(t, boxes.TextBox)).strip())
        for child in getattr(box_, "children", ()):
            walk(child)

    walk(cards._layout(html).pages[0]._page_box)
    return lines


def _lines(text: str, size: float, box: float) -> list[str]:
    faces = {card_body.REGULAR: card_body._face(card_body.REGULAR)}
    out = []
    for runs in card_body.wrap([(text, False, card_body.INK)], size, box):
        reverse = {g: chr(c) for c, g in faces[card_body.REGULAR].glyph_of.items()}
        out.append("".join(reverse[g] for run in runs for g in run.glyphs))
    return out


@pytest.mark.parametrize(
    "text",
    [
        "when landing on a coast/island: roll one die for each downed/aborted plane",
        "anti-aircraft fire from a 3-ship group at 5-10 hexes, -1/die beyond",
        "Chase the Salvoes – when an enemy battleship's main gunnery targets it, roll: 5+ negates all damage",
        "gets +1 die (two at most) on attacks; e.g. torpedo, bomb, and gunnery at 3 sectors",
    ],
)
@pytest.mark.parametrize("box", [60.0, 97.3, 164.8])
def test_lines_break_where_pango_breaks_them(text, box):
    assert _lines(text, 7.5, box) == _pango_lines(text, 7.5, box)


WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCTVWY0123456789.,;:'+-", min_size=1, max_size=14)


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(WORDS, min_size=1, max_size=30),
    size=st.sampled_from([6.0, 6.25, 7.5, 8.5]),
    box=st.floats(min_value=40, max_value=180),
)
# found by this test: "Wi-" fitted with the kerning of "-" before "Y", 0.69 pt over alone
@example(words=["0:s", "000:k", "000:s", "00000:WY:0ciis", "0000Wi-Y"], size=7.5, box=150.0)
def test_wrapped_lines_fit_keep_every_word_and_take_all_they_can(words, size, box):
    text = " ".join(words)
    try:
        lines = card_body.wrap([(text, False, card_body.INK)], size, box)
    except card_body.Undrawable:
        return  # left to WeasyPrint
    widths = [card_body.line_width(runs) for runs in lines]
    assert all(w <= box for w in widths)
    shown = _lines(text, size, box)
    assert "".join(shown).replace(" ", "") == text.replace(" ", "")
    for line, following in zip(shown, shown[1:], strict=False):
        # the next line's first words up to where it could break, would not have fitted
        words = following.split(" ")
        first = [words[0]] + list(itertools.takewhile(lambda w: w[:1] in card_body.NO_BREAK_BEFORE, words[1:]))
        wider = card_fit.width(line + " " + " ".join(first), size)
        assert wider > box - 1.0 or line.endswith(("-", "/")), (line, first)
