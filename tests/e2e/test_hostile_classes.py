"""Classes of hostile data, each with a test that generates its members (issue 29).

Every class is a kind of input a pull request can commit: values of the wrong type in any
field, characters that reorder or hide text, numbers that are not finite or too long,
nesting and aliases past the limits, keys that are not names, tags, stray bytes. For each,
validation gives located problems (file:line:column) and never an exception; what it
accepts, the card and scenario views render."""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT
from tests.e2e.test_hostile import mini_repo
from wastools.core.problems import Problem
from wastools.core.store import Store
from wastools.data import repository
from wastools.data.yamlio import DEFAULT_LIMITS, Limits, load_document, parse_document

UNIT = "cards/uk/hms-cossack.yaml"
SCENARIO = "scenarios/skirmish.yaml"
FILES = [UNIT, "cards/sets.yaml", "cards/nations.yaml", "cards/abilities.yaml", SCENARIO, "rules/hex.yaml"]
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def validated(root: Path, paths: list[Path] | None = None):
    """``repository.validate`` as ``wastools validate`` runs it, with the store: the files a
    test leaves alone come from it, the damaged one is read and checked afresh (its bytes
    are its key), so each example costs one file, not the whole repository."""
    return repository.validate(root, paths, cache=Store.for_repository(root))


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A small repository (catalogues, three units, a scenario, a rules register); each test
    restores what it damages."""
    path = mini_repo(tmp_path_factory.mktemp("classes"))
    (path / "rules").mkdir()
    shutil.copy(ROOT / "rules" / "hex.yaml", path / "rules" / "hex.yaml")
    assert not repository.validate(path).errors
    return path


class Damaged:
    """Writes new bytes into a file of the repository for the length of a ``with``."""

    def __init__(self, root: Path, rel: str, data: bytes):
        self.path, self.data = root / rel, data

    def __enter__(self) -> Path:
        self.before = self.path.read_bytes()
        self.path.write_bytes(self.data)
        return self.path

    def __exit__(self, *exc) -> None:
        self.path.write_bytes(self.before)


def header_and_data(path: Path) -> tuple[bytes, dict]:
    header = path.read_bytes().split(b"\n", 1)[0] + b"\n"
    doc, problems = load_document(path, path.name)
    assert doc is not None, problems
    return header, json.loads(json.dumps(doc.data))


def as_yaml(header: bytes, data) -> bytes:
    """Data written as YAML (JSON is YAML), every string in double quotes with escapes."""
    return header + json.dumps(data, indent=1, ensure_ascii=True).encode() + b"\n"


def assert_located(problems: list[Problem], rel: str, written: bytes) -> None:
    """Every problem has a place, and those in ``rel`` (whose bytes were ``written``) lie in it."""
    lines = written.count(b"\n") + 1
    for problem in problems:
        assert problem.line >= 1 and problem.column >= 1 and problem.message, problem
        if problem.path == rel:
            assert problem.line <= lines, problem


def paths_in(node, at=()):
    yield at
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths_in(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths_in(value, (*at, i))


def replaced(data, path: tuple, value):
    copy = json.loads(json.dumps(data))
    node = copy
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return copy


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


# --- every field given a value of another type ---------------------------------------------------


@settings(SLOW, max_examples=120)
@given(data=st.data())
def test_any_field_of_any_file_given_any_value_is_located_never_an_exception(root, data):
    rel = data.draw(st.sampled_from(FILES), label="file")
    header, content = header_and_data(root / rel)
    path = data.draw(st.sampled_from([p for p in paths_in(content) if p]), label="field")
    value = data.draw(JSON_VALUES, label="value")
    written = as_yaml(header, replaced(content, path, value))
    with Damaged(root, rel, written):
        result = validated(root)
    assert_located(result.problems, rel, written)


@pytest.mark.parametrize(
    "rel, path, value",
    [
        (UNIT, ("type",), ["destroyer"]),
        (UNIT, ("nation",), {"uk": 1}),
        (UNIT, ("set",), ["condition-zebra"]),
        (UNIT, ("abilities",), {"a": 1}),
        (SCENARIO, ("sides", 0, "side"), ["royal-navy"]),
        (SCENARIO, ("sides",), {"a": 1}),
        (SCENARIO, ("map",), [12, 8]),
        (SCENARIO, ("objectives", 0, "at"), {"x": 1}),
        ("cards/sets.yaml", ("sets", 0, "total"), "forty"),
        ("cards/sets.yaml", ("sets", 0, "id"), ["x"]),
        ("cards/nations.yaml", ("nations", 0, "id"), 7),
        ("cards/abilities.yaml", ("abilities", 0, "name"), ["a", "b"]),
    ],
)
def test_a_list_where_a_name_belongs_is_one_located_problem(root, rel, path, value):
    header, content = header_and_data(root / rel)
    written = as_yaml(header, replaced(content, path, value))
    with Damaged(root, rel, written):
        result = validated(root)
    mine = [p for p in result.errors if p.path == rel]
    assert mine, result.problems
    assert_located(result.problems, rel, written)


# --- characters ----------------------------------------------------------------------------------


def _refused_characters() -> list[str]:
    """Members of every refused class: controls, format characters (bidi overrides and
    isolates, zero-width ones, the soft hyphen), private use, separators, noncharacters."""
    chosen = [chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"] + ["\x7f", "\x85"]
    chosen += [chr(c) for c in range(0x80, 0x10000) if unicodedata.category(chr(c)) in ("Cf", "Zl", "Zp")]
    chosen += ["\ue000", "\uf8ff", "\U000f0000", "\ufdd0", "\ufffe", "\U0001fffe"]
    return chosen


REFUSED = _refused_characters()
STRING_FIELDS = ["name", "class", "note"]


def _quoted(text: str, escape: bool) -> str:
    """A YAML double-quoted scalar: with ``escape``, every character outside printable
    ASCII written as an escape (YAML's \\U for those beyond the first plane)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif escape and not (" " <= ch <= "~"):
            out.append(f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


@settings(max_examples=80, deadline=None)
@given(ch=st.sampled_from(REFUSED), where=st.integers(0, 20), field=st.sampled_from(STRING_FIELDS), raw=st.booleans())
def test_a_refused_character_in_a_string_is_located(ch, where, field, raw):
    """Written raw (where UTF-8 can carry it) or as an escape in double quotes."""
    text = (DATA / UNIT).read_text()
    old = re.search(rf"^( *){field}: (.*)$", text, re.M)
    assert old
    value = old[2].strip("'\"")
    i = where % (len(value) + 1)
    new = f"{old[1]}{field}: {_quoted(value[:i] + ch + value[i:], escape=not raw)}"
    damaged = text.replace(old[0], new, 1).encode("utf-8")
    doc, problems = parse_document(damaged, UNIT)
    line = text[: old.start()].count("\n") + 1
    assert doc is None and problems, new
    code = f"U+{ord(ch):04X}"
    assert any(p.line == line and code in p.message for p in problems), (new, problems)


def test_surrogates_only_come_as_escapes_and_are_refused():
    for escape in ("\\ud800", "\\udfff", "\\ud83d"):
        doc, problems = parse_document(b'# x\nname: "HMS ' + escape.encode() + b' Cossack"\n', "f.yaml")
        assert doc is None and problems[0].line == 2 and "lone surrogate" in problems[0].message


def test_ordinary_text_of_every_script_is_accepted():
    names = ["Zuikaku 瑞鶴", "Dunkerque — «Force de Raid»", "Ἀθῆναι", "Щорс", "Västerås", "שמרה", "ﺍﻟﻘﺎﻫﺮﺓ", "Ōyodo"]
    for name in names:
        doc, problems = parse_document(f'# x\nname: "{name}"\n'.encode(), "f.yaml")
        assert doc is not None and not problems, (name, problems)


# --- numbers -------------------------------------------------------------------------------------


NOT_FINITE = [".nan", ".NaN", ".NAN", ".inf", ".Inf", "-.inf", "+.inf", "-.INF", "1e999", "-1e400", "1.5e309"]


def _numeric_paths(content) -> list[tuple]:
    return [p for p in paths_in(content) if p and isinstance(_at(content, p), (int, float))]


def _at(node, path):
    for part in path:
        node = node[part]
    return node


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_number_that_is_not_finite_is_refused_where_it_stands(data):
    rel = data.draw(st.sampled_from([UNIT, SCENARIO]))
    text = (DATA / UNIT).read_text() if rel == UNIT else _mini_scenario()
    numbers = [m for m in re.finditer(r"(?<=[:\[,] )-?\d+(\.\d+)?(?=[,\]\n])", text)]
    chosen = data.draw(st.sampled_from(numbers))
    value = data.draw(st.sampled_from(NOT_FINITE))
    damaged = text[: chosen.start()] + value + text[chosen.end() :]
    doc, problems = parse_document(damaged.encode(), rel)
    line = text[: chosen.start()].count("\n") + 1
    col = chosen.start() - text.rfind("\n", 0, chosen.start())
    assert doc is None and any(p.line == line and p.column == col and "finite" in p.message for p in problems), (
        value,
        problems,
    )


def _mini_scenario() -> str:
    from tests.e2e.test_hostile import MINI_SCENARIO

    return MINI_SCENARIO


@settings(max_examples=30, deadline=None)
@given(digits=st.integers(51, 6000), sign=st.sampled_from(["", "-"]), fraction=st.booleans())
def test_a_number_longer_than_fifty_characters_is_located(digits, sign, fraction):
    number = sign + "9" * digits + (".5" if fraction else "")
    doc, problems = parse_document(f"# x\nid: x\npoints: {number}\n".encode(), "f.yaml")
    assert doc is None and [(p.line, p.column, p.field) for p in problems] == [(3, 9, "points")], problems
    assert "characters" in problems[0].message and len(problems[0].message) < 200


# --- nesting, aliases, keys, tags, bytes ---------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(depth=st.integers(33, 3000), flow=st.booleans(), line=st.integers(2, 6))
def test_nesting_past_the_limit_is_located_at_the_level_that_passes_it(depth, flow, line):
    before = "".join(f"f{i}: {i}\n" for i in range(line - 2))
    if flow:
        body = "deep: " + "[" * depth + "]" * depth + "\n"
        where = (line, len("deep: ") + 32)  # the 32nd bracket opens level 33 (the file's mapping is 1)
    else:
        body = "".join("  " * i + f"k{i}:\n" for i in range(min(depth, 400)))
        where = (line + 31, 2 * 31 + 1)  # key k31 is at level 33 (the file's mapping is 1, k0 is 2)
    doc, problems = parse_document(f"# x\n{before}{body}".encode(), "f.yaml")
    assert doc is None and len(problems) == 1 and "max_depth" in problems[0].message
    assert (problems[0].line, problems[0].column) == where, problems


@settings(max_examples=40, deadline=None)
@given(fan=st.integers(2, 12), levels=st.integers(1, 9), limit=st.sampled_from([1_000, 100_000]))
def test_aliases_are_counted_by_what_they_stand_for(fan, levels, limit):
    """A file of ``levels`` anchors, each a list of ``fan`` aliases to the one before: it
    stands for about fan**levels values, refused as soon as the count passes the limit."""
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * fan)}]" for i in range(1, levels + 1)]
    text = "# x\n" + "\n".join(lines) + "\n"
    doc, problems = parse_document(text.encode(), "f.yaml", Limits(max_nodes=limit))
    stands_for = 1 + sum(1 + _values(fan, i) for i in range(levels + 1))  # the mapping, each key and value
    if stands_for <= limit:
        assert doc is not None and not problems, problems
    else:
        assert doc is None and len(problems) == 1 and "max_nodes" in problems[0].message
        assert problems[0].line >= 2 and len(str(problems[0])) < 300


