"""What the site shows, as plain data: no HTML here, only values the templates escape.

Every card on the site is the PDF decks' own card (``card_view`` + ``render_card_html``),
every converted number is shown with the provenance the variant attached to it, and
every historical figure with its source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from ..content.card_view import ATTACK_LABELS, TYPE_LABELS, depth_charge_words
from ..content.showing import fmt_value
from ..core import wording as w
from ..core.model import Repository, Unit
from ..variants import BASELINE, SHIPPED, VARIANTS, Variant
from ..variants.base import AdaptedUnit

SAFE_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,99}$")  # ids become file names: nothing else passes


@dataclass(frozen=True)
class SiteSpec:
    """What goes on the site: the units (in index order), each variant with its parameters."""

    units: tuple[Unit, ...]
    variants: tuple[tuple[Variant, dict[str, Any]], ...]
    address: str = ""  # where the site is published ([site] address in wastools.toml): QR codes link there
    # the build's PDFs the site carries (paths under build/, copies under site/pdf/): a page
    # links a PDF only when the site has it, so every link works with site/ hosted alone
    pdfs: frozenset[str] = frozenset()

    @property
    def unit_ids(self) -> frozenset[str]:
        return frozenset(u.id for u in self.units)


def safe_id(text: str) -> bool:
    return bool(SAFE_ID.match(text))


def link(source: str) -> str | None:
    """An http(s) address usable as a link, or None: any other scheme (javascript:, data:,
    file:) stays text, so a data file cannot plant a script or a local path in a link."""
    parts = urlsplit(source.strip())
    if parts.scheme in ("http", "https") and parts.netloc and " " not in source.strip():
        return source.strip()
    return None


def link_text(href: str) -> str:
    """What a link to a source says: the site's name ('navsource.org'), the full address
    being in the link itself and its tooltip."""
    host = urlsplit(href).hostname or href
    return host.removeprefix("www.")


def side_of(repo: Repository, unit: Unit) -> str:
    nation = repo.nations.get(unit.nation)
    return nation.side if nation else "neutral"


def type_label(unit_type: str) -> str:
    return TYPE_LABELS.get(unit_type, unit_type).lower()


def index_entry(repo: Repository, unit: Unit) -> dict[str, Any]:
    """One row of the unit index (and of units.json)."""
    nation = repo.nations.get(unit.nation)
    card_set = repo.sets.get(unit.set)
    return {
        "id": unit.id,
        "name": unit.name,
        "nation": unit.nation,
        "nation_name": nation.name if nation else unit.nation,
        "side": side_of(repo, unit),
        "type": unit.type,
        "type_label": type_label(unit.type),
        "set": unit.set,
        "set_name": card_set.name if card_set else unit.set,
        "number": unit.number,
        "year": unit.year,
        "points": unit.points,
        "href": f"units/{unit.id}.html",
    }


def filter_choices(rows: list[dict[str, Any]]) -> dict[str, list[tuple[str, str]]]:
    """(value, label) pairs for each filter, from the units actually on the site."""

    def pairs(key: str, label: str) -> list[tuple[str, str]]:
        return sorted({(r[key], r[label]) for r in rows}, key=lambda p: p[1].lower())

    return {
        "nation": pairs("nation", "nation_name"),
        "side": [(value, label.capitalize()) for value, label in pairs("side", "side")],
        "type": pairs("type", "type_label"),
        "set": pairs("set", "set_name"),
    }


# --- unit pages ----------------------------------------------------------------------------


RULE_LABELS = {
    "take_off": "Take-off",
    "rearm": "Re-arming",
    "launch_land_per_phase": "Launches and landings a phase",
    "vital_armor_by_squadrons_aboard": "Vital Armor by squadrons aboard",
    "leg": "A leg",
    "movement_in": "Move in inches",
    "stacking": "Distance from friendly ships",
    "asw_threat": "Threat to submarines",
    "smoke_radius": "Smoke radius",
    "movement_6ft": "Move on the 6 ft scale",
    "movement_8ft": "Move on the 8 ft scale",
    "detection": "Finds submarines",
    "rearm_counters": "Re-arm counters",
    "torpedo_rearm_counters": "Torpedo re-arm counters",
    "range_0_reach": "Range 0 reaches",
    "objective_clear": "No enemy near an objective",
    "objective_claim": "Claiming an objective",
    "torpedo_immune": "Safe from torpedoes",
    "hedgehog": "Hedgehog",
    "armor": "Armor when crippled",
    "vital_armor": "Vital Armor when crippled",
    "attack_die_penalty": "Attack dice when crippled",
    "depth_charge_hexes": "Depth charges",
    "card_notation": "Card notation",
    "footprint": "Footprint",
    "aircraft_min_move": "Aircraft minimum move",
    "surface_deck_gun": "Deck gun on the surface",
    "submerged_move": "Submerged move",
}


def rule_label(key: str) -> str:
    """What a person calls a variant's extra rule: 'Move on the 6 ft scale', not 'movement_6ft'."""
    if key in RULE_LABELS:
        return RULE_LABELS[key]
    if key.startswith("amended: "):
        return f"{key.removeprefix('amended: ')} (amended)"
    if key.endswith("_arcs") and key.removesuffix("_arcs") in ATTACK_LABELS:
        return f"{ATTACK_LABELS[key.removesuffix('_arcs')]} arcs"
    return key.replace("_", " ").capitalize()


