"""Shooting at cars and motorcycles: both tables row by row against the source, every note, every reading both ways,
the resolver's exact odds against a plain count of the whole procedure, and seeded rolls."""
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import DiceFeed, InputError
from besm_nb.special.car_chase import CarChase
from besm_nb.special.vehicles import (CAR_TABLE, COMPONENTS, ENGINE_HP, ENGINE_HT, FACINGS, FRONT_4, MOTORCYCLE_TABLE, TYRE_AND_AXLE,
                                      TYRES, VEHICLES, _hit, _rolls, _shot_dice, areas, car_body_hit, car_tyre_hit, engine_hit,
                                      exact_outcomes, gas_tank_hit, glass_hit, hit_location, location_odds, motorcycle_body_hit,
                                      motorcycle_tyre_hit, occupant_hit, roll_vehicle_hit, vehicle_hit_odds, vehicle_setup)
from tests.helpers import seed_text

SEED = "003_f3673ce212f5243c.txt"


def printed(row) -> str:
    area, front, side, rear, pd, dr, penalty, notes = row
    return f"{front} {side} {rear} {area} {pd} {dr} {'0' if penalty == 0 else f'{penalty:+d}'} See note {notes}."


@pytest.mark.parametrize("row", CAR_TABLE)
def test_car_table_row_by_row_against_the_source(row):
    text = seed_text(SEED)
    block = text[text.index("AUTOMOBILE HIT LOCATIONS"):text.index("1. There is a 1/3 chance")]
    assert printed(row) in block


@pytest.mark.parametrize("row", MOTORCYCLE_TABLE)
def test_motorcycle_table_row_by_row_against_the_source(row):
    text = seed_text(SEED)
    block = text[text.index("MOTORCYCLE HIT LOCATIONS"):text.index("1. If the shot was from the front")]
    assert printed(row) in block


def test_the_tables_cover_the_rolls_as_printed():
    for table in (CAR_TABLE, MOTORCYCLE_TABLE):
        for col in (1, 2, 3):
            covered = sorted(t for row in table for t in _rolls(row[col]))
            missing = sorted(set(range(2, 13)) - set(covered))
            assert len(covered) == len(set(covered)), "no roll twice"
            assert missing == ([4] if table is MOTORCYCLE_TABLE and col == 1 else []), (col, missing)
    assert [r[1:4] for r in CAR_TABLE if r[0] == "Gas Tank"] == [("-", "-", "-")]


def test_motorcycle_component_and_tyre_tables_against_the_source():
    text = seed_text(SEED)
    for rolls, words in (("1", "Bullet hit critical part"), ("2-3", "Bullet hit control system"), ("4-5", "Bullet did cosmetic damage"),
                         ("6", "Bullet misses components"), ("1-2", "Axle or shock hit - Make a control roll at -4"),
                         ("3-4", "Spokes hit - Make a control roll. The bullet glances"), ("5", "Spokes hit - Make a control roll. The bullet damages"),
                         ("6", "Tire hit - Make a control roll")):
        assert f"{rolls} {words}" in text
    assert COMPONENTS == {1: "a vital part", 2: "the controls", 3: "the controls", 4: "cosmetic damage", 5: "cosmetic damage", 6: "nothing"}
    assert [motorcycle_body_hit(20, 1, c).label for c in range(1, 7)] == ["vital part hit", "controls hit, Driving −1", "controls hit, Driving −1",
                                                                         "cosmetic damage", "cosmetic damage", "missed the works"]
    assert TYRE_AND_AXLE == {1: "axle or shock", 2: "axle or shock", 3: "spokes, glancing", 4: "spokes, glancing", 5: "spokes", 6: "tyre"}
    assert [motorcycle_tyre_hit(9, t, 3).control for t in range(1, 7)] == [-4, -4, 0, 0, 0, 0]


