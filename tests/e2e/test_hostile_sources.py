"""Classes of hostile input beyond the data files' values (issue 29): schemas, settings and
the environment, output names, and maps too big to draw. Each class has a generating test."""

from __future__ import annotations

import math
import os
import random
import re
import socket
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, ROOT
from tests.e2e.test_hostile import mini_repo
from wastools.cli import main
from wastools.data import repository

UNIT_SCHEMA = "schemas/unit.schema.json"


def run(root: Path, *args: str, env: dict | None = None):
    return CliRunner(env=env).invoke(main, ["--root", str(root), *args], catch_exceptions=True)


def no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> Path:
    return mini_repo(tmp_path_factory.mktemp("sources"))


@pytest.fixture
def schema(mini):
    """The unit schema's text, put back after the test."""
    path = mini / UNIT_SCHEMA
    before = path.read_bytes()
    yield path
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    elif os.path.lexists(path):
        path.unlink()
    path.write_bytes(before)


# --- schemas fetch nothing -------------------------------------------------------------------------

_WATCHING: list[str] = []


def _watch(event: str, args) -> None:
    if _WATCHING and event in ("socket.connect", "socket.getaddrinfo", "urllib.Request", "socket.__new__"):
        _WATCHING.append(event)
    elif _WATCHING and event == "open" and isinstance(args[0], str) and args[0].startswith(("/etc", "/proc/self")):
        _WATCHING.append(f"open {args[0]}")


sys.addaudithook(_watch)  # records only while a test watches (the list is not empty)


def validate_watched(root: Path):
    _WATCHING[:] = ["watching"]
    try:
        return repository.validate(root)
    finally:
        seen, _WATCHING[:] = _WATCHING[1:], []
        assert not seen, seen


REFERENCES = [
    "http://127.0.0.1:9/x.json",
    "https://example.invalid/schema.json#/$defs/x",
    "file:///etc/passwd",
    "file:///etc/hostname#/x",
    "../../../../etc/passwd",
    "/etc/passwd",
    "sets.schema.json#/$defs/nothing",
    "#/$defs/nothing",
    "http://[::1",
    "urn:uuid:00000000-0000-0000-0000-000000000000",
    "//host/share.json",
    "nations.schema.json#/properties/nations/../../../x",
]


@pytest.mark.parametrize("ref", REFERENCES)
def test_a_reference_out_of_the_schemas_is_a_located_problem_and_nothing_is_fetched(mini, schema, ref):
    text = schema.read_text()
    first = text.index('"$ref": "#/$defs/bands"')
    schema.write_text(text[:first] + f'"$ref": "{ref}"' + text[first + len('"$ref": "#/$defs/bands"') :])
    result = validate_watched(mini)
    line = text[:first].count("\n") + 1
    assert any(p.path == UNIT_SCHEMA and p.line == line and "resolves to nothing" in p.message for p in result.errors)
    assert result.repository is None


def test_references_among_the_repositorys_own_schemas_resolve(mini, schema):
    """A schema may use another schema of the folder, by file name or by its $id."""
    text = schema.read_text()
    schema.write_text(
        text.replace('"$ref": "#/$defs/bands"', '"$ref": "unit.schema.json#/$defs/bands"', 1).replace(
            '"$ref": "#/$defs/bands"', '"$ref": "https://wastools.invalid/schemas/unit.schema.json#/$defs/bands"', 1
        )
    )
    result = validate_watched(mini)
    assert not result.errors, result.errors


@settings(max_examples=40, deadline=None)
@given(cut=st.floats(0.0, 0.999))
def test_a_schema_cut_anywhere_is_a_located_problem(tmp_path_factory, cut):
    root = SCHEMA_ROOT.setdefault("root", mini_repo(tmp_path_factory.mktemp("cut")))
    path = root / UNIT_SCHEMA
    whole = (DATA / UNIT_SCHEMA).read_bytes()
    path.write_bytes(whole[: int(len(whole) * cut)])
    try:
        result = validate_watched(root)
    finally:
        path.write_bytes(whole)
    found = [p for p in result.errors if p.path == UNIT_SCHEMA]
    assert found and all(p.line >= 1 and p.column >= 1 for p in found), result.errors


