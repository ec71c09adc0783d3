"""A pack's first page (``render.table_needs``) and its force tables, from the fixture scenarios:
the kit files come from the variant's own outputs, the rules from its aid, chosen by what the
scenario puts on the table."""

from __future__ import annotations

import dataclasses

from wastools.render import scenario_pack
from wastools.render.table_needs import print_beside, rules_used
from wastools.variants import VARIANTS


def test_the_files_to_print_are_the_variants_own_outputs_but_the_cards(repo):
    for s in repo.scenarios.values():
        named = [f["letter"] for f in print_beside(s)]
        own = [f"{s.variant}/{stem}.pdf" for stem, _what in VARIANTS[s.variant].outputs(s.parameters)]
        common = [] if VARIANTS[s.variant].has_own_counters else ["counters.pdf"]  # else its own, in `own`
        assert named == [n for n in own if not n.endswith("/cards.pdf")] + common, s.id
        assert all(f["a4"] == f["letter"].replace(".pdf", "-a4.pdf") for f in print_beside(s))


def test_the_rules_are_the_aids_sections_the_scenario_uses(repo):
    mers = repo.scenarios["mers-el-kebir-1940"]  # large-map: aircraft and shore positions
    titles = [r["title"] for r in rules_used(mers)]
    assert titles[0] == "Sequence of play" and "Air bases, shore batteries, garrisons" in titles
    assert "Flying, launching and re-arming" in titles and "Air Range Chart" not in titles
    assert "Dice and damage" not in titles  # the base game's, the same in every variant
    savo = repo.scenarios["savo-island-1942"]  # hex: no aircraft, no submarine
    titles = [r["title"] for r in rules_used(savo)]
    assert "Range bands" in titles and "Flights of aircraft" not in titles
    assert "Submarines and surface fire" not in titles
    # the same scenario with a submarine aboard gets the aid's submarine section
    sub = repo.units["i-19"]
    first = dataclasses.replace(savo.sides[0].forces[0], unit=sub)
    side = dataclasses.replace(savo.sides[0], forces=(first, *savo.sides[0].forces[1:]))
    with_sub = dataclasses.replace(savo, sides=(side, savo.sides[1]))
    assert "Submarines and surface fire" in [r["title"] for r in rules_used(with_sub)]


def test_force_tables_keep_hull_numbers_whole_and_count_only_where_a_count_varies(repo):
    savo = scenario_pack.briefing_view(repo.scenarios["savo-island-1942"])
    allies = savo["sides"][1]
    bagley = next(r for r in allies["rows"] if r["name"].startswith("USS Bagley"))
    assert (bagley["base"], bagley["hull"]) == ("USS Bagley", "(DD 386)")
    assert allies["counts"] is False  # every entry is one card
    mers = scenario_pack.briefing_view(repo.scenarios["mers-el-kebir-1940"])
    assert mers["sides"][0]["counts"] is True  # two Cossacks, three Swordfish
    html = scenario_pack._briefing_html(savo, "hex")
    assert '<span class="hull">(DD 386)</span>' in html and ">count<" not in html


def test_ability_tables_keep_the_abilities_the_scenarios_units_have(repo):
    denmark = repo.scenarios["denmark-strait-1941"]  # off-grid amends abilities
    # Prinz Eugen's place taken by Hatsukaze, whose Lay Smoke Screen and Sub Hunter off-grid amends
    swapped = dataclasses.replace(denmark.sides[0].forces[1], unit=repo.units["hatsukaze"])
    side = dataclasses.replace(denmark.sides[0], forces=(denmark.sides[0].forces[0], swapped))
    scenario = dataclasses.replace(denmark, sides=(side, denmark.sides[1]))
    tables = [t for r in rules_used(scenario) for t in r["tables"] if t["header"][0] == "ability"]
    assert [row[0] for t in tables for row in t["rows"]] == ["Lay Smoke Screen", "Sub Hunter"]
    assert not [t for r in rules_used(denmark) for t in r["tables"] if t["header"][0] == "ability"]
    assert "Objectives and victory" not in [r["title"] for r in rules_used(denmark)]  # the scenario's own victory
    calabria_like = dataclasses.replace(
        denmark, variant="tabletop-inches", parameters=VARIANTS["tabletop-inches"].defaults()
    )
    titles = [r["title"] for r in rules_used(calabria_like)]
    assert "Range tables" in titles and "Victory points" not in titles


def test_sources_and_balance_print_as_text(repo):
    savo = repo.scenarios["savo-island-1942"]
    hostile = {**savo.data, "sources": ["<script>x</script> & co"], "balance": "<b>even</b>"}
    html = scenario_pack._briefing_html(scenario_pack.briefing_view(dataclasses.replace(savo, data=hostile)), "hex")
    assert "&lt;script&gt;x&lt;/script&gt; &amp; co" in html and "&lt;b&gt;even&lt;/b&gt;" in html
    assert "<script>" not in html and "<b>even" not in html
