"""docs/scenarios.md's whole scenario: valid against the schema and every check, without a
warning, in the project's one layout, and using every field the schema has (so the page
gives an example of each)."""

from __future__ import annotations

import json
import re
import shutil

from tests.conftest import ROOT, copy_data
from wastools.data import repository
from wastools.data.formatting import format_files
from wastools.data.repository import read_plain

DOC = ROOT / "docs" / "scenarios.md"


def _example() -> str:
    text = DOC.read_text("utf-8")
    section = text[text.index("## A whole scenario") :]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def _fields(schema: dict, node: dict, path: str = "") -> set[str]:
    """Every property path of the schema (``sides[].forces[].unit``)."""
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].split("/")[-1]]
    found = set()
    for name, child in node.get("properties", {}).items():
        found.add(path + name)
        found |= _fields(schema, child, path + name + ".")
    if "items" in node:
        found |= _fields(schema, node["items"], path[:-1] + "[]." if path else "")
    return found


def _used(value, path: str = "") -> set[str]:
    found = set()
    if isinstance(value, dict):
        for name, child in value.items():
            found.add(path + name)
            found |= _used(child, path + name + ".")
    elif isinstance(value, list):
        for child in value:
            found |= _used(child, path[:-1] + "[]." if path else "")
    return found


def test_the_whole_scenario_validates_and_uses_every_field(tmp_path):
    root = copy_data(tmp_path)
    # the example's landing ship (a garrison needs an invader) is in the library fixture's cards
    shutil.copytree(ROOT / "tests" / "fixtures" / "library" / "cards", root / "cards", dirs_exist_ok=True)
    path = root / "scenarios" / "harbor-raid.yaml"
    path.write_text(_example(), "utf-8")
    result = repository.validate(root, [path])
    assert result.problems == [], "\n".join(map(str, result.problems))
    assert format_files(root, [path], check=True).changed == []
    schema = json.loads((ROOT / "schemas" / "scenario.schema.json").read_text())
    missing = _fields(schema, schema) - _used(read_plain(path))
    assert not missing, f"docs/scenarios.md's example leaves out {sorted(missing)}"
