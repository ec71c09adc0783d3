"""What the independent audit of issue 13 found, each fix as a test against the seeds' words."""

from __future__ import annotations

from tests.conftest import ROOT
from wastools.content import aids, card_view
from wastools.core import wording
from wastools.variants import VARIANTS, fleet, hex, off_grid, tabletop_inches

LAND_FIGHTERS = (
    "b-239-buffalo",
    "fw-190a",
    "n1k1-j-george",
    "p-40e-warhawk",
    "usmc-f4u-1a-corsair",
    "lend-lease-hurricane-mk-ii",
)


def adapt(repo, variant, unit, crippled=False, **params):
    v = VARIANTS[variant]
    return v.adapt(unit, v.resolve({k: str(val) for k, val in params.items()}), crippled)


def aid_text(repo, variant, **params) -> str:
    v = VARIANTS[variant]
    sections = aids.aid(variant, repo, v.resolve({k: str(val) for k, val in params.items()}))
    return " ".join(line for s in sections for line in (s.title, *s.lines))


def card_rules(adapted) -> dict[str, str]:
    return dict(card_view.rule_lines(adapted))


# --- seed 001 (tabletop-cm) ------------------------------------------------------------------------


def test_tabletop_cm_every_aircraft_carries_its_rearm_counters(repo):
    """'Carrier based aircraft now get rearming counters. Land based aircraft get two.'"""
    aircraft = [u for u in repo.units.values() if u.is_aircraft]
    assert len(aircraft) > 19  # not only the torpedo aircraft
    for unit in aircraft:
        adapted = adapt(repo, "tabletop-cm", unit)
        land = unit.type == "patrol-bomber" or unit.has_ability("Land Based") or unit.has_ability("Land Fighter")
        assert adapted.rules["rearm_counters"].value == (2 if land else 1), unit.id
        assert card_rules(adapted)["Re-arm"].startswith(f"{2 if land else 1} counter"), unit.id
    for unit_id in LAND_FIGHTERS:
        assert adapt(repo, "tabletop-cm", repo.units[unit_id]).rules["rearm_counters"].value == 2, unit_id
    assert adapt(repo, "tabletop-cm", repo.units["a6m2-zeke"]).rules["rearm_counters"].value == 1


def test_tabletop_cm_close_escort_is_the_seeds_anti_air_rule(repo):
    unit = next(u for u in repo.units.values() if u.has_ability("Close Escort"))
    for scale, cm in (("6ft", 10), ("8ft", 15)):
        adapted = adapt(repo, "tabletop-cm", unit, table_scale=scale)
        view = card_view.ability_lines(adapted, repo, VARIANTS["tabletop-cm"])
        summary = next(a["summary"] for a in view if a["name"] == "Close Escort")
        assert (
            "two other ships have fired on" in summary
            and f"within {cm} cm of the target ship's conning tower" in summary
        )
    assert "Close Escort: may fire antiair at an aircraft that two other ships have fired on" in aid_text(
        repo, "tabletop-cm"
    )


def test_tabletop_cm_objectives_are_seized_at_the_range_1_reach(repo):
    """'no opposition vessel ... within Sector 1 range (e.g. 20 cm on a 6 foot table)'."""
    fletcher = repo.units["uss-fletcher-dd-445"]
    assert adapt(repo, "tabletop-cm", fletcher).rules["objective_clear"].value == 20
    assert adapt(repo, "tabletop-cm", fletcher, table_scale="8ft").rules["objective_clear"].value == 30
    assert "objective" not in adapt(repo, "tabletop-cm", fletcher).rules["range_0_reach"].source
    assert (
        "no enemy vessel within 20 cm (30 cm on the 8 ft scale)" in fleet.victory_rules(VARIANTS["tabletop-cm"]).claim
    )


def test_tabletop_cm_doc_describes_the_movement_the_cards_print(repo):
    fletcher = repo.units["uss-fletcher-dd-445"]
    doc = (ROOT / "docs" / "variants" / "tabletop-cm.md").read_text("utf-8")
    doc = " ".join(doc.split())
    cm = VARIANTS["tabletop-cm"]
    for scale, printed in (("6ft", "20 cm (6 ft scale)"), ("8ft", "30 cm (8 ft scale)")):
        adapted = adapt(repo, "tabletop-cm", fletcher, table_scale=scale)
        assert card_view.movement_text(adapted, cm)[1] == printed  # the card's own scale only, named
        assert f'"{printed}"' in doc, printed
        # and the range table's header names the scale its distances are for
        view = card_view.card_view(adapted, cm, repo)
        assert view.distance_unit == f"cm ({scale.removesuffix('ft')} ft)"


