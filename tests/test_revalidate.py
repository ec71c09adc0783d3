"""After a change to a few unit files, a build checks the last validated model again where
those files can change it (``repository.incremental``) instead of reading every file: the
model must be the one a whole validation makes, and anything else (an error, a catalogue,
a new file) must go the whole way, reported as always."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import copy_data
from wastools import build as builder
from wastools import repository
from wastools.fingerprints import data_fingerprint

pytestmark = pytest.mark.slow
UNIT = Path("cards") / "uk" / "hms-cossack.yaml"


@pytest.fixture
def loaded(tmp_path):
    """A copy of the fixture data, loaded once by a build (which keeps the model)."""
    root = copy_data(tmp_path / "data")
    out = tmp_path / "build"
    model, _validation = builder.load_repository(root, out)
    assert model is not None
    return root, out


def _whole(root: Path):
    result = repository.validate(root)
    assert result.repository is not None
    return result.repository


def _without_key(model) -> str:
    extra = {k: v for k, v in model.extra.items() if k != builder.DATA_FINGERPRINT}
    return repr((model.units, model.sets, model.nations, model.abilities, extra))


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _points(path: Path, change: int) -> None:
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("points:"))
    lines[at] = f"points: {int(lines[at].split(':')[1]) + change}\n"
    path.write_text("".join(lines))


def _never(*_args, **_kwargs):
    raise AssertionError("the whole repository was validated again")


@pytest.mark.parametrize("change", ["points", "hull", "two units"])
def test_a_changed_unit_gives_the_model_a_whole_validation_gives(loaded, monkeypatch, change):
    root, out = loaded
    if change == "points":
        _points(root / UNIT, -1)
    elif change == "hull":
        _edit(root / UNIT, "\nhull: 2", "\nhull: 3")
    else:
        _points(root / UNIT, -1)
        _points(root / "cards" / "uk" / "hms-hood.yaml", 1)
    expected = _without_key(_whole(root))
    with monkeypatch.context() as patched:
        patched.setattr(repository, "validate", _never)
        model, validation = builder.load_repository(root, out)
    assert validation is None and model is not None
    assert _without_key(model) == expected
    assert model.extra[builder.DATA_FINGERPRINT] == data_fingerprint(root)
    again, _ = builder.load_repository(root, out)  # and it is kept, as a whole validation's is
    assert again is not None and _without_key(again) == expected


def test_a_points_change_is_checked_against_its_scenarios_limit(loaded):
    """HMS Cossack sails at Mers-el-Kebir, whose British side is 2 points under its limit:
    two points more each puts it over, which the whole validation reports in the scenario."""
    root, out = loaded
    _points(root / UNIT, 2)
    model, validation = builder.load_repository(root, out)
    assert validation is not None and validation.errors
    problem = next(p for p in validation.errors if "mers-el-kebir" in p.path)
    assert problem.line > 1 and "over the limit" in problem.message
    assert model is not None and "mers-el-kebir-1940" not in model.extra["scenarios"]


def test_an_error_in_the_changed_unit_is_reported_in_its_place(loaded):
    root, out = loaded
    _edit(root / UNIT, "\nhull: 2", "\nhull: lots")
    model, validation = builder.load_repository(root, out)
    assert model is None and validation is not None
    (problem,) = [p for p in validation.errors if p.path.endswith("hms-cossack.yaml")]
    assert problem.line > 1 and problem.column > 1


@pytest.mark.parametrize("change", ["catalogue", "new unit", "scenario"])
def test_anything_but_a_changed_unit_validates_the_whole_repository(loaded, monkeypatch, change):
    root, out = loaded
    if change == "catalogue":
        path = root / "cards" / "abilities.yaml"
        path.write_text(path.read_text() + "\n")
    elif change == "new unit":
        text = (root / UNIT).read_text().replace("id: hms-cossack", "id: hms-cossack-copy")
        (root / "cards" / "uk" / "hms-cossack-copy.yaml").write_text(text)
    else:
        path = next((root / "scenarios").glob("*.yaml"))
        path.write_text(path.read_text() + "\n")
    whole = []
    real = repository.validate
    monkeypatch.setattr(repository, "validate", lambda *a, **k: whole.append(1) or real(*a, **k))
    builder.load_repository(root, out)
    assert whole == [1]
