"""A variant is one thing: every module outside ``wastools/variants`` asks the variant what it
means and never tests which variant it is; a made-up seventh variant plans and builds its
outputs with no other module touched."""

from __future__ import annotations

import ast
import re
from pathlib import Path

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


def _unit_noun(node: ast.Constant, parent: ast.AST | None) -> bool:
    """'hex' is also the unit a quantity is printed in: quantity(3, "hex"), {"hex": "hexes"}."""
    if node.value != "hex":
        return False
    if isinstance(parent, ast.Call):
        return True
    return isinstance(parent, ast.Dict) and sum(_is_id(k) for k in parent.keys if k is not None) < 2


def variant_tests(tree: ast.AST) -> list[tuple[int, str]]:
    """Every variant id written in the code (but the unit noun 'hex'), and every test of a
    board's kind: the code outside the variants asks a variant, never names one."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if _is_id(node) and not _unit_noun(node, parents.get(node)):  # type: ignore[arg-type]
            found.append((node.lineno, f"names the variant {node.value!r}"))  # type: ignore[attr-defined]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
            kinds = node.args[1] if len(node.args) == 2 else None
            named = {getattr(e, "id", "") for e in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])}
            if named & BOARD_CLASSES:
                found.append((node.lineno, "tests the kind of a board"))
    return sorted(found)


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
    assert [line for line, _what in variant_tests(ast.parse(code))] == [2, 3, 4, 4, 5, 5, 6]
    assert variant_tests(ast.parse('quantity(3, "hex")\nPLURAL = {"hex": "hexes"}')) == []


def test_boards_are_drawn_from_one_table():
    """The render layer picks a board's drawing in one place, by the board's class."""
    text = DRAWING_TABLE.read_text("utf-8")
    assert "_DRAWINGS" in text and all(name in text for name in BOARD_CLASSES)


def test_templates_and_scripts_name_no_variant():
    """The site's pages and scripts learn the variants from the site's data, never by name."""
    pattern = re.compile("[\"'](" + "|".join(map(re.escape, sorted(IDS))) + ")[\"']")
    found = [
        f"{path.relative_to(PACKAGE)}:{text[: m.start()].count(chr(10)) + 1}: {m.group(0)}"
        for path in sorted((PACKAGE / "templates").rglob("*"))
        if path.suffix in (".js", ".j2") and path.name != "qrcode.js"
        for text in [path.read_text("utf-8")]
        for m in pattern.finditer(text)
    ]
    assert not found, "\n".join(found)


def test_a_seventh_variant_plans_its_kit_with_no_other_module_touched(repo, tmp_path):
    """The made-up variant of ``tests/e2e/test_seventh_variant.py`` (which builds it), planned:
    its deck of every unit, its aid, its rulers, its board and the board's poster."""
    from tests.e2e.test_seventh_variant import AID_WORDS, NAME, seventh
    from wastools.pipeline.plan import plan_cards, plan_outputs
    from wastools.pipeline.selection import Options, Selection
    from wastools.variants import add, use_house

    aid = tmp_path / "aid.yaml"
    aid.write_text(AID_WORDS, "utf-8")
    add(seventh(aid))
    try:
        selection, options = Selection((NAME,)), Options(papers=("letter",))
        from wastools.core.store import Store

        decks = plan_cards(repo, selection, options, Store(tmp_path, tmp_path / "store"))
        paths = {target.path for target in plan_outputs(repo, selection, options, decks, {})}
    finally:
        use_house(())
    own = {f"{NAME}/{stem}.pdf" for stem in ("cards", "player-aid", "rulers", "map-quarter", "map-quarter-poster")}
    assert own <= paths and len(decks.variants[NAME]) == len(repo.units)
    assert not {p for p in paths if "/" in p and p.split("/")[0] in IDS}  # no shipped variant's files
