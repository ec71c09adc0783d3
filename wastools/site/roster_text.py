"""A fleet as the fleet builder copies it (plain text, Markdown or BBCode: ``fleetText`` in
``fleet-core.js``), read by ``wastools build --roster`` as the builder's *Paste a fleet* reads
it: the head line gives the name, the points limit and the deck (by its title), each
``N x NAME`` line a unit, found by its name. The lines are read, not the fleet's link (a count
edited by hand counts); the link only tells apart units that share a name. Every line not
understood is a located problem: the tool prints exactly the cards it is asked for, so it
does not guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from ..core.model import Repository, Unit
from ..core.problems import Problem
from ..variants import VARIANTS
from .roster_checks import COUNT_MAX, limit_problem, name_problem

HEAD = re.compile(r"^(?P<name>.+) \(\d+ of (?P<limit>\d{1,6}) points, \d+ cards?, (?P<deck>.+) deck\)$")
UNIT = re.compile(r"^(?P<count>\d{1,6})\s*[x\u00d7]\s+(?P<rest>.+)$")
LINK = re.compile(r"^\[url=([^\]]*)\][^\]]*\[/url\]$|^\[[^\]]*\]\(([^()\s]*)\)$|^(?:Link:\s*)?(\S*fleet\.html#\S*)$")
BOLD = re.compile(r"^\[b\](.*)\[/b\](.*)$|^\*\*(.*)\*\*(.*)$")
MD_ESCAPED = re.compile(r"\\([\\`*_\[\]<>#|~])")
RULES_HEAD = "Fleet rules:"
B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def unit_code(unit_id: str) -> str:
    """A unit's part of the compact fleet code (``unitCode`` in fleet-core.js): the last four
    base-36 digits of the FNV-1a hash (32 bits) of its id."""
    h = 0x811C9DC5
    for byte in unit_id.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    n, digits = h % 36**4, ""
    for _ in range(4):
        n, d = divmod(n, 36)
        digits = B36[d] + digits
    return digits


def is_fleet_text(text: str) -> bool:
    """Whether ``text`` opens with a fleet text's head line (in any of its markups)."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return HEAD.match(_unmarked(first, markdown=first.startswith("**"))) is not None


def _unmarked(line: str, markdown: bool) -> str:
    """A line without its list marker and bold, Markdown's escapes undone."""
    line = re.sub(r"^\[\*\]\s*", "", line)
    line = re.sub(r"^[-*]\s+", "", line) if not line.startswith("**") else line
    bold = BOLD.match(line)
    if bold:
        line = (bold.group(1) or bold.group(3) or "") + (bold.group(2) or bold.group(4) or "")
    return MD_ESCAPED.sub(r"\1", line) if markdown else line


def _linked_ids(link: str, repo: Repository) -> set[str]:
    """The unit ids a fleet link holds (``fleet=`` ids or a ``c=`` code), as far as this repository knows them."""
    fragment = link.split("#", 1)[1] if "#" in link else ""
    codes = {unit_code(u): u for u in repo.units}
    ids: set[str] = set()
    for key, value in parse_qsl(fragment):
        if key == "fleet":
            ids |= {part.split(":")[0] for part in value.split(",")}
        elif key == "c":
            ids |= {codes.get(part.split(":")[0].upper(), "") for part in value.split(".")[1:]}
    return ids & set(repo.units)


@dataclass
class _Reading:
    shown: str
    name: str | None = None
    limit: str | None = None
    deck: str | None = None
    link: str = ""
    units: list[tuple[list[str], int, int, str]] = field(default_factory=list)  # ids, count, line, name
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.shown, line, 1, "", message))


def _read_line(r: _Reading, line: str, n: int, names: dict[str, list[str]], in_rules: bool, markdown: bool) -> bool:
    """One line into ``r``; returns whether the fleet rules' list starts here."""
    link = LINK.match(line)
    if link:
        r.link = r.link or next(g for g in link.groups() if g is not None)
        return False
    line = _unmarked(line, markdown)
    if line == RULES_HEAD:
        return True
    head = HEAD.match(line) if r.name is None else None
    if head:
        r.name, r.limit, r.deck = head.group("name"), head.group("limit"), head.group("deck")
        return False
    unit = UNIT.match(line) if not in_rules else None
    if unit:
        rest = unit.group("rest")
        longest = max(map(len, names), default=0)  # no cut past it: a hostile line costs no more than a name
        cuts = [c for c in [len(rest)] + [m.start() for m in re.finditer(r" \(", rest)][::-1] if c <= longest]
        ids = next((names[rest[:c].lower()] for c in cuts if rest[:c].lower() in names), None)
        if ids is None:
            r.problem(n, f"no unit called {rest!r}, left out")
        else:
            r.units.append((ids, int(unit.group("count")), n, rest))
        return False
    titles = {v.title for v in VARIANTS.values()}
    if in_rules and line.split(": ", 1)[0] in titles:
        return False  # a verdict: the tool works it out again
    r.problem(n, f"not understood: {line[:60]!r}")
    return False


def read_fleet_text(text: str, shown: str, repo: Repository) -> tuple[dict, list[tuple[Unit, int]], list[Problem]]:
    """The fleet in a fleet text: its fields (name, variant, points_limit), its units with their
    counts, and every located problem."""
    r = _Reading(shown)
    names: dict[str, list[str]] = {}
    for unit in repo.units.values():
        names.setdefault(unit.name.lower(), []).append(unit.id)
    markdown = any(line.lstrip().startswith("**") for line in text.splitlines())
    in_rules = False
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line and line not in ("[list]", "[/list]"):
            in_rules = _read_line(r, line, n, names, in_rules, markdown) or in_rules
    return _fields(r), _entries(r, repo), r.problems


def _fields(r: _Reading) -> dict:
    if r.name is None:
        r.problem(1, "no head line (\u201cNAME (N of LIMIT points, N cards, DECK deck)\u201d): not a fleet text")
        return {}
    titles = {v.title: name for name, v in VARIANTS.items()}
    fields = {"name": r.name, "variant": titles.get(r.deck or ""), "points_limit": int(r.limit or 0)}
    for message in (name_problem(r.name), limit_problem(fields["points_limit"])):
        if message:
            r.problem(1, message)
    if fields["variant"] is None:
        r.problem(1, f"no deck called {r.deck!r}: one of {', '.join(titles)}")
    return fields


def _entries(r: _Reading, repo: Repository) -> list[tuple[Unit, int]]:
    linked = _linked_ids(r.link, repo) if r.link else set()
    counts: dict[str, int] = {}
    for ids, count, line, name in r.units:
        if len(ids) > 1:
            ids = [i for i in ids if i in linked]
            if len(ids) != 1:
                r.problem(line, f"more than one unit is called {name!r} and the text's link does not say which")
                continue
        if not 1 <= count <= COUNT_MAX:
            r.problem(line, f"expected a whole number of cards from 1 to {COUNT_MAX}")
            continue
        counts[ids[0]] = counts.get(ids[0], 0) + count
    if not counts and not r.problems:
        r.problem(1, "the text lists no unit")
    return [(repo.units[i], n) for i, n in counts.items()]
