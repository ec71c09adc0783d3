"""The rules registers (rules/<variant>.yaml): valid, covering every rule line of their seed,
printed where they say (text extracted from the PDFs), and listed in docs/variants/<name>.md."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import ROOT
from wastools.data.repository import rules_register
from wastools.render import cards
from wastools.variants import VARIANTS

SEEDS = ROOT.parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS.exists(), reason="the seed documents (../shared/seeds) are not present")


@pytest.fixture(scope="module")
def registers():
    return rules_register.load(ROOT)


def _seed_lines(seed: str) -> list[str]:
    (path,) = SEEDS.glob(f"{seed}_*.txt")
    return path.read_text("utf-8").splitlines()


def normalised(text: str) -> str:
    """Whitespace collapsed, typographic quotes made plain, a word broken at its hyphen joined."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", re.sub(r"(?<=\w)-\s+(?=\w)", "-", text)).strip()


def test_every_variant_has_a_valid_register(registers):
    assert set(registers) == set(VARIANTS)
    problems, _ = rules_register.check(ROOT)
    assert problems == []


@needs_seeds
@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "standard"])
def test_every_rule_line_of_the_seed_is_covered_or_flavour(registers, variant):
    register = registers[variant]
    seeds = {r.seed for r in register.coverage}
    assert seeds, f"{variant}: no coverage of its seed"
    for seed in seeds:
        lines = _seed_lines(seed)
        ranges = [r for r in register.coverage if r.seed == seed]
        covered = {n for r in ranges for n in rules_register.parse_lines(r.lines)}
        blank_or_missing = [n for n, text in enumerate(lines, 1) if text.strip() and n not in covered]
        assert blank_or_missing == [], (
            f"{variant}: seed {seed} lines neither in an entry nor flavour: {blank_or_missing}"
        )
        assert max(covered) <= len(lines), f"{variant}: seed {seed} has only {len(lines)} lines"
        for entry in register.entries:
            if entry.seed != seed:
                continue
            mapped = {n for r in ranges if entry.id in r.entries for n in rules_register.parse_lines(r.lines)}
            stray = [n for n in rules_register.parse_lines(entry.lines) if n not in mapped]
            assert not stray, (
                f"{variant}: entry {entry.id} cites seed {seed} lines {stray}, which the coverage maps elsewhere"
            )


def test_every_entry_of_a_seed_variant_comes_from_its_seed(registers):
    seed_of = {"large-map": "000", "tabletop-cm": "001", "hex": "002", "off-grid": "003", "tabletop-inches": "004"}
    for variant, seed in seed_of.items():
        assert {e.seed for e in registers[variant].entries} == {seed}
    assert {e.seed for e in registers["standard"].entries} == {"base"}


# --- printed where the register says ----------------------------------------------------------------


def _pdf_text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return normalised(" ".join(page.extract_text() or "" for page in doc.pages))


