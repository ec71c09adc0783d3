"""Reading YAML with positions, and the one canonical way of writing it.

Every data file is read through :func:`load_document`, which returns plain Python
data for validation plus a :class:`Document` that can answer "where is this field?"
so that every error can name its line and column.
"""

from __future__ import annotations

import dataclasses
import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.parser import Parser
from ruamel.yaml.scanner import Scanner

from ..core.data_paths import kind_of_file
from ..core.problems import Problem, format_field
from ..core.safe_text import bad_characters
from .yaml_compose import Findings, GuardedComposer, Refused

SCHEMA_LINE_PREFIX = "# yaml-language-server: $schema="


@dataclass(frozen=True)
class Limits:
    """Defenses against hostile files; each is a named setting (``--limit NAME=N``) with a
    default far above what the real data needs. See README, "What the tool trusts"."""

    max_file_bytes: int = 250_000  # a data file's size, checked before it is read (ten times the largest)
    max_depth: int = 32  # levels of nesting, aliases counted where they are used
    max_nodes: int = 100_000  # values in one file, each alias counted by the values it stands for
    max_messages_per_file: int = 20  # problems shown for one file; the rest are counted
    max_messages_per_kind: int = 50  # problems of one kind shown across the repository
    max_map_pages: int = 150  # tiled pages of one map on one paper (a scenario's or a board's)
    max_map_cells: int = 5_000  # sectors or hexes on one map


DEFAULT_LIMITS = Limits()


class Invalid:
    """What a value the schema refused becomes in a document's data (``INVALID``): no
    later check can take it for a name, number, list or mapping (it is falsy, empty, equal
    only to itself), so the checks beyond the schema never meet a type they do not expect,
    and say nothing more about a value already reported."""

    def __bool__(self) -> bool:
        return False

    def __len__(self) -> int:
        return 0

    def __iter__(self):
        return iter(())

    def __repr__(self) -> str:
        return "<invalid value>"

    def __reduce__(self) -> str:
        return "INVALID"  # one object, also after a round trip through the validation cache


INVALID = Invalid()


def mark_invalid(data: Any, paths: list[tuple]) -> None:
    """Replace the value at each path (keys and list indices from the root) by ``INVALID``."""
    for path in sorted(set(paths), key=len):
        node = data
        for part in path[:-1]:
            node = _step(node, part)
        if isinstance(node, dict) and path[-1] in node or isinstance(node, list) and _index_in(node, path[-1]):
            node[path[-1]] = INVALID


def _step(node: Any, part: Any) -> Any:
    if isinstance(node, dict):
        return node.get(part, INVALID)
    return node[part] if isinstance(node, list) and _index_in(node, part) else INVALID


def _index_in(node: list, part: Any) -> bool:
    return isinstance(part, int) and 0 <= part < len(node)


@dataclass
class Document:
    """A parsed YAML file: its plain data, where each of its keys and values is written
    (``positions``), and, when read with its comments for ``fmt``, the round-trip tree that
    writes it back. Validation keeps a document per file in the store: plain containers
    read back much faster than the round-trip tree."""

    path: str
    data: Any
    where: Any
    tree: Any = None
    refused: tuple[str, ...] = ()  # fields whose values the reader refused (and reported): INVALID in ``data``

    def position(self, parts: tuple | list) -> tuple[int, int]:
        """1-based (line, column) of the value at ``parts``, or of the nearest parent."""
        node = self.where
        line, col = 0, 0
        for part in parts:
            found = _child_position(node, part)
            if found is None:
                break
            (line, col), node = found
        return line + 1, col + 1

    def key_position(self, parts: tuple | list, key: str) -> tuple[int, int]:
        """1-based position of mapping key ``key`` inside the mapping at ``parts``."""
        node = self.where
        for part in parts:
            found = _child_position(node, part)
            if found is None:
                return self.position(parts)
            node = found[1]
        if isinstance(node, dict) and key in node:
            line, col = node[key][0]
            return line + 1, col + 1
        return self.position(parts)

    def problem(self, parts: tuple | list, message: str, **kw: Any) -> Problem:
        line, col = self.position(parts)
        return Problem(self.path, line, col, format_field(parts), message, **kw)


def positions(node: Any) -> Any:
    """Where each key and value of a round-trip tree is written (0-based line and column), in
    plain containers keyed as ``to_plain`` keys the data: a mapping's key -> (the key's
    position, the value's, the value's own positions); a sequence's [(the item's position, its
    own positions)]; None for a scalar."""
    if isinstance(node, CommentedMap):
        here = (node.lc.line or 0, node.lc.col or 0)
        where = {}
        for k, v in node.items():
            spot = node.lc.data.get(k)
            key_at, value_at = ((spot[0], spot[1]), (spot[2], spot[3])) if spot else (here, here)
            where[_plain_key(k)] = (key_at, value_at, positions(v))
        return where
    if isinstance(node, CommentedSeq):
        here = (node.lc.line or 0, node.lc.col or 0)
        return [((tuple(node.lc.data[i][:2]) if i in node.lc.data else here), positions(v)) for i, v in enumerate(node)]
    return None


