"""A card's body and foot drawn straight into PDF content from its view, as card.css lays
them out, instead of by WeasyPrint.

A card's body is plain: paragraphs in one size, an attack table of fixed columns and a
footer line. Laid out by WeasyPrint, it was three quarters of a card's time (a card's head,
with its emblem and icon, stays WeasyPrint's and is laid out once per unit). Here the same
fonts' metrics and kerning place every glyph where WeasyPrint puts it (the tests compare
each glyph of every fixture card with WeasyPrint's, and the pixels), with lines broken at
spaces as Pango breaks them, in a few milliseconds.

The drawing is exact or not done: a card this module cannot lay out as WeasyPrint would (a
letter the card fonts lack, a mark that combines, a line whose break is a near tie, a body
that does not fit) gets None, and WeasyPrint lays it out as before (``cards.lay_out_cards``).
Text reaches the PDF as glyph numbers of the card fonts, never as operators: data cannot
write a drawing command.

The geometry and colors are card.css's, read by ``card_style`` (directly or through card_fit).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from ..content.card_view import CardView
from ..core.errors import WastoolsError
from . import card_fit as fit
from .card_style import em, pt, rgb

REGULAR, BOLD = "Vera.ttf", "VeraBd.ttf"
FONT_NAMES = {REGULAR: "/WasBodyR", BOLD: "/WasBodyB"}  # in the card page's resources
# card.css's colors and rules, as card_style reads them
_HEAD_ROW, _ROW = "table.attacks thead tr:last-child th", "table.attacks td"
INK = rgb("html", "color")
GREY_TEXT = rgb("table.attacks th", "color")  # table headers, reaches, the footer
ARC_TEXT = rgb("table.attacks tr.arcs td", "color")
SUMMARY_TEXT = rgb(".abilities > div", "color")  # an ability's summary
HEAD_RULE, HEAD_RULE_W = rgb(_HEAD_ROW, "border-bottom"), pt(_HEAD_ROW, "border-bottom")
ROW_RULE, ROW_RULE_W = rgb(_ROW, "border-bottom"), pt(_ROW, "border-bottom")
FOOT_RULE, FOOT_RULE_W = rgb(".foot", "border-top"), pt(".foot", "border-top")
DICE_LINE = em("table.attacks td .dice", "line-height")  # .dice and .reach line heights, in their own ems
FOOT_PT, FOOT_LINE = pt(".foot", "font-size"), em(".foot", "line-height")
FOOT_PAD, FOOT_BOTTOM = pt(".foot", "padding-top"), pt(".foot", "bottom")
# a body line may end this far below the body's space: cards.overflows allows half a CSS px
OVERFLOW_SLACK = 0.375
# a line break decided by less than this (in pt) might go the other way in Pango's units
TIE = 0.03


@dataclass(frozen=True)
class _Face:
    """One card font file's metrics: glyph per character, advances, kerning, in font units."""

    file: str
    upm: int
    ascent: float  # in ems
    descent: float
    glyph_of: dict[int, int]
    advance: tuple[int, ...]
    kern: dict[tuple[int, int], int]
    written: tuple[int, ...]  # each glyph's width in the PDF font dictionary, per mille


@cache
def _face(file: str) -> _Face:
    """One card font's metrics (read once per machine and code: ``derived``)."""
    from .derived import kept

    return kept("card-body-face", file, lambda: _read_face(file))


def _read_face(file: str) -> _Face:
    from fontTools.ttLib import TTFont

    from ..core.resources import FONTS
    from .shared_fonts import file_font

    font = TTFont(FONTS / file, lazy=True)
    glyph_id = {name: i for i, name in enumerate(font.getGlyphOrder())}
    kern: dict[tuple[int, int], int] = {}
    if "kern" in font:
        for table in font["kern"].kernTables:
            for (left, right), value in table.kernTable.items():
                kern[(glyph_id[left], glyph_id[right])] = value
    metrics = font["hmtx"]
    upm = font["head"].unitsPerEm
    return _Face(
        file=file,
        upm=upm,
        ascent=font["hhea"].ascent / upm,
        descent=-font["hhea"].descent / upm,
        glyph_of={code: glyph_id[name] for code, name in font.getBestCmap().items()},
        advance=tuple(metrics[name][0] for name in font.getGlyphOrder()),
        kern=kern,
        written=file_font(file).widths,
    )


