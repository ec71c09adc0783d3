"""``wastools build --roster`` reads a fleet as the fleet builder copies it (text, Markdown,
BBCode): the lines, not the link, with every line it does not understand located. The
builder's own output is read back in tests/browser/test_fleet_browser.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from wastools.core.problems import DataError
from wastools.site.roster import load_roster
from wastools.site.roster_text import unit_code
from wastools.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
HEX = VARIANTS["hex"].title


def roster_of(tmp_path: Path, repo, text: str):
    path = tmp_path / "fleet.txt"
    path.write_text(text, "utf-8")
    return load_roster(path, repo, ROOT)


def problems_of(tmp_path: Path, repo, text: str) -> list[str]:
    with pytest.raises(DataError) as caught:
        roster_of(tmp_path, repo, text)
    return ["fleet.txt:" + str(p).split("fleet.txt:", 1)[1] for p in caught.value.problems]


FORMATS = {
    "text": f"Convoy escort (0 of 120 points, 4 cards, {HEX} deck)\n\n1 x Bismarck (Germany, battleship)\n"
    "3 x HMS Cossack (United Kingdom, destroyer, 7 points each)\n\nFleet rules:\n- Base game: legal: 74 of 120\n",
    "markdown": f"**Convoy \\*escort\\*** (0 of 120 points, 4 cards, {HEX} deck)\n\n- 1 x Bismarck (x)\n"
    "- 3 x HMS Cossack (y)\n\nFleet rules:\n- Base game: anything\n\n[Open this fleet](fleet.html#fleet=aoba:9)\n",
    "bbcode": f"[b]Convoy escort[/b] (0 of 120 points, 4 cards, {HEX} deck)\n\n[list]\n[*]1 x Bismarck (z)\n"
    "[*]3 x HMS Cossack\n[/list]\nFleet rules:\n[list]\n[*]Base game: x\n[/list]\n\n"
    "[url=https://example.org/fleet.html#c=1.ABCD]Open[/url]\n",
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_markup_is_read_from_its_lines(tmp_path, repo, fmt):
    roster = roster_of(tmp_path, repo, FORMATS[fmt])
    assert roster.name == ("Convoy *escort*" if fmt == "markdown" else "Convoy escort")
    assert (roster.variant, roster.points_limit) == ("hex", 120)
    assert [(u.id, n) for u, n in roster.entries] == [("bismarck", 1), ("hms-cossack", 3)]  # not the link's aoba


def test_every_line_not_understood_is_located(tmp_path, repo):
    text = (
        "Raid (0 of 50 points, 2 cards, No such deck deck)\nsome chatter\n2 x HMS Nonesuch (UK)\n"
        "1 x Bismarck\n150 x Atago\nFleet rules:\n- Nothing: at all\n"
    )
    said = problems_of(tmp_path, repo, text)
    assert any(p.startswith("fleet.txt:1:1: no deck called 'No such deck'") for p in said), said
    assert any(p.startswith("fleet.txt:2:1: not understood: 'some chatter'") for p in said), said
    assert any(p.startswith("fleet.txt:3:1: no unit called 'HMS Nonesuch (UK)'") for p in said), said
    assert any(p.startswith("fleet.txt:5:1: expected a whole number of cards from 1 to 99") for p in said), said
    assert any(p.startswith("fleet.txt:7:1: not understood") for p in said), said
    assert not any(":4:" in p for p in said), said


def test_a_bad_name_or_limit_is_a_problem_of_the_head_line(tmp_path, repo):
    said = problems_of(tmp_path, repo, f"Evil\u202eName (0 of 99999 points, 1 card, {HEX} deck)\n1 x Bismarck\n")
    assert any(p.startswith("fleet.txt:1:1: holds") for p in said), said
    assert any(p.startswith("fleet.txt:1:1: expected a whole number of points") for p in said), said


def test_a_shared_name_is_told_apart_by_the_link_in_either_form(tmp_path, repo):
    units = dict(repo.units)
    units["atago"] = dataclasses.replace(units["atago"], name="Twin")
    units["aoba"] = dataclasses.replace(units["aoba"], name="Twin")
    twins = dataclasses.replace(repo, units=units)
    head = f"Twins (0 of 100 points, 2 cards, {HEX} deck)\n2 x Twin (Japan, cruiser)\n"
    for link in ("Link: fleet.html#fleet=aoba:2", f"Link: https://example.org/fleet.html#c=1.{unit_code('aoba')}:2"):
        roster = roster_of(tmp_path, twins, head + link + "\n")
        assert [(u.id, n) for u, n in roster.entries] == [("aoba", 2)]
    said = problems_of(tmp_path, twins, head)
    assert said == [
        "fleet.txt:2:1: more than one unit is called 'Twin (Japan, cruiser)' and the text's link does not say which"
    ]


def test_a_roster_file_is_still_read_as_yaml(tmp_path, repo):
    path = tmp_path / "r.yaml"
    path.write_text("name: Screen\nvariant: hex\npoints_limit: 50\nunits:\n  - unit: hms-cossack\n    count: 2\n")
    roster = load_roster(path, repo, ROOT)
    assert roster.name == "Screen" and [(u.id, n) for u, n in roster.entries] == [("hms-cossack", 2)]


def test_the_tool_prints_a_fleet_text(tmp_path, cli):
    path = tmp_path / "convoy.txt"
    path.write_text(FORMATS["bbcode"], "utf-8")
    result = cli("build", "--roster", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "rosters" / "convoy.pdf").stat().st_size > 0


def test_a_line_of_many_brackets_is_one_problem(tmp_path, repo):
    said = problems_of(
        tmp_path, repo, f"Long (0 of 50 points, 1 card, {HEX} deck)\n1 x Bismarck\n2 x {'a (' * 40000}\n"
    )
    assert len(said) == 1 and said[0].startswith("fleet.txt:3:1: no unit called 'a (a (")
