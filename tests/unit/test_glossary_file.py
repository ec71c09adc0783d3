"""The glossary (``wastools/glossary/glossary.yaml``): checked against its schema, packaged,
and finding each wrong spelling it lists, but not the one spelling, nor the game's own names."""

from __future__ import annotations

import pytest

from wastools.data import glossary
from wastools.data.repository import read_plain, schema_validator


def test_the_glossary_matches_its_schema_and_every_term_says_why():
    data = read_plain(glossary.GLOSSARY)
    assert list(schema_validator(glossary.GLOSSARY_SCHEMA).iter_errors(data)) == []
    terms = glossary.terms()
    assert len({t.term.lower() for t in terms}) == len(terms)  # one entry a term
    for term in terms:
        assert term.note and term.term not in term.wrong
        assert glossary.wrong_spellings(term.term) == [], term.term  # the one spelling is never wrong
        for wrong in term.wrong:
            assert glossary.wrong_spellings(f"so {wrong} here"), wrong


def test_the_glossary_fixes_the_spellings_the_print_standard_names():
    spelt = {t.term for t in glossary.terms()}
    assert {"Armor", "Vital Armor", "defense", "color", "harbor", "centimeter"} <= spelt
    assert {"antiair", "re-arm", "air base", "torpedo bomber"} <= spelt


@pytest.mark.parametrize(
    "text",
    [
        "Anti-air fires at enemy aircraft",
        "may fire anti-air at an aircraft",
        "gets no rearming counters",
        "the land airbase",
        "Swordfish Mk. I torpedo-bomber 3 27",
        "a friendly Torpedo Bomber",
        "Vital armor 11 less 1 per squadron aboard",
        "air defence",
        "in centimetres",
    ],
)
def test_a_wrong_spelling_is_found(text):
    assert glossary.wrong_spellings(text), text


@pytest.mark.parametrize(
    "text",
    [
        "Heavy Antiair - antiair reaches 2 legs; Antiair and stacking",
        "re-arm counters; re-arming; it re-arms",
        "Island Air Base; an air base",
        "Torpedo bomber B5N2; a friendly torpedo bomber",
        "Mission Selection (Dive Bomber/Torpedo Bomber) - counts as dive bomber or as torpedo bomber",
        "Mission Selection (Dive Bomber/\nTorpedo Bomber)",  # a PDF's line break inside the game's name
        "Mission Selection (Dive Bomber/Fighter)",
        "anti-aircraft",  # another word
        "rearm_turns, anti_air",  # keys are no words
    ],
)
def test_the_one_spelling_and_the_games_names_pass(text):
    assert glossary.wrong_spellings(text) == [], text
