"""`wastools show` and `wastools variants`, in both forms."""

from __future__ import annotations

import json

import pytest

from wastools.content.showing import render_text
from wastools.variants import VARIANTS


def test_every_unit_converts_under_every_variant_in_both_forms(repo):
    for variant in VARIANTS.values():
        params = variant.defaults()
        for unit in repo.units.values():
            adapted = variant.adapt(unit, params)
            doc = json.loads(json.dumps(adapted.to_json()))
            assert doc["unit"] == unit.id and doc["variant"] == variant.name
            assert {"value", "unit", "from"} <= set(doc["movement"])
            assert unit.name in render_text(adapted, variant)


def test_show_json_document(cli):
    result = cli("show", "uss-fletcher-dd-445", "--variant", "hex", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert {"unit", "name", "variant", "parameters", "movement", "attacks", "rules"} <= set(doc)
    assert (doc["movement"]["value"], doc["movement"]["unit"]) == (7, "hexes")
    assert "36.5 kn is 67.6 km/h: a hex for each 10 km/h" in doc["movement"]["from"]
    main = next(a for a in doc["attacks"] if a["type"] == "main")
    assert main["bands"][1] == {"band": 1, "dice": 4, "min": 2, "max": 4, "unit": "hexes"}
    assert all("from" in rule for rule in doc["rules"].values())


def test_show_text_and_params(cli):
    result = cli("show", "uss-fletcher-dd-445", "--variant", "tabletop-cm", "--param", "table_scale=8ft")
    assert result.exit_code == 0
    assert "movement: 30 cm" in result.output


def test_show_all_variants(cli):
    result = cli("show", "bismarck", "--json")
    assert [d["variant"] for d in json.loads(result.output)] == list(VARIANTS)


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "no-such-unit"], "unknown unit"),
        (["show", "bismarck", "--variant", "chess"], "unknown variant"),
        (["show", "bismarck", "--variant", "hex", "--param", "hex_cm=big"], "is not a number"),
        (["show", "bismarck", "--variant", "hex", "--param", "colour=red"], "unknown parameter"),
        (["show", "bismarck", "--variant", "tabletop-cm", "--param", "table_scale=7ft"], "is not one of"),
    ],
)
def test_show_usage_errors(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2 and message in result.output


def test_variants_lists_parameters(cli):
    text = cli("variants").output
    assert "--param tabletop-cm.table_scale=6ft (one of 6ft, 8ft)" in text
    doc = json.loads(cli("variants", "--json").output)
    assert [v["name"] for v in doc] == list(VARIANTS)