SCHEMA_ROOT: dict = {}

SCHEMA_DAMAGE = {
    "not JSON": (lambda t: t.replace('"type": "object"', "'type': object", 1), "not valid JSON"),
    "NaN": (lambda t: t.replace('"minimum": 0', '"minimum": NaN', 1), "not a finite number"),
    "Infinity": (lambda t: t.replace('"minimum": 0', '"minimum": -Infinity', 1), "not a finite number"),
    "1e999": (lambda t: t.replace('"minimum": 0', '"minimum": 1e999', 1), "not a finite number"),
    "long number": (lambda t: t.replace('"minimum": 0', '"minimum": ' + "9" * 5001, 1), "characters"),
    "deep nesting": (lambda t: t.replace('"minimum": 0', '"minimum": ' + "[" * 3000 + "]" * 3000, 1), "max_depth"),
    "bidi override": (lambda t: t.replace('"title": "', '"title": "\u202e', 1), "U+202E"),
    "escaped NUL": (lambda t: t.replace('"title": "', '"title": "\\u0000', 1), "U+0000"),
    "escaped surrogate": (lambda t: t.replace('"title": "', '"title": "\\ud800', 1), "lone surrogate"),
    "not a schema": (lambda t: t.replace('"type": "object"', '"type": "objekt"', 1), "is not valid"),
    "another dialect": (lambda t: t.replace("2020-12", "2019-09", 1), "must be"),
    "an array": (lambda _t: "[1, 2]", "a schema is a JSON object"),
    "bad pattern": (lambda t: t.replace('"type": "object"', '"type": "object", "pattern": "(["', 1), "regex"),
    "reference loop": (
        lambda t: t.replace('"$ref": "#/$defs/bands"', '"$ref": "#/$defs/loop"', 1).replace(
            '"$defs": {', '"$defs": {"loop": {"$ref": "#/$defs/loop"}, ', 1
        ),
        "",
    ),
    "not UTF-8": (lambda t: t.replace('"title": "', '"title": "\udcff', 1), "not UTF-8"),
}


@pytest.mark.parametrize("name", SCHEMA_DAMAGE)
def test_a_broken_schema_is_a_located_problem_in_its_file(mini, schema, name):
    damage, message = SCHEMA_DAMAGE[name]
    schema.write_bytes(damage(schema.read_text()).encode("utf-8", "surrogateescape"))
    result = validate_watched(mini)
    found = [p for p in result.errors if p.path == UNIT_SCHEMA]
    assert found and all(p.line >= 1 for p in found) and message in " ".join(p.message for p in found), found
    assert result.repository is None
    for args in (["validate"], ["build", "--variant", "hex", "--paper", "letter", "--jobs", "1", "--site-only"]):
        cli = run(mini, *args)
        no_traceback(cli)
        assert cli.exit_code == 1 and UNIT_SCHEMA in cli.output, cli.output


