"""Anime d20 mind combat, recovery, Attributes in combat and XP: Table 12-10 cell by cell, examples, exact odds against brute force."""
import itertools
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.checks import d20_check, d20_contest_odds
from besm_nb.dice import InputError
from besm_nb.anime_d20.mind import (ALTERATIONS, XP_AWARDS, alteration, alteration_odds, answer_holds, attribute_contest,
                              attribute_on_opponent_odds, attribute_save_dc, average_save_bonus, break_contact_dc,
                              break_contact_odds, defend_with_attribute_odds, ep_recovered, group_resistance_odds,
                              alteration_dc, hp_recovered, mind_attack, mind_attack_dc, mind_damage, opposed_attribute_odds,
                              repair_checks_needed, repair_odds, xp_award)
from tests.helpers import seed_text

SEED_NAME = "002_33214d3f36acad19.txt"
F = Fraction

# Table 12-10 as printed: (part, level) -> lowest and highest multiple of the base award.
TABLE_12_10 = {
    ("overcame", "inferior"): (F(1, 2), F(1, 2)), ("overcame", "comparable"): (F(1), F(1)), ("overcame", "superior"): (F(3, 2), F(2)),
    ("failed", "inferior"): (F(1, 10), F(1, 10)), ("failed", "comparable"): (F(2, 10), F(2, 10)), ("failed", "superior"): (F(3, 10), F(3, 10)),
    ("role-playing", "good"): (F(1, 2), F(1, 2)), ("role-playing", "strong"): (F(1), F(1)), ("role-playing", "exceptional"): (F(3, 2), F(2)),
}


def wins(bonus, dc):
    return F(sum(1 for n in range(1, 21) if d20_check(bonus, dc, n).success), 20)


@pytest.mark.parametrize("key", list(TABLE_12_10))
def test_table_12_10_cell_by_cell(key):
    assert XP_AWARDS[key][1:] == TABLE_12_10[key]


def test_table_12_10_has_exactly_the_printed_rows():
    assert set(XP_AWARDS) == set(TABLE_12_10)


def test_table_12_10_matches_the_seed_text():
    text = seed_text(SEED_NAME)
    block = text[text.index("TABLE 12-10"):text.index("Base Award\nAll players")]
    assert "Base Award = 100 times the average character Level" in block
    rows = [l for l in block.splitlines() if l.startswith("Add ")]
    assert len(rows) == 9
    def multiple(line):
        if m := re.match(r"Add (\d+)% of the base award", line): return (F(int(m.group(1)), 100),) * 2
        if line.startswith("Add half the"): return (F(1, 2),) * 2
        if line.startswith("Add the base award"): return (F(1),) * 2
        if line.startswith("Add 1.5 to 2 times"): return (F(3, 2), F(2))
        raise AssertionError(line)
    for line, key in zip(rows, TABLE_12_10):  # the same order as the source: overcome, failed, role-playing
        assert multiple(line) == TABLE_12_10[key], line
        part = "fail" if key[0] == "failed" else "role-playing" if key[0] == "role-playing" else "overcame"
        assert part in line


def test_xp_award_from_its_parts():
    assert xp_award([4, 5, 6], ["comparable", "inferior"], ["superior"], "strong")[0] == 1900
    assert xp_award([5])[0] == 500
    assert xp_award([4, 4, 5])[0] == 433 and xp_award([4, 4, 5], rounding="exact")[0] == F(1300, 3)
    assert xp_award([2], ["superior"], superior_factor=2)[0] == 600
    with pytest.raises(InputError, match="exceptional_factor"):
        xp_award([2], role_playing="exceptional", exceptional_factor=F(5, 2))


@given(st.lists(st.integers(1, 20), min_size=1, max_size=6), st.lists(st.sampled_from(["guaranteed", "inferior", "comparable", "superior"]), max_size=3),
       st.lists(st.sampled_from(["inferior", "comparable", "superior"]), max_size=3), st.sampled_from([None, "good", "strong", "exceptional"]),
       st.sampled_from([F(3, 2), F(7, 4), F(2)]))
@settings(max_examples=150, deadline=None)
def test_xp_award_adds_table_multiples(levels, overcame, failed, rp, factor):
    base = F(100 * sum(levels), len(levels))
    parts = [TABLE_12_10[("overcame", c)][0] if c != "superior" else factor for c in overcame if c != "guaranteed"]
    parts += [TABLE_12_10[("failed", c)][0] for c in failed]
    if rp: parts.append(factor if rp == "exceptional" else TABLE_12_10[("role-playing", rp)][0])
    exact = xp_award(levels, overcame, failed, rp, factor, factor, "exact")[0]
    assert exact == base + sum(base * p for p in parts)
    down = xp_award(levels, overcame, failed, rp, factor, factor)[0]
    assert down == math.floor(base) + sum(math.floor(math.floor(base) * p) for p in parts)
    assert down <= exact


