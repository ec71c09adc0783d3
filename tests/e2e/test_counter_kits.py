"""Counters measured in their PDFs: ink-light on every page, the common counters in the file
every variant prints, each variant's own counters and templates in its own file only."""

from __future__ import annotations

import io

import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import ImageStat

from wastools.render import counters
from wastools.render.pages import Page
from wastools.render.table_needs import print_beside
from wastools.variants import VARIANTS

PAPERS = ("letter", "a4")


def _kit(name: str | None, paper: str) -> bytes:
    """A variant's own counters file, or (None) the common one, as the build makes them."""
    if name is None:
        return counters.counters_pdf(paper, None)[0]
    v = VARIANTS[name]
    smoke = v.smoke_fn(v.defaults()) if v.smoke_fn else None
    return counters.counters_pdf(paper, smoke, markers=v.markers)[0]


def ink(page) -> float:
    """Share of the page covered by ink: the mean of cyan, magenta and yellow over the page at 2x."""
    image = page.render(scale=2).to_pil().convert("RGB")
    return 1 - sum(ImageStat.Stat(image).mean) / 3 / 255


def _text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return " ".join(" ".join((p.extract_text() or "").split()) for p in doc.pages)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", [None, "off-grid", "hex"])
def test_every_counter_page_is_ink_light(name, paper):
    doc = pdfium.PdfDocument(_kit(name, paper))
    inks = [ink(page) for page in doc]
    assert inks and max(inks) < 0.10, inks
    with pdfplumber.open(io.BytesIO(_kit(name, paper))) as plumbed:  # no solid fill: every fill a pale tint
        fills = [r["non_stroking_color"] for p in plumbed.pages for r in p.rects + p.curves if r["fill"]]
    assert fills and all(min(colour) >= 0.85 for colour in fills if isinstance(colour, tuple))


def test_an_ink_measure_that_can_see_a_solid_fill():
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(100, 100))
    c.setFillColorRGB(0.98, 0.85, 0.5)  # the amber the re-arm counters were filled with
    c.rect(0, 0, 100, 50, stroke=0, fill=1)
    c.save()
    assert ink(pdfium.PdfDocument(out.getvalue())[0]) == pytest.approx((0.02 + 0.15 + 0.5) / 3 / 2, abs=0.01)


@pytest.mark.parametrize("paper", PAPERS)
def test_the_common_file_holds_no_variants_own_counters_or_templates(paper):
    text = _text(_kit(None, paper))
    assert "RE-ARM" in text and "SUB" in text
    assert "SMOKE" not in text and "TORPEDO" not in text and "LOAD" not in text
    assert "SMOKE" in _text(_kit("off-grid", paper)) and "TORPEDO" not in _text(_kit("off-grid", paper))


@pytest.mark.parametrize("paper", PAPERS)
def test_the_hex_kit_has_the_face_down_load_counters_the_rules_name(paper):
    pdf = _kit("hex", paper)
    flat = _text(pdf)
    for word in ("DEPTH", "CHARGE", "BOMB", "TORPEDO"):  # depth charge in two lines
        assert flat.count(word) == 10, word
    assert flat.count("LOAD") == 30 and "SMOKE" not in flat  # one back for all: face down, they look alike
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 2 == counters.counter_pages(paper, False, VARIANTS["hex"].markers)  # one sheet
    page = Page.of(paper)
    assert len(counters.counter_set(VARIANTS["hex"].markers)) <= len(counters.counter_positions(page))


def test_each_variant_names_the_counters_file_it_prints():
    own = {name for name, v in VARIANTS.items() if "counters" in dict(v.outputs())}
    assert own >= {"off-grid", "hex"} and not own & {"standard", "large-map", "tabletop-cm", "tabletop-inches"}


def test_a_pack_names_its_variants_own_counters_or_the_common_file(repo):
    for s in repo.scenarios.values():
        named = [f["letter"] for f in print_beside(s)]
        counters_named = [n for n in named if n.endswith("counters.pdf")]
        wanted = f"{s.variant}/counters.pdf" if VARIANTS[s.variant].has_own_counters else "counters.pdf"
        assert counters_named == [wanted], s.id


def test_every_own_counter_word_fits_its_counter():
    from wastools.render.sheets import BOLD, FONT, text_width

    for v in VARIANTS.values():
        for m in v.markers:
            assert all(
                text_width(line, counters.WORD, BOLD) <= counters.SIZE - 2 * counters.INSET - 2
                for line in m.word.split("\n")
            )
            assert text_width(m.note, counters.NOTE_SIZE, FONT) <= counters.SIZE - 4
            assert text_width(m.back, counters.WORD, BOLD) <= counters.SIZE - 4


@pytest.mark.slow
def test_every_counters_file_of_a_full_build_is_ink_light_and_holds_only_its_own(full_build):
    build = full_build / "build"
    found = sorted(build.glob("counters*.pdf")) + sorted(build.glob("*/counters*.pdf"))
    assert {p.parent.name for p in found} >= {"build", "hex", "off-grid"}
    for path in found:
        assert max(ink(page) for page in pdfium.PdfDocument(path.read_bytes())) < 0.10, path
        text = _text(path.read_bytes())
        family = VARIANTS[path.parent.name].family if path.parent != build else None
        assert ("SMOKE" in text) == (family == "off-grid"), path
        assert ("TORPEDO" in text) == (family == "hex"), path
