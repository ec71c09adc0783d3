"""Measurements of the print standard inside a PDF, shared by the tests.

- ``ink_near_edges``: renders each page (pypdfium2) and reports any non-white pixel within
  12 pt of an edge, so clipped drawing, text, marks and bars are all judged as printed.
- ``unembedded_fonts``: every font must carry its program (FontFile, FontFile2 or FontFile3).
- ``small_text``: characters smaller than 6 pt, upright or rotated.
- ``check_bars``: each label that states a length ("100 mm", "4 in", "10 cm") with the line
  it labels, measured; ``bar_errors`` lists those that do not measure their label.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

SAFE = 12.0
UNITS = {"in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4}
LENGTH = re.compile(r"^(?:1 leg = )?(\d+(?:\.\d+)?) (in|cm|mm)$")


def ink_near_edges(pdf: bytes, band: float = SAFE, scale: float = 1.0) -> list[str]:
    """'page N: side' for every page side with ink closer than ``band`` to the edge (at
    ``scale`` x 72 dpi; one pixel of anti-aliasing is allowed at the band's inner edge)."""
    import pypdfium2 as pdfium

    problems = []
    doc = pdfium.PdfDocument(pdf)
    try:
        for index in range(len(doc)):
            bitmap = doc[index].render(scale=scale, grayscale=True)
            data, stride, w, h = bytes(bitmap.buffer), bitmap.stride, bitmap.width, bitmap.height
            px = max(1, int(band * scale) - 1)
            rows = {"top": range(px), "bottom": range(h - px, h)}
            for side, ys in rows.items():
                if any(min(data[y * stride : y * stride + w]) < 250 for y in ys):
                    problems.append(f"page {index + 1}: {side}")
            left = any(min(data[y * stride : y * stride + px]) < 250 for y in range(h))
            right = any(min(data[y * stride + w - px : y * stride + w]) < 250 for y in range(h))
            problems += [f"page {index + 1}: {side}" for side, bad in (("left", left), ("right", right)) if bad]
    finally:
        doc.close()
    return problems


def unembedded_fonts(pdf: bytes) -> set[str]:
    from pypdf import PdfReader

    missing: set[str] = set()
    seen: set[int] = set()

    def font_ok(font) -> bool:
        font = font.get_object()
        if font.get("/Subtype") == "/Type3":
            return True  # glyphs drawn by the file itself
        if font.get("/Subtype") == "/Type0":
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is None:
            return False
        descriptor = descriptor.get_object()
        return any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))

    def walk(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        if id(resources) in seen:
            return
        seen.add(id(resources))
        for name, font in (resources.get("/Font") or {}).items():
            if not font_ok(font):
                missing.add(str(font.get_object().get("/BaseFont", name)))
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in PdfReader(io.BytesIO(pdf)).pages:
        walk(page.get("/Resources"))
    return missing


def char_size(char: dict) -> float:
    """The font size a character is printed at, whether upright or turned by 90 degrees."""
    return char["bottom"] - char["top"] if char["upright"] else char["x1"] - char["x0"]


def small_text(page, minimum: float = 6.0) -> list[str]:
    return sorted({c["text"] for c in page.chars if char_size(c) < minimum - 0.05 and c["text"].strip()})


@dataclass(frozen=True)
class Measured:
    label: str
    wanted: float  # points
    measured: float | None  # points, None if no line was found
    vertical: bool


def labels(page, size: float = 6.0) -> list[tuple[str, dict, bool]]:
    """(text, bounding box, is_vertical) of every label set in ``size`` pt: upright words,
    and runs of characters turned to read upwards."""
    out = [
        (w["text"], w, False)
        for w in page.extract_words(keep_blank_chars=True, x_tolerance=1.5, extra_attrs=["size"])
        if w.get("upright", True) and abs(w["size"] - size) < 0.05
    ]
    turned: dict[float, list[dict]] = {}
    for c in page.chars:
        if not c["upright"] and abs(char_size(c) - size) < 0.05:
            turned.setdefault(round(c["x0"], 1), []).append(c)
    for column in turned.values():
        column.sort(key=lambda c: -c["bottom"])
        run = [column[0]]
        for c in column[1:] + [None]:
            if c is not None and run[-1]["top"] - c["bottom"] < 2.5:
                run.append(c)
                continue
            text = ""
            for prev, cur in zip([None] + run[:-1], run, strict=True):
                if prev is not None and prev["top"] - cur["bottom"] > 0.8:
                    text += " "
                text += cur["text"]
            box = {
                "x0": min(r["x0"] for r in run),
                "x1": max(r["x1"] for r in run),
                "top": min(r["top"] for r in run),
                "bottom": max(r["bottom"] for r in run),
            }
            out.append((text, box, True))
            if c is not None:
                run = [c]
    return out


def check_bars(page) -> list[Measured]:
    """Every 6 pt label that states a length (bars and scale bars are labelled in 6 pt;
    lengths in a table's text are not bars), with the line it labels: for a horizontal bar the
    line that ends just left of the label, at its height; for a vertical bar (label turned
    to read upwards) the line just left of the label whose middle is beside the label's."""
    found = []
    for text, box, vertical in labels(page):
        text = text.strip()
        m = LENGTH.match(text)
        if not m:
            continue
        wanted = float(m.group(1)) * UNITS[m.group(2)]
        mid_y = (box["top"] + box["bottom"]) / 2
        best = None
        for line in page.lines:
            if vertical and abs(line["x0"] - line["x1"]) < 0.01:
                near = 0 < box["x0"] - line["x0"] < 8 and abs((line["top"] + line["bottom"]) / 2 - mid_y) < 1
                length = line["bottom"] - line["top"]
            elif not vertical and abs(line["top"] - line["bottom"]) < 0.01:
                near = 0 < box["x0"] - line["x1"] < 6 and abs(line["top"] - mid_y) < 4
                length = line["x1"] - line["x0"]
            else:
                continue
            if near and (best is None or length > best):
                best = length
        found.append(Measured(text, wanted, best, vertical))
    return found


def bar_errors(page, tolerance: float = 0.05) -> list[Measured]:
    return [b for b in check_bars(page) if b.measured is None or abs(b.measured - b.wanted) > tolerance]


# --- words over words, words across trim lines ------------------------------------------------


def _word_of(chars: list[dict], index: int) -> str:
    """The run of characters around ``index`` in the page's stream, for a message."""
    start = end = index
    while start > 0 and chars[start - 1]["text"].strip() and _next_to(chars[start - 1], chars[start]):
        start -= 1
    while end + 1 < len(chars) and chars[end + 1]["text"].strip() and _next_to(chars[end], chars[end + 1]):
        end += 1
    return "".join(c["text"] for c in chars[start : end + 1])


def _next_to(a: dict, b: dict) -> bool:
    return abs(a["top"] - b["top"]) < 0.5 and abs(a["x1"] - b["x0"]) < 1.0 or abs(a["bottom"] - b["top"]) < 1.0


def overprinted(page, least: float = 0.4) -> list[tuple[str, str]]:
    """Every two words printed over each other: pairs of characters whose boxes (as a PDF
    reader measures them) overlap by more than ``least`` both ways, other than neighbours
    in the page's text stream (the letters of one word). Clipped text counts: it is still
    in the file, and a reader finds it."""
    chars = [c for c in page.chars if c["text"].strip()]
    cells: dict[tuple[int, int], list[int]] = {}
    for i, c in enumerate(chars):
        for gx in range(int(c["x0"] // 20), int(c["x1"] // 20) + 1):
            for gy in range(int(c["top"] // 20), int(c["bottom"] // 20) + 1):
                cells.setdefault((gx, gy), []).append(i)
    found: set[tuple[str, str]] = set()
    for members in cells.values():
        for k, i in enumerate(members):
            for j in members[k + 1 :]:
                if j - i == 1:
                    continue
                a, b = chars[i], chars[j]
                w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                if w > least and h > least:
                    found.add((_word_of(chars, i), _word_of(chars, j)))
    return sorted(found)


def trim_rects(page) -> list[dict]:
    """The solid outlines a player cuts along: a map tile's own area, stroked 0.6 pt black."""
    return [
        r
        for r in page.rects
        if r.get("stroke") and abs((r.get("linewidth") or 0) - 0.6) < 0.01 and r["width"] > 100 and r["height"] > 100
    ]


def across_trim(page) -> list[str]:
    """Words (characters) that a trim line cuts: any character whose box straddles an edge
    of a tile's outlined area."""
    out = set()
    chars = [c for c in page.chars if c["text"].strip()]
    for rect in trim_rects(page):
        x0, x1, top, bottom = rect["x0"], rect["x1"], rect["top"], rect["bottom"]
        for i, c in enumerate(chars):
            across_x = (
                any(c["x0"] + 0.2 < x < c["x1"] - 0.2 for x in (x0, x1)) and c["bottom"] > top and c["top"] < bottom
            )
            across_y = (
                any(c["top"] + 0.2 < y < c["bottom"] - 0.2 for y in (top, bottom)) and c["x1"] > x0 and c["x0"] < x1
            )
            if across_x or across_y:
                out.add(_word_of(chars, i))
    return sorted(out)
