"""Combat in flight, cinematic options and single combat: the source's numbers, the readings both ways, properties."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError, dist
from besm_nb.special.cinematic import (EVASION_BONUS, EVASION_COST, acrobatic_dodge_odds, evasion_odds, exchange, exchange_odds,
                                       extra_effort_bonus, extra_effort_odds)
from besm_nb.special.flight import (FLYING_ENCUMBRANCE, altitude_effect, dive_damage_odds, flier_attack, flier_defences, flight_cost,
                                    flight_penalty, flying_encumbrance, ground_fire)
from besm_nb.special.rolls import quick_contest_odds, success_chance
from tests.helpers import seed_text

SEED = "003_f3673ce212f5243c.txt"


def test_flight_numbers_against_the_source():
    text = seed_text(SEED)
    for fact in ("x2 movement to climb, and 1/2 movement to dive", "1.5 hexes of horizontal flight", "2 hex figures",
                 "(up to ST x 2): No Effect", "(up to ST x 6): 3/4 Move", "(up to ST x 10): 1/2 Move", "(up to ST x 15): 1/4 Move",
                 "between 10,000 and 15,000 feet", "Past 15,000 feet", "-4 to aim", "Control skill-17", "Throwing-3, Thrown Weapon-5",
                 "Control skill-15; if your flying skill is 15 or better", "+1 damage per 10 hexes", "+4 to Dodge",
                 "Control skill - Weapon or Shield skill", "Double the penalties if the target's range isn't known",
                 "Gunner: Anti-Aircraft"):
        assert fact in text, fact
    assert [(name, times, part) for name, times, part in FLYING_ENCUMBRANCE] == [
        ("none", 2, 1), ("light", 6, Fraction(3, 4)), ("medium", 10, Fraction(1, 2)), ("heavy", 15, Fraction(1, 4))]


def test_flight_readings_both_ways():
    assert flight_cost(climb_45=1) == 3 and flight_cost(climb_45=1, diagonal="flat") == Fraction(3, 2)
    assert flight_penalty("ranged weapon", 20) == 0 and flight_penalty("ranged weapon", 20, ranged_cap=False) == 3
    assert flight_penalty("hand weapon", 20, ranged_cap=False) == 0
    assert dive_damage_odds("1d6", 30) == {4: Fraction(1, 6), 5: Fraction(1, 6), 6: Fraction(4, 6)}
    assert dive_damage_odds("1d6", 50) == {6: 1}
    assert dive_damage_odds("1d6", 50, "bonus") == {k + 5: Fraction(1, 6) for k in range(1, 7)}
    assert flier_defences(5, 6, 15, 12)["parry"] == 6 and flier_defences(5, 6, 15, 12, parry_cap=False)["parry"] == 9
    assert ground_fire(12, -3, size=-2)["range not known"] == success_chance(4)
    assert ground_fire(12, -3, size=-2, double_size=True)["range not known"] == success_chance(2)
    assert flying_encumbrance(10, 120, 8).can_fly is False and flying_encumbrance(10, 120, 8, heaviest="heavy").move == 2
    assert altitude_effect(12_000) == "double Fatigue for any exertion"


@given(st.integers(1, 30), st.integers(0, 500), st.integers(0, 20))
def test_more_load_never_flies_faster(st_, load, move):
    a, b = flying_encumbrance(st_, load, move, "heavy"), flying_encumbrance(st_, load + 1, move, "heavy")
    assert b.move <= a.move


@given(st.sampled_from(["ranged weapon", "hand weapon", "dropped, Throwing"]), st.integers(0, 20), st.integers(0, 25))
def test_better_flying_never_hurts(attack, skill, control):
    assert flier_attack(skill, attack, control).skill <= flier_attack(skill, attack, control + 1).skill
    assert sum(flier_attack(skill, attack, control).odds.values()) == 1


@given(st.sampled_from(["1d6", "2d6+1", "3d6"]), st.integers(0, 300), st.sampled_from(["total", "bonus"]))
def test_dive_damage_adds_up_and_never_passes_its_cap(damage, speed, cap):
    odds = dive_damage_odds(damage, speed, cap)
    assert sum(odds.values()) == 1
    top = max(dist(damage))
    assert max(odds) <= (top if cap == "total" else 2 * top)


def test_cinematic_numbers_against_the_source():
    text = seed_text(SEED)
    for fact in ("+1 per die of damage up to the double maximum damage", "Each attempt costs 1 Fatigue", "double his dodge score",
                 "-1 to attack next turn", "This cost 4 movement points", "+5 to the contest of skills to Evade",
                 "lasts 1d6 seconds", "This time is doubled", "halved or doubled", "normal one second turns"):
        assert fact in text, fact
    assert (EVASION_COST, EVASION_BONUS) == (4, 5)


@given(st.sampled_from(["1d6", "2d6+1", "3d6-2"]), st.integers(3, 20))
@settings(max_examples=30)
def test_extra_effort_adds_up_and_respects_its_cap(damage, st_):
    odds = extra_effort_odds(damage, st_)
    assert sum(odds.values()) == 1 and max(odds) <= 2 * max(dist(damage))
    if st_ <= 18: assert extra_effort_bonus(damage, st_, st_) == 0  # made by exactly 0: nothing


@given(st.integers(0, 15), st.integers(0, 18), st.integers(0, 5))
def test_the_acrobatic_dodge_is_never_worse_than_a_plain_one(dodge, skill, pd):
    a = acrobatic_dodge_odds(dodge, skill, pd)
    assert a["defends"] >= a["ordinary dodge defends"]


def test_further_turns_of_aim_for_a_flier_holding_still():
    assert "You can't aim on subsequent turns to get a further bonus unless you can hold still and there is no wind" in seed_text(SEED)
    one = flier_attack(14, control_skill=12, aim=True, acc=10)
    assert flier_attack(14, control_skill=12, aim=True, acc=10, aim_turns=3).skill == one.skill
    assert flier_attack(14, control_skill=12, aim=True, acc=10, aim_turns=2, hold_still=True).skill == one.skill + 1
    assert flier_attack(14, control_skill=12, aim=True, acc=10, aim_turns=5, hold_still=True).skill == one.skill + 2


def test_evasion_adds_up():
    e = evasion_odds(12, 12, 12)
    assert sum(e.values()) == 1 and e["evades"] == success_chance(12) * quick_contest_odds(17, 12)["first wins"]


@pytest.mark.parametrize("a", ["none", "wait", "prolong", "speed up"])
@pytest.mark.parametrize("b", ["none", "wait", "prolong", "speed up"])
@pytest.mark.parametrize("speed_up", ["one or both", "both"])
def test_single_combat_exchange_both_readings(a, b, speed_up):
    assert exchange(a, b, speed_up) == exchange(b, a, speed_up)
    odds = exchange_odds(a, b, 13, 11, speed_up)
    assert sum(odds.values()) == 1
    if "speed up" in (a, b) and "prolong" not in (a, b):  # one or both speed up, nobody draws it out
        assert exchange(a, b, speed_up) == ("halved" if speed_up == "both" and a != b else "1 second")
    if {a, b} == {"speed up", "prolong"}: assert exchange(a, b, speed_up) == "contest"


def test_single_combat_speeding_up_against_the_source():
    text = seed_text(SEED)
    assert "If one or both fighters are trying to speed up the fight, both sides fight with normal one second turns" in text
    assert "If one fighter wishes to speed up the fight, but the other fighter is trying to prolong it" in text
    assert exchange("speed up", "none") == exchange("speed up", "wait") == "1 second"  # the default follows the sentence
    assert exchange_odds("speed up", "none") == {1: 1}


@pytest.mark.parametrize("call, message", [
    (lambda: flight_cost(hexes=1.5), "hexes: must be a whole number"),
    (lambda: flying_encumbrance(10, float("nan"), 5), "load: must be a number"),
    (lambda: flier_attack(12, trained_aim="False"), "trained_aim: must be True or False"),
    (lambda: ground_fire(12, -3, aa_skill="12"), "aa_skill: must be a whole number"),
    (lambda: dive_damage_odds("1d6", -10), "speed_hexes: must be from 0"),
    (lambda: extra_effort_odds("2d6", 12, "cinematic"), "criticals: must be one of 'basic', 'none'"),
    (lambda: exchange_odds("none", "flee"), "b: must be one of"),
    (lambda: acrobatic_dodge_odds(5.0, 12), "dodge: must be a whole number"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()


def test_fields_named_as_the_caller_knows_them_and_the_extra_effort_headline():
    with pytest.raises(InputError, match="foe_skill: must be from -30 to 40, got 99"): evasion_odds(12, 11, 99)
    from besm_nb.special.cinematic import extra_effort_adds
    # made by 1 or more: impossible at ST 3 (a 3 makes it by 0), only a 3 at ST 4, a 3 or a 4 at ST 5
    assert [extra_effort_adds("2d6", st) for st in (3, 4, 5)] == [0, Fraction(1, 216), Fraction(1, 54)]
