"""The shipped scenarios in print: every pack and every map sheet measured in its PDF.

The seven shipped scenarios (three in the fixture repository, four more in
``tests/fixtures/library``) cover every variant with a pack. One build makes their packs
and posters, another with a single unit card the boards of the grid variants; the tests read them
back: no word printed over another, none across a trim line, no page a player does not
need, one first page on the plan and the tiles, and each pack within its page budget.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests import printcheck
from tests.conftest import DATA

LIBRARY = Path(__file__).parents[1] / "fixtures" / "library"
SCENARIOS = [
    "calabria-1940",
    "convoy-on-115-1942",
    "denmark-strait-1941",
    "mers-el-kebir-1940",
    "midway-1942",
    "river-plate-1939",
    "savo-island-1942",
]
PLAIN = ("calabria-1940", "convoy-on-115-1942", "denmark-strait-1941", "river-plate-1939")  # tables without a grid


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
    from wastools import pipeline as builder
    from wastools.data import repository

    root = tmp_path_factory.mktemp("library")
    for folder in ("cards", "schemas", "scenarios"):
        shutil.copytree(DATA / folder, root / folder)
    shutil.copytree(LIBRARY / "cards", root / "cards", dirs_exist_ok=True)
    shutil.copytree(LIBRARY / "scenarios", root / "scenarios", dirs_exist_ok=True)
    result = repository.validate(root)
    assert result.repository is not None, "\n".join(map(str, result.errors))
    assert sorted(result.repository.scenarios) == SCENARIOS
    out = tmp_path_factory.mktemp("printed")
    options = builder.Options(papers=("letter",), jobs=2)
    # the packs and their posters; then the grid variants' boards, which a build for one
    # unit's deck makes whole
    builder.build(result.repository, root, out, builder.Selection(scenarios=tuple(SCENARIOS)), options)
    variants = ("large-map", "hex", "off-grid", "tabletop-cm", "tabletop-inches")
    builder.build(result.repository, root, out, builder.Selection(variants=variants, units=("hms-cossack",)), options)
    return out


def sheets(out: Path) -> list[Path]:
    """Every pack and poster, and every variant's board."""
    found = sorted((out / "scenarios").glob("*.pdf")) + sorted(out.glob("*/map-*.pdf"))
    assert len(found) >= 2 * len(SCENARIOS) + 2
    return found


def texts(path: Path) -> list[str]:
    with pdfplumber.open(path) as doc:
        return [" ".join((p.extract_text() or "").split()) for p in doc.pages]


@pytest.mark.slow
def test_no_word_is_printed_over_another_or_across_a_trim_line(printed):
    problems = []
    for path in sheets(printed):
        with pdfplumber.open(path) as doc:
            for number, page in enumerate(doc.pages, 1):
                over = printcheck.overprinted(page)
                cut = printcheck.across_trim(page)
                problems += [f"{path.name} page {number}: {a!r} over {b!r}" for a, b in over]
                problems += [f"{path.name} page {number}: {w!r} across a trim line" for w in cut]
    assert not problems, "\n".join(problems[:20])