@pytest.mark.parametrize("kind", ["link outside", "link inside", "linked folder", "folder", "pipe"])
def test_a_schema_that_is_not_a_plain_file_in_schemas_is_refused_unread(mini, schema, tmp_path, kind):
    outside = tmp_path / "outside.schema.json"
    outside.write_text('{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "SECRET"}')
    schema.unlink()
    if kind == "link outside":
        schema.symlink_to(outside)
    elif kind == "link inside":
        schema.symlink_to(mini / "schemas/sets.schema.json")
    elif kind == "folder":
        schema.mkdir()
    elif kind == "pipe":
        os.mkfifo(schema)
    else:  # the whole folder a link to a copy outside
        copy = tmp_path / "copy"
        copy.mkdir()
        for path in (mini / "schemas").iterdir():
            if path != schema:
                (copy / path.name).write_bytes(path.read_bytes())
        (copy / "unit.schema.json").write_bytes((DATA / UNIT_SCHEMA).read_bytes())
        (mini / "schemas").rename(tmp_path / "kept")
        (mini / "schemas").symlink_to(copy)
    try:
        result = validate_watched(mini)
        shown = "\n".join(map(str, result.errors))
        assert "SECRET" not in shown and result.repository is None
        assert re.search(r"^schemas/[\w.]*:1:1: .*(symbolic link|not a plain file|not opened)", shown, re.M), shown
        if kind == "pipe":  # the whole command, with its cache: nothing may wait on the pipe
            import subprocess

            done = subprocess.run(
                [sys.executable, "-m", "wastools", "--root", str(mini), "validate"],
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == 1 and "a named pipe" in done.stdout, done.stdout + done.stderr
    finally:
        if kind == "linked folder":
            (mini / "schemas").unlink()
            (tmp_path / "kept").rename(mini / "schemas")
            schema.unlink(missing_ok=True)


def test_the_fixtures_schemas_are_the_projects():
    """The fixture repository keeps copies of the schemas (a link would be refused)."""
    for path in sorted((ROOT / "schemas").glob("*.json")):
        copy = DATA / "schemas" / path.name
        assert copy.read_bytes() == path.read_bytes(), f"copy {path.relative_to(ROOT)} to {copy.relative_to(ROOT)}"


def test_no_validator_is_made_with_automatic_retrieval():
    """Every JSON Schema validator in the tool is made with the repository's own registry."""
    for path in (ROOT / "wastools").rglob("*.py"):
        text = path.read_text()
        for found in re.finditer(r"Draft202012Validator\((.*)\)", text):
            assert "registry=" in found[1] or "META_SCHEMA" in found[1], (path, found[0])
        assert "RefResolver" not in text and "jsonschema.validate(" not in text, path


# --- settings and the environment ------------------------------------------------------------------


NOT_FINITE = ["nan", "inf", "-inf", "+inf", "NaN", "Infinity", "1e999", "-1e400"]


def _numeric_parameters():
    from wastools.variants import VARIANTS

    return [(v.name, p.name) for v in VARIANTS.values() for p in v.parameters if type(p.default) in (int, float)]


@pytest.mark.parametrize("variant, name", _numeric_parameters())
def test_no_parameter_takes_a_number_that_is_not_finite(tmp_path, variant, name):
    from wastools.core.problems import DataError
    from wastools.data import config, params
    from wastools.variants import ParameterError

    for value in NOT_FINITE:
        with pytest.raises(ParameterError):
            params.parse((f"{variant}.{name}={value}",), [variant])
        (tmp_path / "wastools.toml").write_text(f"[params.{variant}]\n{name} = {value}\n")
        with pytest.raises(DataError) as raised:  # not TOML, or a value the parameter refuses
            config.read(tmp_path)
        assert raised.value.problems[0].line == 2, raised.value.problems


@pytest.mark.parametrize(
    "name", ["printer.scale_x", "printer.scale_y", "printer.back_offset_x", "printer.back_offset_y"]
)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_no_printer_setting_takes_a_number_that_is_not_finite(tmp_path, name, value):
    from wastools.core.problems import DataError
    from wastools.data import config

    section, key = name.split(".")
    (tmp_path / "wastools.toml").write_text(f"[{section}]\n{key} = {value}\n")
    with pytest.raises(DataError) as raised:
        config.read(tmp_path)
    assert raised.value.problems[0].line == 2
    assert config.check(name, float(value)) is not None


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=30) | st.from_regex(r"[-+]?\d{0,45}(\.\d*)?(e[-+]?\d{1,4})?", fullmatch=True))
def test_a_parameter_value_is_a_finite_value_or_a_parameter_error(text):
    from wastools.variants import VARIANTS, ParameterError

    for variant in VARIANTS.values():
        for parameter in variant.parameters:
            try:
                value = parameter.parse(text)
            except ParameterError:
                continue
            assert not isinstance(value, float) or math.isfinite(value)


