"""Rulers speak the cards' words: a band is "Range N", as on the cards, and a reach that needs
Extended Range or Long Shot carries the cards' footnote mark (* Extended Range, † Long Shot,
‡ Long-Lance Torpedoes), explained in the ruler's title, on every ruler alike."""

from __future__ import annotations

import re

import pytest

from wastools.variants import VARIANTS

MARKS = {"*": "* Extended Range", "\u2020": "\u2020 Long Shot", "\u2021": "\u2021 Long-Lance Torpedoes"}


def _rulers():
    for variant in VARIANTS.values():
        for ruler in variant.rulers(variant.defaults()):
            yield variant.name, ruler


@pytest.mark.parametrize("name, ruler", list(_rulers()), ids=[f"{n}: {r.title}" for n, r in _rulers()])
def test_a_ruler_says_range_as_the_cards_do_and_explains_its_marks(name, ruler):
    labels = [z.label for z in ruler.zones]
    assert not any(re.search(r"(?i)\bband\b", text) for text in [ruler.title, *labels]), (name, labels)
    for label in labels:
        found = re.fullmatch(r"Range (\d+)([*\u2020\u2021]?)", label)
        if found is None:
            continue  # a ruler of its own kind: AA short, speed 1, depth charges
        band, mark = int(found.group(1)), found.group(2)
        if "Torpedoes" not in ruler.title:
            assert mark == {4: "*", 5: "*", 6: "\u2020"}.get(band, ""), (name, label)
        if mark:
            assert MARKS[mark] in ruler.title, (name, ruler.title)


def test_every_gridless_ruler_marks_extended_range_and_long_shot_the_same_way():
    reaches = {}
    for name, ruler in _rulers():
        for z in ruler.zones:
            if re.fullmatch(r"Range [4-6]\S*", z.label) and "Torpedoes" not in ruler.title:
                reaches.setdefault(z.label, set()).add(name)
    assert set(reaches) >= {"Range 4*", "Range 5*", "Range 6\u2020"}
    assert {"off-grid", "tabletop-cm", "tabletop-inches"} <= reaches["Range 4*"]
    assert {"off-grid", "tabletop-cm"} <= reaches["Range 6\u2020"]  # the inch table ends at range 5
