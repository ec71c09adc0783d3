"""The store in the environment a build meets (issue 45): a cache home that is a plain file, a
store folder that is a link, no home folder, a read-only home, a disk that fills during the
build. Each gives one warning line and a build whose outputs are those of a build with a good
store; nothing makes a home folder; every build removes the scratch folder a killed one left."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import copy_data
from tests.e2e.conftest import digests
from wastools.cli import main
from wastools.core import scratch

pytestmark = pytest.mark.slow

BUILD_ONE = ("build", "--variant", "standard", "--unit", "bismarck", "--paper", "letter", "--jobs", "1")
NO_CACHE_SETTING = {"WASTOOLS_CACHE": None, "XDG_CACHE_HOME": None}


def _run(root: Path, env: dict, *args: str):
    return CliRunner(env=env).invoke(main, ["--root", str(root), *args], catch_exceptions=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """The outputs of BUILD_ONE with a good store."""
    root = copy_data(tmp_path_factory.mktemp("reference") / "data")
    result = _run(root, {}, *BUILD_ONE)
    assert result.exit_code == 0, result.output
    return digests(root / "build")


def _plain_file(tmp: Path) -> dict:
    (tmp / "cache-file").write_text("not a folder")
    return {"XDG_CACHE_HOME": str(tmp / "cache-file"), "WASTOOLS_CACHE": None}


def _linked_store(tmp: Path) -> dict:
    (tmp / "cache").mkdir()
    (tmp / "elsewhere").mkdir()
    (tmp / "cache" / "store").symlink_to(tmp / "elsewhere")
    return {"WASTOOLS_CACHE": str(tmp / "cache")}


def _no_home(tmp: Path) -> dict:
    return {**NO_CACHE_SETTING, "HOME": str(tmp / "no-such-home")}


def _home_a_file(tmp: Path) -> dict:
    (tmp / "home-file").write_text("")
    return {**NO_CACHE_SETTING, "HOME": str(tmp / "home-file")}


def _relative_home(tmp: Path) -> dict:
    return {**NO_CACHE_SETTING, "HOME": "relative-home"}


ENVIRONMENTS = {
    "cache home a plain file": (_plain_file, "a file stands where a folder belongs"),
    "store folder a link": (_linked_store, "is a symbolic link"),
    "no home folder": (_no_home, "no-such-home: does not exist (the store makes no home folder)"),
    "home a plain file": (_home_a_file, "home-file: is not a folder"),
    "home not an absolute path": (_relative_home, "not an absolute path"),
}


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_an_unusable_store_gives_one_warning_and_the_outputs_of_a_good_one(tmp_path, name, reference, monkeypatch):
    make, cause = ENVIRONMENTS[name]
    monkeypatch.chdir(tmp_path)  # where a relative home would be made
    root = copy_data(tmp_path / "data")
    env = make(tmp_path)
    result = _run(root, env, *BUILD_ONE)
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    warnings = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "the store cannot be used" in warnings[0] and cause in warnings[0], result.output
    assert digests(root / "build") == reference
    assert not (tmp_path / "no-such-home").exists() and not (tmp_path / "relative-home").exists()
    assert not (tmp_path / "elsewhere").exists() or not list((tmp_path / "elsewhere").iterdir())


def test_validate_never_makes_a_home_folder(tmp_path):
    root = copy_data(tmp_path / "data")
    result = _run(root, _no_home(tmp_path), "validate", "--quiet")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "no-such-home").exists()


def _unshare_allowed() -> bool:
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


def _in_namespace(script: str) -> subprocess.CompletedProcess:
    if not _unshare_allowed():
        pytest.skip("this machine does not allow a mount namespace (unshare -m)")
    return subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=600)


def test_a_store_whose_disk_fills_during_the_build_costs_only_its_speed_up(tmp_path, reference):
    root = copy_data(tmp_path / "data")
    mount = tmp_path / "mnt"
    mount.mkdir()
    build = " ".join([sys.executable, "-m", "wastools", "--root", str(root), *BUILD_ONE])
    script = (  # the store on a tmpfs with 16 KiB left: the build's first entries fill it
        f"mount -t tmpfs -o size=64m tmpfs {mount} && mkdir {mount}/cache &&"
        f" dd if=/dev/zero of={mount}/pad bs=4k count=4 2>/dev/null &&"
        f" (dd if=/dev/zero of={mount}/fill bs=4k 2>/dev/null; true) && rm {mount}/pad &&"
        f" WASTOOLS_CACHE={mount}/cache {build}"
    )
    done = _in_namespace(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "warning: the store could not keep everything this build made" in done.stderr, done.stderr
    assert digests(root / "build") == reference


def test_a_read_only_home_gives_one_warning_and_a_build(tmp_path, reference):
    root = copy_data(tmp_path / "data")
    home = tmp_path / "home"
    home.mkdir()
    build = " ".join([sys.executable, "-m", "wastools", "--root", str(root), *BUILD_ONE])
    script = f"mount -t tmpfs -o size=1m,ro tmpfs {home} && env -u WASTOOLS_CACHE -u XDG_CACHE_HOME HOME={home} {build}"
    done = _in_namespace(script)
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 1 and "the file system is read-only" in warnings[0], done.stderr
    assert digests(root / "build") == reference


def test_a_build_with_nothing_to_do_removes_the_scratch_folder_a_killed_build_left(small_copy, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = os.fork()
    if ended == 0:
        os._exit(0)
    os.waitpid(ended, 0)  # a process id nobody has now: the killed build's
    left = tmp_path / f"{scratch.PREFIX}{ended}-k1ll"
    (left / "spill" / "face").mkdir(parents=True)
    result = _run(small_copy, {}, "build")
    assert result.exit_code == 0 and "0 files written" in result.output, result.output
    assert not left.exists()
