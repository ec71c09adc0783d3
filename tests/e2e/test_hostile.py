"""Hostile and broken input: a corpus of bad files, limits, no reach outside, killed
builds and fuzzing. Every bad file gives a located message, exit code 1, no traceback,
and leaves build/ exactly as it was."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT, copy_store
from wastools.cli import main
from wastools.core.store import Store
from wastools.pipeline.output import TEMPORARY_SUFFIX

UNIT = "cards/uk/hms-cossack.yaml"
SCENARIO = "scenarios/skirmish.yaml"
LOCATED = re.compile(r"^(?P<path>[\w./-]+):(?P<line>\d+):(?P<col>\d+): ", re.M)

MINI_SCENARIO = """# yaml-language-server: $schema=../schemas/scenario.schema.json
id: skirmish
title: A skirmish
variant: hex
briefing: Two destroyers meet at dawn.
map:
  width: 12
  height: 8
points_limit: 20
turn_limit: 6
sides:
  - side: royal-navy
    name: Royal Navy
    forces:
      - unit: hms-cossack
  - side: us-navy
    name: US Navy
    forces:
      - unit: uss-fletcher-dd-445
objectives:
  - name: Buoy
    at: [6, 4]
    points: 50
victory:
  - Sink the other destroyer.
"""


def mini_repo(path: Path) -> Path:
    """A small but complete data repository: catalogues, three units, one scenario."""
    shutil.copytree(DATA / "schemas", path / "schemas")
    for name in ("sets.yaml", "nations.yaml", "abilities.yaml"):
        (path / "cards").mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / "cards" / name, path / "cards" / name)
    for unit in ("uk/hms-cossack.yaml", "us/uss-fletcher-dd-445.yaml", "japan/a6m2-zeke.yaml"):
        (path / "cards" / unit).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(DATA / "cards" / unit, path / "cards" / unit)
    (path / "scenarios").mkdir()
    (path / SCENARIO).write_text(MINI_SCENARIO)
    return path


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=True)


def snapshot(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def built_mini(tmp_path_factory):
    root = mini_repo(tmp_path_factory.mktemp("mini"))
    result = run(root, "build", "--variant", "hex", "--paper", "letter", "--jobs", "1")
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def mini(built_mini, tmp_path):
    """A copy of the built mini repository and its store: it builds as the original would."""
    root = tmp_path / "repo"
    shutil.copytree(built_mini, root)
    copy_store(built_mini, root)
    return root


# --- the corpus ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    target: str
    damage: Callable[[bytes], bytes]
    message: str  # part of the expected message
    valid: bool = False  # accepted data (printed literally, or only fmt objects)


def sub(old: str, new: str) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        assert old.encode() in data, old
        return data.replace(old.encode(), new.encode(), 1)

    return apply


def const(data: bytes) -> Callable[[bytes], bytes]:
    return lambda _old: data


HEADER = b"# yaml-language-server: $schema=../../schemas/unit.schema.json\n"
SCEN_HEADER = b"# yaml-language-server: $schema=../schemas/scenario.schema.json\n"
BOMB = HEADER + (
    b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, "
    b"*b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, "
    b"*d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
)

CASES = [
    Case("syntax error", UNIT, sub("main: [6, 5, 5, null]", "main: [6, 5, 5, null"), "YAML syntax error"),
    Case("tab indentation", UNIT, sub("  main:", "\tmain:"), "tab character"),
    Case("duplicate key", UNIT, sub("points: 7\n", "points: 7\npoints: 9\n"), "duplicate key"),
    Case("alias bomb", UNIT, const(BOMB), "limit max_nodes"),
    Case("file of many megabytes", UNIT, lambda d: d + b"# " + b"x" * 3_000_000 + b"\n", "over the limit of 250000"),
    Case("deep flow nesting", UNIT, lambda d: d + b"deep: " + b"[" * 200 + b"]" * 200 + b"\n", "limit max_depth"),
    Case(
        "deep block nesting", UNIT, lambda d: d + b"".join(b"  " * i + b"k:\n" for i in range(200)), "limit max_depth"
    ),
    Case("wrong type", UNIT, sub("points: 7", "points: seven"), "is not of type 'integer'"),
    Case(
        "wrong type in a list",
        UNIT,
        sub("main: [6, 5, 5, null]", "main: [6, 5, five, null]"),
        "'five' is not of type 'integer' or 'null'",
    ),
    Case("float for an integer", UNIT, sub("hull: 2", "hull: 2.5"), "is not of type 'integer'"),
    Case(
        "number too large",
        UNIT,
        sub("points: 7", "points: 100000000000000000000000000000"),
        "is greater than the maximum",
    ),
    Case("negative armour", UNIT, sub("armor: 2", "armor: -1"), "less than the minimum"),
    Case("unknown field", UNIT, sub("hull: 2\n", "hull: 2\ncolour: grey\n"), "unknown field 'colour'"),
    Case("missing field", UNIT, sub("armor: 2\n", ""), "required field is missing"),
    Case("unknown set", UNIT, sub("set: condition-zebra", "set: no-such-set"), "is not in cards/sets.yaml"),
    Case("unknown nation", UNIT, sub("nation: uk", "nation: atlantis"), "is not one of"),
    Case("unknown ability", UNIT, sub("  - Valiant Stand", "  - Valiant Stnad"), "is not in cards/abilities.yaml"),
    Case("number above the set", UNIT, sub("number: 11", "number: 99"), "above the 40 units"),
    Case(
        "attack not allowed",
        UNIT,
        sub("  main: [6, 5, 5, null]", "  main: [6, 5, 5, null]\n  bomb: [3, null, null, null]"),
        "cannot have a bomb attack",
    ),
    Case(
        "figure without source",
        UNIT,
        sub("    source: http://pwencycl.kgbudge.com/T/r/Tribal_class_uk.htm\n", ""),
        "required field is missing",
    ),
    Case("id is not the file name", UNIT, sub("id: hms-cossack", "id: hms-cossak"), "must equal the file name"),
    Case(
        "non-UTF-8 bytes",
        UNIT,
        sub("name: HMS Cossack", "name: HMS Cossack\xff".encode("latin-1").decode("latin-1"))
        if False
        else (lambda d: d.replace(b"name: HMS Cossack", b"name: HMS Coss\xffack", 1)),
        "not UTF-8",
    ),
    Case("empty file", UNIT, const(b""), "file is empty"),
    Case("only comments", UNIT, const(HEADER + b"# nothing here\n"), "file is empty"),
    Case("a list, not a mapping", UNIT, const(HEADER + b"- hms-cossack\n"), "expected a mapping"),
    Case("control character in a name", UNIT, sub("name: HMS Cossack", 'name: "HMS\\x07Cossack"'), "U+0007"),
    Case(
        "$schema pointing outside",
        UNIT,
        lambda d: d.replace(b"../../schemas/unit.schema.json", b"../../../../etc/passwd", 1),
        "must name '../../schemas/unit.schema.json'",
    ),
    Case("no $schema line", UNIT, lambda d: d.split(b"\n", 1)[1], "first line must be"),
    Case(
        "scenario: unknown unit",
        SCENARIO,
        sub("unit: hms-cossack", "unit: hms-nonesuch"),
        "no unit with id 'hms-nonesuch'",
    ),
    Case("scenario: off the map", SCENARIO, sub("at: [6, 4]", "at: [60, 4]"), "is off the map"),
    Case(
        "scenario: over the points limit", SCENARIO, sub("points_limit: 20", "points_limit: 5"), "over the limit of 5"
    ),
    Case("scenario: syntax error", SCENARIO, sub("title: A skirmish", "title: [A skirmish"), "YAML syntax error"),
    Case("scenario: alias bomb", SCENARIO, const(SCEN_HEADER + BOMB.split(b"\n", 1)[1]), "limit max_nodes"),
    Case("scenario: wrong type", SCENARIO, sub("turn_limit: 6", "turn_limit: six"), "is not of type 'integer'"),
    Case(
        "scenario: air groups on a destroyer",
        SCENARIO,
        sub(
            "      - unit: hms-cossack\n",
            "      - unit: hms-cossack\n        air_groups:\n          - unit: a6m2-zeke\n",
        ),
        "not a carrier",
    ),
    Case(
        "scenario: unknown side",
        SCENARIO,
        lambda d: d + b"garrisons:\n  - name: G\n    side: martians\n    at: [1, 1]\n    units: 1\n",
        "no side with id 'martians'",
    ),
    # issue 29's classes, one member each (tests/test_hostile_classes.py generates the rest)
    Case("NUL byte in a name", UNIT, sub("name: HMS Cossack", "name: HMS\x00Cossack"), "U+0000"),
    Case("right-to-left override", UNIT, sub("name: HMS Cossack", "name: HMS \u202eCossack"), "U+202E"),
    Case("escaped lone surrogate", UNIT, sub("name: HMS Cossack", 'name: "HMS \\ud800"'), "lone surrogate"),
    Case("not-a-number figure", UNIT, sub("value: 36", "value: .nan"), "not a finite number"),
    Case("5,001-digit number", UNIT, sub("points: 7", "points: " + "7" * 5001), "a number of 5001 characters"),
    Case("number as a key", UNIT, sub("hull: 2\n", "hull: 2\n1: x\n"), "the key '1' is a number"),
    Case("list where a type belongs", UNIT, sub("type: destroyer", "type: [destroyer]"), "is not one of"),
    Case("binary tag", UNIT, sub("name: HMS Cossack", "name: !!binary SE1T"), "the tag !!binary"),
    Case("recursive alias", UNIT, sub("hull: 2\n", "hull: 2\nloop: &a [*a]\n"), "stands inside the value"),
    Case(
        "scenario: list where a side belongs",
        SCENARIO,
        lambda d: d + b"garrisons:\n  - name: G\n    side: [royal-navy]\n    at: [1, 1]\n    units: 1\n",
        "is not of type 'string'",
    ),
    Case("scenario: not-a-number position", SCENARIO, sub("at: [6, 4]", "at: [.nan, 4]"), "not a finite number"),
    Case(
        "scenario: map past the limits",
        SCENARIO,
        sub("width: 12\n  height: 8", "width: 250\n  height: 250"),
        "over the limit of 5000",
    ),
    # accepted: data that only looks dangerous, or only breaks the canonical layout
    Case(
        "markup and url() in a name",
        UNIT,
        sub("name: HMS Cossack", "name: '<b>HMS</b> url(file:///etc/passwd) <link rel=attachment href=x>'"),
        "",
        valid=True,
    ),
    Case(
        "path-like text in a briefing",
        SCENARIO,
        sub("briefing: Two destroyers meet at dawn.", "briefing: ../../../../etc/passwd file:///etc/shadow"),
        "",
        valid=True,
    ),
    Case("byte-order mark", UNIT, lambda d: b"\xef\xbb\xbf" + d, "would reformat", valid=True),
    Case("CRLF line ends", UNIT, lambda d: d.replace(b"\n", b"\r\n"), "would reformat", valid=True),
]


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 30 and len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input_is_located_and_changes_nothing(mini, case):
    target = mini / case.target
    target.write_bytes(case.damage(target.read_bytes()))
    before = snapshot(mini / "build")
    build = run(mini, "build", "--variant", "hex", "--paper", "letter", "--jobs", "1")
    validate = run(mini, "validate")
    for result in (build, validate):
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        assert "Traceback" not in result.output
    if case.valid:
        assert validate.exit_code == 0, validate.output
        assert build.exit_code == 0, build.output
        if case.message:
            fmt = run(mini, "fmt", "--check")
            assert fmt.exit_code == 1 and case.message in fmt.output
        return
    assert validate.exit_code == 1 and build.exit_code == 1, (validate.output, build.output)
    located = [m for m in LOCATED.finditer(validate.output) if m["path"] == case.target]
    assert located and all(int(m["line"]) >= 1 and int(m["col"]) >= 1 for m in located), validate.output
    assert case.message in validate.output, validate.output
    after = snapshot(mini / "build")
    if case.target == SCENARIO:  # a bad scenario blocks its own pack only: that file is left as it was
        assert after["scenarios/skirmish.pdf"] == before["scenarios/skirmish.pdf"]
        assert "scenarios/skirmish.yaml" in build.output
        return
    assert after == before, "a failed build changed build/"


def _card_text(page) -> str:
    """The page's text card by card (a name may wrap, so a row of three cards is not one line)."""
    from wastools.render import sheets

    layout = sheets.load_layout("letter")
    if (round(page.width), round(page.height)) != (round(layout["page"]["width"]), round(layout["page"]["height"])):
        return page.extract_text() or ""
    parts = []
    for slot in layout["slots"]:
        top = page.height - slot["y"] - 252
        box = (slot["x"], max(0, top), slot["x"] + 180, min(page.height, top + 252))
        parts.append(page.crop(box).extract_text() or "")
    return "".join(parts) + (page.extract_text() or "")


