"""Hypothesis strategies: random but schema-valid units."""

from __future__ import annotations

from hypothesis import strategies as st

from wastools.core.model import ALLOWED_ATTACKS, UNIT_TYPES, Ability, Attack, Figure, History, Unit, category

TYPES = sorted(UNIT_TYPES)
ABILITIES = [
    ("Extended Range {n}", (4, 5)),
    ("Long Shot {n}", (6,)),
    ("Slow {n}", (1, 2, 3)),
    ("Heavy Antiair", (None,)),
    ("Heavy Antiair {n}", (2,)),
    ("Sub Hunter", (None,)),
    ("Long-Lance Torpedoes", (None,)),
    ("Lay Smoke Screen", (None,)),
    ("Land Based", (None,)),
    ("Shallow Draft", (None,)),
    ("Close Escort", (None,)),
]


@st.composite
def bands(draw):
    reach = draw(st.integers(0, 3))
    dice = [draw(st.integers(1, 20)) for _ in range(reach + 1)]
    return tuple(dice + [None] * (3 - reach))


@st.composite
def abilities(draw):
    chosen = draw(st.lists(st.sampled_from(ABILITIES), unique_by=lambda a: a[0].split(" {")[0], max_size=4))
    out = []
    for pattern, numbers in chosen:
        n = draw(st.sampled_from(numbers))
        out.append(Ability(pattern.replace("{n}", str(n)) if n else pattern, pattern, n))
    return tuple(out)


@st.composite
def units(draw):
    unit_type = draw(st.sampled_from(TYPES))
    cat = category(unit_type)
    kinds = draw(st.lists(st.sampled_from(sorted(ALLOWED_ATTACKS[cat])), unique=True, max_size=5))
    attacks = tuple(Attack(kind, draw(bands())) for kind in sorted(kinds))
    aircraft = cat == "aircraft"
    speed_unit = "mph" if aircraft else "kn"
    top = draw(st.none() | st.floats(80, 450) if aircraft else st.none() | st.floats(5, 45))
    length = None if aircraft else draw(st.none() | st.floats(10, 300))
    history = History(
        top_speed=Figure(round(top, 1), speed_unit, "test") if top else None,
        length=Figure(round(length, 1), "m", "test") if length else None,
    )
    return Unit(
        id=draw(st.from_regex(r"[a-z][a-z0-9]{0,10}(-[a-z0-9]{1,6}){0,2}", fullmatch=True)),
        name=draw(st.text(min_size=1, max_size=40)),
        nation=draw(st.sampled_from(["us", "uk", "japan", "germany", "italy"])),
        type=unit_type,
        set="war-at-sea",
        number=draw(st.integers(1, 64)),
        rarity="common",
        year=draw(st.integers(1935, 1945)),
        points=draw(st.integers(1, 100)),
        armor=draw(st.integers(1, 10)),
        vital_armor=draw(st.integers(1, 20)),
        hull=draw(st.integers(1, 5)),
        speed=None if aircraft else draw(st.integers(1, 3)),
        carrier_capacity=draw(st.integers(1, 4)) if unit_type == "carrier" else None,
        attacks=attacks,
        abilities=draw(abilities()),
        history=history,
    )
