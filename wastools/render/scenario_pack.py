"""Scenario packs: briefing and force lists, the cards, the map with terrain - one PDF."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from ..core import templating
from ..core.resources import TEMPLATES
from ..core.wording import setting
from ..data import terrain
from ..data.map_size import MapGeometry, printed_region, scenario_geometry
from ..data.scenarios import Scenario, Side
from ..variants import VARIANTS
from ..variants import large_map as lm
from . import shared_fonts
from .cards import StatBlock
from .maps import Feature, MapSpec, Numbering, board_map, map_pdf
from .pages import EITHER_PAPER, PAPERS, check_barred_part
from .pdf_parts import Part, part_of_pdf, read_part
from .sheets import PrinterProfile, assemble
from .table_needs import table_needs

SCENARIO_DIR = TEMPLATES / "scenario"
PAGE_SIZES = {"letter": "8.5in 11in", "a4": "210mm 297mm"}
COLOURS = {"blue": "blue", "red": "axis", "green": "green", "grey": "grey"}


def _battery(kind: str) -> lm.BatteryStats:
    """The large-map seed's stats for a heavy or a light shore battery."""
    return lm.HEAVY_BATTERY if kind == "heavy" else lm.LIGHT_BATTERY


def scenario_stat_blocks(s: Scenario) -> list[StatBlock]:
    """A card for each air base, shore battery and garrison, with the seed's typical
    values unless the scenario sets its own; each card's foot names the side that holds it."""
    # the card's foot names the side without its parenthesis ("Force H", not "Force H (Royal
    # Navy)"): the foot has room for one short line
    owner = {side.side: side.name.split(" (")[0] for side in s.sides}
    blocks = []
    for base in s.data.get("air_bases", []):
        blocks.append(
            StatBlock(
                base["name"],
                "air base",
                (
                    ("armor", base.get("armor", lm.AIR_BASE["armor"])),
                    ("hit points", base.get("hull", lm.AIR_BASE["hull"])),
                    ("anti-air", base.get("anti_air", lm.AIR_BASE["anti_air"])),
                    ("squadrons", base["capacity"]),
                ),
                notes=("inoperable at half its hit points", "repairs 1 a turn when unused and not attacked"),
                source=owner.get(base["side"], s.title),
            )
        )
    for battery in s.data.get("shore_batteries", []):
        stats = _battery(battery["kind"])
        blocks.append(
            StatBlock(
                battery["name"],
                f"{battery['kind']} shore battery",
                (("armor", stats["armor"]), ("hit points", stats["hull"]), ("anti-air", stats["anti_air"])),
                gunnery=stats["gunnery"],
                notes=tuple(
                    x
                    for x in (
                        f"arc: {battery['arc']}" if battery.get("arc") else None,
                        "1 die less per point of damage",
                    )
                    if x
                ),
                source=owner.get(battery["side"], s.title),
            )
        )
    for garrison in s.data.get("garrisons", []):
        blocks.append(
            StatBlock(
                garrison["name"],
                "garrison",
                (
                    ("armor", lm.GARRISON["armor"]),
                    ("hit points", lm.GARRISON["hull"]),
                    ("anti-air", lm.GARRISON["anti_air"]),
                    ("units", garrison["units"]),
                ),
                notes=("invaders need 2 to 1 odds in landed transports",),
                source=owner.get(garrison["side"], s.title),
            )
        )
    return blocks


# --- map -------------------------------------------------------------------------------------


def frame(s: Scenario) -> terrain.Frame:
    found = terrain.frame_of(s.data, s.board)
    assert found is not None, "a validated scenario has a map size"
    return found


def map_spec(s: Scenario) -> tuple[MapSpec, Any]:
    """The scenario's map and a function from scenario coordinates to map points (the
    geometry validation measured: ``map_size``)."""
    geo = geometry(s)
    size = (geo.columns, geo.rows) if s.board.gridded else (s.data["map"]["width"], s.data["map"]["height"])
    across, down = size
    return board_map(f"{s.title}: map", s.board, across, down, overlap=geo.overlap), geo.to_map


def geometry(s: Scenario) -> MapGeometry:
    return scenario_geometry(s.board, s.data["map"])


def play_area(s: Scenario, spec: MapSpec, to_map) -> tuple[float, float, float, float] | None:
    """The part of the map the pack tiles (x, y, width, height in map points): see
    ``map_size.printed_region`` (what validation measured; ``terrain.play_area`` agrees)."""
    return printed_region(geometry(s), s.data)