def test_markup_everywhere_is_printed_literally(mini):
    """Every text field of a unit and a scenario carries markup; the PDFs show it as text
    and contain no link, attachment or external reference."""
    marks = "<i>x</i> url(http://x.invalid/a) <link rel=attachment href=/etc/hosts>"
    unit = mini / UNIT
    text = unit.read_text()
    text = text.replace("name: HMS Cossack", f"name: '{marks}'")
    text = text.replace("class: Tribal", f"class: '{marks}'")
    unit.write_text(text)
    scen = mini / SCENARIO
    s = scen.read_text()
    for old in ("title: A skirmish", "briefing: Two destroyers meet at dawn.", "name: Royal Navy", "name: Buoy"):
        key, _, value = old.partition(": ")
        s = s.replace(old, f"{key}: '{value} {marks}'")
    s = s.replace("  - Sink the other destroyer.", f"  - 'Sink the other destroyer. {marks}'")
    scen.write_text(s)
    result = run(mini, "build", "--variant", "hex", "--paper", "letter", "--jobs", "1")
    assert result.exit_code == 0, result.output
    import pdfplumber

    for pdf_path in [mini / "build/hex/cards.pdf", mini / "build/scenarios/skirmish.pdf"]:
        raw = pdf_path.read_bytes()
        for marker in (b"/EmbeddedFile", b"/URI", b"/Launch", b"/JavaScript", b"/GoToR"):
            assert marker not in raw, (pdf_path.name, marker)
        with pdfplumber.open(pdf_path) as pdf:
            text = "".join("".join((_card_text(p) or "").split()) for p in pdf.pages[:3])
        # a wrapped name may put the points box between "<link" and "rel=" on the line
        assert "<i>x</i>" in text and "<link" in text and "rel=attachmenthref=/etc/hosts>" in text, (
            pdf_path.name,
            text,
        )