def _child_position(node: Any, part: Any) -> tuple[tuple[int, int], Any] | None:
    if isinstance(node, dict) and part in node:
        _key_at, value_at, child = node[part]
        return value_at, child
    if isinstance(node, list) and _index_in(node, part):
        return node[part]
    return None


def _yaml(limits: Limits | None = None, comments: bool = True, partial: bool = False) -> YAML:
    """The round-trip reader; with ``limits``, a data file's (limits kept while composing).
    Without ``comments``, comments are read past (ruamel.yaml's plain scanner and parser: a
    third less time, the same values at the same lines and columns): validation never needs
    them, ``fmt`` keeps them."""
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    if limits is not None:
        yaml.Composer = _composer(limits, partial)
    if not comments:
        yaml.Scanner, yaml.Parser = Scanner, Parser
    return yaml


def _composer(limits: Limits, partial: bool = False) -> type[GuardedComposer]:
    """The guarded composer class with these limits (ruamel.yaml makes it itself)."""

    class Limited(GuardedComposer):
        max_depth = limits.max_depth
        max_nodes = limits.max_nodes
        max_found = limits.max_messages_per_file

    Limited.partial = partial

    return Limited


def _plain_key(key: Any) -> Any:
    return key if isinstance(key, (str, int)) else str(key)


