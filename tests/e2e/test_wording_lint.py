"""The print standard's wording, measured in a whole build: every PDF and every site page is
read back (text extracted from the PDFs with pypdfium2) and must pass ``wastools.core.wording.lint``:
no rule document called by a number, no formulas, no internal names or keys, one (American)
spelling, and in the variants without sectors no "sector", "local", "adjacent" or bare
"range N" outside quotations of the base game."""

from __future__ import annotations

import pytest

from tests.wording_check import WITH_SECTORS, pdf_parts, site_parts
from wastools.core import wording


@pytest.fixture(scope="module")
def scenario_variants(repo) -> dict[str, str]:
    return {sid: s.variant for sid, s in repo.scenarios.items()}


def _problems(parts) -> dict[str, list[str]]:
    found = {}
    for name, variant, text in parts:
        problems = wording.lint(text, has_sectors=variant is None or variant in WITH_SECTORS)
        if problems:
            found[name] = problems[:5] + ([f"... and {len(problems) - 5} more"] if len(problems) > 5 else [])
    return found


@pytest.mark.slow
def test_every_pdf_of_a_build_passes_the_wording_lint(full_build, scenario_variants):
    parts = list(pdf_parts(full_build / "build", scenario_variants))
    assert len(parts) > 40 and sum(len(text) for _n, _v, text in parts) > 100_000  # a whole build was read
    assert _problems(parts) == {}


@pytest.mark.slow
def test_every_site_page_passes_the_wording_lint(full_build, scenario_variants):
    parts = list(site_parts(full_build / "build", scenario_variants))
    assert sum(1 for name, _v, _t in parts if name.startswith("site/units/") and "#" not in name) > 50
    assert _problems(parts) == {}


def test_the_lint_reads_past_quotations_of_the_base_game_but_not_plain_text():
    table = "\u201cin the same sector\u201d, \u201clocal\u201d within 1 leg; \u201crange 1\u201d 2-3 legs"
    assert wording.lint(table, has_sectors=False) == []
    assert wording.lint("in the same sector: within 1 leg", has_sectors=False)
    assert wording.lint("while within range 3 of it", has_sectors=False)
    assert wording.lint("range 0 (1 leg) and range 1 is 2-3 legs", has_sectors=False) == []
    assert wording.lint("while within range 3 of it", has_sectors=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "after seed 002",
        "floor(250 mph / 12 x 1760 / 5000)",
        "band r = 3r-1..3r+1 hexes",
        "large-map board (letter)",
        "vital armour 9",
        "Air defence",
        "the colour of the sea",
        "length from which a battleship covers 3 hexes: large_battleship_m",
    ],
)
def test_the_lint_finds_project_words_formulas_and_british_spellings(text):
    assert wording.lint(text, has_sectors=True), text