def map_note(s: Scenario, area) -> str:
    """What the plan tells the player about the pages that follow it."""
    if s.board.gridded or s.data["map"].get("play_area"):
        return ""
    if area and area[2] > 0:
        return (
            "Open sea needs no printing: the table is the sea. The pages after this one print the terrain; "
            "lay them where the plan shows, measuring from the table's left and top edges."
        )
    placed = [
        what
        for key, what in (("deployment_zones", "deployment zones"), ("objectives", "objectives"))
        if s.data.get(key)
    ]
    place = f" Place the {' and '.join(placed)} as the plan shows." if placed else ""
    return "Open sea needs no printing: the table is the sea." + place


def position(s: Scenario, x: float, y: float) -> str:
    """A scenario position in the board's own terms: a sector ("D8"), a hex ("hex 0712"), or
    distances from the table's left and top edges."""
    cols, rows = s.board.cells(s.data["map"]["width"], s.data["map"]["height"])
    return s.board.position(x, y, cols, rows)


def features(s: Scenario, to_map) -> tuple[Feature, ...]:
    colours = {
        side.side: COLOURS.get(s.data["sides"][i].get("colour", "blue" if i == 0 else "red"), "blue")
        for i, side in enumerate(s.sides)
    }
    f = frame(s)

    def area(kind: str, name: str, points, side=None) -> Feature:
        if f.land_in_cells:
            return Feature(kind, name, tuple(f.hex_centre(h) for h in terrain.hexes_in(f, points)), side, f.unit_pt)
        return Feature(kind, name, tuple(to_map(*p) for p in points), side)

    out = [area(t["kind"], t["name"], t["points"]) for t in s.data.get("terrain", [])]
    out += [
        area("deployment", z["name"], z["points"], colours.get(z["side"])) for z in s.data.get("deployment_zones", [])
    ]
    for kind, key in (
        ("air-base", "air_bases"),
        ("battery", "shore_batteries"),
        ("battery", "garrisons"),
        ("objective", "objectives"),
    ):
        for item in s.data.get(key, []):
            # a grid names its own sectors and hexes; on a plain table the plan says where to measure
            label = f"{item['name']} ({position(s, *item['at'])})" if not s.board.gridded else item["name"]
            out.append(Feature(kind, label, (to_map(*item["at"]),)))
    return tuple(out)


