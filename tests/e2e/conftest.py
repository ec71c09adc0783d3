"""One full build of the fixture repository, shared by the end-to-end tests that only read it."""

from __future__ import annotations

import hashlib
import shutil
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


@pytest.fixture(scope="session")
def full_build(tmp_path_factory) -> Path:
    """The fixture data, built whole (every variant, both papers, the site) into root/build."""
    root = copy_data(tmp_path_factory.mktemp("full") / "data")
    result = run_build(root)
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def full_copy(full_build, tmp_path) -> Path:
    """A copy of the full build's data, outputs and store that a test may change: the copy
    builds as the original would."""
    return _copy_with_store(full_build, tmp_path / "data")


KEPT_UNITS = {"hms-cossack", "bismarck"}  # the units the tests edit or name


@pytest.fixture(scope="session")
def small_build(tmp_path_factory) -> Path:
    """The fixture data cut to the units its scenarios field (and those the tests edit), built
    whole: every variant, both papers, the packs and the site, in a fifth of the time. For the
    tests that build it again, cold, after each edit."""
    root = copy_data(tmp_path_factory.mktemp("small") / "data")
    fielded = " ".join(p.read_text(encoding="utf-8") for p in (root / "scenarios").glob("*.yaml"))
    for unit in (root / "cards").glob("*/*.yaml"):
        if unit.stem not in KEPT_UNITS and unit.stem not in fielded:
            unit.unlink()
    result = run_build(root)
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture
def small_copy(small_build, tmp_path) -> Path:
    """A copy of the small build's data, outputs and store that a test may change."""
    return _copy_with_store(small_build, tmp_path / "data")


def _copy_with_store(built: Path, root: Path) -> Path:
    shutil.copytree(built, root, symlinks=True)
    shutil.copytree(Store.for_repository(built).folder, Store.for_repository(root).folder)
    return root


def edit_points(path: Path, points: int) -> None:
    """Give the unit in ``path`` these points (an ordinary one-unit edit)."""
    import re

    text = path.read_text()
    path.write_text(re.sub(r"^points: \d+$", f"points: {points}", text, count=1, flags=re.M))
    assert path.read_text() != text
