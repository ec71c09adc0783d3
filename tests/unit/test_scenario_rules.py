"""A scenario's forces and words against history and its variant (``data.scenario_rules``):
the same ship twice, a garrison nobody can invade, unequal sides without a word on balance,
sector words on a board without sectors; each a located error, run on fixture scenarios."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_data
from wastools.data import repository

RULES = ROOT / "tests" / "fixtures" / "scenarios" / "rules"
LIBRARY_CARDS = ROOT / "tests" / "fixtures" / "library" / "cards"  # holds a landing ship (LST)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = copy_data(tmp_path, ("cards", "schemas"))
    shutil.copytree(LIBRARY_CARDS, root / "cards", dirs_exist_ok=True)
    (root / "scenarios").mkdir()
    return root


def problems(root: Path, name: str, text: str | None = None) -> list[str]:
    path = root / "scenarios" / f"{name}.yaml"
    path.write_text(text if text is not None else (RULES / f"{name}.yaml").read_text("utf-8"), "utf-8")
    result = repository.validate(root, [path])
    return [str(p) for p in result.problems if p.is_error]


def line_of(name: str, needle: str, after: str = "") -> int:
    lines = (RULES / f"{name}.yaml").read_text("utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines[start:], start + 1) if needle in line)


def test_each_fault_is_one_located_error(root):
    found = problems(root, "unfaithful-raid")
    at = "scenarios/unfaithful-raid.yaml"
    sides, count = line_of("unfaithful-raid", "- side: royal-navy"), line_of("unfaithful-raid", "count: 2")
    garrison = line_of("unfaithful-raid", "- name: Harbor town")
    fog = line_of("unfaithful-raid", "- Fog")
    assert found == [
        f"{at}:{sides}:3: sides: the sides have 62 and 8 points, 54 apart (more than 10 % of the limit of 80): "
        "say in balance why the game is even, or what each side must do to win",
        f"{at}:{count}:16: sides[0].forces[1].count: HMS Cossack is on the table 2 times: a ship is there once; "
        "give every other copy its own entry with stands_for, the ship it stands in for",
        f"{at}:{garrison}:5: garrisons[0]: Harbor town: no enemy unit can invade it (none has a Landing ability): "
        "a garrison is there only to be invaded, so leave it out or give the other side a transport",
        f"{at}:{fog}:5: optional_rules[0]: 'range band' is a word of the sector map, and this variant measures "
        "in legs: give the distance in legs",
    ]


def test_the_same_scenario_put_right_has_no_error(root):
    assert problems(root, "faithful-raid") == []


def test_a_second_entry_of_the_same_ship_is_refused_at_its_unit(root):
    text = (RULES / "faithful-raid.yaml").read_text("utf-8")
    text = text.replace("        stands_for: Maori\n", "")
    found = problems(root, "faithful-raid", text)
    assert len(found) == 1 and "sides[0].forces[2].unit: HMS Cossack is on the table 2 times" in found[0]


def test_a_garrison_the_other_side_can_invade_is_kept(root):
    text = (RULES / "unfaithful-raid.yaml").read_text("utf-8")
    text = text.replace("      - unit: hms-cossack\n        count: 2\n", "      - unit: lst\n")
    found = problems(root, "unfaithful-raid", text)
    assert not any("garrisons[0]" in p for p in found)
    # the transport must be the enemy's: the garrison's own side's landing ship invades nothing
    mine = (
        (RULES / "unfaithful-raid.yaml")
        .read_text("utf-8")
        .replace("      - unit: z-20-karl-galster\n", "      - unit: z-20-karl-galster\n      - unit: lst\n")
    )
    assert any(
        "garrisons[0]: Harbor town: no enemy unit can invade it" in p for p in problems(root, "unfaithful-raid", mine)
    )


def test_sides_within_a_tenth_of_the_limit_need_no_balance(root):
    text = (RULES / "faithful-raid.yaml").read_text("utf-8")
    text = text.replace("balance: The German destroyer has far fewer points and wins by surviving 6 turns.\n", "")
    found = problems(root, "faithful-raid", text)
    assert len(found) == 1 and "the sides have 62 and 8 points, 54 apart" in found[0]
    even = text.replace("points_limit: 80", "points_limit: 600")  # 54 is within 60, a tenth of 600
    assert problems(root, "faithful-raid", even) == []


def test_sector_words_are_the_sector_maps_own(root):
    """'sector' is refused on a table and a hex grid, and kept on a sector map."""
    text = (RULES / "faithful-raid.yaml").read_text("utf-8").replace("beyond 2 legs", "beyond 1 sector")
    found = problems(root, "faithful-raid", text)
    assert len(found) == 1 and "optional_rules[0]: 'sector' is a word of the sector map" in found[0]
    on_hexes = text.replace("variant: off-grid", "variant: hex")
    assert any("and this variant measures in hexes" in p for p in problems(root, "faithful-raid", on_hexes))
    on_sectors = text.replace("variant: off-grid", "variant: large-map")
    assert not any("word of the sector map" in p for p in problems(root, "faithful-raid", on_sectors))
    bare = text.replace("beyond 1 sector", "beyond a card's range 1")
    assert any(
        "optional_rules[0]: 'range 1' without its distance: give the distance in legs" in p
        for p in problems(root, "faithful-raid", bare)
    )
    measured = text.replace("beyond 1 sector", "beyond range 1 (2-3 legs)")
    assert problems(root, "faithful-raid", measured) == []
