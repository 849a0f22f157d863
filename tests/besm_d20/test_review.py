"""Chases (000): the review's open-terrain, speed, Armour, Lure, destruction, obstacle, end-of-chase, top-speed and loading items."""
import json
import random
import tracemalloc
from dataclasses import replace
from fractions import Fraction

import pytest

from besm_nb.besm_d20.chase import (Chase, ChaseDice, ChaseRound, ChaseRules, ChaseState, History, Mecha, Plan, a1_modifiers,
                                    chase_from_dict, chase_to_dict, clamp_lead, narrate, next_speed, resolve_chase_round, terrain)
from besm_nb.besm_d20.chase_odds import capture_odds, round_odds
from besm_nb.dice import InputError

CAR = Mecha("Car", drive=6, manoeuvre=1, max_speed=120, hp=40, armour=4)
BIKE = Mecha("Bike", drive=5, manoeuvre=3, max_speed=110, hp=20)


def quiet(lead=10, speed=70, terrain_name="close", **rules):
    return ChaseState(CAR, BIKE, terrain_name, lead, speed, rules=ChaseRules(obstacles=False, **rules))


# 15. open terrain
def test_open_terrain_collisions_carry_on_unless_a_natural_1():
    s = quiet(terrain_name="open")
    end, log = resolve_chase_round(s, "Gun It", "Zig-Zag", [5, 15, 3])
    assert end.outcome == "" and end.prey.damage == 5 and "glancing collision" in narrate(log)
    assert resolve_chase_round(s, "Gun It", "Zig-Zag", [5, 15, 1, 20])[0].outcome == "crash"
    assert resolve_chase_round(quiet(terrain_name="open", open_collisions="crash"), "Gun It", "Zig-Zag", [5, 15, 3, 20])[0].outcome == "crash"
    assert round_odds(s, "Gun It", "Zig-Zag").crash["prey"] == round_odds(s, "Gun It", "Zig-Zag").effect["prey"] / 20


# 16. the readings with switches: speed for a round, Armour, Lure
def test_speed_for_one_round():
    s = quiet(round_speed="this round")
    assert resolve_chase_round(s, "Gun It", "Set Up", [10, 10])[0].speed == 70
    assert resolve_chase_round(quiet(), "Gun It", "Set Up", [10, 10])[0].speed == 80
    assert next_speed(s, "Gun It", "Pull Ahead") == 80  # Pull Ahead's equal +10 is kept
    assert next_speed(replace(s, lead=0), "Cut Off", "Zig-Zag") == 70


def test_armour_readings():
    far = quiet(20)
    damage = {r: resolve_chase_round(replace(far, rules=ChaseRules(obstacles=False, armour=r)), "Redline", "Pull Ahead", [18, 5, 6])[0]
              .predator.damage for r in ("impacts", "all", "attacks")}
    assert damage == {"impacts": 6, "all": 2, "attacks": 6}
    armoured = replace(far, predator=replace(CAR, armour=6), rules=ChaseRules(obstacles=False))
    assert resolve_chase_round(armoured, "Redline", "Pull Ahead", [18, 5, 3])[0].predator.damage == 3  # Armour 6 no longer makes it free


def test_lure_base_dc_readings():
    dcs = {}
    for reading in ("speed", "terrain"):
        _, log = resolve_chase_round(quiet(lure_dc=reading), "Gun It", "Lure", [8, 9, 20, 17])
        dcs[reading] = [e.text.split(": DC ")[1].split(";")[0] for e in log if e.what.endswith("crash check")]
    assert dcs == {"speed": ["21", "23"], "terrain": ["15", "23"]}


# 17. a destroyed mecha's occupants
def test_occupants_of_a_destroyed_mecha():
    s = replace(quiet(speed=80), prey=replace(BIKE, damage=15))
    end, log = resolve_chase_round(s, "Jockey", Plan("Set Up", hits=(45,)), [12, 10])
    assert end.prey.condition == "Destroyed"
    notes = [e for e in log if e.what == "Occupants of a destroyed mecha"]
    assert len(notes) == 1 and notes[0].step == 5 and "8d6" in notes[0].text and "DC 26" in notes[0].text


# 18. each obstacle its own DC; per-cell house values
def test_per_obstacle_dc_and_per_cell_house_values():
    s = replace(quiet(), rules=ChaseRules())  # obstacles on
    _, log = resolve_chase_round(s, "Gun It", "Pull Ahead", [10, 10, 1, 15, 15], obstacle_adjust=2)
    assert [e.value for e in log if e.what == "Obstacle"] == [20]
    ch = Chase(s); ch.act("Gun It", "Pull Ahead", [10, 10, 1, 15, 15], obstacle_adjust=-1)
    assert chase_from_dict(json.loads(json.dumps(chase_to_dict(ch)))).rounds[0].obstacle_adjust == -1
    rules = ChaseRules(house_cells=(("Gun It", "Lure", -2, 1),), house_a1=(1, 1))
    assert a1_modifiers("Gun It", "Lure", rules.house)[:2] == (-2, 1) and a1_modifiers("Redline", "Lure", rules.house)[:2] == (1, 1)