def _values(fan: int, level: int) -> int:
    """Values anchor ``level`` stands for besides its key: its list and what is in it."""
    return 2 if level == 0 else 1 + fan * _values(fan, level - 1)


def test_an_alias_inside_its_own_anchor_is_refused_at_the_alias():
    for text, where in ((b"# x\nid: &a [*a]\n", (2, 9)), (b"# x\na: &a\n  b: *a\n", (3, 6))):
        doc, problems = parse_document(text, "f.yaml")
        assert doc is None and [(p.line, p.column) for p in problems] == [where], problems


KEYS = ["1", "-7", "2.5", "true", "false", "null", "~", "[a, b]", "{a: 1}", ".nan"]


@settings(max_examples=40, deadline=None)
@given(key=st.sampled_from(KEYS), line=st.integers(2, 12))
def test_a_key_that_is_not_a_name_is_located_at_the_key(key, line):
    text = (DATA / UNIT).read_text().splitlines()
    indent = len(text[line - 1]) - len(text[line - 1].lstrip())
    if text[line - 1].strip().startswith("- "):
        return  # a list item: a key there would be a new mapping, another test's matter
    new = " " * indent + ("? " + key + "\n" + " " * indent + ": 1" if key.startswith(("[", "{")) else f"{key}: 1")
    damaged = "\n".join(text[: line - 1] + [new] + text[line - 1 :]) + "\n"
    doc, problems = parse_document(damaged.encode(), UNIT)
    assert doc is None and problems
    col = indent + (3 if key.startswith(("[", "{")) else 1)
    assert any((p.line, p.column) == (line, col) and "key" in p.message for p in problems), (new, problems)


