"""Anime d20 special situations: Table 12-3 cell by cell, the grappling examples, and exact odds against brute force."""
import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.checks import DEGREE_NAMES, d20_check
from besm_nb.dice import InputError, dist
from besm_nb.anime_d20.situations import (KEEP_HOLD_DC, THROWING_DAMAGE, add_to_damage, aim_bonus, breaks_free, can_pin,
                                    combined_attack, combined_damage, damage_odds, escape_odds, extra_target_penalty,
                                    free_hands_penalty, grab_odds, held_penalty, incapacitate, is_much_stronger,
                                    lock_damage, multiple_targets_penalty, pin_odds, split_damage, throw_manoeuvre,
                                    throw_object, two_weapon_penalties, vital_spot_damage)
from tests.helpers import seed_text

SEED_NAME = "002_33214d3f36acad19.txt"

# Table 12-3 as printed in the source: size category, damage, attack roll bonus.
TABLE_12_3 = [("Medium", "1d4+2", 0), ("Large", "2d4+4", 1), ("Huge", "3d4+6", 2), ("Gargantuan", "4d4+8", 4),
              ("Colossal", "5d4+10", 8)]


@pytest.mark.parametrize("size,damage,bonus", TABLE_12_3)
def test_table_12_3_cell_by_cell(size, damage, bonus):
    assert THROWING_DAMAGE[size] == (damage, bonus)
    thrown = throw_object(size, 0)
    assert (thrown.damage, thrown.attack_bonus) == (damage, bonus)


def test_table_12_3_has_exactly_the_printed_rows():
    assert list(THROWING_DAMAGE) == [size for size, _, _ in TABLE_12_3]


def test_table_12_3_matches_the_seed_text():
    text = seed_text(SEED_NAME)
    block = text[text.index("TABLE 12-3"):text.index("Total Attack")]
    cells = [c.strip() for c in block.splitlines() if c.strip()]
    for size, damage, bonus in TABLE_12_3:
        i = cells.index(size)
        assert cells[i + 1] == damage
        assert int(cells[i + 2].replace("+", "")) == bonus


@given(st.sampled_from(list(THROWING_DAMAGE)), st.integers(-5, 10), st.integers(0, 10))
@settings(max_examples=100, deadline=None)
def test_throw_damage_adds_strength_and_massive_damage(size, strength, massive):
    base, _ = THROWING_DAMAGE[size]
    got = throw_object(size, strength, massive).damage
    shift = strength + massive
    assert {k - shift: p for k, p in dist(got).items()} == dist(base)
    odds = damage_odds(got)
    assert sum(odds.values()) == 1 and min(odds) >= 0


def test_throw_weight_limit_is_a_tenth_of_capacity():
    assert throw_object("Large", 0, weight=100, max_lift=1000).attack_bonus == 1
    with pytest.raises(InputError, match="weight"):
        throw_object("Large", 0, weight=101, max_lift=1000)


def test_mantis_man_example():
    "002, Grappling: four hands against two, -4; with one hand holding something, -2."
    assert free_hands_penalty(4, 2)[0] == -4
    assert free_hands_penalty(3, 2)[0] == -2


@given(st.integers(1, 20), st.integers(0, 20))
def test_hands_penalty_is_minus_two_per_hand_capped_at_minus_eight(grabber, grabbed):
    pen = free_hands_penalty(grabber, grabbed)[0]
    assert pen == max(-8, -2 * max(0, grabber - grabbed))
    assert free_hands_penalty(grabber, grabbed, much_stronger=True)[0] * 2 == pen


def test_held_penalties_and_much_stronger():
    assert [held_penalty(t)[0] for t in ("melee", "freedom")] == [-4, -8]
    assert [held_penalty(t, True)[0] for t in ("melee", "freedom")] == [-2, -4]
    assert is_much_stronger(16, 4) and not is_much_stronger(4, 16) and not is_much_stronger(15, 8) and is_much_stronger(16, 8)
    assert can_pin(16, 4) and not can_pin(4, 16)  # the strong man and the small child


def brute_grab(bonus, ac, dbonus):
    wins = 0
    for a, d in itertools.product(range(1, 21), repeat=2):
        if a == 20: wins += 1
        elif a == 1 or a + bonus < ac: pass
        elif dbonus is None or d == 1 or (d != 20 and d + dbonus <= a + bonus): wins += 1
    return Fraction(wins, 400)


