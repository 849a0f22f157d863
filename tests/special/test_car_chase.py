"""The car chase engine: every control-roll modifier rule by rule against the source, speed lost turn by turn, the
control roll's odds against a direct count of 3d6, random chases saved and replayed, mutated saves refused by name."""
import copy
import json
import random
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import DiceFeed, InputError
from besm_nb.special.car_chase import (MAX_EVENTS, CarChase, ChaseRules, check_step, chase_from_dict, standing_modifiers)
from tests.helpers import seed_text

SEED = "003_f3673ce212f5243c.txt"


def chase(**vehicle) -> CarChase:
    c = CarChase()
    c.add_vehicle("V", **{"driver": "Dee", "skill": 14, "speed": 60, **vehicle})
    return c


def mods(c: CarChase, name: str = "V") -> dict[str, int]:
    return {m.what: m.value for m in c.control_roll(name).modifiers}


def rules_of(c: CarChase, name: str = "V") -> set[str]:
    return {m.rule for m in c.control_roll(name).modifiers}


def test_broken_windshield_minus_3():
    text = seed_text(SEED)
    assert text.count("Driving rolls and attacks that use sights obscured by the broken windshield are at -3") == 2  # car and bike
    for kind in ("car", "motorcycle"):
        c = chase(kind=kind)
        c.hit("V", "3d6", facing="front", location="Windshield", dice=DiceFeed(totals=[12]))
        assert c.vehicles["V"].windshield == "broken"
        assert mods(c) == {"Windshield broken: the view through it spoilt": -3}
        assert c.control_roll("V").effective == 11
        assert rules_of(c) == {f"003 · {'Automobile' if kind == 'car' else 'Motorcycle'} hit locations, note 3"}


def test_wind_minus_1_per_30_mph_without_goggles():
    assert seed_text(SEED).count("All driving rolls without a visored helmet or goggles are at -1 per 30 mph") == 2
    c = chase(speed=95)
    c.hit("V", "14d6", facing="front", location="Windshield", dice=DiceFeed(totals=[50]))  # 14 dice: more than 13d6, gone
    assert c.vehicles["V"].windshield == "gone"
    assert list(mods(c).values()) == [-3]  # 95 mph: -3 (whole 30 mph)
    c.set_goggles("V", True)
    assert mods(c) == {}
    c.set_goggles("V", False); c.set_speed("V", 29)
    assert mods(c) == {}  # under 30 mph
    bare = chase(kind="motorcycle", windshield="none", speed=61)
    assert list(mods(bare).values()) == [-2]  # no windshield at all
    both = CarChase(ChaseRules(gone_windshield="both"))
    both.add_vehicle("V", skill=14, speed=60)
    both.hit("V", "14d6", facing="front", location="Windshield", dice=DiceFeed(totals=[50]))
    assert sorted(mods(both).values()) == [-3, -2]  # the switch keeps the -3 too


def test_a_flat_tyre_minus_1_per_10_mph_then_minus_2():
    text = seed_text(SEED)
    assert "the driver must make an immediate control roll at -1 per 10 mph he was going" in text
    assert "A driver can continue to drive on a flat tire at -2 to control rolls and 30-50 mph maximum speed" in text
    c = chase(speed=65)
    c.hit("V", "3d6", location="Tire", tyre="rear left", dice=DiceFeed(totals=[12, 15]))  # DR 5 beaten; HT 10, 15 fails
    r = c.control_roll("V")
    assert [m.value for m in r.modifiers] == [-6] and r.effective == 8  # -1 per whole 10 mph, not yet the -2
    c.control("V", dice=DiceFeed(totals=[5]))
    assert mods(c) == {"Driving on a flat tyre (rear left)": -2}
    c.hit("V", "3d6", location="Tire", tyre="front right", dice=DiceFeed(totals=[12, 15]))
    assert list(mods(c).values()) == [-2, -6]  # the first flat's -2 counts on the second tyre's roll
    c.control("V", dice=DiceFeed(totals=[5]))
    assert list(mods(c).values()) == [-2]  # two flats, counted once
    each = CarChase(ChaseRules(stacking="each")); each.add_vehicle("V", skill=14, speed=60)
    for t in ("front left", "rear right"):
        each.hit("V", "3d6", location="Tire", tyre=t, dice=DiceFeed(totals=[12, 15])); each.control("V", dice=DiceFeed(totals=[5]))
    assert list(mods(each).values()) == [-4]  # the switch: -2 for each


