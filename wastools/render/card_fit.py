"""Choosing each card's text size before layout, from the fonts' own metrics.

The card body (movement, attacks, rules, abilities) gets the largest size between
MIN_PT and MAX_PT at which it fits the space above the footer, measured here with the
same TrueType fonts WeasyPrint uses; what space is left becomes even gaps between the
blocks, so the body fills the card. Only when a card cannot fit at MIN_PT do its longest
ability texts move to the player aid (the card keeps a short reference). Deciding the size
here means every card is laid out once; the layout then confirms the fit.

Every length card.css sets (the card, its border, the body's place, line heights, the
title's width) is read from card.css (``card_style``); the constants set here are the
fitting's own (sizes tried, gaps, safety margins, the body's space above the footer).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..content.card_view import SIDE_LABELS, AttackRow, CardView
from .card_style import em, pt

MIN_PT = 6.0
MAX_PT = 8.0
STEP_PT = 1.0  # a few sizes a deck (8, 7, 6 pt), so neighboring cards read alike
CARD_W, CARD_H = pt(".card", "width"), pt(".card", "height")
BODY_LEFT, BODY_RIGHT = pt(".body", "left"), pt(".body", "right")
BORDER = pt(".card", "border")  # absolute boxes sit inside the card's border
BODY_TOP = pt(".body", "top") + BORDER  # below the nation band, the title and the stats row
BODY_BOTTOM = 17.0  # the body's text ends this far above the card's bottom edge, clear of the footer
BODY_W = CARD_W - 2 * BORDER - BODY_LEFT - BODY_RIGHT
WRAP_SLACK = 0.985  # Pango's shaping and kerning differ slightly from the advance widths
BODY_H = CARD_H - BODY_TOP - BODY_BOTTOM
LINE = em(".body", "line-height")  # body line height, in ems
DICE = em("table.attacks td .dice", "font-size")  # dice numbers, in ems of the body size
ROW_PAD = em("table.attacks td", "padding")  # top and bottom padding of a table row, in ems
ROW_EXTRA = 0.5  # a row's border and the baseline of its larger dice, in pt
LABEL_GAP = 4.0  # space after the longest weapon label
MAX_LABEL_COL = 0.42  # share of the table width the weapon labels may take
MIN_GAP = 0.35  # in ems, between blocks
MAX_GAP = 2.0
SAFETY = 0.985  # the estimate must fit in this share of the body height
NAME_MAX, NAME_MIN = 12.5, 7.5
NAME_W = CARD_W - pt(".title", "left") - pt(".title", "right")  # beside the points box
NAME_SLACK = 0.96  # kerning and rounding


@lru_cache(maxsize=1)
def _fonts() -> dict[str, str]:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from ..core.resources import FONTS

    names = {"regular": "WasVera", "bold": "WasVeraBd", "italic": "WasVeraIt"}
    files = {"regular": "Vera.ttf", "bold": "VeraBd.ttf", "italic": "VeraIt.ttf"}
    for key, name in names.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONTS / files[key])))
    return names


def width(text: str, size: float, bold: bool = False) -> float:
    """``text``'s width in points, as ReportLab's stringWidth gives it (the same sum, the
    same float), from a cache of each word's advance: sizing every card measures the same
    words a million times."""
    return 0.001 * size * _advance(text, bold)


@lru_cache(maxsize=1 << 16)
def _advance(text: str, bold: bool) -> float:
    widths, default = _char_widths("VeraBd.ttf" if bold else "Vera.ttf")
    # a character the card font lacks is drawn from another font, whose width is unknown
    # here: counted as a whole em (a CJK or Ogham letter), never as the font's .notdef box
    advance, default = widths.get, max(default, MISSING_ADVANCE)
    return sum(advance(ord(c), default) for c in text)


@lru_cache(maxsize=2)
def _char_widths(file: str) -> tuple[dict[int, float], float]:
    """ReportLab's advance of each character of a card font, and its default (read once per
    machine and code: ``derived``)."""
    from .derived import kept

    return kept("card-fit-widths", file, lambda: _read_char_widths(file))


def _read_char_widths(file: str) -> tuple[dict[int, float], float]:
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(_fonts()["bold" if file == "VeraBd.ttf" else "regular"]).face
    return dict(face.charWidths), face.defaultWidth


MISSING_ADVANCE = 1000  # per mille of the size: a character the card font does not have


def lines_needed(parts: list[tuple[str, bool]], size: float, box: float) -> int:
    """Lines a paragraph of (text, bold) runs takes at ``size`` in ``box`` points, breaking
    only at spaces (as Pango may also break at hyphens, this never counts too few)."""
    words: list[tuple[str, bool]] = []
    for text, bold in parts:
        words += [(word, bold) for word in re.split(r"(?<= )", text) if word]
    lines, used = 1, 0.0
    box *= WRAP_SLACK
    for word, bold in words:
        w = width(word, size, bold)
        trimmed = width(word.rstrip(" "), size, bold)
        if used and used + trimmed > box:
            lines += 1
            used = 0.0
        used += w
    return lines


# --- the body, block by block -------------------------------------------------------------------


def _paragraph(label: str, text: str, size: float, sep: str = ": ") -> float:
    return lines_needed([(label + sep, True), (text, False)], size, BODY_W) * size * LINE


def _table_fits_across(view: CardView, size: float) -> bool:
    if view.notation:
        return label_column(view, size) <= BODY_W * MAX_LABEL_COL
    label_w = label_column(view, size)
    if label_w > BODY_W * MAX_LABEL_COL:
        return False
    col_w = (BODY_W - label_w) / max(1, len(view.bands))
    texts = [str(b) for b in view.bands] + list(view.reach_header or [])
    texts += [c["reach"] for r in view.attack_rows for c in r.cells if c and c["reach"]]
    dice = [f"{c['dice']}{c['mark']}" for r in view.attack_rows for c in r.cells if c]
    return all(width(t, size) + 2 <= col_w for t in texts) and all(
        width(d, size * DICE, True) + 2 <= col_w for d in dice
    )


def table_size(view: CardView, size: float) -> float | None:
    """The attack table's text size: the body size, or less where a wide table needs it."""
    while size >= MIN_PT - 1e-9:
        if _table_fits_across(view, size):
            return size
        size = round(size - STEP_PT, 2)
    return None