def name_fonts(resources, fonts: dict, files: set[str]) -> None:
    """Name the card font ``files`` in a page's ``resources`` (pikepdf) as drawn content calls
    them (``FONT_NAMES``), each its file's dictionary in ``fonts``; a name already standing
    for another font is a mistake."""
    import pikepdf

    if "/Font" not in resources:
        resources.Font = pikepdf.Dictionary()
    for file in sorted(files):
        name = FONT_NAMES[file]
        if name in resources.Font and resources.Font[name].objgen != fonts[file].objgen:
            raise RuntimeError(f"a page already names another font {name}")
        resources.Font[name] = fonts[file]


def warm() -> None:
    """Read the card fonts' metrics now (what the first drawn card would do)."""
    _face(REGULAR)
    _face(BOLD)


# --- text --------------------------------------------------------------------------------------


@dataclass
class _Run:
    """Glyphs of one font and colour, placed from ``x`` at a baseline."""

    file: str
    size: float
    colour: tuple[int, int, int]
    x: float
    glyphs: list[int] = field(default_factory=list)
    advances: list[float] = field(default_factory=list)  # in pt, kerning included

    @property
    def width(self) -> float:
        return sum(self.advances)


class Undrawable(WastoolsError):
    """This card is left to WeasyPrint (see the module's docstring)."""


_SPACES = re.compile(r"[ \t\n\r\f]+")
Style = tuple[bool, tuple[int, int, int]]  # bold, colour
# Unicode line breaking forbids a break before these even after a space (" – ", " :")
NO_BREAK_BEFORE = frozenset(")]}!?,.:;%\u2013\u2014\u2026\u00bb\u2019\u201d")
# where Pango might break a line otherwise than at a space: such a card is left to WeasyPrint
UNSURE = frozenset("\u2014\u2010\u2026\u00ad\u200b")


def _styled(parts: list[tuple[str, bool, tuple[int, int, int]]]) -> list[tuple[str, int, Style]]:
    """One (character, part, style) per character, as HTML shows the parts: white space
    collapsed to one space, none at the start or the end. Each part is an element of its own,
    which WeasyPrint shapes apart: no kerning across parts."""
    chars: list[tuple[str, int, Style]] = []
    for number, (text, bold, colour) in enumerate(parts):
        for c in _SPACES.sub(" ", text):
            if c == " " and (not chars or chars[-1][0] == " "):
                continue
            _check_char(c)
            chars.append((c, number, (bold, colour)))
    while chars and chars[-1][0] == " ":
        chars.pop()
    return chars


def _check_char(c: str) -> None:
    kind = unicodedata.category(c)
    if kind[0] in "CM" or kind in ("Zl", "Zp") or (kind == "Zs" and c not in " \u00a0"):
        raise Undrawable(f"character U+{ord(c):04X} needs shaping or breaks otherwise")
    if unicodedata.bidirectional(c) in ("R", "AL"):
        raise Undrawable(f"character U+{ord(c):04X} is written right to left")


def _check_breaks(text: str) -> None:
    """Raise Undrawable where Pango might break a line at a place ``_breaks`` does not know."""
    for i, c in enumerate(text):
        after = text[i + 1] if i + 1 < len(text) else " "
        before = text[i - 1] if i else " "
        if c in UNSURE:
            raise Undrawable(f"character U+{ord(c):04X} may break a line")
        if c in "!?\u2013" and after != " ":
            raise Undrawable(f"{c!r} inside a word")
        if c in "-/" and not (after == " " or after.isdigit() or (before != " " and after.isalpha())):
            raise Undrawable(f"a {c!r} Pango may break at")