# --- limits ------------------------------------------------------------------------------------


def test_limits_are_settings(mini):
    unit = mini / UNIT
    unit.write_bytes(unit.read_bytes() + b"# " + b"x" * 2000 + b"\n")
    assert run(mini, "--limit", "max_file_bytes=1000", "validate").exit_code == 1
    assert run(mini, "--limit", "max_file_bytes=100000", "validate").exit_code == 0
    assert run(mini, "--limit", "max_depth=2", "validate").exit_code == 1
    bad = run(mini, "--limit", "max_bananas=3", "validate")
    assert bad.exit_code == 2 and "max_file_bytes" in bad.output


# --- no reach outside --------------------------------------------------------------------------


def test_a_build_opens_nothing_outside_and_makes_no_socket(mini, tmp_path):
    """Runs a whole build in this process under an audit hook."""

    code = f"""
import os, sys, sysconfig
root = {str(mini)!r}
allowed = [os.path.join(root, d) for d in ("cards", "schemas", "scenarios", "build", ".build-tmp")]
project = {str(ROOT)!r}
allowed += [os.path.join(project, d) for d in ("templates", "assets", "layouts", "wastools", "schemas")]
allowed += [sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"], sysconfig.get_paths()["stdlib"]]
allowed += ["/dev/null", "/dev/urandom"]
from wastools.core.store import cache_home
allowed += [str(cache_home())]  # the user's store, outside every repository
import tempfile
from wastools.pipeline.pool import SCRATCH_PREFIX
scratch = os.path.join(tempfile.gettempdir(), SCRATCH_PREFIX)  # the pool's own temporary folders
# import what a build imports (a library reading its own files at import is not the data's doing)
from wastools import cli, pipeline
import wastools.render.cards, wastools.render.maps, wastools.render.rulers, wastools.render.counters
import wastools.render.aid, wastools.render.scenario_pack, wastools.render.calibration, wastools.render.fetcher
import weasyprint, reportlab.pdfgen.canvas, pypdf, tqdm
bad = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if not any(path == a or path.startswith(a.rstrip("/") + "/") for a in allowed):
            if not path.startswith(scratch):
                bad.append(path)
    elif event in ("socket.__new__", "socket.connect", "socket.getaddrinfo", "urllib.Request"):
        bad.append(event)
sys.addaudithook(hook)
try:
    argv = ["--root", root, "build", "--variant", "hex", "--variant", "large-map", "--paper", "letter", "--jobs", "1"]
    cli.main(argv, standalone_mode=False)
finally:
    print("BAD:" + repr(sorted(set(bad))))
"""
    shutil.rmtree(mini / "build")
    # shutil.rmtree opens entries by name relative to a directory descriptor, and the audit
    # event carries only that name: run from the temp folder so such names resolve there.
    (mini / ".build-tmp").mkdir(exist_ok=True)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=mini / ".build-tmp", timeout=600
    )
    assert "BAD:[]" in result.stdout, result.stdout[-3000:] + result.stderr[-3000:]
    assert (mini / "build" / "hex" / "cards.pdf").exists()


