"""A variant is one thing: every module outside ``wastools/variants`` asks the variant what it
means and never tests which variant it is; a made-up seventh variant plans and builds its
outputs with no other module touched."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import wastools
from wastools.variants import SHIPPED

PACKAGE = Path(wastools.__file__).parent
IDS = frozenset(SHIPPED)
BOARD_CLASSES = {"SquareBoard", "HexBoard", "TableBoard"}
# the one table from a kind of board to its drawing (``render/maps.board_map``)
DRAWING_TABLE = PACKAGE / "render" / "maps.py"


def _outside_variants() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "variants" not in p.relative_to(PACKAGE).parts]


def _is_id(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in IDS


def _names_ids(node: ast.AST) -> bool:
    """A constant variant id, or a tuple, list or set holding one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_id(e) for e in node.elts)
    return _is_id(node)


def variant_tests(tree: ast.AST) -> list[tuple[int, str]]:
    """Where code tests or looks up a variant by its id: comparisons with an id, subscripts by
    one, dicts keyed by two or more (a registry beside the variants), isinstance on a board."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(_names_ids(n) for n in [node.left, *node.comparators]):
            found.append((node.lineno, "compares with a variant id"))
        elif isinstance(node, ast.Subscript) and _is_id(node.slice):
            found.append((node.lineno, "looks a variant up by its id"))
        elif isinstance(node, ast.Dict) and sum(_is_id(k) for k in node.keys if k is not None) >= 2:
            found.append((node.lineno, "a table keyed by variant ids"))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            kinds = node.args[1] if len(node.args) == 2 else None
            named = {getattr(e, "id", "") for e in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])}
            if named & BOARD_CLASSES:
                found.append((node.lineno, "tests the kind of a board"))
    return found


@pytest.mark.xfail(strict=True, reason="the player aids are still keyed by variant id (content/aids.py): next commit")
def test_no_module_outside_the_variants_tests_which_variant_it_is():
    found = []
    for path in _outside_variants():
        for line, what in variant_tests(ast.parse(path.read_text("utf-8"))):
            found.append(f"{path.relative_to(PACKAGE)}:{line}: {what}")
    assert not found, "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    code = """
if variant.name == "hex": pass
x = VARIANTS["large-map"]
TABLE = {"hex": 1, "off-grid": 2}
if s.variant in ("standard", "large-map"): pass
isinstance(board, HexBoard)
"""
    assert [line for line, _what in variant_tests(ast.parse(code))] == [2, 3, 4, 5, 6]
    assert variant_tests(ast.parse('quantity(3, "hex")\nPLURAL = {"hex": "hexes"}')) == []


def test_boards_are_drawn_from_one_table():
    """The render layer picks a board's drawing in one place, by the board's class."""
    text = DRAWING_TABLE.read_text("utf-8")
    assert "_DRAWINGS" in text and all(name in text for name in BOARD_CLASSES)
