"""Rulers, maps and counters: geometry as numbers, then measured inside the PDFs."""

from __future__ import annotations

import io
from itertools import pairwise

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests import printcheck
from wastools.core.geometry import PT_PER_CM, PT_PER_IN, hex_center, hex_corners, split, tiles
from wastools.render import counters, maps, rulers
from wastools.render.pages import Page, check_bars
from wastools.render.sheets import PrinterProfile
from wastools.variants import VARIANTS

SMOKE = VARIANTS["off-grid"].smoke_fn(VARIANTS["off-grid"].defaults())  # the off-grid smoke templates


def open_pdf(data: bytes):
    return pdfplumber.open(io.BytesIO(data))


def vertical_lines(page, min_len=0.0, max_len=1e9):
    return [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and min_len <= ln["height"] <= max_len]


def strip_ticks(page, height: float) -> dict[float, list[float]]:
    """x positions of ticks of one height, per ruler strip (strips differ in their top)."""
    out: dict[float, list[float]] = {}
    for ln in vertical_lines(page, height - 0.1, height + 0.1):
        out.setdefault(round(ln["top"], 1), []).append(ln["x0"])
    return {k: sorted(v) for k, v in out.items()}


def horizontal_lines(page, min_len=0.0):
    return [ln for ln in page.lines if abs(ln["y0"] - ln["y1"]) < 0.01 and ln["width"] >= min_len]


# --- rulers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, params, unit_pt",
    [
        ("off-grid", {}, 3 * PT_PER_IN),
        ("off-grid", {"leg_in": "2.5"}, 2.5 * PT_PER_IN),
        ("off-grid", {"grid_in": "4"}, 4 * 0.56 * PT_PER_IN),
        ("hex", {}, 6 * PT_PER_CM),
        ("hex", {"hex_cm": "5"}, 5 * PT_PER_CM),
        ("large-map", {}, 4 * PT_PER_IN),
    ],
)
def test_ruler_ticks_are_one_unit_apart(variant, params, unit_pt):
    v = VARIANTS[variant]
    ruler = v.rulers(v.resolve(params))[0]
    pdf, _pages = rulers.rulers_pdf([ruler], "letter", "t")
    steps = []
    with open_pdf(pdf) as doc:
        for strip in strip_ticks(doc.pages[0], 13).values():
            steps += [round(b - a, 3) for a, b in pairwise(strip)]
    assert steps and all(abs(s - unit_pt * rulers.number_step(ruler)) < 0.01 for s in steps)
    assert rulers.number_step(ruler) == 1  # every unit numbered: these units are wide enough


def test_inch_rulers_mark_the_seed_distances():
    v = VARIANTS["tabletop-inches"]
    heavy = v.rulers(v.defaults())[0]
    assert [(z.start, z.end) for z in heavy.zones] == [(0, 5), (5, 10), (10, 20), (20, 30), (30, 35), (35, 40)]
    pdf, pages = rulers.rulers_pdf([heavy], "a4", "t")
    with open_pdf(pdf) as doc:
        minor = [x for strip in strip_ticks(doc.pages[0], 7).values() for x in strip]
        labelled = strip_ticks(doc.pages[0], 13)
    assert labelled and all(
        round(b - a, 3) == 72.0 for s in labelled.values() for a, b in pairwise(s)
    )  # every inch numbered
    assert len(minor) > 20


@pytest.mark.parametrize("scale, sector", [("6 ft", 10), ("8 ft", 15)])
def test_centimetre_rulers(scale, sector):
    v = VARIANTS["tabletop-cm"]
    ruler = next(r for r in v.rulers(v.defaults()) if scale in r.title)
    assert ruler.zones[1].end == 2 * sector  # range 1 reaches 2 sectors: 20 cm at 6 ft
    pdf, _ = rulers.rulers_pdf([ruler], "letter", "t")
    with open_pdf(pdf) as doc:
        strips = strip_ticks(doc.pages[0], 13)
        text = " ".join(p.extract_text() for p in doc.pages)
    # every centimetre ticked and numbered, on both table scales
    assert strips and all(abs((b - a) - PT_PER_CM) < 0.01 for s in strips.values() for a, b in pairwise(s))
    assert {str(n) for n in range(round(ruler.length) + 1)} <= set(text.split())  # each centimetre numbered