@given(st.integers(-5, 20), st.integers(5, 30), st.one_of(st.none(), st.integers(-5, 15)), st.integers(1, 6), st.integers(0, 4))
@settings(max_examples=150, deadline=None)
def test_grab_odds_match_brute_force(bonus, ac, dbonus, hands, their_hands):
    pen = free_hands_penalty(hands, their_hands)[0] if dbonus is not None else 0
    assert grab_odds(bonus, ac, dbonus, hands, their_hands)[0] == brute_grab(bonus, ac, None if dbonus is None else dbonus + pen)
    assert grab_odds(bonus, ac, dbonus, hands, their_hands, hands_on_defence=False)[0] == brute_grab(bonus, ac, dbonus)


def test_pin_refused_against_much_stronger():
    assert pin_odds(10, 10, 4, 16)[0] == 0
    assert pin_odds(10, 10, 16, 4)[0] == grab_odds(10, 10)[0]


def test_lock_and_throw_damage():
    assert lock_damage(3)[0] == "1d4+3" and lock_damage(-1, 2)[0] == "1d4+1"
    assert add_to_damage("1d6", 2) == "1d6+2"


@given(st.integers(-5, 15), st.integers(5, 30), st.integers(-3, 5), st.integers(-5, 20), st.one_of(st.none(), st.integers(-5, 15)))
@settings(max_examples=100, deadline=None)
def test_throw_manoeuvre_by_enumeration(bonus, ac, strength, grappling, dbonus):
    t = throw_manoeuvre(bonus, ac, strength, grappling, dbonus)
    s = throw_manoeuvre(bonus, ac, strength, grappling, dbonus, defence_stops_throw=True)
    total = bonus + 4
    lands = sum(1 for a in range(1, 21) if a == 20 or (a != 1 and a + total >= ac))
    assert t.lands == Fraction(lands, 20)
    assert s.lands == t.window == brute_grab(total, ac, dbonus)
    assert t.hold_kept == Fraction(sum(1 for n in range(1, 21) if d20_check(grappling, KEEP_HOLD_DC, n).success), 20)
    assert sum(t.damage.values()) == 1 and sum(s.damage.values()) == 1
    if strength >= 0: assert t.damage[0] == 1 - t.lands  # 1d6 + a non-negative modifier never rolls 0


def test_escape_odds_are_a_contest_with_penalties():
    odds = escape_odds(2, 2, holder_hands=4)[0]
    assert odds == escape_odds(-2, 2)[0]  # the Mecha Pilot at -4
    assert escape_odds(2, 2, pinned=True)[0] == escape_odds(-4, 2)[0]
    rank = {n: DEGREE_NAMES.index(d20_check(b, 10, n).degree) for b in (0,) for n in range(1, 21)}
    free = tie = 0
    for a, b in itertools.product(range(1, 21), repeat=2):
        free += rank[a] > rank[b]; tie += rank[a] == rank[b]
    even = escape_odds(0, 0)[0]
    assert even == {"free, and acts": Fraction(free, 400), "free, action lost": Fraction(tie, 400), "still held": 1 - Fraction(free + tie, 400)}


def test_breaking_free_by_damage():
    assert breaks_free(12, 12) and not breaks_free(11, 12)


NINJA = [1, 1, 2, 2, 4, 4, 6, 8]


def test_magical_girl_and_ninja_example():
    "002, Attacking Multiple Weaker Opponents: rank 12 against eight ninja, -10; the sword through three, -8."
    assert multiple_targets_penalty(12, NINJA) == -10
    assert [extra_target_penalty(12, r) for r in NINJA] == [0, 0, 0, 0, -2, -2, -2, -4]
    assert multiple_targets_penalty(5, [5, 5, 5]) == -8
    assert multiple_targets_penalty(12, NINJA, cinematic=False) == -28


