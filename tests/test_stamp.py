"""A build with nothing to do stops before it loads the data (``wastools/stamp.py``), and
any change to the data, the settings, an output or the site makes it build again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import copy_data
from wastools import build as builder
from wastools import stamp
from wastools.fingerprints import DataState

pytestmark = pytest.mark.slow
ARGS = ("build", "--variant", "standard", "--unit", "hms-cossack", "--paper", "letter", "--jobs", "1")


def _never(*_args, **_kwargs):
    raise AssertionError("a build with nothing to do loaded the data")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A repository built once with ARGS, and what that build printed."""
    from click.testing import CliRunner

    from wastools.cli import main

    root = copy_data(tmp_path_factory.mktemp("stamped") / "data")
    first = CliRunner().invoke(main, ["--root", str(root), *ARGS], catch_exceptions=False)
    assert first.exit_code == 0, first.output
    return root


def _run(root: Path, *extra: str):
    from click.testing import CliRunner

    from wastools.cli import main

    return CliRunner().invoke(main, ["--root", str(root), *ARGS, *extra], catch_exceptions=False)


def test_a_build_with_nothing_to_do_never_loads_the_data(built, monkeypatch):
    manifest = json.loads((built / "build" / "manifest.json").read_text())["outputs"]
    monkeypatch.setattr(builder, "load_repository", _never)
    again = _run(built)
    assert again.exit_code == 0, again.output
    assert f"0 files written, {len(manifest)} unchanged" in again.output
    assert "site unchanged: open build/site/index.html" in again.output


def test_nothing_to_do_imports_neither_the_validator_nor_the_renderers(built):
    """What makes it fast: checked in a process of its own, as a user runs it."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from wastools.cli import main\n"
        f"try:\n    main({['--root', str(built), *ARGS]!r})\n"
        "except SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "heavy = ('weasyprint', 'jsonschema', 'pikepdf', 'wastools.build', 'wastools.repository')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "0 files written" in done.stdout and done.stdout.strip().endswith("[]"), done.stdout


def test_an_output_changed_on_disk_is_made_again(built):
    deck = built / "build" / "standard" / "cards-hms-cossack.pdf"
    good = deck.read_bytes()
    deck.write_bytes(good[:-10])
    again = _run(built)
    assert again.exit_code == 0 and "1 files written" in again.output, again.output
    assert deck.read_bytes() == good


def test_other_settings_build_again(built, monkeypatch):
    """Other settings are another build: it loads the data (its outputs may all be current)."""
    loads = []
    real = builder.load_repository
    monkeypatch.setattr(builder, "load_repository", lambda *a, **k: loads.append(1) or real(*a, **k))
    bled = _run(built, "--bleed")
    assert bled.exit_code == 0 and "0 files written" not in bled.output and len(loads) == 1, bled.output
    assert _run(built).exit_code == 0 and len(loads) == 2  # not the settings of the last build
    assert "0 files written" in _run(built).output and len(loads) == 2  # now nothing to do


def test_a_site_removed_is_made_again(built):
    import shutil

    shutil.rmtree(built / "build" / "site")
    again = _run(built)
    assert again.exit_code == 0 and "site: " in again.output and (built / "build" / "site" / "index.html").is_file()


def test_changed_data_is_built_and_invalid_data_never_stamped(built):
    unit = built / "cards" / "uk" / "hms-cossack.yaml"
    text = unit.read_text()
    unit.write_text(text.replace("\nhull: 2", "\nhull: 3", 1))
    changed = _run(built)
    assert changed.exit_code == 0 and "0 files written" not in changed.output, changed.output
    other = built / "cards" / "germany" / "bismarck.yaml"
    other.write_text(other.read_text().replace("\nhull: ", "\nhull: many", 1))
    for _ in range(2):  # the error is reported every time, never taken for nothing to do
        broken = _run(built)
        assert broken.exit_code == 1 and "bismarck.yaml" in broken.output, broken.output


def test_a_rules_register_is_data_too(tmp_path):
    """A broken rules register (rules/<variant>.yaml) added after a build is reported by the
    next build, as `wastools validate` reports it: never taken for nothing to do."""
    root = copy_data(tmp_path / "data")
    assert _run(root).exit_code == 0
    (root / "rules").mkdir()
    (root / "rules" / "hex.yaml").write_text("variant: hex\nentries: 5\n")
    broken = _run(root)
    assert broken.exit_code == 1 and "rules/hex.yaml" in broken.output, broken.output


def test_the_source_date_is_an_input(tmp_path, monkeypatch):
    """SOURCE_DATE_EPOCH dates every output PDF: a build with another value (or none) makes
    every output again, dated as it says, instead of keeping them or saying nothing to do."""
    import pikepdf

    root = copy_data(tmp_path / "data")
    deck = root / "build" / "standard" / "cards-hms-cossack.pdf"

    def dated() -> str | None:
        with pikepdf.open(deck) as pdf:
            return str(pdf.docinfo.get("/CreationDate")) if "/CreationDate" in pdf.docinfo else None

    assert _run(root).exit_code == 0 and dated() is None
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    again = _run(root)
    assert again.exit_code == 0 and "0 files written" not in again.output, again.output
    assert dated() == "D:20231114221320Z"
    assert "0 files written" in _run(root).output  # the same date: nothing to do
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert "0 files written" not in _run(root).output and dated() is None


def test_a_planted_stamp_names_nothing_outside_the_build(tmp_path):
    out = tmp_path / "build"
    (out / ".cache").mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("x")
    import hashlib

    digest = hashlib.sha256(b"x").hexdigest()
    planted = stamp.Stamp("k", "tool", "settings", DataState("", {}))
    for rel in ("../secret.txt", str(secret)):
        (out / stamp.STAMP).write_text(json.dumps({"key": "k", "outputs": {rel: digest}, "site_key": None}))
        assert stamp.unchanged(out, planted) is None
    (out / stamp.STAMP).write_text("not json")
    assert stamp.unchanged(out, planted) is None
    assert not stamp.small_change(out, planted)


def test_a_small_change_is_a_few_data_files_under_the_same_tool_and_settings(tmp_path):
    """What makes a build start light workers (forked when the first job comes, see
    ``workers.WorkerPool``): the last build here had the same tool and settings, and at most
    SMALL_CHANGE data files differ since, added and removed ones included."""
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    inputs = ["settings"]
    assert not stamp.small_change(out, stamp.stamp_key(root, out, inputs))  # no build yet
    stamp.record(out, stamp.stamp_key(root, out, inputs), {})
    units = sorted((root / "cards").glob("*/*.yaml"))
    for unit in units[: stamp.SMALL_CHANGE - 1]:
        unit.write_text(unit.read_text() + "\n")
    (root / "cards" / "uk" / "hms-new.yaml").write_text("id: hms-new\n")
    assert stamp.small_change(out, stamp.stamp_key(root, out, inputs))
    units[stamp.SMALL_CHANGE].unlink()
    assert not stamp.small_change(out, stamp.stamp_key(root, out, inputs))  # one file too many
    stamp.record(out, stamp.stamp_key(root, out, inputs), {})
    assert stamp.small_change(out, stamp.stamp_key(root, out, inputs))  # nothing changed since
    assert not stamp.small_change(out, stamp.stamp_key(root, out, ["other settings"]))
    assert not stamp.small_change(tmp_path / "elsewhere", stamp.stamp_key(root, tmp_path / "elsewhere", inputs))
