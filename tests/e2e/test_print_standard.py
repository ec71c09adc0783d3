"""The print standard, measured in every kind of sheet on Letter and A4, portrait and
landscape: no ink within 12 pt of an edge (rendered with pypdfium2), every font embedded,
nothing under 6 pt, a horizontal and a vertical check bar on every page, each measuring
what its label says. A built set of every output is checked the same way (slow)."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests import printcheck
from wastools.core.geometry import PT_PER_IN
from wastools.render import calibration, counters, labels, maps, rulers, sheets
from wastools.render.pages import Page
from wastools.variants import VARIANTS

SMOKE = VARIANTS["off-grid"].smoke_fn(VARIANTS["off-grid"].defaults())  # the off-grid smoke templates


def card_pdf() -> bytes:
    """A stand-in card face: a framed white 180 x 252 pt page with text to its edges."""
    from reportlab.pdfgen import canvas

    sheets.register_fonts()
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(180, 252), invariant=1, initialFontName=sheets.FONT)
    c.setLineWidth(1)
    c.rect(0.5, 0.5, 179, 251)
    c.setFont(sheets.FONT, 8)
    c.drawString(4, 240, "A card")
    c.showPage()
    c.save()
    return buf.getvalue()


def outputs():
    for paper in ("letter", "a4"):
        for name in (paper, f"{paper}-bleed"):
            layout = sheets.load_layout(name)
            yield f"cards {name}", sheets.impose([card_pdf()] * 10, layout, "t", back_pdf=card_pdf())[0]
        for name in (paper, f"{paper}-bleed"):
            yield f"calibration {name}", calibration.calibration_pdf(sheets.load_layout(name))[0]
        yield f"counters {paper}", counters.counters_pdf(paper, SMOKE)[0]
        yield f"hex counters {paper}", counters.counters_pdf(paper, None, markers=VARIANTS["hex"].markers)[0]
        yield f"wide map {paper}", maps.map_pdf(maps.square_map("wide", 5, 2, 4 * PT_PER_IN), paper)[0]
        yield f"tall map {paper}", maps.map_pdf(maps.square_map("tall", 2, 3, 4 * PT_PER_IN), paper)[0]
        yield f"hex map {paper}", maps.map_pdf(maps.hex_map("hex", 900, 500, 170.08), paper)[0]
        for variant in ("off-grid", "tabletop-cm", "tabletop-inches", "hex", "large-map"):
            v = VARIANTS[variant]
            yield f"rulers {variant} {paper}", rulers.rulers_pdf(v.rulers(v.defaults()), paper, "t")[0]


OUTPUTS = dict(outputs())


def check(pdf: bytes, text_on: Callable[[int], bool] = lambda _n: True) -> list[str]:
    """The print standard on every page: ink clear of the edges, fonts embedded; and on the
    pages ``text_on`` picks (page numbers from 1), type sizes and check bars."""
    problems = printcheck.ink_near_edges(pdf)
    problems += [f"font not embedded: {f}" for f in sorted(printcheck.unembedded_fonts(pdf))]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            n = page.page_number
            if not text_on(n):
                continue
            problems += [f"page {n}: text under 6 pt: {t!r}" for t in printcheck.small_text(page)]
            bars = printcheck.check_bars(page)
            problems += [
                f"page {n}: bar {b.label!r} measures {b.measured}, not {b.wanted:.2f}"
                for b in bars
                if b.measured is None or abs(b.measured - b.wanted) > 0.05
            ]
            if {b.vertical for b in bars if b.label in ("100 mm", "4 in")} != {True, False}:
                problems.append(f"page {n}: needs a horizontal and a vertical check bar")
    return problems


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_sheet_keeps_the_print_standard(name):
    assert check(OUTPUTS[name]) == []


def test_the_checks_catch_a_mark_in_the_margin_and_an_unembedded_font():
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792))
    c.setFont("Helvetica", 5)
    c.drawString(5, 400, "too near")
    c.showPage()
    c.save()
    problems = check(buf.getvalue())
    assert "page 1: left" in problems and "font not embedded: /Helvetica" in problems
    assert any("under 6 pt" in p for p in problems) and any("check bar" in p for p in problems)


def test_a_bar_that_does_not_measure_its_label_is_caught():
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792), initialFontName=sheets.FONT)
    sheets.draw_bar(c, sheets.Bar("4 in", 100, 100, 280, False))
    c.showPage()
    c.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as doc:
        (bar,) = printcheck.check_bars(doc.pages[0])
    assert bar.label == "4 in" and bar.measured == pytest.approx(280) and bar.wanted == 288


@pytest.mark.slow
def test_every_built_output_keeps_the_print_standard(full_build):
    """A whole build (the fixture data, every variant, both papers): every page of every PDF."""
    tmp_path = full_build / "build"
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert len(pdfs) > 40
    problems = {str(p.relative_to(tmp_path)): check(p.read_bytes(), _text_pages(p)) for p in pdfs}
    # the type size of card faces belongs to the card layout (the cards issue): margins,
    # fonts and bars of the card sheets are checked here
    # (packs hold card sheets too; their briefings and maps are checked whole below)
    problems = {
        k: [p for p in v if not (("/cards" in k or "scenarios/" in k) and "under 6 pt" in p)]
        for k, v in problems.items()
    }
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.slow
def test_every_built_card_page_declares_its_trim_and_bleed_boxes(full_build):
    """A print shop's preflight reads the cut from the TrimBox and the bleed from the BleedBox:
    every page of every deck has both, the bleed round the trim, both on the page."""
    from pypdf import PdfReader

    decks = sorted((full_build / "build").rglob("cards*.pdf"))
    assert decks
    for deck in decks:
        for n, page in enumerate(PdfReader(deck).pages, start=1):
            media = [float(v) for v in page.mediabox]
            assert "/TrimBox" in page and "/BleedBox" in page, f"{deck.name} page {n}"
            trim, bleed = [float(v) for v in page["/TrimBox"]], [float(v) for v in page["/BleedBox"]]
            assert media[0] <= bleed[0] <= trim[0] < trim[2] <= bleed[2] <= media[2], f"{deck.name} page {n}"
            assert media[1] <= bleed[1] <= trim[1] < trim[3] <= bleed[3] <= media[3], f"{deck.name} page {n}"


def _text_pages(path: Path) -> Callable[[int], bool]:
    """The pages whose words and bars are measured: every page, but of a deck (sheets of cards
    imposed by one function, with the same marks and bars on each) only the first sheet and
    the last, which may be part full; and of a board or a pack, whose many map tiles are
    drawn by one function with the same type sizes and bars, the first three pages (a
    board's plan and first tiles; a pack's briefing and first card sheet) and the last tile.
    Reading a page's words takes a tenth to a third of a second, and these are most of a
    build's pages; every page's ink and fonts are still measured. (The words on every tile
    of every pack are read by the overprint test, and each scenario's plan and tiles by
    ``test_scenario_briefing_and_map_keep_the_print_standard``.)"""
    from pypdf import PdfReader

    last = len(PdfReader(path).pages)
    if path.name.startswith("cards"):
        return lambda n: n in (1, last)
    if path.name.startswith("map-") or path.parent.name == "scenarios":
        return lambda n: n <= 3 or n == last
    return lambda _n: True


def ink_coverage(pdf: bytes, index: int) -> float:
    """Share of the page's area covered by ink (0 white .. 1 black), rendered at 72 dpi."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        bitmap = doc[index].render(scale=1, grayscale=True)
        data, stride, w, h = bytes(bitmap.buffer), bitmap.stride, bitmap.width, bitmap.height
        return sum(255 - v for y in range(h) for v in data[y * stride : y * stride + w]) / (255 * w * h)
    finally:
        doc.close()


