"""Fighting groups, fear and morale, street fighting: the source's numbers, the readings both ways, exact odds, properties."""
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError
from besm_nb.special.groups import (GROUP_MANOEUVRES, GROUP_OUTCOMES, TIES, confusion_penalty, group_contest, group_contest_odds,
                                    group_skill, pike_wall, pole_arm_grab_odds, sheltering, shield_wall, teamwork_modifier,
                                    trained_group_skill)
from besm_nb.special.morale import (FRIGHT_SITUATIONS, STREET_ROLLS, TO_THE_DEATH, green_troops, morale_check_due, morale_modifier,
                                    morale_odds, morale_result, roll_morale, situation_fright_odds, stay_exposed_chance, street_roll_odds)
from besm_nb.special.cinematic import evasion_odds, exchange_odds
from besm_nb.special.rolls import REACTION_LEVELS, REACTION_TABLE, fright_check_odds, quick_contest_odds, reaction_bands, success_chance, success_roll
from tests.helpers import seed_text

SEED = "003_f3673ce212f5243c.txt"


def test_group_numbers_against_the_source():
    text = seed_text(SEED)
    for fact in ("Tactics or Weapons skill -2 of the member of the group with the poorest skill", "won the contest by 10 or more",
                 "-2 to attack or defend against any opponent beyond the first", "further -2 to your tactics skill",
                 "Any future tactics roll is at -5. All attacks are at -2 to hit", "+1 PD to the sheltering character",
                 "-4 to block skill to block you and -2 to block himself", "1/2 of his shield's PD", "-2 to weapon skill (and Parry)",
                 "only be at -1 to weapon skill", "block blows aimed at each other at -2 to skill",
                 "all bonuses are halved, and all penalties are doubled", "-2 to all Swing attacks", "extra +2 PD and a +4 to ST",
                 "-1/2 of the average PD", "reach of 2 or more hexes", "1/2 the speed of its slowest member", "+4 to all Slam attacks",
                 "-2 to be targeted", "Roll vs. DX-4", "-2 to all Active Defenses", "-5 to ST if you are trying to hang onto",
                 "-1 to Attack and -1 to Defend cumulative", "average their Tactics skills, or use the Leadership skill"):
        assert fact in text, fact


@pytest.mark.parametrize("name, needs, move, effect", GROUP_MANOEUVRES)
def test_group_manoeuvres_against_the_source(name, needs, move, effect):
    text = seed_text(SEED)
    assert name.upper() in text
    for number in ("Move of 2", "Move 3", "10 turns", "+4 to Slam", "1/4 of the men", "+2 to skill if in shield wall, -2 otherwise",
                   "+2 PD vs. all light missiles", "1/4 normal speed", "turn 180", "turn 90"):
        assert number in text, number


def test_group_readings_both_ways():
    tie = (success_roll(12, 10), success_roll(9, 7))  # both made it by 2
    assert [group_contest(*tie, t) for t in TIES] == ["several fronts", "one at a time", None]
    assert sheltering(4, True)["pd"] == 2 and sheltering(4, True, cumulative=True)["pd"] == 3
    assert confusion_penalty(3) == -2 and confusion_penalty(3, from_first=True) == -3
    r = group_contest_odds(12, 8, tie="reroll")
    l, w = group_contest_odds(12, 8), group_contest_odds(12, 8, tie="win")
    assert l["surrounded"] < r["surrounded"] and r["one at a time"] < w["one at a time"]  # a decided contest sits between


@given(st.integers(3, 20), st.integers(3, 20), st.sampled_from(["free", "lost last turn", "surrounded"]), st.sampled_from(TIES))
@settings(max_examples=40)
def test_group_contest_odds_add_up_and_skill_helps(skill, group, position, tie):
    odds, better = group_contest_odds(skill, group, position, tie), group_contest_odds(skill + 1, group, position, tie)
    assert sum(odds.values()) == 1 and list(odds) == list(GROUP_OUTCOMES)
    if tie == "reroll": return  # odds of a decided contest: fewer ties with unequal skills can lift any share slightly
    assert better["surrounded"] <= odds["surrounded"]
    assert better["one at a time"] + better["fumbler in front"] >= odds["one at a time"] + odds["fumbler in front"]


def test_group_helpers():
    assert group_skill([12, 9, 14]) == 7 and trained_group_skill([12, 9, 14], 11) == 11 and trained_group_skill([13, 14]) == 13
    assert teamwork_modifier(-2, False) == -4 and teamwork_modifier(4, False) == 2
    assert shield_wall([2, 3], 6) == {"can block": False, "swing attacks": -2, "pd": 2, "st against slam and knockback": 4, "unit slam": 4,
                                      "to target the spearmen": -1, "reach to hit rear ranks": 2, "move": 3}
    assert pike_wall(6)["move"] == 3


