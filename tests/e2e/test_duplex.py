"""Duplex sheets measured in their PDFs: each back behind its own front on a partial last
sheet, portrait and landscape, under both flip edges; the backs page says which edge to
flip; the calibration sheets' scales read the offset that puts a back behind its front."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from tests import printcheck
from tests.duplex_model import behind, paper_shift
from wastools.render import calibration, sheets

LAYOUTS = ["letter", "a4", "letter-bleed", "a4-bleed"]


def _card(w: float, h: float, grey: float) -> bytes:
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(w, h), invariant=1)
    c.setFillGray(grey)
    c.rect(0, 0, w, h, stroke=0, fill=1)
    c.showPage()
    c.save()
    return buf.getvalue()


def _text(pdf: bytes, index: int) -> str:
    """A page's words as pypdfium2 reads them (in reading order, rotated labels too)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return " ".join(doc[index].get_textpage().get_text_range().split())
    finally:
        doc.close()


def _boxes(page, w: float, h: float) -> list[tuple[float, float]]:
    """Centres of the filled card-sized rectangles on a page, in PDF coordinates."""
    return sorted(
        (round((r["x0"] + r["x1"]) / 2, 2), round(page.height - (r["top"] + r["bottom"]) / 2, 2))
        for r in page.rects
        if r["fill"] and abs(r["width"] - w) < 0.01 and abs(r["height"] - h) < 0.01
    )


TURNS = ["counterclockwise", "clockwise"]


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("name", LAYOUTS)
def test_each_back_lands_behind_its_front_on_a_partial_last_sheet(name, edge, turn):
    """With no offset each back is where the turned paper puts it behind its front; with an
    offset it moves by that offset along the paper's axes, for the way the printer turns a
    landscape page onto the paper."""
    layout = sheets.load_layout(name)
    pw, ph = layout["page"]["width"], layout["page"]["height"]
    bleed = layout.get("bleed", 0)
    w, h = layout["card"]["width"] + 2 * bleed, layout["card"]["height"] + 2 * bleed
    fronts = [_card(w, h, 0.2 + 0.1 * i) for i in range(len(layout["slots"]) - 2)]  # two slots left empty
    for offset in ((0.0, 0.0), (1.5 * sheets.MM, -1.0 * sheets.MM)):
        profile = sheets.PrinterProfile(back_dx=offset[0], back_dy=offset[1], duplex_edge=edge, landscape_turn=turn)
        part = sheets.sheet_part(fronts, layout, "test", profile, _card(w, h, 0.5))
        pdf, pages = sheets.assemble([part], "test")
        assert pages == 2
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            front, back = doc.pages
            placed, backs = _boxes(front, w, h), _boxes(back, w, h)
        assert len(placed) == len(fronts)
        sx, sy = paper_shift(*offset, pw, ph, turn)
        expected = sorted(
            (round(bx + sx, 2), round(by + sy, 2)) for bx, by in (behind(x, y, pw, ph, edge, turn) for x, y in placed)
        )
        assert len(backs) == len(expected)
        for got, want in zip(backs, expected, strict=True):
            assert got == pytest.approx(want, abs=0.02)
        assert f"flipping on the {edge} edge" in _text(pdf, 1)


def _axis_letters(page, at: tuple[float, float]) -> dict[str, tuple[float, float]]:
    """Where each scale's name ("x", "y") sits, from the back point ``at``, in PDF coordinates."""
    found = {}
    for ch in page.chars:
        x, y = (ch["x0"] + ch["x1"]) / 2, page.height - (ch["top"] + ch["bottom"]) / 2
        if ch["text"] in "xy" and abs(x - at[0]) < 45 and abs(y - at[1]) < 45:
            found[ch["text"]] = (x - at[0], y - at[1])
    return found


def _signs(page, at: tuple[float, float], sign: str) -> list[tuple[float, float]]:
    """Where the scale numbers with ``sign`` start, from the back point ``at``."""
    return [
        ((c["x0"] + c["x1"]) / 2 - at[0], page.height - (c["top"] + c["bottom"]) / 2 - at[1])
        for c in page.chars
        if c["text"] == sign and abs(c["x0"] - at[0]) < 45 and abs(page.height - c["top"] - at[1]) < 45
    ]


