"""The YAML composer a data file is read with: limits kept while the file is composed, and
every value checked before anything is built from it.

ruamel.yaml's own composer builds the whole node tree first; aliases then let a 14 kB
file stand for millions of values, and deep nesting or a 5,000-digit number only fail
later, far from their place. Here every node counts against ``max_nodes`` as it is
composed, an alias by the size of what it names (so an alias bomb stops at its first
alias over the budget), nesting stops at ``max_depth`` (aliases counted at their expanded
depth), and each scalar and key is checked where it stands:

- a key is a name (text), not a number, a list or a mapping;
- text holds no character that ``safe_text`` refuses;
- a number is finite and at most ``MAX_NUMBER_CHARS`` characters long;
- no tags (``!!binary``, ``!!python/...``, ``!custom``) apart from ``!!str``; dates stay text.

A limit stops the file at once (``Refused``); the other findings are collected, every one
with the line, column and field of its node, and the file is then refused with all of them
(``Findings``), or, for a validation (``partial``), read on, so that the checks after the
composer find the file's other problems too: its loader's ``findings`` then holds them.
"""

from __future__ import annotations

import math
from typing import Any

from ruamel.yaml.composer import Composer
from ruamel.yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from ..core.errors import WastoolsError
from ..core.safe_text import NOT_FINITE, text_problem

MAX_NUMBER_CHARS = 50  # far above any stat or measure; Python refuses ints over 4,300 digits
CORE = "tag:yaml.org,2002:"
KEPT_TAGS = {CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}


class Refused(WastoolsError):
    """A limit was passed: the file is not read further."""

    def __init__(self, mark: Any, parts: list, message: str):
        super().__init__(message)
        self.mark, self.parts, self.message = mark, list(parts), message


class Findings(WastoolsError):
    """The file was composed, but some of its values cannot be data: the first ones found,
    and how many more there are."""

    def __init__(self, found: list[tuple[Any, list, str]], more: int):
        super().__init__(f"{len(found) + more} problems")
        self.found, self.more = found, more


