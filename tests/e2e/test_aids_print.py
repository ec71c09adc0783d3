"""Player aids as a player reads them: names not ids, whole sentences, headings never left
alone at a page foot, long tables with their header on every page, each rule's document
named once, by its title, in the colophon."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest

from wastools.content.aids import aid, colophon
from wastools.render.aid import aid_pdf
from wastools.variants import VARIANTS, off_grid

DANGLING = {"been", "the", "a", "an", "to", "of", "and", "or", "has", "until", "with", "by", "for"}


@pytest.fixture(scope="module")
def aids(repo):
    return {name: aid_pdf(name, repo, VARIANTS[name].defaults(), "letter")[0] for name in VARIANTS}


def lines_of(page) -> list[list[dict]]:
    """Text lines top to bottom, each a list of its words (with their size)."""
    words = page.extract_words(extra_attrs=["size"])
    rows: dict[int, list[dict]] = {}
    for w in words:
        rows.setdefault(round(w["bottom"]), []).append(w)
    return [sorted(rows[k], key=lambda w: w["x0"]) for k in sorted(rows)]


def test_aids_print_names_not_ids_and_no_plural_placeholders(aids, repo):
    ids = {n for n in repo.nations if "-" in n}
    for name, pdf in aids.items():
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            text = " ".join(p.extract_text() for p in doc.pages)
        assert not [i for i in ids if i in text], name
        assert "(s)" not in text and "((" not in text, name
    with pdfplumber.open(io.BytesIO(aids["large-map"])) as doc:
        text = " ".join(p.extract_text() for p in doc.pages)
    assert "Soviet Union" in text and "United Kingdom" in text


def test_no_heading_is_left_alone_at_a_page_foot(aids):
    for name, pdf in aids.items():
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            for page in doc.pages:
                body = [
                    line for line in lines_of(page) if line[0]["bottom"] < page.height - 40
                ]  # above the check bar band
                assert body, name
                assert body[-1][0]["size"] < 11, (
                    f"{name} page {page.page_number} ends with a heading: {' '.join(w['text'] for w in body[-1])}"
                )


def test_a_table_that_runs_on_repeats_its_header(aids):
    with pdfplumber.open(io.BytesIO(aids["large-map"])) as doc:
        runs_on = [
            p for p in doc.pages[1:] if "Elite A6M2 Zero" in p.extract_text() or "United States" in p.extract_text()
        ]
        assert runs_on
        for page in runs_on:
            first = " ".join(w["text"] for w in lines_of(page)[1])  # after the page number
            assert first.startswith("aircraft nation sectors a phase"), first


def test_sentences_are_whole_and_rules_name_their_document(repo, aids):
    for summary in off_grid.AMENDED_ABILITIES.values():
        assert summary.split()[-1].strip(".,;") not in DANGLING, summary
    hex_sections = aid("hex", repo, VARIANTS["hex"].defaults())
    hex_sequence = next(s for s in hex_sections if s.title == "Sequence of play")
    assert hex_sequence.source == VARIANTS["hex"].seed  # the hex rules change initiative
    standard_sequence = next(
        s for s in aid("standard", repo, VARIANTS["standard"].defaults()) if s.title == "Sequence of play"
    )
    assert standard_sequence.source == "the base game's rules"
    assert colophon(hex_sections) == (
        "Made by wastools from \u201cWar at Sea rules adapted for a hexagon grid, by Paul Wisken\u201d, with the "
        "base game's rules where it says nothing. Every summary is in the project's own words."
    )
    for name, pdf in aids.items():  # each aid names its rule document once, in the colophon at its end
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            text = " ".join(" ".join((p.extract_text() or "").split()) for p in doc.pages)
        title = VARIANTS[name].seed
        if name != "standard":
            assert text.count(title) == 1, (name, text.count(title))
            assert text.index(title) > len(text) * 0.8, name


# --- each rule once, in words: the aids of a full build scanned -------------------------------------

PLACEHOLDERS = {  # what a formula or an unfilled number looks like in print
    "a number left as N after an ability's name": re.compile(r"[a-z] N\b"),
    "a multiplication": re.compile(r" x 0\."),
    "dice notation divided": re.compile(r"\b\d*d6 ?/"),
    "a brace": re.compile(r"[{}]"),
}
HEADING_PT = 11  # section headings are set at 12 pt, the body below 11 (the page title at 18)


def placeholders(text: str) -> list[str]:
    """Each placeholder or formula in a text, with what it looks like."""
    return [f"{what}: {m.group(0)!r}" for what, rx in PLACEHOLDERS.items() for m in rx.finditer(text)]


def headings(pdf: pdfplumber.PDF) -> list[str]:
    """The section headings of a laid-out aid, in order: the lines set at heading size."""
    return [
        " ".join(w["text"] for w in line)
        for page in pdf.pages
        for line in lines_of(page)
        if all(HEADING_PT <= w["size"] < 14 for w in line)
    ]


def aid_problems(pdf: pdfplumber.PDF) -> list[str]:
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages)
    found = headings(pdf)
    twice = sorted({h for h in found if found.count(h) > 1})
    return placeholders(text) + [f"heading printed twice: {h!r}" for h in twice]


def test_no_aid_of_a_build_prints_a_placeholder_a_formula_or_a_heading_twice(full_build):
    aids = sorted((full_build / "build").rglob("player-aid*.pdf"))
    assert len(aids) >= 2 * len(VARIANTS)  # every variant, on both papers
    problems = []
    for path in aids:
        with pdfplumber.open(path) as pdf:
            assert headings(pdf), path  # the scan reads the headings it checks
            problems += [f"{path.relative_to(full_build)}: {p}" for p in aid_problems(pdf)]
    assert problems == []


@pytest.mark.parametrize(
    "line",
    ["Heavy Antiair N reaches 2 legs", "a leg is the grid square x 0.56", "leaves 1d6 / 2 dummy tokens", "{leg} in"],
)
def test_the_scan_finds_each_kind_of_placeholder(line):
    assert placeholders(f"Rules. {line}. More rules.")


def test_the_scan_finds_a_heading_printed_twice(repo, monkeypatch):
    import wastools.render.aid as render_aid
    from wastools.variants.aid import Section

    sections = aid("hex", repo, VARIANTS["hex"].defaults())
    twice = sections + [Section(sections[0].title, sections[0].source, ("Once more.",))]
    for laid, expected in ((sections, []), (twice, [f"heading printed twice: {sections[0].title!r}"])):
        monkeypatch.setattr(render_aid, "aid", lambda *_args, laid=laid: laid)
        pdf = render_aid.aid_layout("hex", repo, VARIANTS["hex"].defaults())
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            assert aid_problems(doc) == expected


def test_the_off_grid_aid_fills_its_pages(aids):
    """Off the grid's sections are ordered and grouped so that its last page is no stub: the
    aid ends on its second page."""
    with pdfplumber.open(io.BytesIO(aids["off-grid"])) as doc:
        assert len(doc.pages) == 2
        assert "Made by wastools" in (doc.pages[-1].extract_text() or "")