def test_the_overprint_check_finds_words_over_words_and_across_trim_lines():
    """The measurement itself, on a page made to fail it: a word drawn over another and a
    word across the outline of a tile's own area."""
    import io

    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(400, 300))
    c.setFont("Helvetica", 9)
    c.drawString(50, 200, "Fort Santon")
    c.drawString(70, 202, "anchorage")
    c.drawString(300, 100, "apart")
    c.setLineWidth(0.6)
    c.rect(20, 20, 200, 150, stroke=1, fill=0)
    c.drawString(205, 80, "across")
    c.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as doc:
        page = doc.pages[0]
        over = printcheck.overprinted(page)
        assert over and all({"Fort", "anchorage"} & {a, b} or "Santon" in (a, b) for a, b in over)
        assert printcheck.across_trim(page) == ["across"]


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_a_pack_stays_within_its_page_budget_and_its_briefing_fills_its_last_page(printed, scenario_id):
    path = printed / "scenarios" / f"{scenario_id}.pdf"
    with pdfplumber.open(path) as doc:
        assert len(doc.pages) <= 40
        briefing = [p for p in doc.pages if re.match(r"page \d+\b", (p.extract_text() or "").strip())]
        assert briefing and briefing == doc.pages[: len(briefing)]
        last = briefing[-1]
        words = [w for w in last.extract_words() if not re.fullmatch(r"page|\d+", w["text"])]
        body = [w for w in words if w["top"] < last.height - 60]  # above the check bars and print note
        lowest = max(w["bottom"] for w in body)
        assert len(briefing) == 1 or lowest > 0.2 * last.height, f"the last briefing page holds only {len(body)} words"


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_the_plan_and_the_tiles_name_the_same_first_page(printed, scenario_id):
    pages = texts(printed / "scenarios" / f"{scenario_id}.pdf")
    plan = next(i for i, t in enumerate(pages) if ": plan of the whole map (" in t)
    tiles = pages[plan + 1 :]
    if len(tiles) < 2:
        return
    first = int(re.search(r"Page (\d+)(?:, at the bottom left,)? comes first", pages[plan]).group(1))
    assert first == plan + 2  # the page after the plan
    assert "Lay this page down first" in tiles[0]
    assert not any("Lay this page down first" in t for t in tiles[1:])
    for index, text in enumerate(tiles):  # each page is glued onto pages before it
        glued = [int(n) for n in re.findall(r"strip of page (\d+)", text)]
        assert all(n < plan + 2 + index for n in glued), text[:200]


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", PLAIN)
def test_a_table_without_a_grid_prints_no_page_of_open_sea(printed, scenario_id):
    """Every tile of a plain-table pack shows terrain: land (its grey fill) or shallows (their
    hatching), found by colour in the rendered page."""
    import pypdfium2 as pdfium

    pages = texts(printed / "scenarios" / f"{scenario_id}.pdf")
    plan = next(i for i, t in enumerate(pages) if ": plan of the whole map (" in t)
    doc = pdfium.PdfDocument(printed / "scenarios" / f"{scenario_id}.pdf")
    try:
        for index in range(plan + 1, len(doc)):
            image = doc[index].render(scale=1).to_pil().convert("RGB")
            colours = image.getcolors(maxcolors=1 << 20) or []
            terrain = sum(n for n, (r, g, b) in colours if (r, g, b) == (237, 237, 237) or (b > r + 30 and g > r + 15))
            assert terrain > 40, f"page {index + 1} of {scenario_id} holds no terrain"
    finally:
        doc.close()
    if scenario_id != "denmark-strait-1941":
        assert plan == len(pages) - 1  # open sea only: the plan is the whole map


def _variant_of(scenario_id: str) -> str:
    from ruamel.yaml import YAML

    path = next(p for p in (DATA / "scenarios", LIBRARY / "scenarios") if (p / f"{scenario_id}.yaml").is_file())
    return YAML(typ="safe").load((path / f"{scenario_id}.yaml").read_text("utf-8"))["variant"]


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_a_packs_first_page_names_the_kit_its_variant_prints(printed, scenario_id):
    """Page 1 is what the table needs: every file of the variant's kit but the cards (which the
    pack holds), by the name the build gives it, each made by this build."""
    from wastools.variants import VARIANTS

    variant = _variant_of(scenario_id)
    first = "".join(texts(printed / "scenarios" / f"{scenario_id}.pdf")[0].split())
    assert "Whatthetableneeds" in first
    for stem, _what in VARIANTS[variant].outputs():
        if stem != "cards":
            assert f"{variant}/{stem}.pdf" in first, stem
    assert "counters.pdf" in first


@pytest.mark.slow
def test_the_convoy_pack_prints_hidden_submarines_and_their_detection_rolls(printed):
    """Convoy ON 115 fields U-boats on the centimeter table: its first page carries the hidden
    submarine rules with the variant's own detection table; a pack without a submarine does not."""
    from wastools.variants import VARIANTS

    variant = VARIANTS["tabletop-cm"]
    detect = variant.aid_parts(None, variant.defaults())["detect"]
    first = texts(printed / "scenarios" / "convoy-on-115-1942.pdf")[0]
    assert "Hidden submarines" in first
    for searcher, roll in detect.rows:
        assert f"{roll}" in first and searcher.split()[0] in first
    assert "Hidden submarines" not in texts(printed / "scenarios" / "river-plate-1939.pdf")[0]