def test_long_rulers_split_with_join_marks():
    v = VARIANTS["tabletop-inches"]
    pdf, pages = rulers.rulers_pdf(v.rulers(v.defaults()), "letter", "t")
    with open_pdf(pdf) as doc:
        text = " ".join(p.extract_text() for p in doc.pages)
        turned = {t for p in doc.pages for t, _box, vertical in printcheck.labels(p) if vertical}
    assert "(part 1 of 5)" in text and "(part 5 of 5)" in text and "join 4" in text
    assert {"glue part 2", "glue part 5"} <= turned and "glue part 6" not in turned  # a tab on each part but the last


@given(length=st.floats(1, 5000), page=st.floats(100, 800))
def test_split_covers_the_ruler_in_equal_pieces(length, page):
    pieces = split(length, page)
    assert pieces[0].start_pt == 0 and abs(pieces[-1].end_pt - length) < 1e-6
    assert all(p.end_pt - p.start_pt <= page + 1e-6 for p in pieces)
    assert all(abs(a.end_pt - b.start_pt) < 1e-9 for a, b in pairwise(pieces))


# --- maps ----------------------------------------------------------------------------------


def test_square_sectors_are_288_pt_apart():
    spec = maps.square_map("t", 24, 12, 4 * PT_PER_IN)
    pdf, pages = maps.map_pdf(spec, "letter")
    with open_pdf(pdf) as doc:
        page = doc.pages[3]
        xs = sorted({round(ln["x0"], 3) for ln in vertical_lines(page, 200)})
    grid = [x for x in xs if x > 20]
    assert any(abs((b - a) - 288.0) < 0.01 for a, b in pairwise(grid))


def test_hexes_are_170_08_pt_flat_to_flat():
    flat = 6 * PT_PER_CM
    assert round(flat, 2) == 170.08
    corners = hex_corners(*hex_center(3, 2, flat), flat)
    top = [y for _x, y in corners if abs(y - max(c[1] for c in corners)) < 1e-9]
    assert abs((max(c[1] for c in corners) - min(c[1] for c in corners)) - flat) < 1e-9 and len(top) == 2
    spec = maps.hex_map("t", 96 * PT_PER_IN, 48 * PT_PER_IN, flat)
    pdf, _ = maps.map_pdf(spec, "a4")
    with open_pdf(pdf) as doc:
        page = doc.pages[5]
        edges = [c for c in page.curves] if page.curves else []
        ys = sorted({round(pt[1], 3) for c in edges for pt in c["pts"]})
    diffs = {round(b - a, 2) for a, b in pairwise(ys)}
    assert 85.04 in diffs or 170.08 in diffs  # half and whole flat-to-flat steps