def test_shieldmen_cannot_block():
    assert "This prevents the shieldmen from Blocking" in seed_text(SEED)
    wall = shield_wall([3, 3], 4)
    assert wall["can block"] is False and "block" not in wall  # not a +0 to Block


def test_a_drilled_pike_walls_pace_both_readings():
    assert "unless the unit has specifically trained to march more quickly" in seed_text(SEED)
    assert pike_wall(7)["move"] == 3 and pike_wall(7, drilled_march=True)["move"] == 7
    assert pike_wall(7, drilled_march=True, drilled_move=5)["move"] == 5
    with pytest.raises(InputError, match="drilled_move: must be from 3 to 7"): pike_wall(7, drilled_march=True, drilled_move=8)


def test_a_green_soldiers_will_roll_both_readings():
    assert "A turn of Concentration and a Will roll will negate this penalty" in seed_text(SEED)
    assert green_troops(shaken_off=True) == {"skills and IQ": 0, "Bullet Shyness and Buck Fever": "doubled"}
    assert green_troops(shaken_off=True, will_negates="both") == {"skills and IQ": 0, "Bullet Shyness and Buck Fever": "as usual"}
    g = pole_arm_grab_odds(13, 12, 10)
    assert g["grab works"] == success_chance(9) and g["grabber wins the turn"] + g["owner keeps it this turn"] + g["still struggling"] == 1


def test_morale_numbers_against_the_source():
    text = seed_text(SEED)
    for fact in ("-2 to Will if NOT firing back or moving", "all skills and IQ are at -2", "Fright Check at -4",
                 "Fright Check at +2, unless they can fire back", "takes at least 10% casualties",
                 "Every extra 10% casualties will give -1", "A Good reaction or better", "A Very Poor reaction", "fight to the death",
                 "Player characters or important NPCs don't use the rules"):
        assert fact in text, fact
    assert "Very Poor" not in REACTION_LEVELS  # hence the reading


def test_morale_readings_both_ways():
    assert morale_result("Bad") == "rout or surrender" and morale_result("Bad", "very bad or worse") == "disengage or retreat in order"
    assert morale_modifier(15) == 0 and morale_modifier(15, first_10_counts=True) == -1
    assert morale_odds(casualties=15) == morale_odds(casualties=0)
    assert morale_odds(casualties=15, first_10_counts=True) == morale_odds(-1)
    assert TO_THE_DEATH in morale_odds(fanatic=True) and "rout or surrender" not in morale_odds(fanatic=True)


@given(st.integers(-10, 10), st.integers(0, 100), st.sampled_from(["bad or worse", "very bad or worse"]), st.booleans(), st.booleans())
@settings(max_examples=60)
def test_morale_odds_add_up_and_losses_never_help(mod, casualties, very_poor, fanatic, first):
    odds = morale_odds(mod, casualties, very_poor, fanatic, first)
    assert sum(odds.values()) == 1
    if casualties < 100:
        assert morale_odds(mod, casualties + 1, very_poor, fanatic, first)["fight on"] <= odds["fight on"]


@given(st.integers(-10, 10), st.integers(0, 100), st.integers(0, 5000))
def test_a_morale_roll_matches_its_reaction_level(mod, casualties, seed):
    m = roll_morale(mod, casualties, random.Random(seed))
    assert m.total == m.dice.total + m.modifier and m.result == morale_result(m.level)
    assert morale_odds(mod, casualties)[m.result] > 0


def test_morale_checks_read_the_reaction_table_they_are_given():
    gm = reaction_bands([0, 2, 5, 8, 11, 15, 18])  # Good from 12, Bad up to 5
    assert morale_odds(casualties=25) == morale_odds(casualties=25, table=REACTION_TABLE)
    assert morale_odds(casualties=25)["fight on"] == Fraction(35, 216)  # 14 or more rolled
    assert morale_odds(casualties=25, table=gm)["fight on"] == Fraction(56, 216)  # 13 or more rolled
    assert morale_odds(casualties=25, table=gm)["rout or surrender"] == Fraction(20, 216)  # 6 or less rolled
    assert roll_morale(casualties=25, faces=[6, 4, 3]).result == "fall back, more cautious"
    assert roll_morale(casualties=25, faces=[6, 4, 3], table=gm).result == "fight on"
    with pytest.raises(InputError, match="table: band 5 must be 'Neutral'"):
        morale_odds(table=REACTION_TABLE[:4] + (("Calm", 10, 12),) + REACTION_TABLE[5:])
    with pytest.raises(InputError, match="table: "): roll_morale(table=REACTION_TABLE[1:])