def test_mind_combat_numbers():
    assert break_contact_dc(3) == 18 and break_contact_odds(5, 4)[0] == F(7, 20)
    assert mind_attack_dc(1, 2)[0] == 13 and mind_attack_dc(0, 0, 3)[0] == 13
    assert (mind_damage(3), mind_damage(0), mind_damage(-2), mind_damage(4, 1)) == (3, 0, 0, 3)


@given(st.integers(-5, 15), st.integers(-3, 6), st.integers(-3, 6), st.integers(0, 6), st.integers(1, 8), st.integers(1, 30))
@settings(max_examples=150, deadline=None)
def test_mind_attack_odds_by_enumeration(wis, intel, twis, shield, rounds, hp):
    m = mind_attack(wis, intel, twis, shield, rounds=rounds, target_hp=hp)
    assert m.success == wins(wis, 10 + twis + shield)
    assert sum(m.total.values()) == 1
    dmg = max(0, intel)
    brute_total, brute_broken = {}, F(0)
    for hits in itertools.product([True, False], repeat=rounds):
        p = math.prod(m.success if h else 1 - m.success for h in hits)
        brute_total[sum(hits) * dmg] = brute_total.get(sum(hits) * dmg, 0) + p
        brute_broken += p if dmg and sum(hits) * dmg >= hp else 0
    assert m.total == {k: v for k, v in sorted(brute_total.items()) if v}
    assert m.broken == brute_broken
    if rounds > 1: assert mind_attack(wis, intel, twis, shield, rounds=rounds - 1, target_hp=hp).broken <= m.broken


def test_alteration_dcs_and_durations():
    assert {e: v[0] for e, v in ALTERATIONS.items()} == {"minor": 10, "major": 20, "massive": 30}
    assert alteration("minor", 6, 12)[0] == 8 and alteration("minor", 6, 3)[0] is None
    assert alteration("major", 6, 14)[0] == 0 and alteration("major", 6, 14, reading="margin+1")[0] == 1


@given(st.sampled_from(list(ALTERATIONS)), st.integers(-5, 40), st.integers(0, 10))
@settings(max_examples=100, deadline=None)
def test_alteration_odds_sum_to_one_and_readings_shift_by_one(extent, bonus, extra):
    a, b = alteration_odds(extent, bonus, extra), alteration_odds(extent, bonus, extra, "margin+1")
    assert sum(a.values()) == 1 and a.get("fails", 0) == b.get("fails", 0)
    assert {k + 1: v for k, v in a.items() if k != "fails"} == {k: v for k, v in b.items() if k != "fails"}
    assert a.get("fails", 0) == 1 - wins(bonus, ALTERATIONS[extent][0] + extra)


def test_recovery():
    assert hp_recovered(5)[0] == 5  # the source's Level 5 character
    assert hp_recovered(5, 2, medical_care=True)[0] == 20 and hp_recovered(5, 3, resting=False)[0] == 7
    assert ep_recovered(2, -1, 3, 2)[0] == 6 and ep_recovered(-2, -1, -3, 5)[0] == 0


@given(st.integers(-5, 15), st.integers(5, 25), st.integers(0, 60), st.integers(0, 8))
@settings(max_examples=100, deadline=None)
def test_repair_odds(bonus, dc, damage, days):
    odds = repair_odds(bonus, dc, damage, days)
    assert sum(odds.values()) == 1 and max(odds) <= damage
    p = wins(bonus, dc)
    need = repair_checks_needed(damage)
    done = sum((math.comb(days, k) * p ** k * (1 - p) ** (days - k) for k in range(need, days + 1)), F(0))
    assert odds.get(damage, 0) == done
    if days: assert repair_odds(bonus, dc, damage, days - 1).get(damage, 0) <= done


def test_attributes_against_opponents():
    assert attribute_save_dc(4) == 14
    assert attribute_on_opponent_odds(3, 14, 2, 4)[0] == F(10, 20) * F(11, 20)
    assert defend_with_attribute_odds(2, 12, 4, 15, other_save_bonus=1, rank=3)[0] == F(11, 20) * F(11, 20) * F(10, 20)
    assert defend_with_attribute_odds(2, 12, 4, 15, has_power_defence=False)[0] == 0


def test_attribute_versus_attribute_examples():
    "002, Attribute vs. Attribute: Telekinesis 5 holds Flight 3; Flight 4 may go to an opposed check; Flight 3 + Telekinesis 4 escapes."
    assert attribute_contest([5], [3]).winner == "a" and attribute_contest([5], [3]).opposed_check == "no"
    assert attribute_contest([5], [4]).opposed_check == "at the GM's call"
    assert attribute_contest([5], [3, 4]).winner == "b"
    assert attribute_contest([4], [4]).winner is None
    assert answer_holds(16, 16) and not answer_holds(16, 15)