def test_free_gap_reading_switch():
    "The printed '5 CR Ranks': everything 5 or more below is free, so only the rank 8 ninja costs."
    assert multiple_targets_penalty(12, NINJA, free_gap=5) == -4
    assert [extra_target_penalty(20, 20 - g, free_gap=5) for g in (4, 5, 9, 10)] == [-4, 0, 0, 0]
    assert [extra_target_penalty(20, 20 - g) for g in (4, 5, 9, 10)] == [-4, -2, -2, 0]
    with pytest.raises(InputError, match="free_gap"):
        extra_target_penalty(20, 1, free_gap=3)
    with pytest.raises(InputError, match="target_levels"):
        multiple_targets_penalty(12, [1, -1])


def test_feats_waive_penalty_and_halving():
    assert multiple_targets_penalty(5, [5, 5, 5], feat_exempt=True) == 0
    assert (split_damage(9), split_damage(9, feat_exempt=True)) == (4, 9)


@given(st.booleans(), st.booleans(), st.integers(0, 10))
def test_two_weapon_penalties(different, ambi, twf):
    main, off = two_weapon_penalties(different, ambi, twf)
    raw_main = -6 - 2 * different + 2 * twf
    raw_off = -10 - 2 * different + 4 * ambi + 2 * twf
    assert (main, off) == (min(0, raw_main), min(0, raw_off))  # reading: feats never give a bonus


def test_two_weapon_table():
    assert two_weapon_penalties() == (-6, -10) and two_weapon_penalties(True) == (-8, -12)
    assert two_weapon_penalties(ambidexterity=True) == (-6, -6)


def test_vital_spot_die_steps():
    assert [vital_spot_damage(f"1d{s}") for s in (4, 6, 8, 10, 12)] == ["1d6", "1d8", "1d10", "1d12", "1d20"]
    assert vital_spot_damage("6d8") == "6d10"
    # dice the source does not step: up the same ladder (d2 → d3 → d4), odd sizes to the next, d20 and up by half again
    assert [vital_spot_damage(f"1d{s}") for s in (2, 3, 5, 20, 100)] == ["1d3", "1d4", "1d6", "1d30", "1d150"]
    with pytest.raises(InputError, match="expr: '100d10': a vital spot steps its dice up"):
        vital_spot_damage("100d10")


def test_combined_attack_readings():
    assert combined_attack(3) == (-4, -2) and combined_attack(2) == (-2, -1)
    assert combined_damage([("hit", 12), ("hit", 9), ("uncoordinated", 7), ("miss", 10)]) == (21, [3])
    assert combined_damage([("hit", 12), ("uncoordinated", 7)]) == (0, [12, 3])  # one coordinates: no combined attack
    assert combined_damage([("hit", 13), ("uncoordinated", 7)], lone_halved=True) == (0, [6, 3])
    assert combined_damage([("hit", 13), ("hit", 2)], lone_halved=True) == (15, [])  # the switch only touches a lone hit
    with pytest.raises(InputError, match="results"):
        combined_damage([("hit", -3)])


def test_aim_readings():
    assert (aim_bonus(), aim_bonus(True)) == (4, 6)  # the text: a full round
    assert (aim_bonus(reading="action"), aim_bonus(True, "action")) == (2, 3)  # Table 12-5
    with pytest.raises(InputError, match="reading"):
        aim_bonus(reading="both")


def test_incapacitate_example():
    "002, Striking to Incapacitate: 1d3+6, maximum 9, a quarter rounded down is 2."
    assert incapacitate("1d3+6", 3) == (2, 13)


def test_throw_weight_names_the_missing_parameter():
    with pytest.raises(InputError, match="max_lift"):
        throw_object("Large", 0, weight=10)
    with pytest.raises(InputError, match="max_lift"):
        throw_object("Large", 0, weight=10, max_lift=0)
    with pytest.raises(InputError, match="weight"):
        throw_object("Large", 0, max_lift=100)


def test_errors_name_their_parameter():
    for call, name in ((lambda: throw_manoeuvre(3, 15, "x"), "strength_modifier"),
                       (lambda: throw_manoeuvre(3, 15, 2, grappling_bonus=500), "grappling_bonus"),
                       (lambda: grab_odds(5, 15, 3, nth_defence=0), "nth_defence"),
                       (lambda: escape_odds("a", 2), "escaper_bonus"),
                       (lambda: escape_odds(2, "b"), "holder_bonus")):
        with pytest.raises(InputError) as e:
            call()
        assert e.value.param == name
