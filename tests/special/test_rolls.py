"""The 3d6 rolls the special-situation rules assume: thresholds, exact odds, contests, reactions, Fright Checks."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError, dist
from besm_nb.special import DICE, SOURCE
from besm_nb.special.rolls import (CRITICALS, OUTCOMES, REACTION_TABLE, SKILL_RANGE, fright_check_odds, fright_check_target,
                                   quick_contest, quick_contest_odds, reaction_level, reaction_odds, require_bool, require_choice,
                                   require_number, roll_success, success_chance, success_odds, success_outcome, success_roll)

skills = st.integers(*SKILL_RANGE)
THREE_D6 = dist("3d6")


def test_the_wing_names_its_source_and_dice():
    import besm_nb.special as wing
    assert SOURCE == "003_f3673ce212f5243c.txt" and DICE == "3d6 roll-under"
    assert SOURCE in wing.__doc__ and "3d6" in wing.__doc__


@pytest.mark.parametrize("skill, rolled, outcome", [
    (3, 3, "critical success"), (3, 4, "critical success"), (14, 5, "success"), (15, 5, "critical success"),
    (15, 6, "success"), (16, 6, "critical success"), (16, 16, "success"), (16, 17, "failure"), (15, 17, "critical failure"),
    (40, 18, "critical failure"), (6, 16, "critical failure"), (6, 15, "failure"), (10, 11, "failure"), (10, 10, "success"),
])
def test_the_base_games_thresholds(skill, rolled, outcome):
    assert success_outcome(skill, rolled) == outcome


def test_without_criticals_the_total_alone_decides():
    assert [success_outcome(10, t, "none") for t in (3, 10, 11, 18)] == ["success", "success", "failure", "failure"]
    assert success_chance(25, "none") == 1 and success_chance(2, "none") == 0


@given(skills, st.sampled_from(CRITICALS))
def test_success_odds_are_exact_and_add_up(skill, criticals):
    odds = success_odds(skill, criticals)
    assert list(odds) == list(OUTCOMES) and sum(odds.values()) == 1
    brute = sum((p for t, p in THREE_D6.items() if success_outcome(skill, t, criticals).endswith("success")), Fraction(0))
    assert success_chance(skill, criticals) == brute


@given(skills, st.sampled_from(CRITICALS))
def test_a_better_skill_never_does_worse(skill, criticals):
    if skill < SKILL_RANGE[1]:
        assert success_chance(skill + 1, criticals) >= success_chance(skill, criticals)
        assert success_odds(skill + 1, criticals)["critical failure"] <= success_odds(skill, criticals)["critical failure"]


@given(skills, skills)
@settings(max_examples=40)
def test_quick_contests_are_symmetric_and_add_up(a, b):
    ab, ba = quick_contest_odds(a, b), quick_contest_odds(b, a)
    assert ab["first wins"] == ba["second wins"] and ab["tie"] == ba["tie"]
    assert ab["first wins"] + ab["second wins"] + ab["tie"] == 1


@given(st.integers(3, 18), st.integers(3, 18), st.integers(-5, 25), st.integers(-5, 25))
def test_a_contest_is_decided_by_success_then_margin(ra, rb, a, b):
    x, y = success_roll(a, ra), success_roll(b, rb)
    who, by = quick_contest(x, y)
    assert by == x.margin - y.margin
    if x.success != y.success: assert who == ("a" if x.success else "b")
    elif x.margin != y.margin: assert who == ("a" if x.margin > y.margin else "b")
    else: assert who == "tie"


def test_reaction_table_covers_every_total_once():
    assert [name for name, _, _ in REACTION_TABLE] == ["Disastrous", "Very Bad", "Bad", "Poor", "Neutral", "Good", "Very Good", "Excellent"]
    for total in range(-27, 49):
        assert reaction_level(total) in [n for n, _, _ in REACTION_TABLE]


@given(st.integers(-29, 29))
def test_reaction_odds_add_up_and_modifiers_help(m):
    odds, better = reaction_odds(m), reaction_odds(m + 1)
    assert sum(odds.values()) == 1
    good = lambda o: o["Good"] + o["Very Good"] + o["Excellent"]
    assert good(better) >= good(odds)


def test_fright_checks_are_capped_at_13_unless_switched_off():
    assert fright_check_target(16) == 13 and fright_check_target(16, fright_cap=None) == 16
    assert fright_check_odds(16)["success"] + fright_check_odds(16)["critical success"] == success_chance(13)
    assert fright_check_odds(16, fright_cap=None) == success_odds(16)


@pytest.mark.parametrize("call, message", [
    (lambda: success_odds(float("nan")), "skill: must be a whole number"),
    (lambda: success_odds(12.0), "skill: must be a whole number"),
    (lambda: success_odds("12"), "skill: must be a whole number"),
    (lambda: success_odds(True), "skill: must be a whole number"),
    (lambda: success_odds(12, "gurps"), "criticals: must be one of basic, none"),
    (lambda: quick_contest_odds(12, None), "skill_b: must be a whole number"),
    (lambda: reaction_odds("False"), "modifier: must be a whole number"),
    (lambda: roll_success(12, faces=[1, 2]), "faces: 3d6 rolls 3 dice"),
    (lambda: fright_check_target(12, 0, 2.5), "fright_cap: must be a whole number"),
    (lambda: require_bool("False", "switch"), "switch: must be True or False"),
    (lambda: require_choice("x", "name", ("a", "b")), "name: must be one of a, b"),
    (lambda: require_number(float("nan"), "mph", 0, 10), "mph: must be a number"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()
