"""Encounters (seed 004): every worked example and table of the source, both readings of each contradiction, and exact odds by enumeration."""
import itertools
import re
from fractions import Fraction

import pytest

from besm_nb.encounters import DICE, SOURCE
from besm_nb.encounters.actions import (ROUND_SECONDS, can_interrupt, defence_actions, divide_skills, first_odds, initiative_odds,
                                        initiative_total, recovers, round_zero, turn_order, waiting_game)
from besm_nb.encounters.exertion import StaminaRecord, exertion_cost, push_cost, pushed, pushing_cost
from besm_nb.encounters.movement import (CHARGE_RULE, MOUNT_SPEEDS, YARDS_PER_MOVE, charge_damage, charge_damage_odds, long_jump,
                                         melee_rating, movement_actions, unencumbered)
from besm_nb.encounters.planner import plan_round
from besm_nb.encounters.ranges import BANDS, INCREMENTS, band_edges, range_increment, range_penalty
from tests.helpers import seed_text

SEED_NAME = "004_f60d15258c3531be.txt"


def test_the_wing_names_its_source():
    import besm_nb.encounters as wing
    assert SOURCE == SEED_NAME and SOURCE in wing.__doc__ and "2d6" in DICE


# -- the source's own numbers, found in its text ----------------------------------------------------------------
def test_range_table_against_the_seed_text():
    text = seed_text(SEED_NAME)
    block = text[text.index("Range Penalties"):text.index("The meanings of each range")]
    assert [(n, int(c)) for n, c in re.findall(r"^(point blank|short|medium|long|extreme)\s+(\d+)\s*$", block, re.M)] == list(BANDS)


def test_range_increments_against_the_seed_text():
    text = seed_text(SEED_NAME)
    block = text[text.index("attack type"):text.index("For example, a heavy crossbow")]
    block += text[text.index("sense                   range"):text.index("* The range limitation")]
    rows = dict(re.findall(r"^(thrown weapons|short bow|light crossbow|long bow|heavy crossbow|Talamu|Amelatu|Nekelmu|Mahasu|"
                           r"Sabatu|Seheru|smell|hearing|vision|Nabu)\s+(.+?)\s*\*?$", block, re.M))
    assert len(rows) == 15
    for name, (_, base, attribute) in INCREMENTS.items():
        printed = rows["thrown weapons" if name == "thrown weapon" else name]
        want = " + ".join(([str(base)] if base else []) + ([attribute] if attribute else []))
        assert printed == want, name


def test_the_heavy_crossbow_example():
    text = seed_text(SEED_NAME)
    assert "Less than 40 yards from a target is point blank range, from 40 to 79 yards is short range, from 80 to 119" in text
    assert band_edges(range_increment("heavy crossbow")) == [("point blank", 0, 39), ("short", 40, 79), ("medium", 80, 119),
                                                             ("long", 120, 159), ("extreme", 160, None)]
    assert [range_penalty("heavy crossbow", d).band for d in (39, 40, 79, 80, 119, 120, 159, 160)] == \
        ["point blank", "short", "short", "medium", "medium", "long", "long", "extreme"]


def test_bob_the_fighter():
    text = seed_text(SEED_NAME)
    assert "Striking skill of 5 and a Defense skill of 6" in text and "his Striking becomes 2, and his defense becomes 3" in text
    assert "divided by three to become 1 and 2" in text
    assert divide_skills({"Striking": 5, "Defense": 6}, 2) == {"Striking": 2, "Defense": 3}
    assert divide_skills({"Striking": 5, "Defense": 6}, 3) == {"Striking": 1, "Defense": 2}
    runs = plan_round(3, 1, {"Striking": 5, "Defense": 6}, attacks=1, defences=1, run_yards=15)
    assert (runs.majors, runs.skills) == (3, {"Striking": (5, 1), "Defense": (6, 2)})


def test_fred_the_swift():
    text = seed_text(SEED_NAME)
    assert "four major actions for the round, the maximum possible for his Dex of 4" in text
    fred = plan_round(4, 1, {"Striking": 12}, attacks=1, stand=True, run_yards=16, leaps=1)
    assert (fred.majors, fred.allowed, fred.movement.moves, fred.movement.counted) == (4, True, 4, 3)
    assert fred.skills["Striking"] == (12, 3)
    assert not plan_round(3, 1, attacks=1, stand=True, run_yards=16, leaps=1).allowed  # Dex 3 is one short