class GuardedComposer(Composer):
    """ruamel.yaml's composer with limits and checks (see the module's docstring)."""

    max_depth = 32
    max_nodes = 100_000
    max_found = 20  # findings kept with their place; the rest are counted
    partial = False  # read on past findings (they go to the loader's ``findings``), else refuse the file

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self.warn_double_anchors = False
        self.count = 0  # values composed so far, each alias counted by the values it stands for
        self.reached = 0  # the deepest level reached inside the node being composed
        self.sizes: dict[int, tuple[int, int]] = {}  # anchored node -> (values, levels)
        self.open: set[int] = set()  # nodes being composed: an alias to one would never end
        self.path: list = []
        self.found: list[tuple[Any, list, str]] = []
        self.more = 0

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if self.found:
            if not self.partial:
                raise Findings(self.found, self.more)
            self.loader.findings = Findings(self.found, self.more)
        return node

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            return self._alias(parent, index, event)
        self.depth += 1
        if self.depth > self.max_depth:
            raise Refused(event.start_mark, self.path, f"nesting deeper than {self.max_depth} levels (limit max_depth)")
        self._spend(1, event)
        before, outer, self.reached = self.count - 1, self.reached, self.depth
        self.resolver.descend_resolver(parent, index)
        if isinstance(event, ScalarEvent):
            node = self.compose_scalar_node(event.anchor)
        elif isinstance(event, SequenceStartEvent):
            node = self.compose_sequence_node(event.anchor)
        else:
            node = self.compose_mapping_node(event.anchor)
        self.resolver.ascend_resolver()
        if event.anchor is not None:
            self.sizes[id(node)] = (self.count - before, self.reached - self.depth + 1)
        self.reached = max(outer, self.reached)
        self.depth -= 1
        return node

    def _alias(self, parent: Any, index: Any, event: AliasEvent) -> Any:
        node = super().compose_node(parent, index)  # the named node (or ruamel's undefined-alias error)
        if id(node) in self.open:
            raise Refused(event.start_mark, self.path, f"alias *{event.anchor} stands inside the value it names")
        values, levels = self.sizes.get(id(node), (1, 1))
        if self.depth + levels > self.max_depth:
            raise Refused(
                event.start_mark,
                self.path,
                f"alias *{event.anchor} makes the nesting deeper than {self.max_depth} levels (limit max_depth)",
            )
        self.reached = max(self.reached, self.depth + levels)
        self._spend(values, event)
        return node

    def _spend(self, values: int, event: Any) -> None:
        self.count += values
        if self.count > self.max_nodes:
            why = " (aliases stand for their values each time they are used)" if isinstance(event, AliasEvent) else ""
            raise Refused(event.start_mark, self.path, f"more than {self.max_nodes} values (limit max_nodes){why}")

    def compose_scalar_node(self, anchor: Any) -> Any:
        event = self.parser.peek_event()
        node = super().compose_scalar_node(anchor)
        tag = str(node.tag)
        explicit = event.ctag is not None and str(event.ctag) != "!"
        if explicit and tag != CORE + "str":
            self._note(node, f"the tag {_shown(event.ctag)} is not used in data files: leave it out")
            node.tag = self.resolver.DEFAULT_SCALAR_TAG
        elif tag not in KEPT_TAGS:  # a date, say: kept as the text it is
            node.tag = self.resolver.DEFAULT_SCALAR_TAG
        tag = str(node.tag)
        if tag == CORE + "str":
            message = text_problem(node.value)
            if message:
                self._note(node, message)
        elif tag in (CORE + "int", CORE + "float"):
            self._number(node, tag)
        return node

    def _number(self, node: ScalarNode, tag: str) -> None:
        text = node.value
        if len(text) > MAX_NUMBER_CHARS:
            self._note(node, f"a number of {len(text)} characters (at most {MAX_NUMBER_CHARS})")
            node.tag = self.resolver.DEFAULT_SCALAR_TAG  # never converted: the file is refused anyway
        elif tag == CORE + "float":
            lowered = text.lower().replace("_", "")
            try:
                value = float(lowered.replace(".inf", "inf").replace(".nan", "nan"))
            except ValueError:
                return  # ruamel's own reading decides
            if not math.isfinite(value):
                self._note(node, f"{text} {NOT_FINITE}")

    def _note(self, node: Any, message: str, mark: Any = None, path: list | None = None) -> None:
        if len(self.found) < self.max_found:
            self.found.append((mark or node.start_mark, list(self.path if path is None else path), message))
        else:
            self.more += 1

    def compose_sequence_node(self, anchor: Any) -> Any:
        node = self._opened(SequenceNode, anchor)
        while not self.parser.check_event(SequenceEndEvent):
            self.path.append(len(node.value))
            node.value.append(self.compose_node(node, len(node.value)))
            self.path.pop()
        return self._closed(node, replace_comment=False)

    def compose_mapping_node(self, anchor: Any) -> Any:
        node = self._opened(MappingNode, anchor)
        while not self.parser.check_event(MappingEndEvent):
            key = self.compose_node(node, None)
            name = self._key_name(key)
            self.path.append(name)
            value = self.compose_node(node, key)
            self.path.pop()
            node.value.append((key, value))
        return self._closed(node, replace_comment=True)

    def _opened(self, kind: type, anchor: Any) -> Any:
        """A sequence or mapping node from its start event, open until ``_closed``."""
        start = self.parser.get_event()
        node = kind(
            self._collection_tag(start, kind),
            [],
            start.start_mark,
            None,
            flow_style=start.flow_style,
            comment=start.comment,
            anchor=anchor,
        )
        if anchor is not None:
            self.anchors[anchor] = node
        self.open.add(id(node))
        return node

    def _closed(self, node: Any, replace_comment: bool) -> Any:
        """The node ended by its end event (as ruamel's composer ends it: a flow mapping takes
        the end's comment, a flow sequence only when it has none)."""
        self.open.discard(id(node))
        end = self.parser.get_event()
        node.end_mark = end.end_mark
        if node.flow_style is True and end.comment is not None and (replace_comment or node.comment is None):
            node.comment = end.comment
        self.check_end_doc_comment(end, node)
        return node

    def _collection_tag(self, start: Any, kind: type) -> Any:
        tag = start.ctag
        if tag is not None and str(tag) not in ("!", CORE + ("seq" if kind is SequenceNode else "map")):
            self._note(None, f"the tag {_shown(tag)} is not used in data files: leave it out", start.start_mark)
        return self.resolver.resolve(kind, None, start.implicit)

    def _key_name(self, key: Any) -> str:
        """The key as a field name; a key that is not text is noted (and named '?')."""
        if isinstance(key, ScalarNode) and str(key.tag) == CORE + "str":
            return key.value
        if isinstance(key, ScalarNode):
            kind = {"int": "a number", "float": "a number", "bool": "true or false", "null": "empty"}.get(
                str(key.tag).removeprefix(CORE), "not text"
            )
            message = f"the key {key.value!r} is {kind}: a key is a field name (quote it if it is meant as text)"
            self._note(key, message, path=[*self.path, key.value])
            return key.value
        self._note(key, "a list or mapping as a key: a key is a field name", path=[*self.path, "?"])
        return "?"


def _shown(tag: Any) -> str:
    """A tag as it is written: ``!!binary`` rather than ``tag:yaml.org,2002:binary``."""
    text = str(tag)
    return "!!" + text.removeprefix(CORE) if text.startswith(CORE) else text[:80]