@pytest.mark.parametrize(
    "text",
    ["x = " + "[" * 3000 + "]" * 3000, "[build]\nbacks = tru\u202ee\n", "[printer]\nscale_x = 1e999\n", "\x00"],
)
def test_a_settings_file_that_cannot_be_read_is_located(tmp_path, text):
    from wastools.core.problems import DataError
    from wastools.data import config

    (tmp_path / "wastools.toml").write_text(text)
    with pytest.raises(DataError) as raised:
        config.read(tmp_path)
    assert raised.value.problems[0].line >= 1


SHAPES = {
    "[[{name}]]\nx = 1\n": "an array of tables",
    "{name} = 3\n": "a number",
    "{name} = [1]\n": "a list",
    "{name} = 'x'\n": "text",
    "{name} = true\n": "true or false",
    "{name} = 2024-01-01\n": "a date or time",
}


@pytest.mark.parametrize("name", ["build", "printer", "site", "params", "params.hex"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_known_section_in_another_shape_says_what_shape_it_must_take(tmp_path, name, shape):
    """``[[build]]`` or ``build = 3`` is the right name in the wrong shape: the message names
    the shape wanted and the one found, never "unknown section (did you mean 'build'?)"."""
    from wastools.core.problems import DataError
    from wastools.data import config

    (tmp_path / "wastools.toml").write_text(shape.format(name=name))
    with pytest.raises(DataError) as raised:
        config.read(tmp_path)
    [problem] = raised.value.problems
    assert problem.field == name and problem.message == f"expected a table [{name}], not {SHAPES[shape]}" + (
        " ([[...]])" if SHAPES[shape] == "an array of tables" else ""
    ), problem


@settings(max_examples=300, deadline=None)
@given(value=st.text(st.characters(exclude_characters="\x00"), max_size=25) | st.integers(-(10**15), 10**15).map(str))
def test_source_date_epoch_is_a_date_or_a_clear_error(value):
    from wastools.core.fingerprints import LAST_SOURCE_DATE, SourceDateError, source_date

    os.environ["SOURCE_DATE_EPOCH"] = value
    try:
        try:
            date = source_date()
        except SourceDateError as exc:
            assert "SOURCE_DATE_EPOCH" in str(exc) and "\n" not in str(exc)
            assert value and (not (value.isascii() and value.isdigit()) or int(value) > LAST_SOURCE_DATE)
            return
        assert date is None if value == "" else date == int(value) and 0 <= date <= LAST_SOURCE_DATE
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]


@pytest.mark.parametrize("value", ["garbage", "١٧٠٠٠٠٠٠٠٠", "²", " 1700000000", "1700000000.5", "-1", "253402300800"])
def test_a_build_with_a_malformed_source_date_stops_with_one_line(mini, value):
    result = run(mini, "build", "--variant", "hex", env={"SOURCE_DATE_EPOCH": value})
    no_traceback(result)
    assert result.exit_code == 2
    assert [line for line in result.output.splitlines() if line] == [result.output.strip()]
    assert "SOURCE_DATE_EPOCH" in result.output


# --- output names -------------------------------------------------------------------------------


SUFFIXES = ["", "-a4", "-poster", "-a4-poster", "-poster-a4", "-letter", "-x"]


@settings(max_examples=25, deadline=None)
@given(
    base=st.sampled_from(["skirmish", "a", "raid-2"]), first=st.sampled_from(SUFFIXES), second=st.sampled_from(SUFFIXES)
)
def test_scenario_ids_whose_outputs_meet_are_refused_in_both(tmp_path_factory, base, first, second):
    from tests.e2e.test_hostile import MINI_SCENARIO
    from wastools.data.scenarios import scenario_outputs

    if first == second:
        return
    root = OUTPUT_ROOT.setdefault("root", mini_repo(tmp_path_factory.mktemp("outputs")))
    folder = root / "scenarios"
    for path in folder.glob("*.yaml"):
        path.unlink()
    ids = [base + first, base + second]
    for sid in ids:
        (folder / f"{sid}.yaml").write_text(MINI_SCENARIO.replace("id: skirmish", f"id: {sid}"))
    result = repository.validate(root)
    meet = bool(set(scenario_outputs(ids[0])) & set(scenario_outputs(ids[1])))
    clashes = {p.path for p in result.errors if "a build would write" in p.message}
    assert clashes == ({f"scenarios/{sid}.yaml" for sid in ids} if meet else set()), result.errors
    assert not (result.errors and not meet), result.errors
    if first in ("", "-a4") and second == first + "-poster":
        assert meet  # the example: skirmish's poster is skirmish-poster's pack


OUTPUT_ROOT: dict = {}


def test_the_planned_outputs_are_the_builds(repo, tmp_path):
    """``scenario_outputs`` names exactly the files the build plans for each scenario."""
    from wastools import pipeline as builder
    from wastools.core.store import Store
    from wastools.data.scenarios import scenario_outputs
    from wastools.pipeline.plan import pack_targets, plan_cards, sheet_targets

    selection, options = builder.Selection(), builder.Options()
    store = Store(tmp_path, tmp_path / "store")
    planned = {t.path for t in pack_targets(repo, selection, options, plan_cards(repo, selection, options, store))}
    planned |= {t.path for t in sheet_targets(repo, selection, options)}
    for sid in repo.scenarios:
        mine = {rel for rel in planned if rel.startswith(f"scenarios/{sid}") and rel.endswith(".pdf")}
        assert mine == set(scenario_outputs(sid)), (sid, mine)


# --- maps ----------------------------------------------------------------------------------------


VARIANT_PARAMS = {
    "standard": st.just({}),
    "large-map": st.fixed_dictionaries({"sector_in": st.sampled_from([1.0, 2.0, 4.0, 12.0])}),
    "hex": st.fixed_dictionaries({"hex_cm": st.sampled_from([1.0, 3.0, 6.0, 30.0])}),
    "off-grid": st.just({}),
    "tabletop-inches": st.just({}),
    "tabletop-cm": st.just({}),
}


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(sorted(VARIANT_PARAMS)),
    data=st.data(),
    width=st.floats(0.5, 250),
    height=st.floats(0.5, 250),
    area=st.none() | st.tuples(st.floats(0, 250), st.floats(0, 250), st.floats(0, 250), st.floats(0, 250)),
)
def test_the_pages_validation_counts_are_the_pages_the_pack_prints(variant, data, width, height, area):
    """``map_size`` (what validation measures) against the pack's own tiling, for any map."""
    from wastools.data.map_size import PAPER_SIZES, map_problems, printed_region, scenario_geometry, tiled_pages
    from wastools.data.scenarios import Scenario
    from wastools.render import scenario_pack
    from wastools.render.maps import area_tiles
    from wastools.render.pages import MARGIN, PAPERS, Page
    from wastools.variants import VARIANTS

    assert PAPER_SIZES == PAPERS and MARGIN == 36.0
    params = VARIANTS[variant].resolve({k: str(v) for k, v in data.draw(VARIANT_PARAMS[variant]).items()})
    map_data = {"width": width, "height": height}
    if area:
        map_data["play_area"] = [[area[0], area[1]], [area[2], area[3]]]
    scenario = Scenario("s", "S", variant, params, {"map": map_data}, ())
    geo = scenario_geometry(VARIANTS[variant].board(params), map_data)
    if map_problems(geo, None, 10**9, 10**9, "the map"):
        return  # too small to draw: validation refuses it
    region = printed_region(geo, scenario.data)
    spec, to_map = scenario_pack.map_spec(scenario)
    assert region == scenario_pack.play_area(scenario, spec, to_map)
    x, y, w, h = region or (0, 0, spec.width, spec.height)
    for paper in PAPER_SIZES:
        page = Page.of(paper, landscape=w > h)
        actual = len(area_tiles(spec, page, region)) if w > 0 else 0
        assert tiled_pages(w, h, geo.overlap, paper) == actual


