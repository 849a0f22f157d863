"""The 3d6 rolls the special-situation rules assume: thresholds, exact odds, contests, reactions, Fright Checks."""
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError, dist
from besm_nb.special import DICE, SOURCE
import random

from besm_nb.special.rolls import (CRITICALS, OUTCOMES, REACTION_LEVELS, REACTION_TABLE, SKILL_RANGE, TIES, check_reaction_table,
                                   fright_check_odds, fright_check_target, quick_contest, quick_contest_odds, reaction_bands,
                                   reaction_level, reaction_odds, roll_quick_contest, roll_reaction, roll_success, success_chance,
                                   success_odds, success_outcome, success_roll)

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


def test_ties_are_a_named_switch():
    assert TIES == ("stand", "reroll")
    tie = (success_roll(12, 12), success_roll(9, 9))
    assert quick_contest(*tie) == ("tie", 0) and quick_contest(*tie, ties="stand") == ("tie", 0)
    assert quick_contest(*tie, ties="reroll") == ("again", 0)
    with pytest.raises(InputError, match="ties: must be one of 'stand', 'reroll'"): quick_contest(*tie, ties="defender")


@settings(max_examples=60, deadline=None)
@given(st.integers(-5, 25), st.integers(-5, 25), st.sampled_from(CRITICALS))
def test_rerolled_ties_share_out_the_tie_by_the_decided_rolls(a, b, crit):
    stand, reroll = quick_contest_odds(a, b, crit), quick_contest_odds(a, b, crit, ties="reroll")
    assert reroll["tie"] == 0 and stand["first wins"] + stand["second wins"] + stand["tie"] == 1
    assert reroll["first wins"] + reroll["second wins"] == 1
    assert reroll["first wins"] == stand["first wins"] / (stand["first wins"] + stand["second wins"]) == stand["eventually"]


def test_a_rolled_contest_rolls_ties_again_only_when_switched():
    stand = [roll_quick_contest(11, 11, random.Random(n), criticals="none") for n in range(300)]
    assert {len(k.rolls) for k in stand} == {1} and "tie" in {k.winner for k in stand}
    reroll = [roll_quick_contest(11, 11, random.Random(n), criticals="none", ties="reroll") for n in range(300)]
    assert {k.winner for k in reroll} == {"a", "b"} and max(len(k.rolls) for k in reroll) > 1
    for k in reroll:
        assert all(quick_contest(a, b)[0] == "tie" for a, b in k.rolls[:-1]) and quick_contest(*k.rolls[-1])[0] == k.winner


def test_the_reaction_table_is_a_parameter_checked_band_by_band():
    assert reaction_bands([0, 3, 6, 9, 12, 15, 18]) == REACTION_TABLE == check_reaction_table(REACTION_TABLE)
    gm = reaction_bands([1, 4, 7, 10, 12, 14, 16])  # a GM's own bands
    assert gm[0] == ("Disastrous", None, 1) and gm[-1] == ("Excellent", 17, None)
    assert (reaction_level(17), reaction_level(17, gm)) == ("Very Good", "Excellent")
    assert (reaction_level(10), reaction_level(10, gm)) == ("Neutral", "Poor")
    assert reaction_odds(0, gm)["Excellent"] == Fraction(4, 216) and reaction_odds(0)["Excellent"] == 0
    assert roll_reaction(0, faces=[6, 6, 5], table=gm)[2] == "Excellent"
    assert check_reaction_table([list(b) for b in gm]) == gm  # bands typed as lists are read the same
    bad = [(REACTION_TABLE[:7], "must give the 8 reaction levels"),
           (REACTION_TABLE[::-1], "band 1 must be 'Disastrous'"),
           ((("Disastrous", None, 0), ("Very Bad", 2, 3)) + REACTION_TABLE[2:], "Very Bad must start at 1, right after Disastrous"),
           ((("Disastrous", None, 0), ("Very Bad", 1, 0)) + REACTION_TABLE[2:], "Very Bad runs from 1 to 0"),
           ((("Disastrous", 0, 0),) + REACTION_TABLE[1:], "Disastrous is open below"),
           (REACTION_TABLE[:7] + (("Excellent", 19, 20),), "Excellent is open above"),
           (REACTION_TABLE[:7] + (("Excellent", 19),), "must be"),  # refused by its type before the bands are read
           ([], "must give the 8 reaction levels")]
    for table, why in bad:
        for call in (lambda: reaction_level(10, table), lambda: reaction_odds(0, table), lambda: roll_reaction(0, table=table)):
            with pytest.raises(InputError, match="table: " + re.escape(why)): call()
    with pytest.raises(InputError, match="tops: must rise"): reaction_bands([0, 3, 3, 9, 12, 15, 18])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-27, 47), min_size=7, max_size=7, unique=True), st.integers(-30, 30))
def test_any_gms_bands_cover_every_total_and_add_up(tops, m):
    table = reaction_bands(sorted(tops))
    assert sum(reaction_odds(m, table).values()) == 1
    assert [reaction_level(t, table) for t in range(-27, 49)] == sorted((reaction_level(t, table) for t in range(-27, 49)),
                                                                       key=REACTION_LEVELS.index)


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
    (lambda: success_odds(12, "gurps"), "criticals: must be one of 'basic', 'none'"),
    (lambda: quick_contest_odds(12, None), "skill_b: must be a whole number"),
    (lambda: reaction_odds("False"), "modifier: must be a whole number"),
    (lambda: roll_success(12, faces=[1, 2]), "faces: 3d6 rolls 3 dice"),
    (lambda: fright_check_target(12, 0, 2.5), "fright_cap: must be a whole number"),
    (lambda: success_outcome(12, 19), "rolled: must be from 3 to 18"),
    (lambda: success_outcome(12, 10, "gurps"), "criticals: must be one of 'basic', 'none', got 'gurps'"),
    (lambda: success_roll(12, 10, what=["Driving"]), "what: must be text"),
    (lambda: roll_success(12, rng=5), "rng: must be a Random or None, got 5"),
    (lambda: roll_reaction(0, faces=["6", "6", "5"]), "faces: must be a list of whole numbers or None"),
    (lambda: quick_contest(success_roll(12, 8), None), "b: must be a SuccessRoll, got None"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()