# 19. a chase that is over, or starts with a Disabled mecha
def test_a_disabled_start_is_over_everywhere():
    s = ChaseState(CAR, replace(BIKE, damage=20), "close", 10, 60)
    assert s.over and s.reason == "Bike is Disabled"
    with pytest.raises(InputError, match="the chase is over"): round_odds(s, "Gun It", "Pull Ahead")
    with pytest.raises(InputError, match="the chase is over"): resolve_chase_round(s, "Gun It", "Pull Ahead", [10, 10])
    with pytest.raises(InputError, match="the chase is over before it starts"): capture_odds(CAR, replace(BIKE, damage=20))


# 20. every speed the engine takes is playable
@pytest.mark.parametrize("speed", [12_500, 100_000, 999_990, 1_000_000])
def test_top_speeds_play(speed):
    fast = ChaseState(replace(CAR, max_speed=1_000_000), replace(BIKE, max_speed=1_000_000), "close", 10, speed,
                      rules=ChaseRules(obstacles=False))
    end, _ = resolve_chase_round(fast, "Shortcut", "Pull Ahead", ChaseDice(random.Random(1), [15, 10, 5]))
    assert end.outcome == "crash"
    assert resolve_chase_round(fast, "Gun It", "Pull Ahead", [10, 10])[0].speed == min(1_000_000, speed + 10)


# 21. loading is linear
def long_save(n):
    s = ChaseState(Mecha("A", drive=5, max_speed=1000, hp=100), Mecha("B", drive=5, max_speed=1000, hp=100), "close", 10, 60,
                   rules=ChaseRules(obstacles=False))
    data = chase_to_dict(Chase(s))
    data["rounds"] = [{"predator": {"manoeuvre": "Jockey"}, "prey": {"manoeuvre": "Set Up"}, "dice": [12, 10]}] * n
    data.pop("now")
    data["version"] = 1  # the short form a version-1 save may take: what is at its default left out
    return json.loads(json.dumps(data))


def test_states_share_their_history():
    ch = chase_from_dict(long_save(50))
    assert len(ch.state.history) == 50 and ch.states[1].history == ch.state.history[:1]
    assert all(b.history._before is a.history for a, b in zip(ch.states[1:], ch.states[2:]))  # one line added, nothing copied


def test_loading_memory_grows_linearly():
    "Twice the rounds, about twice the memory (the quadratic history made it four times)."
    peaks = []
    for n in (1000, 2000):
        data = long_save(n)
        tracemalloc.start()
        chase_from_dict(data)
        peaks.append(tracemalloc.get_traced_memory()[1]); tracemalloc.stop()
    assert peaks[1] < 2.6 * peaks[0], peaks


def test_history_is_a_sequence_of_lines():
    h = History(["a", "b"]).added("c")
    assert list(h) == ["a", "b", "c"] and h == ("a", "b", "c") and len(h) == 3 and h[1] == "b"
    with pytest.raises(InputError, match="history: must be a list"): History("abc")


# inputs
def test_switches_and_shapes_are_refused():
    with pytest.raises(InputError, match="obstacles: must be True or False"): ChaseRules(obstacles="no")
    with pytest.raises(InputError, match="operator_acts: must be True or False"): Plan("Gun It", operator_acts="False")
    with pytest.raises(InputError, match="manoeuvre: must be text"): Plan(["Gun It"])
    with pytest.raises(InputError, match="name: must be text"): terrain([])
    with pytest.raises(InputError, match="lead: must be a whole number"): clamp_lead(10.5)


def test_saves_are_read_field_by_field():
    ch = Chase(quiet()); ch.act("Gun It", "Pull Ahead", [10, 10])
    good = json.loads(json.dumps(chase_to_dict(ch)))
    for change, message in ((lambda d: d["start"].__setitem__("penalty", [100, 0]), "start.penalty"),
                            (lambda d: d["rounds"][0]["dice"].__setitem__(0, 12.9), r"rounds\[0\].dice"),
                            (lambda d: d["start"].__setitem__("history", "abc"), "start.history: must be a list"),
                            (lambda d: d["start"].__setitem__("outcome", "banana"), "start.outcome: must be one of"),
                            (lambda d: d["now"].__setitem__("speed", 999), "now: the save says")):
        bad = json.loads(json.dumps(good)); change(bad)
        with pytest.raises(ValueError, match=message): chase_from_dict(bad)
    assert chase_from_dict(good).state == ch.state