def _reference_inside(point, polygon, tolerance=1.0) -> bool:
    """The pack's former test, point by point: inside, or within ``tolerance`` of the outline."""
    x, y = point
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy or 1)))
        if math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)) <= tolerance:
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * dx / dy:
            inside = not inside
    return inside


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    corners=st.integers(3, 12),
    on_grid=st.booleans(),
    flat=st.sampled_from([28.35, 170.08, 850.39]),
)
def test_the_hexes_an_area_covers_are_the_point_by_point_answer(seed, corners, on_grid, flat):
    from wastools.core.geometry import hex_center
    from wastools.core.outline import points_in_polygon

    tolerance = 1.0

    rng = random.Random(seed)
    cols, rows = rng.randint(1, 14), rng.randint(1, 10)
    if on_grid:  # corners at hex centres, as scenarios write them: edges pass exactly through centres
        polygon = [hex_center(rng.randrange(cols), rng.randrange(rows), flat) for _ in range(corners)]
    else:
        polygon = [
            (rng.uniform(-flat, (cols + 1) * flat), rng.uniform(-flat, (rows + 1) * flat)) for _ in range(corners)
        ]
    grid = [(hex_center(c, 0, flat)[0], [hex_center(c, r, flat)[1] for r in range(rows)]) for c in range(cols)]
    found = set(points_in_polygon(polygon, grid, tolerance))
    for col in range(cols):
        for row in range(rows):
            centre = hex_center(col, row, flat)
            gap = min(_distance(centre, a, b) for a, b in _edges(polygon))
            if abs(gap - tolerance) > 1e-6:  # not on the tolerance's own edge, where rounding decides
                assert (centre in found) == _reference_inside(centre, polygon), (centre, polygon)