@pytest.mark.parametrize(
    "value", ["!!binary aGVsbG8=", "!!python/object:os.system x", "!custom x", "!!timestamp 2001-12-14", "!!set {a}"]
)
def test_tags_are_refused_where_they_stand(value):
    doc, problems = parse_document(f"# x\nid: x\nname: {value}\n".encode(), "f.yaml")
    assert doc is None and [(p.line, p.column, p.field) for p in problems] == [(3, 7, "name")], problems


def test_dates_and_merge_keys_stay_text():
    doc, problems = parse_document(b"# x\nid: 2020-02-30\nbase: &b {x: 1}\nother:\n  <<: *b\n", "f.yaml")
    assert doc is not None and doc.data["id"] == "2020-02-30" and doc.data["other"] == {"<<": {"x": 1}}


@settings(SLOW, max_examples=60)
@given(position=st.integers(0, 10_000), byte=st.integers(0, 255), count=st.integers(1, 3))
def test_stray_bytes_anywhere_give_located_problems(root, position, byte, count):
    text = (root / UNIT).read_bytes()
    i = position % len(text)
    written = text[:i] + bytes([byte]) * count + text[i:]
    with Damaged(root, UNIT, written):
        result = validated(root, [root / UNIT])
    assert_located(result.problems, UNIT, written)
    if byte < 0x20 and chr(byte) not in "\t\n\r" or byte == 0x7F:
        line = text[:i].count(b"\n") + 1
        assert any(p.line == line for p in result.errors), result.problems


