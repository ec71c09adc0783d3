"""One full build of the fixture repository, shared by the end-to-end tests that only read it
(and by every test process of a run: the first to ask builds it, the others wait for it)."""

from __future__ import annotations

import fcntl
import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import copy_data
from wastools.cli import main
from wastools.core.store import Store


def run_build(root: Path, *args: str):
    return CliRunner().invoke(main, ["--root", str(root), "build", *args], catch_exceptions=False)


def digests(out: Path) -> dict[str, str]:
    """Every file of an output folder with its sha256 (the lock file left out)."""
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name != ".wastools-lock"
    }


def built_once(tmp_path_factory, worker_id: str, name: str, make: Callable[[Path], None]) -> Path:
    """``make(root)`` run once per test run: under pytest-xdist the first test process to ask
    makes it in the run's shared temporary folder while the others wait on a lock, then all
    read it. Its store's folder is written beside it, for ``_copy_with_store``. Only for
    builds that tests read, never build into."""
    if worker_id == "master":  # one process: nothing to share
        folder = tmp_path_factory.mktemp(name)
    else:
        folder = tmp_path_factory.getbasetemp().parent / f"shared-{name}"  # this run's, all processes'
        folder.mkdir(exist_ok=True)
    root = folder / "data"
    with open(folder.parent / f"shared-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "store").exists():
            make(root)
            (folder / "store").write_text(str(Store.for_repository(root).folder))
    return root


def _full(root: Path) -> None:
    copy_data(root)
    result = run_build(root)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="session")
def full_build(tmp_path_factory, worker_id) -> Path:
    """The fixture data, built whole (every variant, both papers, the site) into root/build."""
    return built_once(tmp_path_factory, worker_id, "full", _full)


@pytest.fixture
def full_copy(full_build, tmp_path) -> Path:
    """A copy of the full build's data, outputs and store that a test may change: the copy
    builds as the original would."""
    return _copy_with_store(full_build, tmp_path / "data")


KEPT_UNITS = {"hms-cossack", "bismarck"}  # the units the tests edit or name


def _small(root: Path) -> None:
    copy_data(root)
    fielded = " ".join(p.read_text(encoding="utf-8") for p in (root / "scenarios").glob("*.yaml"))
    for unit in (root / "cards").glob("*/*.yaml"):
        if unit.stem not in KEPT_UNITS and unit.stem not in fielded:
            unit.unlink()
    result = run_build(root)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="session")
def small_build(tmp_path_factory, worker_id) -> Path:
    """The fixture data cut to the units its scenarios field (and those the tests edit), built
    whole: every variant, both papers, the packs and the site, in a fifth of the time. For the
    tests that build it again, cold, after each edit."""
    return built_once(tmp_path_factory, worker_id, "small", _small)


@pytest.fixture
def small_copy(small_build, tmp_path) -> Path:
    """A copy of the small build's data, outputs and store that a test may change."""
    return _copy_with_store(small_build, tmp_path / "data")


def _copy_with_store(built: Path, root: Path) -> Path:
    """A copy of a shared build's data and outputs, with a copy of its store (made by whichever
    test process built it) as the copy's own: the copy builds as the original would."""
    shutil.copytree(built, root, symlinks=True)
    store = Path((built.parent / "store").read_text())
    shutil.copytree(store, Store.for_repository(root).folder, dirs_exist_ok=True)
    return root


def edit_points(path: Path, points: int) -> None:
    """Give the unit in ``path`` these points (an ordinary one-unit edit)."""
    import re

    text = path.read_text()
    path.write_text(re.sub(r"^points: \d+$", f"points: {points}", text, count=1, flags=re.M))
    assert path.read_text() != text
