"""`wastools validate`: positions, every error, exit codes, no tracebacks."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from wastools.data import repository

UNIT = Path("cards/uk/hms-cossack.yaml")
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<field>[^:]*): ")


def damage(root: Path, old: str, new: str, path: Path = UNIT) -> None:
    text = (root / path).read_text()
    assert old in text, old
    (root / path).write_text(text.replace(old, new, 1))


def line_of(root: Path, needle: str, path: Path = UNIT) -> int:
    return next(i for i, line in enumerate((root / path).read_text().splitlines(), 1) if needle in line)


def test_fixture_repository_is_valid(cli):
    """The shipped data is checked by `wastools validate` in CI; the tests' own repository must be valid too."""
    result = cli("validate", "--quiet")
    assert result.exit_code == 0, result.output


def test_wrong_type_is_located(tmp_repo, cli):
    damage(tmp_repo, "main: [6, 5, 5, null]", "main: [6, 5, five, null]")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    line = line_of(tmp_repo, "five")
    assert (
        f"cards/uk/hms-cossack.yaml:{line}:16: attacks.main[2]: 'five' is not of type 'integer' or 'null'"
        in result.output
    )


def test_unknown_key_is_located_at_the_key(tmp_repo, cli):
    damage(tmp_repo, "hull: 2\n", "hull: 2\ncolour: grey\n")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert f"cards/uk/hms-cossack.yaml:{line_of(tmp_repo, 'colour')}:1: colour: unknown field 'colour'" in result.output


def test_yaml_syntax_error_is_located(tmp_repo, cli):
    damage(tmp_repo, "main: [6, 5, 5, null]", "main: [6, 5, 5, null")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    match = [m for m in map(LINE.match, result.output.splitlines()) if m and m["path"] == str(UNIT)]
    assert match and "YAML syntax error" in result.output
    assert int(match[0]["line"]) >= line_of(tmp_repo, "main: [6")


def test_duplicate_key_is_located(tmp_repo, cli):
    damage(tmp_repo, "points: 7\n", "points: 7\npoints: 8\n")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert f"cards/uk/hms-cossack.yaml:{line_of(tmp_repo, 'points: 8')}:1: points: duplicate key" in result.output


def test_duplicate_id_is_reported_on_the_copy(tmp_repo, cli):
    copy = tmp_repo / "cards/uk/hms-cossack-copy.yaml"
    shutil.copy(tmp_repo / UNIT, copy)
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    id_line = line_of(tmp_repo, "id: hms-cossack", Path("cards/uk/hms-cossack-copy.yaml"))
    assert (
        f"cards/uk/hms-cossack-copy.yaml:{id_line}:5: id: duplicate id 'hms-cossack': also used by "
        "cards/uk/hms-cossack.yaml"
    ) in result.output
    assert "must equal the file name 'hms-cossack-copy'" in result.output


def test_unknown_set_is_located(tmp_repo, cli):
    damage(tmp_repo, "set: condition-zebra", "set: condition-yankee")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert (
        f"cards/uk/hms-cossack.yaml:{line_of(tmp_repo, 'condition-yankee')}:6: set: set 'condition-yankee' is "
        "not in cards/sets.yaml"
    ) in result.output


def test_every_error_in_every_file_is_reported_sorted(tmp_repo, cli):
    damage(tmp_repo, "points: 7", "points: seven")
    damage(tmp_repo, "hull: 2", "hull: 0")
    damage(tmp_repo, "nation: us", "nation: mars", Path("cards/us/uss-fletcher-dd-445.yaml"))
    result = cli("validate", "--quiet", root=tmp_repo)
    lines = [line for line in result.output.splitlines() if LINE.match(line)]
    assert len(lines) == 3, result.output  # one mistake, one error (a wrong nation is not also in the wrong folder)
    assert lines == sorted(
        lines, key=lambda ln: (LINE.match(ln)["path"], int(LINE.match(ln)["line"]), int(LINE.match(ln)["col"]))
    )
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("number: 11", "number: 41", "above the 40 units"),
        ("nation: uk", "nation: us", "is in folder cards/uk/"),
        ("  - Valiant Stand", "  - Valiant Stnad", "is not in cards/abilities.yaml"),
        (
            "  main: [6, 5, 5, null]",
            "  main: [6, 5, 5, null]\n  bomb: [3, null, null, null]",
            "cannot have a bomb attack",
        ),
        ("hull: 2", "hull: 2\ncarrier_capacity: 2", "only carriers have a capacity"),
        ("number: 11", "number: 12", "condition-zebra #12 is used twice: also used by cards/uk/hms-royal-oak.yaml"),
    ],
)
def test_integrity_checks(tmp_repo, cli, old, new, message):
    damage(tmp_repo, old, new)
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert message in result.output