def _breaks(text: str) -> list[int]:
    """Where a line may end (the index after its last character), as Pango breaks: after a
    space not before a character Unicode keeps with what precedes it, after a hyphen or a
    slash before a letter ("anti-", "coast/"; never in "5-10" or "-1/2"), and at the end."""
    ends = []
    for i, c in enumerate(text[:-1]):
        after = text[i + 1]
        if (c == " " and after not in NO_BREAK_BEFORE) or (
            c in "-/" and i > 0 and text[i - 1] != " " and after.isalpha()
        ):
            ends.append(i + 1)
    return [*ends, len(text)]


def _shape(chars: list[tuple[str, int, Style]], size: float) -> list[_Run]:
    """Runs of one part, each glyph's advance with its part's kerning to the next glyph."""
    runs: list[_Run] = []
    part = -1
    for c, number, (bold, colour) in chars:
        face = _face(BOLD if bold else REGULAR)
        glyph = face.glyph_of.get(ord(c))
        if glyph is None:
            raise Undrawable(f"{face.file} has no {c!r}")
        if number != part:
            runs.append(_Run(face.file, size, colour, 0.0))
            part = number
        run = runs[-1]
        if run.glyphs:
            run.advances[-1] += face.kern.get((run.glyphs[-1], glyph), 0) * size / face.upm
        run.glyphs.append(glyph)
        run.advances.append(face.advance[glyph] * size / face.upm)
    return runs


def wrap(parts: list[tuple[str, bool, tuple[int, int, int]]], size: float, box: float) -> list[list[_Run]]:
    """The lines of a paragraph of (text, bold, colour) parts at ``size`` in ``box`` points,
    broken as Pango breaks them: each line takes every word that fits whole, the spaces it
    ends with hanging past the edge. Raises Undrawable for a word wider than the box or a
    break too close to call."""
    chars = _styled(parts)
    if not chars:
        return []
    text = "".join(c for c, _n, _s in chars)
    _check_breaks(text)
    advances = [a for run in _shape(chars, size) for a in run.advances]

    def inked(start: int, end: int) -> float:
        last = start + len(text[start:end].rstrip(" "))
        width = sum(advances[start:last])
        if abs(width - box) < TIE:
            raise Undrawable("a line break too close to call")
        if last < len(text) and text[last] != " ":
            # a break inside a word ("anti-|aircraft"): the last glyph's advance holds its
            # kerning with the next letter, which the line drawn alone does not have. Where
            # the two widths disagree on fitting, Pango's choice is not known here
            alone = line_width(_shape(chars[start:last], size))
            if (alone <= box) != (width <= box) or abs(alone - box) < TIE:
                raise Undrawable("a line break that kerning decides")
        return width

    lines: list[tuple[int, int]] = []
    start, fitted = 0, 0
    for end in _breaks(text):
        if inked(start, end) <= box:
            fitted = end
            continue
        if fitted == start:
            raise Undrawable("a word wider than its line")
        lines.append((start, fitted))
        start = fitted
        if inked(start, end) > box:
            raise Undrawable("a word wider than its line")
        fitted = end
    lines.append((start, len(text)))
    return [_line_runs(chars[a:b], size) for a, b in lines]


def _line_runs(chars: list[tuple[str, int, Style]], size: float) -> list[_Run]:
    """One line's runs, shaped on their own, placed from x = 0; the spaces it begins or ends
    with are not drawn."""
    while chars and chars[-1][0] == " ":
        chars = chars[:-1]
    while chars and chars[0][0] == " ":
        chars = chars[1:]
    runs = _shape(chars, size)
    x = 0.0
    for run in runs:
        run.x = x
        x += run.width
    return runs


def line_width(runs: list[_Run]) -> float:
    return sum(run.width for run in runs)


# --- drawing -----------------------------------------------------------------------------------