def _direction(offset: tuple[float, float]) -> tuple[int, int]:
    x, y = offset
    return (1 if x > 0 else -1, 0) if abs(x) > abs(y) else (0, 1 if y > 0 else -1)


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("name", LAYOUTS)
def test_the_number_a_cross_meets_is_the_offset_that_puts_the_back_behind_it(name, edge, turn):
    """A printer that prints the back 1 mm off along the paper's x (or y) shows the cross on
    the number that, entered as --back-offset-x (or -y), moves the back 1 mm the other way;
    on the landscape sheet, for the way the printer turns landscape pages (as built for)."""
    layout = sheets.load_layout(name)
    w, h = layout["page"]["width"], layout["page"]["height"]
    profile = sheets.PrinterProfile(duplex_edge=edge, landscape_turn=turn)
    pdf, _pages = calibration.calibration_pdf(layout, profile)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        back = doc.pages[1]
        for x, y in calibration.targets(layout):
            at = behind(x, y, w, h, edge, turn)
            letters = _axis_letters(back, at)
            for axis, paper in (("x", (1.0, 0.0)), ("y", (0.0, 1.0))):
                # the scale's + end is where a back printed 1 mm the other way puts the cross
                d = _direction(paper_shift(*paper, w, h, turn))
                assert _direction(letters[axis]) == d, (axis, at)
                # its numbers run that way: "+10" 10 mm out along d, no "+" 10 mm the other way
                along = [p[0] * d[0] + p[1] * d[1] for p in _signs(back, at, "+")]
                assert max(along) > 20 and min(along) > -20, (axis, at, along)
    # and the build moves the backs by what was read, the same way
    slot = layout["slots"][0]
    plain = sheets.back_slot(slot, layout, profile)
    moved = sheets.back_slot(slot, layout, sheets.PrinterProfile(back_dx=1.0, duplex_edge=edge, landscape_turn=turn))
    assert (moved[0] - plain[0], moved[1] - plain[1]) == pytest.approx(paper_shift(1.0, 0.0, w, h, turn))


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("name", LAYOUTS)
def test_each_calibration_page_says_how_to_print_it(name, edge, turn):
    """The back names the flip edge in its margin, within the print standard's bounds; the
    landscape front names the quarter turn the build assumes and the setting for the other."""
    layout = sheets.load_layout(name)
    w, h = layout["page"]["width"], layout["page"]["height"]
    profile = sheets.PrinterProfile(duplex_edge=edge, landscape_turn=turn)
    pdf, _pages = calibration.calibration_pdf(layout, profile)
    front, back = _text(pdf, 0), _text(pdf, 1)
    assert f"print on the reverse of the front, flipping on the {edge} edge" in back
    other = TURNS[1 - TURNS.index(turn)]
    if w > h:
        assert f"a quarter turn {turn}" in front and f"--landscape-turn {other}" in front
    else:
        assert "landscape" not in front
    assert printcheck.ink_near_edges(pdf) == []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            assert printcheck.small_text(page) == [] and printcheck.overprinted(page) == []


def _box(page, name: str) -> tuple[float, ...] | None:
    value = page.get(name)
    return None if value is None else tuple(round(float(v), 2) for v in value)


@pytest.mark.parametrize("name", LAYOUTS)
def test_card_pages_declare_their_trim_and_bleed_boxes(name):
    """Fronts and backs: the TrimBox is the cards' trim, the BleedBox that and the bleed, each
    card's bleed inside it; with a printer's scale correction the boxes scale with the page."""
    from pypdf import PdfReader

    layout = sheets.load_layout(name)
    bleed = layout.get("bleed", 0)
    w, h = layout["card"]["width"], layout["card"]["height"]
    xs, ys = layout["crop_lines"]["x"], layout["crop_lines"]["y"]
    trim = (min(xs), min(ys), max(xs), max(ys))
    card = _card(w + 2 * bleed, h + 2 * bleed, 0.3)
    pdf, pages = sheets.impose([card] * 3, layout, "test", back_pdf=card)
    reader = PdfReader(io.BytesIO(pdf))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for index, page in enumerate(reader.pages):
            got_trim, got_bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
            assert got_trim == pytest.approx(trim, abs=0.01), index  # the layouts are symmetric
            assert got_bleed == pytest.approx((trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed))
            for cx, cy in _boxes(doc.pages[index], w + 2 * bleed, h + 2 * bleed):
                assert got_bleed[0] - 0.01 <= cx - w / 2 - bleed and cx + w / 2 + bleed <= got_bleed[2] + 0.01
                assert got_bleed[1] - 0.01 <= cy - h / 2 - bleed and cy + h / 2 + bleed <= got_bleed[3] + 0.01
    scaled, _ = sheets.impose([card], layout, "test", sheets.PrinterProfile(x_scale=1.01, y_scale=0.99))
    (page,) = PdfReader(io.BytesIO(scaled)).pages
    cx, cy = layout["page"]["width"] / 2, layout["page"]["height"] / 2
    want = (
        cx + (trim[0] - cx) * 1.01,
        cy + (trim[1] - cy) * 0.99,
        cx + (trim[2] - cx) * 1.01,
        cy + (trim[3] - cy) * 0.99,
    )
    assert _box(page, "/TrimBox") == pytest.approx(want, abs=0.01)


