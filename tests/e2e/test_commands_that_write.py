"""Every command that writes a data file (`fmt`, `new unit`, `new scenario`, `import`) writes
it whole inside the repository, never through a link, and ends a failure of the machine in
one line naming the file and the cause (issue 45)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import DATA, SHARED_DATA, copy_data
from wastools.cli import main

UNIT = "cards/uk/hms-cossack.yaml"


def _unformatted(root: Path) -> None:
    """One unit file that `fmt` rewrites (its line ends made CRLF)."""
    path = root / UNIT
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


COMMANDS = {
    "fmt": (_unformatted, ["fmt"]),
    "new unit": (
        None,
        ["new", "unit", "HMS Placeholder", "--nation", "uk", "--type", "destroyer"]
        + ["--set", "surface-action", "--number", "40"],
    ),
    "new scenario": (None, ["new", "scenario", "a-new-one", "--variant", "hex"]),
    "import": (
        None,
        ["import", "--shinn16", str(SHARED_DATA / "shinn16" / "War_at_Sea.json")]
        + ["--roberteliason", str(SHARED_DATA / "roberteliason" / "units.xml")],
    ),
}
CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
}


def _run(root: Path, args: list[str]):
    return CliRunner().invoke(main, ["--root", str(root), *args], catch_exceptions=True)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _one_line_error(result, ending: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and errors[0].endswith(ending), result.output


@pytest.mark.parametrize("code", sorted(CAUSES))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_write_the_machine_refuses_leaves_every_file_whole_and_says_so_in_one_line(
    tmp_path, monkeypatch, command, code
):
    if command == "import" and not SHARED_DATA.is_dir():
        pytest.skip("the shared card transcriptions are not here")
    root = copy_data(tmp_path / "data")
    prepare, args = COMMANDS[command]
    if prepare:
        prepare(root)
    before = _files(root)

    def refused(fd: int) -> None:  # the temporary file is written; the disk refuses to keep it
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "fsync", refused)
    result = _run(root, args)
    _one_line_error(result, CAUSES[code])
    assert "cannot write " in result.output
    assert _files(root) == before  # nothing cut, nothing half-written, no temporary file left


def _outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def test_new_unit_does_not_write_through_a_linked_nation_folder(tmp_path):
    root = copy_data(tmp_path / "data")
    outside = _outside(tmp_path)
    (root / "cards" / "sweden").symlink_to(outside)  # a nation with no units yet: validate passes
    args = ["new", "unit", "HSwMS Placeholder", "--nation", "sweden", "--type", "destroyer"]
    result = _run(root, [*args, "--set", "surface-action", "--number", "40"])
    _one_line_error(result, "(cards/sweden/hswms-placeholder.yaml not read or written)")
    assert "cards/sweden: is a symbolic link" in result.output
    assert not list(outside.iterdir())


def test_new_scenario_does_not_write_through_a_linked_scenarios_folder(tmp_path):
    root = copy_data(tmp_path / "data", ("cards", "schemas"))
    outside = _outside(tmp_path)
    (root / "scenarios").symlink_to(outside)
    result = _run(root, ["new", "scenario", "a-new-one", "--variant", "hex"])
    _one_line_error(result, "(scenarios/a-new-one.yaml not read or written)")
    assert not list(outside.iterdir())


def test_fmt_does_not_write_through_a_linked_file_named_on_the_command_line(tmp_path):
    root = copy_data(tmp_path / "data")
    outside = _outside(tmp_path) / "hms-cossack.yaml"
    outside.write_bytes((root / UNIT).read_bytes().replace(b"\n", b"\r\n"))
    (root / UNIT).unlink()
    (root / UNIT).symlink_to(outside)
    before = outside.read_bytes()
    result = _run(root, ["fmt", str(root / UNIT)])
    _one_line_error(result, "(cards/uk/hms-cossack.yaml not read or written)")
    assert outside.read_bytes() == before


def test_import_does_not_write_through_a_linked_docs_folder(tmp_path):
    if not SHARED_DATA.is_dir():
        pytest.skip("the shared card transcriptions are not here")
    root = copy_data(tmp_path / "data")
    outside = _outside(tmp_path)
    (root / "docs").symlink_to(outside)
    result = _run(root, COMMANDS["import"][1])
    _one_line_error(result, "(docs/data/import-report.md not read or written)")
    assert not list(outside.iterdir())


def test_fmt_on_a_full_disk_leaves_the_file_whole(tmp_path):
    """The real thing: the repository on a tmpfs filled to the last byte, in a mount namespace
    of its own (skipped where the machine does not allow one)."""
    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("this machine does not allow a mount namespace (unshare -m)")
    mount = tmp_path / "mnt"
    mount.mkdir()
    root = mount / "data"
    fmt = f"{sys.executable} -m wastools --root {root} fmt"
    script = (
        f"mount -t tmpfs -o size=4m tmpfs {mount} && mkdir {root} && cp -rL {DATA}/cards {DATA}/schemas {root}/ &&"
        f" sed -i 's/$/\\r/' {root}/{UNIT} && cp {root}/{UNIT} {mount}/before &&"
        f" (dd if=/dev/zero of={mount}/fill bs=4k 2>/dev/null; true) && {fmt};"
        f" echo rc=$?; cmp {root}/{UNIT} {mount}/before && echo whole;"
        f" ls -a {root}/cards/uk | grep -c '\\.tmp$'"
    )
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=300)
    lines = done.stdout.splitlines()
    assert "rc=1" in lines and "whole" in lines and lines[-1] == "0", done.stdout + done.stderr
    assert f"error: cannot write {UNIT}: the disk is full" in done.stderr.splitlines(), done.stderr
    assert "Traceback" not in done.stderr
