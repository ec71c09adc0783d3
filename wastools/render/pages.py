"""What every ReportLab sheet shares: paper, margins, check bars, labels, the printer profile.

The page model: nothing is printed within ``SAFE`` (12 pt) of an edge. Content lives in
``Page.area`` (36 pt in from each edge); the bands between hold the header (top), a
horizontal 100 mm bar and the print note (bottom), a
vertical 100 mm bar (right margin) and a vertical 4 in bar (left margin).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .sheets import (
    FONT,
    IMPERIAL_BAR,
    LABEL_SIZE,
    METRIC_BAR,
    NOTE,
    SAFE,
    Bar,
    PrinterProfile,
    draw_bar,
    register_fonts,
)

PAPERS = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
# a page as wide as A4 and as tall as Letter: a document laid out on it once (a briefing, a
# player aid) is placed in the middle of either paper (Letter adds 8 pt left and right,
# A4 25 pt above and below)
EITHER_PAPER = "210mm 11in"
MARGIN = 36.0  # half an inch: room for check bars, labels and the printer's own margin
HEADER_SIZE = 7.0


@dataclass(frozen=True)
class Page:
    width: float
    height: float

    @classmethod
    def of(cls, paper: str, landscape: bool = False) -> Page:
        w, h = PAPERS[paper]
        return cls(h, w) if landscape else cls(w, h)

    @property
    def area(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the printable area inside the margins."""
        return MARGIN, MARGIN, self.width - 2 * MARGIN, self.height - 2 * MARGIN


def check_bars(page: Page) -> list[Bar]:
    """Every check bar of a page: vertical 100 mm (right margin) and 4 in (left margin),
    horizontal 100 mm under the content (the print note takes the rest of that band)."""
    return [
        Bar("100 mm", page.width - SAFE - 12, MARGIN, METRIC_BAR, True),
        Bar("4 in", SAFE + 3, MARGIN, IMPERIAL_BAR, True),
        Bar("100 mm", MARGIN, SAFE + 8, METRIC_BAR, False),
    ]


def draw_check_bars(c, page: Page) -> None:
    bars = check_bars(page)
    for bar in bars:
        draw_bar(c, bar)
    c.saveState()
    c.setFont(FONT, LABEL_SIZE)
    c.drawRightString(page.width - MARGIN, SAFE + 6, NOTE)
    c.restoreState()


def header_lines(page: Page, text: str) -> list[str]:
    """The header broken into lines that fit the width; at most two fit the band."""
    from reportlab.lib.utils import simpleSplit

    register_fonts()
    lines = simpleSplit(text, FONT, HEADER_SIZE, page.width - 2 * MARGIN)
    if len(lines) > 2:
        raise ValueError(f"page header too long for two lines: {text!r}")
    return lines


def draw_label(c, page: Page, text: str) -> None:
    """The page's header, in the band above the content (one or two lines)."""
    lines = header_lines(page, text)
    c.saveState()
    c.setFillColorRGB(0, 0, 0)
    c.setFont(FONT, HEADER_SIZE)
    top = page.height - SAFE - 10 if len(lines) > 1 else page.height - MARGIN + 12
    for i, line in enumerate(lines):
        c.drawString(MARGIN, top - i * (HEADER_SIZE + 1.5), line)
    c.restoreState()


def document(
    pages: list[tuple[Page, Callable[[Any], None]]], title: str, profile: PrinterProfile = PrinterProfile()
) -> tuple[bytes, int]:
    """Draw each page with its function; check bars on every page; the profile's scale
    applied about each page's center; viewers asked not to scale; reproducible bytes."""
    register_fonts()
    buf = io.BytesIO()
    first = pages[0][0]
    from reportlab.pdfgen import canvas as rl_canvas  # where drawn: the site imports this module

    c = rl_canvas.Canvas(
        buf,
        pagesize=(first.width, first.height),
        invariant=1,
        pageCompression=1,
        initialFontName=FONT,
        initialFontSize=LABEL_SIZE,
    )
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
        c.setFont(FONT, LABEL_SIZE)
        draw(c)
        c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue(), len(pages)


