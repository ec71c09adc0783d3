"""Sheets: card pages imposed 9-up on Letter or A4, with crop marks and check bars.

Layouts are data (``wastools/layouts/<paper>.yaml``: slots and crop lines, like Squib's sprues);
the geometry here is pure functions of a layout, so tests can check it apart from drawing.
Every sheet carries a 100 mm and a 4 in check bar and asks viewers not to scale it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from ..resources import LAYOUT_SCHEMA, LAYOUTS
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

    @property
    def is_identity(self) -> bool:
        return (self.x_scale, self.y_scale) == (1.0, 1.0)


def load_layout(paper: str) -> dict[str, Any]:
    from ..repository import read_plain, schema_validator

    path = LAYOUTS / f"{paper}.yaml"
    data = read_plain(path)
    errors = list(schema_validator(LAYOUT_SCHEMA).iter_errors(data))
    if errors:
        raise ValueError(f"{path}: {errors[0].message}")
    return data


def papers() -> list[str]:
    return sorted(p.stem for p in LAYOUTS.glob("*.yaml"))


def crop_mark_segments(layout: dict[str, Any]) -> list[Segment]:
    """Short lines continuing each crop line into the margins: never on a card, never
    closer than ``offset`` to a card edge, never off the page."""
    marks = layout["crop_marks"]
    xs, ys = layout["crop_lines"]["x"], layout["crop_lines"]["y"]
    off, length = marks["offset"], marks["length"]
    top, bottom, left, right = max(ys), min(ys), min(xs), max(xs)
    segments: list[Segment] = []
    for x in xs:
        segments.append(((x, top + off), (x, top + off + length)))
        segments.append(((x, bottom - off - length), (x, bottom - off)))
    for y in ys:
        segments.append(((left - off - length, y), (left - off, y)))
        segments.append(((right + off, y), (right + off + length, y)))
    return segments


def check_bar_segments(layout: dict[str, Any]) -> dict[str, Segment]:
    """The two vertical check bars in the left margin."""
    bars = layout["check_bars"]
    x = bars["x"]
    return {
        "100 mm": ((x, bars["metric_y"]), (x, bars["metric_y"] + METRIC_BAR)),
        "4 in": ((x, bars["imperial_y"]), (x, bars["imperial_y"] + IMPERIAL_BAR)),
    }


def draw_check_bar(c, name: str, x: float, y1: float, y2: float) -> None:
    """A vertical bar of known length with end ticks and its label, for measuring a print."""
    c.saveState()
    c.setLineWidth(0.6)
    c.setFont("Helvetica", 4.5)
    c.line(x, y1, x, y2)
    for y in (y1, y2):
        c.line(x - 3, y, x + 3, y)
    c.translate(x + 5.5, (y1 + y2) / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, f"{name}: check with a ruler")
    c.restoreState()


def sheets_needed(cards: int, layout: dict[str, Any]) -> int:
    per = len(layout["slots"])
    return max(1, -(-cards // per))


def _overlay(layout: dict[str, Any], label: str, marks: bool = True) -> bytes:
    """Crop marks, check bars and labels for one sheet, drawn with ReportLab."""
    from reportlab.pdfgen import canvas

    page = layout["page"]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(page["width"], page["height"]), invariant=1, pageCompression=1)
    c.setLineWidth(layout["crop_marks"]["line_width"])
    for (x1, y1), (x2, y2) in crop_mark_segments(layout) if marks else ():
        c.line(x1, y1, x2, y2)
    for name, ((x, y1), (_x, y2)) in check_bar_segments(layout).items():
        draw_check_bar(c, name, x, y1, y2)
    c.setFont("Helvetica", 4.5)
    c.saveState()
    right = max(layout["crop_lines"]["x"])
    c.translate(right + (page["width"] - right) / 2 + 1.5, page["height"] / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, f"{label}  -  print at 100% (actual size), do not scale to fit")
    c.restoreState()
    c.showPage()
    c.save()
    return buf.getvalue()


def _as_form(writer, data: bytes):
    """A one-page PDF as a Form XObject in ``writer``: placed by reference, so that a
    sheet's content stream never needs parsing (pypdf's page merge parses every operator)."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    page = PdfReader(io.BytesIO(data)).pages[0]
    contents = page.get_contents()
    form = DecodedStreamObject()
    form.set_data(contents.get_data() if contents is not None else b"")
    box = [float(v) for v in page.mediabox]
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject(FloatObject(v) for v in box),
        NameObject("/Resources"): page["/Resources"].clone(writer) if "/Resources" in page else ArrayObject(),
    })
    return writer._add_object(form.flate_encode())


