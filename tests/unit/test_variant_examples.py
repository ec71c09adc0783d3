"""Each worked example in the seeds, with the seed's own numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wastools.variants import VARIANTS, fleet, hex, large_map, off_grid, tabletop_cm, tabletop_inches


def adapt(repo, variant, unit_id, **params):
    v = VARIANTS[variant]
    return v.adapt(repo.units[unit_id], v.resolve({k: str(val) for k, val in params.items()}))


# --- seed 000: large map --------------------------------------------------------------


@pytest.mark.parametrize("row", large_map.AIR_RANGE_CHART, ids=lambda r: r.chart_name)
def test_seed_000_air_range_chart_rows_are_what_the_variant_flies(repo, row):
    adapted = adapt(repo, "large-map", row.unit_id)
    assert adapted.movement.value == row.sectors
    assert "Air Range Chart" in adapted.movement.source


def test_seed_000_formula_rounds_down():
    assert large_map.formula_sectors(331) == 9  # 331 / 12 * 1760 / 5000 = 9.71
    assert large_map.formula_sectors(340.9) == 9
    assert large_map.formula_sectors(Fraction_edge := 375) == 11  # 375 mph is exactly 11.0 sectors
    assert Fraction_edge == 375


def test_seed_000_formula_elsewhere(repo):
    adapted = adapt(repo, "large-map", "fw-190a")
    mph = repo.units["fw-190a"].history.top_speed.value
    assert adapted.movement.value == large_map.formula_sectors(mph)
    assert "not in the Air Range Chart" in adapted.movement.source and f"{mph:g} mph covers" in adapted.movement.source
    chart_off = adapt(repo, "large-map", "f6f-3-hellcat", use_air_range_chart="false")
    assert chart_off.movement.value == large_map.formula_sectors(repo.units["f6f-3-hellcat"].history.top_speed.value)


def test_seed_000_carrier_loses_vital_armour_per_squadron(repo):
    enterprise = repo.units["uss-enterprise-cv-6"]
    adapted = adapt(repo, "large-map", "uss-enterprise-cv-6")
    expected = [enterprise.vital_armor - n for n in range(enterprise.carrier_capacity + 1)]
    assert adapted.rules["vital_armor_by_squadrons_aboard"].value == expected
    assert adapted.rules["launch_land_per_phase"].value == enterprise.carrier_capacity


def test_seed_000_stat_blocks():
    assert large_map.AIR_BASE == {"capacity": 4, "armor": 4, "hull": 6, "anti_air": 5}
    assert large_map.HEAVY_BATTERY["gunnery"] == (8, 7, 6) and large_map.LIGHT_BATTERY["gunnery"] == (5, 4, 3)
    assert large_map.GARRISON["armor"] == 3


# --- seed 001: tabletop in centimetres ----------------------------------------------------


def test_seed_001_fletcher_moves_30_cm_on_the_8_ft_scale(repo):
    adapted = adapt(repo, "tabletop-cm", "uss-fletcher-dd-445", table_scale="8ft")
    assert (adapted.movement.value, adapted.movement.unit) == (30, "cm")


def test_seed_001_range_1_is_20_cm_on_the_6_ft_scale(repo):
    main = adapt(repo, "tabletop-cm", "uss-fletcher-dd-445").attack("main")
    assert [(b.band, b.max) for b in main.bands] == [(0, 10), (1, 20), (2, 30)]


@pytest.mark.parametrize(
    "unit_id, number",
    [("a6m2-zeke", 6), ("pby-catalina", 4), ("yamato", 5), ("uss-fletcher-dd-445", 4), ("hmas-arunta", 3)],
)
def test_seed_001_detection_numbers(repo, unit_id, number):
    assert tabletop_cm.detection_number(repo.units[unit_id])[0] == number


def test_seed_001_fleet_limits(repo):
    us_cruiser = repo.units["uss-cleveland-cl-55"]
    ijn = repo.units["yamato"]
    count = -(-95 // us_cruiser.points)  # at least 95 US points: legal at 100, not at 90
    capped = fleet.check_fleet(VARIANTS["tabletop-cm"], [(us_cruiser, count)], 100)
    assert capped.effective_limit == 90 and not capped.legal
    assert fleet.check_fleet(VARIANTS["standard"], [(us_cruiser, count)], 100).legal == (
        count * us_cruiser.points <= 100
    )
    assert fleet.check_fleet(VARIANTS["tabletop-cm"], [(us_cruiser, 1)], 200).effective_limit == 180
    assert fleet.check_fleet(VARIANTS["tabletop-cm"], [(ijn, 1)], 100).effective_limit == 100
    sub = repo.units["i-19"]
    subs = fleet.check_fleet(VARIANTS["tabletop-cm"], [(sub, 3)], 100)
    assert subs.submarine_points == 3 * sub.points
    assert subs.legal == (3 * sub.points <= 25)


def test_seed_001_torpedo_rearm_counters(repo):
    assert tabletop_cm.torpedo_rearm_counters(repo.units["uss-fletcher-dd-445"])[0] == 2
    assert tabletop_cm.torpedo_rearm_counters(repo.units["i-19"])[0] == 0


# --- seed 002: hex grid ------------------------------------------------------------------


def test_seed_002_67_kmh_moves_7_hexes():
    assert hex.speed_hexes(67) == 7
    assert hex.speed_hexes(65) == 7  # half rounds up
    assert hex.speed_hexes(64.9) == 6


def test_seed_002_band_table():
    table = {0: (1, 1), 1: (2, 4), 2: (5, 7), 3: (8, 10), 4: (11, 13), 5: (14, 16), 6: (17, 19)}
    assert {band: hex.band_hexes(band) for band in table} == table


def test_seed_002_tribal_class_card(repo):
    adapted = adapt(repo, "hex", "hms-cossack")  # a Tribal-class destroyer
    notation = adapted.rules["card_notation"].value
    assert notation["Main Guns"] == "6@1, 5@7"
    assert notation["AA Guns"] == "5@1"
    assert notation["Depth Charge"] == "5@1"
    cossack = repo.units["hms-cossack"]
    assert (cossack.vital_armor, cossack.hull) == (7, 2)
    assert {a.text for a in cossack.abilities} == {"Chase the Salvoes", "Valiant Stand"}


def test_seed_002_depth_charges_and_arcs(repo):
    adapted = adapt(repo, "hex", "hms-cossack")
    # the rules' own example: "5 dice may be allocated as 2 each side and 1 directly astern"
    assert adapted.rules["depth_charge_hexes"].value["port_astern_starboard"] == [2, 1, 2]
    arcs = adapted.rules["main_arcs"].value
    assert arcs == {"fore": [3, 3, 3], "aft": [3, 2, 2], "broadside": [6, 5, 5]}


@given(st.integers(min_value=1, max_value=40))
def test_seed_002_depth_charges_never_exceed_a_third_a_hex_nor_the_total(total):
    split = hex.depth_charge_split(total)
    port, astern, starboard = split["port_astern_starboard"]
    assert port + astern + starboard == total
    assert max(port, astern, starboard) <= -(-total // 3) == split["per_hex_max"]
    assert port == starboard or starboard == total - port  # the sides are filled first


def test_seed_002_aircraft_torpedo_with_2_dice_a_flight_1_hex_ahead(repo):
    """'Aircraft may make torpedo attacks against enemy ships 1 hex directly ahead with 2 dice per flight.'"""
    bombers = [u for u in repo.units.values() if u.is_aircraft and u.attack("torpedo")]
    assert len(bombers) >= 5
    for unit in bombers:
        adapted = adapt(repo, "hex", unit.id)
        torpedo = adapted.attack("torpedo")
        assert [(b.band, b.dice, b.max) for b in torpedo.bands] == [(0, 2, 1)], unit.id
        assert adapted.rules["card_notation"].value["Torpedoes"] == "2@1"
    ship = adapt(repo, "hex", "hms-cossack").attack("torpedo")  # ships keep their card's torpedo dice
    assert ship is None or ship.bands[0].dice == repo.units["hms-cossack"].attack("torpedo").bands[0]


@pytest.mark.parametrize(
    "unit_id, hexes",
    [("bismarck", 3), ("hms-prince-of-wales", 3), ("hms-warspite", 2), ("hms-cossack", 1), ("uss-cleveland-cl-55", 2)],
)
def test_seed_002_footprints(repo, unit_id, hexes):
    assert adapt(repo, "hex", unit_id).rules["footprint"].value == hexes


def test_seed_002_footprint_override(repo):
    v = VARIANTS["hex"]
    adapted = v.adapt(repo.units["hms-warspite"], v.resolve({"footprint.hms-warspite": "3"}))
    assert adapted.rules["footprint"].value == 3


# --- seed 003: off the grid ----------------------------------------------------------------


def test_seed_003_range_table_in_legs_and_inches():
    legs = [off_grid.band_legs(b) for b in range(6)]
    assert legs == [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]
    assert [hi * 3 for _lo, hi in legs] == [3, 9, 15, 21, 27, 33]


def test_seed_003_speed_2_moves_4_legs_12_inches(repo):
    adapted = adapt(repo, "off-grid", "hms-cossack")
    assert adapted.movement.value == 4 and adapted.rules["movement_in"].value == 12


def test_seed_003_grid_to_leg():
    for grid, leg in [(3.5, 2.0), (4, 2.25), (6, 3.3), (7, 3.9)]:
        value, _ = off_grid.leg_inches({"grid_in": grid, "leg_in": 3.0})
        assert abs(value - leg) < 0.1


def test_seed_003_anti_air_short_and_long(repo):
    aa = adapt(repo, "off-grid", "hms-cossack").attack("anti_air")
    assert [(b.min, b.max) for b in aa.bands] == [(0, 1), (1, 2)]
    heavy = next(u for u in repo.units.values() if u.has_ability("Heavy Antiair"))
    aa = adapt(repo, "off-grid", heavy.id).attack("anti_air")
    assert [b.max for b in aa.bands] == [2, 3]


def test_seed_003_slow_ships(repo):
    slow = next(u for u in repo.units.values() if u.has_ability("Slow {n}") and u.speed == 2)
    assert adapt(repo, "off-grid", slow.id).movement.value == 3
    v = VARIANTS["off-grid"]
    assert v.adapt(slow, v.defaults(), crippled=True).movement.value == 2


# --- seed 004: large playing surface -------------------------------------------------------


def test_seed_004_range_tables(repo):
    bismarck = adapt(repo, "tabletop-inches", "bismarck")
    assert [b.max for b in bismarck.attack("main").bands][:4] == [5, 10, 20, 30]
    assert [b.max for b in bismarck.attack("secondary").bands] == [5, 10, 15, 20]
    fletcher = adapt(repo, "tabletop-inches", "uss-fletcher-dd-445")
    assert [b.max for b in fletcher.attack("main").bands] == [5, 10, 15]
    assert [b.max for b in fletcher.attack("torpedo").bands] == [3, 6]
    assert fletcher.attack("asw").bands[0].max == 3
    assert tabletop_inches.HEAVY_MAIN_IN == (5, 10, 20, 30, 35, 40)


def test_seed_004_extended_range_and_long_lance(repo):
    er5 = next(
        u for u in repo.units.values() if u.has_ability("Extended Range {n}") and u.ability("Extended Range {n}").n == 5
    )
    main = adapt(repo, "tabletop-inches", er5.id).attack("main")
    assert [(b.band, b.max) for b in main.bands if b.condition] == [(4, 35), (5, 40)]
    lance = next(
        u for u in repo.units.values() if u.has_ability("Long-Lance Torpedoes") and u.attack("torpedo").bands[3]
    )
    torpedo = adapt(repo, "tabletop-inches", lance.id).attack("torpedo")
    assert torpedo.bands[-1].max == 12 and torpedo.bands[-1].condition == "Long-Lance Torpedoes only"


def test_seed_004_hedgehog(repo):
    late = next(
        u
        for u in repo.units.values()
        if u.attack("asw") and not u.is_aircraft and u.year >= 1944 and not u.has_ability("Sub Hunter")
    )
    assert adapt(repo, "tabletop-inches", late.id).rules["hedgehog"].value == 4
    early = next(
        u
        for u in repo.units.values()
        if u.attack("asw") and not u.is_aircraft and u.year <= 1942 and not u.has_ability("Sub Hunter")
    )
    assert "hedgehog" not in adapt(repo, "tabletop-inches", early.id).rules


def test_victory_rules_per_variant():
    for name in VARIANTS:
        rules = fleet.victory_rules(VARIANTS[name])
        assert (rules.objective_points, rules.win_points) == (50, 150) and rules.claim


# --- worked examples added with the rules registers (issue 13) ---------------------------------------


def test_seed_000_carrier_of_capacity_3_launches_2_and_lands_1(repo):
    """Seed 000: a carrier of capacity 3 may launch two and land one in a phase, not launch and land three."""
    akagi = repo.units["akagi"]
    budget = adapt(repo, "large-map", "akagi").rules["launch_land_per_phase"].value
    assert akagi.carrier_capacity == budget == 3
    assert 2 + 1 <= budget < 3 + 3


def test_seed_000_landing_on_another_carrier_makes_two_rearm_markers(repo):
    """Seed 000: an air group landing on a carrier it is not assigned to gets one more marker, two in all."""
    from wastools.content import card_view

    adapted = adapt(repo, "large-map", "sbd-dauntless")
    assert adapted.rules["rearm"].value + 1 == 2
    assert (
        dict(card_view.rule_lines(adapted))["Re-arm"]
        == "1 full turn after landing; 1 more on a carrier it is not assigned to"
    )


def test_seed_001_italian_submarine_hidden_4_turns_moves_5_sectors(repo):
    """Seed 001: hidden 4 turns, an Italian submarine gets its normal move (1 sector) plus 4 saved."""
    italian = repo.units["ambra"]
    assert italian.nation == "italy" and italian.speed == 1
    assert tabletop_cm.hidden_move_sectors(italian.speed, 4) == 5
    from wastools.content import aids

    text = " ".join(line for s in aids.aid("tabletop-cm", repo) for line in s.lines)
    assert "a speed-1 submarine hidden for 4 turns may then move up to 50 cm (75 cm on the 8 ft scale)" in text


def test_seed_001_objective_range_1_is_20_cm_on_the_6_ft_table(repo):
    assert adapt(repo, "tabletop-cm", "uss-fletcher-dd-445").rules["objective_clear"].value == 20


def test_seed_002_bismarck_needs_600_by_200_m_of_sea_room(repo):
    """Seed 002: a hex is about 200 m and Bismarck covers 3 hexes, 600 m by 200 m."""
    assert adapt(repo, "hex", "bismarck").rules["footprint"].value * 200 == 600


def test_seed_002_three_hex_ship_may_be_attacked_by_three_flights(repo):
    """Seed 002: one flight per hex of a ship a turn, so a 3-hex ship takes 3 flights."""
    assert adapt(repo, "hex", "hms-prince-of-wales").rules["footprint"].value == 3


def test_seed_002_torpedoes_range_as_gunnery_1_4_7_hexes(repo):
    """Seed 002: torpedo ranges are as for gunnery (1, 4, 7 hexes)."""
    torpedo = adapt(repo, "hex", "uss-fletcher-dd-445").attack("torpedo")
    assert [hex.band_hexes(b.band)[1] for b in torpedo.bands] == [1, 4, 7][: len(torpedo.bands)]
    assert [b.max for b in torpedo.bands] == [1, 4, 7][: len(torpedo.bands)]


def test_seed_002_mine_table_in_the_aid(repo):
    """Seed 002: 1 destroyed, 2-3 two hull damage, 4-5 one, 6 none."""
    from wastools.content import aids

    table = next(t for s in aids.aid("hex", repo) for t in s.tables if t.header == ("roll", "result"))
    assert table.rows == (
        ("1", "ship destroyed"),
        ("2-3", "2 points of hull damage"),
        ("4-5", "1 point of hull damage"),
        ("6", "no damage"),
    )


def test_seed_003_speed_2_may_end_anywhere_after_3_legs(repo):
    """Seed 003: speed 2 moves 4 legs; 3 legs or less (1 short of full) frees the heading."""
    full = adapt(repo, "off-grid", "hms-cossack").movement.value
    assert full == 4 and full - 1 == 3


def test_seed_004_a_sector_is_5_inches_of_1000_yards(repo):
    params = VARIANTS["tabletop-inches"].defaults()
    assert params["sector_in"] == 5
    assert adapt(repo, "tabletop-inches", "uss-fletcher-dd-445").movement.value == 2 * 5


# --- seed 004: a crippled ship's "-1 inch" of speed --------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "speed", "whole", "crippled"),
    [("sectors", 3, 15, 10), ("sectors", 1, 5, 5), ("literal", 3, 3, 2), ("literal", 1, 1, 1)],
)
def test_seed_004_a_crippled_ship_loses_one_point_of_speed_never_below_1(rule, speed, whole, crippled):
    """The seed's -1 in is one point of speed where a ship moves an inch a point; at 5 in a point
    it is 5 in, and a speed-1 ship keeps its speed (minimum 1)."""
    params = VARIANTS["tabletop-inches"].resolve({"movement_rule": rule})
    assert tabletop_inches.ship_movement(speed, params, crippled=False).value == whole
    assert tabletop_inches.ship_movement(speed, params, crippled=True).value == crippled
