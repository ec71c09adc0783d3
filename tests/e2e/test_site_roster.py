"""Fleet rosters: located errors for bad files, and decks of exactly the roster's cards."""

from __future__ import annotations

import io
import math
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from tests import printcheck
from wastools.core.problems import DataError
from wastools.site.roster import MAX_CARDS, load_roster
from wastools.site.roster_text import unit_code
from wastools.variants import VARIANTS
from wastools.variants.fleet import check_fleet

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str, name: str = "roster.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_good_roster_loads_with_counts_and_points(repo, tmp_path):
    path = write(
        tmp_path,
        "name: Hunters\nvariant: tabletop-cm\npoints_limit: 100\nunits:\n"
        "  - unit: u-47\n    count: 2\n  - unit: hms-cossack\n  - unit: u-47\n",
    )
    roster = load_roster(path, repo, ROOT)
    assert [(u.id, n) for u, n in roster.entries] == [("u-47", 3), ("hms-cossack", 1)]
    assert roster.cards == 4 and roster.points == 3 * repo.units["u-47"].points + repo.units["hms-cossack"].points
    verdict = dict((n, c) for n, _t, c in roster.checks())["tabletop-cm"]
    assert verdict == check_fleet(VARIANTS["tabletop-cm"], list(roster.entries), 100)
    assert not verdict.legal  # three U-boats are over a quarter of 100 points


def test_every_problem_is_located(repo, tmp_path):
    path = write(
        tmp_path,
        'name: ""\nvariant: hexx\npoints_limit: 0\ncolour: red\nunits:\n'
        "  - unit: hms-cosack\n    count: 0\n  - count: 2\n",
    )
    with pytest.raises(DataError) as caught:
        load_roster(path, repo, ROOT)
    lines = [str(p) for p in caught.value.problems]
    shown = str(path)
    assert f"{shown}:2:10: variant: 'hexx' is not one of the allowed values (did you mean 'hex'?)" in lines
    assert f"{shown}:4:1: colour: unknown field 'colour'" in lines
    assert any(line.startswith(f"{shown}:6:11: units[0].unit: no unit with id 'hms-cosack'") for line in lines)
    assert any(line.startswith(f"{shown}:7:12: units[0].count:") for line in lines)
    assert f"{shown}:8:5: units[1].unit: required field is missing" in lines
    assert any(line.startswith(f"{shown}:1:7: name:") for line in lines) and any(
        line.startswith(f"{shown}:3:15: points_limit:") for line in lines
    )


def test_hostile_rosters_get_an_error_not_a_traceback(repo, tmp_path):
    cases = {
        "not a mapping": "- 1\n- 2\n",
        "too many cards": "name: x\nvariant: hex\npoints_limit: 10\nunits:\n" + "  - unit: u-47\n    count: 99\n" * 4,
        "bad YAML": "name: [unclosed\n",
        "empty": "# nothing\n",
        "anchors": "name: &a x\nvariant: hex\npoints_limit: 5\nunits: [{unit: *a}]\n",
    }
    for what, text in cases.items():
        with pytest.raises(DataError) as caught:
            load_roster(write(tmp_path, text), repo, ROOT)
        assert caught.value.problems, what
        if what == "too many cards":
            assert f"396 cards is more than a roster may print ({MAX_CARDS})" in str(caught.value)