def _table_height(view: CardView, body_size: float) -> float | None:
    """Height of the attack table, or None when it cannot fit across the card even at MIN_PT."""
    if not view.attack_rows:
        return 0.0
    size = table_size(view, body_size)
    if size is None:
        return None
    dice, row_pad = size * DICE, 2 * ROW_PAD * size + ROW_EXTRA
    if view.notation:
        total = size * LINE + row_pad  # header
        cell_w = notation_cell_width(view, size)
        for row in view.attack_rows:
            total += lines_needed([(row.notation, True)], dice, cell_w) * dice * 1.15 + row_pad
            if row.arcs:
                lines = sum(lines_needed([(line, False)], size, cell_w) for line in arc_lines(row, size, cell_w))
                total += lines * size * LINE + ROW_PAD * size + ROW_EXTRA
        return total
    header_rows = 2 if view.reach_header else 1
    total = header_rows * (size * LINE + row_pad)
    for row in view.attack_rows:
        has_reach = any(c and c["reach"] for c in row.cells)
        total += dice * 1.15 + row_pad + (size * 1.15 if has_reach else 0)
    return total


ARC_JOIN = " \u00b7 "  # between the dice ahead and astern on one line


def arc_lines(row: AttackRow, size: float, cell_w: float) -> list[str]:
    """A hex row's arcs on one line where they fit it, else a line each."""
    joined = ARC_JOIN.join(row.arcs)
    return [joined] if not row.arcs or lines_needed([(joined, False)], size, cell_w) == 1 else list(row.arcs)


def notation_cell_width(view: CardView, size: float) -> float:
    return BODY_W - label_column(view, size) - 3


