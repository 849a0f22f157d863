"""Anime d20 (002): what the attack resolver applies to damage, aiming, criticals, and damage bounds, each failing before its fix."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.anime_d20.combat import attack_odds, critical_damage
from besm_nb.anime_d20.modifiers import resolve_attack
from besm_nb.anime_d20.situations import incapacitate, step_die, strike_to_wound, vital_spot_damage
from besm_nb.dice import InputError, dist, stats


# 10. the situation rows that change the damage
def test_vital_spot_steps_the_dice_in_the_odds():
    r = resolve_attack(8, 14, "6d8", ["vital spot"], current_hp=30)
    assert (r.damage, r.critical) == ("6d10", "12d10")
    assert r.odds == attack_odds(0, 14, "6d10")
    assert r.drop == sum((p for k, p in attack_odds(0, 14, "6d10").damage.items() if k > 30), Fraction(0))
    assert vital_spot_damage("1d3") == "1d4" and vital_spot_damage("1d4") == "1d6"  # a d3 and a d4 step up, not refused


def test_partial_armour_ignores_armour_and_several_targets_halve():
    assert resolve_attack(8, 14, "6d8", ["partially armoured point"], armour=6).odds == attack_odds(4, 14, "6d8")
    halved = resolve_attack(8, 14, "6d8", [("several targets", 2)], armour=2)
    assert halved.odds == attack_odds(0, 14, "6d8", armour=2, half=True)
    assert halved.odds.expected < attack_odds(0, 14, "6d8", armour=2).expected


def test_a_combined_attack_lowers_the_defence_by_one_per_extra_attacker():
    r = resolve_attack(8, 14, "2d6", defence_bonus=5, combined=4)
    assert (r.attack_bonus, r.defence_bonus) == (8 - 6, 5 - 3)
    assert r.odds == attack_odds(2, 14, "2d6", 2)


# 11. aiming only standing still
def test_aiming_needs_the_attacker_to_stand_still():
    with pytest.raises(InputError, match="pace: Extra Aim counts only if the attacker does not move"):
        resolve_attack(8, 14, "2d6", ["aiming"])
    with pytest.raises(InputError, match="Extra Aim counts only"):
        resolve_attack(8, 14, "2d6", ["aiming", "moving vehicle, very fast"], pace="still")
    assert resolve_attack(8, 14, "2d6", ["aiming"], pace="still").attack_bonus == 12


# 12. criticals: the dice doubled, or the expression rolled twice
def test_critical_readings_and_their_spreads():
    assert critical_damage("6d8") == critical_damage("6d8", "twice") == "12d8"
    assert (critical_damage("2d6+3"), critical_damage("2d6+3", "twice")) == ("4d6+3", "4d6+6")
    assert all(k % 2 == 0 for k in dist("6d8x2")) and not all(k % 2 == 0 for k in dist(critical_damage("6d8")))  # what is not offered
    with pytest.raises(InputError, match="crit: must be one of 'dice', 'twice'"):
        critical_damage("6d8", "total")


# 13. damage never below 0 and never above the roll
def test_damage_bounds():
    assert incapacitate("1d3-5", 0) == (0, 10)
    assert strike_to_wound(0, 1) == 0 and strike_to_wound(12, 5) == 5


@given(st.integers(0, 1000), st.integers(1, 1000))
def test_striking_to_wound_never_adds_damage(damage, chosen):
    if chosen > max(1, damage):
        with pytest.raises(InputError): strike_to_wound(damage, chosen)
    else:
        assert 0 <= strike_to_wound(damage, chosen) <= damage


# 14. large attacks: allowed when exact odds can take them, else refused naming the damage and why
def test_large_attacks():
    assert attack_odds(5, 10, "60d6").damage.get(720, 0) == Fraction(1, 20) * Fraction(1, 6 ** 120)
    with pytest.raises(InputError) as e: resolve_attack(5, 10, "26d20")
    assert e.value.param == "damage" and "'26d20': a critical hit doubles it: it becomes 52d20 (1,040 die faces" in str(e.value)


@given(st.sampled_from([2, 3, 4, 5, 6, 8, 10, 12, 20, 100]))
def test_every_die_steps_up(sides):
    assert step_die(sides) > sides


@given(st.integers(-5, 20), st.integers(5, 25), st.sampled_from(["1d6", "2d4+1", "3d8"]),
       st.sampled_from([(), ("vital spot",), ("partially armoured point",), (("several targets", 1),)]), st.integers(0, 6))
@settings(max_examples=80, deadline=None)
def test_the_resolvers_damage_is_its_expressions_after_armour(bonus, ac, damage, rows, armour):
    "The resolver's damage odds are the attack's stepped, halved dice after the armour that counts, by direct enumeration."
    r = resolve_attack(bonus, ac, damage, rows, armour=armour)
    o = r.odds
    want = {0: o.outcomes["miss"] + o.outcomes["defended"]}
    for expr, weight in ((r.damage, o.outcomes["hit"]), (r.critical, o.outcomes["critical"])):
        for k, p in dist(expr).items():
            v = max(0, max(0, k) // (2 if r.halved else 1) - r.armour)
            want[v] = want.get(v, Fraction(0)) + p * weight
    assert o.damage == {k: v for k, v in sorted(want.items()) if v}
    assert r.armour == (0 if "partially armoured point" in rows else armour)
    assert min(o.damage) >= 0 and max(o.damage) <= 2 * stats(r.damage).high
