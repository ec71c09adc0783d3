"""The odds in a real browser: odds.js against wastools.content.odds on many cases, and the
odds a unit page and the fleet builder show, against the Python module's exact fractions.

The site is built from a few units (one with a hostile name) and opened from ``file://``;
every test fails on a console error, a script error, a dialog or a request outside the site.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from tests.browser.test_site_browser import Guard, url
from tests.site_check import small_spec
from wastools.content.odds import Defense, attack_odds, can_attack, defense, hull_damage, odds, together, totals
from wastools.site import build_site
from wastools.variants import VARIANTS

pytestmark = pytest.mark.slow

HOSTILE = '<img src=x onerror=alert(1)> "Cossack" <script>alert(2)</script>'
TARGETS = [
    Defense(1, 2, 1),
    Defense(2, 4, 3),
    Defense(3, 5, 2),
    Defense(4, 3, 4),
    Defense(1, 3, None),
    Defense(0, 9, 5),
    Defense(1, 2, None, (("anti_air", 1),)),  # a Swordfish on the hex grid
]


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("odds-site")
    units = dict(repo.units)
    units["hms-cossack"] = dataclasses.replace(units["hms-cossack"], name=HOSTILE)
    build_site(dataclasses.replace(repo, units=units), out, small_spec(dataclasses.replace(repo, units=units)))
    return out / "site"


@pytest.fixture
def page(browser, site):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    guard = Guard(site)
    tab = context.new_page()
    guard.watch(tab)
    tab.guard = guard
    yield tab
    context.close()
    assert guard.problems == []


def _js_target(t: Defense) -> dict:
    return {"armor": t.armor, "vital": t.vital, "hull": t.hull, "fewer": [list(f) for f in t.fewer]}


def test_odds_js_agrees_with_python_in_every_variant(page, site):
    page.goto(url(site, "units/atago.html"))
    cases, wanted = [], []
    for name in sorted(VARIANTS):
        rule = VARIANTS[name].dice
        arcs = ("", *(a.name for a in rule.arcs))
        for kind, dice, target, band, crippled, luck, arc in product(
            ("main", "anti_air", "torpedo"), (0, 1, 2, 3, 5, 8, 12), TARGETS, (0, 1), (False, True), (False, True), arcs
        ):
            cases.append([rule.to_json(), kind, band, dice, _js_target(target), crippled, luck, arc])
            o = odds(rule, kind, band, dice, target, crippled, luck, arc)
            wanted.append([float(o.damaged), float(o.sunk), None if o.expected is None else float(o.expected)])
    got = page.evaluate(
        "cases => cases.map(c => { const o = window.wasOdds.odds(...c); return [o.damaged, o.sunk, o.expected]; })",
        cases,
    )
    assert len(got) == len(wanted) > 2000
    for case, g, w in zip(cases, got, wanted, strict=True):
        assert g[:2] == pytest.approx(w[:2], abs=1e-12), case[1:]
        assert (g[2] is None) == (w[2] is None) and (w[2] is None or g[2] == pytest.approx(w[2], abs=1e-12)), case[1:]


def test_attacks_together_agree_with_python(page, site):
    page.goto(url(site, "fleet.html"))
    rule = VARIANTS["tabletop-inches"].dice
    for target in TARGETS:
        mix = [("main", 6, False), ("torpedo", 3, True), ("main", 2, True), ("anti_air", 4, False)]
        cap = max(target.armor, target.vital, target.hull or 1)
        parts = [hull_damage(totals(rule, k, 0, d, cap, luck=lk), k, target) for k, d, lk in mix]
        want = together(parts, target)
        got = page.evaluate(
            """([rule, mix, t]) => { const O = window.wasOdds;
                 const one = ([k, d, lk]) => O.hullDamage(O.totals(rule, k, 0, d, t, false, lk), k, t);
                 return O.together(mix.map(one), t); }""",
            [rule.to_json(), mix, _js_target(target)],
        )
        assert got["damaged"] == pytest.approx(float(want.damaged), abs=1e-12)
        assert got["sunk"] == pytest.approx(float(want.sunk), abs=1e-12)


def _percent(p: Fraction) -> str:
    """As the page writes a chance (odds.js ``percent``)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    if p < Fraction(1, 1000):
        return "under 0.1%"
    if p > Fraction(999, 1000):
        return "over 99.9%"
    return f"{math.floor(float(p) * 1000 + 0.5) / 10:.1f}%"  # Math.round: halves go up


