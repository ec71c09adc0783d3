"""What every ReportLab sheet shares: paper, check bars, labels, the printer profile."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Callable

from reportlab.pdfgen import canvas as rl_canvas

from .sheets import IMPERIAL_BAR, METRIC_BAR, PrinterProfile, draw_check_bar

PAPERS = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
MARGIN = 36.0  # half an inch: room for check bars, labels and the printer's own margin


@dataclass(frozen=True)
class Page:
    width: float
    height: float

    @classmethod
    def of(cls, paper: str, landscape: bool = False) -> "Page":
        w, h = PAPERS[paper]
        return cls(h, w) if landscape else cls(w, h)

    @property
    def area(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the printable area inside the margins."""
        return MARGIN, MARGIN, self.width - 2 * MARGIN, self.height - 2 * MARGIN


def check_bar_positions(page: Page) -> dict[str, tuple[float, float, float]]:
    """(x, y start, y end) of the 100 mm and 4 in bars in the left margin."""
    x = 10.0
    if page.height >= 700:
        return {"100 mm": (x, 60.0, 60.0 + METRIC_BAR), "4 in": (x, 400.0, 400.0 + IMPERIAL_BAR)}
    return {"100 mm": (x, 10.0, 10.0 + METRIC_BAR), "4 in": (x, 300.0, 300.0 + IMPERIAL_BAR)}


def draw_check_bars(c, page: Page) -> None:
    for name, (x, y1, y2) in check_bar_positions(page).items():
        draw_check_bar(c, name, x, y1, y2)


def draw_label(c, page: Page, text: str) -> None:
    c.saveState()
    c.setFont("Helvetica", 6)
    c.drawString(MARGIN, page.height - MARGIN / 2 - 2, text)
    c.drawRightString(page.width - MARGIN, MARGIN / 2 - 2, "print at 100% (actual size), do not scale to fit")
    c.restoreState()


def document(pages: list[tuple[Page, Callable[[Any], None]]], title: str, profile: PrinterProfile = PrinterProfile()) -> tuple[bytes, int]:
    """Draw each page with its function; check bars on every page; the profile's scale
    applied about each page's centre; viewers asked not to scale; reproducible bytes."""
    buf = io.BytesIO()
    first = pages[0][0]
    c = rl_canvas.Canvas(buf, pagesize=(first.width, first.height), invariant=1, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("wastools")
    c.setCreator("wastools")
    c.setViewerPreference("PrintScaling", "None")
    for page, draw in pages:
        c.setPageSize((page.width, page.height))
        c.saveState()
        if not profile.is_identity:
            cx, cy = page.width / 2, page.height / 2
            c.transform(profile.x_scale, 0, 0, profile.y_scale, cx - cx * profile.x_scale, cy - cy * profile.y_scale)
        draw_check_bars(c, page)
        draw(c)
        c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue(), len(pages)