def test_seam_marks_close_into_whole_circles_across_every_seam():
    spec = maps.square_map("t", 24, 12, 4 * PT_PER_IN)
    page = Page.of("letter", landscape=True)
    tile_list = maps.page_tiles(spec, page)
    ax, ay, _w, _h = page.area
    pdf, _ = maps.map_pdf(spec, "letter")
    with open_pdf(pdf) as doc:

        def circles(index):
            tile = tile_list[index]
            return {
                (round(c["x0"] + 6 - ax + tile.x0, 2), round(c["y0"] + 6 - ay + tile.y0, 2))
                for c in doc.pages[index + 1].curves
                if round(c["x1"] - c["x0"], 1) == 12.0
            }

        first = tile_list.index(next(t for t in tile_list if t.col == 0 and t.row == max(x.row for x in tile_list)))
        right = tile_list.index(next(t for t in tile_list if t.col == 1 and t.row == tile_list[first].row))
        below = tile_list.index(next(t for t in tile_list if t.col == 0 and t.row == tile_list[first].row - 1))
        for other in (right, below):
            shared = set(maps.seam_marks(tile_list[first], tile_list)) & set(
                maps.seam_marks(tile_list[other], tile_list)
            )
            assert len(shared) == 2
            on_both = {(round(x, 2), round(y, 2)) for x, y in shared}
            assert on_both <= circles(first) and on_both <= circles(other)
    # each mark sits on a seam: on the boundary of both pages' own areas
    for tile in tile_list:
        for x, y in maps.seam_marks(tile, tile_list):
            assert min(abs(x - tile.x0), abs(x - tile.core_x1), abs(y - tile.y0), abs(y - tile.core_y1)) < 1e-6


def test_every_tile_names_its_glue_strips_and_trim_edges():
    spec = maps.square_map("t", 6, 4, 4 * PT_PER_IN)
    pdf, pages = maps.map_pdf(spec, "letter", numbering=maps.Numbering(first=5))
    tile_list = maps.page_tiles(spec, Page.of("letter", landscape=True))
    with open_pdf(pdf) as doc:
        texts = [" ".join((p.extract_text() or "").split()) for p in doc.pages]
    assert "page 5: plan of the whole map" in texts[0]
    for index, tile in enumerate(tile_list):
        text = texts[index + 1]
        assert f"page {6 + index} of {5 + len(tile_list)}" in text
        glue = "glue: page" in text or "egap :eulg" in text  # a side strip's label reads upwards
        assert glue == bool(maps.glue_strips(tile))
        assert ("Trim the" in text) == (tile.col > 0 or tile.row > 0)  # a page to the left or below
        assert f"page {6 + index}" in texts[0]  # the plan shows it with this file's page number


@given(w=st.floats(500, 8000), h=st.floats(500, 8000), overlap=st.floats(0, 72))
def test_tiles_cover_the_map_with_the_overlap(w, h, overlap):
    out = tiles(w, h, 720, 528, overlap)
    for t in out:
        assert t.width <= 720 + 1e-6 and t.height <= 528 + 1e-6
    # every point of the map is on some tile's own (core) area
    for fx in (0.0, 0.37, 0.999):
        for fy in (0.0, 0.5, 0.999):
            x, y = fx * w, fy * h
            assert any(t.x0 <= x <= t.core_x1 and t.y0 <= y <= t.core_y1 for t in out)
    rights = [t for t in out if t.core_x1 < w]
    assert all(abs((t.x0 + t.width) - t.core_x1 - overlap) < 1e-6 for t in rights)


def test_maps_have_an_assembly_page_on_both_papers():
    for paper in ("letter", "a4"):
        spec = maps.square_map("board", 24, 12, 4 * PT_PER_IN)
        pdf, pages = maps.map_pdf(spec, paper)
        with open_pdf(pdf) as doc:
            assert "plan of the whole map" in doc.pages[0].extract_text()
            assert len(doc.pages) == pages == len(maps.page_tiles(spec, Page.of(paper, True))) + 1


# --- every sheet: check bars, no scaling, printer profile ------------------------------------


def sheets_to_check():
    yield (
        rulers.rulers_pdf(VARIANTS["off-grid"].rulers(VARIANTS["off-grid"].defaults()), "letter", "t")[0],
        Page.of("letter", True),
    )
    yield counters.counters_pdf("a4", SMOKE)[0], Page.of("a4")
    yield maps.map_pdf(maps.square_map("b", 4, 2, 288), "a4")[0], Page.of("a4", True)