def test_the_tie_switch_reaches_every_contest():
    sucker = "sucker punch: catch the foe partly by surprise when turning to violence"
    c = quick_contest_odds(12, 11)
    assert street_roll_odds(sucker, {"Tactics": 12}, foe=11)[1] == c["first wins"]
    assert street_roll_odds(sucker, {"Tactics": 12}, foe=11, ties="reroll")[1] == c["eventually"]
    e = evasion_odds(12, 11, 13, ties="reroll")
    assert e["evades"] == success_chance(12) * quick_contest_odds(16, 13)["eventually"] > evasion_odds(12, 11, 13)["evades"]
    c = quick_contest_odds(14, 10)
    assert exchange_odds("speed up", "prolong", 14, 10)[5] == c["tie"] / 6  # a tie stands: 1d6 seconds
    assert 5 not in exchange_odds("speed up", "prolong", 14, 10, ties="reroll")  # only halved (1-3) or doubled (even)
    g = pole_arm_grab_odds(12, 12, 10, ties="reroll")
    assert g["still struggling"] == 0 and g["grabber wins the turn"] == pole_arm_grab_odds(12, 12, 10)["grabber gets it in the end"]
    for call in (lambda: street_roll_odds(sucker, {"Tactics": 12}, foe=11, ties="win"), lambda: evasion_odds(12, 11, 13, ties=True),
                 lambda: exchange_odds("none", "none", ties="lose"), lambda: pole_arm_grab_odds(12, 12, 10, ties="win")):
        with pytest.raises(InputError, match="ties: must be"): call()


def test_fright_situations():
    assert {s for s, m in FRIGHT_SITUATIONS.items() if m is None} == {"under artillery fire again, can fire back",
                                                                       "formed, receiving a formed foot charge"}
    assert situation_fright_odds("first time under artillery fire", 14) == fright_check_odds(14, -4)
    assert stay_exposed_chance(12) == success_chance(12) and stay_exposed_chance(12, False) == success_chance(10)
    assert green_troops(never_under_fire=False)["skills and IQ"] == 0
    assert morale_check_due(superior_force=True) and not morale_check_due(casualties=5)


def test_street_fighting_against_the_source():
    text = seed_text(SEED)
    for fact in ("Make a Will roll to escalate", "Make a Will roll to walk away", "Roll a contest of Tactics, Streetwise, IQ, Body Language or Psychology",
                 "make a Will roll to avoid backing down", "Roll vs. Streetwise to detect", "Roll vs. Body Language, Psychology, Streetwise or Tactics",
                 "Roll vs. Psychology, Fast-Talk or Diplomacy", "Bottles, knives, clubs/bats, guns"):
        assert fact in text, fact
    assert [k for k, _ in STREET_ROLLS.values()].count("contest") == 1