@pytest.mark.parametrize(
    "damage, where",
    [
        (lambda t: t.replace(b"name: HMS Cossack", b"name: HMS\x00Cossack"), (3, 10)),
        (lambda t: t.replace(b"points: 7", b"points: " + b"1" * 5001), (10, 9)),
        (lambda t: t.replace(b"hull: 2\n", b"hull: 2\n1: x\n"), (15, 1)),
        (lambda t: t.replace(b"hull: 2\n", b"hull: 2\ndeep: " + b"[" * 40 + b"]" * 40 + b"\n"), (15, 38)),
        (lambda t: t.replace(b"name: HMS Cossack", "name: HMS \u202eCossack".encode()), (3, 11)),
        (lambda t: t.replace(b"name: HMS Cossack", b'name: "HMS \\u202eCossack"'), (3, 7)),
    ],
    ids=["NUL byte", "5001-digit number", "number as a key", "deep nesting", "raw bidi override", "escaped override"],
)
def test_the_issues_examples_are_located_where_they_are(damage, where):
    text = (DATA / UNIT).read_bytes()
    doc, problems = parse_document(damage(text), UNIT)
    assert doc is None and (problems[0].line, problems[0].column) == where, problems


# --- what validates, renders ---------------------------------------------------------------------


TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=40)