def label_column(view: CardView, size: float) -> float:
    """Width of the weapon-label column: the longest label (or header) plus a gap."""
    labels = [width(r.label, size, True) for r in view.attack_rows]
    labels += [width("Weapon" if view.notation else "Range", size), width(view.distance_unit, size)]
    return round(max(labels) + LABEL_GAP, 2)


def _blocks(view: CardView, size: float) -> list[float] | None:
    table = _table_height(view, size)
    if table is None:
        return None
    blocks = [_paragraph(view.movement_label, view.movement, size), table]
    if view.footnotes:
        blocks.append(sum(_paragraph(mark, text, size, " ") for mark, text in view.footnotes))
    if view.rules:
        blocks.append(sum(_paragraph(label, text, size) for label, text in view.rules))
    if view.abilities:
        blocks.append(sum(_ability_height(a, size) for a in view.abilities))
    return blocks


def _ability_height(ability: dict, size: float) -> float:
    name = ability["mark"] + ability["name"]
    if not ability["summary"]:
        return lines_needed([(name, True)], size, BODY_W) * size * LINE
    return _paragraph(name, ability["summary"], size, " \u2013 ")


def body_height(view: CardView, size: float) -> float | None:
    blocks = _blocks(view, size)
    if blocks is None:
        return None
    return sum(blocks) + MIN_GAP * size * (len(blocks) - 1)


@dataclass(frozen=True)
class Fit:
    size_pt: float
    gap_pt: float
    name_pt: float
    name_lines: int
    moved_to_aid: tuple[str, ...]
    moved_text: tuple[tuple[str, str], ...] = ()  # (ability, its full text) for the player aid


def fit(view: CardView, body_max: float = MAX_PT) -> Fit:
    """The largest body size up to ``body_max`` that fits, the gap that fills the rest, and
    what (if anything) had to move to the player aid."""
    name_pt, name_lines = name_size(view.name)
    moved: list[str] = []
    moved_text: list[tuple[str, str]] = []
    while True:
        size = _largest_fitting(view, body_max)
        if size is not None:
            break
        longest = max(
            (a for a in view.abilities if a["summary"] and a["summary"] != REFERENCE),
            key=lambda a: len(a["summary"]),
            default=None,
        )
        if longest is None:
            size = MIN_PT  # nothing left to move; the layout check will report it
            break
        moved_text.append((longest["name"], longest["summary"]))
        longest["summary"] = REFERENCE
        moved.append(longest["name"])
    blocks = _blocks(view, size) or [0.0]
    spare = BODY_H * SAFETY - sum(blocks)
    gap = max(MIN_GAP * size, min(MAX_GAP * size, spare / max(1, len(blocks) - 1) if len(blocks) > 1 else 0))
    return Fit(size, round(gap, 2), name_pt, name_lines, tuple(moved), tuple(moved_text))


REFERENCE = "see the player aid"  # what an ability whose text moved to the aid says


def _largest_fitting(view: CardView, body_max: float) -> float | None:
    size = max(MIN_PT, min(MAX_PT, body_max))
    while size >= MIN_PT - 1e-9:
        height = body_height(view, size)
        if height is not None and height <= BODY_H * SAFETY:
            return size
        size = round(size - STEP_PT, 2)
    return None


def name_size(name: str) -> tuple[float, int]:
    """The name's size and lines: one line from NAME_MAX down to NAME_MIN, else wrapped at
    MIN_PT (a name may be 80 characters; three lines at 6 pt hold it)."""
    size = NAME_MAX
    while size >= NAME_MIN and width(name, size, True) > NAME_W * NAME_SLACK:
        size = round(size - 0.25, 2)
    if size >= NAME_MIN:
        return size, 1
    return MIN_PT, lines_needed([(name, True)], MIN_PT, NAME_W * NAME_SLACK)


SUB_PT = 6.5
SUB_W = CARD_W - 14 - 30
BAND_PT, BAND_TIGHT_PT = 6.5, 6.0
BAND_W = CARD_W - 2 * BORDER - 12  # inside the band's 6 pt padding
BAND_GAP = 6.0  # at least this much sea between the nation and the type
EMBLEM_W, ICON_W, MARK_MARGIN = 10.0, 16.0, 3.0  # the marks as cards.py draws them
NATION_SPACING = 0.3  # letter spacing of the nation's name at full size