def test_validate_given_paths_reports_only_those(tmp_repo, cli):
    damage(tmp_repo, "points: 7", "points: seven")
    other = tmp_repo / "cards/us/uss-fletcher-dd-445.yaml"
    assert cli("validate", str(other), root=tmp_repo).exit_code == 0
    assert cli("validate", str(tmp_repo / UNIT), root=tmp_repo).exit_code == 1


def test_usage_error_exits_2(cli):
    assert cli("validate", "/no/such/file.yaml").exit_code == 2


def test_missing_history_with_a_reason_is_a_warning_without_one_an_error(tmp_repo, cli):
    path = tmp_repo / UNIT
    text = path.read_text()
    path.write_text(
        text[: text.index("history:")]
        + "history:\n  missing:\n    top_speed: no source found\n    length: no source found\n"
    )
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 0
    assert "warning: history.top_speed: missing (no source found)" in result.output
    path.write_text(text[: text.index("history:")])
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert "cards/uk/hms-cossack.yaml:1:1: history.top_speed: no figure and no reason" in result.output


def test_schema_line_is_required(tmp_repo, cli):
    path = tmp_repo / UNIT
    path.write_text("\n".join(path.read_text().splitlines()[1:]) + "\n")
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 1
    assert "cards/uk/hms-cossack.yaml:1:1: first line must be" in result.output


def test_model_is_built_only_from_valid_data(repo):
    cossack = repo.units["hms-cossack"]
    assert cossack.attack("main").bands == (6, 5, 5, None)
    assert cossack.history.top_speed.unit == "kn"
    assert repository.validate(Path(__file__).resolve().parents[2]).errors == []


def test_fmt_check_passes_on_the_repository(cli):
    result = cli("fmt", "--check")
    assert result.exit_code == 0, result.output


def test_fmt_rewrites_and_keeps_comments(tmp_repo, cli):
    path = tmp_repo / UNIT
    text = path.read_text().replace("points: 7\n", "points: 7  # checked against my card\n")
    lines = text.splitlines(keepends=True)
    # move `points` to the end: not canonical
    moved = [ln for ln in lines if not ln.startswith("points:")] + [ln for ln in lines if ln.startswith("points:")]
    path.write_text("".join(moved))
    check = cli("fmt", "--check", root=tmp_repo)
    assert check.exit_code == 1 and "would reformat cards/uk/hms-cossack.yaml" in check.output
    assert cli("fmt", root=tmp_repo).exit_code == 0
    fixed = path.read_text()
    assert fixed.index("points: 7  # checked against my card") < fixed.index("armor:")
    assert cli("fmt", "--check", root=tmp_repo).exit_code == 0


@pytest.mark.parametrize(
    "name, wanted",
    [("USS Test (DD-219)", "USS Test (DD 219)"), ("USS Test (CV8)", "USS Test (CV 8)"), ("Test MK. I", "Test Mk. I")],
)
def test_a_name_spelled_unlike_the_other_cards_is_a_located_warning(tmp_repo, cli, name, wanted):
    path = tmp_repo / UNIT
    text = path.read_text()
    path.write_text(text.replace("name: HMS Cossack\n", f"name: {name}\n", 1))
    result = cli("validate", root=tmp_repo)
    assert result.exit_code == 0  # a contributor's card still validates
    assert f"cards/uk/hms-cossack.yaml:3:7: warning: name: write {wanted!r}" in result.output, result.output
    path.write_text(text)
    assert "warning: name:" not in cli("validate", root=tmp_repo).output


WEAK = "http://piglix.com/piglix/Tribal-class_destroyer_(1936)"


def test_a_weak_source_is_a_located_warning_until_a_note_names_it(tmp_repo, cli):
    path = tmp_repo / UNIT
    text = path.read_text()
    speed_source = "    source: http://pwencycl.kgbudge.com/T/r/Tribal_class_uk.htm\n  length:"
    damage(tmp_repo, speed_source, speed_source.replace("http://pwencycl.kgbudge.com/T/r/Tribal_class_uk.htm", WEAK))
    result = cli("validate", "--sources", root=tmp_repo)
    assert result.exit_code == 0  # a contributor's card still validates
    line = line_of(tmp_repo, WEAK)
    located = f"cards/uk/hms-cossack.yaml:{line}:13: warning: history.top_speed.source: " + (
        "piglix.com is a machine-made copy of Wikipedia"
    )
    assert located in result.output, result.output
    assert f"hms-cossack.yaml:{line + 4}:" not in result.output  # the length keeps its reference
    # the whole repository: one line counts them; the file named: listed
    whole = cli("validate", root=tmp_repo)
    assert located not in whole.output
    assert re.search(r"warning: \d+ historical figures? cites? a weak source", whole.output)
    assert located in cli("validate", str(path), root=tmp_repo).output
    damage(tmp_repo, "  note: 'Tribal class (1936): 377 ft o/a'", "  note: 'speed kept from piglix.com: no other page'")
    assert "hms-cossack.yaml" not in cli("validate", root=tmp_repo).output
    path.write_text(text)


