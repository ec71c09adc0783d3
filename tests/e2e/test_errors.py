"""Errors that help: a suggestion for every misspelt name, YAML syntax errors in plain words
at their own position, one mistake one error, and a bad scenario that blocks only its pack."""

from __future__ import annotations

import pytest

from tests.conftest import copy_data
from tests.unit.test_validate import UNIT, damage, line_of


def errors(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith(("cards/", "scenarios/"))]


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            "type: destroyer",
            "type: destroyr",
            "type: 'destroyr' is not one of the allowed values (did you mean 'destroyer'?)",
        ),
        ("speed: ", "sped: ", "sped: unknown field 'sped' (did you mean 'speed'?)"),
        (
            "nation: uk",
            "nation: germnay",
            "nation: 'germnay' is not one of the allowed values (did you mean 'germany'?)",
        ),
        (
            "set: condition-zebra",
            "set: condition-zebar",
            "set 'condition-zebar' is not in cards/sets.yaml (did you mean 'condition-zebra'?)",
        ),
        ("rarity: ", "rarity: uncomon #", "did you mean 'uncommon'"),
        (
            "  - Chase the Salvoes",
            "  - Chase the Salvos",
            "ability 'Chase the Salvos' is not in cards/abilities.yaml (did you mean 'Chase the Salvoes'?)",
        ),
    ],
)
def test_one_mistake_is_one_error_with_a_suggestion(tmp_repo, cli, old, new, expected):
    text = (tmp_repo / UNIT).read_text()
    if old == "rarity: ":
        old = next(line for line in text.splitlines() if line.startswith("rarity: "))
        new = "rarity: uncomon"
    damage(tmp_repo, old, new)
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.exit_code == 1
    found = errors(result)
    assert len(found) == 1, found
    assert expected in found[0]


def test_a_misspelt_unit_in_a_scenario_gets_a_difflib_suggestion(cli, tmp_path):
    copy_data(tmp_path)
    path = tmp_path / "scenarios/denmark-strait-1941.yaml"
    path.write_text(path.read_text().replace("unit: hms-hood", "unit: hms-hod", 1))
    result = cli("validate", "--quiet", root=tmp_path)
    assert "no unit with id 'hms-hod' (did you mean 'hms-hood'" in result.output


def test_a_broken_unit_is_reported_once_not_again_by_each_scenario_using_it(cli, tmp_path):
    copy_data(tmp_path)
    damage(tmp_path, "points: ", "points: many #", path=__import__("pathlib").Path("cards/uk/hms-hood.yaml"))
    result = cli("validate", "--quiet", root=tmp_path)
    found = errors(result)
    assert len(found) == 1 and found[0].startswith("cards/uk/hms-hood.yaml"), found


@pytest.mark.parametrize(
    "old, new, words",
    [
        ("hull: 2\n", "hull: 2\n   colour: grey\n", "indented further than the field above it"),
        ("name: HMS Cossack", "name: HMS: Cossack", "needs quotes"),
        ("main: [6, 5, 5, null]", "main: [6, 5, 5, null", "a list in [ ] is not closed"),
    ],
)
def test_yaml_syntax_errors_in_plain_words_at_their_position(tmp_repo, cli, old, new, words):
    damage(tmp_repo, old, new)
    result = cli("validate", "--quiet", root=tmp_repo)
    found = errors(result)
    assert len(found) == 1 and "YAML syntax error" in found[0] and words in found[0], found
    line = int(found[0].split(":")[1])
    assert abs(line - line_of(tmp_repo, new.strip().splitlines()[-1].strip()[:12])) <= 1


@pytest.mark.slow
def test_an_invalid_scenario_blocks_only_its_own_pack(cli, tmp_path):
    copy_data(tmp_path)
    bad = tmp_path / "scenarios/denmark-strait-1941.yaml"
    bad.write_text(bad.read_text().replace("unit: hms-hood", "unit: hms-hod", 1))
    result = cli(
        "build",
        "--variant",
        "large-map",
        "--variant",
        "off-grid",
        "--paper",
        "letter",
        "--jobs",
        "1",
        root=tmp_path,
    )
    assert result.exit_code == 1
    assert "scenarios/denmark-strait-1941.yaml" in result.output and "did you mean 'hms-hood'" in result.output
    built = {
        p.relative_to(tmp_path / "build").as_posix()
        for p in (tmp_path / "build").rglob("*.pdf")
        if ".cache" not in p.parts
    }
    assert "off-grid/cards.pdf" in built
    assert not any("denmark-strait" in p for p in built)
    assert any(p.startswith("scenarios/") for p in built), built  # the other packs of these variants


# --- every problem of a file in one report (issue 45) -----------------------------------------

READER_REFUSES = {  # values the YAML reader itself refuses, each beside a value the schema refuses
    "not finite": ("-.inf", "is not a finite number"),
    "too long a number": ("1" * 60, "a number of 60 characters"),
    "a tag": ("!!binary aGVsbG8=", "the tag !!binary is not used in data files"),
}


@pytest.mark.parametrize("kind", sorted(READER_REFUSES))
def test_a_value_the_reader_refuses_hides_no_other_problem_of_its_file(tmp_path, cli, kind):
    """Every bad value of a file in one report: a value refused as the file is read (a number
    that is not finite, too long, a tag) beside values the schema refuses, in a unit and a
    scenario, and a key that is no name beside a date key: each reported, the first time."""
    copy_data(tmp_path)
    value, said = READER_REFUSES[kind]
    damage(tmp_path, "\nhull: ", f"\nhull: {value}\nx_hull: ")  # the reader's, and an unknown field
    unit = (tmp_path / UNIT).read_text()
    unit = unit.replace("\npoints: ", "\npoints: 1e308\nx_points: ", 1)  # out of range, and another unknown field
    (tmp_path / UNIT).write_text(unit + "2024-01-01: a date key\n[a, b]: a list key\n")
    scenario = tmp_path / "scenarios/savo-island-1942.yaml"
    text = scenario.read_text().replace("  width: 40\n", "  width: 10000\n").replace("  height: 24\n", "  height: -8\n")
    scenario.write_text(text.replace("\nturn_limit: 8\n", f"\nturn_limit: {value}\n"))
    result = cli("validate", "--quiet", root=tmp_path)
    found = errors(result)
    unit_lines = [line for line in found if line.startswith(str(UNIT))]
    expected_unit = [
        (" hull: ", said),
        (" x_hull: ", "unknown field"),
        (" points: ", "1e+308 is greater than the maximum"),
        (" x_points: ", "unknown field"),
        (" 2024-01-01: ", "unknown field '2024-01-01'"),
        (": ?: ", "a list or mapping as a key"),
    ]
    for field, part in expected_unit:
        assert any(field in line and part in line for line in unit_lines), (field, part, unit_lines)
    assert len(unit_lines) == len(expected_unit), unit_lines  # and none said twice
    scenario_lines = [line for line in found if line.startswith("scenarios/savo-island-1942.yaml")]
    expected_scenario = [
        (" map.width: ", "10000 is greater than"),
        (" map.height: ", "-8 is less"),
        (" turn_limit: ", said),
    ]
    for field, part in expected_scenario:
        assert any(field in line and part in line for line in scenario_lines), (field, part, scenario_lines)
