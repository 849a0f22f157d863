"""Mountings, fire from moving vehicles, vehicle impact and vehicle critical hits: every table row against the source,
the readings both ways, properties, bad input."""
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError, dist, stats
from besm_nb.special.criticals import COMPONENTS, VEHICLE_CRITICALS, critical_damage, roll_vehicle_critical, vehicle_critical, vehicle_critical_odds
from besm_nb.special.impact import (COLLISION_TABLE, CONDITIONS, DIRECTIONS, MULTIPLIER, RESTRAINTS, collision_dice, impact_dice,
                                    impact_dice_exact, printed_multiplier, run_down_odds)
from besm_nb.special.mountings import FIRERS, MOUNTINGS, ROUGHNESS, gunner_cap, moving_fire
from besm_nb.special.rolls import success_chance
from tests.helpers import seed_text

SEED = "003_f3673ce212f5243c.txt"


def test_mountings_against_the_source():
    text = seed_text(SEED)
    assert "can't exceed your vehicle control skill-3" in text and "can't exceed your vehicle control skill-1" in text
    assert "can't exceed your vehicle control skill. Such" in text
    assert "This gives a +1 bonus" in text and "gives +2 bonus" in text and "give +3 if they are stabilized in only" in text
    assert "or +4 if they are fully stabilized" in text and "-2 to weapon skill until you have gained Familiarity" in text
    assert "20% of the cost of the weapon" in text and "360 arc" in text and "60 arc (30 on each side)" in text
    assert [(m.cap, m.bonus) for m in MOUNTINGS.values()] == [(-3, 0), (-1, 0), (0, 0), (None, 0), (None, 1), (None, 2), (None, 3), (None, 4)]


def test_roughness_table_row_by_row_against_the_source():
    text = seed_text(SEED)
    block = text[text.index("Roughness of the ride, from:"):text.index("-1 to -10 Firing through smoke")]
    for penalty, ride in ROUGHNESS:
        at = block.index(ride)
        number = re.findall(r"(?:^|\s)(-?\d)\s", block[:at + 1])[-1]
        assert int(number) == penalty, ride
    assert len(ROUGHNESS) == 14
    assert "-4 Hand weapon attack by the rider/driver -2 Hand weapon attack by a passenger" in text
    assert FIRERS == {"mounted weapon": 0, "hand weapon, driver or rider": -4, "hand weapon, passenger": -2}


@given(st.integers(0, 20), st.sampled_from(list(MOUNTINGS)), st.sampled_from([r for _, r in ROUGHNESS]), st.integers(0, 20))
def test_a_mounting_only_ever_cancels_the_roughness(skill, mounting, ride, control):
    shot = moving_fire(skill, mounting=mounting, ride=ride, control_skill=control)
    rough = dict((r, p) for p, r in ROUGHNESS)[ride]
    cap = gunner_cap(mounting, control)
    base = skill if cap is None else min(skill, cap)
    assert base + rough <= shot.skill <= base  # never better than the smooth ride, never worse than no mounting
    assert sum(shot.odds.values()) == 1


def test_hand_weapons_from_a_moving_vehicle():
    assert moving_fire(14, "hand weapon, driver or rider", "a car on a good road").skill == 10
    assert moving_fire(14, "hand weapon, passenger", "on horseback or muleback at a gallop or canter", smoke=-10).skill == -2


def test_what_a_hand_weapon_is_both_readings():
    assert moving_fire(13, "hand weapon, passenger").skill == 11  # any held weapon, a pistol too
    assert moving_fire(13, "hand weapon, passenger", hand_weapon="melee").skill == 13  # only melee weapons
    assert moving_fire(13, "hand weapon, passenger", hand_weapon="melee", melee=True).skill == 11


def test_impact_formulas_against_the_source_and_each_other():
    text = seed_text(SEED)
    assert "Mass (tons) x Velocity (mph) = Damage dice = mass (lbs.) x velocity (yds./sec)/400" in text
    assert impact_dice_exact(1, 1, "lbs_yps") == Fraction(22, 9) * impact_dice_exact(1, 1)
    assert "Roll vs. DX to take half damage" in text and "take double damage" in text


@given(st.integers(0, 50), st.integers(0, 200), st.integers(0, 50), st.integers(0, 200))
def test_more_mass_or_speed_never_does_less(t1, v1, t2, v2):
    for f in ("tons_mph", "lbs_yps"):
        if t1 <= t2 and v1 <= v2: assert impact_dice(t1, v1, f).dice <= impact_dice(t2, v2, f).dice
    assert impact_dice(t1, v1).dice <= impact_dice(t1, v1, "lbs_yps").dice


@pytest.mark.parametrize("line, mult", COLLISION_TABLE)
def test_collision_table_row_by_row_against_the_source(line, mult):
    text = seed_text(SEED)
    assert f"{line} x {mult}" in text
    assert MULTIPLIER[line] == printed_multiplier(mult)


def test_the_rear_seat_counts_in_a_frontal_collision_only():
    assert "In rear seat in frontal collision x 3/4" in seed_text(SEED)
    assert collision_dice(1, 1, 40, "front", conditions=("rear seat",)).exact == 30
    with pytest.raises(InputError, match="conditions: the rear seat's"): collision_dice(1, 1, 40, "rear", conditions=("rear seat",))
    assert collision_dice(1, 1, 40, "rear", conditions=("rear seat",), rear_seat="front or rear").exact == 30