def test_a_personal_page_is_flagged_with_what_it_is(tmp_repo, cli):
    old = "http://pwencycl.kgbudge.com/T/r/Tribal_class_uk.htm\n  length:"
    damage(tmp_repo, old, old.replace("pwencycl.kgbudge.com/T/r", "someone.tripod.com/ships", 1))
    result = cli("validate", str(tmp_repo / UNIT), root=tmp_repo)
    assert result.exit_code == 0
    line = line_of(tmp_repo, "someone.tripod.com")
    expected = f"hms-cossack.yaml:{line}:13: warning: history.top_speed.source: someone.tripod.com is a free host of"
    assert expected + " personal pages" in result.output, result.output


@pytest.mark.parametrize(
    "host, weak",
    [
        ("piglix.com", True),
        ("www.piglix.com", True),
        ("warshipsresearch.blogspot.com", True),
        ("military-history.fandom.com", True),
        ("zims-en.kiwix.campusafrica.gos.orange.com", True),
        ("kiwix.lema.org", True),
        ("danielwalker.tripod.com", True),
        ("admiral31.dip.jp", True),
        ("military.sakura.ne.jp", True),
        ("www.tomstockton.us", True),
        ("midway1942.ru", True),
        ("wikisum.wiki", True),
        ("uboat.net.", False),
        ("en.wikipedia.org", False),
        ("notpiglix.com", False),
        ("pwencycl.kgbudge.com", False),
        ("navypedia.org", False),
        ("nottripod.com", False),
        ("navypedia.org:8080", False),
    ],
)
def test_weak_hosts_match_domains_and_their_subdomains_only(host, weak):
    from wastools.data.repository.sources import weak_host

    assert (weak_host(host) is not None) is weak


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_a_file_with_other_line_ends_reads_as_with_line_feeds(tmp_repo, cli, end):
    """CRLF and a lone CR (both line ends to YAML) give the problems, at the positions, that
    line feeds give: no spurious `$schema` error from a first line that runs on."""
    damage(tmp_repo, "main: [6, 5, 5, null]", "main: [6, 5, five, null]")
    expected = cli("validate", "--quiet", root=tmp_repo).output.splitlines()[:-1]
    path = tmp_repo / UNIT
    path.write_bytes(path.read_bytes().replace(b"\n", end.encode()))
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.output.splitlines()[:-1] == expected and expected, result.output
    fixed = cli("fmt", str(path), root=tmp_repo)
    assert fixed.exit_code == 0 and b"\r" not in path.read_bytes(), fixed.output


def test_counts_take_the_number_of_their_noun(tmp_repo, cli):
    damage(tmp_repo, "main: [6, 5, 5, null]", "main: [6, 5, five, null]")
    result = cli("validate", str(tmp_repo / UNIT), root=tmp_repo)
    assert re.search(r"checked \d+ files in [\d.]+ s: 1 error, 0 warnings$", result.output.strip()), result.output


def test_a_field_not_allowed_for_the_type_is_located_at_the_field(tmp_repo, cli):
    path = next(p for p in (tmp_repo / "cards").glob("*/*.yaml") if "\ntype: fighter\n" in p.read_text())
    rel = path.relative_to(tmp_repo).as_posix()
    path.write_text(path.read_text().replace("\npoints: ", "\nspeed: 3\npoints: ", 1))
    result = cli("validate", "--quiet", root=tmp_repo)
    line = line_of(tmp_repo, "speed: 3", Path(rel))
    assert f"{rel}:{line}:1: speed: field is not allowed for this type of unit" in result.output, result.output


@pytest.mark.parametrize(
    "written, field",
    [
        ("Flagship 1", "flagship: 1"),
        ("Carrier Capacity 2", "carrier_capacity: 2"),
        ("Vital Armour 5", "vital_armor: 5"),
    ],
)
def test_a_unit_field_written_as_an_ability_is_named_as_the_field(tmp_repo, cli, written, field):
    damage(tmp_repo, "  - Valiant Stand", f"  - {written}")
    result = cli("validate", "--quiet", root=tmp_repo)
    assert f"ability {written!r} is not in cards/abilities.yaml (it is the field" in result.output, result.output
    assert f"write `{field}`" in result.output and "did you mean" not in result.output
