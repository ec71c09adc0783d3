from __future__ import annotations

import functools
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from wastools.cli import main
from wastools.core.store import Store
from wastools.data import repository

ROOT = Path(__file__).resolve().parents[1]  # the checkout: code, docs, tools, the shipped data
# Tests run on this small frozen copy of the data (its schemas link to the project's), so
# adding or fixing a unit or scenario in cards/ or scenarios/ never makes a test fail.
DATA = ROOT / "tests" / "fixtures" / "repo"
SHARED_DATA = ROOT.parent / "shared" / "data"

# Property tests try the same examples on every run, so that a run's outcome never depends on
# chance (CI lands a change or not on one run); HYPOTHESIS_PROFILE=explore tries new ones.
settings.register_profile("repeatable", derandomize=True, deadline=None)  # machines here are noisy
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(scope="session", autouse=True)
def _own_store(tmp_path_factory):
    """The tests keep their build state in a store of their own, never the user's."""
    os.environ["WASTOOLS_CACHE"] = str(tmp_path_factory.mktemp("wastools-cache"))


@pytest.fixture(scope="session", autouse=True)
def _weasyprint_loaded_once():
    """WeasyPrint and the card stylesheet loaded once per test process: the workers of every
    build a test runs are forked from it and start with them, as a long build's workers do
    once warm (loading them took about a second of each build's work)."""
    from wastools.render.cards import warm

    warm(full=True)


@pytest.fixture(scope="session")
def repo():
    result = repository.validate(DATA)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    return result.repository


def copy_data(target: Path, folders: tuple[str, ...] = ("cards", "schemas", "scenarios")) -> Path:
    """A plain copy of the fixture repository (the schemas link becomes real files), whose
    store starts with what validating the fixture data keeps (``_validated_fixture``)."""
    for folder in folders:
        shutil.copytree(DATA / folder, target / folder)
    copy_store(_validated_fixture(), target)
    return target


def copy_store(source: Path, target: Path) -> None:
    """The entries the store keeps for repository ``source`` copied into ``target``'s, so
    that ``target`` is validated and built as ``source`` would be next."""
    folder = Store.for_repository(source).folder
    if folder.is_dir():
        shutil.copytree(folder, Store.for_repository(target).folder, dirs_exist_ok=True)


@functools.cache
def _validated_fixture() -> Path:
    """A copy of the fixture data, validated once per test process with its store. Its
    entries (each file's parse and checks, keyed by the file's bytes, its name and the
    schemas) serve every copy a test makes, as a user's second run finds them: a file the
    test changes is read afresh. The tests of the cache itself give it stores of their own."""
    root = Path(tempfile.mkdtemp(dir=os.environ["WASTOOLS_CACHE"])) / "validated-fixture"
    for folder in ("cards", "schemas", "scenarios"):
        shutil.copytree(DATA / folder, root / folder)
    result = repository.validate(root, cache=Store.for_repository(root))
    assert result.repository is not None and not result.errors, "\n".join(map(str, result.errors))
    return root


@pytest.fixture
def tmp_repo(tmp_path: Path) -> Path:
    """A throwaway copy of the fixture repository (cards and schemas) that a test may damage."""
    return copy_data(tmp_path, ("cards", "schemas"))


@pytest.fixture
def cli():
    def run(*args: str, root: Path = DATA):
        runner = CliRunner()
        return runner.invoke(main, ["--root", str(root), *args], catch_exceptions=False)

    return run