def scenario_map(s: Scenario) -> MapSpec:
    """The whole map with its features and, where the scenario declares one, the outline of
    its play area (the poster shows where the game is played)."""
    spec, to_map = map_spec(s)
    found = features(s, to_map)
    area = play_area(s, spec, to_map) if s.data["map"].get("play_area") else None
    if area:
        x, y, w, h = area
        outline = Feature("play-area", "play area", ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
        found = (outline, *found)
    return dataclasses.replace(spec, features=found)


# --- briefing ----------------------------------------------------------------------------------


def _force_rows(s: Scenario, side: Side) -> list[dict[str, Any]]:
    """A side's force list: each card, the air groups aboard it, then its air bases' squadrons."""
    rows = []
    for force in side.forces:
        notes = []
        if force.flagship:
            notes.append(f"flagship (+{force.unit.flagship})")
        if force.air_groups:
            notes.append("air groups: " + ", ".join(f"{n} x {u.name}" for u, n in force.air_groups))
        if force.stands_for:
            notes.insert(0, f"stands in for {force.stands_for}")
        rows.append(
            {
                "name": force.unit.name,
                **_name_parts(force.unit.name),
                "type": force.unit.type,
                "count": force.count,
                "points": force.unit.points * force.count,
                "notes": "; ".join(notes),
            }
        )
        for unit, n in force.air_groups:
            rows.append(
                {
                    "name": f"  {unit.name}",
                    **_name_parts(unit.name),
                    "indent": True,
                    "type": unit.type,
                    "count": n,
                    "points": unit.points * n,
                    "notes": f"aboard {force.unit.name}",
                }
            )
    for base in s.air_bases:
        if base.side == side.side:
            for unit, count in base.squadrons:
                rows.append(
                    {
                        "name": unit.name,
                        **_name_parts(unit.name),
                        "type": unit.type,
                        "count": count,
                        "points": unit.points * count,
                        "notes": f"at {base.name}",
                    }
                )
    return rows


def briefing_view(s: Scenario) -> dict[str, Any]:
    d = s.data
    sides = []
    for side in s.sides:
        rows = _force_rows(s, side)
        fleet = side.fleet
        verdict = f"within the limit of {fleet.effective_limit} points" + (
            f" ({'; '.join(fleet.notes)})" if fleet.notes else ""
        )
        sides.append(
            {
                "name": side.name,
                "short": side.name.split(" (")[0],
                "briefing": side.briefing,
                "rows": rows,
                "counts": any(row["count"] != 1 for row in rows),  # a count column only where a count varies
                "total": fleet.points,
                "long": len(rows) > LONG_FORCE_LIST,
                "legal": fleet.legal,
                "verdict": verdict if fleet.legal else "; ".join(fleet.problems),
            }
        )
    side_names = {side.side: side.name.split(" (")[0] for side in s.sides}  # the table has room for the short name
    blocks = []
    for key, kind in (("air_bases", "air base"), ("shore_batteries", "shore battery"), ("garrisons", "garrison")):
        for item in d.get(key, []):
            label = kind if key != "shore_batteries" else f"{item['kind']} battery"
            stats = {
                "air_bases": lambda i: f"capacity {i['capacity']}",
                "shore_batteries": lambda i: "gunnery " + "/".join(map(str, _battery(i["kind"])["gunnery"])),
                "garrisons": lambda i: f"{i['units']} units",
            }[key](item)
            blocks.append(
                {
                    "name": item["name"],
                    "side": side_names.get(item["side"], item["side"]),
                    "kind": label,
                    "stats": stats,
                    "at": position(s, *item["at"]),
                }
            )
    return {
        "title": s.title,
        "rules": rules_title(VARIANTS[s.variant].seed),
        "points_limit": d["points_limit"],
        "turn_limit": d["turn_limit"],
        "map_size": f"{d['map']['width']:g} x {d['map']['height']:g} {s.map_unit}",
        "map_unit": s.map_unit,
        "parameters": settings(s),
        "history": _paragraphs(d.get("history")),
        "sources": list(d.get("sources") or []),
        "balance": d.get("balance"),
        "needs": table_needs(s),
        "briefing": _paragraphs(d.get("briefing")),
        "sides": sides,
        "blocks": blocks,
        "objectives": [
            f"{o['name']} ({position(s, *o['at'])})" + (f": {o['points']} points" if "points" in o else "")
            for o in d.get("objectives", [])
        ],
        "positions": s.board.positions,
        "victory": d["victory"],
        "optional_rules": d.get("optional_rules", []),
    }


LONG_FORCE_LIST = 8  # rows: a longer force list may break across pages (a shorter one is kept whole)


def rules_title(seed: str) -> str:
    """A rule document by its title ("Playing Off the Grid"), not its number in the project."""
    if "(" in seed and seed.endswith(")"):
        return seed[seed.index("(") + 1 : -1]
    return seed


def settings(s: Scenario) -> list[str]:
    """The variant settings the scenario chooses, in the variant's own words ("table scale 6 ft")."""
    chosen = s.data.get("parameters") or {}
    # the label up to any example of a value ("table scale, 6ft" -> "table scale")
    labels = {p.name: p.label.split(", ")[0] for p in VARIANTS[s.variant].parameters}
    return [f"{labels.get(name, name)} {_spaced(setting(value))}" for name, value in chosen.items()]


def _spaced(value: str) -> str:
    """A measure as prose writes it: "6ft" -> "6 ft"."""
    return re.sub(r"^(\d+(?:\.\d+)?)(ft|in|cm|mm)$", r"\1 \2", value)


def _name_parts(name: str) -> dict[str, str]:
    """A unit's name and its hull number ("USS Atlanta", "(CL 51)"): the force table keeps the
    hull number on one line."""
    match = re.match(r"^(.*\S)\s+(\([^()]*\))$", name.strip())
    return {"base": match.group(1), "hull": match.group(2)} if match else {"base": name.strip(), "hull": ""}


def _paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    return [" ".join(p.split()) for p in text.strip().split("\n\n")] if "\n\n" in text else [" ".join(text.split())]


def briefing_pdf(s: Scenario, paper: str) -> bytes:
    """The briefing on its own, as a PDF (a pack joins its part, ``briefing_part``)."""
    return assemble([briefing_part(s, paper)], s.title)[0]


def briefing_inputs(s: Scenario) -> tuple:
    """Everything a briefing shows: what its layout is kept under (a unit's points are in its
    force list, its guns and abilities are not)."""
    return ("scenario briefing", briefing_view(s), s.variant)


def _briefing_html(view: dict[str, Any], variant: str, tight: bool = False) -> str:
    env = templating.environment(SCENARIO_DIR)
    from ..content.aids import rules_colophon

    return env.get_template("pack.html.j2").render(
        s=view,
        variant=VARIANTS[variant],
        page=EITHER_PAPER,
        tight=tight,
        colophon=rules_colophon([VARIANTS[variant].seed]),
    )


def _laid_out(view: dict[str, Any], variant: str):
    """The briefing laid out; laid out again a little tighter when its last page would hold
    only a few lines (a page that holds almost nothing is not worth printing)."""
    document = _weasyprint_document(_briefing_html(view, variant))
    if len(document.pages) > 1 and _last_page_fill(document) < 0.2:
        tighter = _weasyprint_document(_briefing_html(view, variant, tight=True))
        if len(tighter.pages) < len(document.pages):
            return tighter
    return document


def _last_page_fill(document) -> float:
    """How far down its page the last page's text reaches, as a share of the page."""
    page = document.pages[-1]
    bottoms = [box.position_y + box.height for box in _walk(page._page_box) if hasattr(box, "pango_layout")]
    return max(bottoms, default=0.0) / page.height


def _walk(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _walk(child)


def _weasyprint_document(html: str):
    from weasyprint import HTML

    from .fetcher import ProjectFetcher

    return HTML(string=html, base_url=(SCENARIO_DIR / "pack.html.j2").as_uri(), url_fetcher=ProjectFetcher()).render()


def briefing_layout(s: Scenario) -> bytes:
    """The briefing laid out for either paper (``pages.EITHER_PAPER``), as WeasyPrint writes it
    without the card fonts' programs: the costly step, done once for both papers."""
    with shared_fonts.programs_left_out():
        return _laid_out(briefing_view(s), s.variant).write_pdf()


def briefing_part(s: Scenario, paper: str, layout: bytes | None = None) -> bytes:
    """The briefing's pages (``layout``, else laid out now) placed on ``paper``, with the check
    bars in their margins, as a part to join into the pack (``pdf_parts``), whose card fonts
    the pack's cards share."""
    return check_barred_part(layout if layout is not None else briefing_layout(s), PAPERS[paper])


def _map_part(spec, paper: str, profile: PrinterProfile, colour: bool, numbering, area, note: str, needed) -> bytes:
    """The pack's map pages as a part to join (``pdf_parts``)."""
    pdf = map_pdf(spec, paper, profile, colour, numbering=numbering, area=area, note=note, needed=needed)[0]
    return part_of_pdf(pdf).to_bytes()


def scenario_pack_pdf(
    s: Scenario,
    cards: list[Part],
    paper: str,
    profile: PrinterProfile = PrinterProfile(),
    key: str | None = None,
    colour: bool = False,
    remember: Callable[[tuple, Callable[[], bytes]], Part] | None = None,
    briefing_laid_out: bytes | None = None,
) -> tuple[bytes, int]:
    """Briefing, cards (their sheets, ``sheets.sheet_part``), then the map: a plan of the whole
    map and the tiles of the play area, numbered as pages of this PDF (``color``: a blue sea
    and sandy land).
    ``remember(inputs, make)`` may keep the map part under its inputs: it does not change
    when a unit does, but the cards do. ``briefing_laid_out``: the briefing's layout
    (``briefing_layout``) when the caller keeps it, under what it shows (its force lists
    name the units, with their points): a change to a unit's guns or abilities remakes
    the cards, not the briefing."""
    briefing = read_part(briefing_part(s, paper, briefing_laid_out))
    before = len(briefing.pages) + sum(len(part.pages) for part in cards)
    spec, to_map = map_spec(s)
    spec = dataclasses.replace(spec, features=features(s, to_map))
    area = play_area(s, spec, to_map)
    numbering = Numbering(first=before + 1)
    note = map_note(s, area)
    # the map is drawn from the scenario file alone (no unit data): it is keyed by that file
    inputs = (
        "scenario map",
        s.id,
        s.variant,
        s.parameters,
        s.map_unit,
        s.data,
        paper,
        profile,
        colour,
        numbering,
        note,
    )
    f = frame(s)
    needed = terrain.tile_needed(f, terrain.land_of(f, s.data))
    make = partial(_map_part, spec, paper, profile, colour, numbering, area, note, needed)
    the_map = remember(inputs, make) if remember is not None else read_part(make())
    return assemble([briefing, *cards, the_map], s.title, key)
