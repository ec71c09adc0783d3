"""The duplex calibration sheet: a front with crosses, a back with scales under them.

Print it double-sided at 100 %, flipping on the edge the printer profile names (long by
default, `--duplex-edge short` or `printer.duplex_edge` in wastools.toml for short), hold it
to the light and read where each front cross falls on the back's scales: that is the printer's
back offset in millimeters, for `wastools build --backs --back-offset-x .. --back-offset-y ..`.
"""

from __future__ import annotations

import io
from typing import Any

from .sheets import (
    BOLD,
    FONT,
    LABEL_SIZE,
    MM,
    PrinterProfile,
    _FormMaker,
    _overlay,
    add_page,
    finish_pikepdf,
    register_fonts,
)

SPAN_MM = 10  # scales read -10 .. +10 mm


def targets(layout: dict[str, Any]) -> list[tuple[float, float]]:
    """Front cross positions: the page center and two opposite corners of the card area."""
    xs, ys = layout["crop_lines"]["x"], layout["crop_lines"]["y"]
    w, h = layout["page"]["width"], layout["page"]["height"]
    return [(w / 2, h / 2), (min(xs) + 40, max(ys) - 40), (max(xs) - 40, min(ys) + 40)]


def _page(layout: dict[str, Any], draw) -> bytes:
    from reportlab.pdfgen import canvas

    register_fonts()
    buf = io.BytesIO()
    c = canvas.Canvas(
        buf,
        pagesize=(layout["page"]["width"], layout["page"]["height"]),
        invariant=1,
        initialFontName=FONT,
        initialFontSize=LABEL_SIZE,
    )
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


FLIP_ADVICE = {
    "long": (
        "Print both sides at 100 % (actual size), flipping on the long edge.",
        "(Printer flips on the short edge? Build with --duplex-edge short and print this sheet again.)",
    ),
    "short": (
        "Print both sides at 100 % (actual size), flipping on the short edge (--duplex-edge short).",
        "(Printer flips on the long edge? Build without --duplex-edge short and print this sheet again.)",
    ),
}


def _front(layout: dict[str, Any], edge: str):
    def draw(c) -> None:
        c.setLineWidth(0.4)
        for x, y in targets(layout):
            c.line(x - 14, y, x + 14, y)
            c.line(x, y - 14, x, y + 14)
            c.circle(x, y, 4)
        c.setFont(BOLD, 11)
        w, h = layout["page"]["width"], layout["page"]["height"]
        c.drawCentredString(w / 2, h / 2 + 60, "Duplex calibration: front")
        c.setFont(FONT, 8)
        lines = [
            *FLIP_ADVICE[edge],
            "Hold the sheet to the light: read where each cross meets the scales on the back.",
            "Right and up are positive. Build with --back-offset-x X --back-offset-y Y (millimeters).",
        ]
        for i, text in enumerate(lines):
            c.drawCentredString(w / 2, h / 2 - 50 - 11 * i, text)

    return draw


def seen_through(x: float, y: float, layout: dict[str, Any], edge: str) -> tuple[float, float]:
    """Where a front point lies on the back page: a long-edge flip mirrors the sheet left
    to right, a short-edge flip top to bottom (as `sheets.back_slot` places card backs)."""
    if edge == "short":
        return x, layout["page"]["height"] - y
    return layout["page"]["width"] - x, y


def _back(layout: dict[str, Any], edge: str):
    # seen from the front the back is mirrored along one axis: +1 mm on the front is -1 mm there
    sx, sy = (1, -1) if edge == "short" else (-1, 1)

    def draw(c) -> None:
        c.setLineWidth(0.3)
        c.setFont(FONT, 6)
        for x, y in targets(layout):
            bx, by = seen_through(x, y, layout, edge)
            for i in range(-SPAN_MM, SPAN_MM + 1):
                tick = 5 if i % 5 == 0 else 2.5
                c.line(bx + sx * i * MM, by - tick, bx + sx * i * MM, by + tick)
                c.line(bx - tick, by + sy * i * MM, bx + tick, by + sy * i * MM)
                if i % 5 == 0 and i:
                    c.drawCentredString(bx + sx * i * MM, by - 10, f"{i:+d}")
                    c.drawString(bx + 7, by + sy * i * MM - 1.5, f"{i:+d}")
        c.setFont(BOLD, 11)
        w, h = layout["page"]["width"], layout["page"]["height"]
        c.drawCentredString(w / 2, h / 2 + 60, "Duplex calibration: back")

    return draw


def calibration_pdf(layout: dict[str, Any], profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    import pikepdf

    pdf = pikepdf.new()
    forms = _FormMaker(pdf)
    edge = profile.duplex_edge
    try:
        for name, draw in (("front", _front(layout, edge)), ("back", _back(layout, edge))):
            bars = _overlay(layout, f"duplex calibration ({layout['name']}, {name})", marks=False)
            add_page(forms, layout, [], [bars, _page(layout, draw)], [])
        return finish_pikepdf(pdf, f"duplex calibration ({layout['name']})", f"calibration:{layout['name']}"), 2
    finally:
        forms.close()