@pytest.mark.parametrize(
    "spec",
    [maps.square_map("board", 24, 12, 4 * PT_PER_IN), maps.hex_map("hexes", 96 * PT_PER_IN, 48 * PT_PER_IN, 170.08)],
    ids=["square", "hex"],
)
def test_board_tiles_are_ink_light_unless_asked_for_colour(spec):
    light = maps.map_pdf(spec, "letter")[0]
    coloured = maps.map_pdf(spec, "letter", colour=True)[0]
    assert ink_coverage(light, 14) < 0.05
    assert ink_coverage(coloured, 14) > 2 * ink_coverage(light, 14)


def test_the_poster_is_the_whole_board_on_one_true_size_page():
    from pypdf import PdfReader

    spec = maps.square_map("board", 24, 12, 4 * PT_PER_IN)
    pdf, pages = maps.poster_pdf(spec)
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    # the page is the board: 96 x 48 in, 6912 x 3456 pt, nothing round it
    assert pages == 1 and (float(box.width), float(box.height)) == (6912.0, 3456.0)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        verticals = sorted(
            {round(ln["x0"], 2) for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["height"] > 3000}
        )
    assert [round(b - a, 2) for a, b in pairwise(verticals)] == [288.0] * 24  # every sector 4 in
    assert verticals[0] == 0 and verticals[-1] == 6912  # the outer sectors end at the paper's edge
    assert check(pdf) == []  # and yet nothing within 12 pt of it, bars that measure, fonts embedded


