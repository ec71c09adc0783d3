"""A pack's first page: what to print beside it and the variant's rules the scenario uses.

The files come from the variant's own list of outputs (``Variant.outputs``), never from the
scenario; the rules are the sections of the variant's player aid (``content.aids``), in its
own measure, chosen by what the scenario puts on the table: a section about submarines only
where a side has one, about aircraft only where there are aircraft, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..data.scenarios import Scenario
from ..variants import VARIANTS
from ..variants.aid import BASE, Section

IN_THE_PACK = "cards"  # the pack prints its own units' cards
SHARED_COUNTERS = ("counters", "counters and smoke templates (re-arm, aborted, damage and smoke markers)")
LEFT_OUT = ("air range chart",)  # a table of every aircraft in the data: the pack's cards give each one's move
AIR_WORDS = ("air", "aircraft", "flying", "flights", "antiair", "carriers")
SHORE_WORDS = ("air bases, shore batteries",)
TURN_ORDER = "sequence of play"


@dataclass(frozen=True)
class _Units:
    """The scenario's own units, for the numbers an aid's words name (a variant's aid parts read
    ``units`` and ``nations``)."""

    units: dict[str, Any]
    nations: dict[str, Any]


def print_beside(s: Scenario) -> list[dict[str, str]]:
    """The kit files a table needs beside the pack, by their names in the build folder (the
    Letter name, then the A4 one)."""
    variant = VARIANTS[s.variant]
    files = [(f"{variant.name}/{stem}", what) for stem, what in variant.outputs(s.parameters) if stem != IN_THE_PACK]
    if not any(stem.endswith("/counters") for stem, _what in files):
        files.append(SHARED_COUNTERS)
    return [{"letter": f"{stem}.pdf", "a4": f"{stem}-a4.pdf", "what": what} for stem, what in files]


def _has(s: Scenario, test) -> bool:
    return any(test(unit) for unit in s.units())


def _wanted(s: Scenario, section: Section) -> bool:
    """Whether the scenario uses a section of its variant's aid."""
    title = section.title.lower()
    if any(word in title for word in LEFT_OUT):
        return False
    if section.source == BASE:  # the base game's rules, the same in every variant: only its turn order
        return title == TURN_ORDER
    if "(optional)" in title:
        mentioned = " ".join(s.data.get("optional_rules") or []).lower()
        return title.split()[0] in mentioned
    if "submarine" in title:
        return _has(s, lambda u: u.type == "submarine")
    if any(word in title for word in SHORE_WORDS):
        return any(s.data.get(k) for k in ("air_bases", "shore_batteries", "garrisons"))
    if any(word in title.replace(",", " ").split() for word in AIR_WORDS) or title.startswith("placing aircraft"):
        return _has(s, lambda u: u.is_aircraft or u.type == "carrier") or bool(s.data.get("air_bases"))
    if title.startswith("objectives"):
        return bool(s.data.get("objectives"))
    return True


def rules_used(s: Scenario) -> list[dict[str, Any]]:
    """The sections of the variant's aid the scenario uses, with their tables, in the aid's order."""
    from ..content.aids import variant_sections

    units = {u.id: u for u in s.units()}
    variant = VARIANTS[s.variant]
    sections = variant_sections(variant, _Units(units, {}), s.parameters)  # type: ignore[arg-type]
    return [
        {
            "title": section.title,
            "lines": list(section.lines),
            "tables": [{"header": t.header, "rows": t.rows, "caption": t.caption} for t in section.tables],
        }
        for section in sections
        if _wanted(s, section)
    ]


def table_needs(s: Scenario) -> dict[str, Any]:
    variant = VARIANTS[s.variant]
    return {"files": print_beside(s), "rules": rules_used(s), "aid": f"{variant.name}/player-aid.pdf"}