@pytest.mark.parametrize("words", [1, 12])
@pytest.mark.parametrize("name", LAYOUTS)
def test_a_sheet_label_of_any_length_keeps_to_the_margin(name, words):
    """Front and backs labels, short or far too long for the page: 6 pt, 12 pt clear of every
    edge, left of the cards, crossing no crop mark; a label cut to fit keeps the sheet's name
    at its start and the backs page's flip instruction at its end."""
    layout = sheets.load_layout(name)
    bleed = layout.get("bleed", 0)
    w, h = layout["card"]["width"] + 2 * bleed, layout["card"]["height"] + 2 * bleed
    title = " ".join(["Mediterranean 1940 house cards"] * words) + " - sheet 1 of 1"
    card = _card(w, h, 0.4)
    part = sheets.sheet_part([card] * 2, layout, title, sheets.PrinterProfile(duplex_edge="short"), card)
    pdf, _pages = sheets.assemble([part], "test")
    assert printcheck.ink_near_edges(pdf) == []
    left = sheets.card_area(layout)[0]
    marks = [(min(x1, x2), y1) for (x1, y1), (x2, y2) in sheets.crop_mark_segments(layout) if y1 == y2]
    texts = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for index, page in enumerate(doc.pages):
            assert printcheck.small_text(page) == []
            label = [c for c in page.chars if not c["upright"] and c["x1"] < left]
            texts.append("".join(c["text"] for c in label))
            assert label and all(c["x1"] < left - 6 for c in label)
            low, high = (page.height - max(c["bottom"] for c in label), page.height - min(c["top"] for c in label))
            reach = max(c["x1"] for c in label)
            if index == 0:  # the front's marks in the left margin: none across the label
                assert not [y for x, y in marks if x < reach + 1 and low - 1 < y < high + 1]
    front, back = texts
    assert front.startswith("Mediterranean 1940 house cards") and back.startswith("Mediterranean 1940 house cards")
    assert back.endswith("print on the reverse of the sheet before, flipping on the short edge")
    assert ("..." in back) == (words > 1) and (front == title) == (words == 1)


def _faces(page, w: float, h: float) -> list[tuple[float, float]]:
    """Centres of a card sheet page's card-sized filled boxes, one per card (a card may fill
    several boxes of its size: its ground and its bleed)."""
    return sorted(set(_boxes(page, w, h)))


@pytest.mark.slow
@pytest.mark.parametrize("bleed", [False, True])
def test_a_built_decks_last_backs_land_behind_their_own_fronts(repo, tmp_path, bleed):
    """A whole built deck (the hex deck of the fixture data, both papers, each flip edge):
    its last sheet holds fewer cards than slots, and each of its backs lands behind a front,
    none behind an empty slot."""
    from tests.conftest import DATA
    from wastools import pipeline as builder

    for edge in ("long", "short"):
        profile = sheets.PrinterProfile(duplex_edge=edge)
        out = tmp_path / edge
        options = builder.Options(papers=("letter", "a4"), backs=True, bleed=bleed, profile=profile, jobs=2)
        builder.build(repo, DATA, out, builder.Selection(variants=("hex",)), options)
        for paper in ("letter", "a4"):
            layout = sheets.load_layout(f"{paper}-bleed" if bleed else paper)
            pw, ph = layout["page"]["width"], layout["page"]["height"]
            b = layout.get("bleed", 0)
            w, h = layout["card"]["width"] + 2 * b, layout["card"]["height"] + 2 * b
            (deck,) = (out / "hex").glob(f"cards{'-a4' if paper == 'a4' else ''}{'-bleed' if bleed else ''}-duplex.pdf")
            with pdfplumber.open(deck) as doc:
                front, back = doc.pages[-2], doc.pages[-1]
                fronts, backs = _faces(front, w, h), _faces(back, w, h)
            assert 0 < len(fronts) < len(layout["slots"]), (deck.name, len(fronts))
            want = sorted(tuple(round(v, 2) for v in behind(x, y, pw, ph, edge)) for x, y in fronts)
            assert len(backs) == len(want), (deck.name, edge)
            for got, expected in zip(backs, want, strict=True):
                assert got == pytest.approx(expected, abs=0.02), (deck.name, edge)