@settings(SLOW, max_examples=40)
@given(name=TEXT, klass=TEXT, source=TEXT, points=st.integers(-5, 10**6), speed=st.integers(-2, 50))
def test_a_unit_that_validates_renders_its_cards(root, name, klass, source, points, speed):
    """Any text, any numbers: what validation accepts, every variant adapts and its card view
    and HTML render (the cheap path; ``test_hostile`` builds PDFs)."""
    header, content = header_and_data(root / UNIT)
    content.update(name=name, points=points, speed=speed)
    content["class"] = klass
    content["history"]["top_speed"]["source"] = source
    written = as_yaml(header, content)
    with Damaged(root, UNIT, written):
        result = validated(root)
    assert_located(result.problems, UNIT, written)
    if result.repository is None:
        assert any(p.path == UNIT for p in result.errors)
        return
    _render_unit(result.repository.units["hms-cossack"], result.repository)


def _render_unit(unit, repo) -> None:
    from wastools.render import cards
    from wastools.variants import VARIANTS

    for variant in VARIANTS.values():
        for crippled in (False, True):
            view = cards.card_view(variant.adapt(unit, None, crippled), variant, repo)
            assert str(cards.render_card_html(view))


COORD = st.floats(-20, 60, allow_nan=False).map(lambda v: round(v, 2))


@settings(SLOW, max_examples=30)
@given(
    title=TEXT,
    briefing=TEXT,
    side=TEXT,
    objective=TEXT,
    variant=st.sampled_from(["standard", "large-map", "tabletop-cm", "hex", "off-grid", "tabletop-inches"]),
    size=st.tuples(st.floats(0.5, 250, allow_nan=False), st.floats(0.5, 250, allow_nan=False)),
    at=st.tuples(COORD, COORD),
    island=st.lists(st.tuples(COORD, COORD), min_size=3, max_size=8),
)
def test_a_scenario_that_validates_renders_its_views(root, title, briefing, side, objective, variant, size, at, island):
    header, content = header_and_data(root / SCENARIO)
    content.update(title=title, briefing=briefing, variant=variant)
    content["map"] = {"width": round(size[0], 2), "height": round(size[1], 2)}
    content["sides"][0]["name"] = side
    content["objectives"][0].update(name=objective, at=list(at))
    content["terrain"] = [{"kind": "island", "name": "Isle", "points": [list(p) for p in island]}]
    written = as_yaml(header, content)
    with Damaged(root, SCENARIO, written):
        result = validated(root)
    assert_located(result.problems, SCENARIO, written)
    scenarios = result.usable.scenarios if result.usable else {}
    if "skirmish" not in scenarios:
        assert any(p.path == SCENARIO for p in result.errors)
        return
    _render_scenario(scenarios["skirmish"])


def _render_scenario(scenario) -> None:
    from wastools.data.map_size import scenario_geometry
    from wastools.render import scenario_pack
    from wastools.site.scenario import map_plan

    view = scenario_pack.briefing_view(scenario)
    assert view["title"] == scenario.title
    spec = scenario_pack.scenario_map(scenario)
    assert spec.width == scenario_geometry(scenario.board, scenario.data["map"]).width
    assert map_plan(scenario)["width"] > 0


@pytest.mark.slow
def test_a_generated_unit_and_scenario_that_validate_build_their_pdfs(tmp_path):
    """One example of each, through a whole build: bidi-free text of many scripts, far
    coordinates, a scenario's map at the limits."""
    root = mini_repo(tmp_path / "repo")
    unit = root / UNIT
    unit.write_text(unit.read_text().replace("name: HMS Cossack", 'name: "Κοζάκος 哥萨克 <b>&amp;</b> \\"quoted\\""'))
    scenario = root / SCENARIO
    scenario.write_text(
        scenario.read_text().replace("width: 12", "width: 60").replace("title: A skirmish", "title: «Ῥόδος» 1942")
    )
    from click.testing import CliRunner

    from wastools.cli import main

    result = CliRunner().invoke(
        main, ["--root", str(root), "build", "--variant", "hex", "--paper", "a4", "--jobs", "1"]
    )
    assert result.exit_code == 0, result.output
    assert (root / "build/hex/cards-a4.pdf").stat().st_size and (root / "build/scenarios/skirmish-a4.pdf").exists()


# --- limits on reading -----------------------------------------------------------------------------