def to_plain(node: Any) -> Any:
    """Round-trip containers to plain dict/list, so validators see ordinary data."""
    if isinstance(node, dict):
        return {_plain_key(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def read_limited(path: Path, limits: Limits) -> tuple[bytes | None, str | None]:
    """A data file's bytes, read only when it is a plain file within ``max_file_bytes``
    (its size checked before reading, and no more than the limit read if it grows); else
    None and why. Opened without blocking, so a named pipe cannot hold the run."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror}"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, f"{kind_of_file(info.st_mode)}, not a plain file: not read"
        if info.st_size > limits.max_file_bytes:
            return None, _too_big(info.st_size, limits)
        raw = handle.read(limits.max_file_bytes + 1)
    if len(raw) > limits.max_file_bytes:
        return None, _too_big(len(raw), limits)
    return raw, None


def _too_big(size: int, limits: Limits) -> str:
    return f"file is {size} bytes, over the limit of {limits.max_file_bytes} (max_file_bytes)"


def load_document(
    path: Path, shown_as: str, limits: Limits = DEFAULT_LIMITS, comments: bool = False, partial: bool = False
) -> tuple[Document | None, list[Problem]]:
    """Parse one YAML file. Never raises for bad content: returns problems instead.
    ``comments``: kept in the tree (``fmt`` writes them back). ``partial`` (validation): a
    value the reader refuses (a number that is not finite, a tag, a key that is no name) is
    reported and made ``INVALID``, and the document is returned with the problems, so that
    the checks after the reader find the file's other problems in the same report."""
    raw, refused = read_limited(path, limits)
    if raw is None:
        return None, [Problem(shown_as, 1, 1, "", refused or "cannot read file")]
    return parse_document(raw, shown_as, limits, comments, partial)


def parse_document(
    raw: bytes, shown_as: str, limits: Limits = DEFAULT_LIMITS, comments: bool = False, partial: bool = False
) -> tuple[Document | None, list[Problem]]:
    """A file's bytes as a document, or every located problem that keeps them from being one
    (with ``partial``, the document with the values refused made ``INVALID``, and their problems)."""
    text, problem = _decode(raw, shown_as)
    if problem:
        return None, [problem]
    if text.strip() == "" or all(line.lstrip().startswith("#") or not line.strip() for line in text.splitlines()):
        return None, [Problem(shown_as, 1, 1, "", "file is empty: expected a mapping of fields")]
    found = _text_problems(text, shown_as, limits)
    if found:
        return None, found
    yaml = _yaml(limits, comments, partial)
    try:
        tree = yaml.load(text)
    except Refused as exc:
        return None, [_at(exc.mark, exc.parts, exc.message, shown_as)]
    except Findings as exc:
        found = [_at(mark, parts, message, shown_as) for mark, parts, message in exc.found]
        return None, found + _more(found[-1], exc.more)
    except MarkedYAMLError as exc:
        return None, [_yaml_problem(exc, shown_as)]
    except (YAMLError, RecursionError, ValueError) as exc:
        return None, [Problem(shown_as, 1, 1, "", f"YAML error: {_one_line(str(exc))[:200]}")]
    doc = Document(shown_as, to_plain(tree), positions(tree), tree if comments else None)
    held: Findings | None = getattr(yaml, "findings", None)
    if held is None:
        return doc, []
    found = [_at(mark, parts, message, shown_as) for mark, parts, message in held.found]
    mark_invalid(doc.data, [tuple(parts) for _mark, parts, _message in held.found if parts])
    doc.refused = tuple(format_field(parts) for _mark, parts, _message in held.found)
    return doc, found + _more(found[-1], held.more)


def _at(mark: Any, parts: list, message: str, shown_as: str) -> Problem:
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return Problem(shown_as, line, col, format_field(parts), message)


def _text_problems(text: str, shown_as: str, limits: Limits) -> list[Problem]:
    """Tabs and the characters no data file may hold (``safe_text``), each where it is."""
    if "\t" in text:
        line_no = next(i for i, line in enumerate(text.splitlines(), 1) if "\t" in line)
        col = text.splitlines()[line_no - 1].index("\t") + 1
        return [Problem(shown_as, line_no, col, "", "tab character: indent with spaces")]
    found: list[Problem] = []
    more = 0
    for index, what in bad_characters(text):
        if len(found) == limits.max_messages_per_file:
            more += 1
            continue
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        found.append(Problem(shown_as, line, col, "", f"{what}: remove it"))
    return found + _more(found[-1], more) if found else []


def _more(last: Problem, more: int) -> list[Problem]:
    """The line that stands for the problems not kept after ``last``."""
    if not more:
        return []
    message = f"and {more} more problems like these, not listed (limit max_messages_per_file)"
    return [dataclasses.replace(last, field="", message=message, more=more - 1)]


def _decode(raw: bytes, shown_as: str) -> tuple[str, Problem | None]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return "", Problem(shown_as, line, col, "", f"not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded")
    return one_line_end(text), None


def one_line_end(text: str) -> str:
    """``text`` with every line end a line feed: CRLF and a lone CR (which YAML reads as a
    line end too) alike, so that every position and every first line agrees with the parser."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def first_line(path: Path) -> str:
    """The first line of the file at ``path`` as the YAML reader sees it (a byte-order mark
    dropped; ended by LF, CRLF or a lone CR), from its first 4096 bytes."""
    with path.open("rb") as handle:
        head = handle.read(4096)
    return one_line_end(head.decode("utf-8-sig", "replace")).split("\n", 1)[0]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _yaml_problem(exc: MarkedYAMLError, shown_as: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = exc.problem or exc.context or "invalid YAML"
    if "duplicate key" in str(exc):
        key = _duplicate_key_name(str(exc))
        return Problem(shown_as, line, col, key, "duplicate key")
    return Problem(shown_as, line, col, "", plain_words(_one_line(what), _one_line(exc.context or "")))


# The parser's wording -> what a person fixing the file needs to know.
_PLAIN = (
    (
        "expected <block end>, but found '<block mapping start>'",
        "this line does not line up with the fields above it: the fields of one block start in the same column",
    ),
    (
        "expected <block end>, but found '<block sequence start>'",
        "this list does not line up with the lines above it: check its indentation",
    ),
    (
        "expected <block end>, but found '-'",
        "a list item ('- ...') where a field was expected: check the indentation of this line",
    ),
    ("expected <block end>", "this line does not line up with the lines above it: check its indentation"),
    (
        "mapping values are not allowed here",
        "a ':' that cannot be read here: either this line is indented further than the field "
        "above it, or a value contains ': ' and needs quotes",
    ),
    ("could not find expected ':'", "a line that is not 'field: value': add the colon after the field name"),
    ("found character '\\t' that cannot start any token", "a tab character: indent with spaces only"),
    ("cannot start any token", "a character that cannot start a value here: quote the value"),
    ("found unexpected end of stream", "a quote is opened but never closed"),
    ("expected ',' or ']'", "a list in [ ] is not closed, or a comma is missing between its items"),
    ("expected ',' or '}'", "a mapping in { } is not closed, or a comma is missing between its items"),
    ("found undefined alias", "'*' starts an alias that is not defined: quote a value that starts with '*'"),
    ("expected alphabetic or numeric character", "'&' or '*' must be followed by a name: quote the value"),
)


def plain_words(problem: str, context: str = "") -> str:
    """A YAML syntax error in words, with the parser's own words kept at the end."""
    for pattern, words in _PLAIN:
        if pattern in problem or (pattern in context and not problem):
            return f"YAML syntax error: {words} (parser: {problem or context})"
    return f"YAML syntax error: {problem or context or 'invalid YAML'}"


def _duplicate_key_name(message: str) -> str:
    # ruamel: 'found duplicate key "name" with value ...'
    start = message.find('duplicate key "')
    if start < 0:
        return ""
    start += len('duplicate key "')
    return message[start : message.find('"', start)]


# --- writing -----------------------------------------------------------------


def dump_canonical(data: Any, schema_ref: str | None) -> str:
    """The single canonical text of a data file (used by importer and ``fmt``)."""
    yaml = _yaml()
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    buf = io.StringIO()
    yaml.dump(data, buf)
    body = buf.getvalue()
    if schema_ref:
        body = f"{SCHEMA_LINE_PREFIX}{schema_ref}\n" + _strip_schema_line(body)
    return body


def _strip_schema_line(text: str) -> str:
    lines = text.splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(SCHEMA_LINE_PREFIX))


def flow(seq: list) -> CommentedSeq:
    """A sequence written on one line (attack bands)."""
    out = CommentedSeq(seq)
    out.fa.set_flow_style()
    return out