def test_the_knight_and_the_pikeman():
    text = seed_text(SEED_NAME)
    for phrase in ("His lance does 11 damage (7 for the lance + 4 for Strength)", "giving him a damage of 66",
                   "moved 40 yards on horseback", "for a total of 106", "damage of 12 (2 for Strength, 10 for the pike)",
                   "damage roll of 60", "final damage of 100"):
        assert phrase in text, phrase
    lance, pike = melee_rating(7, 4), melee_rating(10, 2)
    assert (lance, pike) == (11, 12)
    assert [charge_damage(lance, 6).total, charge_damage(lance, 6, 40).total] == [66, 106]
    assert [charge_damage(pike, 5).total, charge_damage(pike, 5, 40).total] == [60, 100]
    assert charge_damage(lance, 6, 40, charging_rule=False).total == 66  # the rule is optional
    assert movement_actions(ride_yards=40, mount_speed=60).counted == 0  # his ride is a single (free) move


def test_charge_working_names_the_charging_rule_not_an_example():
    for rating, die in ((melee_rating(7, 4), 6), (melee_rating(10, 2), 5)):  # the knight's lance and the pikeman's pike
        for on in (True, False):
            steps = charge_damage(rating, die, 40, charging_rule=on).working
            assert steps[0].what == f"Rating {rating} × die {die}" and steps[0].rule == CHARGE_RULE
            assert all("example" not in s.rule for s in steps)


def test_the_door_and_the_portal_both_readings():
    text = seed_text(SEED_NAME)
    assert text.count("At the end of four rounds of exertion, he is down 20 Stamina") == 2
    assert "could push his strength to eight for four points of stamina, but could not push his strength to nine" in text
    assert pushed(4, 4) == 8 and push_cost(4, 8) == 4
    with pytest.raises(ValueError, match="target: Strength 4 can be pushed to at most double, 8, got 9"): push_cost(4, 9)
    assert pushed(5, 5) == 10 and pushed(5, 5, "willpower") == 10
    assert pushing_cost(5, 4) == 20  # the examples, which leave exertion out
    assert pushing_cost(5, 4, exertion=True) == 24  # with the optional exertion rule
    for stat in ("strength", "willpower"):
        for exertion, down in ((False, 20), (True, 24)):
            r = StaminaRecord(exertion=exertion)
            r.add("Hero", 5, 5, 50)
            for _ in range(4): r.push("Hero", stat, 5); r.end_round()
            assert 50 - r.fighter("Hero").stamina == down


def test_exertion_costs():
    assert [exertion_cost(True, False), exertion_cost(True, True), exertion_cost(False, True)] == [1, 2, 0]


def test_horses_and_jumps_and_encumbrance():
    assert MOUNT_SPEEDS == {"good horse": (60, 90), "amazing horse": (120, 120)} and YARDS_PER_MOVE == 10
    assert long_jump(3) == 3 and long_jump(3, running=True) == 6
    assert unencumbered(9, 100) and not unencumbered(10, 100)
    assert ROUND_SECONDS == 6


def test_chuck_and_mace_and_the_waiting_game():
    chuck, mace = initiative_total(4, 10), initiative_total(3, 8)  # Chuck wins the initiative
    assert chuck > mace and can_interrupt(chuck, mace) and not can_interrupt(mace, chuck)
    assert waiting_game(["Chuck", "Mace"], ["Chuck", "Mace"]) and not waiting_game(["Chuck"], ["Chuck", "Mace"])
    order = turn_order({"Ann": 70}, first=["Chuck", "Mace"], previous={"Chuck": chuck, "Mace": mace})
    assert [n for _, n, _ in order] == ["Chuck", "Mace", "Ann"]  # the standoff goes before those who acted
    assert round_zero(["Assassin"], ["Guard"], surprise=True)["Guard"].startswith("taken by surprise: no actions at all")
    assert recovers(False, False) and not recovers(False, True) and not recovers(True, False)


def test_defences_each_or_once():
    assert [defence_actions(3, "each"), defence_actions(3, "once")] == [3, 1]
    assert plan_round(4, 2, {"Defense": 6}, defences=3).skills["Defense"] == (6, 2)
    assert plan_round(4, 2, {"Defense": 6}, defences=3, defence_rule="once").skills["Defense"] == (6, 6)


# -- exact odds, checked by enumerating the 36 rolls of 2d6 --------------------------------------------------------
@pytest.mark.parametrize("reading", ["multiply", "add"])
@pytest.mark.parametrize("initiative,modifier", [(1, 0), (3, 0), (5, -4), (12, 7)])
def test_initiative_odds_by_enumeration(initiative, modifier, reading):
    counts = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        t = initiative_total(initiative, a + b, modifier, reading)
        counts[t] = counts.get(t, 0) + 1
    assert initiative_odds(initiative, modifier, reading) == {t: Fraction(n, 36) for t, n in counts.items()}