# --- seed 002 (hex) -----------------------------------------------------------------------------------


def test_hex_submarines_have_a_deck_gun_and_a_slower_submerged_move(repo):
    """'one deck gun (normally 1 die @ range 4)'; 'Speed on the surface is increased'."""
    subs = [u for u in repo.units.values() if u.type == "submarine"]
    assert len(subs) >= 3  # every submarine of the fixture repository (all 20 in the shipped data)
    for unit in subs:
        adapted = adapt(repo, "hex", unit)
        assert adapted.rules["surface_deck_gun"].value == {"dice": 1, "hexes": 4}
        lines = card_rules(adapted)
        assert lines["Deck gun"] == "on the surface 1 die up to 4 hexes"
        assert lines["Submerged"].startswith("moves up to 1 hex")
        if adapted.movement.value is not None:
            assert adapted.movement.value > adapted.rules["submerged_move"].value, unit.id
    u47 = adapt(repo, "hex", repo.units["u-47"])
    assert u47.movement.value == hex.speed_hexes(17.9 * 1.852) == 3  # surfaced 17.9 kn
    assert adapt(repo, "hex", repo.units["u-47"], submerged_hexes=2).rules["submerged_move"].value == 2


def test_hex_aid_torpedo_damage_and_flights_between_min_and_max(repo):
    text = aid_text(repo, "hex")
    assert "each 6 does 2 points of hull damage" in text
    assert "do hull damage directly" not in text
    assert "each flight flies between its minimum and maximum hexes" in text
    assert "aircraft are placed with their targets" not in text


def test_hex_aircraft_torpedoes_reach_1_hex_on_the_card_whatever_an_ability_says(repo):
    """'Aircraft may make torpedo attacks against enemy ships 1 hex directly ahead with 2 dice
    per flight': an ability that lets torpedoes reach further in the base game (Harass from a
    Distance) gives no reach past 1 hex on the hex card, in its table or in its words."""
    import re

    from wastools.render import cards

    harassers = [u for u in repo.units.values() if u.is_aircraft and u.has_ability("Harass from a Distance")]
    assert harassers
    v = VARIANTS["hex"]
    for unit in harassers:
        view = cards.card_view(v.adapt(unit, v.defaults()), v, repo)
        (torpedo,) = [a for a in v.adapt(unit, v.defaults()).attacks if a.type == "torpedo"]
        assert [(b.band, b.dice, b.max) for b in torpedo.bands] == [(0, 2, 1)]
        (said,) = [a["summary"] for a in view.abilities if a["name"] == "Harass from a Distance"]
        assert "1 hex straight ahead" in said
        assert not re.search(r"\b([2-9]|\d\d+)(-\d+)? hexes", said), said


def test_hex_crippled_one_die_attack_is_lost(repo):
    """'A crippled ship reduces its attack by 1 die'; '(minimum 1 each)' is armour, vital armour and speed."""
    cossack = repo.units["hms-cossack"]
    whole = adapt(repo, "hex", cossack)
    crippled = adapt(repo, "hex", cossack, crippled=True)
    for attack in whole.attacks:
        after = crippled.attack(attack.type)
        expected = [(b.band, b.dice - 1) for b in attack.bands if b.dice > 1]
        assert ([(b.band, b.dice) for b in after.bands] if after else []) == expected
    one_die = next(
        u
        for u in repo.units.values()
        if not u.is_aircraft and any(a.bands[0] == 1 and not any(a.bands[1:]) for a in u.attacks)
    )
    kind = next(a.kind for a in one_die.attacks if a.bands[0] == 1 and not any(a.bands[1:]))
    assert adapt(repo, "hex", one_die, crippled=True).attack(kind) is None
    assert crippled.rules["armor"].value == max(1, cossack.armor - 1)
    doc = (ROOT / "docs" / "variants" / "hex.md").read_text("utf-8")
    assert "one die fewer per attack (minimum 1)" not in doc and "an attack of 1 die is lost" in doc