PARAMETER = re.compile(r"parameter ([a-z][a-z0-9_]*)(?:=([\w.]+))?")


def without_document(source: str, variant: Variant | None) -> str:
    """A source without its rule document's title, which the page names once for the variant:
    'War at Sea: Playing Off the Grid: 2 legs x speed 2' reads '2 legs x speed 2'."""
    if variant is None:
        return source
    title = re.escape(variant.seed)
    source = re.sub(rf"^{title}(?::\s*|,\s*)", "", source)
    source = re.sub(rf"\s*\({title}\)|,?\s*{title}", "", source)
    return source[:1].upper() + source[1:] if source else source


def tidy(source: str, variant: Variant | None = None) -> str:
    """A source as a person reads it on the unit page: without the rule document's title (the
    section names it once), and a variant's parameter by its name on the variant page's
    settings ('the setting "aircraft minimum move ..."')."""
    labels = {p.name: p.label for p in (variant.parameters if variant else ())}

    def setting(match: re.Match[str]) -> str:
        if match.group(1) not in labels:
            return match.group(0)
        value = f" set to {match.group(2)}" if match.group(2) else ""
        return f"the setting \u201c{labels[match.group(1)]}\u201d{value}"

    return PARAMETER.sub(setting, without_document(source, variant))


def derivations(adapted: AdaptedUnit) -> list[dict[str, str]]:
    """Every converted number of one adapted card with where it came from."""
    move = adapted.movement
    shown = _value_text(move.value, move.unit) if move.value is not None else (move.note or "-")
    rows = [{"what": "Move", "value": shown, "source": move.source}]
    reach = VARIANTS[adapted.variant].range_words(adapted.parameters)
    for attack in adapted.attacks:
        label = ATTACK_LABELS.get(attack.type, attack.type)
        cells = "; ".join(f"Range {b.band}: {w.dice(b.dice)} {_reach(b.min, b.max, b.unit)}" for b in attack.bands)
        conditions = [f"Range {b.band}: {b.condition}" for b in attack.bands if b.condition]
        source = "; ".join(filter(None, [None if attack.own_reach else reach, *conditions, *attack.notes]))
        rows.append({"what": label, "value": cells or "-", "source": source or "the card's dice, as printed"})
    for name, value in adapted.rules.items():
        rows.append({"what": rule_label(name), "value": _rule_value(name, value), "source": value.source})
    return [dict(row, source=tidy(row["source"], VARIANTS.get(adapted.variant))) for row in rows]


def _rule_value(name: str, value: Any) -> str:
    """A rule's value in words; the few that are several numbers at once read as a sentence."""
    v = value.value
    if name == "depth_charge_hexes" and isinstance(v, dict):
        return depth_charge_words(v)
    if name == "surface_deck_gun" and isinstance(v, dict):
        return f"{w.dice(v['dice'])} at up to {w.quantity(v['hexes'], 'hexes')}"
    if name == "objective_claim" and isinstance(v, dict):
        return (
            f"a ship within {w.quantity(v['within'], value.unit)}, "
            f"no enemy ship within {w.quantity(v['no_enemy_within'], value.unit)}"
        )
    if isinstance(v, dict):
        text = "; ".join(f"{str(k).replace('_', ' ')} {fmt_value(x)}" for k, x in v.items())
        return text + (f" ({value.unit})" if value.unit else "")
    return _value_text(v, value.unit)