def back_slot(slot: dict[str, float], layout: dict[str, Any], profile: PrinterProfile) -> tuple[float, float]:
    """Where a card's back goes on the back sheet: mirrored left to right, because a
    long-edge duplex flip turns the (portrait) sheet about its vertical axis (top to bottom
    for a short-edge flip), then shifted by the printer's measured back offset."""
    if profile.duplex_edge == "short":
        height = layout["page"]["height"]
        return slot["x"] + profile.back_dx, height - slot["y"] - layout["card"]["height"] + profile.back_dy
    width = layout["page"]["width"]
    return width - slot["x"] - layout["card"]["width"] + profile.back_dx, slot["y"] + profile.back_dy


def impose(
    card_pdfs: list[bytes],
    layout: dict[str, Any],
    title: str,
    profile: PrinterProfile = PrinterProfile(),
    back_pdf: bytes | None = None,
    doc_id: str | None = None,
) -> tuple[bytes, int]:
    """All cards on as many sheets as needed (each followed by its back sheet when a back
    is given, ready for long-edge duplex); returns (pdf, pages)."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    per = len(layout["slots"])
    total = sheets_needed(len(card_pdfs), layout)
    bleed = layout.get("bleed", 0)
    back_ref = _as_form(writer, back_pdf) if back_pdf else None
    for sheet in range(total):
        chunk = card_pdfs[sheet * per:(sheet + 1) * per]
        label = f"{title} - sheet {sheet + 1} of {total}"
        placed = [((slot["x"] - bleed, slot["y"] - bleed), _as_form(writer, data)) for slot, data in zip(layout["slots"], chunk)]
        _sheet(writer, layout, profile, label, placed)
        if back_ref is not None:
            backs = [((x - bleed, y - bleed), back_ref) for x, y in (back_slot(s, layout, profile) for s in layout["slots"][:len(chunk)])]
            _sheet(writer, layout, profile, label + " (backs)", backs, marks=False)
    return finish(writer, title, doc_id), len(writer.pages)


def _sheet(writer, layout: dict[str, Any], profile: PrinterProfile, label: str, placed: list, marks: bool = True) -> None:
    """One page: the marks overlay, then each form at its position, all scaled by the
    printer profile about the page centre."""
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    w, h = layout["page"]["width"], layout["page"]["height"]
    page = writer.add_blank_page(w, h)
    names = DictionaryObject()
    ops = []
    if not profile.is_identity:
        cx, cy = w / 2, h / 2
        ops.append(f"{profile.x_scale:.6f} 0 0 {profile.y_scale:.6f} {cx - cx * profile.x_scale:.4f} {cy - cy * profile.y_scale:.4f} cm")
    names[NameObject("/Marks")] = _as_form(writer, _overlay(layout, label, marks))
    ops.append("q /Marks Do Q")
    for i, ((x, y), ref) in enumerate(placed):
        names[NameObject(f"/Card{i}")] = ref
        ops.append(f"q 1 0 0 1 {x:.4f} {y:.4f} cm /Card{i} Do Q")
    content = DecodedStreamObject()
    content.set_data(("q\n" + "\n".join(ops) + "\nQ\n").encode("ascii"))
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): names})
    page[NameObject("/Contents")] = writer._add_object(content.flate_encode())


def finish(writer, title: str, doc_id: str | None = None) -> bytes:
    """Common finishing for every PDF: no scaling by viewers, fixed metadata, and a file
    id derived from the inputs, so the same inputs give the same bytes."""
    import hashlib
    import os

    from pypdf.generic import ArrayObject, ByteStringObject, NameObject

    writer.create_viewer_preferences()
    writer.viewer_preferences[NameObject("/PrintScaling")] = NameObject("/None")
    metadata = {"/Title": title, "/Producer": "wastools", "/Creator": "wastools"}
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        import datetime

        stamp = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("D:%Y%m%d%H%M%SZ")
        metadata["/CreationDate"] = metadata["/ModDate"] = stamp
    writer.add_metadata(metadata)
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    digest = hashlib.md5((doc_id or title).encode("utf-8")).digest()
    writer._ID = ArrayObject([ByteStringObject(digest), ByteStringObject(digest)])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