def _rows(page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#odds-rows tr", "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
    )


def _expected_rows(repo, variant_name: str, attacker: str, target: str, luck: bool = False) -> list[list[str]]:
    v = VARIANTS[variant_name]
    params, victim = v.defaults(), repo.units[target]
    shown = defense(v, params, victim)
    rows = []
    for attack in v.adapt(repo.units[attacker], params).attacks:
        if not any(b.dice for b in attack.bands):
            continue
        if not can_attack(attack.type, victim):
            rows.append(None)
            continue
        for b in attack.bands:
            o = odds(v.dice, attack.type, b.band, b.dice, shown, luck=luck)
            rows.append([str(shown.dice(attack.type, b.dice)), _percent(o.damaged), _percent(o.sunk)])
    return rows


@pytest.mark.parametrize("variant", ["standard", "hex", "tabletop-inches"])
def test_a_unit_page_shows_pythons_odds(page, site, repo, variant):
    page.goto(url(site, "units/atago.html"))
    assert page.is_visible("#odds")
    page.select_option("#odds-variant", variant)
    page.select_option("#odds-target", "uss-san-francisco-ca-38")
    luck = VARIANTS[variant].dice.luck
    assert page.is_visible("#odds-luck") == luck
    if luck:
        page.check("#odds-luck")
    shown = _rows(page)
    want = _expected_rows(repo, variant, "atago", "uss-san-francisco-ca-38", luck)
    assert len(shown) == len(want)
    for row, expected in zip(shown, want, strict=True):
        if expected is None:
            assert "fires only at" in row[1]
        else:
            assert row[2:] == expected
    assert page.inner_text("#odds-target-name") == repo.units["uss-san-francisco-ca-38"].name


def test_antiair_against_an_aircraft_and_a_crippled_target(page, site, repo):
    page.goto(url(site, "units/atago.html"))
    page.select_option("#odds-target", "f4f-wildcat")
    rows = _rows(page)
    assert any(r[0] == "Antiair" and r[-1].endswith("%") for r in rows)
    assert all("fires only at surface ships" in r[1] for r in rows if r[0] == "Main")
    page.select_option("#odds-target", "nagatsuki")
    whole = _rows(page)
    page.check("#odds-crippled")
    hurt = _rows(page)
    assert hurt != whole  # 1 hull point left: any damage sinks it


def test_the_fleet_builder_shows_the_fleets_odds(page, site, repo):
    page.goto(url(site, "fleet.html"))
    assert page.is_visible("#odds-empty")
    for unit_id, n in (("atago", 2), ("u-47", 1)):
        for _ in range(n):
            page.click(f'tr[data-id="{unit_id}"] button[data-step="1"]')
    page.select_option("#odds-target", "bismarck")
    rows = _rows(page)
    assert [r[0] for r in rows] == [f"2 \u00d7 {repo.units['atago'].name}", f"1 \u00d7 {repo.units['u-47'].name}"]
    v = VARIANTS[page.input_value("#deck-variant")]
    target = defense(v, v.defaults(), repo.units["bismarck"])
    parts = []
    for unit_id, n in (("atago", 2), ("u-47", 1)):
        best = None
        for attack in v.adapt(repo.units[unit_id], v.defaults()).attacks:
            band = next((b for b in attack.bands if b.band == 0 and b.dice), None)
            if band is None or not can_attack(attack.type, repo.units["bismarck"]):
                continue
            cap = max(target.armor, target.vital, target.hull or 1)
            dist = hull_damage(totals(v.dice, attack.type, 0, band.dice, cap), attack.type, target)
            o = together([dist], target)
            if best is None or (o.sunk, o.damaged) > (best[0].sunk, best[0].damaged):
                best = (o, dist)
        assert best is not None
        parts += [best[1]] * n
    want = together(parts, target)
    assert page.inner_text("#odds-all-damaged") == _percent(want.damaged)
    assert page.inner_text("#odds-all-sunk") == _percent(want.sunk)
    assert not page.is_visible("#odds-empty")


