"""The rules register: per variant, every rule a player needs, where it comes from and where it is printed.

``rules/<variant>.yaml`` lists entries (an id, the seed and its lines, the rule in the
project's own words, the parameter that settles an ambiguity, and the outputs that print
it) and a coverage map of the variant's seed: every non-blank line belongs to a range
that names entries or is marked flavour. This module loads and checks the files (located
problems, as for every data file) and writes the register into ``docs/variants/<name>.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.data_paths import refusal
from ...core.problems import Problem, display_path
from ...core.repo_files import read_inside, write_inside
from ..yamlio import DEFAULT_LIMITS, SCHEMA_LINE_PREFIX, Document, Limits, first_line, load_document, read_limited

FOLDER = "rules"
SCHEMA = "rules.schema.json"
PLACE_KINDS = ("card", "aid", "ruler", "counters")
DOC_BEGIN = "<!-- rules register: written by `wastools rules --write` from rules/{name}.yaml; do not edit by hand -->"
DOC_END = "<!-- end of rules register -->"


@dataclass(frozen=True)
class Place:
    kind: str  # card, aid, ruler, counters
    which: str  # the card selector, aid section, ruler title or counter
    text: str  # words the output prints

    def describe(self) -> str:
        names = {"card": "card", "aid": "aid", "ruler": "ruler", "counters": "counters"}
        return f"{names[self.kind]} ({self.which})"


@dataclass(frozen=True)
class Entry:
    id: str
    seed: str
    lines: str | None
    rule: str
    printed_in: tuple[Place, ...]
    parameter: str | None = None
    choice: str | None = None


@dataclass(frozen=True)
class CoverageRange:
    seed: str
    lines: str
    entries: tuple[str, ...]
    flavour: str | None


@dataclass(frozen=True)
class Register:
    variant: str
    entries: tuple[Entry, ...]
    coverage: tuple[CoverageRange, ...]

    def entry(self, entry_id: str) -> Entry:
        return next(e for e in self.entries if e.id == entry_id)


def line_ranges(text: str | int) -> list[tuple[int, int]]:
    """'12-14, 20' -> [(12, 14), (20, 20)]; 7 -> [(7, 7)]: ranges, never expanded (a range
    of a billion lines is two numbers here)."""
    out = []
    for part in str(text).split(","):
        low, _, high = part.strip().partition("-")
        out.append((int(low), int(high or low)))
    return out


def parse_lines(text: str | int) -> list[int]:
    """'12-14, 20' -> [12, 13, 14, 20]; 7 -> [7] (for a register already validated)."""
    return [n for low, high in line_ranges(text) for n in range(low, high + 1)]


def runs_upwards(ranges: list[tuple[int, int]]) -> bool:
    """Each range from low to high, each after the one before."""
    ends = [n for low_high in ranges for n in low_high]
    return bool(ranges) and ends == sorted(ends)


def register_files(root: Path) -> list[Path]:
    return sorted((root / FOLDER).glob("*.yaml"))


def _expected_ref(path: Path, root: Path) -> str:
    import os

    return Path(os.path.relpath(root / "schemas" / SCHEMA, path.parent)).as_posix()


def _schema_problems(doc: Document, root: Path, limits: Limits) -> list[Problem] | None:
    """None when the schema cannot be used (its own problems say why)."""
    from .schema import document_problems

    return document_problems(doc, root, SCHEMA, limits)


def _first_line_problems(path: Path, shown: str, root: Path) -> list[Problem]:
    first = first_line(path)
    expected = _expected_ref(path, root)
    if first != SCHEMA_LINE_PREFIX + expected:
        return [
            Problem(
                shown, 1, 1, "", f"first line must be '{SCHEMA_LINE_PREFIX}{expected}' so that editors check the file"
            )
        ]
    return []


def _integrity(doc: Document, name: str) -> list[Problem]:
    """What the schema cannot say: the file name is the variant, ids are unique, coverage names real entries."""
    data = doc.data
    problems = []
    if data.get("variant") != name:
        problems.append(doc.problem(["variant"], f"must be {name!r}, the file's name"))
    seen: set[str] = set()
    for i, entry in enumerate(data.get("entries", [])):
        if entry.get("id") in seen:
            problems.append(doc.problem(["entries", i, "id"], f"duplicate id {entry['id']!r}"))
        seen.add(entry.get("id"))
        if entry.get("lines"):
            if not runs_upwards(line_ranges(entry["lines"])):
                problems.append(doc.problem(["entries", i, "lines"], "line ranges must run upwards"))
        for k, place in enumerate(entry.get("printed_in", [])):
            problems.extend(_label_problems(doc, ["entries", i, "printed_in", k, "text"], place.get("text")))
    for s, seed in enumerate(data.get("coverage", [])):
        for r, rng in enumerate(seed.get("ranges", [])):
            for k, entry_id in enumerate(rng.get("entries", [])):
                if entry_id not in seen:
                    problems.append(
                        doc.problem(["coverage", s, "ranges", r, "entries", k], f"no entry with id {entry_id!r}")
                    )
    return problems


MIN_TRACE_WORDS = 4


def _label_problems(doc: Document, where: list, text: Any) -> list[Problem]:
    """A trace is what a player reads of the rule, its numbers and conditions: a label of three
    words or fewer ("Move", "Smoke", "Move: 7 hexes") proves that a heading is printed, not the rule."""
    if not isinstance(text, str) or len(text.split()) >= MIN_TRACE_WORDS:
        return []
    return [
        doc.problem(
            where,
            f"{text!r} is a label, not the rule: quote at least {MIN_TRACE_WORDS} words the output prints "
            "(the rule's numbers and conditions)",
        )
    ]


def check(root: Path, limits: Limits = DEFAULT_LIMITS, cache=None) -> tuple[list[Problem], dict[str, Register]]:
    """Every problem in every register file, and the registers that have none. With ``cache``
    (a ``repository.cache.FileCache``), an unchanged file's result is not worked out again."""
    from ...variants import VARIANTS

    problems: list[Problem] = []
    registers: dict[str, Register] = {}
    for path in register_files(root):
        shown = display_path(path, root)
        refused = refusal(path, root)
        if refused:
            problems.append(Problem(shown, 1, 1, "", refused))
            continue
        if path.stem not in VARIANTS:
            problems.append(Problem(shown, 1, 1, "", f"{path.stem!r} is not a variant (known: {', '.join(VARIANTS)})"))
            continue
        key = _cache_key(path, shown, root, limits, cache)
        hit = cache.get(key) if key is not None else None
        found, register = hit if hit is not None else _check_file(path, shown, root, limits)
        if key is not None and hit is None:
            cache.put(key, (found, register))
        problems.extend(found)
        if register is not None:
            registers[path.stem] = register
    return problems, registers