def band_fit(view: CardView, side_label: str) -> tuple[float, bool]:
    """The nation band's size and whether it keeps the side: nation and side at the left,
    the type at the right, never touching (a long nation and a long type share 168 pt)."""
    emblem = EMBLEM_W + MARK_MARGIN if view.side != "special" else 0.0
    for size, spacing, with_side in (
        (BAND_PT, NATION_SPACING, True),
        (BAND_TIGHT_PT, 0.0, True),
        (BAND_TIGHT_PT, 0.0, False),
    ):
        left = emblem + width(view.nation, size, True) + spacing * len(view.nation)
        if with_side:
            left += width(f" \u00b7 {side_label}", size)
        right = ICON_W + MARK_MARGIN + width(view.type_label, size)
        if left + BAND_GAP + right <= BAND_W * WRAP_SLACK:
            return size, with_side
    return BAND_TIGHT_PT, False


FOOT_PT = 6.0  # the foot's type (card.css .foot)
FOOT_GAP = 6.0  # at least this between the set line and the variant's name


def _shortened(text: str, room: float) -> str:
    """``text`` losing letters at its end (…) until it is at most ``room`` wide."""
    while text and width(text, FOOT_PT) > room:
        text = text[:-2].rstrip() + "\u2026"
    return text


def foot_fit(left: str, right: str, room: float = BODY_W) -> tuple[str, str]:
    """The foot's set line and variant name side by side with a gap: a variant's name over
    two thirds of the foot loses letters; then the set line loses its rarity, then letters of
    the set's name (its number is kept)."""
    right = _shortened(right, room * 2 / 3)

    def fits(text: str) -> bool:
        return width(text, FOOT_PT) + FOOT_GAP + width(right, FOOT_PT) <= room

    if fits(left):
        return left, right
    head, dot, _rarity = left.rpartition(" \u00b7 ")
    text = head if dot else left
    if fits(text):
        return text, right
    name, space, number = text.rpartition(" ")
    if not space:
        name, number = text, ""
    while name and not fits(f"{name}\u2026 {number}".strip()):
        name = name[:-1].rstrip()
    return (f"{name}\u2026 {number}".strip() if name else number), right


def apply(view: CardView, body_max: float = MAX_PT) -> CardView:
    """The view with its sizes set, its body at most ``body_max`` (so that a sheet's cards
    read alike), and any ability text moved to the aid. A class name
    too long for the line under the name is left out there (the site and `show` keep it);
    a set line too long for the foot beside the variant's name is shortened (``foot_fit``)."""
    view.footer_left, view.footer_right = foot_fit(view.footer_left, view.footer_right)
    if view.class_name and width(f"{view.year} \u00b7 {view.class_name}", SUB_PT) > SUB_W * WRAP_SLACK:
        view.class_name = None
    view.band_pt, view.band_side = band_fit(view, SIDE_LABELS.get(view.side, "stat block"))
    result = fit(view, body_max)
    view.size_pt, view.gap_pt, view.name_pt = result.size_pt, result.gap_pt, result.name_pt
    view.name_lines = result.name_lines
    view.table_pt = table_size(view, result.size_pt) or MIN_PT
    view.label_pt = label_column(view, view.table_pt) if view.attack_rows else 0.0
    for row in view.attack_rows:
        row.arc_lines = arc_lines(row, view.table_pt, notation_cell_width(view, view.table_pt)) if row.arcs else []
    view.stat_widths = stat_widths(view.stats)
    view.moved_to_aid = list(result.moved_to_aid)
    view.moved_text = dict(result.moved_text)
    return view


STATS_W = 168.0


def stat_widths(stats: list[tuple[str, str]]) -> list[float]:
    """Column widths of the stats row: each its label or value plus an even share of the rest."""
    needed = [max(width(label, 6.0), width(value, 11.0, True)) + 4 for label, value in stats]
    share = max(0.0, STATS_W - sum(needed)) / max(1, len(stats))
    return [round(n + share, 2) for n in needed]