def test_the_hex_poster_is_the_hex_grid_and_names_every_hex():
    from pypdf import PdfReader

    spec = maps.hex_map("hexes", 96 * PT_PER_IN, 48 * PT_PER_IN, 170.08)
    pdf, _pages = maps.poster_pdf(spec)
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((spec.width, spec.height), abs=0.01)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        names = {w["text"] for w in page.extract_words() if w["top"] >= 12 and w["bottom"] <= page.height - 12}
    assert {"0101", "0201", "4619", "0119"} <= names  # the top row too, below the header band
    assert check(pdf) == []


def test_a_scenario_poster_outlines_the_declared_play_area(repo):
    from wastools.render import scenario_pack

    savo = repo.scenarios["savo-island-1942"]
    spec, to_map = scenario_pack.map_spec(savo)
    x, y, w, h = scenario_pack.play_area(savo, spec, to_map)
    outlines = [f for f in scenario_pack.scenario_map(savo).features if f.kind == "play-area"]
    assert [f.points for f in outlines] == [((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
    pdf, _pages = maps.poster_pdf(scenario_pack.scenario_map(savo))
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = doc.pages[0].extract_text()
    assert "play area" in text and "map: the whole map" not in text
    denmark = repo.scenarios["denmark-strait-1941"]  # no play area declared: no outline
    assert not [f for f in scenario_pack.scenario_map(denmark).features if f.kind == "play-area"]


@pytest.mark.parametrize("scenario_id", ["denmark-strait-1941", "mers-el-kebir-1940", "savo-island-1942"])
def test_scenario_briefing_and_map_keep_the_print_standard(repo, scenario_id):
    import dataclasses

    from wastools.render import scenario_pack

    s = repo.scenarios[scenario_id]
    assert check(scenario_pack.briefing_pdf(s, "letter")) == []
    assert check(scenario_pack.briefing_pdf(s, "a4")) == []
    spec, to_map = scenario_pack.map_spec(s)
    spec = dataclasses.replace(spec, features=scenario_pack.features(s, to_map))
    area = scenario_pack.play_area(s, spec, to_map)
    pdf, pages = maps.map_pdf(spec, "letter", area=area, note=scenario_pack.map_note(s, area))
    head = pdf if pages < 12 else _first_pages(pdf, 3)  # the plan and two tiles of the big maps
    assert check(head) == []


def _first_pages(pdf: bytes, n: int) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(pdf)).pages[:n]:
        writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture(scope="module")
def packs(repo, tmp_path_factory):
    from tests.conftest import ROOT
    from wastools import pipeline as builder

    out = tmp_path_factory.mktemp("packs")
    report = builder.build(
        repo,
        ROOT,
        out,
        builder.Selection(scenarios=("denmark-strait-1941", "mers-el-kebir-1940", "savo-island-1942")),
        builder.Options(papers=("letter",), jobs=2),
    )
    return out, report.outputs


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", ["denmark-strait-1941", "mers-el-kebir-1940", "savo-island-1942"])
def test_shipped_packs_stay_within_40_letter_pages(packs, scenario_id):
    _out, outputs = packs
    assert outputs[f"scenarios/{scenario_id}-poster.pdf"]["pages"] == 1
    assert outputs[f"scenarios/{scenario_id}.pdf"]["pages"] <= 40


@pytest.mark.slow
def test_a_packs_map_pages_carry_the_pdfs_own_page_numbers(packs):
    out, _outputs = packs
    with pdfplumber.open(out / "scenarios" / "denmark-strait-1941.pdf") as doc:
        texts = [" ".join((p.extract_text() or "").split()) for p in doc.pages]
    total = len(texts)
    plan = next(i for i, t in enumerate(texts) if ": plan of the whole map (" in t)
    assert plan > 1 and f"map - page {plan + 1}: plan" in texts[plan]
    for i in range(plan + 1, total):
        assert f"page {i + 1} of {total}:" in texts[i]  # tiles: this file's own numbering
        assert f"page {i + 1}" in texts[plan]  # and the plan shows them by it


@given(
    ax=st.floats(20, 280),
    ay=st.floats(20, 180),
    width=st.floats(10, 120),
    others=st.lists(st.tuples(st.floats(0, 300), st.floats(0, 200), st.floats(4, 60), st.floats(4, 20)), max_size=8),
)
def test_a_label_goes_beside_its_symbol_clear_of_everything_and_in_bounds(ax, ay, width, others):
    """Whatever is taken round a symbol, its label is placed clear of all of it, inside the
    bounds, and next to the symbol unless it carries a leader line back to it."""
    taken = [(x, y, x + w, y + h) for x, y, w, h in others]
    bounds = (0.0, 0.0, 300.0, 200.0)
    placed = labels.beside((ax, ay), 6.0, width, 7.0, taken, bounds)
    if placed is None:
        return
    assert labels.within(placed.box, bounds) and not any(labels.overlaps(placed.box, t) for t in taken)
    gap = max(placed.box[0] - ax, ax - placed.box[2], placed.box[1] - ay, ay - placed.box[3], 0.0)
    assert gap <= 6.0 + 5.0 or placed.leader is not None
    if placed.leader is not None:
        assert placed.leader[0] == (ax, ay) and labels.within(labels.square(placed.leader[1], 0), placed.box)


def test_a_label_sits_beside_a_free_symbol_without_a_leader():
    placed = labels.beside((100.0, 100.0), 6.0, 40.0, 7.0, [], (0.0, 0.0, 300.0, 200.0))
    assert placed is not None and placed.leader is None and placed.box[0] >= 106 and placed.box[0] - 106 < 6


def test_a_board_plan_says_how_to_assemble_its_pages():
    pdf, pages = maps.map_pdf(maps.square_map("board", 24, 12, 4 * PT_PER_IN), "letter")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        plan = " ".join(doc.pages[0].extract_text().split())
    assert "To assemble the map:" in plan
    assert all(f"{n}. " in plan for n in (1, 2, 3, 4)) and "trim the left or bottom edge, or both" in plan
    # one first page and one order, the same on the plan and the tiles: the bottom left page
    # is laid first (every other page is glued over its neighbours' strips), then page order
    assert "Page 2, at the bottom left, comes first" in plan
    tile_list = maps.page_tiles(maps.square_map("board", 24, 12, 4 * PT_PER_IN), Page.of("letter", True))
    assert (tile_list[0].col, tile_list[0].row) == (0, 0)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        heads = [" ".join((p.extract_text() or "").split()) for p in doc.pages[1:]]
    assert "Lay this page down first" in heads[0] and not any("down first" in h for h in heads[1:])
    for index in range(len(tile_list)):  # each page joins only pages before it
        glued = re.findall(r"strip of page (\d+)", heads[index])
        assert all(int(n) < index + 2 for n in glued) and bool(glued) == (index > 0)
    one_page, _ = maps.map_pdf(maps.square_map("small", 2, 1, 4 * PT_PER_IN), "letter")
    with pdfplumber.open(io.BytesIO(one_page)) as doc:
        assert "To assemble" not in doc.pages[0].extract_text()  # one tile: nothing to assemble


@pytest.mark.slow
def test_hex_names_stay_readable_on_islands(packs):
    """Savo Island's islands fill whole hexes: their names are drawn over the fill, not under it."""
    import re

    import pypdfium2 as pdfium

    out, _outputs = packs
    path = out / "scenarios" / "savo-island-1942.pdf"
    rendered = pdfium.PdfDocument(path)
    on_land = 0
    with pdfplumber.open(path) as doc:
        for index, page in enumerate(doc.pages):
            names = [w for w in page.extract_words() if re.fullmatch(r"\d{4}", w["text"])]
            if not names:
                continue
            image = rendered[index].render(scale=2).to_pil().convert("L")
            for word in names:
                darkest, lightest = image.crop(
                    tuple(round(v * 2) for v in (word["x0"], word["top"], word["x1"], word["bottom"]))
                ).getextrema()
                if lightest < 250:  # no white paper around the letters: a filled hex
                    on_land += 1
                    assert darkest < 180, (index + 1, word["text"], darkest)
    assert on_land > 0


def test_a_briefing_is_set_once_and_printed_in_the_middle_of_either_paper(repo):
    """Letter and A4 briefings: pages of the paper's size, the same words on each page, the
    text block in the middle of the sheet (Letter: 8.36 pt more left and right, A4: 24.95 pt
    more above and below than on the shared page)."""
    from wastools.render import scenario_pack
    from wastools.render.pages import PAPERS

    s = repo.scenarios["mers-el-kebir-1940"]
    words, boxes = {}, {}
    for paper in ("letter", "a4"):
        with pdfplumber.open(io.BytesIO(scenario_pack.briefing_pdf(s, paper))) as doc:
            assert all((p.width, p.height) == pytest.approx(PAPERS[paper], abs=0.01) for p in doc.pages)
            words[paper] = [[w["text"] for w in page.extract_words()] for page in doc.pages]
            title = next(w for w in doc.pages[0].extract_words() if w["text"] == "Mers-el-Kebir,")
            boxes[paper] = (title["x0"], title["top"])
    assert words["letter"] == words["a4"] and len(words["letter"]) >= 2
    (lx, ly), (ax, ay) = boxes["letter"], boxes["a4"]
    assert lx - ax == pytest.approx((612 - 595.28) / 2, abs=0.05)
    assert ay - ly == pytest.approx((841.89 - 792) / 2, abs=0.05)


def body_sizes(pdf: Path, layout: str) -> list[set[float]]:
    """Each page's card body sizes: on each card of the page, the largest of the body's sizes
    (``card_fit``'s steps, 6 to 8 pt) that sets 20 characters or more. Labels are 6 pt on every
    card, names and stats larger, so a 7 or 8 pt run is the body's, and a card with none is at 6."""
    from collections import Counter

    from wastools.render import sheets
    from wastools.render.card_fit import MAX_PT, MIN_PT, STEP_PT

    steps = [MIN_PT + STEP_PT * i for i in range(int((MAX_PT - MIN_PT) / STEP_PT) + 1)]

    shape = sheets.shared_layout(layout)
    width, height = shape["card"]["width"], shape["card"]["height"]
    found = []
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            sizes = set()
            for slot in shape["slots"]:
                left, top = slot["x"], float(page.height) - slot["y"] - height
                chars = [c for c in page.chars if left <= c["x0"] < left + width and top <= c["top"] < top + height]
                if len(chars) > 40:  # a card, not an empty slot or a sheet label
                    count = Counter(round(c["size"], 2) for c in chars)
                    sizes.add(max(size for size in steps if count[size] >= 20 or size == MIN_PT))
            found.append(sizes)
    return found


def test_every_card_sheet_sets_its_cards_in_one_body_size(full_build):
    """Neighbouring cards read alike: on every sheet of every deck and pack of a whole build,
    each card's body is the same size (the largest every card of the sheet fits at)."""
    build = full_build / "build"
    checked = 0
    for pdf in sorted(build.glob("*/cards*.pdf")):
        layout = ("a4" if "-a4" in pdf.name else "letter") + ("-bleed" if "bleed" in pdf.name else "")
        for n, sizes in enumerate(body_sizes(pdf, layout), start=1):
            assert len(sizes) <= 1, f"{pdf.relative_to(build)} page {n}: bodies in {sorted(sizes)} pt"
            checked += bool(sizes)
    assert checked > 50


def lists_broken_inside(pdf: Path, layout: str) -> list[tuple[int, str, str]]:
    """Each place on a card of ``pdf`` where a hex list of dice ahead or astern runs on to the
    next line inside itself ("astern 6@4," / "5@13"): (page, line, next line)."""
    import re

    from wastools.render import sheets

    shape = sheets.shared_layout(layout)
    width, height = shape["card"]["width"], shape["card"]["height"]
    found = []
    with pdfplumber.open(pdf) as doc:
        for n, page in enumerate(doc.pages, start=1):
            for slot in shape["slots"]:
                top = float(page.height) - slot["y"] - height
                lines = (page.crop((slot["x"], top, slot["x"] + width, top + height)).extract_text() or "").splitlines()
                for line, after in zip(lines, lines[1:], strict=False):
                    inside = line.rstrip().endswith(",") and re.match(r"\s*\d+@", after)
                    if inside and re.search(r"\b(ahead|astern)\b", line):
                        found.append((n, line, after))
    return found


def test_hex_lists_of_dice_wrap_only_between_lists(full_build):
    """The dice ahead and astern share a line where they fit it, else take a line each: a
    list never breaks inside itself, on any hex card of a whole build."""
    decks = sorted((full_build / "build" / "hex").glob("cards*.pdf"))
    assert decks
    for pdf in decks:
        layout = ("a4" if "-a4" in pdf.name else "letter") + ("-bleed" if "bleed" in pdf.name else "")
        assert lists_broken_inside(pdf, layout) == [], pdf.name