# --- seed 003 (off-grid) -----------------------------------------------------------------------------


def test_off_grid_stacking_by_kind_of_unit(repo):
    """'subs must be more than 1 leg from other friendly subs'; torpedo boats 'within 1 leg of
    one other ship'; 'There's no limit to the number of bombers'."""
    units = repo.units.values()
    boat = adapt(repo, "off-grid", next(u for u in units if u.type == "torpedo-boat"))
    assert "one other ship" in boat.rules["stacking"].source
    assert card_rules(boat)["Spacing"] == "may end within 1 leg of one other ship"
    sub = adapt(repo, "off-grid", next(u for u in units if u.type == "submarine"))
    assert "submarines" in sub.rules["stacking"].source and "ships" not in sub.rules["stacking"].source
    bomber = adapt(repo, "off-grid", next(u for u in units if u.is_aircraft and u.type != "fighter"))
    assert bomber.rules["stacking"].to_json()["value"] is None and "no limit" in bomber.rules["stacking"].source
    fighter = adapt(repo, "off-grid", next(u for u in units if u.type == "fighter"))
    assert fighter.rules["stacking"].value == 1


def test_off_grid_band_1_starts_just_beyond_1_leg(repo):
    for unit in repo.units.values():
        for attack in adapt(repo, "off-grid", unit).attacks:
            if attack.type == "anti_air":
                continue
            bands = attack.to_json()["bands"]
            for b in bands:
                assert b["min"] == (0 if b["band"] == 0 else 2 * b["band"] - 1), (unit.id, b)
    assert [off_grid.band_reach(b)[1] for b in range(4)] == [1, 3, 5, 7]


# --- seed 004 (tabletop-inches) -----------------------------------------------------------------------


def test_tabletop_inches_objective_distance_is_a_parameter_the_card_and_aid_share(repo):
    unit = repo.units["uss-fletcher-dd-445"]
    assert VARIANTS["tabletop-inches"].defaults()["objective_enemy_clear_in"] == 10
    for clear in (5, 10):
        claim = adapt(repo, "tabletop-inches", unit, objective_enemy_clear_in=clear).rules["objective_claim"]
        assert claim.to_json()["value"] == {"within": 5, "no_enemy_within": clear}
        assert f"within 5 in of the token, with no enemy ship within {clear} in" in aid_text(
            repo, "tabletop-inches", objective_enemy_clear_in=clear
        )
    doc = (ROOT / "docs" / "variants" / "tabletop-inches.md").read_text("utf-8")
    assert "objective_enemy_clear_in" in doc and "within 10" in doc and "within 5" in doc


def test_tabletop_inches_hedgehog_is_fore_only_on_card_and_ruler(repo):
    hunter = next(u for u in repo.units.values() if u.has_ability("Sub Hunter") and u.attack("asw"))
    line = card_rules(adapt(repo, "tabletop-inches", hunter))["Hedgehog"]
    assert "ahead only" in line and wording.quantity(4, "in") in line
    rulers = tabletop_inches.rulers(VARIANTS["tabletop-inches"].defaults())
    hedgehog = next(r for r in rulers if "Hedgehog" in r.title)
    assert "ahead only" in hedgehog.title and [(z.start, z.end) for z in hedgehog.zones] == [(0, 4)]
    charges = next(r for r in rulers if "Depth charges" in r.title)
    assert "astern only" in charges.title and [(z.start, z.end) for z in charges.zones] == [(0, 3)]


def test_every_ability_a_unit_carries_has_a_summary_in_the_shipped_data_and_the_fixture():
    """A card prints each ability with its text: no unit may carry an ability whose catalogue
    entry has no summary (Valiant Stand had none, on three cards and 18 faces)."""
    import re

    from tests.conftest import DATA
    from wastools.data.repository.files import read_plain

    for root in (ROOT, DATA):
        catalogue = read_plain(root / "cards" / "abilities.yaml")["abilities"]
        bare = [re.escape(e["name"]).replace(r"\{n\}", r"\d+") for e in catalogue if not e.get("summary")]
        carried = {
            (path.stem, a)
            for path in (root / "cards").glob("*/*.yaml")
            for a in (read_plain(path).get("abilities") or [])
            if isinstance(a, str)
        }
        assert not {(unit, a) for unit, a in carried if any(re.fullmatch(p, a) for p in bare)}, root