def matching_units(repo, selector: str, variant: str) -> list:
    """Up to three units the card selector names: the first, middle and last by id."""
    units = list(repo.units.values())
    if selector == "all":
        kinds = ("ship", "aircraft", "submarine")
        return [next(u for u in units if u.category == k) for k in kinds]
    if selector == "ships":
        found = [u for u in units if u.category == "ship"]
    elif selector == "aircraft":
        found = [u for u in units if u.is_aircraft]
    elif selector == "submarines":
        found = [u for u in units if u.type == "submarine"]
    elif selector.startswith("ability: "):
        name = selector.removeprefix("ability: ")
        found = [u for u in units if any(a.pattern == name or a.text == name for a in u.abilities)]
    elif selector.startswith("unit: "):
        found = [repo.units[selector.removeprefix("unit: ")]]
    else:
        types = {t.strip() for t in selector.split(",")}
        found = [u for u in units if u.type in types]
    assert found, f"{variant}: card selector {selector!r} matches no unit"
    return list({id(u): u for u in (found[0], found[len(found) // 2], found[-1])}.values())


@pytest.fixture(scope="module")
def outputs(repo, registers):
    """Per variant: the aid, rulers and counters as text, and the cards of the units named."""
    from wastools.render.aid import aid_pdf
    from wastools.render.counters import counters_pdf
    from wastools.render.rulers import rulers_pdf

    out = {}
    for name, variant in VARIANTS.items():
        params = variant.defaults()
        smoke = variant.smoke_fn(params) if variant.smoke_fn else None  # its own counters file, else the common one
        counters = _pdf_text(counters_pdf("letter", smoke, markers=variant.markers)[0])
        wanted = {}
        for entry in registers[name].entries:
            for place in entry.printed_in:
                if place.kind == "card":
                    for unit in matching_units(repo, place.which, name):
                        wanted[unit.id] = unit
        views = [cards.card_view(variant.adapt(u, params), variant, repo) for u in wanted.values()]
        pdfs = cards.lay_out_cards([str(cards.render_card_html(v)) for v in views])
        out[name] = {
            "aid": _pdf_text(aid_pdf(name, repo, params, "letter")[0]),
            "ruler": _pdf_text(rulers_pdf(variant.rulers(params), "letter", "rulers")[0])
            if variant.rulers_fn is not None
            else "",
            "counters": counters,
            "cards": {uid: _pdf_text(pdf) for uid, pdf in zip(wanted, pdfs, strict=True)},
        }
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_entry_is_printed_where_the_register_says(repo, registers, outputs, variant):
    printed = outputs[variant]
    missing = []
    for entry in registers[variant].entries:
        for place in entry.printed_in:
            text = normalised(place.text)
            if place.kind == "card":
                for unit in matching_units(repo, place.which, variant):
                    if text not in printed["cards"][unit.id]:
                        missing.append(f"{entry.id}: card of {unit.id} lacks {text!r}")
            elif place.kind == "aid":
                aid = printed["aid"]
                title = normalised(place.which)
                if title not in aid:
                    missing.append(f"{entry.id}: the aid has no section {title!r}")
                elif text not in aid[aid.index(title) :]:
                    missing.append(f"{entry.id}: the aid lacks {text!r} in or after {title!r}")
            elif place.kind == "ruler":
                if normalised(place.which) not in printed["ruler"] or text not in printed["ruler"]:
                    missing.append(f"{entry.id}: the rulers lack {place.which!r} / {text!r}")
            elif text not in printed["counters"]:
                missing.append(f"{entry.id}: the counters lack {text!r}")
    assert missing == [], "\n".join(missing)


# --- the docs and the validator ----------------------------------------------------------------------


def test_docs_list_the_current_register(registers):
    assert rules_register.stale_docs(ROOT, registers) == [], "run `wastools rules --write`"
    for name, register in registers.items():
        doc = (ROOT / "docs" / "variants" / f"{name}.md").read_text("utf-8")
        for entry in register.entries:
            assert f"| {entry.id} |" in doc


def test_a_broken_register_is_a_located_error(tmp_repo: Path, cli):
    shutil.copytree(ROOT / "rules", tmp_repo / "rules")
    path = tmp_repo / "rules" / "hex.yaml"
    text = path.read_text("utf-8")
    path.write_text(
        text.replace(
            "      - {aid: Objectives and victory, text: \"Claim: in the objective's area, 3 hexes across, "
            'with no enemy ship there."}',
            "      - {aid: Objectives and victory}",
            1,
        ).replace("  - id: speed\n", "  - id: zones-and-hexes\n", 1),
        "utf-8",
    )
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.exit_code == 1
    out = result.output
    assert re.search(
        r"rules/hex\.yaml:\d+:\d+: entries\[\d+\]\.printed_in\[0\]\.text: required field is missing", out
    ), out
    fixed = text.replace("  - id: speed\n", "  - id: zones-and-hexes\n", 1)
    path.write_text(fixed, "utf-8")
    result = cli("validate", "--quiet", root=tmp_repo)
    assert re.search(r"rules/hex\.yaml:\d+:\d+: entries\[2\]\.id: duplicate id 'zones-and-hexes'", result.output), (
        result.output
    )


def test_a_coverage_range_must_name_real_entries(tmp_repo: Path, cli):
    shutil.copytree(ROOT / "rules", tmp_repo / "rules")
    path = tmp_repo / "rules" / "off-grid.yaml"
    path.write_text(path.read_text("utf-8").replace("entries: [legs]}", "entries: [leggs]}", 1), "utf-8")
    result = cli("validate", "--quiet", root=tmp_repo)
    assert "rules/off-grid.yaml:7:" in result.output and "no entry with id 'leggs'" in result.output


# --- each trace is the rule's content ------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")


def test_every_trace_is_content_not_a_label(registers):
    """A trace is what a player reads of the rule (its numbers and conditions), not a heading:
    at least four words, whatever it holds ("Move: 7 hexes" is a label with a number)."""
    short = [
        f"{name}: {entry.id}: {place.describe()} {place.text!r}"
        for name, register in registers.items()
        for entry in register.entries
        for place in entry.printed_in
        if len(place.text.split()) < rules_register.MIN_TRACE_WORDS
    ]
    assert short == []


@pytest.mark.parametrize("label", ["Move", "Smoke", "Move: 7 hexes", "AA long (-1)"])
def test_a_trace_of_three_words_or_fewer_is_a_located_error(tmp_repo: Path, cli, label):
    shutil.copytree(ROOT / "rules", tmp_repo / "rules")
    path = tmp_repo / "rules" / "hex.yaml"
    text = path.read_text("utf-8")
    trace = 'text: "Claim: in the objective\'s area, 3 hexes across, with no enemy ship there."'
    assert trace in text
    path.write_text(text.replace(trace, f"text: {json.dumps(label)}", 1), "utf-8")
    result = cli("validate", "--quiet", root=tmp_repo)
    assert result.exit_code == 1
    assert re.search(
        r"rules/hex\.yaml:\d+:\d+: entries\[0\]\.printed_in\[0\]\.text: .* is a label, not the rule", result.output
    ), result.output


def test_every_number_of_a_rule_is_printed_where_it_is_traced(registers):
    """An entry claims no more than its outputs print: each number of its rule stands in one of
    its traces (the traces are then checked against the PDFs above)."""
    unprinted = []
    for name, register in registers.items():
        for entry in register.entries:
            traced = " ".join(normalised(p.text) for p in entry.printed_in)
            for number in NUMBER.findall(entry.rule):
                if not re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", traced):
                    unprinted.append(f"{name}: {entry.id}: {number} ({entry.rule})")
    assert unprinted == []


@pytest.mark.parametrize("variant", ["off-grid", "hex", "tabletop-cm", "tabletop-inches"])
def test_the_register_records_the_variants_translation_of_the_base_games_words(registers, variant):
    """The translation the cards are written with (the variant's measure) is the one the register
    records: each row of it, as the aid prints it, is a trace of the variant's sector-words entry."""
    v = VARIANTS[variant]
    entry = registers[variant].entry("sector-words")
    traced = [normalised(p.text) for p in entry.printed_in if p.kind == "aid"]
    measure = v.measure(v.defaults())
    for said, read in measure.table():
        row = normalised(f"{said} {read}")
        assert any(t.startswith(row) for t in traced), (variant, row)
        assert read.split()[-2] in entry.rule  # the rule's words give the same number
