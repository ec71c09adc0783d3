"""Scenario packs: briefing and force lists, the cards, the map with terrain - one PDF."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from ..geometry import PT_PER_CM, PT_PER_IN, hex_center, hex_grid_extent, hex_radius
from ..scenarios import Scenario
from ..variants import VARIANTS
from ..variants import large_map as lm
from ..variants import off_grid
from .cards import StatBlock
from .fetcher import TEMPLATES
from .maps import Feature, MapSpec, Numbering, hex_grid, hex_plan, hex_range, map_pdf, plain_map, square_map
from .sheets import PrinterProfile, finish, impose, load_layout

SCENARIO_DIR = TEMPLATES / "scenario"
PAGE_SIZES = {"letter": "8.5in 11in", "a4": "210mm 297mm"}
COLOURS = {"blue": "blue", "red": "axis", "green": "green", "grey": "grey"}


def scenario_stat_blocks(s: Scenario) -> list[StatBlock]:
    """A card for each air base, shore battery and garrison, with the seed's typical
    values unless the scenario sets its own."""
    blocks = []
    for base in s.data.get("air_bases", []):
        blocks.append(StatBlock(base["name"], "air base", (("armor", base.get("armor", lm.AIR_BASE["armor"])), ("hit points", base.get("hull", lm.AIR_BASE["hull"])),
                                                            ("anti-air", base.get("anti_air", lm.AIR_BASE["anti_air"])), ("squadrons", base["capacity"])),
                                notes=("inoperable at half its hit points", "repairs 1 a turn when unused and not attacked"), source=s.title))
    for battery in s.data.get("shore_batteries", []):
        stats = lm.HEAVY_BATTERY if battery["kind"] == "heavy" else lm.LIGHT_BATTERY
        blocks.append(StatBlock(battery["name"], f"{battery['kind']} shore battery", (("armor", stats["armor"]), ("hit points", stats["hull"]), ("anti-air", stats["anti_air"])),
                                gunnery=stats["gunnery"], notes=tuple(x for x in (f"arc: {battery['arc']}" if battery.get("arc") else None, "1 die less per point of damage") if x), source=s.title))
    for garrison in s.data.get("garrisons", []):
        blocks.append(StatBlock(garrison["name"], "garrison", (("armor", lm.GARRISON["armor"]), ("hit points", lm.GARRISON["hull"]), ("anti-air", lm.GARRISON["anti_air"]), ("units", garrison["units"])),
                                notes=("invaders need 2 to 1 odds in landed transports",), source=s.title))
    return blocks


# --- map -------------------------------------------------------------------------------------


def map_spec(s: Scenario) -> tuple[MapSpec, Any]:
    """The scenario's map and a function from scenario coordinates to map points."""
    width, height = s.data["map"]["width"], s.data["map"]["height"]
    overlap = s.data["map"].get("overlap_in", 0.5) * PT_PER_IN
    title = f"{s.title}: map"
    if s.variant in ("standard", "large-map"):
        sector = s.parameters.get("sector_in", 4.0) * PT_PER_IN
        cols, rows = int(round(width)), int(round(height))
        H = rows * sector
        return square_map(title, cols, rows, sector, overlap=overlap), lambda x, y: (x * sector, H - y * sector)
    if s.variant == "hex":
        flat = s.parameters["hex_cm"] * PT_PER_CM
        cols, rows = int(width), int(height)
        W, H = hex_grid_extent(cols, rows, flat)
        r = hex_radius(flat)
        spec = MapSpec(title, W, H, hex_grid(cols, rows, flat), (), overlap, f"{cols} x {rows} hexes of {s.parameters['hex_cm']:g} cm",
                       hex_range(cols, rows, flat), hex_plan(cols, rows, flat))

        def to_map(x, y):
            if float(x).is_integer() and float(y).is_integer():
                return hex_center(int(x) - 1, rows - int(y), flat)
            return r + (x - 1) * 1.5 * r, flat / 2 + (rows - y) * flat
        return spec, to_map
    unit, unit_pt = ("cm", PT_PER_CM) if s.variant == "tabletop-cm" else ("in", PT_PER_IN)
    W, H = width * unit_pt, height * unit_pt
    return plain_map(title, W, H, unit, unit_pt, overlap=overlap, bar=scale_bar(s)), lambda x, y: (x * unit_pt, H - y * unit_pt)


