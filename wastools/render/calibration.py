"""The duplex calibration sheet: a front with crosses, a back with scales under them.

Print it double-sided at 100 %, flipping on the edge the printer profile names (long by
default, `--duplex-edge short` or `printer.duplex_edge` in wastools.toml for short), hold it
to the light and read where each front cross falls on the back's x and y scales: that is the
printer's back offset in millimeters, for `wastools build --backs --back-offset-x .. --back-offset-y ..`.
Each scale is numbered the way its setting moves a back (``sheets.back_offset``), so the number
a cross meets is the setting that puts the back behind it. The landscape sheet (a bleed
layout) reads the same offsets, turned into its frame as the bleed sheets' backs are (for the
profile's ``landscape_turn``): numbers of the other sign there mean the printer turns
landscape pages the other way.
"""

from __future__ import annotations

import io
from typing import Any

from . import sheets
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


def _front(layout: dict[str, Any], profile: PrinterProfile):
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
        lines = [*FLIP_ADVICE[profile.duplex_edge], *_reading(layout, profile.landscape_turn)]
        for i, text in enumerate(lines):
            c.drawCentredString(w / 2, h / 2 - 50 - 11 * i, text)

    return draw


def _reading(layout: dict[str, Any], turn: str) -> list[str]:
    """How to read the back's scales, and, on a landscape sheet, what it is for."""
    lines = [
        "Hold the sheet to the light: on the back's x and y scales, read the number each cross meets.",
        "Build with --back-offset-x X --back-offset-y Y (millimeters), the numbers as read.",
    ]
    if layout["page"]["width"] > layout["page"]["height"]:
        other = "clockwise" if turn == "counterclockwise" else "counterclockwise"
        lines += [
            "This sheet checks the landscape (bleed) sheets: it shows the portrait sheet's numbers when",
            f"your printer turns landscape pages a quarter turn {turn}, as this build assumes.",
            f"Both numbers of the other sign? Build with --landscape-turn {other} and print this sheet again.",
        ]
    return lines


def seen_through(x: float, y: float, layout: dict[str, Any], edge: str) -> tuple[float, float]:
    """Where a front point lies on the back page: mirrored about the axis the flip turns
    the sheet on (as `sheets.back_position` places card backs)."""
    w, h = layout["page"]["width"], layout["page"]["height"]
    return sheets.back_position(x, y, (0.0, 0.0), (w, h), PrinterProfile(duplex_edge=edge))


def scale_directions(
    layout: dict[str, Any], profile: PrinterProfile = PrinterProfile()
) -> dict[str, tuple[float, float]]:
    """The way each offset setting moves a back on this page (``sheets.back_offset``, for the
    profile's landscape turn): its scale on the back is numbered that way, so the number a
    cross meets is the setting that brings the back behind it."""
    w, h = layout["page"]["width"], layout["page"]["height"]
    turn = profile.landscape_turn
    return {
        "x": sheets.back_offset(w, h, PrinterProfile(back_dx=1.0, landscape_turn=turn)),
        "y": sheets.back_offset(w, h, PrinterProfile(back_dy=1.0, landscape_turn=turn)),
    }


def _scale(c, at: tuple[float, float], axis: str, d: tuple[float, float]) -> None:
    """One scale through ``at``, from -10 to +10 mm along ``d``, named by its setting."""
    (bx, by), (dx, dy) = at, d
    for i in range(-SPAN_MM, SPAN_MM + 1):
        tick = 5 if i % 5 == 0 else 2.5
        x, y = bx + dx * i * MM, by + dy * i * MM
        c.line(x - dy * tick, y - dx * tick, x + dy * tick, y + dx * tick)  # across the scale
        if i % 5 == 0 and i:
            if dy == 0:
                c.drawCentredString(x, y - 10, f"{i:+d}")
            else:
                c.drawString(x + 7, y - 2.2, f"{i:+d}")  # centred on its tick, clear of the other scale's numbers
    end = SPAN_MM + 2
    c.setFont(BOLD, 7)
    c.drawCentredString(bx + dx * end * MM, by + dy * end * MM - 2.5, axis)
    c.setFont(FONT, 6)


def _back(layout: dict[str, Any], profile: PrinterProfile):
    def draw(c) -> None:
        c.setLineWidth(0.3)
        c.setFont(FONT, 6)
        for x, y in targets(layout):
            for axis, d in scale_directions(layout, profile).items():
                _scale(c, seen_through(x, y, layout, profile.duplex_edge), axis, d)
        c.setFont(BOLD, 11)
        w, h = layout["page"]["width"], layout["page"]["height"]
        c.drawCentredString(w / 2, h / 2 + 60, "Duplex calibration: back")

    return draw


def sheet_name(layout: dict[str, Any]) -> str:
    """How the sheet names its paper: "letter", or "letter, landscape" for the bleed sheets'."""
    paper = layout["name"].removesuffix("-bleed")
    return f"{paper}, landscape" if layout["page"]["width"] > layout["page"]["height"] else paper


def page_label(layout: dict[str, Any], side: str, profile: PrinterProfile) -> str:
    """What a calibration page says of itself in its margin; the back says how to print it."""
    label = f"duplex calibration ({sheet_name(layout)}, {side})"
    if side == "back":
        label += f" - print on the reverse of the front, flipping on the {profile.duplex_edge} edge"
    return label


def calibration_pdf(layout: dict[str, Any], profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    import pikepdf

    pdf = pikepdf.new()
    forms = _FormMaker(pdf)
    try:
        for side, draw in (("front", _front(layout, profile)), ("back", _back(layout, profile))):
            bars = _overlay(layout, page_label(layout, side, profile), marks=False)
            add_page(forms, layout, [], [bars, _page(layout, draw)], [])
        return finish_pikepdf(pdf, f"duplex calibration ({sheet_name(layout)})", f"calibration:{layout['name']}"), 2
    finally:
        forms.close()