class _Canvas:
    """PDF content in the card's coordinates: x from the left, y down from the top."""

    def __init__(self, height: float, offset: float) -> None:
        self.height, self.offset = height, offset
        self.ops: list[str] = []
        self.fonts: set[str] = set()

    def text(self, runs: list[_Run], x: float, baseline: float) -> None:
        """Draw ``runs`` from ``x`` on ``baseline``."""
        number = _num
        for run in runs:
            if not run.glyphs:
                continue
            face = _face(run.file)
            self.fonts.add(run.file)
            shown = []
            for glyph, advance in zip(run.glyphs, run.advances, strict=True):
                # a PDF viewer advances by the width the font dictionary gives the glyph; the
                # difference to the kerned advance is a TJ adjustment, in thousandths of an em
                adjust = face.written[glyph] - advance * 1000 / run.size
                shown.append(f"<{glyph:04X}>{_num(adjust)}")
            self.ops.append(
                f"BT {_colour(run.colour)} rg {FONT_NAMES[run.file]} {_num(run.size)} Tf "
                f"1 0 0 1 {number(self.offset + x + run.x)} {number(self.height - self.offset - baseline)} Tm "
                f"[{''.join(shown)}] TJ ET"
            )

    def rule(self, x: float, top: float, width: float, thickness: float, colour: tuple[int, int, int]) -> None:
        """A table's rule, stroked along its middle as WeasyPrint strokes a cell's border."""
        y = _num(self.height - self.offset - top - thickness / 2)
        left, right = _num(self.offset + x), _num(self.offset + x + width)
        self.ops.append(f"q {_colour(colour)} RG {_num(thickness)} w {left} {y} m {right} {y} l S Q")

    def border(self, x: float, top: float, width: float, thickness: float, colour: tuple[int, int, int]) -> None:
        """A block's top border, filled within a clip as WeasyPrint fills one (a bare filled
        rectangle this thin is snapped to whole pixels on screen, and looks darker)."""
        up = _num(self.height - self.offset - top)
        bottom = _num(self.height - self.offset - top - thickness)
        left, right = _num(self.offset + x), _num(self.offset + x + width)
        corners = f"{right} {up} m {left} {up} l {left} {bottom} l {right} {bottom} l"
        self.ops.append(f"q {corners} W* n {_colour(colour)} rg {left} {bottom} {_num(width)} {_num(thickness)} re f Q")

    def content(self) -> bytes:
        return ("\n".join(self.ops) + "\n").encode("ascii")


def _num(value: float, places: int = 3) -> str:
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _colour(colour: tuple[int, int, int]) -> str:
    return " ".join(_num(c / 255) for c in colour)


# --- vertical metrics (CSS: half the leading above a line's glyphs, half below) ----------------


def _above(size: float, line_height: float) -> float:
    """From a line box's top to the baseline of text of ``size`` with ``line_height`` (pt)."""
    face = _face(REGULAR)  # the bold font's vertical metrics are the same
    return face.ascent * size + (line_height - (face.ascent + face.descent) * size) / 2


@dataclass(frozen=True)
class _LineBox:
    above: float  # top to baseline
    height: float


def _text_line(size: float) -> _LineBox:
    return _LineBox(_above(size, fit.LINE * size), fit.LINE * size)


def _dice_line(size: float) -> _LineBox:
    """A line holding the larger bold dice beside the cell's own strut."""
    strut = _text_line(size)
    dice, dice_height = fit.DICE * size, DICE_LINE * fit.DICE * size
    above = max(strut.above, _above(dice, dice_height))
    below = max(strut.height - strut.above, dice_height - _above(dice, dice_height))
    return _LineBox(above, above + below)


# --- the body ----------------------------------------------------------------------------------


@dataclass
class _Cell:
    """A table cell's lines: (runs, line box, alignment) from the top of its content."""

    lines: list[tuple[list[_Run], _LineBox, str]] = field(default_factory=list)

    @property
    def height(self) -> float:
        return sum(box.height for _runs, box, _align in self.lines)


def draw(view: CardView, bleed: float = 0.0) -> tuple[bytes, set[str]] | None:
    """The body and foot of a card face as PDF content (over its head's page, ``bleed``
    points of bleed around the card), with the font files it uses; None when WeasyPrint must
    lay the card out (see the module's docstring)."""
    try:
        return _draw(view, bleed)
    except Undrawable:
        return None