def _edges(polygon):
    return list(zip(polygon, polygon[1:] + polygon[:1], strict=True))


def _distance(p, a, b) -> float:
    (x, y), (x1, y1), (x2, y2) = p, a, b
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy or 1)))
    return math.hypot(x - (x1 + t * dx), y - (y1 + t * dy))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**6), corners=st.integers(3, 10))
def test_a_shape_cut_to_a_page_covers_what_the_shape_covers_there(seed, corners):
    from wastools.core.outline import clip_polygon

    rng = random.Random(seed)
    polygon = [(rng.uniform(-50, 150), rng.uniform(-50, 150)) for _ in range(corners)]
    box = (0.0, 0.0, 100.0, 80.0)
    cut = clip_polygon(polygon, box)
    for _ in range(200):
        p = (rng.uniform(0.5, 99.5), rng.uniform(0.5, 79.5))
        if min(_distance(p, a, b) for a, b in _edges(polygon)) < 1e-6:
            continue
        assert _even_odd(p, polygon) == (len(cut) >= 3 and _even_odd(p, cut)), (p, polygon, cut)


def _even_odd(p, polygon) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in _edges(polygon):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), flat=st.sampled_from([28.35, 170.08, 850.39]))
def test_a_hex_areas_rings_enclose_exactly_its_hexes(seed, flat):
    from wastools.core.geometry import hex_center
    from wastools.core.outline import hex_rings

    rng = random.Random(seed)
    chosen = [hex_center(c, r, flat) for c in range(10) for r in range(8) if rng.random() < 0.45]
    if not chosen:
        return
    closed = hex_rings(chosen, flat)
    for c in range(10):
        for r in range(8):
            centre = hex_center(c, r, flat)
            inside = sum(_even_odd(centre, ring) for ring in closed) % 2 == 1
            assert inside == (centre in chosen)


