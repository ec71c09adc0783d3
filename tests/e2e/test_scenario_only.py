"""`wastools build --scenario ID` from the command line, and what a whole build does with the
pack of a scenario that has become invalid."""

from __future__ import annotations

import json

import pytest

from tests.conftest import copy_data

SAVO = "savo-island-1942"


def test_build_scenario_makes_that_pack_and_nothing_else(cli, tmp_path):
    root = copy_data(tmp_path / "data")
    result = cli("build", "--scenario", SAVO, "--paper", "letter", "--jobs", "1", root=root)
    assert result.exit_code == 0, result.output
    made = sorted(
        p.relative_to(root / "build").as_posix()
        for p in (root / "build").rglob("*")
        if p.is_file() and p.name != ".wastools-lock"
    )
    assert made == ["manifest.json", f"scenarios/{SAVO}-poster.pdf", f"scenarios/{SAVO}.pdf"]
    assert sorted(json.loads((root / "build" / "manifest.json").read_text())["outputs"]) == made[1:]


def test_a_mistyped_scenario_is_refused_with_the_closest_id(cli):
    result = cli("build", "--scenario", "savo-isand-1942")
    assert result.exit_code == 2
    assert "unknown scenario 'savo-isand-1942' (did you mean 'savo-island-1942'?)" in result.output


def test_building_a_broken_scenario_shows_its_located_problems(cli, tmp_path):
    root = copy_data(tmp_path / "data")
    path = root / "scenarios" / f"{SAVO}.yaml"
    path.write_text(path.read_text().replace("unit: atago", "unit: atagoo", 1))
    result = cli("build", "--scenario", SAVO, "--paper", "letter", "--jobs", "1", root=root)
    assert result.exit_code == 1, result.output
    assert f"scenarios/{SAVO}.yaml:" in result.output and "did you mean 'atago'" in result.output
    assert "unknown scenario" not in result.output
    assert not (root / "build" / "scenarios").exists()


@pytest.mark.slow
def test_a_whole_build_removes_the_old_pack_of_a_scenario_made_invalid(cli, tmp_path):
    root = copy_data(tmp_path / "data")
    (root / "wastools.toml").write_text('[build]\nvariants = ["hex"]\npapers = ["letter"]\n')  # whole, but small
    assert cli("build", "--jobs", "1", root=root).exit_code == 0
    packs = root / "build" / "scenarios"
    assert sorted(p.name for p in packs.iterdir()) == [f"{SAVO}-poster.pdf", f"{SAVO}.pdf"]
    path = root / "scenarios" / f"{SAVO}.yaml"
    path.write_text(path.read_text().replace("unit: atago", "unit: atagoo", 1))
    result = cli("build", "--jobs", "1", root=root)
    assert result.exit_code == 1
    assert f"not built, because of the errors above: scenarios/{SAVO}.yaml" in result.output
    assert f"scenarios/{SAVO}.yaml:" in result.output and "did you mean 'atago'" in result.output
    assert list(packs.iterdir()) == []
    listed = json.loads((root / "build" / "manifest.json").read_text())["outputs"]
    assert not [rel for rel in listed if SAVO in rel] and "hex/cards.pdf" in listed
    assert not (root / "build" / "site" / "scenarios" / f"{SAVO}.html").exists()
