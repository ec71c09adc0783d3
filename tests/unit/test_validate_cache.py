"""`validate` from a cache: an unchanged file is not parsed again, and the problems found are
exactly those of a validation without the cache (checks across files always run whole)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wastools.core.store import Store
from wastools.data import repository
from wastools.data.repository import files


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files parsed (YAML loaded) during a test, in order."""
    seen: list[str] = []
    real = files.load_document

    def counting(path, shown_as, *args, **kwargs):
        seen.append(shown_as)
        return real(path, shown_as, *args, **kwargs)

    monkeypatch.setattr(files, "load_document", counting)
    return seen


def _damage(root: Path) -> None:
    """Problems of every kind: in one file (schema), and across files (a duplicate id)."""
    cossack = root / "cards" / "uk" / "hms-cossack.yaml"
    cossack.write_text(cossack.read_text().replace("points: 7\n", "points: seven\n"))
    shutil.copy(root / "cards" / "germany" / "bismarck.yaml", root / "cards" / "uk" / "bismarck.yaml")


def _found(result: repository.Validation) -> list[str]:
    return [str(p) for p in result.problems]


def test_cached_validation_finds_exactly_what_a_fresh_one_finds(tmp_repo, tmp_path, parses):
    folder = Store(tmp_path, tmp_path / "cache")
    fresh = repository.validate(tmp_repo)
    assert fresh.warnings and not fresh.errors  # the fixture has a unit with missing figures
    parsed_fresh = len(parses)

    filling = repository.validate(tmp_repo, cache=folder)
    assert len(parses) == 2 * parsed_fresh  # nothing cached yet: every file parsed
    parses.clear()
    cached = repository.validate(tmp_repo, cache=folder)
    assert parses == []  # every file from the cache
    assert _found(cached) == _found(filling) == _found(fresh)
    assert cached.files_checked == fresh.files_checked
    assert cached.repository == fresh.repository

    _damage(tmp_repo)  # problems in one file (schema) and across files (a duplicate id)
    parses.clear()
    damaged = repository.validate(tmp_repo, cache=folder)
    assert sorted(parses) == ["cards/uk/bismarck.yaml", "cards/uk/hms-cossack.yaml"]
    found = _found(damaged)
    assert any("points" in p and "'seven'" in p for p in found)
    assert any(p.startswith("cards/uk/bismarck.yaml") for p in found)  # seen only across files
    assert found == _found(repository.validate(tmp_repo))


def test_a_run_with_errors_writes_no_entry(tmp_repo, tmp_path):
    _damage(tmp_repo)
    folder = Store(tmp_path, tmp_path / "cache")
    result = repository.validate(tmp_repo, cache=folder)
    assert result.errors and not folder.folder.exists()  # a run stopped by bad data keeps nothing


def test_editing_a_file_invalidates_only_its_entry(tmp_repo, tmp_path, parses):
    folder = Store(tmp_path, tmp_path / "cache")
    clean = repository.validate(tmp_repo, cache=folder)
    assert clean.errors == [] and clean.repository is not None
    _damage(tmp_repo)
    parses.clear()
    cached = repository.validate(tmp_repo, cache=folder)
    # the edited file and the new one are parsed; every other comes from the cache
    assert sorted(parses) == ["cards/uk/bismarck.yaml", "cards/uk/hms-cossack.yaml"]
    assert _found(cached) == _found(repository.validate(tmp_repo))
    assert cached.repository is None

    cossack = tmp_repo / "cards" / "uk" / "hms-cossack.yaml"
    cossack.write_text(cossack.read_text().replace("points: seven\n", "points: 7\n"))
    (tmp_repo / "cards" / "uk" / "bismarck.yaml").unlink()
    parses.clear()
    again = repository.validate(tmp_repo, cache=folder)
    assert parses == []  # back to bytes seen before: the old entry serves
    assert _found(again) == _found(clean) and again.repository == clean.repository


def test_a_schema_change_misses_every_entry(tmp_repo, tmp_path, parses):
    folder = Store(tmp_path, tmp_path / "cache")
    repository.validate(tmp_repo, cache=folder)
    schema = tmp_repo / "schemas" / "unit.schema.json"
    schema.write_text(schema.read_text() + "\n")
    parses.clear()
    repository.validate(tmp_repo, cache=folder)
    assert "cards/uk/hms-cossack.yaml" in parses and len(parses) > 50


def test_an_unwritable_cache_is_ignored(tmp_repo, tmp_path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go\n")
    result = repository.validate(tmp_repo, cache=Store(tmp_path, blocked / "validate"))  # it tries to write
    assert _found(result) == _found(repository.validate(tmp_repo)) and result.repository is not None
    assert blocked.read_text() == "a file where the cache folder would go\n"


def test_a_damaged_entry_is_parsed_again(tmp_repo, tmp_path, parses):
    folder = Store(tmp_path, tmp_path / "cache")
    first = repository.validate(tmp_repo, cache=folder)
    for entry in folder.folder.rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-4] + b"oops")
    parses.clear()
    again = repository.validate(tmp_repo, cache=folder)
    assert len(parses) > 50 and _found(again) == _found(first)


class _Planted:
    """A pickle that would run code when loaded: it must never be loaded."""

    def __reduce__(self):
        return (Path.touch, (Path(_Planted.marker),))


def test_nothing_in_the_repository_is_read_as_a_cache(tmp_repo, tmp_path, parses):
    """A pull request can commit any file, a build folder included: the cache lives in the
    user's store, outside the repository, so a planted pickle there is never read."""
    import pickle

    _Planted.marker = str(tmp_path / "ran")
    for place in ("build/.cache/validate", "build/.cache", ".cache"):
        (tmp_repo / place).mkdir(parents=True, exist_ok=True)
        (tmp_repo / place / "planted.pickle").write_bytes(pickle.dumps(_Planted()))
    store = Store.for_repository(tmp_repo)
    repository.validate(tmp_repo, cache=store)
    parses.clear()
    again = repository.validate(tmp_repo, cache=store)
    assert not (tmp_path / "ran").exists() and not parses and again.repository is not None
    assert not store.folder.is_relative_to(tmp_repo)


def test_schemas_that_passed_the_meta_schema_are_not_checked_again_until_they_change(tmp_repo, tmp_path, monkeypatch):
    from wastools.data.repository import schema_files

    checked: list[str] = []
    real = schema_files._own_problems

    def counting(schema, path, shown, limits, check):
        if check:
            checked.append(path.name)
        return real(schema, path, shown, limits, check)

    monkeypatch.setattr(schema_files, "_own_problems", counting)
    folder = Store(tmp_path, tmp_path / "cache")
    assert not repository.validate(tmp_repo, cache=folder).errors
    assert checked  # the first run checks every schema against the meta-schema
    checked.clear()
    schema_files._load.cache_clear()  # as a new process would
    assert not repository.validate(tmp_repo, cache=folder).errors
    assert checked == []  # the store says these schemas passed
    unit = tmp_repo / "schemas" / "unit.schema.json"
    unit.write_text(unit.read_text().replace('"maximum": 10', '"maximum": "ten"', 1))
    schema_files._load.cache_clear()
    result = repository.validate(tmp_repo, cache=folder)
    assert "unit.schema.json" in checked  # changed: checked again, and its fault found
    assert any(p.path.endswith("unit.schema.json") for p in result.errors)
