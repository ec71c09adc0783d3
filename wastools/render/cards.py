"""Card faces: a pure view model per adapted unit, HTML from jinja2, PDF from WeasyPrint.

The view model (:func:`card_view`) decides everything a card shows; the templates only
lay it out. Text size classes come from the amount of text, so long names and many
abilities shrink instead of overflowing (tests check every real card).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from ..model import Repository
from ..showing import fmt_value as _fmt
from ..variants.base import AdaptedUnit, Variant
from ..variants.hex import CARD_LABELS
from .fetcher import TEMPLATES

CARD_DIR = TEMPLATES / "cards"
ATTACK_LABELS = {
    "main": "Main", "secondary": "Secondary", "tertiary": "Tertiary", "aircraft_gunnery": "Gunnery",
    "anti_air": "Anti-air", "asw": "ASW", "torpedo": "Torpedo", "bomb": "Bomb",
}
TYPE_LABELS = {"torpedo-boat": "torpedo boat", "dive-bomber": "dive bomber", "torpedo-bomber": "torpedo bomber", "patrol-bomber": "patrol bomber"}
# Rules that belong on the player aid rather than on every card.
AID_ONLY_RULES = {"card_notation", "leg", "range_0_reach", "objective_claim", "stacking", "movement_6ft", "movement_8ft", "movement_in"}


@lru_cache(maxsize=1)
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(CARD_DIR)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        keep_trailing_newline=False,
    )


def template_fingerprint() -> str:
    """Everything in templates/cards, for cache keys: a template edit re-renders cards."""
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(CARD_DIR.iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _name_class(name: str) -> str:
    n = len(name)
    return "n0" if n <= 17 else "n1" if n <= 22 else "n2" if n <= 28 else "n3"


def _text_class(lines: float) -> str:
    return "t0" if lines <= 15 else "t1" if lines <= 19 else "t2" if lines <= 24 else "t3"


def _rule_text(value) -> str:
    text = _fmt(value.value)
    if value.unit and value.value is not None and not isinstance(value.value, (dict, str, bool)):
        text += f" {value.unit}"
    return text


def card_view(adapted: AdaptedUnit, variant: Variant, repo: Repository) -> dict[str, Any]:
    """Everything one card shows, as plain data (no HTML)."""
    u = adapted.unit
    nation = repo.nations.get(u.nation)
    card_set = repo.sets.get(u.set)
    move = adapted.movement
    movement = (move.note or "-") if move.value is None else f"{_fmt(move.value)} {move.unit}"
    stats = [("armor", adapted.rules["armor"].value if "armor" in adapted.rules else u.armor),
             ("vital", adapted.rules["vital_armor"].value if "vital_armor" in adapted.rules else u.vital_armor),
             ("hull", u.hull)]
    if u.flagship:
        stats.append(("flagship", f"+{u.flagship}"))
    if u.carrier_capacity:
        stats.append(("squadrons", u.carrier_capacity))
    bands = sorted({b.band for a in adapted.attacks for b in a.bands}) or [0]
    notation = adapted.rules.get("card_notation")
    rows = []
    for attack in adapted.attacks:
        cells_by_band = {b.band: {"dice": b.dice, "reach": _fmt(b.max) if b.min in (b.max, 0) and b.band == 0 else f"{_fmt(b.min)}-{_fmt(b.max)}", "marked": bool(b.condition)} for b in attack.bands}
        row = {"label": ATTACK_LABELS[attack.type], "cells": [cells_by_band.get(b) for b in bands]}
        if notation:
            row["notation"] = notation.value.get(CARD_LABELS[attack.type], "")
        rows.append(row)
    conditions = sorted({f"*{b.band}: {b.condition}" for a in adapted.attacks for b in a.bands if b.condition})
    rules = [("Band " + c[1:].split(":")[0], c.split(": ", 1)[1]) for c in conditions]
    amended = {}
    for name, value in adapted.rules.items():
        if name.startswith("amended: "):
            amended[name.removeprefix("amended: ")] = value.value
        elif name not in AID_ONLY_RULES and name not in ("armor", "vital_armor"):
            rules.append((name.replace("_", " ").capitalize(), _rule_text(value)))
    abilities = []
    for ability in u.abilities:
        info = repo.abilities.get(ability.pattern)
        summary = amended.get(ability.text) or (info.summary if info else None)
        if summary and ability.n is not None:
            summary = summary.replace("{n}", str(ability.n))
        abilities.append({"name": ability.text, "summary": summary})
    lines = len(rows) * 1.6 + len(rules) * 1.3 + sum(1 + len(a["summary"] or "") / 55 for a in abilities)
    lines += sum(len(text) / 60 for _l, text in rules)
    return {
        "name": u.name, "name_class": _name_class(u.name), "side": nation.side if nation else "neutral",
        "nation": nation.name if nation else u.nation, "type_label": TYPE_LABELS.get(u.type, u.type), "year": u.year,
        "points": u.points, "stats": stats, "movement_label": "Move" if not u.is_aircraft else "Air move",
        "movement": movement, "distance_unit": next((b.unit for a in adapted.attacks for b in a.bands), variant.distance_unit),
        "bands": bands, "attack_rows": rows, "notation": bool(notation), "rules": rules, "abilities": abilities,
        "text_class": _text_class(lines),
        "footer_left": f"{card_set.name if card_set else u.set} {u.number}/{card_set.total if card_set else '?'} · {u.rarity}",
        "footer_right": f"{variant.name}" + (" · crippled" if adapted.crippled else ""),
        "template": {"aircraft": "aircraft.html.j2", "submarine": "submarine.html.j2"}.get(u.category, "ship.html.j2"),
    }


def render_card_html(view: dict[str, Any]) -> Markup:
    return Markup(environment().get_template(view["template"]).render(card=view))


def render_deck_html(cards: list[Markup], title: str, bleed: float = 0.0) -> str:
    return environment().get_template("deck.html.j2").render(cards=cards, title=title, bleed=bleed)


def render_back_html(variant: Variant) -> Markup:
    return Markup(environment().get_template("back.html.j2").render(title=variant.title, seed=variant.seed))


TEXT_CLASSES = ("t0", "t1", "t2", "t3")


def _overflows(page) -> bool:
    """True when a line of text on this laid-out card runs below the card's content box
    (into the footer or past the edge, where ``overflow: hidden`` would cut it)."""
    from weasyprint.formatting_structure import boxes

    def walk(box):
        if box.style["position"] == "absolute" and box.element_tag != "section":
            return  # the footer and points box are placed, not flowed
        yield box
        for child in getattr(box, "children", ()):
            yield from walk(child)

    card = next((b for b in walk(page._page_box) if b.element_tag == "section"), None)
    if card is None:
        return False
    limit = card.content_box_y() + card.height + 0.5
    return any(b.position_y + b.height > limit for b in walk(card) if isinstance(b, boxes.LineBox))


def _layout(html: str):
    from weasyprint import HTML

    from .fetcher import ProjectFetcher

    return HTML(string=html, base_url=(CARD_DIR / "deck.html.j2").as_uri(), url_fetcher=ProjectFetcher()).render()


def _smaller(card_html: str) -> str | None:
    """The same card one text size smaller, or None at the smallest size."""
    for bigger, smaller in zip(TEXT_CLASSES, TEXT_CLASSES[1:]):
        if f" {bigger}\"" in card_html:
            return card_html.replace(f" {bigger}\"", f" {smaller}\"", 1)
    return None


def lay_out_cards(cards: list[str], bleed: float = 0.0) -> list[bytes]:
    """Lay out cards (HTML sections) in one WeasyPrint document; a card whose text would
    overflow is laid out again one size smaller until it fits. Returns one single-page
    PDF per card, in order (the cache stores cards one by one)."""
    document = _layout(render_deck_html([Markup(c) for c in cards], "cards", bleed))
    if len(document.pages) != len(cards):
        raise RuntimeError(f"expected {len(cards)} card pages, got {len(document.pages)}")
    pages = _split(document.write_pdf())
    for i, page in enumerate(document.pages):
        html = cards[i]
        while _overflows(page):
            html = _smaller(html)
            if html is None:
                raise RuntimeError("a card's text does not fit even at the smallest size: " + cards[i][:200])
            single = _layout(render_deck_html([Markup(html)], "cards", bleed))
            page = single.pages[0]
            pages[i] = _split(single.write_pdf())[0]
    return pages


def _split(pdf: bytes) -> list[bytes]:
    from pypdf import PdfReader, PdfWriter

    out = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        writer = PdfWriter()
        writer.add_page(page)
        buf = io.BytesIO()
        writer.write(buf)
        out.append(buf.getvalue())
    return out


@dataclass(frozen=True)
class StatBlock:
    """A scenario stat block drawn as a card (air base, shore battery, garrison)."""

    title: str
    kind: str
    stats: tuple[tuple[str, Any], ...]
    gunnery: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    source: str = ""


def statblock_view(block: StatBlock, variant: Variant) -> dict[str, Any]:
    rows = []
    if block.gunnery:
        rows.append({"label": "Gunnery", "cells": [{"dice": d, "reach": str(i), "marked": False} for i, d in enumerate(block.gunnery)]})
    return {
        "name": block.title, "name_class": _name_class(block.title), "side": "special", "nation": "scenario",
        "type_label": block.kind, "year": None, "points": None, "stats": list(block.stats), "movement_label": "Move",
        "movement": "immobile", "distance_unit": "sectors", "bands": list(range(len(block.gunnery))) or [0],
        "attack_rows": rows, "notation": False, "rules": [("Rule", n) for n in block.notes], "abilities": [],
        "text_class": "t0", "footer_left": block.source, "footer_right": variant.name, "template": "statblock.html.j2",
    }


def large_map_stat_blocks() -> list[StatBlock]:
    """Seed 000's typical air base, shore batteries and garrison as cards."""
    from ..variants import large_map as lm

    source = "seed 000 typical values"
    return [
        StatBlock("Island Air Base", "air base", (("armor", lm.AIR_BASE["armor"]), ("hit points", lm.AIR_BASE["hull"]), ("anti-air", lm.AIR_BASE["anti_air"]), ("squadrons", lm.AIR_BASE["capacity"])),
                  notes=("inoperable at half its hit points: no take-off or landing", "repairs 1 point a turn when not attacked and unused", "a co-located battery's AA replaces its own"), source=source),
        StatBlock("Heavy Shore Battery", "shore battery", (("armor", lm.HEAVY_BATTERY["armor"]), ("hit points", lm.HEAVY_BATTERY["hull"]), ("anti-air", lm.HEAVY_BATTERY["anti_air"])),
                  gunnery=lm.HEAVY_BATTERY["gunnery"], notes=("each point of damage: 1 die less the next turn", "an immobile ship with the arc of fire the terrain allows"), source=source),
        StatBlock("Light Shore Battery", "shore battery", (("armor", lm.LIGHT_BATTERY["armor"]), ("hit points", lm.LIGHT_BATTERY["hull"]), ("anti-air", lm.LIGHT_BATTERY["anti_air"])),
                  gunnery=lm.LIGHT_BATTERY["gunnery"], notes=("each point of damage: 1 die less the next turn",), source=source),
        StatBlock("Island Garrison", "garrison", (("armor", lm.GARRISON["armor"]), ("hit points", lm.GARRISON["hull"]), ("anti-air", lm.GARRISON["anti_air"]), ("units", "1-3")),
                  notes=("invaders need 2 to 1 odds in landed transports (1 unit each)", "reduce it with ships and aircraft first"), source=source),
    ]