def test_the_notes_numbers_against_the_source():
    text = seed_text(SEED)
    for fact in ("window (PD 1, DR 3) and a 2/3 chance that the shot went through the body (PD 3, DR 5)", "control roll at -4",
                 "more than 13d6 in a single shot or burst", "-1 per 30 mph", "more than 7d6 in a single burst", "-3 to Vision rolls",
                 "stop 2d6 more points", "If the number is greater than 10", "On a natural 18 it will explode", "subtract -1 from the roll",
                 "\"HT\" of 10", "Radials have a HT of 11", "Puncture Resistant tires have a HT of 12", "-1 per 10 mph",
                 "loses 10 mph per turn", "-2 to control rolls and 30-50 mph", "frame's DR of 5", "engine's DR of 8", "-1 per 5 points",
                 "usually 8-12", "from 45 to 100", "loses 5 mph per turn", "stop 1d6 more points", "The HT of the engine is 8-10",
                 "from 15 to 45", "Puncture resistant tires have a HT of 11", "Incindiary, explosive or tracer bullets will automatically"):
        assert fact in text, fact
    assert TYRES == {"car": {"standard": 10, "radial": 11, "puncture-resistant": 12, "solid": None},
                     "motorcycle": {"standard": 10, "puncture-resistant": 11, "solid": None}}
    assert ENGINE_HT == {"car": (8, 12), "motorcycle": (8, 10)} and ENGINE_HP == {"car": (45, 100), "motorcycle": (15, 45)}


@pytest.mark.parametrize("vehicle", VEHICLES)
@pytest.mark.parametrize("facing", FACINGS)
@pytest.mark.parametrize("front_4", FRONT_4)
def test_location_odds_are_exact(vehicle, facing, front_4):
    odds = location_odds(vehicle, facing, front_4)
    assert sum(odds.values()) == 1 and list(odds) == list(areas(vehicle))
    ways = {t: 6 - abs(t - 7) for t in range(2, 13)}
    counted = {}
    for t, n in ways.items():
        a = hit_location(vehicle, facing, t, front_4)
        if a is not None: counted[a] = counted.get(a, 0) + n
    whole = sum(counted.values())
    assert whole == (33 if (vehicle, facing, front_4) == ("motorcycle", "front", "reroll") else 36)
    assert all(odds[a] == Fraction(counted.get(a, 0), whole) for a in odds)


def test_every_reading_both_ways():
    # front 4
    assert hit_location("motorcycle", "front", 4) is None
    assert hit_location("motorcycle", "front", 4, "driver") == "Driver" and hit_location("motorcycle", "front", 4, "windshield") == "Windshield"
    # window knocked out by a single shot or only by a burst
    assert glass_hit("window", 40, 8).label == "knocked out" and glass_hit("window", 40, 8, window_rule="burst only").label == "crazed, Vision −3"
    # a knocked-out windshield: the -3 goes, or stays
    assert "still at −3" not in glass_hit("windshield", 60, 14).detail and "still at −3" in glass_hit("windshield", 60, 14, gone_windshield="both").detail
    # one die or two for the motorcycle's works
    # 9 damage, 4 past DR 5: it goes on out when the works soak 3 or less, or on a component 6 (which loses nothing)
    one = vehicle_hit_odds("9", vehicle="motorcycle", location="Body", one_die=True)
    two = vehicle_hit_odds("9", vehicle="motorcycle", location="Body")
    assert one.through == Fraction(4, 6)  # one die: 1, 2, 3 soak little, 6 misses
    assert two.through == Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 2)
    # vital part: per turn or once
    assert "a turn" in motorcycle_body_hit(9, 1, 1).detail and "a turn" not in motorcycle_body_hit(9, 1, 1, "once").detail
    # special rounds in a car's tank
    assert not gas_tank_hit("car", 6, 3, ammo="tracer").fire and gas_tank_hit("car", 6, 3, ammo="tracer", special_rounds_cars=True).fire
    assert vehicle_hit_odds("2d6", location="Gas Tank", ammo="tracer", special_rounds_cars=True).fire == Fraction(26, 36)
    # flat tyre: limp or stop
    assert "30–50 mph" in car_tyre_hit(9, 12).detail and "until it stops" in car_tyre_hit(9, 12, flat_tyre="stop").detail
    # motorcycle tyre table needs the DR beaten, or not
    assert motorcycle_tyre_hit(4, 1).label == "stopped by its DR" and motorcycle_tyre_hit(4, 1, bike_tyre_dr=False).control == -4
    # engine DR: 13 or 8
    assert engine_hit("car", 12, 3, 10, 70).label == "stopped by the armour"
    assert engine_hit("car", 12, 3, 10, 70, engine_dr="table").label == "runs on"
    assert vehicle_hit_odds("3d6", location="Engine").penetrates == Fraction(sum(1 for a in range(1, 7) for b in range(1, 7)
                                                                                  for c in range(1, 7) if a + b + c > 13), 216)
    assert vehicle_hit_odds("3d6", location="Engine", engine_dr="table").penetrates == Fraction(
        sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c > 8), 216)