def _value_text(value: Any, unit: str | None) -> str:
    """'1 hex', '20 cm', '3 in'; lists, tables and words as they are."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if unit == "d6" and isinstance(value, int):
        return f"{value}+ on a d6"
    if isinstance(value, (int, float)) and value is not None:
        return w.quantity(value, unit)
    return fmt_value(value) + (f" ({unit})" if unit and value is not None and not isinstance(value, str) else "")


def _reach(low: float, high: float, unit: str) -> str:
    """'at 2-4 hexes', 'at 1 sector', 'in its own sector' (range 0 of the sector games)."""
    if high == 0 and unit in ("sector", "sectors"):
        return "in its own sector"
    if low == 0:
        return f"within {w.quantity(high, unit)}"
    if unit == "legs":
        low += 1  # legs are counted whole: a band from just beyond 1 leg to 3 reads "2-3", as the cards print it
    return "at " + (w.quantity(high, unit) if low == high else f"{w.number(low)}-{w.quantity(high, unit)}")


def history_rows(unit: Unit) -> list[dict[str, Any]]:
    h = unit.history
    rows = []
    if h.class_name:
        rows.append({"what": "Class", "value": h.class_name, "source": None, "href": None, "note": None})
    for what, figure in (("Top speed", h.top_speed), ("Length", h.length)):
        if figure is not None:
            href = link(figure.source)
            rows.append(
                {
                    "what": what,
                    "value": f"{fmt_value(figure.value)} {figure.unit}",
                    "source": link_text(href) if href else figure.source,
                    "href": href,
                    "note": figure.note,
                }
            )
    return rows


def deck_links(unit: Unit, spec: SiteSpec, scenarios: dict[str, Any]) -> list[dict[str, str | None]]:
    """The PDFs that print this unit's card (Letter and A4) that the site carries, as links
    from a unit page (build/site/units/)."""
    wanted = [(f"{variant.title} deck", f"{variant.name}/cards") for variant, _params in spec.variants]
    for scenario in scenarios.values():
        if any(u.id == unit.id for u in scenario.units()) and safe_id(scenario.id):
            wanted.append((f"Scenario pack: {scenario.title}", f"scenarios/{scenario.id}"))
    out = []
    for label, stem in wanted:
        letter, a4 = carried(spec, f"{stem}.pdf"), carried(spec, f"{stem}-a4.pdf")
        if letter or a4:
            out.append({"label": label, "letter": letter, "a4": a4})
    return out


CARRIED = "pdf"  # the site's folder of the PDFs it carries


def carried(spec: SiteSpec, rel: str) -> str | None:
    """The link from a page one folder down (units/, variants/, scenarios/) to the build's
    output ``rel``, when the site carries it; else None (no link to a file it lacks)."""
    return f"../{CARRIED}/{rel}" if rel in spec.pdfs else None


def offered_pdfs(repo: Repository, spec: SiteSpec) -> tuple[str, ...]:
    """Every PDF of a build that a page of the site would offer (paths under build/): the
    decks, each variant's other outputs, the scenario packs, in both papers."""
    stems = [f"{v.name}/cards" for v, _p in spec.variants]
    stems += [f"{v.name}/{stem}" for v, p in spec.variants for stem, _label in v.outputs(p)]
    stems += [f"scenarios/{s.id}" for s in repo.scenarios.values() if safe_id(s.id)]
    return tuple(f"{stem}{paper}.pdf" for stem in dict.fromkeys(stems) for paper in ("", "-a4"))


def shown(value: Any) -> str:
    """A parameter value as a person reads it: yes/no for switches."""
    return w.setting(value) if isinstance(value, bool) else fmt_value(value)


FIELD_WORDS = {"history.top_speed": "historical top speed", "history.length": "historical length"}


def warning_note(text: str, unit: Unit) -> str:
    """A converter's warning as a note for a player: 'no historical top speed is recorded: hex
    speed falls back to ...', without the unit's id or the data file's field names."""
    text = text.removeprefix(f"{unit.id}: ")
    for field_name, words in FIELD_WORDS.items():
        text = text.replace(f"{field_name} missing", f"no {words} is recorded")
    return text[:1].upper() + text[1:]