def _draw(view: CardView, bleed: float) -> tuple[bytes, set[str]]:
    canvas = _Canvas(fit.CARD_H + 2 * bleed, bleed)
    if _body(canvas, view) > fit.CARD_H - fit.BODY_BOTTOM + OVERFLOW_SLACK:
        raise Undrawable("the body does not fit")
    _foot(canvas, view)
    return canvas.content(), canvas.fonts


def body_fits(view: CardView) -> bool:
    """Whether the body, as this module draws it (exactly, line by line), ends above the foot;
    False for a card it cannot draw (WeasyPrint then lays it out, and card_fit's estimate rules)."""
    try:
        return _body(_Canvas(fit.CARD_H, 0.0), view) <= fit.CARD_H - fit.BODY_BOTTOM
    except Undrawable:
        return False


def bring_back_what_fits(view: CardView) -> None:
    """card_fit's estimate is cautious: an ability text it sent to the player aid comes back,
    the last sent first, while the card's exact drawing (this module's, at the smallest gaps)
    still ends above the foot. A card that says "see the player aid" has no room for it."""
    for name, text in reversed(list(view.moved_text.items())):
        ability = next(a for a in view.abilities if a["name"] == name)
        ability["summary"], gap = text, view.gap_pt
        view.gap_pt = round(fit.MIN_GAP * view.size_pt, 2)
        if not body_fits(view):
            ability["summary"], view.gap_pt = fit.REFERENCE, gap
            return
        view.moved_to_aid.remove(name)
        del view.moved_text[name]


def _body(canvas: _Canvas, view: CardView) -> float:
    """Draw the body; returns its bottom."""
    left, top = fit.BORDER + fit.BODY_LEFT, fit.BODY_TOP
    s = view.size_pt
    y = _paragraph(canvas, [(view.movement_label + ":", True, INK), (" " + view.movement, False, INK)], s, left, top)
    if view.attack_rows:
        y = _table(canvas, view, left, y + view.gap_pt)
    if view.footnotes:
        y += view.gap_pt
        for mark, text in view.footnotes:
            y = _paragraph(canvas, [(mark, True, INK), (" " + text, False, INK)], s, left, y)
    if view.rules:
        y += view.gap_pt
        for label, text in view.rules:
            y = _paragraph(canvas, [(label + ":", True, INK), (" " + text, False, INK)], s, left, y)
    if view.abilities:
        y += view.gap_pt
        for ability in view.abilities:
            parts = [(f"{ability['mark']}{ability['name']}", True, INK)]
            if ability.get("summary"):
                parts.append((" – " + ability["summary"], False, SUMMARY_TEXT))
            y = _paragraph(canvas, parts, s, left, y)
    return y


def _paragraph(canvas: _Canvas, parts, size: float, left: float, top: float) -> float:
    """Draw a block paragraph from ``top``; returns its bottom."""
    box = _text_line(size)
    for runs in wrap(parts, size, fit.BODY_W):
        canvas.text(runs, left, top + box.above)
        top += box.height
    return top


def _table(canvas: _Canvas, view: CardView, left: float, top: float) -> float:
    """The attack table (table-layout fixed, collapsed borders, cells in the middle of their
    row); returns its bottom."""
    t = view.table_pt
    pad = fit.ROW_PAD * t
    label_w = view.label_pt
    if not view.notation and (not view.bands or any(len(r.cells) != len(view.bands) for r in view.attack_rows)):
        raise Undrawable("an attack table whose rows do not match its bands")
    if view.notation:
        columns = [label_w, fit.BODY_W - label_w]
        header_rows = [[("Weapon", "left"), ("dice @ farthest hex", "left")]]
    else:
        columns = [label_w] + [(fit.BODY_W - label_w) / len(view.bands)] * len(view.bands)
        header_rows = [[("Range", "left")] + [(str(b), "center") for b in view.bands]]
        if view.reach_header:
            header_rows.append([(view.distance_unit, "left")] + [(r, "center") for r in view.reach_header])
    for i, header in enumerate(header_rows):
        cells = [
            _cell([(text, False, GREY_TEXT)], t, width, align, _text_line(t))
            for (text, align), width in zip(header, columns, strict=True)
        ]
        last = i == len(header_rows) - 1
        top = _row(canvas, cells, columns, left, top, pad, pad, HEAD_RULE_W if last else 0.0, HEAD_RULE)
    for row in view.attack_rows:
        label = _cell([(row.label, True, INK)], t, columns[0], "left", _text_line(t))
        if view.notation:
            cells = [label, _wrapped_cell([(row.notation, True, INK)], fit.DICE * t, columns[1], _dice_line(t))]
        else:
            cells = [label] + [_dice_cell(cell, t, width) for cell, width in zip(row.cells, columns[1:], strict=True)]
        top = _row(canvas, cells, columns, left, top, pad, pad, ROW_RULE_W, ROW_RULE)
        if view.notation and row.arc_lines:
            arcs = _Cell(
                [
                    ln
                    for text in row.arc_lines
                    for ln in _wrapped_cell([(text, False, ARC_TEXT)], t, columns[1], _text_line(t)).lines
                ]
            )
            top = _row(canvas, [_Cell(), arcs], columns, left, top, 0.0, pad, ROW_RULE_W, ROW_RULE)
    return top


