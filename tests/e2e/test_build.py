"""End-to-end builds of small decks, measured inside the PDFs."""

from __future__ import annotations

import json
import os
from itertools import pairwise

import pdfplumber
import pytest
from pypdf import PdfReader

from tests.conftest import DATA, ROOT
from wastools import pipeline as builder
from wastools.data import repository
from wastools.render import sheets

pytestmark = pytest.mark.slow
SAMPLE = (
    "hms-cossack",
    "uss-fletcher-dd-445",
    "bismarck",
    "a6m2-zeke",
    "i-19",
    "uss-enterprise-cv-6",
    "hmas-arunta",
    "yamato",
    "pby-catalina",
    "hr-ms-zwaardvisch",
    "z18-hans-ludemann",
)


@pytest.fixture(scope="module")
def built(tmp_path_factory, repo):
    out = tmp_path_factory.mktemp("build")
    report = builder.build(repo, DATA, out, builder.Selection(units=SAMPLE, name="sample"), builder.Options(jobs=2))
    return out, report


def test_outputs_and_manifest(built):
    out, report = built
    import json

    manifest = json.loads((out / "manifest.json").read_text())
    decks = {
        f"{v}/{name}"
        for v in ("standard", "large-map", "tabletop-cm", "hex", "off-grid", "tabletop-inches")
        for name in ("cards-sample.pdf", "cards-sample-a4.pdf")
    }
    others = {
        f"{v}/rulers{s}.pdf"
        for v in ("large-map", "tabletop-cm", "hex", "off-grid", "tabletop-inches")
        for s in ("", "-a4")
    }
    others |= {
        "large-map/map-square.pdf",
        "large-map/map-square-a4.pdf",
        "hex/map-hex.pdf",
        "hex/map-hex-a4.pdf",
        "counters.pdf",
        "counters-a4.pdf",
        *(f"{v}/counters{s}.pdf" for v in ("hex", "off-grid") for s in ("", "-a4")),  # their own counters
    }
    # a subset's build makes its decks and the sheets that read no unit; player aids and
    # scenario packs only whole builds make (a full deck and its aid always agree)
    others |= {"large-map/map-square-poster.pdf", "hex/map-hex-poster.pdf"}
    calibrations = {f"calibration/duplex-{p}{o}.pdf" for p in ("letter", "a4") for o in ("", "-landscape")}
    assert set(manifest["outputs"]) == decks | others | calibrations
    import hashlib

    for rel, entry in manifest["outputs"].items():
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == entry["sha256"]
        assert len(PdfReader(out / rel).pages) == entry["pages"]
    for rel in decks:
        assert manifest["outputs"][rel]["pages"] == 2  # 11 cards, 9 a sheet

    assert report.cards_total == 66 and not list(
        DATA.glob(f".build-tmp/{os.getpid()}-*")
    )  # other workers may be building


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_cards_measure_180_by_252_nine_per_page(built, paper):
    out, _ = built
    layout = sheets.load_layout(paper)
    path = out / "hex" / ("cards-sample.pdf" if paper == "letter" else "cards-sample-a4.pdf")
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        assert (round(page.width, 2), round(page.height, 2)) == (layout["page"]["width"], layout["page"]["height"])
        faces = {
            (round(r["x0"], 2), round(r["y0"], 2), round(r["width"], 2), round(r["height"], 2))
            for r in page.rects
            if r["fill"]
        }
        cards = sorted((f for f in faces if f[2:] == (180.0, 252.0)), key=lambda f: (-f[1], f[0]))
        assert len(cards) == 9
        assert [(x, y) for x, y, _w, _h in cards] == [(round(s["x"], 2), round(s["y"], 2)) for s in layout["slots"]]


def test_crop_marks_where_the_layout_says(built):
    out, _ = built
    layout = sheets.load_layout("letter")
    with pdfplumber.open(out / "hex" / "cards-sample.pdf") as pdf:
        page = pdf.pages[0]
        lines = {(round(ln["x0"], 2), round(ln["y0"], 2), round(ln["x1"], 2), round(ln["y1"], 2)) for ln in page.lines}
    for (x1, y1), (x2, y2) in sheets.crop_mark_segments(layout):
        assert (round(x1, 2), round(y1, 2), round(x2, 2), round(y2, 2)) in lines
        # off the cards and inside the page
        assert (
            0 < min(x1, x2)
            and max(x1, x2) < layout["page"]["width"]
            and 0 < min(y1, y2)
            and max(y1, y2) < layout["page"]["height"]
        )
        for slot in layout["slots"]:
            inside_x = slot["x"] < (x1 + x2) / 2 < slot["x"] + 180
            inside_y = slot["y"] < (y1 + y2) / 2 < slot["y"] + 252
            assert not (inside_x and inside_y)