def card_jobs(spec: SiteSpec) -> list[tuple[str, str, dict[str, Any]]]:
    """(unit, variant, parameters) of every card the site shows: each variant's card of
    each unit, and the base game's card even when the standard deck is not built."""
    variants = list(spec.variants)
    if BASELINE not in {v.name for v, _p in variants}:
        variants.append((VARIANTS[BASELINE], VARIANTS[BASELINE].defaults()))
    return [(u.id, v.name, params) for u in spec.units for v, params in variants]


def unit_page(
    repo: Repository, unit: Unit, spec: SiteSpec, scenarios: dict[str, Any], cards: dict[tuple[str, str], Markup]
) -> dict[str, Any]:
    variants = []
    base = None
    for variant, params in spec.variants:
        adapted = variant.adapt(unit, params)
        entry = {
            "name": variant.name,
            "title": variant.title,
            "seed": variant.seed,
            "card": cards[unit.id, variant.name],
            "derivations": derivations(adapted),
            "warnings": [warning_note(text, unit) for text in adapted.warnings],
        }
        if variant.name == BASELINE:
            base = entry
        else:
            variants.append(entry)
    if base is None:  # the base card is always shown, even when the standard deck is not built
        standard = VARIANTS[BASELINE]
        base = {
            "name": standard.name,
            "title": standard.title,
            "seed": standard.seed,
            "card": cards[unit.id, BASELINE],
        }
    in_scenarios = [
        {"title": s.title, "href": f"../scenarios/{s.id}.html"}
        for s in scenarios.values()
        if safe_id(s.id) and any(u.id == unit.id for u in s.units())
    ]
    return {
        "unit": index_entry(repo, unit),
        "abilities": [a.text for a in unit.abilities],
        "base": base,
        "variants": variants,
        "history": history_rows(unit),
        "missing": [f"{field.replace('_', ' ')}: {why}" for field, why in unit.history.missing],
        "decks": deck_links(unit, spec, scenarios),
        "scenarios": in_scenarios,
        "rarity": unit.rarity,
    }


# --- variant pages -------------------------------------------------------------------------


def variant_outputs(variant: Variant, params: dict[str, Any], spec: SiteSpec) -> list[dict[str, str]]:
    """The PDFs a full build writes for a variant (``Variant.outputs``) that the site carries,
    as links from a variant page."""
    out = []
    for stem, label in variant.outputs(params):
        for paper, suffix in (("Letter", ""), ("A4", "-a4")):
            href = carried(spec, f"{variant.name}/{stem}{suffix}.pdf")
            if href:
                out.append({"label": f"{label} ({paper})", "href": href})
    return out


def variant_page(repo: Repository, variant: Variant, params: dict[str, Any], spec: SiteSpec) -> dict[str, Any]:
    from ..content.aids import aid

    rules_own = SHIPPED[variant.family].defaults()  # a house variant's page compares with its rules' own values
    parameters = [
        {
            "name": p.name,
            "value": shown(params.get(p.name, p.default)),
            "default": shown(rules_own.get(p.name, p.default)),
            "help": p.help,
            "choices": ", ".join(map(fmt_value, p.choices)) if p.choices else "",
        }
        for p in variant.parameters
    ]
    sections = [
        {
            "title": s.title,
            "source": s.source,
            "lines": list(s.lines),
            "tables": [
                {
                    "header": list(t.header),
                    "rows": [[fmt_value(c) if not isinstance(c, str) else c for c in row] for row in t.rows],
                    "caption": t.caption,
                }
                for t in s.tables
            ],
        }
        for s in aid(variant.name, repo, params)
    ]
    return {
        "name": variant.name,
        "title": variant.title,
        "seed": variant.seed,
        "description": variant.description,
        "distance_unit": variant.distance_unit,
        "parameters": parameters,
        "sections": sections,
        "outputs": variant_outputs(variant, params, spec),
    }


# --- the fleet builder ---------------------------------------------------------------------


def fleet_variants(spec: SiteSpec) -> list[dict[str, str]]:
    """The variants the fleet builder checks; the rules themselves are in fleet.js and
    mirror ``wastools.variants.fleet`` (a browser test compares the two)."""
    return [{"name": v.name, "title": v.title, "rule": v.fleet_rule} for v, _p in spec.variants]
