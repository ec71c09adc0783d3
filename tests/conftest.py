from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from wastools import repository
from wastools.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def repo():
    result = repository.validate(ROOT)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    return result.repository


@pytest.fixture
def tmp_repo(tmp_path: Path) -> Path:
    """A throwaway copy of the data repository that a test may damage."""
    for folder in ("cards", "schemas"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


@pytest.fixture
def cli():
    def run(*args: str, root: Path = ROOT):
        runner = CliRunner()
        return runner.invoke(main, ["--root", str(root), *args], catch_exceptions=False)

    return run