def test_the_driver_hit_minus_4():
    assert seed_text(SEED).count("The driver takes normal damage and must make a control roll at -4") == 2
    c = chase()
    c.hit("V", "3d6", location="Driver", dice=DiceFeed(totals=[12, 1]))  # 1d6 = 1: through the window, DR 3: 9 gets in
    assert c.vehicles["V"].driver.damage == 9
    assert [(m.value, m.rule) for m in c.control_roll("V").modifiers] == [(-4, "003 · Automobile hit locations, note 2")]


def test_a_motorcycles_controls_axle_and_spokes():
    text = seed_text(SEED)
    assert "2-3 Bullet hit control system. All Driving rolls are at -1" in text
    assert "Axle or shock hit - Make a control roll at -4. All control rolls with the motorcycle are at -1 until the damage is fixed" in text
    assert "The bullet damages the spokes, all control rolls with the motorcycle are at -1 until the damage is fixed" in text
    c = chase(kind="motorcycle")
    c.hit("V", "2d6", location="Body", dice=DiceFeed(totals=[9, 1, 2]))  # past DR 5; works soak 1; component 2: controls
    assert mods(c) == {"Controls damaged: Driving at −1": -1}
    c.hit("V", "2d6", location="Tire", dice=DiceFeed(totals=[1, 9, 1]))  # rear tyre (1d2 = 1: front); table 1: axle, roll at -4
    assert list(mods(c).values()) == [-1, -4]  # the axle's lasting -1 is not on the roll it calls for (as a car's flat)
    c.control("V", dice=DiceFeed(totals=[3]))
    assert list(mods(c).values()) == [-1, -1]  # from the next roll on
    c.hit("V", "2d6", location="Tire", dice=DiceFeed(totals=[2, 9, 5]))  # table 5: spokes damaged, a roll at +0
    assert list(mods(c).values()) == [-1, -1, 0]  # nor the spokes' -1 on theirs
    assert "003 · Motorcycle hit locations, tyre and axle table" in rules_of(c)
    c.control("V", dice=DiceFeed(totals=[3]))
    assert list(mods(c).values()) == [-1, -1, -1]


def test_a_second_axle_hit_keeps_the_first_ones_minus_1_on_its_roll():
    for stacking, on_the_roll in (("once", [-1, -4]), ("each", [-1, -4])):
        c = CarChase(ChaseRules(stacking=stacking))
        c.add_vehicle("V", kind="motorcycle", skill=14, speed=40)
        c.hit("V", "2d6", location="Tire", tyre="front", dice=DiceFeed(totals=[9, 1])); c.control("V", dice=DiceFeed(totals=[3]))
        c.hit("V", "2d6", location="Tire", tyre="front", dice=DiceFeed(totals=[9, 2]))
        assert list(mods(c).values()) == on_the_roll, stacking  # the earlier axle hit's -1 counts; this one's waits
        c.control("V", dice=DiceFeed(totals=[3]))
        assert list(mods(c).values()) == ([-1] if stacking == "once" else [-2])


def test_a_burst_counts_each_side_window_on_its_own():
    "Car note 4: more than 7d6 in one burst knocks out the window it went into; two windows do not add up."
    assert "If the weapon did more than 7d6 in a single burst, the window is GONE" in seed_text(SEED)
    two = chase()
    two.hit("V", "4d6", facing="side", location="Window", hits=2, burst=True, dice=DiceFeed(totals=[1, 20, 2, 20]))
    assert two.vehicles["V"].windows == ["crazed", "crazed", "intact", "intact"]  # 4d6 into each
    one = chase()
    one.hit("V", "4d6", facing="side", location="Window", hits=2, burst=True, dice=DiceFeed(totals=[1, 20, 1, 20]))
    assert one.vehicles["V"].windows == ["gone", "intact", "intact", "intact"]  # 8d6 into window 1


