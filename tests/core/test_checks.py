"""Checks: golden values from the sources, exact enumeration, and properties of the odds."""
import itertools
import re
from pathlib import Path
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.checks import (DEGREE_NAMES, d20_check, d20_check_odds, d20_contest_odds, d20_success_odds, degree_for_margin,
                            take_10, take_20, tristat_check, tristat_check_odds, tristat_contest, tristat_outcome_odds)
from tests.helpers import seed_text

targets = st.integers(0, 40)
mods = st.integers(-20, 20)


def test_exam_example_ranks_ami_mako_usagi_mina():
    "001, Stat Checks: Usagi (Mind 3) rolls 3, Ami (10) 8, Makoto (4) 3, Minako (5) 6."
    exam = {"Usagi": tristat_check(3, 3), "Ami": tristat_check(10, 8), "Mako": tristat_check(4, 3), "Mina": tristat_check(5, 6)}
    assert [n for _, n, _ in tristat_contest(exam)] == ["Ami", "Mako", "Usagi", "Mina"]
    assert exam["Mina"].success is False and exam["Usagi"].success is True


def test_prince_diamond_targets():
    "001, Mental Combat: Mind 7 hits on 7 or less, Mind 3 resists on 3 or less."
    assert tristat_check(7, 7).success and not tristat_check(7, 8).success
    assert tristat_check(3, 3).success and not tristat_check(3, 4).success
    assert tristat_check_odds(7) == Fraction(21, 36) and tristat_check_odds(3) == Fraction(3, 36)


def test_jadeite_round_rolls():
    "001, Combat Example: Jadeite (ACV 8) hits with 8; Mars (ACV 7) misses with 8; Moon (ACV 6) hits with 5; Moon (DCV 5) fails a dodge with 6."
    assert tristat_check(8, 8).success
    assert not tristat_check(7, 8).success
    assert tristat_check(6, 5).success
    assert not tristat_check(5, 6).success


@given(targets, mods)
@settings(max_examples=300, deadline=None)
def test_tristat_odds_match_enumeration_and_sum_to_one(target, mod):
    wins = sum(1 for a, b in itertools.product(range(1, 7), repeat=2)
               if a + b == 2 or (a + b != 12 and a + b + mod <= target))
    assert tristat_check_odds(target, mod) == Fraction(wins, 36)
    assert sum(tristat_outcome_odds(target, mod).values()) == 1


@given(st.integers(0, 39), mods)
def test_tristat_odds_never_fall_as_the_target_rises(target, mod):
    assert tristat_check_odds(target, mod) <= tristat_check_odds(target + 1, mod)


@given(targets, st.integers(-20, 19))
def test_tristat_odds_never_rise_with_a_worse_modifier(target, mod):
    assert tristat_check_odds(target, mod) >= tristat_check_odds(target, mod + 1)


def test_tristat_bounds():
    assert tristat_check_odds(0) == Fraction(1, 36) and tristat_check_odds(40) == Fraction(35, 36)
    for bad in [(-1, 0), (41, 0), (7, 21), (7, -21)]:
        with pytest.raises(ValueError):
            tristat_check_odds(*bad)


def test_table_12_1_bands():
    expected = {-16: "Overwhelming Failure", -15: "Extreme Failure", -11: "Extreme Failure", -10: "Major Failure",
                -7: "Major Failure", -6: "Minor Failure", -4: "Minor Failure", -3: "Marginal Failure", -1: "Marginal Failure",
                0: "Marginal Success", 1: "Marginal Success", 2: "Minor Success", 3: "Minor Success", 4: "Major Success",
                6: "Major Success", 7: "Extreme Success", 10: "Extreme Success", 11: "Overwhelming Success", 40: "Overwhelming Success"}
    assert {m: degree_for_margin(m) for m in expected} == expected


@pytest.mark.parametrize("margin", [1.5, float("nan"), float("inf"), "3", None, True, [2]])
def test_a_margin_that_is_not_a_whole_number_is_refused_by_name(margin):
    with pytest.raises(ValueError, match=r"^margin: must be a whole number"):
        degree_for_margin(margin)


@given(st.integers(-50, 100), st.integers(0, 100))
@settings(max_examples=300, deadline=None)
def test_d20_odds_exact(bonus, dc):
    odds = d20_check_odds(bonus, dc)
    assert list(odds) == list(DEGREE_NAMES)
    assert sum(odds.values()) == 1
    assert all(p.denominator in (1, 2, 4, 5, 10, 20) for p in odds.values())
    # each face checked directly
    for nat in range(1, 21):
        assert odds[d20_check(bonus, dc, nat).degree] >= Fraction(1, 20)
    s = d20_success_odds(bonus, dc)
    assert Fraction(1, 20) <= s <= Fraction(19, 20)
    assert s == Fraction(max(1, min(19, 21 - (dc - bonus))), 20)