def play_area(s: Scenario, spec: MapSpec, to_map) -> tuple[float, float, float, float] | None:
    """The part of the map the scenario plays on (x, y, width, height in map points), from
    its ``map.play_area`` corners; None when it plays on the whole map."""
    corners = s.data["map"].get("play_area")
    if not corners:
        return None
    (x0, y0), (x1, y1) = to_map(*corners[0]), to_map(*corners[1])
    if s.variant == "hex":  # corners name hexes: take them whole
        pad_x, pad_y = hex_radius(s.parameters["hex_cm"] * PT_PER_CM), s.parameters["hex_cm"] * PT_PER_CM / 2
        x0, x1 = min(x0, x1) - pad_x, max(x0, x1) + pad_x
        y0, y1 = min(y0, y1) - pad_y, max(y0, y1) + pad_y
    left, right = max(0.0, min(x0, x1)), min(spec.width, max(x0, x1))
    bottom, top = max(0.0, min(y0, y1)), min(spec.height, max(y0, y1))
    return left, bottom, right - left, top - bottom


def scale_bar(s: Scenario) -> tuple[str, float]:
    """The label and length in points of a plain-sea map's scale bar: one leg off the
    grid, 5 in on an inch table, 10 cm on a centimetre table. The label says the length."""
    if s.variant == "off-grid":
        leg, _text = off_grid.leg_inches(s.parameters)
        return f"1 leg = {leg:.3g} in", leg * PT_PER_IN
    if s.variant == "tabletop-cm":
        return "10 cm", 10 * PT_PER_CM
    return "5 in", 5 * PT_PER_IN


def features(s: Scenario, to_map) -> tuple[Feature, ...]:
    colours = {side.side: COLOURS.get(s.data["sides"][i].get("colour", "blue" if i == 0 else "red"), "blue") for i, side in enumerate(s.sides)}
    out = []
    for t in s.data.get("terrain", []):
        out.append(Feature(t["kind"], t["name"], tuple(to_map(*p) for p in t["points"])))
    for z in s.data.get("deployment_zones", []):
        out.append(Feature("deployment", z["name"], tuple(to_map(*p) for p in z["points"]), colours.get(z["side"])))
    for kind, key in (("air-base", "air_bases"), ("battery", "shore_batteries"), ("battery", "garrisons"), ("objective", "objectives")):
        for item in s.data.get(key, []):
            out.append(Feature(kind, item["name"], (to_map(*item["at"]),)))
    return tuple(out)


def scenario_map(s: Scenario) -> MapSpec:
    spec, to_map = map_spec(s)
    return dataclasses.replace(spec, features=features(s, to_map))


# --- briefing ----------------------------------------------------------------------------------