@pytest.mark.parametrize("index", range(3))
def test_check_bars_and_no_scaling_on_every_sheet(index):
    from pypdf import PdfReader

    pdf, page = list(sheets_to_check())[index]
    with open_pdf(pdf) as doc:
        for p in doc.pages:
            lengths = {round(ln["height"], 2) for ln in vertical_lines(p, 280)}
            assert {283.46, 288.0} <= lengths
    assert PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_printer_profile_scales_everything():
    plain, _ = counters.counters_pdf("letter", SMOKE)
    scaled, _ = counters.counters_pdf("letter", SMOKE, PrinterProfile(1.02, 0.98))
    with open_pdf(plain) as a, open_pdf(scaled) as b:
        bar_a = max(ln["height"] for ln in vertical_lines(a.pages[0], 280, 290))
        bar_b = max(ln["height"] for ln in vertical_lines(b.pages[0], 280, 300))
    assert abs(bar_b - bar_a * 0.98) < 0.01


def test_smoke_template_is_one_leg_in_radius():
    pdf, _ = counters.counters_pdf("letter", SMOKE)
    with open_pdf(pdf) as doc:
        last = doc.pages[-1]
        circle = max(last.curves, key=lambda c: c["x1"] - c["x0"])
    assert abs((circle["x1"] - circle["x0"]) - 2 * 3 * PT_PER_IN) < 0.5


def test_counters_are_three_quarters_of_an_inch():
    pdf, _ = counters.counters_pdf("letter", SMOKE)
    with open_pdf(pdf) as doc:
        sizes = {(round(r["width"], 2), round(r["height"], 2)) for r in doc.pages[0].rects}
    assert (54.0, 54.0) in sizes


def test_check_bars_stay_in_the_margins_of_every_page():
    for paper in ("letter", "a4"):
        for landscape in (False, True):
            page = Page.of(paper, landscape)
            bars = check_bars(page)
            assert {b.vertical for b in bars} == {True, False}
            for bar in bars:
                x0, y0, x1, y1 = bar.footprint()
                assert 12 <= x0 < x1 <= page.width - 12 and 12 <= y0 < y1 <= page.height - 12
                # never on the content area
                assert x1 <= 36 or x0 >= page.width - 36 or y1 <= 36 or y0 >= page.height - 36


@pytest.mark.parametrize("name", ["letter", "a4", "letter-bleed", "a4-bleed"])
def test_card_layouts_keep_bars_and_marks_in_the_printable_area(name):
    from wastools.render import sheets

    layout = sheets.load_layout(name)
    w, h = layout["page"]["width"], layout["page"]["height"]
    left, bottom, right, top = sheets.card_area(layout)
    boxes = [bar.footprint() for bar in sheets.card_sheet_bars(layout)]
    boxes += [
        (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)) for (x1, y1), (x2, y2) in sheets.crop_mark_segments(layout)
    ]
    for x0, y0, x1, y1 in boxes:
        assert 12 <= x0 and x1 <= w - 12 and 12 <= y0 and y1 <= h - 12
        assert x1 <= left or x0 >= right or y1 <= bottom or y0 >= top  # off the cards
    for bar in sheets.card_sheet_bars(layout):  # and clear of the cut, which a bar on a trim line loses
        x0, y0, x1, y1 = bar.footprint()
        assert x1 <= left - 2 or x0 >= right + 2 or y1 <= bottom - 2 or y0 >= top + 2, (name, bar)
    assert {b.vertical for b in sheets.card_sheet_bars(layout)} == {True, False}