def test_glass_that_is_gone_stops_nothing_on_the_way_to_the_people_aboard():
    "Car note 1 and motorcycle note 1: the window or windshield's DR 3 only where the glass still is, in the roll and in the odds."
    c = chase()
    assert c.hit_odds("V", "3d6", facing="front", location="Driver").hurt == Fraction(209, 216)
    c.hit("V", "14d6", facing="front", location="Windshield", dice=DiceFeed(totals=[50]))  # knocked out
    assert c.hit_odds("V", "3d6", facing="front", location="Driver").hurt == Fraction(157, 162)  # (216 + 2 x 206) / 648
    c.hit("V", "3d6", facing="front", location="Driver", dice=DiceFeed(totals=[3, 1]))  # 1d6 = 1: in where the windshield was
    assert c.vehicles["V"].driver.damage == 3  # whole glass would have stopped all 3
    bike = chase(kind="motorcycle", windshield="none")
    assert bike.hit_odds("V", "1d6", facing="front", location="Driver").hurt == 1  # 2/3 with a windshield
    bike.hit("V", "1d6", facing="front", location="Driver", dice=DiceFeed(totals=[3]))  # no die for a way in: there is one
    assert bike.vehicles["V"].driver.damage == 3
    side = chase(); side.board("V", "Pat")
    side.hit("V", "8d6", facing="side", location="Window", dice=DiceFeed(totals=[1, 30]))  # window 1 knocked out
    assert side.vehicles["V"].windows[0] == "gone"
    side.hit("V", "3d6", facing="side", location="Passenger", dice=DiceFeed(totals=[3, 1, 1]))  # through window 1 (1d4 = 1)
    assert side.vehicles["V"].aboard[1].damage == 3
    side.hit("V", "3d6", facing="side", location="Passenger", dice=DiceFeed(totals=[3, 1, 2]))  # window 2 is whole: DR 3
    assert side.vehicles["V"].aboard[1].damage == 3


def test_a_critical_11_on_a_lone_motorcyclist_hits_him():
    "Motorcycle note 1: with no passenger or cargo, a hit on the passenger strikes the driver."
    assert "If there was no passenger or cargo a shot that hits the passenger hits the driver instead" in seed_text(SEED)
    c = chase(kind="motorcycle")
    c.hit("V", "2d6", location="Body", critical=11, dice=DiceFeed(totals=[3, 7]))  # the body stops 3; the critical's hit: 7, bare
    assert c.vehicles["V"].driver.damage == 7 and c.control_roll("V").reason == "the driver is hit"
    assert any("the rider" in line for _, line in c.log)
    car = chase()
    car.hit("V", "2d6", location="Body", critical=11, dice=DiceFeed(totals=[3]))  # a car alone: its cargo, if any
    assert car.vehicles["V"].driver.damage == 0 and "cargo" in car.log[-1][1]