def _cache_key(path: Path, shown: str, root: Path, limits: Limits, cache) -> str | None:
    if cache is None or cache.folder is None:
        return None
    raw, _why = read_limited(path, limits)
    return None if raw is None else cache.key(raw, "register", shown, _expected_ref(path, root))


def _check_file(path: Path, shown: str, root: Path, limits: Limits) -> tuple[list[Problem], Register | None]:
    doc, problems = load_document(path, shown, limits)
    if doc is None:
        return problems, None
    problems.extend(_first_line_problems(path, shown, root))
    if not isinstance(doc.data, dict):
        problems.append(Problem(shown, 1, 1, "", "expected a mapping of fields at the top level"))
        return problems, None
    own = _schema_problems(doc, root, limits)
    if own is None:
        from .schema import schemas

        return problems + [p for p in schemas(root, limits).problems if p.path.endswith(SCHEMA)], None
    own = own or _integrity(doc, path.stem)
    problems.extend(own)
    return problems, (None if own else build(doc.data))


def build(data: dict[str, Any]) -> Register:
    entries = []
    for e in data["entries"]:
        places = tuple(Place(kind, p[kind], p["text"]) for p in e["printed_in"] for kind in PLACE_KINDS if kind in p)
        amb = e.get("ambiguous") or {}
        lines = str(e["lines"]) if e.get("lines") is not None else None
        entries.append(Entry(e["id"], e["seed"], lines, e["rule"], places, amb.get("parameter"), amb.get("choice")))
    coverage = tuple(
        CoverageRange(seed["seed"], str(r["lines"]), tuple(r.get("entries", ())), r.get("flavour"))
        for seed in data.get("coverage", [])
        for r in seed["ranges"]
    )
    return Register(data["variant"], tuple(entries), coverage)


def load(root: Path) -> dict[str, Register]:
    """The registers, raising on any problem (trusted project files)."""
    problems, registers = check(root)
    if problems:
        raise ValueError("\n".join(map(str, problems)))
    return registers


# --- the register as a table in docs/variants/<name>.md ------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(register: Register) -> str:
    rows = [
        DOC_BEGIN.format(name=register.variant),
        "",
        f"## Rules register ({len(register.entries)} rules)",
        "",
        "| id | seed, lines | rule | settled by | printed in |",
        "|---|---|---|---|---|",
    ]
    for e in register.entries:
        where = "seed " + e.seed + (f", {e.lines}" if e.lines else "") if e.seed != "base" else "base game"
        settled = f"`{e.parameter}`: {e.choice}" if e.parameter else ""
        printed = "; ".join(p.describe() for p in e.printed_in)
        rows.append(f"| {e.id} | {where} | {_cell(e.rule)} | {_cell(settled)} | {_cell(printed)} |")
    rows += ["", DOC_END]
    return "\n".join(rows)


def doc_with_register(current: str, register: Register) -> str:
    """The doc with its register block replaced (or appended when it has none)."""
    block = markdown(register)
    begin = DOC_BEGIN.format(name=register.variant)
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(DOC_END), re.DOTALL)
    if pattern.search(current):
        return pattern.sub(lambda _m: block, current)
    return current.rstrip("\n") + "\n\n" + block + "\n"


def stale_docs(root: Path, registers: dict[str, Register]) -> list[Path]:
    """Docs whose register table is not the register's current text."""
    stale = []
    for name, register in registers.items():
        path = root / "docs" / "variants" / f"{name}.md"
        current = read_inside(root, path) or ""
        if doc_with_register(current, register) != current:
            stale.append(path)
    return stale


def write_docs(root: Path, registers: dict[str, Register]) -> list[Path]:
    """Each stale doc with its register written in; raises ``UnsafePath`` for a doc that
    is, or lies behind, a symbolic link (which could lead outside the repository)."""
    written = []
    for path in stale_docs(root, registers):
        name = path.stem
        found = read_inside(root, path)
        current = f"# {name}\n" if found is None else found
        write_inside(root, path, doc_with_register(current, registers[name]))
        written.append(path)
    return written
