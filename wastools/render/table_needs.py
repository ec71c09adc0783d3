"""A pack's first page: what to print beside it and the variant's rules the scenario uses.

The files come from the variant's own list of outputs (``Variant.outputs``), never from the
scenario; the rules are the sections of the variant's player aid (``content.aids``), in its
own measure, chosen by what the scenario puts on the table: a section about submarines only
where a side has one, about aircraft only where there are aircraft, and so on.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..data.scenarios import Scenario
from ..variants import VARIANTS
from ..variants.aid import BASE, Section, Table

PAPERS = ("letter", "a4")
IN_THE_PACK = "cards"  # the pack prints its own units' cards
SHARED_COUNTERS = ("counters", "counters (re-arm, aborted, damage, submarine, mine and objective markers)")
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


def print_beside(s: Scenario) -> list[dict[str, Any]]:
    """The kit files a table needs beside the pack, by their names in the build folder (the
    Letter name, then the A4 one), with their pages on each paper where the tool knows them
    without laying the file out (the player aid's pages are WeasyPrint's to find)."""
    variant = VARIANTS[s.variant]
    stems = [stem for stem, _what in variant.outputs(s.parameters) if stem != IN_THE_PACK]
    files = [(f"{variant.name}/{stem}", what, stem) for stem, what in variant.outputs(s.parameters) if stem in stems]
    if "counters" not in stems:
        files.append((*SHARED_COUNTERS, "counters"))
    return [
        {
            "letter": f"{path}.pdf",
            "a4": f"{path}-a4.pdf",
            "what": what,
            "pages": {paper: kit_pages(s, stem, paper) for paper in PAPERS},
        }
        for path, what, stem in files
    ]


def kit_pages(s: Scenario, stem: str, paper: str) -> int | None:
    """How many pages a kit file prints on ``paper``, counted the way its maker lays it out."""
    from .counters import counter_pages
    from .maps import board_map, board_pages
    from .rulers import ruler_sheets

    variant = VARIANTS[s.variant]
    sheet = variant.sheet(s.parameters)
    if stem == "rulers":
        return len(ruler_sheets(variant.rulers(s.parameters), paper)[1])
    if stem == "counters":  # its own (with its templates and markers) or the common file
        own = variant.has_own_counters
        return counter_pages(paper, smoke=own and variant.smoke_fn is not None, markers=variant.markers if own else ())
    if sheet is not None and stem == sheet.stem:
        return board_pages(board_map(sheet.title, sheet.board, sheet.columns, sheet.rows), paper)
    return None


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
    if title.startswith(("objectives", "victory")):
        return False  # the aid's standard scores: the scenario's own victory and objectives replace them
    return True


def _held(s: Scenario, table: Table) -> Table | None:
    """An ability table cut to the abilities the scenario's units have (None when none is left);
    any other table as it is."""
    if not table.header or table.header[0] != "ability":
        return table
    held = {a.pattern.replace(" {n}", "") for unit in s.units() for a in unit.abilities}
    held |= {a.text for unit in s.units() for a in unit.abilities}
    rows = tuple(row for row in table.rows if any(name in held for name in str(row[0]).split(", ")))  # "Slow 1, Slow 2"
    return dataclasses.replace(table, rows=rows) if rows else None


def rules_used(s: Scenario) -> list[dict[str, Any]]:
    """The sections of the variant's aid the scenario uses, with their tables, in the aid's order."""
    from ..content.aids import variant_sections

    units = {u.id: u for u in s.units()}
    variant = VARIANTS[s.variant]
    sections = variant_sections(variant, _Units(units, {}), s.parameters)  # type: ignore[arg-type]
    out = []
    for section in sections:
        tables = [t for t in (_held(s, t) for t in section.tables) if t is not None]
        if not _wanted(s, section) or (section.tables and not tables):  # every ability cut: nothing to say
            continue
        out.append(
            {
                "title": section.title,
                "lines": list(section.lines),
                "tables": [{"header": t.header, "rows": t.rows, "caption": t.caption} for t in tables],
            }
        )
    return out


def table_needs(s: Scenario) -> dict[str, Any]:
    variant = VARIANTS[s.variant]
    return {"files": print_beside(s), "rules": rules_used(s), "aid": f"{variant.name}/player-aid.pdf"}