def test_check_bars_and_print_scaling(built):
    out, _ = built
    for name in ("cards-sample.pdf", "cards-sample-a4.pdf"):
        with pdfplumber.open(out / "off-grid" / name) as pdf:
            lengths = sorted(
                round(ln["height"], 2) for ln in pdf.pages[0].lines if ln["x0"] == ln["x1"] and ln["height"] > 200
            )
        assert 283.46 in lengths and 288.0 in lengths
        prefs = PdfReader(out / "off-grid" / name).trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"


@pytest.mark.parametrize(
    "variant, expected",
    [
        ("hex", ["HMS Cossack", "6@1, 5@7", "7 hexes", "Footprint"]),
        ("tabletop-cm", ["USS Fletcher", "20 cm", "Finds submarines"]),
        ("off-grid", ["4 legs", "within 2 legs, -1 on each die"]),
        ("tabletop-inches", ["10 in", "Bismarck"]),
        ("large-map", ["A6M2", "9 sectors each air phase", "Vital Armor by squadrons aboard"]),
        ("standard", ["Yamato", "2 sectors"]),
    ],
)
def test_card_text_holds_the_variant_values(built, variant, expected):
    out, _ = built
    with pdfplumber.open(out / variant / "cards-sample.pdf") as pdf:
        text = " ".join((p.extract_text() or "") for p in pdf.pages)
    text = " ".join(text.split())
    for needle in expected:
        assert needle in text, (variant, needle)


def test_no_text_leaves_its_card(built):
    out, _ = built
    layout = sheets.load_layout("letter")
    for variant in ("hex", "tabletop-inches", "large-map"):
        with pdfplumber.open(out / variant / "cards-sample.pdf") as pdf:
            for page in pdf.pages:
                for ch in page.chars:
                    if (
                        ch["size"] > 5
                        and ch["x0"] > 30
                        and ch["x1"] < 582
                        and page.height - ch["top"] > min(s["y"] for s in layout["slots"])
                    ):  # not the band under the cards
                        inside = any(
                            s["x"] - 0.5 <= ch["x0"]
                            and ch["x1"] <= s["x"] + 180.5
                            and s["y"] - 0.5 <= page.height - ch["bottom"]
                            and page.height - ch["top"] <= s["y"] + 252.5
                            for s in layout["slots"]
                        )
                        assert inside, (variant, ch["text"], ch["x0"], ch["top"])


def test_second_build_renders_nothing_and_is_byte_identical(built, repo, tmp_path):
    out, _ = built
    again = builder.build(repo, DATA, out, builder.Selection(units=SAMPLE, name="sample"), builder.Options(jobs=1))
    outputs = len(json.loads((out / "manifest.json").read_text())["outputs"])
    assert again.cards_rendered == 0 and again.written == 0 and again.unchanged == outputs
    fresh = tmp_path / "fresh"  # the same cards, from the store, imposed and joined into a new folder
    made = builder.build(repo, DATA, fresh, builder.Selection(units=SAMPLE, name="sample"), builder.Options(jobs=1))
    assert made.cards_rendered == 0 and made.written == outputs
    for rel in ("hex/cards-sample.pdf", "standard/cards-sample-a4.pdf"):
        assert (fresh / rel).read_bytes() == (out / rel).read_bytes()