def test_names_are_text_and_the_markup_is_sound(page, site):
    page.goto(url(site, "units/atago.html"))
    labels = page.eval_on_selector_all("#odds-target option", "os => os.map(o => o.textContent)")
    assert HOSTILE in labels  # shown as its characters, never run (the guard fails on a dialog)
    page.select_option("#odds-target", "hms-cossack")
    assert page.inner_text("#odds-target-name") == HOSTILE
    for rel in ("units/atago.html", "fleet.html"):
        page.goto(url(site, rel))
        columns = page.evaluate(
            """() => [...document.querySelectorAll('#odds table')].map(t => [t.querySelectorAll('col').length,
                 Math.max(...[...t.rows].map(r => [...r.cells].reduce((n, c) => n + c.colSpan, 0)))])"""
        )
        assert columns and all(cols == widest for cols, widest in columns), (rel, columns)


def test_the_hex_grids_arcs_change_the_gun_dice(page, site, repo):
    page.goto(url(site, "units/atago.html"))
    assert not page.is_visible("#odds-arc")
    page.select_option("#odds-variant", "hex")
    page.select_option("#odds-target", "uss-san-francisco-ca-38")
    beam = _rows(page)
    page.select_option("#odds-arc", "ahead")
    ahead = _rows(page)
    v = VARIANTS["hex"]
    shown = defense(v, v.defaults(), repo.units["uss-san-francisco-ca-38"])
    main = [b for a in v.adapt(repo.units["atago"], v.defaults()).attacks if a.type == "main" for b in a.bands]
    assert [r[2] for r in beam if r[0] == "Main"] == [str(b.dice) for b in main]
    assert [r[2:] for r in ahead if r[0] == "Main"] == [
        [str(-(-b.dice // 2)), *(_percent(p) for p in _both(odds(v.dice, "main", b.band, b.dice, shown, arc="ahead")))]
        for b in main
    ]
    assert [r for r in ahead if r[0] == "Torpedo"] == [r for r in beam if r[0] == "Torpedo"]  # guns only


def _both(o) -> tuple[Fraction, Fraction]:
    return o.damaged, o.sunk


@pytest.mark.parametrize("variant", ["hex", "tabletop-inches"])
def test_a_crippled_attacker_rolls_the_variants_crippled_dice(page, site, repo, variant):
    page.goto(url(site, "units/atago.html"))
    page.select_option("#odds-variant", variant)
    page.select_option("#odds-target", "uss-san-francisco-ca-38")
    assert page.is_visible("#odds-self")
    page.check("#odds-self")
    v = VARIANTS[variant]
    atago, target = repo.units["atago"], repo.units["uss-san-francisco-ca-38"]
    want = []
    for attack in v.adapt(atago, v.defaults(), crippled=True).attacks:
        for b in attack.bands if any(b.dice for b in attack.bands) else ():
            o = attack_odds(v, v.defaults(), atago, attack.type, b.band, target, attacker_crippled=True)
            want.append(None if o is None else [str(b.dice), _percent(o.damaged), _percent(o.sunk)])
    shown = [r[2:] if len(r) == 5 else None for r in _rows(page)]
    assert [w for w in want if w] == [s for s in shown if s]
    page.uncheck("#odds-self")
    assert [r[2:] for r in _rows(page) if len(r) == 5] != [w for w in want if w]


def test_aircraft_are_never_crippled(page, site):
    page.goto(url(site, "units/f4f-wildcat.html"))
    assert not page.is_visible("#odds-self")