@given(st.integers(-50, 99), st.integers(0, 100))
def test_d20_success_never_falls_with_a_bigger_bonus(bonus, dc):
    assert d20_success_odds(bonus, dc) <= d20_success_odds(bonus + 1, dc)


def test_natural_rules_and_taking():
    assert d20_check(-50, 100, 20).degree == "Marginal Success"
    assert d20_check(100, 0, 1).degree == "Marginal Failure"
    assert take_10(3, 13).total == 13 and take_10(3, 13).degree == "Marginal Success"
    assert take_20(0, 30).degree == "Marginal Success"
    assert take_20(0, 30, impossible=True).degree == "Major Failure"


@given(st.integers(-10, 20), st.integers(5, 30), st.integers(-10, 20), st.integers(5, 30))
@settings(max_examples=100, deadline=None)
def test_contest_odds_are_a_distribution(ba, da, bb, db):
    o = d20_contest_odds(ba, da, bb, db)
    assert o["first wins"] + o["second wins"] + o["tie"] == 1
    swapped = d20_contest_odds(bb, db, ba, da)
    assert swapped["first wins"] == o["second wins"] and swapped["tie"] == o["tie"]


def test_table_12_2_and_natural_20_switch():
    from besm_nb.checks import DIFFICULTY_CLASSES, difficulty_name
    assert [d for d, _ in DIFFICULTY_CLASSES] == [3, 5, 7, 10, 15, 20, 25, 30, 35, 40]
    assert difficulty_name(20) == "Difficult (20)"
    assert d20_success_odds(0, 40) == Fraction(1, 20)
    assert d20_success_odds(0, 40, natural_20=False) == 0
    assert d20_check(0, 25, 20, natural_20=False).degree == "Minor Failure"


def test_many_sided_contest_ranks_by_degree():
    from besm_nb.checks import d20_contest_rank
    ranked = d20_contest_rank({"a": d20_check(0, 10, 10), "b": d20_check(0, 10, 11), "c": d20_check(0, 10, 20)})
    assert [(p, n) for p, n, _ in ranked] == [(1, "c"), (2, "a"), (2, "b")]


@given(st.integers(-10, 20), st.integers(5, 40), st.lists(st.integers(-5, 15), max_size=6))
@settings(max_examples=80, deadline=None)
def test_help_is_a_distribution_and_never_hurts(leader, dc, helpers):
    from besm_nb.anime_d20.checks import combined_check_odds
    odds = combined_check_odds(leader, dc, helpers)
    assert sum(odds.values()) == 1
    assert d20_success_odds(leader, dc) <= sum(p for d, p in odds.items() if d.endswith("Success"))


SEED_NAME = "002_33214d3f36acad19.txt"


def _seed_002() -> str:
    return seed_text(SEED_NAME)


def test_table_12_1_cell_by_cell_against_the_seed():
    "Each printed row of Table 12-1 (margin band and name) is the project's DEGREES row."
    from besm_nb.checks import DEGREES
    text = _seed_002()
    block = text[text.index("\nTable 12-1: Degrees of Success\n") + 1:text.index("\nTask Difficulty Classes\n")]
    rows = []
    for line in block.splitlines()[1:]:
        if not line.strip(): continue
        name = " ".join(line.split()[-2:])
        nums = [int(n) for n in re.findall(r"\d+", line)]
        if "less than" in line:
            lo, hi = (-nums[0], None) if "+" in line else (-nums[1], -nums[0])
            rows.append((name, None if hi is None else lo, hi if hi is not None else lo))
        elif "equal to or 1 greater" in line: rows.append((name, 0, 1))
        else: rows.append((name, nums[0], None if "+" in line else nums[1]))
    assert tuple(rows) == DEGREES
    for name, lo, hi in DEGREES:  # and the function agrees with every band's edges
        for m in (lo, hi):
            if m is not None: assert degree_for_margin(m) == name


def test_table_12_2_cell_by_cell_against_the_seed():
    from besm_nb.checks import DIFFICULTY_CLASSES
    text = _seed_002()
    block = text[text.index("\nTable 12-2: Difficulty Classes\n") + 1:text.index("\nCritical Success or Failure\n")]
    cells = [c.strip() for c in block.splitlines()[1:] if c.strip()][2:]  # after the "DC" and "Task Difficulty" heads
    printed = [(int(cells[i]), cells[i + 1].split(" (")[0].split(" —")[0]) for i in range(0, len(cells), 2)]
    assert tuple(printed) == DIFFICULTY_CLASSES
