"""The player aids' words are data (wastools/aids/*.yaml): each file matches its schema, every
number it names is one its variant gives, and no section is left with a brace."""

from __future__ import annotations

import pytest

from wastools.content import aids
from wastools.variants import SHIPPED


@pytest.mark.parametrize("path", sorted(aids.AIDS.glob("*.yaml")), ids=lambda p: p.name)
def test_every_aid_file_matches_its_schema(path):
    assert aids._words(path)["sections"]


def _extremes(variant):
    """The variant's defaults, then each setting at its smallest and largest (or each choice)."""
    yield {}
    for p in variant.parameters:
        values = p.choices or tuple(v for v in (p.minimum, p.maximum) if v is not None)
        for value in values:
            yield {p.name: str(int(value) if isinstance(p.default, int) and not isinstance(p.default, bool) else value)}


@pytest.mark.parametrize("name", SHIPPED)
def test_every_aid_fills_every_number_it_names(name, repo):
    variant = SHIPPED[name]
    for given in _extremes(variant):
        sections = aids.aid(name, repo, variant.resolve(given), (("Valiant Stand", "text"),))
        text = " ".join([s.title for s in sections] + [line for s in sections for line in s.lines])
        assert "{" not in text and "}" not in text, (name, given)
        assert sections[-1].title == aids.AID_ABILITIES_SECTION  # where cards send players


def test_a_word_the_variant_does_not_give_is_a_clear_error(tmp_path, repo):
    import dataclasses

    bad = tmp_path / "bad.yaml"
    bad.write_text("sections:\n  - title: T\n    lines: ['{no_such_number} hexes']\n", "utf-8")
    variant = dataclasses.replace(SHIPPED["hex"], aid=bad)
    with pytest.raises(aids.AidError, match="no_such_number"):
        aids.variant_sections(variant, repo, variant.defaults())


def test_off_grid_amended_abilities_are_named_as_the_cards_name_them():
    """One row for each amended rule, named by the abilities the data's cards print: numbered
    abilities by their numbers, never "Slow N"; "Heavy Antiair" and "Heavy Antiair 2" share a row."""
    from types import SimpleNamespace

    from wastools.variants.off_grid import amended_rows

    def unit(*abilities):
        return SimpleNamespace(abilities=[SimpleNamespace(pattern=p, text=t) for p, t in abilities])

    repo = SimpleNamespace(
        units={
            "a": unit(("Slow {n}", "Slow 2"), ("Heavy Antiair {n}", "Heavy Antiair 2")),
            "b": unit(("Slow {n}", "Slow 1"), ("Heavy Antiair", "Heavy Antiair")),
        }
    )
    rows = dict(amended_rows(repo))
    assert "Slow 1, Slow 2" in rows and "Heavy Antiair, Heavy Antiair 2" in rows
    assert "Escort" in rows and "enemy fighters get -1 on each attack die" in rows["Escort"]
    none = dict(amended_rows(SimpleNamespace(units={})))
    assert "Slow (any number)" in none and "Heavy Antiair" in none  # a plain name where no card has one
    assert not [name for name in rows | none if "{" in name or name.endswith(" N")]