def test_a_file_is_measured_before_it_is_read(root):
    """A sparse 3 GB unit file is refused by its size, without reading it (the memory it
    takes is the bound on the work)."""
    import tracemalloc

    big = root / "cards/uk/huge.yaml"
    with big.open("wb") as handle:
        handle.truncate(3 * 2**30)
    try:
        tracemalloc.start()
        doc, problems = load_document(big, "cards/uk/huge.yaml")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        big.unlink()
    assert doc is None and "over the limit of 250000 (max_file_bytes)" in problems[0].message
    assert peak < 1_000_000, peak


# the child's peak memory, measured by a parent of its own (RUSAGE_CHILDREN of pytest would
# count every child pytest ever had): a build that read the file whole needed gigabytes
MEASURED = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stdout.write(done.stdout + done.stderr)
"""


def test_a_build_measures_a_file_before_it_reads_it(root):
    """A sparse 2 GB unit file stops ``wastools build`` at once with one located line, in
    bounded memory: the data's fingerprint, taken before validation, does not read it."""
    import subprocess
    import sys

    big = root / "cards/uk/huge.yaml"
    with big.open("wb") as handle:
        handle.truncate(2 * 2**30)
    try:
        build = [sys.executable, "-m", "wastools", "--root", str(root), "build", "--variant", "hex", "--jobs", "1"]
        done = subprocess.run([sys.executable, "-c", MEASURED, *build], capture_output=True, text=True, timeout=300)
    finally:
        big.unlink()
    figures, output = done.stdout.split("\n", 1)
    code, peak_kib = figures.split()
    assert int(code) == 1 and "Traceback" not in output, output
    assert "cards/uk/huge.yaml:1:1: file is 2147483648 bytes, over the limit of 250000 (max_file_bytes)" in output
    assert int(peak_kib) < 300_000, peak_kib


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_something_named_like_a_data_file_that_is_no_file_is_refused_by_name(root, kind):
    import os

    target = root / "cards/uk/not-a-file.yaml"
    target.mkdir() if kind == "folder" else os.mkfifo(target)
    try:
        result = validated(root)
        import subprocess
        import sys

        for args in (["validate"], ["build", "--variant", "hex", "--paper", "letter", "--jobs", "1"]):
            done = subprocess.run(
                [sys.executable, "-m", "wastools", "--root", str(root), *args],
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 1 and "cards/uk/not-a-file.yaml:1:1:" in done.stdout, done.stdout + done.stderr
            assert "Traceback" not in done.stdout + done.stderr
    finally:
        target.rmdir() if kind == "folder" else target.unlink()
    found = [p for p in result.errors if p.path == "cards/uk/not-a-file.yaml"]
    assert found and (found[0].line, found[0].column) == (1, 1), result.problems
    assert ("a folder" if kind == "folder" else "a named pipe") in found[0].message and "not opened" in found[0].message


def test_the_limits_help_names_every_limit_with_its_default():
    from wastools.cli import LIMITS_HELP

    for name, value in vars(DEFAULT_LIMITS).items():
        assert f"{name} ({value})" in LIMITS_HELP


@pytest.mark.parametrize("value", ["0", "-1", "１２", "²", "1e3", "12 ", "", "9" * 30, "0x10"])
def test_a_limit_must_be_plain_ascii_digits(root, value):
    from click.testing import CliRunner

    from wastools.cli import main

    result = CliRunner().invoke(main, ["--root", str(root), "--limit", f"max_depth={value}", "validate"])
    assert result.exit_code == 2 and "Traceback" not in result.output and "max_depth" in result.output


def test_a_clash_in_a_thousand_files_is_reported_in_few_lines(tmp_path):
    """Set numbers shared by 1,000 units: each message names three others, and the report
    shows max_messages_per_kind of them and counts the rest."""
    from click.testing import CliRunner

    from wastools.cli import main

    root = mini_repo(tmp_path / "repo")
    source = (root / UNIT).read_text()
    for i in range(1000):
        (root / f"cards/uk/copy-{i}.yaml").write_text(source.replace("id: hms-cossack", f"id: copy-{i}"))
    result = CliRunner().invoke(main, ["--root", str(root), "validate"])
    lines = result.output.splitlines()
    assert result.exit_code == 1 and len(lines) <= DEFAULT_LIMITS.max_messages_per_kind + 3, len(lines)
    assert max(map(len, lines)) < 400 and "and 950 more like it" in result.output, lines[-3:]


def test_messages_are_capped_per_file_with_a_count(root):
    from wastools.core.problems import capped

    problems = [Problem("a.yaml", i, 1, "x", f"problem {i}") for i in range(1, 101)]
    shown = capped(problems, 20, 1000)
    assert len(shown) == 21 and "and 80 more problems in this file" in shown[-1].message
    assert shown[-1].more == 79


@settings(SLOW, max_examples=25)
@given(low=st.integers(1, 10**12), high=st.integers(1, 10**12), parts=st.integers(1, 40))
def test_line_ranges_in_a_rules_register_are_never_expanded(root, low, high, parts):
    """A rules register's line ranges are checked as ranges: a range of a trillion lines
    costs what a range of two does (held to the work: no range of more lines than a seed
    has is ever expanded by the register's code)."""
    from unittest import mock

    from wastools.data.repository import rules_register

    rel = "rules/hex.yaml"
    header, content = header_and_data(root / rel)
    content["entries"][0]["lines"] = ", ".join([f"{low}-{high}"] * parts)
    written = as_yaml(header, content)

    def bounded_range(*args: int) -> range:
        span = range(*args)
        assert len(span) <= 100_000, f"a range of {len(span)} lines expanded"
        return span

    with Damaged(root, rel, written), mock.patch.object(rules_register, "range", bounded_range, create=True):
        result = validated(root)
    assert_located(result.problems, rel, written)
    valid = len(str(low)) <= 5 and len(str(high)) <= 5 and low <= high and (parts == 1 or low == high)
    assert bool([p for p in result.errors if p.path == rel]) != valid, result.errors


WORDS = st.sampled_from(["Slow", "Range", "Heavy", "{n}", "2", "12", "x3", "4x"])


@settings(max_examples=300, deadline=None)
@given(
    names=st.lists(st.lists(WORDS, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=8, unique=True),
    text=st.lists(st.sampled_from(["Slow", "Range", "Heavy", "2", "12", "7", "x3", "4x"]), min_size=1, max_size=3),
)
def test_an_ability_is_found_as_a_scan_of_the_whole_catalogue_finds_it(names, text):
    """The catalogue is looked up, not scanned (a long hostile catalogue cost seconds a
    unit), with the scan's answer: the first listed entry the printed text matches."""
    from wastools.core.abilities import ability_regex
    from wastools.data.repository.integrity import Context

    patterns = [(ability_regex(name), name) for name in names]
    printed = " ".join(text)
    expected = None
    for regex, pattern in patterns:
        found = regex.match(printed)
        if found:
            expected = (pattern, int(found.group(1)) if found.groups() else None)
            break
    got = Context({}, {}, {}, patterns).match_ability(printed)
    assert (got and (got.pattern, got.n)) == expected or (got is None and expected is None)


# --- regular expressions in a schema --------------------------------------------------------------

RUNAWAY = ["(a+)+$", "(a|a)*$", "(a|aa)+$", "(.*a){20}$"]  # the regex package too runs out of time
EVIL_PATTERNS = RUNAWAY + ["^(a*)*$", "(a|a?)+$", "^(\\w+\\s?)*$"]  # these, it answers at once
NEAR_MISS = "a" * 5000 + "!"  # almost matches each pattern: Python's re backtracks for ever


@pytest.mark.parametrize("place", ["pattern", "patternProperties"])
@pytest.mark.parametrize("evil", EVIL_PATTERNS)
def test_a_schema_pattern_that_backtracks_is_stopped_with_a_located_problem(root, evil, place):
    """A schema's pattern that backtracks without end (``pattern`` on a value, or a
    ``patternProperties`` key with ``additionalProperties: false``) against a long value
    that almost matches it: ``validate`` answers with a problem at the value (the ``regex``
    package answers some at once; the others run out of their time, and no more than
    ``SLOW_MATCHES`` of a file do: the bound on the work)."""
    from wastools.data.repository.patterns import SLOW_MATCHES

    schema_path = root / "schemas/unit.schema.json"
    schema = json.loads(schema_path.read_text())
    if place == "pattern":
        schema["properties"]["name"] = {"type": "string", "pattern": evil}
        unit = (root / UNIT).read_bytes().replace(b"name: HMS Cossack", b"name: " + NEAR_MISS.encode())
        expected = ({(3, 7)}, "name")
    else:
        schema["patternProperties"] = {evil: {}}
        before = (root / UNIT).read_bytes()  # an explicit key: a plain one has at most 1,024 characters
        unit = before + b"? " + NEAR_MISS.encode() + b"\n: 1\n"
        expected = ({(before.count(b"\n") + n, 3) for n in (1, 2)}, NEAR_MISS[:10])  # the key, or its value
    with Damaged(root, "schemas/unit.schema.json", json.dumps(schema).encode()), Damaged(root, UNIT, unit):
        result = validated(root)
    assert sum("took more than" in p.message for p in result.errors if p.path == UNIT) <= SLOW_MATCHES
    found = [p for p in result.errors if p.path == UNIT and p.field.startswith(expected[1])]
    assert len(found) == 1 and (found[0].line, found[0].column) in expected[0], result.errors
    timed_out = "took more than" in found[0].message
    assert (evil in found[0].message) if timed_out else found[0].message.startswith(("'aaaa", "unknown field")), found
    assert timed_out or evil not in RUNAWAY, found


def test_the_matches_that_time_out_in_one_file_are_few():
    """After a few timed-out matches in one document, its other matches are refused untried:
    a file with many near misses costs a bounded time (held to the matches tried, not seconds)."""
    from wastools.data.repository.patterns import SLOW_MATCHES, SafeValidator, pattern_budget

    checker = SafeValidator({"type": "array", "items": {"type": "string", "pattern": "(a|aa)+$"}})
    with pattern_budget():
        errors = list(checker.iter_errors([NEAR_MISS] * 200))
    assert len(errors) == 200 and sum("not tried" in e.message for e in errors) == 200 - SLOW_MATCHES


@pytest.mark.parametrize(
    ("schema_part", "where"),
    [
        ({"properties": {"name": {"type": "string", "pattern": "a{1,2}{3}"}}}, ["properties", "name", "pattern"]),
        ({"patternProperties": {"[z-a]": {}}}, ["patternProperties", "[z-a]"]),
        ({"patternProperties": {"^x-": {}}, "unevaluatedProperties": False}, ["unevaluatedProperties"]),
    ],
)
def test_a_schema_pattern_that_cannot_be_timed_is_refused_where_it_is(root, schema_part, where):
    """A pattern the ``regex`` package cannot compile, or ``unevaluatedProperties`` beside
    ``patternProperties`` (python-jsonschema would match those with ``re``, untimed), makes
    the schema unusable, with a problem at its place in the schema file."""
    schema_path = root / "schemas/unit.schema.json"
    schema = json.loads(schema_path.read_text())
    for key, value in schema_part.items():
        schema[key] = value if key != "properties" else schema["properties"] | value
    with Damaged(root, "schemas/unit.schema.json", json.dumps(schema, indent=1).encode()):
        result = validated(root)
    found = [p for p in result.errors if p.path == "schemas/unit.schema.json"]
    assert found and found[0].field.startswith(where[0]), result.errors
    assert found[0].line > 1


def test_the_patterns_of_a_schema_are_found_where_they_are_keywords():
    """Every ``pattern`` and ``patternProperties`` key the regex package cannot compile, at
    its place; a "pattern" that is a property's name, or inside a value, is no pattern."""
    from wastools.data.repository.patterns import pattern_problems

    schema = {
        "properties": {"pattern": {"type": "string"}, "b": {"items": [{"pattern": "[z-a]"}]}},
        "patternProperties": {"^ok$": {}, "a**": {}},
        "enum": [{"pattern": "[z-a]"}],
        "const": {"pattern": "(("},
        "$defs": {"c": {"pattern": "(?<=a+)b", "unevaluatedProperties": False}},
    }
    found = pattern_problems(schema, pattern_properties=True)
    assert sorted(tuple(map(str, at)) for at, _why in found) == [
        ("$defs", "c", "unevaluatedProperties"),
        ("patternProperties", "a**"),
        ("properties", "b", "items", "0", "pattern"),
    ]
    assert not pattern_problems(schema["$defs"], pattern_properties=False)
