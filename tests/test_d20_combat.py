"""Anime d20 attacks: exact outcome odds against brute force, and properties."""
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from besm_nb.d20_combat import attack_odds, defence_penalty


def brute(attack_bonus, ac, defence_bonus, pen):
    out = {"miss": 0, "defended": 0, "hit": 0, "critical": 0}
    for a in range(1, 21):
        for d in range(1, 21):
            if a == 20: k = "critical"
            elif a == 1 or a + attack_bonus < ac: k = "miss"
            elif defence_bonus is not None and d != 1 and (d == 20 or d + defence_bonus + pen > a + attack_bonus): k = "defended"
            else: k = "hit"
            out[k] += 1
    return {k: Fraction(v, 400) for k, v in out.items()}


@given(st.integers(-10, 30), st.integers(0, 40), st.one_of(st.none(), st.integers(-10, 30)), st.integers(1, 5))
@settings(max_examples=200, deadline=None)
def test_outcomes_match_brute_force(bonus, ac, dbonus, nth):
    o = attack_odds(bonus, ac, "1d6", dbonus, nth)
    assert o.outcomes == brute(bonus, ac, dbonus, defence_penalty(nth))
    assert sum(o.damage.values()) == 1


@given(st.integers(-10, 29), st.integers(0, 40), st.integers(-10, 30), st.integers(0, 6))
@settings(max_examples=150, deadline=None)
def test_a_better_attack_never_lands_less_and_armour_never_adds_damage(bonus, ac, dbonus, armour):
    assert attack_odds(bonus, ac, "2d6", dbonus).lands <= attack_odds(bonus + 1, ac, "2d6", dbonus).lands
    assert attack_odds(bonus, ac, "2d6", dbonus, armour=armour + 1).expected <= attack_odds(bonus, ac, "2d6", dbonus, armour=armour).expected