def test_the_command_reports_problems_and_builds_nothing(cli, tmp_path):
    path = write(tmp_path, "name: x\nvariant: hex\npoints_limit: 10\nunits:\n  - unit: no-such-ship\n")
    result = cli("build", "--roster", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert f"{path}:5:11: units[0].unit: no unit with id 'no-such-ship'" in result.output
    assert not (tmp_path / "out" / "rosters").exists()


def placed_cards(page) -> int:
    return sum(1 for name in page["/Resources"]["/XObject"] if name.startswith("/Card"))


@pytest.mark.slow
def test_a_roster_builds_a_deck_of_exactly_its_cards(cli, repo, tmp_path):
    entries = {"hms-cossack": 2, "uss-fletcher-dd-445": 5, "u-47": 1, "bismarck": 3}
    text = "name: Mixed <squadron>\nvariant: hex\npoints_limit: 150\nunits:\n" + "".join(
        f"  - unit: {u}\n    count: {n}\n" for u, n in entries.items()
    )
    path = write(tmp_path, text, "mixed.yaml")
    result = cli("build", "--roster", str(path), "--paper", "letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "rosters" / "mixed.pdf"
    cards = sum(entries.values())
    points = sum(repo.units[u].points * n for u, n in entries.items())
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1 + math.ceil(cards / 9)
    assert sum(placed_cards(p) for p in reader.pages[1:]) == cards
    with pdfplumber.open(pdf) as doc:
        first = doc.pages[0].extract_text()
        sheets = "\n".join(p.extract_text() for p in doc.pages[1:])
        small = printcheck.small_text(doc.pages[0])
    edges = printcheck.ink_near_edges(pdf.read_bytes())
    assert f"{cards} cards, {points} points" in first and "Mixed <squadron>" in first
    check = check_fleet(VARIANTS["hex"], [(repo.units[u], n) for u, n in entries.items()], 150)
    assert (f"legal: {points} of 150" in first) == check.legal
    assert sheets.count("Bismarck") >= entries["bismarck"]
    assert small == [] and edges == []  # the print standard on every page (the report page's bars: see below)
    assert re.search(rf"{cards} cards, {points} points", result.output)


def test_each_sheet_of_a_roster_sets_its_cards_in_one_body_size(cli, tmp_path):
    """A carrier that fits only at 6 pt dealt beside fighters at 8 and cruisers at 7: its
    sheet is set at 6; the next sheet, fighters alone, at their own 8."""
    from tests.e2e.test_print_standard import body_sizes

    entries = {"a6m2-zeke": 4, "akagi": 1, "aoba": 4, "ambra": 5}
    text = "name: Kido Butai\nvariant: hex\npoints_limit: 500\nunits:\n" + "".join(
        f"  - unit: {u}\n    count: {n}\n" for u, n in entries.items()
    )
    path = write(tmp_path, text, "kido.yaml")
    result = cli("build", "--roster", str(path), "--paper", "letter", "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert body_sizes(tmp_path / "out" / "rosters" / "kido.pdf", "letter")[1:] == [{6.0}, {8.0}]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_report_page_keeps_the_print_standard(repo, tmp_path, paper):
    """The roster's first page, like every sheet: a horizontal and a vertical check bar that
    measure what their labels say, nothing within 12 pt of an edge, no text under 6 pt."""
    from wastools.site.roster import report_pdf

    path = write(tmp_path, "name: Hunters\nvariant: hex\npoints_limit: 100\nunits:\n  - unit: u-47\n    count: 2\n")
    pdf = report_pdf(load_roster(path, repo, ROOT), repo, paper)
    assert printcheck.ink_near_edges(pdf) == []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages) == 1
        page = doc.pages[0]
        bars = printcheck.check_bars(page)
        assert printcheck.small_text(page) == []
    assert {(b.label, b.vertical) for b in bars} == {("100 mm", True), ("4 in", True), ("100 mm", False)}
    for bar in bars:
        assert bar.measured == pytest.approx(bar.wanted, abs=0.05), bar


def test_the_report_page_has_a_qr_code_of_the_fleets_link_when_the_site_is_published(repo, tmp_path):
    import pypdfium2 as pdfium
    import zxingcpp

    from wastools.site.roster import report_pdf

    path = write(tmp_path, "name: Wolf & co\nvariant: hex\npoints_limit: 90\nunits:\n  - unit: u-47\n    count: 2\n")
    roster = load_roster(path, repo, ROOT)
    pdf = report_pdf(roster, repo, "letter", "https://example.org/was")
    found = [r.text for r in zxingcpp.read_barcodes(pdfium.PdfDocument(pdf)[0].render(scale=2).to_pil())]
    code = f"1.{unit_code('u-47')}:2"  # the compact code, as the fleet builder's links hold it
    assert found == [f"https://example.org/was/fleet.html#c={code}&name=Wolf+%26+co&limit=90&deck=hex"]
    plain = report_pdf(roster, repo, "letter")  # no published site: no code
    assert zxingcpp.read_barcodes(pdfium.PdfDocument(plain)[0].render(scale=2).to_pil()) == []


def test_a_75_unit_rosters_qr_code_reads_from_paper_at_150_dpi(repo, tmp_path):
    """The first page of a roster of 75 distinct units, drawn at 150 dpi: its QR code reads
    back to the fleet builder's link of exactly that fleet."""
    import pypdfium2 as pdfium
    import zxingcpp

    from wastools.site.roster import report_pdf

    ids = sorted(repo.units)[:75]
    lines = "".join(f"  - unit: {u}\n    count: {1 + i % 3}\n" for i, u in enumerate(ids))
    roster = load_roster(
        write(tmp_path, f"name: Grand fleet\nvariant: hex\npoints_limit: 5000\nunits:\n{lines}"), repo, ROOT
    )
    address = "https://war-at-sea-club.github.io/house-rules-and-fleets/site"
    pdf = report_pdf(roster, repo, "letter", address)
    (found,) = [r.text for r in zxingcpp.read_barcodes(pdfium.PdfDocument(pdf)[0].render(scale=150 / 72).to_pil())]
    head, code = found.split("#c=", 1)
    assert head == address + "/fleet.html" and code.endswith("&name=Grand+fleet&limit=5000&deck=hex")
    by_code = {unit_code(u): u for u in repo.units}
    held = [part.split(":") for part in code.split("&")[0].split(".")[1:]]
    assert [(by_code[p[0]], int(p[1]) if len(p) > 1 else 1) for p in held] == [
        (u, 1 + i % 3) for i, u in enumerate(ids)
    ]


@pytest.mark.parametrize(
    "value,ok",
    [
        ('"https://example.org/was/"', True),
        ('""', True),
        ('"javascript:alert(1)"', False),
        ('"file:///etc/passwd"', False),
        ('"https://example.org/a b"', False),
        ('"https://example.org/?q=1"', False),
        ('"https:///nohost"', False),
        ("42", False),
        ('"https://example.org/' + "x" * 300 + '"', False),
    ],
)
def test_the_site_address_setting_is_checked(tmp_path, value, ok):
    from wastools.data.config import read

    (tmp_path / "wastools.toml").write_text(f"[site]\naddress = {value}\n")
    if ok:
        assert read(tmp_path)["site.address"].value == value.strip('"')
        return
    with pytest.raises(DataError) as caught:
        read(tmp_path)
    assert str(caught.value.problems[0]).startswith("wastools.toml:2:1: site.address: expected the http(s) address")


# --- rosters read whatever the schema says, reported within the caps, names as the site writes them


def test_an_emptied_roster_schema_still_ends_in_located_problems(repo, tmp_path):
    """Schemas are data: with the roster schema allowing anything, every value the code reads
    is still checked by the code, each at its line and field (no KeyError)."""
    root = tmp_path / "data"
    (root / "schemas").mkdir(parents=True)
    (root / "schemas" / "roster.schema.json").write_text('{"$schema": "https://json-schema.org/draft/2020-12/schema"}')
    cases = {
        "# nothing but a comment\nname: x\n": [
            "variant: required field is missing",
            "points_limit: required field is missing",
            "units: required field is missing",
        ],
        "name: 7\nvariant: hexx\npoints_limit: true\nunits: {}\n": [
            ":1:7: name: expected the fleet's name, as text",
            ":2:10: variant: unknown variant 'hexx' (did you mean 'hex'?)",
            ":3:15: points_limit: expected a whole number of points from 1 to 10000",
            ":4:8: units: expected a list of the fleet's units",
        ],
        "name: x\nvariant: hex\npoints_limit: 5\nunits:\n  - 7\n  - unit: [a]\n  - count: 2\n  - unit: bismarck\n"
        "    count: 100\n": [
            ":5:5: units[0]: expected a unit and its count",
            ":6:11: units[1].unit: expected a unit id",
            "units[2].unit: required field is missing",
            ":9:12: units[3].count: expected a whole number of cards from 1 to 99",
        ],
    }
    for text, expected in cases.items():
        with pytest.raises(DataError) as caught:
            load_roster(write(tmp_path, text), repo, root)
        said = "\n".join(str(p) for p in caught.value.problems)
        for part in expected:
            assert part in said, (text, said)


def test_thousands_of_unknown_units_are_reported_within_the_caps(cli, tmp_path):
    ids = "".join(f"  - unit: no-such-ship-{n}\n" for n in range(3000))
    path = write(tmp_path, "name: x\nvariant: hex\npoints_limit: 10\nunits:\n" + ids)
    result = cli("build", "--roster", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) <= 60, len(lines)  # the default caps: 50 a file, 20 of a kind
    assert any("more" in line and "not listed" in line for line in lines), result.output


NODE = shutil.which("node")
FLEET_CORE = ROOT / "wastools" / "templates" / "site" / "fleet-core.js"
WRITE_ROSTERS = """
global.window = {};
require(process.argv[1]);
const fleet = window.wasFleet;
const units = fleet.catalogue([{id: "bismarck", name: "Bismarck", points: 35, nation: "germany",
                                nationName: "Germany", type: "battleship", typeLabel: "Battleship"}]);
const names = JSON.parse(require("fs").readFileSync(0, "utf8"));
const rosters = names.map(function (name) {
  const state = fleet.normalise({name: name, entries: [["bismarck", "1"]]}, units, [{name: "hex", title: "Hex"}], "x");
  return fleet.roster(state, units);
});
process.stdout.write(JSON.stringify(rosters));
"""


def _names_of_every_kind() -> list[str]:
    """A name for each character the tool refuses in a name (every code point of the Unicode
    categories Cc, Cf, Co in the BMP, Cs, Zl, Zp, the noncharacters), each also cut at 80
    characters by a letter outside the BMP, and ordinary names in several scripts."""
    import unicodedata

    refused = [chr(c) for c in range(0x10000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    refused += ["\ue000", "\uf8ff", "\U000f0000", "\ufdd0", "\ufffe", "\U0001fffe", "\U000e0001", "\U0001d173"]
    names = [f"Force{ch}H" for ch in refused]
    names += ["Force H", "Kidō Butai", "Флот", "艦隊", "🚢 fleet", "x" * 79 + "🚢", "🚢" * 81]
    return names


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_name_the_fleet_builder_writes_is_one_the_tool_reads(repo, tmp_path):
    import json
    import subprocess

    names = _names_of_every_kind()
    done = subprocess.run(
        [NODE, "-e", WRITE_ROSTERS, str(FLEET_CORE)], input=json.dumps(names), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    refused = []
    for n, text in enumerate(json.loads(done.stdout)):
        try:
            roster = load_roster(write(tmp_path, text), repo, ROOT)
        except DataError as exc:
            refused.append((names[n], str(exc)))
            continue
        if names[n].isprintable() or n >= len(names) - 7:  # what the tool allows, the site keeps
            assert roster.name == names[n][:80] or len(names[n]) > 80, (names[n], roster.name)
    assert refused == []
