"""The unit schema accepts real cards and rejects each kind of mistake."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import ROOT
from wastools.data.repository import validator

VALID = {
    "id": "hms-example",
    "name": "HMS Example",
    "nation": "uk",
    "type": "destroyer",
    "set": "war-at-sea",
    "number": 1,
    "rarity": "common",
    "year": 1941,
    "points": 7,
    "speed": 2,
    "armor": 3,
    "vital_armor": 7,
    "hull": 2,
    "attacks": {"main": [4, 4, 3, None], "torpedo": [2, 2, None, None]},
    "abilities": ["Sub Hunter"],
    "history": {
        "class": "Example",
        "top_speed": {"value": 36, "unit": "kn", "source": "Jane's Fighting Ships 1941"},
        "length": {"value": 110.5, "unit": "m", "source": "Jane's Fighting Ships 1941"},
    },
}


def errors(data):
    return sorted(e.message for e in validator(ROOT, "unit").iter_errors(data))


def test_valid_unit_passes():
    assert errors(VALID) == []


def test_aircraft_without_speed_passes():
    plane = {k: v for k, v in VALID.items() if k != "speed"} | {
        "type": "fighter",
        "attacks": {"anti_air": [3, None, None, None]},
    }
    plane["history"] = {"top_speed": {"value": 331, "unit": "mph", "source": "a book"}}
    assert errors(plane) == []


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: d["attacks"]["main"].__setitem__(2, "five"), "is not valid under any of the given schemas"),
        (lambda d: d["attacks"].__setitem__("main", [1, 2, 3]), "is too short"),
        (lambda d: d["attacks"]["main"].__setitem__(0, -1), "is not valid under any"),
        (lambda d: d.__setitem__("nation", "atlantis"), "is not one of"),
        (lambda d: d.__setitem__("rarity", "mythic"), "is not one of"),
        (lambda d: d.__setitem__("type", "zeppelin"), "is not one of"),
        (lambda d: d.__setitem__("colour", "grey"), "Additional properties are not allowed"),
        (lambda d: d.pop("points"), "'points' is a required property"),
        (lambda d: d.pop("speed"), "'speed' is a required property"),
        (lambda d: d.__setitem__("id", "HMS Example"), "does not match"),
        (lambda d: d["history"]["top_speed"].pop("source"), "'source' is a required property"),
        (lambda d: d["history"]["top_speed"].__setitem__("unit", "furlongs"), "is not one of"),
        (lambda d: d["history"]["length"].__setitem__("value", 0), "less than or equal to the minimum"),
        (lambda d: d["history"].__setitem__("colour", "grey"), "Additional properties are not allowed"),
    ],
)
def test_invalid_unit_is_rejected(change, expected):
    data = copy.deepcopy(VALID)
    change(data)
    found = errors(data)
    assert any(expected in message for message in found), found


def test_aircraft_with_speed_is_rejected():
    plane = copy.deepcopy(VALID) | {"type": "fighter"}
    assert errors(plane)


@pytest.mark.parametrize("kind", ["sets", "nations", "abilities"])
def test_catalogue_schemas_reject_unknown_fields(kind):
    key = kind
    entry = {
        "sets": {"id": "x", "name": "X", "year": 2008, "total": 3},
        "nations": {"id": "uk", "name": "UK", "side": "allies"},
        "abilities": {"name": "Slow {n}"},
    }[kind]
    assert not list(validator(ROOT, kind).iter_errors({key: [entry]}))
    assert list(validator(ROOT, kind).iter_errors({key: [entry | {"extra": 1}]}))


def test_every_schema_is_draft_2020_12():
    import json

    for path in (ROOT / "schemas").glob("*.schema.json"):
        schema = json.loads(path.read_text())
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", path
        assert schema.get("additionalProperties") is False, path