def _cell(parts, size: float, width: float, align: str, box: _LineBox) -> _Cell:
    """A cell of one line that does not wrap (white-space: nowrap)."""
    runs = _line_runs(_styled(parts), size)
    if line_width(runs) > width + 1e-6:
        raise Undrawable("a table cell wider than its column")
    return _Cell([(runs, box, align)])


def _wrapped_cell(parts, size: float, width: float, box: _LineBox) -> _Cell:
    return _Cell([(runs, box, "left") for runs in wrap(parts, size, width)])


def _dice_cell(cell: dict | None, t: float, width: float) -> _Cell:
    if not cell:
        return _Cell()
    dice = _cell([(f"{cell['dice']}{cell['mark']}", True, INK)], fit.DICE * t, width, "center", _dice_line(t))
    if cell.get("reach"):
        reach = _cell(
            [(str(cell["reach"]), False, GREY_TEXT)],
            t,
            width,
            "center",
            _LineBox(_above(t, DICE_LINE * t), DICE_LINE * t),
        )
        dice.lines += reach.lines
    return dice


def _row(
    canvas: _Canvas,
    cells: list[_Cell],
    columns: list[float],
    left: float,
    top: float,
    pad_top: float,
    pad_bottom: float,
    rule: float,
    rule_colour: tuple[int, int, int],
) -> float:
    """Draw one table row from ``top``, each cell's lines in the middle of the row, and the
    rule under it; returns the next row's top."""
    content = max((cell.height for cell in cells), default=0.0)
    x = left
    for cell, width in zip(cells, columns, strict=True):
        y = top + pad_top + (content - cell.height) / 2
        for runs, box, align in cell.lines:
            shift = (width - line_width(runs)) / 2 if align == "center" else 0.0
            canvas.text(runs, x + shift, y + box.above)
            y += box.height
        x += width
    bottom = top + pad_top + content + pad_bottom
    if rule:
        canvas.rule(left, bottom, sum(columns), rule, rule_colour)
    return bottom + rule


def _foot(canvas: _Canvas, view: CardView) -> None:
    """The footer: a rule, the set line on the left and the variant on the right."""
    box = _LineBox(_above(FOOT_PT, FOOT_LINE * FOOT_PT), FOOT_LINE * FOOT_PT)
    bottom = fit.CARD_H - fit.BORDER - FOOT_BOTTOM
    top = bottom - box.height - FOOT_PAD - FOOT_RULE_W
    left, width = fit.BORDER + fit.BODY_LEFT, fit.BODY_W
    canvas.border(left, top, width, FOOT_RULE_W, FOOT_RULE)
    baseline = top + FOOT_RULE_W + FOOT_PAD + box.above
    right = _line_runs(_styled([(view.footer_right, False, GREY_TEXT)]), FOOT_PT)
    canvas.text(_line_runs(_styled([(view.footer_left, False, GREY_TEXT)]), FOOT_PT), left, baseline)
    canvas.text(right, left + width - line_width(right), baseline)


# --- the points in the head's box ---------------------------------------------------------------
