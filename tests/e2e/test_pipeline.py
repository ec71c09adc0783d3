"""The build as users meet it: outputs owned by what asked for them, one build at a time,
never through a link, a damaged cache made again, and the machine's failures in one line."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import copy_store
from tests.e2e.conftest import digests, edit_points, run_build
from wastools.core.store import Store

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "subset",
    [
        ("--variant", "hex", "--nation", "uk", "--paper", "a4"),
        ("--unit", "bismarck"),
        ("--type", "destroyer", "--backs"),
    ],
)
def test_a_subset_build_leaves_every_output_of_the_full_build_as_it_was(full_copy, subset):
    out = full_copy / "build"
    before = digests(out)
    result = run_build(full_copy, *subset)
    assert result.exit_code == 0, result.output
    after = digests(out)
    assert {rel: after[rel] for rel in before if rel != "manifest.json"} == {
        rel: d for rel, d in before.items() if rel != "manifest.json"
    }
    new = sorted(set(after) - set(before))
    assert new and all("/cards-" in rel for rel in new)  # only decks named after the selection
    units = json.loads((out / "site" / "units.json").read_text())["units"]
    assert len(units) == len(list((full_copy / "cards").rglob("*.yaml"))) - 3  # every unit (not the catalogues)
    manifest = json.loads((out / "manifest.json").read_text())["outputs"]
    assert set(manifest) == {rel for rel in after if rel.endswith(".pdf") and not rel.startswith("site/")}
    assert_site_carries(after, manifest)


def assert_site_carries(files: dict[str, str], manifest: dict) -> None:
    """The site's copies of the PDFs it offers (``site/pdf/``) hold what the outputs hold."""
    carried = {rel.removeprefix("site/pdf/"): d for rel, d in files.items() if rel.startswith("site/pdf/")}
    assert carried and {rel: files[rel] for rel in carried} == carried
    assert set(carried) <= set(manifest)


def test_two_builds_started_together_leave_a_manifest_that_matches_the_files(full_copy):
    out = full_copy / "build"
    edit_points(full_copy / "cards" / "uk" / "hms-cossack.yaml", 8)
    command = [sys.executable, "-m", "wastools", "--root", str(full_copy), "build", "--jobs", "1"]
    with open(out / ".wastools-lock", "a") as held:  # a third build holds the folder meanwhile
        fcntl.flock(held, fcntl.LOCK_EX)
        builds = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        said = [_said(b, b"another build is writing") for b in builds]  # both wait for the folder
        fcntl.flock(held, fcntl.LOCK_UN)
    results = [b.communicate(timeout=600) for b in builds]
    assert all(b.returncode == 0 for b in builds), results
    assert all(b"another build is writing" in early + err for early, (_out, err) in zip(said, results, strict=True))
    manifest = json.loads((out / "manifest.json").read_text())["outputs"]
    files = digests(out)
    assert {rel: entry["sha256"] for rel, entry in manifest.items()} == {
        rel: d for rel, d in files.items() if rel.endswith(".pdf") and not rel.startswith("site/")
    }
    assert_site_carries(files, manifest)  # the last build's copies, of the outputs as they are now


def _said(process: subprocess.Popen, text: bytes, within: float = 300.0) -> bytes:
    """What ``process`` wrote on stderr until it wrote ``text`` (it is still running)."""
    os.set_blocking(process.stderr.fileno(), False)
    said, deadline = b"", time.monotonic() + within
    while text not in said and process.poll() is None and time.monotonic() < deadline:
        said += process.stderr.read() or b""
        time.sleep(0.05)
    os.set_blocking(process.stderr.fileno(), True)
    return said