def test_collision_choices_cover_the_table():
    used = set(DIRECTIONS.values()) | {v for v in RESTRAINTS.values() if v} | set(CONDITIONS.values())
    weight_lines = {line for line, _ in COLLISION_TABLE[:4]}
    assert used | weight_lines == {line for line, _ in COLLISION_TABLE}


def test_collision_readings_both_ways():
    assert collision_dice(1, 3, 20).dice == 20 and collision_dice(1, 3, 20, heavier="ratio").dice == 60
    assert collision_dice(1, 1, 20).dice == 20 == collision_dice(1, 1, 20, heavier="ratio").dice  # equal: x 1 either way
    assert collision_dice(2, 0.5, 20).exact == 10  # a quarter as heavy: x 1/4


@given(st.integers(1, 40), st.integers(-5, 20), st.booleans())
@settings(max_examples=40)
def test_run_down_odds_add_up_and_the_mean_is_exact(dice, dx, had_time):
    r = run_down_odds(dice, dx, had_time)
    assert sum(r.dx_roll.values()) == 1 and sum(r.damage.values()) == 1
    assert r.mean == sum(k * p for k, p in r.damage.items())


@pytest.mark.parametrize("entry", VEHICLE_CRITICALS)
def test_critical_table_row_by_row_against_the_source(entry):
    text = seed_text(SEED)
    block = text[text.index("VEHICLE CRITICAL HITS (3d6)"):text.index("MOVEMENT - If the ceiling")]
    assert re.search(rf"(?:^|\s){re.escape(entry.rolls)} {re.escape(entry.name)}\b", block), entry.rolls


def test_critical_odds_are_exact():
    odds = vehicle_critical_odds()
    three = dist("3d6")
    assert sum(odds.values()) == 1
    for e, p in zip(VEHICLE_CRITICALS, odds.values()):
        lo, _, hi = e.rolls.partition("-")
        assert p == sum(three[t] for t in range(int(lo), int(hi or lo) + 1))
    assert [vehicle_critical(t).multiplier for t in (7, 15)] == [2, 3] and vehicle_critical(8).dr == 1


@given(st.sampled_from(["2d6", "6d6+2", "3d6-1", "1d6+1d4"]), st.integers(3, 18))
def test_critical_damage_multiplies_the_mean(damage, total):
    expr, _ = critical_damage(damage, total)
    assert stats(expr).mean == vehicle_critical(total).multiplier * stats(damage).mean


def test_entry_14_is_a_critical_hit_on_a_crewman():
    assert "14 NORMAL DAMAGE PLUS CRITICAL HIT ON CREWMAN" in seed_text(SEED)
    e = vehicle_critical(14)
    assert e.pick == "crewman" and "table" not in e.effect
    picks = {roll_vehicle_critical(random.Random(s), crew=("the driver", "the gunner")).picked for s in range(600)
             if roll_vehicle_critical(random.Random(s)).entry.rolls == "14"}
    assert picks == {"the driver", "the gunner"}


def test_random_picks_cover_the_gas_tank():
    picks = {roll_vehicle_critical(random.Random(s)).picked for s in range(2000)}
    assert set(COMPONENTS["car"]) <= picks and "Gas Tank" in picks


@pytest.mark.parametrize("call, message", [
    (lambda: moving_fire(12, mounting="bipod"), "mounting: must be one of"),
    (lambda: moving_fire(12.5, mounting="pintle"), "skill: must be a whole number"),
    (lambda: moving_fire(12, mounting="turret"), "mounting: must be one of"),
    (lambda: moving_fire(12, mounting="unstabilised turret", familiar="False"), "familiar: must be True or False"),
    (lambda: impact_dice(float("nan"), 10), "tons: must be a number"),
    (lambda: impact_dice(1, "10"), "mph: must be a number"),
    (lambda: impact_dice(1, 10, "joules"), "formula: must be one of"),
    (lambda: collision_dice(1, 1, 10, restraint="rope"), "restraint: must be one of"),
    (lambda: collision_dice(1, 1, 10, conditions=("fog",)), "conditions: must be one of"),
    (lambda: run_down_odds(2.0, 10), "dice: must be a whole number"),
    (lambda: run_down_odds(2, 10, had_time="True"), "had_time: must be True or False"),
    (lambda: vehicle_critical(19), "total: must be from 3 to 18"),
    (lambda: roll_vehicle_critical(weapons=()), "weapons: must list at least one name"),
    (lambda: roll_vehicle_critical(vehicle="lorry", components=("engine",)), "vehicle: must be one of 'car', 'motorcycle', 'other'"),
    (lambda: roll_vehicle_critical(vehicle="other"), "components: a vehicle other than a car or a motorcycle"),
    (lambda: critical_damage(7, 7), "damage: must be text"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()


def test_a_collision_with_a_massless_vehicle_is_refused():
    with pytest.raises(InputError, match="other_tons: the other vehicle must have some mass"): collision_dice(1.5, 0, 60)
