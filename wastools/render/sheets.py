"""Sheets: card pages imposed 9-up on Letter or A4, with crop marks and check bars.

Layouts are data (``wastools/layouts/<paper>.yaml``: slots and crop lines, like Squib's sprues);
the geometry here is pure functions of a layout, so tests can check it apart from drawing.
Every sheet carries a 100 mm and a 4 in check bar and asks viewers not to scale it.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any

from ..core.resources import FONTS, LAYOUT_SCHEMA, LAYOUTS
from . import pdf_parts

MM = 72 / 25.4
METRIC_BAR = 100 * MM  # 283.46 pt
IMPERIAL_BAR = 4 * 72.0  # 288 pt

Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class PrinterProfile:
    """Per-printer correction: multiply everything by (x_scale, y_scale) around the
    page centre; shift backs by (back_dx, back_dy) points for duplex alignment."""

    x_scale: float = 1.0
    y_scale: float = 1.0
    back_dx: float = 0.0
    back_dy: float = 0.0
    duplex_edge: str = "long"  # the edge the printer flips the sheet about: "long" or "short"
    # the way the printer turns a landscape page onto the paper: "counterclockwise" or "clockwise"
    landscape_turn: str = "counterclockwise"

    @property
    def is_identity(self) -> bool:
        return (self.x_scale, self.y_scale) == (1.0, 1.0)


def load_layout(paper: str) -> dict[str, Any]:
    """The layout named ``paper`` (a fresh copy: callers may change it)."""
    return copy.deepcopy(_read_layout(paper))


def warm() -> None:
    """What imposing and joining sheets does once per process (imports, the label font, the
    card fonts' parts), done ahead: by a light worker as it starts (``workers.WARM``)."""
    import pikepdf  # noqa: F401
    from reportlab.pdfgen import canvas  # noqa: F401

    from . import shared_fonts

    register_fonts()
    for file in shared_fonts.card_font_files().values():
        pdf_parts.card_font_part(file)


def shared_layout(paper: str) -> dict[str, Any]:
    """The layout named ``paper``, shared by every caller in this process: never change it
    (``load_layout`` gives a copy to change)."""
    return _read_layout(paper)


@cache
def _read_layout(paper: str) -> dict[str, Any]:
    """Read and checked once per process (a build asks for each layout once per deck), and
    kept between runs (``derived``)."""
    from .derived import kept

    return kept("layout", paper, lambda: _parse_layout(paper), LAYOUTS / f"{paper}.yaml")


def _parse_layout(paper: str) -> dict[str, Any]:
    from ..data.repository import read_plain, schema_validator

    path = LAYOUTS / f"{paper}.yaml"
    data = read_plain(path)
    errors = list(schema_validator(LAYOUT_SCHEMA).iter_errors(data))
    if errors:
        raise ValueError(f"{path}: {errors[0].message}")
    return data


def papers() -> list[str]:
    return sorted(p.stem for p in LAYOUTS.glob("*.yaml"))


SAFE = 12.0  # nothing is printed closer than this to a page edge: home printers cannot
TICK = 2.0  # half the length of a check bar's end ticks
LABEL_SIZE = 6.0  # the smallest type on any sheet
FONT, BOLD = "WasSans", "WasSans-Bold"
NOTE = "print at actual size (100 %), do not scale to fit"


def register_fonts() -> None:
    """Bitstream Vera (shipped with ReportLab, used by the card CSS too), embedded in every
    PDF: print shops reject files whose fonts are not embedded."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(FONTS / "Vera.ttf")))
        pdfmetrics.registerFont(TTFont(BOLD, str(FONTS / "VeraBd.ttf")))


def text_width(text: str, size: float = LABEL_SIZE, font: str = FONT) -> float:
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    return pdfmetrics.stringWidth(text, font, size)


@dataclass(frozen=True)
class Bar:
    """A check bar: a line of known length with end ticks and its length as the label.
    Horizontal bars are labelled just after their right end; vertical bars beside their
    middle, reading upwards."""

    label: str
    x: float
    y: float
    length: float
    vertical: bool

    @property
    def end(self) -> tuple[float, float]:
        return (self.x, self.y + self.length) if self.vertical else (self.x + self.length, self.y)

    def footprint(self) -> tuple[float, float, float, float]:
        """x0, y0, x1, y1 of the ink the bar prints, its label included (labels have no descenders)."""
        if self.vertical:
            return self.x - TICK, self.y, self.x + 9.2, self.y + self.length
        return self.x, self.y - TICK, self.x + self.length + 3 + text_width(self.label), self.y + TICK + 0.6


def draw_bar(c, bar: Bar) -> None:
    register_fonts()
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setFillColorRGB(0, 0, 0)
    c.setLineWidth(0.6)
    (x1, y1), (x2, y2) = (bar.x, bar.y), bar.end
    c.line(x1, y1, x2, y2)
    for x, y in ((x1, y1), (x2, y2)):
        if bar.vertical:
            c.line(x - TICK, y, x + TICK, y)
        else:
            c.line(x, y - TICK, x, y + TICK)
    c.setFont(FONT, LABEL_SIZE)
    if bar.vertical:
        c.translate(bar.x + 7.8, bar.y + bar.length / 2)  # glyph tops 3 pt clear of the bar
        c.rotate(90)
        c.drawCentredString(0, 0, bar.label)
    else:
        c.drawString(x2 + 3, bar.y - 2, bar.label)
    c.restoreState()


def card_area(layout: dict[str, Any]) -> tuple[float, float, float, float]:
    """left, bottom, right, top of everything the cards print, bleed included."""
    xs, ys = layout["crop_lines"]["x"], layout["crop_lines"]["y"]
    bleed = layout.get("bleed", 0)
    return min(xs) - bleed, min(ys) - bleed, max(xs) + bleed, max(ys) + bleed


def card_sheet_bars(layout: dict[str, Any]) -> list[Bar]:
    """A horizontal 100 mm bar in the band under the cards, and vertical 100 mm and 4 in
    bars in the right margin, one above the other where the page is tall enough, side by
    side where it is not (the left margin and the top band hold the crop marks)."""
    w, h = layout["page"]["width"], layout["page"]["height"]
    left, _bottom, right, _top = card_area(layout)
    x = w - SAFE - 10.5
    metric = Bar("100 mm", x, SAFE + 12, METRIC_BAR, True)
    if metric.end[1] + 24 + IMPERIAL_BAR <= h - SAFE:
        imperial = Bar("4 in", x, metric.end[1] + 24, IMPERIAL_BAR, True)
    elif x - 16 - TICK > right:
        imperial = Bar("4 in", x - 16, SAFE + 12, IMPERIAL_BAR, True)
    else:
        raise ValueError(f"layout {layout['name']}: no room for the vertical check bars")
    # the label's text box (its descent too, not only its ink) starts at SAFE
    return [Bar("100 mm", left, SAFE + 3.6, METRIC_BAR, False), metric, imperial]


def sheet_label_origin(layout: dict[str, Any], length: float = 0.0, marks: bool = True) -> tuple[float, float]:
    """Where the sheet's own label starts (reading upwards in the left margin): in the
    longest stretch between two crop marks, the one nearest the middle of the page. A label
    ``length`` points long that would run past the stretch (or the top's safe margin) starts
    lower where no crop mark crosses its line (``label_room``)."""
    (low, _high), bound = _label_stretch(layout, marks)
    x, y = SAFE + 5.0, low + 8
    if y + length <= bound[1]:
        return x, y
    return x, max(bound[0], bound[1] - length)


def label_room(layout: dict[str, Any], marks: bool = True) -> float:
    """How long a sheet label may be: the stretch it starts in, or, where no crop mark
    crosses the label's line, the page's height inside the safe margins."""
    _stretch, (bottom, top) = _label_stretch(layout, marks)
    return top - bottom


def _label_stretch(layout: dict[str, Any], marks: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    """The stretch between crop marks a label starts in, and the bounds it may run between."""
    ys = sorted(layout["crop_lines"]["y"])
    h = layout["page"]["height"]
    low, high = max(pairwise(ys), key=lambda pair: (round(pair[1] - pair[0], 1), -abs((pair[0] + pair[1]) / 2 - h / 2)))
    crossed = marks and _mark_start(layout) < SAFE + 5.0 + 2.0  # the label's descenders reach 1.5 pt past its line
    return (low, high), ((low + 8, high - 8) if crossed else (SAFE, h - SAFE))


def _mark_start(layout: dict[str, Any]) -> float:
    """Where the crop marks in the left margin start (``crop_mark_segments``)."""
    marks, left = layout["crop_marks"], min(layout["crop_lines"]["x"])
    return max(left - marks["offset"] - marks["length"], SAFE)


def fitted_label(text: str, room: float) -> str:
    """``text`` as it fits ``room`` points at the label size: whole, or with its middle
    left out ("..."), so that it still begins with the sheet's name and ends with what a
    backs page says of its flip."""
    if text_width(text) <= room:
        return text
    keep = len(text)
    while keep > 2 and text_width(_cut(text, keep)) > room:
        keep -= 1
    return _cut(text, keep)


def _cut(text: str, keep: int) -> str:
    head = keep // 2
    return f"{text[:head].rstrip()} ... {text[len(text) - (keep - head) :].lstrip()}"


def crop_mark_segments(layout: dict[str, Any]) -> list[Segment]:
    """Short lines continuing each crop line into the margins above and to the left of the
    cards (and below them where the band over the check bar has room): never on a card,
    never closer than ``offset`` to a card edge, never within ``SAFE`` of a page edge."""
    marks = layout["crop_marks"]
    xs, ys = layout["crop_lines"]["x"], layout["crop_lines"]["y"]
    off, length = marks["offset"], marks["length"]
    h = layout["page"]["height"]
    top, bottom, left = max(ys), min(ys), min(xs)
    segments: list[Segment] = []
    upper = (top + off, min(top + off + length, h - SAFE))
    lower = (max(bottom - off - length, SAFE + 3.6 + TICK + 3), bottom - off)
    for x in xs:
        for a, b in (upper, lower):
            if b - a >= 2.5:  # a Letter sheet's top band holds marks this short
                segments.append(((x, a), (x, b)))
    start = max(left - off - length, SAFE)
    for y in ys:
        segments.append(((start, y), (left - off, y)))
    return segments


def _overlay(layout: dict[str, Any], label: str, marks: bool = True) -> bytes:
    """Crop marks, check bars and labels for one sheet, drawn with ReportLab."""
    from reportlab.pdfgen import canvas

    register_fonts()
    page = layout["page"]
    buf = io.BytesIO()
    c = canvas.Canvas(
        buf,
        pagesize=(page["width"], page["height"]),
        invariant=1,
        pageCompression=1,
        initialFontName=FONT,
        initialFontSize=LABEL_SIZE,
    )
    c.setLineWidth(layout["crop_marks"]["line_width"])
    for (x1, y1), (x2, y2) in crop_mark_segments(layout) if marks else ():
        c.line(x1, y1, x2, y2)
    bars = card_sheet_bars(layout)
    for bar in bars:
        draw_bar(c, bar)
    c.setFont(FONT, LABEL_SIZE)
    c.drawString(bars[0].footprint()[2] + 12, bars[0].y - 2, NOTE)
    c.saveState()
    label = fitted_label(label, label_room(layout, marks))
    c.translate(*sheet_label_origin(layout, text_width(label), marks))
    c.rotate(90)
    c.drawString(0, 0, label)
    c.restoreState()
    c.showPage()
    c.save()
    return buf.getvalue()


def sheets_needed(cards: int, layout: dict[str, Any]) -> int:
    per = len(layout["slots"])
    return max(1, -(-cards // per))


class _FormMaker:
    """Makes one-page PDFs into Form XObjects of a pikepdf document: placed by reference,
    their content is copied by qpdf without being parsed. The sources stay open until the
    document is saved, because qpdf copies stream data lazily."""

    def __init__(self, pdf):
        self.pdf = pdf
        self.sources: list = []

    def form(self, data: bytes):
        import pikepdf

        source = pikepdf.open(io.BytesIO(data))
        self.sources.append(source)
        return self.pdf.copy_foreign(source.pages[0].as_form_xobject())

    def close(self) -> None:
        for source in self.sources:
            source.close()


def turns_left_right(width: float, height: float, edge: str) -> bool:
    """Whether a duplex flip about the paper's ``edge`` ("long" or "short") turns a page of
    this size about its vertical axis (a back mirrors left to right) rather than its
    horizontal one (top to bottom): a portrait page's long edges are its sides, a landscape
    page's long edges its top and bottom."""
    portrait = height >= width
    return (edge == "long") == portrait


def back_offset(width: float, height: float, profile: PrinterProfile) -> tuple[float, float]:
    """The printer's back offset in the frame of a page of this size. It is measured on the
    portrait calibration sheet, in the frame the printer prints portrait pages in; a
    landscape page reaches the paper a quarter turn one way or the other
    (``profile.landscape_turn``). Counterclockwise (its top to the paper's left, what print
    dialogs and CUPS do by default) the paper's right is the page's down and the paper's up
    the page's right; clockwise the paper's right is the page's up, its up the page's left."""
    if height >= width:
        return profile.back_dx, profile.back_dy
    if profile.landscape_turn == "clockwise":
        return -profile.back_dy, profile.back_dx
    return profile.back_dy, -profile.back_dx


def back_position(
    x: float, y: float, size: tuple[float, float], page: tuple[float, float], profile: PrinterProfile
) -> tuple[float, float]:
    """Where the back of a ``size`` box at (x, y) goes on a ``page`` (width, height) so that
    it lands behind its front: mirrored about the axis the flip turns the sheet on, then
    shifted by the printer's back offset in the page's frame."""
    (w, h), (width, height) = size, page
    dx, dy = back_offset(width, height, profile)
    if turns_left_right(width, height, profile.duplex_edge):
        return width - x - w + dx, y + dy
    return x + dx, height - y - h + dy


def back_slot(slot: dict[str, float], layout: dict[str, Any], profile: PrinterProfile) -> tuple[float, float]:
    """Where a card's back goes on the back sheet (``back_position``): a long-edge flip
    mirrors a portrait sheet left to right and a landscape (bleed) sheet top to bottom."""
    size = (layout["card"]["width"], layout["card"]["height"])
    page = (layout["page"]["width"], layout["page"]["height"])
    return back_position(slot["x"], slot["y"], size, page, profile)


def flip_note(profile: PrinterProfile) -> str:
    """What a backs page says of itself: which edge to flip the sheet on."""
    return f"backs: print on the reverse of the sheet before, flipping on the {profile.duplex_edge} edge"


def impose(
    card_pdfs: list[bytes],
    layout: dict[str, Any],
    title: str,
    profile: PrinterProfile = PrinterProfile(),
    back_pdf: bytes | None = None,
    doc_id: str | None = None,
) -> tuple[bytes, int]:
    """All cards on as many sheets as needed (each followed by its back sheet when a back
    is given, ready for long-edge duplex); returns (pdf, pages). Each sheet is made on its
    own (``sheet_part``) and the sheets are then joined (``assemble``): the build caches
    sheets, so this is the very path an incremental build takes, and gives the same bytes."""
    return assemble(impose_parts(card_pdfs, layout, title, profile, back_pdf), title, doc_id)


def impose_parts(
    card_pdfs: list[bytes],
    layout: dict[str, Any],
    title: str,
    profile: PrinterProfile = PrinterProfile(),
    back_pdf: bytes | None = None,
) -> list[pdf_parts.Part]:
    """``impose``'s sheets, each as a part (``sheet_part``), not joined yet."""
    per = len(layout["slots"])
    total = sheets_needed(len(card_pdfs), layout)
    return [
        sheet_part(card_pdfs[i * per : (i + 1) * per], layout, sheet_label(title, i, total), profile, back_pdf)
        for i in range(total)
    ]


def sheet_label(title: str, index: int, total: int) -> str:
    """What a sheet says of itself in its margin (``index`` counts from 0)."""
    return f"{title} - sheet {index + 1} of {total}"


def sheet_part(
    card_pdfs: list[bytes],
    layout: dict[str, Any],
    label: str,
    profile: PrinterProfile = PrinterProfile(),
    back_pdf: bytes | None = None,
) -> pdf_parts.Part:
    """One sheet of at most one card per slot, followed by its back sheet when a back is
    given: the unit the build caches (keyed by its cards), as a part of one or two pages
    ready to join (``pdf_parts``: ``to_bytes`` for the cache; ``assemble`` makes a PDF of it)."""
    import pikepdf

    if len(card_pdfs) > len(layout["slots"]):
        raise ValueError(f"{len(card_pdfs)} cards do not fit on one sheet of {len(layout['slots'])} slots")
    pdf = pikepdf.new()
    forms = _FormMaker(pdf)
    bleed = layout.get("bleed", 0)
    placed = [
        ((slot["x"] - bleed, slot["y"] - bleed), forms.form(data))
        for slot, data in zip(layout["slots"], card_pdfs, strict=False)  # the last sheet may have empty slots
    ]
    _sheet(forms, layout, profile, label, placed)
    if back_pdf is not None:
        back_form = forms.form(back_pdf)
        corners = [back_slot(s, layout, profile) for s in layout["slots"]]
        backs = [((x - bleed, y - bleed), back_form) for x, y in corners[: len(card_pdfs)]]
        _sheet(forms, layout, profile, f"{label} - {flip_note(profile)}", backs, marks=False, corners=corners)
    # the card fonts go in once per deck or pack, when the sheets are joined (see shared_fonts)
    try:
        return pdf_parts.card_fonts_part(
            pdf, [form for _at, form in placed] + ([back_form] if back_pdf is not None else [])
        )
    finally:
        forms.close()


# qpdf's fixed second half of /ID under ``static_id`` (the digits of pi), as written in the file
_QPDF_STATIC_ID = b"<31415926535897932384626433832795>"


def pdf_bytes(pdf, doc_id: bytes = b"\0" * 16) -> bytes:
    """A pikepdf document's bytes, the same for the same content: both halves of /ID are
    ``doc_id`` (derived from the output's key, which fixes its content). qpdf writes a
    fixed second half, replaced here by one of the same length; its ``deterministic_id``
    would hash the whole file in a second pass."""
    import pikepdf

    pdf.trailer.ID = pikepdf.Array([pikepdf.String(doc_id), pikepdf.String(doc_id)])
    out = io.BytesIO()
    pdf.save(out, static_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    data = out.getvalue()
    if data.count(_QPDF_STATIC_ID) != 1:  # another qpdf: let it hash the content instead
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()
    return data.replace(_QPDF_STATIC_ID, b"<" + doc_id.hex().encode("ascii") + b">")


def assemble(parts: Sequence[bytes | pdf_parts.Part], title: str, doc_id: str | None = None) -> tuple[bytes, int]:
    """Join the pages of several PDFs, or of parts (sheets made by ``sheet_part``), into
    one, finished like every PDF of the build (see ``finish_pikepdf``): the card fonts and
    any font program two of them share are in it once (``pdf_parts``). Returns (pdf, pages)."""
    return pdf_parts.link([_as_part(data) for data in parts], _doc_digest(doc_id or title), _metadata(title))


def _as_part(data: bytes | pdf_parts.Part) -> pdf_parts.Part:
    if isinstance(data, pdf_parts.Part):
        return data
    return pdf_parts.read_part(data) if data.startswith(pdf_parts.MAGIC) else pdf_parts.part_of_pdf(data)


def finish_pikepdf(pdf, title: str, doc_id: str | None = None) -> bytes:
    """Common finishing for every PDF: no scaling by viewers, fixed metadata, and a file id
    derived from the inputs, so the same inputs give the same bytes."""
    import pikepdf

    pdf.Root.ViewerPreferences = pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
    for name, value in _metadata(title).items():
        pdf.docinfo[name] = value
    return pdf_bytes(pdf, _doc_digest(doc_id or title))


def _metadata(title: str) -> dict[str, str]:
    """Fixed document information: a title, no tool version, dates only from SOURCE_DATE_EPOCH."""
    import datetime

    from ..core.fingerprints import source_date

    metadata = {"/Title": title, "/Producer": "wastools", "/Creator": "wastools"}
    epoch = source_date()
    if epoch is not None:
        stamp = datetime.datetime.fromtimestamp(epoch, datetime.UTC).strftime("D:%Y%m%d%H%M%SZ")
        metadata["/CreationDate"] = metadata["/ModDate"] = stamp
    return metadata


def _doc_digest(doc_id: str) -> bytes:
    import hashlib

    return hashlib.md5(doc_id.encode("utf-8")).digest()


def _sheet(
    forms: _FormMaker,
    layout: dict[str, Any],
    profile: PrinterProfile,
    label: str,
    placed: list,
    marks: bool = True,
    corners: list[tuple[float, float]] | None = None,
) -> None:
    """One page: the marks overlay, then each form at its position, all scaled by the
    printer profile about the page centre. The page declares the cards' TrimBox and BleedBox
    (``card_boxes``), of the slots' trim corners ``corners`` (the layout's slots unless given)."""
    if corners is None:
        corners = [(slot["x"], slot["y"]) for slot in layout["slots"]]
    boxes = card_boxes(layout, corners, profile)
    add_page(forms, layout, scaling_ops(layout, profile), [_overlay(layout, label, marks)], placed, boxes)


def card_boxes(
    layout: dict[str, Any], corners: list[tuple[float, float]], profile: PrinterProfile = PrinterProfile()
) -> dict[str, list[float]]:
    """A card page's TrimBox (round every slot's trim: where the cuts go) and BleedBox (that
    and the bleed round it, within the page), as printed: scaled by the printer profile."""
    w, h = layout["card"]["width"], layout["card"]["height"]
    bleed = layout.get("bleed", 0)
    trim = (
        min(x for x, _ in corners),
        min(y for _, y in corners),
        max(x for x, _ in corners) + w,
        max(y for _, y in corners) + h,
    )
    page_w, page_h = layout["page"]["width"], layout["page"]["height"]
    bled = (
        max(0.0, trim[0] - bleed),
        max(0.0, trim[1] - bleed),
        min(page_w, trim[2] + bleed),
        min(page_h, trim[3] + bleed),
    )
    return {"/TrimBox": _scaled_box(trim, layout, profile), "/BleedBox": _scaled_box(bled, layout, profile)}


def _scaled_box(box: tuple[float, float, float, float], layout: dict[str, Any], profile: PrinterProfile) -> list[float]:
    cx, cy = layout["page"]["width"] / 2, layout["page"]["height"] / 2
    x0, y0, x1, y1 = box
    sx, sy = profile.x_scale, profile.y_scale
    return [
        round(cx + (x0 - cx) * sx, 4),
        round(cy + (y0 - cy) * sy, 4),
        round(cx + (x1 - cx) * sx, 4),
        round(cy + (y1 - cy) * sy, 4),
    ]


def scaling_ops(layout: dict[str, Any], profile: PrinterProfile) -> list[str]:
    """The printer profile's correction, about the page centre, as PDF operators."""
    if profile.is_identity:
        return []
    cx, cy = layout["page"]["width"] / 2, layout["page"]["height"] / 2
    return [
        f"{profile.x_scale:.6f} 0 0 {profile.y_scale:.6f} {cx - cx * profile.x_scale:.4f} "
        f"{cy - cy * profile.y_scale:.4f} cm"
    ]


def add_page(
    forms: _FormMaker,
    layout: dict[str, Any],
    ops: list[str],
    overlays: list[bytes],
    placed: list,
    boxes: dict[str, list[float]] | None = None,
) -> None:
    """Appends a page of the layout's size that draws ``overlays`` (one-page PDFs, at the
    origin) and then each placed form at its (x, y), after the operators ``ops``; ``boxes``
    are further page boxes (``/TrimBox``, ``/BleedBox``) beside its MediaBox."""
    import pikepdf

    w, h = layout["page"]["width"], layout["page"]["height"]
    names = pikepdf.Dictionary()
    ops = list(ops)
    for i, data in enumerate(overlays):
        names[f"/Overlay{i}"] = forms.form(data)
        ops.append(f"q /Overlay{i} Do Q")
    for i, ((x, y), form) in enumerate(placed):
        names[f"/Card{i}"] = form
        ops.append(f"q 1 0 0 1 {x:.4f} {y:.4f} cm /Card{i} Do Q")
    pdf = forms.pdf
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=pikepdf.Array([0, 0, w, h]),
        Resources=pikepdf.Dictionary(XObject=names),
        Contents=pdf.make_stream(("q\n" + "\n".join(ops) + "\nQ\n").encode("ascii")),
    )
    for name, box in (boxes or {}).items():
        page[name] = pikepdf.Array(box)
    pdf.pages.append(pikepdf.Page(page))