@pytest.mark.parametrize("call, message", [
    (lambda: group_skill("12, 10"), "members: must be a list of whole numbers, got '12, 10'"),
    (lambda: group_skill([12]), "members: must list at least two skills"),
    (lambda: group_contest_odds(12, 8, tie="coin"), "tie: must be one of 'lose', 'win', 'reroll'"),
    (lambda: group_contest_odds(12.0, 8), "skill: must be a whole number"),
    (lambda: sheltering(3, cumulative="False"), "cumulative: must be True or False"),
    (lambda: teamwork_modifier(float("nan")), "modifier: must be a whole number"),
    (lambda: shield_wall([3, "2"], 4), "shield_pds: must be a list of whole numbers"),
    (lambda: morale_odds(casualties="10%"), "casualties: must be a number"),
    (lambda: morale_odds(fanatic="False"), "fanatic: must be True or False"),
    (lambda: morale_result("Very Poor"), "level: must be one of"),
    (lambda: situation_fright_odds("spiders", 12), "situation: must be one of"),
    (lambda: street_roll_odds("defuse a hostile situation", ["Diplomacy"]), "skills: must be a mapping of text to a whole number"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InputError, match=message): call()


def test_blocking_for_the_buddy_one_shelters_is_at_minus_4():
    "The sheltering rule: -4 to block for the sheltered buddy, -2 for himself; teamwork's -2 is for an ordinary team-mate."
    assert "at -4 to block skill to block you and -2 to block himself" in seed_text(SEED)
    from besm_nb.special.melee import melee_turn
    shelters = dict(shelter="sheltering a buddy", comrade_shield_pd=3)
    assert melee_turn(12, 8, "block", defending_mate=True, **shelters).defence == 4
    assert melee_turn(12, 8, "block", defending_mate=True, drilled=False, **shelters).defence == 4  # not teamwork: not doubled
    assert melee_turn(12, 8, "block", **shelters).defence == 6
    assert melee_turn(12, 8, "block", defending_mate=True).defence == 6  # an ordinary team-mate: teamwork's -2


def test_surrounded_defends_no_better_than_several_fronts():
    assert "You are at -2 to attack or defend against any opponent beyond the first" in seed_text(SEED)
    from besm_nb.special.melee import melee_turn
    fronts = melee_turn(13, 9, position="several fronts", first_foe=False)
    surrounded = melee_turn(13, 9, position="surrounded", first_foe=False)
    assert (fronts.attack, fronts.defence, surrounded.attack, surrounded.defence) == (11, 7, 9, 7)
    assert surrounded.defence <= fronts.defence and surrounded.attack < fronts.attack
    switch = melee_turn(13, 9, position="surrounded", first_foe=False, surrounded_keeps_fronts=False)
    assert (switch.attack, switch.defence) == (11, 9)
    assert melee_turn(13, 9, position="surrounded").defence == 9  # against the first foe: only the -2 to hit


def test_sheltering_and_shield_walls_need_a_medium_or_large_shield():
    text = seed_text(SEED)
    assert "must have a medium or large shield" in text and "equipped with Medium or Large shields may form a shield wall" in text
    from besm_nb.special.melee import melee_turn
    for call, message in ((lambda: sheltering(0), "shield_pd: a PD of 0 is no shield"),
                          (lambda: sheltering(3, shield="small"), "shield: sheltering needs a medium or large shield"),
                          (lambda: shield_wall([3, 0], 4), "shield_pds: a PD of 0 is no shield"),
                          (lambda: shield_wall([3, 3], 4, smallest="small"), "smallest: a shield wall needs a medium or large shield"),
                          (lambda: melee_turn(12, 8, shelter="behind a comrade", defensive=True), "comrade_shield_pd: a PD of 0 is no shield"),
                          (lambda: melee_turn(12, 8, wall="shieldman", shield="small"), "shield: a shield wall needs"),
                          (lambda: melee_turn(12, 8, wall="spearman behind shields", wall_shields=[3, 11]), "wall_shields: must be from 1 to 10")):
        with pytest.raises(InputError, match=message): call()
    assert melee_turn(12, 8, shelter="behind a comrade", defensive=True, comrade_shield_pd=3, shield="large").defence == 9


def test_the_readings_the_fourth_review_asked_to_state():
    "The pole arm's contest of ST: a quick contest settles 91% of turns between equals, a regular one half; green troops' -2 on a Parry."
    assert "Roll a contest of ST each turn" in seed_text(SEED)
    quick, regular = pole_arm_grab_odds(12, 10, 10), pole_arm_grab_odds(12, 10, 10, contest="regular")
    assert 1 - quick["still struggling"] == Fraction(3527, 3888) and 1 - regular["still struggling"] == Fraction(1, 2)
    assert regular["grabber gets it in the end"] == Fraction(1, 2)
    stronger = pole_arm_grab_odds(12, 13, 10, contest="regular", ties="reroll")
    a, b = success_chance(13), success_chance(10)
    assert stronger["grabber wins the turn"] == a * (1 - b) / (a * (1 - b) + (1 - a) * b) and stronger["still struggling"] == 0
    from besm_nb.special.melee import melee_turn
    assert [melee_turn(12, 8, "parry", green=True, green_defence=g).defence for g in ("full", "half")] == [6, 7]
    assert melee_turn(12, 8, "dodge", green=True, green_defence="full").defence == 8  # a Dodge is no skill


def test_street_rolls_take_a_character_sheet_not_a_million_skills():
    import time
    huge = {f"Skill {i}": 10 for i in range(1_000_000)}
    start = time.perf_counter()
    with pytest.raises(InputError, match="skills: must name at most 1,000 skills, got 1,000,000"):
        street_roll_odds("defuse a hostile situation", huge)
    assert time.perf_counter() - start < 0.5
    sheet = dict(list(huge.items())[:999]) | {"Diplomacy": 13}
    assert street_roll_odds("defuse a hostile situation", sheet) == ("Diplomacy", success_chance(13))