@pytest.mark.parametrize(
    "old, new, message, limits",
    [
        ("width: 12\n  height: 8", "width: 250\n  height: 250", "has 62500 hexes, over the limit of 5000", {}),
        ("width: 12\n  height: 8", "width: 0.4\n  height: 8", "less than one hex across", {}),
        ("variant: hex", "variant: large-map", "would print on", {"max_map_pages": 20}),
        ("variant: hex", "variant: large-map", "has 192 sectors, over the limit of 10", {"max_map_cells": 10}),
        ("width: 12", "width: 60", "larger than a PDF page", {}),
    ],
)
def test_a_scenario_map_past_a_limit_is_refused_at_its_map(mini, old, new, message, limits):
    from tests.e2e.test_hostile import MINI_SCENARIO
    from wastools.data.yamlio import Limits

    path = mini / "scenarios/skirmish.yaml"
    text = MINI_SCENARIO.replace(old, new)
    if "large-map" in new:
        text = text.replace("width: 12", "width: 24")  # 24 x 8 sectors of 4 in
    if "60" in new:
        text = text.replace("variant: hex", "variant: large-map")  # 60 sectors of 4 in: 240 in
    path.write_text(text)
    try:
        result = repository.validate(mini, limits=Limits(**limits))
    finally:
        path.write_text(MINI_SCENARIO)
    found = [p for p in result.errors if p.path == "scenarios/skirmish.yaml"]
    assert found and found[0].field == "map" and (found[0].line, found[0].column) == (7, 3), result.errors
    assert any(message in p.message for p in found), found


@pytest.mark.slow
def test_the_worst_map_the_limits_allow_builds_in_bounded_time_and_size(tmp_path):
    """A hex map of 5,000 one-centimetre hexes with a hundred islands each covering its
    western half and ten zones each covering it whole (the limits' worst case tried, with
    sea in every zone for its ships): the pack builds and its map pages stay small (the work
    bounded by what is drawn: tens of seconds on a busy test machine, not a quarter of an hour)."""
    import json

    root = mini_repo(tmp_path / "repo")
    (root / "scenarios/skirmish.yaml").unlink()

    def ring(w, h, shrink, west=False):
        cx, cy, rx, ry = (w + 1) / 2, (h + 1) / 2, (w - 1) / 2 - shrink, (h - 1) / 2 - shrink
        if west:  # the western half of the map
            cx, rx = (w + 2) / 4, (w - 2) / 4 - shrink
        angles = [2 * math.pi * i / 64 for i in range(64)]
        return [[round(cx + rx * math.cos(a), 2), round(cy + ry * math.sin(a), 2)] for a in angles]

    w, h = 100, 50
    scenario = {
        "id": "worst",
        "title": "Worst case",
        "variant": "hex",
        "parameters": {"hex_cm": 1},
        "briefing": "x",
        "map": {"width": w, "height": h},
        "points_limit": 2000,
        "turn_limit": 6,
        "sides": [
            {"side": "a", "name": "A", "forces": [{"unit": "hms-cossack"}]},
            {"side": "b", "name": "B", "forces": [{"unit": "uss-fletcher-dd-445"}]},
        ],
        "victory": ["win"],
        "terrain": [
            {"kind": "island", "name": f"Island {i}", "points": ring(w, h, 0.01 * i, True)} for i in range(100)
        ],
        "deployment_zones": [{"side": "ab"[i % 2], "name": f"Zone {i}", "points": ring(w, h, 0)} for i in range(10)],
    }
    header = "# yaml-language-server: $schema=../schemas/scenario.schema.json\n"
    (root / "scenarios/worst.yaml").write_text(header + json.dumps(scenario, separators=(",", ":")) + "\n")
    result = run(root, "build", "--variant", "hex", "--paper", "letter", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert (root / "build/scenarios/worst.pdf").stat().st_size < 3_000_000
    assert (root / "build/scenarios/worst-poster.pdf").stat().st_size < 1_000_000


def test_a_hostile_corpus_file_makes_no_socket(mini):
    """Validation never opens a socket, whatever the schemas say (a listener would see it)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    path = mini / UNIT_SCHEMA
    before = path.read_bytes()
    path.write_text(before.decode().replace('"$ref": "#/$defs/bands"', f'"$ref": "http://127.0.0.1:{port}/x.json"', 1))
    try:
        repository.validate(mini)
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        path.write_bytes(before)
        listener.close()