def test_a_passenger_hit_with_nobody_on_the_pillion_hits_the_driver():
    with_p = vehicle_hit_odds("3d6", vehicle="motorcycle", facing="rear", location="Passenger")
    without = vehicle_hit_odds("3d6", vehicle="motorcycle", facing="rear", location="Passenger", passenger=False)
    assert "Passenger: hit" in with_p.outcomes and "Passenger (nobody there: the driver): hit, control roll at −4" in without.outcomes
    assert without.control_roll == 1 and with_p.control_roll == 0


def test_hand_counted_examples():
    o = vehicle_hit_odds("2d6", vehicle="car", facing="front")
    assert o.control_roll == Fraction(179, 1944)
    tank = vehicle_hit_odds("2d6", location="Gas Tank")
    assert (tank.fire, tank.explodes) == (Fraction(13, 36), Fraction(13, 3888))
    # a motorcycle shot from the front, a 4 rolled again: the driver 3 ways in 33
    assert vehicle_hit_odds("1d6", vehicle="motorcycle").areas["Driver"] == Fraction(3, 33)
    # a car's body, 12 damage: 7 past DR 5; the inside soaks 2d6: stopped inside when 2d6 >= 7 (21 ways), else the far panel
    body = vehicle_hit_odds("12", location="Body").outcomes
    assert body == {"Body: stopped inside": Fraction(21, 36), "Body: stopped by the far side": Fraction(15, 36)}


options = st.fixed_dictionaries({}, optional={
    "vehicle": st.sampled_from(VEHICLES), "facing": st.sampled_from(FACINGS), "burst": st.booleans(),
    "ammo": st.sampled_from(("ordinary", "tracer")), "tank_full": st.booleans(), "tank_modifier": st.integers(-3, 0),
    "gasoline": st.booleans(), "speed_mph": st.integers(0, 120), "goggles": st.booleans(), "passenger": st.booleans(),
    "engine_taken": st.integers(0, 15), "engine_dr": st.sampled_from(("add", "table")), "front_4": st.sampled_from(FRONT_4),
    "flat_tyre": st.sampled_from(("limp", "stop")), "window_rule": st.sampled_from(("shot or burst", "burst only")),
    "bike_tyre_dr": st.booleans(), "one_die": st.booleans(), "special_rounds_cars": st.booleans(), "criticals": st.sampled_from(("basic", "none")),
    "windshield": st.sampled_from(("intact", "broken", "gone", "none")),
})
damages = st.sampled_from(["1d6", "2d6+1", "3d6", "4d6-2", "17", "8d6"])


def brute(damage, **opts):
    s = vehicle_setup(**opts)
    out = {}
    for (area, label, dmg, e), p in exact_outcomes(lambda draw: _hit(s, damage, _shot_dice(s, damage), draw)).items():
        out[f"{label}: {e.label}"] = out.get(f"{label}: {e.label}", 0) + p
    return out


@given(damages, options)
@settings(max_examples=25, deadline=None)
def test_resolver_equals_a_plain_count_of_the_whole_procedure(damage, opts):
    odds = vehicle_hit_odds(damage, **opts)
    assert sum(odds.outcomes.values()) == 1
    assert odds.outcomes == brute(damage, **opts)
    assert 0 <= odds.explodes <= odds.fire <= 1 and odds.control_roll <= 1


@given(damages, options, st.integers(0, 10_000))
@settings(max_examples=60, deadline=None)
def test_every_seeded_roll_lands_on_an_outcome_the_odds_allow(damage, opts, seed):
    hit = roll_vehicle_hit(damage, random.Random(seed), **opts)
    assert vehicle_hit_odds(damage, **opts).outcomes.get(hit.outcome, 0) > 0
    assert str(hit) == str(roll_vehicle_hit(damage, random.Random(seed), **opts))  # the seed replays it