# --- killed builds -----------------------------------------------------------------------------


def _wait_for_group_to_go(group: int, seconds: float = 10.0) -> None:
    """Until no process of the killed group runs (a zombie that nobody reaps counts as gone)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        members = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _group_of(p) == group]
        if all(_state_of(p) in ("Z", "X", None) for p in members):
            return
        time.sleep(0.02)


def _group_of(proc: Path) -> int | None:
    try:
        return int((proc / "stat").read_text().rsplit(")", 1)[1].split()[2])
    except (OSError, IndexError, ValueError):
        return None


def _state_of(proc: Path) -> str | None:
    try:
        return (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


# the commands that write into docs/, with the file each writes
DOC_WRITERS = {
    "rules": (("rules", "--write"), "docs/variants/hex.md"),
    "air-chart": (("air-chart", "--write"), "docs/data/air-range-chart.md"),
}
# where a link can stand on the way to the file: docs/, the folder in it, the file itself
LINK_PLACES = ["docs", "folder", "file"]


@pytest.mark.parametrize("place", LINK_PLACES)
@pytest.mark.parametrize("command", DOC_WRITERS)
def test_a_command_writing_docs_follows_no_link(tmp_path, command, place):
    """``rules --write`` and ``air-chart --write`` refuse a symbolic link anywhere on the way
    to the doc they write (to a folder or file outside the repository): one line naming
    the link, exit 1, nothing written outside, and the link left as it was."""
    root = mini_repo(tmp_path / "repo")
    shutil.copytree(ROOT / "rules", root / "rules")
    args, rel = DOC_WRITERS[command]
    outside = tmp_path / "outside"
    (outside / Path(rel).parent.name).mkdir(parents=True)
    (outside / Path(rel).name).write_text("outside\n")
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    doc = root / rel
    link = {"docs": root / "docs", "folder": doc.parent, "file": doc}[place]
    link.parent.mkdir(parents=True, exist_ok=True)
    target = {"docs": outside, "folder": outside / doc.parent.name, "file": outside / doc.name}[place]
    link.symlink_to(target)
    result = run(root, *args)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    shown = link.relative_to(root).as_posix()
    assert len(lines) == 1 and lines[0].startswith(f"error: {shown}: is a symbolic link"), result.output
    assert "Traceback" not in result.output
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before
    assert link.is_symlink() and os.readlink(link) == str(target)


@pytest.mark.parametrize("command", DOC_WRITERS)
def test_a_command_writing_docs_writes_plain_files(tmp_path, command):
    """Without a link, the same commands make their folders and write the doc."""
    root = mini_repo(tmp_path / "repo")
    shutil.copytree(ROOT / "rules", root / "rules")
    args, rel = DOC_WRITERS[command]
    result = run(root, *args)
    assert result.exit_code == 0 and f"wrote {rel}" in result.output, result.output
    assert (root / rel).is_file() and not (root / rel).is_symlink() and (root / rel).stat().st_size > 100


def test_a_killed_build_leaves_every_output_whole(mini, tmp_path):
    """... and what it left in the temporary folder goes with the next build, which itself
    leaves nothing there."""
    from pypdf import PdfReader

    before = snapshot(mini / "build")
    outputs = {k for k in before if k.endswith(".pdf") and not k.startswith(".cache")}
    cmd = [
        sys.executable,
        "-m",
        "wastools",
        "--root",
        str(mini),
        "build",
        "--variant",
        "hex",
        "--paper",
        "letter",
        "--scale-x",
        "1.01",
        "--jobs",
        "2",
    ]
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
    deadline = time.time() + 300
    changed = False
    while time.time() < deadline and proc.poll() is None:
        now = snapshot(mini / "build")
        if any(now.get(k) != before.get(k) for k in outputs):
            changed = True
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the build finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    _wait_for_group_to_go(proc.pid)  # its workers die too, a moment later on a busy machine
    assert changed
    after = snapshot(mini / "build")
    # a write the kill cut short leaves only its hidden temporary file (".<name>.<random>.tmp",
    # never under an output's name), which the next build clears (checked below)
    half_written = {k for k in after if Path(k).name.startswith(".") and k.endswith(TEMPORARY_SUFFIX)}
    stray = set(after) - set(before) - half_written
    assert stray <= {k for k in after if k.startswith(".cache/")}, "a stray file appeared in build/"
    for name in outputs:
        PdfReader(mini / "build" / name)  # every output parses: old or new, never half
    assert list(temporary.iterdir()), "the killed build left no scratch folder: nothing to clear"
    rerun = subprocess.run([*cmd[:-1], "1"], capture_output=True, text=True, env=env, timeout=300)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert list(temporary.iterdir()) == []
    assert not [k for k in half_written if (mini / "build" / k).exists()], "the next build left a temporary file"
    import json

    manifest = json.loads((mini / "build" / "manifest.json").read_text())
    for rel, entry in manifest["outputs"].items():
        assert hashlib.sha256((mini / "build" / rel).read_bytes()).hexdigest() == entry["sha256"]
    assert not (mini / ".build-tmp").exists(), [(p, p.stat().st_mtime) for p in (mini / ".build-tmp").rglob("*")]


# --- fuzzing -----------------------------------------------------------------------------------


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(unit=st.deferred(lambda: __import__("tests.strategies", fromlist=["units"]).units()))
def test_random_valid_units_render_under_every_variant(repo, unit):
    from wastools.render import cards
    from wastools.variants import VARIANTS

    views = [
        cards.card_view(v.adapt(unit, None, crippled), v, repo) for v in VARIANTS.values() for crippled in (False, True)
    ]
    htmls = [str(cards.render_card_html(view)) for view in views]
    pages = cards.lay_out_cards(htmls, views=views)  # bodies drawn, or left to WeasyPrint
    assert len(pages) == len(htmls) and all(pages)


MUTATIONS = st.sampled_from(["delete", "insert", "duplicate", "swap", "retype", "indent", "bytes"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    ops=st.lists(st.tuples(MUTATIONS, st.integers(0, 10_000), st.text(min_size=1, max_size=6)), min_size=1, max_size=4)
)
def test_mutated_files_give_located_problems_never_exceptions(ops, tmp_path_factory):
    from wastools.data import repository

    text = (ROOT / UNIT).read_bytes()
    for op, where, payload in ops:
        lines = text.split(b"\n")
        i = where % max(1, len(lines))
        pos = where % max(1, len(text))
        if op == "delete":
            text = text[:pos] + text[pos + 1 + where % 7 :]
        elif op == "insert":
            text = text[:pos] + payload.encode("utf-8", "replace") + text[pos:]
        elif op == "duplicate":
            lines.insert(i, lines[i])
            text = b"\n".join(lines)
        elif op == "swap" and len(lines) > 2:
            j = (i + 1) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            text = b"\n".join(lines)
        elif op == "retype":
            value = b": " + payload.encode("utf-8", "replace").replace(b"\n", b" ") + b"\n"
            text = re.sub(
                rb": \d+\n", lambda _m, value=value: value, text, count=1
            )  # a function: backslashes stay literal
        elif op == "indent":
            lines[i] = b"   " + lines[i]
            text = b"\n".join(lines)
        elif op == "bytes":
            text = text[:pos] + bytes([0xFF, where % 256]) + text[pos:]
    folder = FUZZ_REPO.setdefault("root", _fuzz_root(tmp_path_factory))
    target = folder / UNIT
    target.write_bytes(text)
    # with the store, as `wastools validate` runs: the unchanged files come from it
    result = repository.validate(folder, [target], cache=Store.for_repository(folder))
    for problem in result.problems:
        assert problem.path == UNIT and problem.line >= 1 and problem.column >= 1 and problem.message


FUZZ_REPO: dict = {}


def _fuzz_root(factory) -> Path:
    return mini_repo(factory.mktemp("fuzz"))


# --- links and paths out of the repository -----------------------------------------------------


def _outside_unit(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    secret = outside / "secret.yaml"
    secret.write_text("root:x:0:0:SECRET-CONTENT\n")
    return secret


LINKS = {
    "unit file linked to a file outside": ("cards/uk/x.yaml", "file"),
    "nation folder linked outside": ("cards/evil", "folder"),
    "scenario linked outside": ("scenarios/linked.yaml", "file"),
    "catalogue linked outside": ("cards/sets.yaml", "file"),
}


@pytest.mark.parametrize("name", LINKS)
def test_a_symbolic_link_is_refused_by_its_own_name_and_not_opened(mini, tmp_path, name):
    where, kind = LINKS[name]
    secret = _outside_unit(tmp_path)
    link = mini / where
    if link.exists():
        link.unlink()
    link.symlink_to(secret if kind == "file" else secret.parent)
    before = snapshot(mini / "build")
    for args in (["validate"], ["build", "--variant", "hex", "--paper", "letter", "--jobs", "1"], ["fmt", "--check"]):
        result = run(mini, *args)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        assert "SECRET" not in result.output and str(secret.parent) not in result.output
        if args[0] != "fmt":
            assert result.exit_code == 1, result.output
            assert re.search(
                rf"^{re.escape(where)}[\w./-]*:1:1: this {kind} is a symbolic link", result.output, re.M
            ), result.output
    after = snapshot(mini / "build")
    if where.startswith("scenarios/"):  # a bad scenario blocks only its own pack: the rest is rebuilt
        assert not any("linked" in name for name in after)
    else:
        assert after == before


def test_links_are_never_opened_audit_hook(mini, tmp_path):
    secret = _outside_unit(tmp_path)
    (mini / "cards/uk/x.yaml").symlink_to(secret)
    (mini / "cards/evil").symlink_to(secret.parent)
    (mini / "scenarios/linked.yaml").symlink_to(secret)
    code = f"""
import sys
opened = []
def note_open(event, args):
    if event == "open" and isinstance(args[0], str):
        opened.append(str(args[0]))
sys.addaudithook(note_open)
from wastools import cli
for args in (["validate"], ["build", "--variant", "hex", "--paper", "letter", "--jobs", "1"], ["fmt", "--check"]):
    try:
        cli.main(["--root", {str(mini)!r}, *args], standalone_mode=False)
    except SystemExit:
        pass
print("OPENED:" + repr(sorted({{p for p in opened if "outside" in p}})))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert "OPENED:[]" in result.stdout, result.stdout[-2000:] + result.stderr[-2000:]