@pytest.mark.parametrize("reading", ["multiply", "add"])
def test_who_goes_first_by_enumeration(reading):
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    first = sum(initiative_total(5, x, 0, reading) > initiative_total(3, y, 0, reading) for x in rolls for y in rolls)
    tie = sum(initiative_total(5, x, 0, reading) == initiative_total(3, y, 0, reading) for x in rolls for y in rolls)
    assert first_odds(5, 3, reading=reading) == {"first": Fraction(first, 1296), "tie": Fraction(tie, 1296),
                                                 "second": Fraction(1296 - first - tie, 1296)}


def test_the_two_initiative_readings_differ():
    assert first_odds(5, 3)["first"] == Fraction(133, 162) and first_odds(5, 3, reading="add")["first"] == Fraction(287, 432)


def test_charge_odds_by_enumeration():
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    want = {}
    for r in rolls: want[11 * r + 40] = want.get(11 * r + 40, 0) + 1
    assert charge_damage_odds(11, "2d6", 40) == {k: Fraction(n, 36) for k, n in sorted(want.items())}


# -- recovery: only after a round of no action at all ----------------------------------------------------------------
def test_recovery_needs_no_action_at_all():
    text = seed_text(SEED_NAME)
    assert "Any character who has taken no actions during the round may recover some Stamina" in text
    assert "Falling to a prone position on the ground is a free action." in text  # free, yet an action
    assert plan_round(3, 3).rests
    for busy in ({"minor": 1}, {"run_yards": 10}, {"run_yards": 2}, {"stand": True}, {"ride_yards": 40},
                 {"drop_prone": True}, {"mounts": 1}, {"attacks": 1}, {"defences": 1}):
        plan = plan_round(3, 3, **busy)
        assert not plan.rests and not any(n.startswith("No action at all") for n in plan.notes), busy
        assert any("no Stamina recovery this round" in n for n in plan.notes) or plan.majors, busy
    # the record: a minor action costs the rest but no exertion; an effort costs both; doing nothing rests
    r = StaminaRecord(exertion=True, recovery=2)
    for name in ("Ann", "Bo", "Cy"): r.add(name, 3, 3, 20, stamina=10)
    r.act("Ann", effort=False); r.act("Bo"); r.end_round()
    assert [r.fighter(n).stamina for n in ("Ann", "Bo", "Cy")] == [10, 9, 12]


# -- a few paces (reading): a minor action, or movement counted by the ten yards -------------------------------------
def test_a_few_paces_both_readings():
    text = seed_text(SEED_NAME)
    assert "such as moving a few paces or drawing a weapon" in text and "darting a few yards" in text
    assert "one for every ten yards or fraction thereof" in text and "Moving ten yards on foot" in text
    from besm_nb.encounters.movement import PACES_READINGS, STEP_YARDS
    assert set(PACES_READINGS) == {"minor", "counted"} and STEP_YARDS == 3
    minor = [movement_actions(run_yards=y) for y in range(0, 5)]
    assert [(m.moves, m.minor) for m in minor] == [(0, 0), (0, 1), (0, 1), (0, 1), (1, 0)]
    counted = [movement_actions(run_yards=y, paces="counted") for y in range(0, 5)]
    assert [(m.moves, m.minor) for m in counted] == [(0, 0), (1, 0), (1, 0), (1, 0), (1, 0)]
    # where they differ: a step beside another move; where they agree: the chapter's own runs
    assert [plan_round(3, 3, stand=True, run_yards=3, paces=p).majors for p in ("minor", "counted")] == [0, 1]
    assert [plan_round(3, 3, leaps=1, run_yards=1, paces=p).majors for p in ("minor", "counted")] == [0, 1]
    for p in ("minor", "counted"):
        assert plan_round(4, 1, {"Striking": 12}, attacks=1, stand=True, run_yards=16, leaps=1, paces=p).majors == 4  # Fred
        assert plan_round(3, 1, attacks=1, defences=1, run_yards=15, paces=p).majors == 3  # Bob


# -- dropping prone (reading): free; apart from the free move, or the free move itself --------------------------------
def test_dropping_prone_both_readings():
    text = seed_text(SEED_NAME)
    assert "A character gets one free movement action per round." in text
    from besm_nb.encounters.movement import PRONE_READINGS
    assert set(PRONE_READINGS) == {"apart", "free_move"}
    for p in ("apart", "free_move"):
        assert movement_actions(drop_prone=True, prone=p).counted == 0  # never a major action by itself
        assert plan_round(1, 1, drop_prone=True, prone=p).allowed
    assert [movement_actions(drop_prone=True, run_yards=10, prone=p).counted for p in ("apart", "free_move")] == [0, 1]
    assert [movement_actions(drop_prone=True, stand=True, leaps=1, prone=p).counted for p in ("apart", "free_move")] == [1, 2]
    assert [plan_round(2, 1, drop_prone=True, run_yards=20, prone=p).majors for p in ("apart", "free_move")] == [1, 2]