def test_seeded_rolls_follow_the_odds():
    "Deterministic seeds: the share of each outcome in 3,000 rolls sits within 4.5 standard deviations of its exact chance."
    odds = vehicle_hit_odds("6d6", vehicle="car", facing="side", speed_mph=60).outcomes
    n, seen = 3000, {}
    for i in range(n):
        o = roll_vehicle_hit("6d6", random.Random(i), vehicle="car", facing="side", speed_mph=60).outcome
        seen[o] = seen.get(o, 0) + 1
    for name, p in odds.items():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(seen.get(name, 0) / n - float(p)) <= 4.5 * sd + 1e-9, name


@pytest.mark.parametrize("call, message", [
    (lambda: vehicle_hit_odds("6d6", vehicle="lorry"), "vehicle: must be one of 'car', 'motorcycle'"),
    (lambda: vehicle_hit_odds("6d6", facing="under"), "facing: must be one of 'front', 'side', 'rear'"),
    (lambda: vehicle_hit_odds("6d6", location="Window", vehicle="motorcycle"), "location: must be one of"),
    (lambda: vehicle_hit_odds("6d6", speed_mph=float("nan")), "speed_mph: must be a whole number"),
    (lambda: vehicle_hit_odds("6d6", speed_mph=30.5), "speed_mph: must be a whole number"),
    (lambda: vehicle_hit_odds("6d6", speed_mph="30"), "speed_mph: must be a whole number"),
    (lambda: vehicle_hit_odds("6d6", tank_full="False"), "tank_full: must be True or False"),
    (lambda: vehicle_hit_odds("6d6", goggles=1), "goggles: must be True or False"),
    (lambda: vehicle_hit_odds("6d6", tyre="radial", vehicle="motorcycle"), "tyre: must be one of 'standard', 'puncture-resistant', 'solid'"),
    (lambda: vehicle_hit_odds("6d6", engine_ht=21), "engine_ht: must be from 1 to 20"),
    (lambda: vehicle_hit_odds("6d6", critical=2), "critical: must be from 3 to 18"),
    (lambda: vehicle_hit_odds("6d6", critical="7"), "critical: must be a whole number"),
    (lambda: vehicle_hit_odds("6d6", side_pane="sunroof"), "side_pane: must be one of"),
    (lambda: vehicle_hit_odds("6d6", empty_seat="boot"), "empty_seat: must be one of"),
    (lambda: vehicle_hit_odds("6d6", tyre_flat="yes"), "tyre_flat: must be True or False"),
    (lambda: roll_vehicle_hit("6d6", dice=[3, 4]), "dice: must be"),
    (lambda: vehicle_hit_odds("6d6", engine_hp=44), "engine_hp: must be from 45 to 100"),
    (lambda: vehicle_hit_odds("6d6", engine_dr="both"), "engine_dr: must be one of 'add', 'table'"),
    (lambda: vehicle_hit_odds("6d6", wind="strong"), "wind: is not an option"),
    (lambda: vehicle_hit_odds("6x"), "damage:"),
    (lambda: vehicle_hit_odds(6), "damage: must be text"),
    (lambda: roll_vehicle_hit("6d6", random.Random(1), shot_dice=-1), "shot_dice: must be from 0"),
    (lambda: occupant_hit("car", "front", "driver", 3.5, 1), "damage: must be a whole number"),
    (lambda: car_body_hit(10, 13), "inside: must be from 2 to 12"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()


def test_a_critical_entry_goes_into_the_resolver():
    text = seed_text(SEED)
    assert "7 X2 DAMAGE 8 BYPASS ARMOR - The shot bypasses all but 1 DR" in text and "15 X3 DAMAGE" in text
    # entry 8: a 2d6 round at the engine meets 1 point instead of 13
    assert vehicle_hit_odds("2d6", location="Engine").penetrates == 0
    assert vehicle_hit_odds("2d6", location="Engine", critical=8).penetrates == 1
    # entries 7 and 15 multiply the damage rolled: 2d6 x2 beats 13 from 2d6 = 7, x3 from 2d6 = 5
    assert vehicle_hit_odds("2d6", location="Engine", critical=7).penetrates == Fraction(21, 36)
    assert vehicle_hit_odds("2d6", location="Engine", critical=15).penetrates == Fraction(30, 36)
    # the same as typing the multiplied damage in by hand
    assert vehicle_hit_odds("2d6", location="Tire", critical=7).outcomes == vehicle_hit_odds("2d6x2", location="Tire", shot_dice=2).outcomes
    hit = roll_vehicle_hit("6d6", random.Random(5), critical=15)
    plain = roll_vehicle_hit("6d6", random.Random(5))
    assert hit.damage == 3 * plain.damage and hit.critical.rolls == "15"


@given(damages, options, st.integers(3, 18))
@settings(max_examples=25, deadline=None)
def test_resolver_with_a_critical_equals_a_plain_count(damage, opts, critical):
    assert vehicle_hit_odds(damage, critical=critical, **opts).outcomes == brute(damage, critical=critical, **opts)


def test_a_side_windshield_hit_goes_where_the_firer_sees_most():
    text = seed_text(SEED)
    assert "otherwise they hit either the rear window or the windshield, depending on what is most visible to the firer" in text
    front = vehicle_hit_odds("20", facing="side", location="Windshield", shot_dice=6)
    back = vehicle_hit_odds("20", facing="side", location="Windshield", shot_dice=6, side_pane="rear window")
    # the outcome names the pane struck as the one the firer sees more of, not as a plain windshield hit
    assert (front.outcomes["Windshield → windshield (the firer sees more of it): broken, −3"]
            == back.outcomes["Windshield → rear window (the firer sees more of it): broken, −3"] == Fraction(1, 3))
    assert "Windshield: broken, −3" not in front.outcomes
    knocked = vehicle_hit_odds("60", facing="side", location="Windshield", shot_dice=14, side_pane="rear window", speed_mph=90)
    assert knocked.outcomes["Windshield → rear window (the firer sees more of it): knocked out"] == Fraction(1, 3)
    c = CarChase(); c.add_vehicle("V", speed=40)
    c.hit("V", "3d6", facing="side", location="Windshield", dice=DiceFeed(totals=[5, 12]))  # 1d6 = 5: not a side window
    assert "the Windshield → windshield (the firer sees more of it): broken" in c.log[-1][1] and c.vehicles["V"].windshield == "broken"


def test_a_cars_empty_passenger_seat_both_readings():
    empty = vehicle_hit_odds("3d6", location="Passenger", passenger=False)
    driver = vehicle_hit_odds("3d6", location="Passenger", passenger=False, empty_seat="driver")
    assert empty.hurt == 0 and empty.control_roll == 0
    assert driver.hurt == driver.control_roll == vehicle_hit_odds("3d6", location="Driver").hurt > 0
    bike = vehicle_hit_odds("3d6", vehicle="motorcycle", facing="rear", location="Passenger", passenger=False, empty_seat="empty")
    assert bike.control_roll == 1  # a motorcycle's note sends it to the rider whatever the car's reading


def test_the_engines_usual_ht_is_not_a_limit():
    assert "This HT is usually 8-12 depending on size and durability of the engine" in seed_text(SEED)
    for ht in (1, 7, 13, 20):
        assert sum(vehicle_hit_odds("6d6", location="Engine", engine_ht=ht).outcomes.values()) == 1
    low, high = (vehicle_hit_odds("8d6", location="Engine", engine_ht=h).outcomes["Engine: dies"] for h in (6, 16))
    assert low > high


def test_what_the_state_already_holds():
    assert "Engine: dies" not in vehicle_hit_odds("6d6", location="Engine", engine_dead=True).outcomes
    assert vehicle_hit_odds("6d6", location="Tire", tyre_flat=True, speed_mph=80).control_roll == 0
    assert vehicle_hit_odds("6d6", location="Tire", speed_mph=80).control_roll > 0


@given(damages, st.sampled_from(FACINGS), st.lists(st.sampled_from(("intact", "crazed", "gone")), min_size=4, max_size=4),
       st.sampled_from(("intact", "broken", "gone")), st.booleans())
@settings(max_examples=30, deadline=None)
def test_a_cars_glass_as_it_stands_equals_a_plain_count(damage, facing, windows, rear, passenger):
    opts = dict(facing=facing, windows=tuple(windows), rear_window=rear, passenger=passenger)
    assert vehicle_hit_odds(damage, **opts).outcomes == brute(damage, **opts)
