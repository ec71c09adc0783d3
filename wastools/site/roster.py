"""Fleet rosters: the YAML file the fleet builder downloads, checked and printed as a deck.

``wastools build --roster FILE`` reads the roster (schema ``schemas/roster.schema.json``
plus: every unit exists, at most ``MAX_CARDS`` cards), then writes
``build/rosters/<file name>.pdf`` (and ``-a4``): a first page with the fleet and its
legality under every variant's fleet rules, then exactly the roster's cards, each as
many times as its count, imposed like the decks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jsonschema import Draft202012Validator

from .. import template_cache
from ..model import Repository, Unit
from ..problems import DataError, Problem, display_path, format_field
from ..resources import PACKAGE, TEMPLATES
from ..variants import VARIANTS
from ..variants.fleet import FleetCheck, check_fleet
from ..yamlio import DEFAULT_LIMITS, Document, Limits, load_document
from .data import type_label

MAX_CARDS = 300  # a roster is a fleet, not a print run: this keeps a hostile file from filling memory
SCHEMA = "roster.schema.json"
REPORT_TEMPLATE = "roster-report.html.j2"


@dataclass(frozen=True)
class Roster:
    name: str
    variant: str
    points_limit: int
    entries: tuple[tuple[Unit, int], ...]
    stem: str

    @property
    def cards(self) -> int:
        return sum(n for _u, n in self.entries)

    @property
    def points(self) -> int:
        return sum(u.points * n for u, n in self.entries)

    def checks(self) -> list[tuple[str, str, FleetCheck]]:
        """(variant name, title, verdict) for every variant, the roster's own first."""
        names = [self.variant] + [n for n in VARIANTS if n != self.variant]
        return [(n, VARIANTS[n].title, check_fleet(n, list(self.entries), self.points_limit)) for n in names]


def _schema(root: Path) -> Draft202012Validator:
    """The roster schema of the repository (or of the project's checkout, when the repository
    has none), resolved only within its schemas; raises ``DataError`` when it cannot be used."""
    from ..repository.schema import named_validator, schema_validator

    if not (root / "schemas" / SCHEMA).exists():
        return schema_validator(PACKAGE.parent / "schemas" / SCHEMA)  # a checkout of the project
    return named_validator(root, SCHEMA)


def _located(doc: Document, error) -> list[Problem]:
    parts = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        return [
            Problem(doc.path, *doc.key_position(parts, key), format_field(parts + [key]), f"unknown field {key!r}")
            for key in error.instance
            if key not in allowed
        ]
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else ""
        return [Problem(doc.path, *doc.position(parts), format_field(parts + [missing]), "required field is missing")]
    from ..repository.schema import message_of

    return [doc.problem(parts, message_of(error))]


def load_roster(path: Path, repo: Repository, root: Path, limits: Limits = DEFAULT_LIMITS) -> Roster:
    """The checked roster; raises :class:`DataError` with every located problem."""
    shown = display_path(path, root)
    doc, problems = load_document(path, shown, limits)
    if doc is None:
        raise DataError(problems)
    if not isinstance(doc.data, dict):
        raise DataError([Problem(shown, 1, 1, "", "expected a mapping of fields at the top level")])
    for error in _schema(root).iter_errors(doc.data):
        problems.extend(_located(doc, error))
    entries: dict[str, list] = {}
    given = doc.data.get("units")
    items: list = given if isinstance(given, list) else []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("unit"), str):
            continue  # the schema has said what is wrong with it
        unit = repo.units.get(item["unit"])
        if unit is None:
            close = [u for u in repo.units if item["unit"].split("-")[0] in u][:3]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            problems.append(doc.problem(["units", i, "unit"], f"no unit with id {item['unit']!r}{hint}"))
            continue
        count = item.get("count", 1)
        entries.setdefault(unit.id, [unit, 0])[1] += (
            count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 0
        )
    total = sum(n for _u, n in entries.values())
    if total > MAX_CARDS:
        problems.append(doc.problem(["units"], f"{total} cards is more than a roster may print ({MAX_CARDS})"))
    if problems:
        raise DataError(problems)
    data = doc.data
    return Roster(
        data["name"], data["variant"], data["points_limit"], tuple((u, n) for u, n in entries.values()), path.stem
    )