def _placed(page: Any, paper: tuple[float, float]) -> bytes:
    """Make ``page`` a page of ``paper``'s size with its content in the middle; returns the
    content's shift (a PDF operator) and moves its links by as much."""
    box = [float(v) for v in page.mediabox]
    dx = round((paper[0] - (box[2] - box[0])) / 2 - box[0], 3)
    dy = round((paper[1] - (box[3] - box[1])) / 2 - box[1], 3)
    for name in ("/CropBox", "/BleedBox", "/TrimBox", "/ArtBox"):
        if name in page.obj:
            del page.obj[name]
    page.mediabox = [0, 0, paper[0], paper[1]]
    for annotation in page.obj.get("/Annots", []):
        if "/Rect" in annotation:
            x1, y1, x2, y2 = (float(v) for v in annotation.Rect)
            annotation.Rect = [x1 + dx, y1 + dy, x2 + dx, y2 + dy]
    return f"1 0 0 1 {dx:g} {dy:g} cm\n".encode()


def bars_overlay(page: Page) -> bytes:
    """A one-page PDF holding only the check bars and the print note of ``page``."""
    register_fonts()
    buf = io.BytesIO()
    from reportlab.pdfgen import canvas as rl_canvas  # where drawn: the site imports this module

    c = rl_canvas.Canvas(
        buf,
        pagesize=(page.width, page.height),
        invariant=1,
        pageCompression=1,
        initialFontName=FONT,
        initialFontSize=LABEL_SIZE,
    )
    draw_check_bars(c, page)
    c.showPage()
    c.save()
    return buf.getvalue()


def with_check_bars(
    pdf: bytes, title: str | None = None, doc_id: str | None = None, paper: tuple[float, float] | None = None
) -> tuple[bytes, int]:
    """A laid-out document (aid, briefing, roster report) with the check bars on every page,
    whose margins (at least 36 pt) leave the bands free for them; returns (pdf, pages). With a
    ``title`` it is finished as an output (metadata, an id from ``doc_id``); without, its
    metadata is dropped (it is joined into another PDF). ``paper`` (width, height): each
    page is placed in the middle of a page of that size first. qpdf copies the page content
    without parsing it."""
    from .sheets import finish_pikepdf, pdf_bytes

    with _check_barred(pdf, paper) as document:
        data = finish_pikepdf(document, title, doc_id) if title is not None else pdf_bytes(document)
        return data, len(document.pages)


def check_barred_part(pdf: bytes, paper: tuple[float, float] | None = None) -> bytes:
    """``with_check_bars``, as a part to join (``pdf_parts``): a document WeasyPrint wrote
    without the card fonts' programs (``shared_fonts.programs_left_out``) gets them from the
    file it is joined into, once for its pages and its cards. ``paper`` (width, height):
    each page is placed in the middle of a page of that size first."""
    from . import pdf_parts, shared_fonts

    with _check_barred(pdf, paper) as document:
        shared = shared_fonts.leave_out(document, [page.obj for page in document.pages])
        return pdf_parts.from_pdf(document, {font.objgen: file for file, font in shared.items()}).to_bytes()


@contextmanager
def _check_barred(pdf: bytes, paper: tuple[float, float] | None = None) -> Iterator[Any]:
    """The pikepdf document of ``pdf`` with the check bars drawn on every page (placed in the
    middle of a ``paper`` page first, when given)."""
    import pikepdf

    document = pikepdf.open(io.BytesIO(pdf))
    if "/Info" in document.trailer:  # WeasyPrint's dates
        del document.trailer["/Info"]
    overlays: dict[tuple[float, float], Any] = {}
    sources = []
    try:
        for page in document.pages:
            shift = _placed(page, paper) if paper is not None else b""
            box = page.mediabox
            size = (round(float(box[2]) - float(box[0]), 2), round(float(box[3]) - float(box[1]), 2))
            if size not in overlays:
                sources.append(pikepdf.open(io.BytesIO(bars_overlay(Page(*size)))))
                overlays[size] = document.copy_foreign(sources[-1].pages[0].as_form_xobject())
            # as Page.add_overlay does, but under a fixed name (it picks a random one)
            page.add_resource(overlays[size], pikepdf.Name.XObject, pikepdf.Name("/WastoolsBars"))
            page.contents_add(b"q\n" + shift, prepend=True)
            page.contents_add(b"\nQ\nq /WastoolsBars Do Q\n")
        yield document
    finally:
        for source in sources:
            source.close()
        document.close()
