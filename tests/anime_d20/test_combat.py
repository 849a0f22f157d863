"""Anime d20 attacks: exact outcome odds against brute force, and properties."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.anime_d20.combat import attack_odds, defence_penalty


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


names = st.lists(st.sampled_from("ABCDEFG"), min_size=2, max_size=7, unique=True)


@given(names, st.data())
@settings(max_examples=150, deadline=None)
def test_round_orders_keep_everyone_once(people, data):
    from besm_nb.anime_d20.combat import delay_action, initiative_order, next_round_order
    entries = {n: (data.draw(st.integers(1, 4)), data.draw(st.integers(10, 11))) for n in people}
    order = initiative_order(entries)
    held = data.draw(st.lists(st.sampled_from(people), unique=True))
    nxt = next_round_order(order, held)
    assert sorted(n for g in nxt for n in g) == sorted(people)
    if held: assert sorted(nxt[0]) == sorted(held)  # all held actions at the first initiative, together
    rest = [n for g in nxt[1 if held else 0:] for n in g]
    assert rest == [n for g in order for n in g if n not in held]  # the others keep their initiative order
    name, after = data.draw(st.sampled_from(people)), data.draw(st.sampled_from(people))
    pos = {n: i for i, g in enumerate(order) for n in g}
    if name != after and pos[after] >= pos[name]:
        moved = delay_action(order, name, after)
        flat = [n for g in moved for n in g]
        at = next(i for i, g in enumerate(moved) if after in g)  # she acts alone, at the moment right after after's
        assert sorted(flat) == sorted(people) and moved[at + 1] == [name]


def test_delay_within_a_tie_and_stand_offs():
    from besm_nb.anime_d20.combat import InputError, delay_action, stand_off
    tied = [["Cy"], ["Aki"], ["Bo", "Di"]]
    assert delay_action(tied, "Di", "Bo") == [["Cy"], ["Aki"], ["Bo"], ["Di"]]
    assert delay_action(tied, "Bo", "Di") == [["Cy"], ["Aki"], ["Di"], ["Bo"]]
    with pytest.raises(InputError) as e: delay_action(tied, "Di", "Cy")
    assert e.value.param == "after"
    sides = {"Aki": "heroes", "Bo": "heroes", "Cy": "villains"}
    assert stand_off(sides, ["Bo", "Cy"]) and not stand_off(sides, ["Aki", "Bo"])
    with pytest.raises(InputError) as e: stand_off({"Aki": "heroes"}, ["Aki"])
    assert e.value.param == "sides"


def test_iterative_attacks_from_base_attack_bonus():
    from besm_nb.anime_d20.combat import bab_attacks
    for bab in range(-5, 40):
        a = bab_attacks(bab)
        assert a[0] == bab and len(a) == (1 if bab < 6 else 2 if bab < 11 else 3 if bab < 16 else 4)
        assert all(x - y == 5 for x, y in zip(a, a[1:])) and all(x >= 1 for x in a[1:])


def test_range_increments_example_and_conversion():
    from besm_nb.anime_d20.combat import RANGES, anime_range, increment_penalty, range_increment
    assert range_increment("short") == 15  # the source: short range, 30 feet, gives 15-foot increments
    assert [increment_penalty(15, d) for d in (15, 16, 30, 31, 45, 46, 150, 151)] == [0, -2, -2, -4, -4, -6, -18, None]
    for band in ("short", "medium", "long"):
        assert anime_range(range_increment(band)) == RANGES[band]  # the two conversions undo each other


@given(st.integers(1, 500), st.floats(0, 10_000), st.floats(0, 10_000))
@settings(max_examples=200, deadline=None)
def test_increment_penalty_never_eases_with_distance(increment, a, b):
    from besm_nb.anime_d20.combat import increment_penalty
    near, far = increment_penalty(increment, min(a, b)), increment_penalty(increment, max(a, b))
    if near is None: assert far is None
    elif far is not None: assert far <= near <= 0 and far >= -18