def test_cold_builds_are_byte_identical(repo, tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    selection = builder.Selection(variants=("hex",), units=SAMPLE[:4], name="sample")
    builder.build(repo, DATA, one, selection, builder.Options(papers=("letter",), jobs=1))
    builder.build(repo, DATA, two, selection, builder.Options(papers=("letter",), jobs=2))
    assert (one / "hex/cards-sample.pdf").read_bytes() == (two / "hex/cards-sample.pdf").read_bytes()
    assert (one / "manifest.json").read_bytes() == (two / "manifest.json").read_bytes()


HOSTILE = '<b>Bold</b> url(file:///etc/passwd) <link rel=attachment href="file:///etc/passwd"> <img src="http://example.invalid/x.png">'


def test_hostile_text_prints_literally_and_fetches_nothing(tmp_repo, tmp_path):
    path = tmp_repo / "cards/uk/hms-cossack.yaml"
    text = path.read_text().replace("name: HMS Cossack", f"name: '{HOSTILE[:78]}'")
    text = text.replace("class: Tribal", "class: '<style>@import url(http://example.invalid/x.css)</style>'")
    path.write_text(text)
    abilities = tmp_repo / "cards/abilities.yaml"
    abilities.write_text(
        abilities.read_text().replace(
            "  - name: Valiant Stand\n    summary: gets +1 die on torpedo attacks against battleships",
            (
                "  - name: Valiant Stand\n    summary: '<script>x</script> url(file:///etc/hosts) <link "
                "rel=attachment href=/etc/hosts>'"
            ),
        )
    )
    result = repository.validate(tmp_repo)
    assert result.repository is not None, result.errors
    out = tmp_path / "build"
    builder.build(
        result.repository,
        tmp_repo,
        out,
        builder.Selection(variants=("hex",), units=("hms-cossack",), name="sample"),
        builder.Options(papers=("letter",), jobs=1),
    )
    pdf = out / "hex/cards-sample.pdf"
    with pdfplumber.open(pdf) as doc:
        shown = "".join((doc.pages[0].extract_text() or "").split())  # wrapping may split words
    assert "<b>Bold</b>" in shown and "url(file:///etc/" in shown  # the points box interleaves on wrap
    assert "<script>x</script>" in shown and "<linkrel=attachment" in shown
    raw = pdf.read_bytes()
    for marker in (b"/EmbeddedFile", b"/URI", b"/Launch", b"/JavaScript", b"root:x:0"):
        assert marker not in raw


def test_fetcher_refuses_everything_outside_the_project():
    from wastools.render.fetcher import ForbiddenResource, ProjectFetcher

    fetcher = ProjectFetcher()
    for url in (
        "http://example.invalid/x.css",
        "file:///etc/passwd",
        "data:text/css,body{}",
        "wastools-font:../../../etc/passwd",
    ):
        with pytest.raises(ForbiddenResource):
            fetcher.fetch(url)
    assert fetcher.fetch((ROOT / "wastools/templates/cards/card.css").as_uri()).read()


def test_backs_are_mirrored_for_long_edge_duplex(repo, tmp_path):
    from wastools.render.sheets import MM, PrinterProfile

    profile = PrinterProfile(back_dx=1.5 * MM, back_dy=-1 * MM)
    units = SAMPLE[:2]
    builder.build(
        repo,
        DATA,
        tmp_path,
        builder.Selection(variants=("hex",), units=units, name="sample"),
        builder.Options(papers=("letter",), profile=profile, backs=True, jobs=1),
    )
    layout = sheets.load_layout("letter")
    with pdfplumber.open(tmp_path / "hex" / "cards-sample-duplex.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts = sorted(
            {
                (round(r["x0"], 2), round(r["y0"], 2))
                for r in pdf.pages[0].rects
                if r["fill"] and round(r["width"], 2) == 180
            }
        )
        backs = sorted(
            {
                (round(r["x0"], 2), round(r["y0"], 2))
                for r in pdf.pages[1].rects
                if r["fill"] and round(r["width"], 2) == 180 and round(r["height"], 2) == 252
            }
        )
        assert "War at Sea" in pdf.pages[1].extract_text()
    assert fronts == sorted((s["x"], s["y"]) for s in layout["slots"][:2])
    expected = sorted((round(612 - s["x"] - 180 + 1.5 * MM, 2), round(s["y"] - MM, 2)) for s in layout["slots"][:2])
    assert backs == expected


def test_bleed_cards_extend_past_the_trim(repo, tmp_path):
    builder.build(
        repo,
        DATA,
        tmp_path,
        builder.Selection(variants=("standard",), units=SAMPLE[:6], name="sample"),
        builder.Options(papers=("a4",), bleed=True, jobs=1),
    )
    layout = sheets.load_layout("a4-bleed")
    bleed = layout["bleed"]
    with pdfplumber.open(tmp_path / "standard" / "cards-sample-a4-bleed.pdf") as pdf:
        page = pdf.pages[0]
        assert (round(page.width, 2), round(page.height, 2)) == (841.89, 595.28)
        faces = sorted(
            {
                (round(r["x0"], 2), round(r["y0"], 2))
                for r in page.rects
                if r["fill"] and round(r["width"], 2) == 180 + 2 * bleed
            }
        )
    assert faces == sorted((round(s["x"] - bleed, 2), round(s["y"] - bleed, 2)) for s in layout["slots"])
    for (x1, y1), (x2, y2) in sheets.crop_mark_segments(layout):
        for s in layout["slots"]:  # marks stay clear of the bleed too
            assert not (
                s["x"] - bleed < (x1 + x2) / 2 < s["x"] + 180 + bleed
                and s["y"] - bleed < (y1 + y2) / 2 < s["y"] + 252 + bleed
            )


def _filled(page, width: float, height: float, color=None) -> list[tuple[float, float]]:
    """Where a page has filled rectangles of this size (and this fill color, when given)."""
    return sorted(
        (round(r["x0"], 2), round(r["y0"], 2))
        for r in page.rects
        if r["fill"]
        and (round(r["width"], 2), round(r["height"], 2)) == (width, height)
        and (color is None or tuple(round(c, 3) for c in r["non_stroking_color"]) == color)
    )


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_a_back_bleeds_as_far_as_its_front_and_registers_with_it(repo, tmp_path, paper):
    """A back's dark ground fills the very bleed box of its front, mirrored for a long-edge
    flip (top to bottom: the bleed sheets are landscape), so a cut a little off the line
    shows no white on either side; its frame and words stay inside the trim, and it names
    the variant in a player's words."""
    from wastools.core import wording

    units = SAMPLE[:2]
    builder.build(
        repo,
        DATA,
        tmp_path,
        builder.Selection(variants=("hex",), units=units, name="sample"),
        builder.Options(papers=(paper,), bleed=True, backs=True, jobs=1),
    )
    layout = sheets.load_layout(f"{paper}-bleed")
    bleed, height = layout["bleed"], layout["page"]["height"]
    box = (180 + 2 * bleed, 252 + 2 * bleed)
    dark = (0.122, 0.227, 0.373)  # the back's ground, #1f3a5f
    (deck,) = (tmp_path / "hex").glob("cards-sample-*duplex.pdf")
    with pdfplumber.open(deck) as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        fronts = _filled(front, *box)
        grounds = _filled(back, *box, color=dark)
        words = back.extract_words()
        text = back.extract_text()
    slots = layout["slots"][: len(units)]
    assert fronts == sorted((round(s["x"] - bleed, 2), round(s["y"] - bleed, 2)) for s in slots)
    mirrored = sorted((x, round(height - (y + box[1]), 2)) for x, y in fronts)
    assert grounds == mirrored
    for x, y in grounds:  # pdfplumber's words count from the top, its rectangles from the bottom
        top = back.height - (y + box[1])
        on_it = [w for w in words if x <= w["x0"] < x + box[0] and top <= w["top"] < top + box[1]]
        assert on_it
        safe = (x + bleed + 12, top + bleed + 12, x + bleed + 180 - 12, top + bleed + 252 - 12)
        assert all(
            safe[0] <= w["x0"] and w["x1"] <= safe[2] and safe[1] <= w["top"] and w["bottom"] <= safe[3] for w in on_it
        )
    assert "War at Sea" in text and "Hex grid" in text
    assert not wording.lint(text, has_sectors=False)


def test_calibration_sheet(built):
    out, _ = built
    with pdfplumber.open(out / "calibration" / "duplex-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        assert "Duplex calibration: front" in pdf.pages[0].extract_text()
        ticks = [ln for ln in pdf.pages[1].lines if abs(ln["x0"] - ln["x1"]) < 0.01 and ln["height"] in (5.0, 10.0)]
        xs = sorted({round(ln["x0"], 3) for ln in ticks})
        steps = {round(b - a, 3) for a, b in pairwise(xs)}
        assert round(72 / 25.4, 3) in steps  # 1 mm ticks