@pytest.mark.parametrize("link", ["build", "build/site", "build/hex", "build/site/units/bismarck.html"])
def test_a_link_in_the_output_folder_is_refused_and_nothing_outside_is_touched(full_copy, tmp_path, link):
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "id_ed25519").write_text("private key")
    (outside / "bismarck.html").write_text("my thesis")
    place = full_copy / link
    if place.is_dir():
        shutil.rmtree(place)
    else:
        place.unlink()
    place.symlink_to(outside / "bismarck.html" if link.endswith(".html") else outside)
    edit_points(full_copy / "cards" / "germany" / "bismarck.yaml", 54)
    result = run_build(full_copy)
    assert result.exit_code == 1
    assert "symbolic link" in result.output and link.split("/")[-1] in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in outside.iterdir()) == ["bismarck.html", "id_ed25519"]
    assert (outside / "bismarck.html").read_text() == "my thesis"


def test_a_damaged_or_swapped_cache_entry_is_made_again(full_copy):
    out = full_copy / "build"
    before = digests(out)
    store = Store.for_repository(full_copy)
    faces = sorted((store.folder / "face").rglob("*"))
    faces = [p for p in faces if p.is_file()]
    first, second = faces[0], faces[1]
    a = first.read_bytes()
    first.write_bytes(second.read_bytes())  # swapped
    second.write_bytes(a[: len(a) // 2])  # and truncated
    for sheet in [p for p in (store.folder / "sheet").rglob("*") if p.is_file()][:5]:
        sheet.write_bytes(sheet.read_bytes()[:-10] + b"0123456789")
    for rel in before:
        if rel.endswith(".pdf") and "/cards" in rel:
            (out / rel).unlink()  # the decks are made again from the store
    result = run_build(full_copy)
    assert result.exit_code == 0, result.output
    assert digests(out) == before


def _in_small_filesystem(root: Path, size: str, then: str, *args: str) -> subprocess.CompletedProcess:
    """A build into a fresh tmpfs of ``size`` (remounted read-only when ``then`` says so), in a
    mount namespace of its own; skipped where the machine does not allow one."""
    mount = root.parent / "mnt"
    mount.mkdir()
    build = " ".join([sys.executable, "-m", "wastools", "--root", str(root), "build", "--out", f"{mount}/out", *args])
    script = f"mount -t tmpfs -o size={size} tmpfs {mount} && {then} {build}"
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("this machine does not allow a mount namespace (unshare -m)")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=600)


BUILD_ONE = ("--variant", "standard", "--unit", "bismarck", "--paper", "letter", "--jobs", "1")


@pytest.mark.parametrize(
    "size, then, expected",
    [
        ("48k", "", "the disk is full"),
        ("4m", "mkdir -p MNT/out && mount -o remount,ro MNT &&", "the file system is read-only"),
    ],
)
def test_a_full_or_read_only_disk_ends_in_one_clear_line(full_copy, size, then, expected):
    result = _in_small_filesystem(full_copy, size, then.replace("MNT", str(full_copy.parent / "mnt")), *BUILD_ONE)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert errors[-1].startswith("error: cannot write ") and errors[-1].endswith(expected), result.stderr
    assert "Traceback" not in result.stderr


def test_an_output_folder_on_another_file_system_builds(full_copy):
    result = _in_small_filesystem(full_copy, "64m", "", *BUILD_ONE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "wrote " in result.stdout and "cards-bismarck.pdf" in result.stdout


def test_a_scenario_removed_loses_its_pack_in_the_next_whole_build(full_copy):
    out = full_copy / "build"
    assert (out / "scenarios" / "denmark-strait-1941.pdf").is_file()
    (full_copy / "scenarios" / "denmark-strait-1941.yaml").unlink()
    result = run_build(full_copy)
    assert result.exit_code == 0, result.output
    assert not list((out / "scenarios").glob("denmark-strait-1941*"))
    assert not [rel for rel in json.loads((out / "manifest.json").read_text())["outputs"] if "denmark" in rel]
    assert os.path.isfile(out / "scenarios" / "savo-island-1942.pdf")


def _edit(root: Path, kind: str) -> None:
    """An ordinary edit of the kind users make."""
    import re

    unit = root / "cards" / "uk" / "hms-cossack.yaml"
    text = unit.read_text()
    if kind == "points":
        edit_points(unit, 8)
        return
    if kind == "stats":
        text = re.sub(r"^hull: (\d+)$", lambda m: f"hull: {int(m.group(1)) + 1}", text, flags=re.M)
    elif kind == "attacks":
        text = re.sub(r"^  main: \[(\d+)", lambda m: f"  main: [{int(m.group(1)) + 1}", text, flags=re.M)
    elif kind == "facts":
        text = re.sub(r"value: (\d+(\.\d+)?)", lambda m: f"value: {float(m.group(1)) + 1:g}", text, count=1)
    elif kind == "name":
        text = re.sub(r"^name: (.+)$", r"name: \1 II", text, count=1, flags=re.M)
    elif kind == "scenario":
        unit = root / "scenarios" / "savo-island-1942.yaml"
        text = unit.read_text().replace("title: ", "title: The ", 1)
    assert text != unit.read_text(), kind
    unit.write_text(text)


@pytest.mark.parametrize("kind", ["points", "stats", "attacks", "facts", "name", "scenario"])
def test_an_incremental_build_after_an_edit_equals_a_cold_build(small_copy, tmp_path, kind, monkeypatch):
    _edit(small_copy, kind)
    result = run_build(small_copy)
    assert result.exit_code == 0, result.output
    assert "files written" in result.output and "0 files written" not in result.output
    cold = tmp_path / "cold"
    shutil.copytree(small_copy, cold, ignore=shutil.ignore_patterns("build"))
    monkeypatch.setenv("WASTOOLS_CACHE", str(tmp_path / "empty-cache"))  # nothing kept: made from scratch
    again = run_build(cold)
    assert again.exit_code == 0, again.output
    assert digests(small_copy / "build") == digests(cold / "build")


# The settings name only hex on A4: `--variant hex` and `--paper a4` read what a plain build
# reads but leave the site and the aids alone (and remove nothing), so their stamp is not its.
NARROWED_THEN_WHOLE = [
    (("--variant", "hex"), ()),
    (("--paper", "a4"), ()),
    ((), ("--variant", "hex"), ()),
    (("--variant", "hex", "--paper", "a4"), ("--variant", "hex"), (), ("--paper", "a4"), ()),
]


def test_narrowed_and_whole_builds_in_any_order_after_an_edit_equal_a_cold_build(small_copy, tmp_path):
    (small_copy / "wastools.toml").write_text('[build]\nvariants = ["hex"]\npapers = ["a4"]\n')
    first = run_build(small_copy)  # the settings' whole build, before the edit
    assert first.exit_code == 0, first.output
    cold = tmp_path / "cold"
    shutil.copytree(small_copy, cold, ignore=shutil.ignore_patterns("build"))
    copy_store(small_copy, cold)  # the faces kept, but no record: every output made afresh
    edit_points(cold / "cards" / "uk" / "hms-cossack.yaml", 6)
    assert run_build(cold).exit_code == 0
    for n, order in enumerate(NARROWED_THEN_WHOLE):
        root = tmp_path / f"order-{n}"
        shutil.copytree(small_copy, root, symlinks=True)
        copy_store(small_copy, root)
        edit_points(root / "cards" / "uk" / "hms-cossack.yaml", 6)
        for args in order:
            result = run_build(root, *args)
            assert result.exit_code == 0, (order, args, result.output)
        units = json.loads((root / "build" / "site" / "units.json").read_text())["units"]
        assert [u["points"] for u in units if u["id"] == "hms-cossack"] == [6], order
        assert digests(root / "build") == digests(cold / "build"), order


def test_a_build_that_held_back_an_invalid_scenario_says_so_again_the_next_time(small_copy):
    edit_points(small_copy / "cards" / "uk" / "hms-cossack.yaml", 9)  # Force H over its 200 points
    for _ in range(2):
        result = run_build(small_copy)
        assert result.exit_code == 1, result.output
        assert "not built, because of the errors above: scenarios/mers-el-kebir-1940.yaml" in result.output