@pytest.mark.parametrize("edge", ["long", "short"])
def test_real_and_dummy_submarines_share_a_face_and_differ_on_the_mirrored_back(edge):
    page = Page.of("letter")
    slots = counters.counter_positions(page)
    profile = PrinterProfile(duplex_edge=edge)
    pdf, pages = counters.counters_pdf("letter", SMOKE, profile)
    items = counters.counter_set()
    subs = [i for i, c in enumerate(items) if c.kind == "submarine"]
    assert {items[i].text for i in subs} == {"SUB"} and {items[i].back for i in subs} == {"REAL", "DUMMY"}
    with open_pdf(pdf) as doc:
        front, back = doc.pages[0], doc.pages[1]

        def word_at(p, x, y):
            top = p.height - (y + counters.SIZE)
            box = p.crop((x + 1, top + 1, x + counters.SIZE - 1, top + counters.SIZE - 1))
            return " ".join((box.extract_text() or "").split())

        faces = {word_at(front, *slots[i]) for i in subs}
        assert faces == {"SUB submarine"}  # nothing on the face tells them apart
        backs = [word_at(back, *counters.back_position(page, *slots[i], profile)) for i in subs]
        assert backs == [items[i].back for i in subs]
        assert f"flip on the {edge} edge" in " ".join((front.extract_text() or "").split())
        assert f"flip on the {edge} edge" in " ".join((back.extract_text() or "").split())
    # behind each face: mirrored left-right for a long-edge flip, top-bottom for a short one
    x, y = slots[subs[0]]
    bx, by = counters.back_position(page, x, y, profile)
    if edge == "long":
        assert (bx + counters.SIZE / 2, by) == pytest.approx((page.width - x - counters.SIZE / 2, y))
    else:
        assert (bx, by + counters.SIZE / 2) == pytest.approx((x, page.height - y - counters.SIZE / 2))
    assert pages == 2 * -(-len(items) // len(slots)) + 1


def test_overlapping_bands_get_a_strip_each_and_never_overlap_within_one():
    v = VARIANTS["off-grid"]
    aa = next(r for r in v.rulers(v.defaults()) if "Antiair" in r.title)
    sets = rulers.band_sets(aa.zones)
    assert [[z.label for z in s] for s in sets] == [
        ["AA short", "AA long (-1)"],
        ["Heavy AA short", "Heavy AA long (-1)"],
    ]
    for variant in ("off-grid", "tabletop-cm", "tabletop-inches", "hex", "large-map"):
        for ruler in VARIANTS[variant].rulers(VARIANTS[variant].defaults()):
            for bands in rulers.band_sets(ruler.zones):
                assert all(a.end <= b.start + 1e-9 for a, b in pairwise(bands))
    pdf, _ = rulers.rulers_pdf([aa], "letter", "t")
    with open_pdf(pdf) as doc:
        words = [w["text"] for w in doc.pages[0].extract_words(keep_blank_chars=True)]
    assert sum("AA short" == w.strip() for w in words) == 1 and sum("Heavy AA short" == w.strip() for w in words) == 1


def test_each_band_strip_ends_where_its_own_bands_end():
    """Normal AA reaches 2 legs, heavy AA 3: the normal strip stops at 2, measured in the PDF."""
    v = VARIANTS["off-grid"]
    aa = next(r for r in v.rulers(v.defaults()) if "Antiair" in r.title)
    strips = rulers.pieces([aa], 10_000)
    assert len(strips) == 2
    for strip in strips:
        assert strip.segment.end_pt == pytest.approx(max(z.end for z in strip.zones) * aa.unit_pt)
    pdf, _ = rulers.rulers_pdf([aa], "letter", "t")
    with open_pdf(pdf) as doc:
        widths = sorted(round(r["width"], 1) for r in doc.pages[0].rects if r["height"] > 30)
    assert [round(2 * aa.unit_pt, 1), round(3 * aa.unit_pt, 1)] == [w for w in widths if w > aa.unit_pt][:2]


def test_every_counter_word_fits_its_counter():
    from wastools.render.sheets import BOLD, FONT, text_width

    for counter in counters.counter_set():
        assert text_width(counter.text, counters.WORD, BOLD) <= counters.SIZE - 4
        assert text_width(counter.sub, counters.NOTE_SIZE, FONT) <= counters.SIZE - 4
        assert text_width(counter.back, counters.WORD, BOLD) <= counters.SIZE - 4
