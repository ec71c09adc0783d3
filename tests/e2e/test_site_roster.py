"""Fleet rosters: located errors for bad files, and decks of exactly the roster's cards."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from tests import printcheck
from wastools.core.problems import DataError
from wastools.site.roster import MAX_CARDS, load_roster
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
    assert found == ["https://example.org/was/fleet.html#fleet=u-47:2&name=Wolf+%26+co&limit=90&deck=hex"]
    plain = report_pdf(roster, repo, "letter")  # no published site: no code
    assert zxingcpp.read_barcodes(pdfium.PdfDocument(plain)[0].render(scale=2).to_pil()) == []


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
