"""The print standard, measured in every kind of sheet on Letter and A4, portrait and
landscape: no ink within 12 pt of an edge (rendered with pypdfium2), every font embedded,
nothing under 6 pt, a horizontal and a vertical check bar on every page, each measuring
what its label says. A built set of every output is checked the same way (slow)."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from tests import printcheck
from wastools.geometry import PT_PER_IN
from wastools.render import calibration, counters, maps, rulers, sheets
from wastools.variants import VARIANTS


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
        yield f"calibration {paper}", calibration.calibration_pdf(sheets.load_layout(paper))[0]
        yield f"counters {paper}", counters.counters_pdf(paper, 3.0)[0]
        yield f"wide map {paper}", maps.map_pdf(maps.square_map("wide", 5, 2, 4 * PT_PER_IN), paper)[0]
        yield f"tall map {paper}", maps.map_pdf(maps.square_map("tall", 2, 3, 4 * PT_PER_IN), paper)[0]
        yield f"hex map {paper}", maps.map_pdf(maps.hex_map("hex", 900, 500, 170.08), paper)[0]
        for variant in ("off-grid", "tabletop-cm", "tabletop-inches", "hex", "large-map"):
            v = VARIANTS[variant]
            yield f"rulers {variant} {paper}", rulers.rulers_pdf(v.extras["rulers"](v.defaults()), paper, "t")[0]


OUTPUTS = dict(outputs())


def check(pdf: bytes) -> list[str]:
    problems = printcheck.ink_near_edges(pdf)
    problems += [f"font not embedded: {f}" for f in sorted(printcheck.unembedded_fonts(pdf))]
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            n = page.page_number
            problems += [f"page {n}: text under 6 pt: {t!r}" for t in printcheck.small_text(page)]
            bars = printcheck.check_bars(page)
            problems += [f"page {n}: bar {b.label!r} measures {b.measured}, not {b.wanted:.2f}" for b in bars if b.measured is None or abs(b.measured - b.wanted) > 0.05]
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