@given(st.integers(-10, 20), st.integers(-10, 20), st.integers(5, 25))
@settings(max_examples=100, deadline=None)
def test_opposed_attribute_readings(a, b, dc):
    totals = opposed_attribute_odds(a, b)
    assert totals == F(sum(1 for x, y in itertools.product(range(1, 21), repeat=2) if y + b >= x + a), 400)
    assert opposed_attribute_odds(a, b, "degrees", dc) == d20_contest_odds(b, dc, a, dc)["eventually"]
    assert opposed_attribute_odds(a, b + 1) >= totals


def brute_group(bonuses, dc, method, individual):
    "Every face of every die rolled, each target's save resolved by `d20_check`."
    fails = {b: [not d20_check(b, dc, f).success for f in range(1, 21)] for b in set(bonuses) | set(individual)}
    shared = [[fails[b][f] for b in bonuses] for f in range(20)]
    rolls = [range(20)] * (len(individual) + (1 if method == "shared" else len(bonuses)))
    out, unit = {}, F(1, 20 ** len(rolls))
    for faces in itertools.product(*rolls):
        if method == "shared": k = sum(shared[faces[0]]) + sum(fails[b][f] for b, f in zip(individual, faces[1:]))
        else: k = sum(fails[b][f] for b, f in zip(list(bonuses) + list(individual), faces))
        out[k] = out.get(k, 0) + unit
    return {k: v for k, v in sorted(out.items()) if v}


@given(st.lists(st.integers(-3, 10), min_size=1, max_size=3), st.integers(5, 25), st.lists(st.integers(-3, 10), max_size=1))
@settings(max_examples=60, deadline=None)
def test_group_resistance_against_brute_force(bonuses, dc, individual):
    for method in ("shared", "separate"):
        assert group_resistance_odds(bonuses, dc, method, individual) == brute_group(bonuses, dc, method, individual)
    avg = group_resistance_odds(bonuses, dc, "average")
    assert set(avg) <= {0, len(bonuses)} and sum(avg.values()) == 1
    assert avg.get(0, 0) == wins(average_save_bonus(bonuses), dc)


@given(st.integers(-5, 10), st.integers(1, 8), st.integers(5, 25))
@settings(max_examples=60, deadline=None)
def test_a_group_of_equals_is_all_or_nothing_either_way(bonus, n, dc):
    assert group_resistance_odds([bonus] * n, dc, "shared") == group_resistance_odds([bonus] * n, dc, "average")


def test_average_rounding_readings():
    assert average_save_bonus([0, 1, 1, 1]) == 0 and average_save_bonus([0, 1, 1, 1], "nearest") == 1
    assert average_save_bonus([-1, -2]) == -2 and average_save_bonus([-1, -2], "nearest") == -1
    with pytest.raises(InputError, match="rounding"):
        average_save_bonus([1], "up")


def test_mind_shield_raises_the_alteration_dc():
    assert alteration_dc("minor", mind_shield=3) == 13 and alteration_dc("massive", 5, 2) == 37
    assert alteration("minor", 6, 12, mind_shield=3)[0] == 5
    assert alteration_odds("massive", 10, mind_shield=4) == alteration_odds("massive", 10, extra=4)
    with pytest.raises(InputError, match="mind_shield"):
        alteration_dc("minor", mind_shield=-2)


def test_important_characters_under_the_shared_die():
    crowd, heroes = [0, 0, 1, 1, 2, 8], [6, 6]
    own = group_resistance_odds(crowd, 15, "shared", heroes)
    shared = group_resistance_odds(crowd + heroes, 15, "shared")
    assert shared == brute_group(crowd + heroes, 15, "shared", [])
    assert shared[8] == F(6, 20) and own[8] == F(6, 20) * F(8, 20) ** 2
    assert own != shared


def test_errors_name_their_parameter():
    for call, name in ((lambda: break_contact_odds("x", 3), "willpower_bonus"),
                       (lambda: attribute_on_opponent_odds("a", 14, 2, 4), "usage_bonus"),
                       (lambda: attribute_on_opponent_odds(3, "b", 2, 4), "usage_dc"),
                       (lambda: attribute_on_opponent_odds(3, 14, "c", 4), "save_bonus"),
                       (lambda: defend_with_attribute_odds("a", 12, 4, 15), "activation_bonus"),
                       (lambda: defend_with_attribute_odds(2, 12, 4, "d"), "save_dc"),
                       (lambda: defend_with_attribute_odds(2, 12, 4, 15, other_save_bonus="z", rank=3), "other_save_bonus"),
                       (lambda: answer_holds("a", 16), "first_total"),
                       (lambda: group_resistance_odds([1, "a"], 15, "shared"), "save_bonuses"),
                       (lambda: mind_attack(0, 2, 0, target_hp=0), "target_hp")):
        with pytest.raises(InputError) as e:
            call()
        assert e.value.param == name