def briefing_view(s: Scenario) -> dict[str, Any]:
    d = s.data
    sides = []
    for side in s.sides:
        rows = []
        for force in side.forces:
            notes = []
            if force.flagship:
                notes.append(f"flagship (+{force.unit.flagship})")
            if force.air_groups:
                notes.append("air groups: " + ", ".join(f"{n} x {u.name}" for u, n in force.air_groups))
            rows.append({"name": force.unit.name, "type": force.unit.type, "count": force.count, "points": force.unit.points * force.count, "notes": "; ".join(notes)})
            for unit, n in force.air_groups:
                rows.append({"name": f"  {unit.name}", "type": unit.type, "count": n, "points": unit.points * n, "notes": f"aboard {force.unit.name}"})
        for base in s.air_bases:
            if base.side == side.side:
                for unit, count in base.squadrons:
                    rows.append({"name": unit.name, "type": unit.type, "count": count, "points": unit.points * count, "notes": f"at {base.name}"})
        fleet = side.fleet
        verdict = f"legal: {fleet.points} of {fleet.effective_limit}" + (f" ({'; '.join(fleet.notes)})" if fleet.notes else "")
        sides.append({"name": side.name, "briefing": side.briefing, "rows": rows, "total": fleet.points, "legal": fleet.legal,
                      "verdict": verdict if fleet.legal else "; ".join(fleet.problems)})
    blocks = []
    for key, kind in (("air_bases", "air base"), ("shore_batteries", "shore battery"), ("garrisons", "garrison")):
        for item in d.get(key, []):
            label = kind if key != "shore_batteries" else f"{item['kind']} battery"
            stats = {"air_bases": lambda i: f"capacity {i['capacity']}", "shore_batteries": lambda i: f"gunnery {'/'.join(map(str, (lm.HEAVY_BATTERY if i['kind'] == 'heavy' else lm.LIGHT_BATTERY)['gunnery']))}",
                     "garrisons": lambda i: f"{i['units']} units"}[key](item)
            blocks.append({"name": item["name"], "side": item["side"], "kind": label, "stats": stats, "at": f"{item['at'][0]:g}, {item['at'][1]:g}"})
    return {
        "title": s.title, "points_limit": d["points_limit"], "turn_limit": d["turn_limit"],
        "map_size": f"{d['map']['width']:g} x {d['map']['height']:g} {s.map_unit}", "map_unit": s.map_unit,
        "parameters": sorted((k, v) for k, v in s.parameters.items() if "." not in k),
        "history": _paragraphs(d.get("history")), "briefing": _paragraphs(d.get("briefing")), "sides": sides, "blocks": blocks,
        "objectives": [f"{o['name']} at {o['at'][0]:g}, {o['at'][1]:g}" + (f": {o['points']} points" if "points" in o else "") for o in d.get("objectives", [])],
        "victory": d["victory"], "optional_rules": d.get("optional_rules", []),
    }


def _paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    return [" ".join(p.split()) for p in text.strip().split("\n\n")] if "\n\n" in text else [" ".join(text.split())]


def briefing_pdf(s: Scenario, paper: str) -> bytes:
    from weasyprint import HTML

    from .fetcher import ProjectFetcher

    env = Environment(loader=FileSystemLoader(str(SCENARIO_DIR)), autoescape=select_autoescape(default=True, default_for_string=True), undefined=StrictUndefined)
    html = env.get_template("pack.html.j2").render(s=briefing_view(s), variant=VARIANTS[s.variant], page=PAGE_SIZES[paper])
    return HTML(string=html, base_url=(SCENARIO_DIR / "pack.html.j2").as_uri(), url_fetcher=ProjectFetcher()).write_pdf()


def scenario_pack_pdf(s: Scenario, card_pdfs: list[bytes], paper: str, profile: PrinterProfile = PrinterProfile(), key: str | None = None) -> tuple[bytes, int]:
    """Briefing, cards, then the map: a plan of the whole map and the tiles of the play
    area, numbered as pages of this PDF."""
    from pypdf import PdfReader, PdfWriter

    briefing = briefing_pdf(s, paper)
    cards = impose(card_pdfs, load_layout(paper), f"{s.title}: cards", profile)[0]
    before = sum(len(PdfReader(io.BytesIO(part)).pages) for part in (briefing, cards))
    spec, to_map = map_spec(s)
    spec = dataclasses.replace(spec, features=features(s, to_map))
    the_map = map_pdf(spec, paper, profile, numbering=Numbering(first=before + 1), area=play_area(s, spec, to_map))[0]
    writer = PdfWriter()
    for part in (briefing, cards, the_map):
        writer.append(PdfReader(io.BytesIO(part)))
    return finish(writer, s.title, key), len(writer.pages)