# --- the deck --------------------------------------------------------------------------------


def report_view(roster: Roster, repo: Repository) -> dict[str, Any]:
    rows = [
        {
            "name": u.name,
            "nation": repo.nations[u.nation].name if u.nation in repo.nations else u.nation,
            "type": type_label(u.type),
            "count": n,
            "points": u.points * n,
        }
        for u, n in roster.entries
    ]
    checks = []
    for name, title, check in roster.checks():
        verdict = (
            f"legal: {check.points} of {check.effective_limit}"
            + (f" ({'; '.join(check.notes)})" if check.notes else "")
            if check.legal
            else "not legal: " + "; ".join(check.problems)
        )
        checks.append(
            {"name": name, "title": title, "legal": check.legal, "verdict": verdict, "chosen": name == roster.variant}
        )
    return {
        "name": roster.name,
        "variant": VARIANTS[roster.variant].title,
        "limit": roster.points_limit,
        "rows": rows,
        "cards": roster.cards,
        "points": roster.points,
        "checks": checks,
        "capped": VARIANTS["tabletop-cm"].title,
    }


def report_pdf(roster: Roster, repo: Repository, paper: str) -> bytes:
    """The roster's first page: its units, totals and the verdict of every variant's fleet
    rules, with the check bars of every sheet (the template's margins leave room for them)."""
    from weasyprint import HTML

    from ..render.fetcher import ProjectFetcher
    from ..render.pages import with_check_bars
    from ..render.scenario_pack import PAGE_SIZES

    env = Environment(
        bytecode_cache=template_cache.shared(),
        loader=FileSystemLoader(str(TEMPLATES / "site")),
        undefined=StrictUndefined,
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    html = env.get_template(REPORT_TEMPLATE).render(r=report_view(roster, repo), page=PAGE_SIZES[paper])
    pdf = HTML(
        string=html, base_url=(TEMPLATES / "site" / REPORT_TEMPLATE).as_uri(), url_fetcher=ProjectFetcher()
    ).write_pdf()
    return with_check_bars(pdf)[0]  # like every printed sheet: a horizontal and a vertical bar in the margins


def roster_output(roster: Roster, paper: str) -> str:
    from ..build import paper_suffix

    return f"rosters/{roster.stem}{paper_suffix(paper)}.pdf"


def build_roster(repo: Repository, root: Path, out: Path, roster: Roster, options, progress=None) -> list[str]:
    """Write the roster's deck for each paper of ``options``; returns the paths written."""
    from .. import build as builder
    from ..render import sheets

    variant = VARIANTS[roster.variant]
    params = options.variant_params(variant)
    units = [u for u, _n in roster.entries]
    writer = builder.AtomicWriter(root)
    written = []
    try:
        specs = builder.deck_cards(repo, variant, params, units, stat_blocks=False, bleed=0.0)
        cache = out / ".cache" / "cards"
        with builder.WorkerPool(options.jobs, root) as pool:  # starts only if a card is missing
            keys = builder._make_cards(
                {"roster": (specs, 0.0)}, out, writer, builder.BuildReport(), pool, builder._Tracker(progress)
            )["roster"]
        faces = [(cache / f"{k}.pdf").read_bytes() for k in keys]
        dealt = [face for face, (_u, n) in zip(faces, roster.entries, strict=True) for _ in range(n)]
        for paper in options.papers:
            rel = roster_output(roster, paper)
            title = f"{roster.name}: {variant.title} cards ({paper})"
            deck, _pages = sheets.impose(dealt, sheets.load_layout(paper), title, options.profile, None, rel)
            writer.write(out / rel, sheets.assemble([report_pdf(roster, repo, paper), deck], title, rel)[0])
            written.append(rel)
    finally:
        writer.close()
    return written