def test_the_end_of_turn_log_names_only_the_losses_that_happened():
    c = chase(speed=40, limp_mph=40)
    c.hit("V", "3d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[12, 15])); c.control("V", dice=DiceFeed(totals=[3]))
    c.hit("V", "2d6", location="Body", critical=17, dice=DiceFeed(totals=[3]))  # entry 17: the engine stops
    c.end_turn()
    assert c.vehicles["V"].speed == 35
    assert "V slows 40 → 35 mph (engine dead −5)" in [line for _, line in c.log]  # the flat, at its limp speed, took nothing
    c2 = chase(speed=45, limp_mph=40)
    c2.hit("V", "3d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[12, 15])); c2.control("V", dice=DiceFeed(totals=[3]))
    c2.hit("V", "2d6", location="Body", critical=17, dice=DiceFeed(totals=[3]))
    c2.end_turn()
    assert "V slows 45 → 35 mph (flat tyre −5, engine dead −5)" in [line for _, line in c2.log]  # each with what it took
    big = CarChase(ChaseRules(losses="largest")); big.add_vehicle("V", speed=60)
    big.hit("V", "3d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[12, 15])); big.control("V", dice=DiceFeed(totals=[3]))
    big.hit("V", "2d6", location="Body", critical=17, dice=DiceFeed(totals=[3]))
    big.end_turn()
    assert "V slows 60 → 50 mph (flat tyre −10)" in [line for _, line in big.log]  # only the largest counts, and is named


def test_a_motorcycles_mass_is_its_kinds():
    c = CarChase()
    c.add_vehicle("B", kind="motorcycle", speed=40); c.add_vehicle("C", speed=40)
    assert (c.vehicles["B"].tons, c.vehicles["C"].tons) == (0.25, 1.5)
    c.crash("B", dice=DiceFeed(totals=[30]))  # 0.25 x 40 = 10d6
    assert "10d6" in c.log[-1][1]


def test_a_critical_9_or_10_calls_a_control_roll():
    assert "9-10 FOE MUST MAKE A CONTROL ROLL" in seed_text(SEED)
    c = chase()
    c.hit("V", "1d6", location="Body", critical=9, dice=DiceFeed(totals=[3]))  # 3 does not get through the body
    assert c.control_roll("V").reason == "critical hit: the foe must make a control roll"
    assert [m.value for m in c.control_roll("V").modifiers] == [0]


def test_speed_lost_turn_by_turn_against_the_source():
    text = seed_text(SEED)
    assert "In any case, the vehicle loses 10 mph per turn" in text
    assert text.count("the engine dies, and the vehicle loses 5 mph per turn until it stops") == 2
    c = chase(speed=70, limp_mph=35)
    c.hit("V", "3d6", location="Tire", dice=DiceFeed(totals=[1, 12, 15])); c.control("V", dice=DiceFeed(totals=[3]))
    speeds = []
    for _ in range(6): c.end_turn(); speeds.append(c.vehicles["V"].speed)
    assert speeds == [60, 50, 40, 35, 35, 35]  # down to its limp speed, then it limps on
    c.hit("V", "18", location="Engine", dice=DiceFeed(totals=[18]))  # 5 past DR 13; HT 10 - 1, an 18 fails: dead
    assert c.vehicles["V"].engine_dead
    for _ in range(2): c.end_turn()
    assert c.vehicles["V"].speed == 25  # only the engine slows it below its limp speed
    with pytest.raises(InputError, match="mph: V's engine is dead"): c.set_speed("V", 30)


def by_hand(skill: int) -> dict[str, Fraction]:
    out = dict.fromkeys(("critical failure", "failure", "success", "critical success"), 0)
    for faces in product(range(1, 7), repeat=3):
        t = sum(faces)
        if t <= 4 or (t == 5 and skill >= 15) or (t == 6 and skill >= 16): out["critical success"] += 1
        elif t == 18 or (t == 17 and skill <= 15) or t - skill >= 10: out["critical failure"] += 1
        elif t <= skill and t <= 16: out["success"] += 1
        else: out["failure"] += 1
    return {k: Fraction(v, 216) for k, v in out.items()}


@given(st.integers(-20, 30), st.integers(0, 120), st.booleans(), st.integers(-5, 5))
@settings(max_examples=60, deadline=None)
def test_control_odds_equal_a_direct_count_of_3d6(skill, speed, broken, other):
    c = CarChase()
    c.add_vehicle("V", skill=skill, speed=speed)
    if broken: c.hit("V", "3d6", facing="front", location="Windshield", dice=DiceFeed(totals=[12]))
    r = c.control_roll("V", other)
    assert r.effective == max(-30, min(40, skill + other - (3 if broken else 0)))
    assert r.odds == by_hand(r.effective)


STEP_KINDS = ("hit", "control", "speed", "end_turn", "goggles", "out", "crash")


@st.composite
def chases(draw):
    "A random chase: two vehicles and a run of legal steps, each step's dice from a seed."
    c = CarChase(ChaseRules(stacking=draw(st.sampled_from(("once", "each"))), losses=draw(st.sampled_from(("add", "largest")))))
    c.add_vehicle("Car", driver="Ann", skill=draw(st.integers(8, 16)), speed=draw(st.integers(0, 100)))
    c.board("Car", "Bo")
    c.add_vehicle("Bike", kind="motorcycle", driver="Cy", skill=draw(st.integers(8, 16)), speed=draw(st.integers(0, 80)), tons=0.25)
    for _ in range(draw(st.integers(0, 12))):
        kind, name = draw(st.sampled_from(STEP_KINDS)), draw(st.sampled_from(("Car", "Bike")))
        rng = random.Random(draw(st.integers(0, 10 ** 6)))
        try:
            if kind == "hit": c.hit(name, draw(st.sampled_from(("2d6", "6d6", "14d6"))), draw(st.sampled_from(("front", "side", "rear"))),
                                    hits=draw(st.integers(1, 3)), critical=draw(st.sampled_from((None, 3, 7, 8, 11, 13, 16, 17))),
                                    dice=DiceFeed(rng))
            elif kind == "control": c.control(name, dice=DiceFeed(rng))
            elif kind == "speed": c.set_speed(name, draw(st.integers(0, 90)))
            elif kind == "end_turn": c.end_turn()
            elif kind == "goggles": c.set_goggles(name, draw(st.booleans()))
            elif kind == "out": c.set_out(name, c.vehicles[name].aboard[0].name, draw(st.booleans()))
            else: c.crash(name, dice=DiceFeed(rng))
        except InputError:
            pass  # a refused step: the rules said no, and nothing changed
    return c


@given(chases())
@settings(max_examples=40, deadline=None)
def test_every_chase_saves_and_replays(c):
    saved = json.loads(json.dumps(c.to_dict()))
    again = chase_from_dict(saved)
    assert again.now() == c.now() and again.log == c.log and again.to_dict() == saved
    for v in c.vehicles.values():
        assert 0 <= v.speed and v.engine_taken <= v.engine_hp and len(set(v.flats)) == len(v.flats)
        assert sum(c.control_roll(v.name).odds.values()) == 1


def _mutations(value, path=()):
    "Every place in a saved chase, with values of the wrong kind to put there."
    if isinstance(value, dict):
        for k, v in value.items(): yield from _mutations(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]): yield from _mutations(v, path + (i,))
    for wrong in (None, "x", -1, 10 ** 9, 1.5, [], {}):
        if wrong != value and type(wrong) is not type(value): yield path, wrong


@given(chases(), st.randoms(use_true_random=False))
@settings(max_examples=25, deadline=None)
def test_a_mutated_save_is_refused_by_name_or_loads_the_same(c, rnd):
    saved = json.loads(json.dumps(c.to_dict()))
    places = list(_mutations(saved))
    for path, wrong in rnd.sample(places, min(30, len(places))):
        bad = copy.deepcopy(saved)
        at = bad
        for p in path[:-1]: at = at[p]
        if not path: continue
        at[path[-1]] = wrong
        try: again = chase_from_dict(bad)
        except ValueError: continue  # refused, by a ValueError naming the field
        assert again.now() == chase_from_dict(saved).now(), path  # a change that loads must not change where it stands


def test_saves_are_capped_and_steps_checked():
    c = chase()
    saved = c.to_dict()
    with pytest.raises(InputError, match=f"steps: must have at most {MAX_EVENTS} items"):
        chase_from_dict({**saved, "steps": saved["steps"] * (MAX_EVENTS + 1)})
    with pytest.raises(InputError, match="steps\\[0\\].skill: must be a whole number"):
        chase_from_dict({**saved, "steps": [{**saved["steps"][0], "skill": 14.0}], "now": saved["now"]})
    with pytest.raises(InputError, match="do: must be one of"): check_step({"do": None})


@pytest.mark.parametrize("call, message", [
    (lambda c: c.hit("V", "6q6"), "damage:"),
    (lambda c: c.hit("V", "6d6", hits=21), "hits: must be from 1 to 20"),
    (lambda c: c.hit("V", "6d6", facing="above"), "facing: must be one of"),
    (lambda c: c.hit("V", "6d6", critical=2), "critical: must be from 3 to 18"),
    (lambda c: c.hit("Nope", "6d6"), "vehicle: no vehicle called 'Nope'"),
    (lambda c: c.set_speed("V", -5), "mph: must be from 0"),
    (lambda c: c.set_speed("V", "fast"), "mph: must be a whole number"),
    (lambda c: c.control("V", other=31), "other: must be from -30 to 30"),
    (lambda c: c.crash("V", into="cliff"), "into: must be one of 'obstacle', 'vehicle'"),
    (lambda c: c.crash("V", into="vehicle", other_tons=0), "other_tons: the other vehicle must have some mass"),
    (lambda c: c.crash("V", conditions="airbags"), "conditions: must be a list"),
    (lambda c: c.add_vehicle("W", tons=0), "tons: a vehicle must have some mass"),
    (lambda c: c.add_vehicle("W", skill=41), "skill: must be from -30 to 40"),
    (lambda c: c.add_vehicle("", skill=12), "name: must not be empty"),
    (lambda c: c.set_out("V", "Nobody"), "name: nobody called Nobody is aboard V"),
    (lambda c: c.set_rules("loose"), "rules: must be"),
    (lambda c: c.do({"do": "speed", "vehicle": "V", "mph": 10, "dice": [3]}), "dice: is not a field of a 'speed' step"),
    (lambda c: c.control_roll("V", other=1.5), "other: must be a whole number"),
    (lambda c: c.hit_odds("V", "6d6", tyre="spare"), "tyre: must be one of"),
    (lambda c: standing_modifiers(c.vehicles["V"], "rules"), "rules: must be"),
])
def test_bad_input_is_refused_by_name(call, message):
    c = chase()
    before = c.to_dict()
    with pytest.raises(InputError, match=message): call(c)
    assert c.to_dict() == before
