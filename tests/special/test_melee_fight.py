"""A group melee of three turns played through the engine and checked, roll by roll, against a count made by hand from
the rules of seed 003 (the contest for position, fighting only the fumbler or the best, several fronts, surrounded kept,
confusion, a shield wall, teamwork, a grabbed pole arm's tug of war, a death with its Fright Checks and morale check)."""
import json

import pytest

from besm_nb.special.melee_fight import MeleeFight, MeleeRules, melee_from_dict
from besm_nb.special.rolls import success_odds

BASE = {"skill": 12, "tactics": 0, "iq": 10, "will": 10, "st": 10, "dx": 10, "dodge": 6, "parry": 6, "block": 0, "usual": "parry",
        "pd": 0, "shield": "none", "shield_pd": 0, "weapon": "hand weapon", "swing": False, "one_handed": False, "green": False,
        "reflexes": False, "speed": 5}


def melee(rules=None) -> MeleeFight:
    """Kara (Sword 14, Tactics 13, Parry 8, PD 2) and her shieldman Hild (Axe 12, large shield PD 3, Block 9) against three
    raiders: Ulf (Axe 12, Tactics 10), Sten (Spear 11, ST 11, a pole arm) and Bo (Club 10)."""
    m = MeleeFight(rules)
    m.do({"do": "side", "name": "Town", "drilled": True, "leadership": 0, "fanatic": False, "pcs": False})
    m.do({"do": "side", "name": "Raiders", "drilled": False, "leadership": 0, "fanatic": False, "pcs": False})
    for name, side, kw in (("Kara", "Town", dict(skill=14, tactics=13, parry=8, pd=2, speed=7)),
                           ("Hild", "Town", dict(skill=12, iq=11, shield="large", shield_pd=3, block=9, usual="block", pd=3, swing=True, speed=6)),
                           ("Ulf", "Raiders", dict(skill=12, tactics=10, speed=5)),
                           ("Sten", "Raiders", dict(skill=11, st=11, weapon="pole arm", one_handed=True, speed=4)),
                           ("Bo", "Raiders", dict(skill=10, dodge=7, usual="dodge", speed=3))):
        m.do({"do": "fighter", "name": name, "side": side, **(BASE | kw)})
    return m


def test_three_turns_against_a_hand_count():
    m = melee()
    assert m.order() == ["Kara", "Hild", "Ulf", "Sten", "Bo"]
    m.do({"do": "place", "fighter": "Hild", "place": "shieldman", "shelter": "none", "buddy": "", "mirrored": False})

    # Turn 1. Kara faces the three raiders: her 14 (Tactics 13 < Sword 14) against their poorest, Bo's 10, less 2: 8.
    mine, theirs, _ = m.contest_line("Kara", ["Ulf", "Sten", "Bo"])
    assert (mine.target, theirs.target) == (14, 8)
    # dice 11 (made by 3) and 9 (missed by 1): she wins by 4, so she fights their best, Ulf (Axe 12)
    m.do({"do": "contest", "fighter": "Kara", "foes": ["Ulf", "Sten", "Bo"], "first": "", "dice": [11, 9]})
    assert (m.fighters["Kara"].position, m.fighters["Kara"].first_foe) == ("one at a time", "Ulf")
    assert m.targets("Kara") == ["Ulf"] and m.targets("Sten") == ["Hild"] and m.targets("Bo") == ["Hild"]
    # her attack on Ulf at 14 (dice 10, made), Ulf parries at 6 (dice 7, missed): a hit
    m.do({"do": "act", "fighter": "Kara", "manoeuvre": "attack", "target": "Ulf", "dice": [10, 7]})
    assert m.log[-1][1].endswith("a hit on Ulf (damage is the GM's).")
    # Hild, a shieldman, swings at Bo: 12 - 2 = 10 (dice 10, made); Bo dodges at 7 (dice 6, made)
    assert [s.value for s in m.attack_line("Hild", "Bo").working] == [12, -2, 10]
    m.do({"do": "act", "fighter": "Hild", "manoeuvre": "attack", "target": "Bo", "dice": [10, 6]})
    assert "Bo is not hit" in m.log[-1][1]
    # Ulf attacks Kara at 12 (dice 9); she parries at 8 + 2 PD = 10 (dice 10, made)
    assert m.defence_line("Kara", "Ulf", "parry").target == 10
    m.do({"do": "act", "fighter": "Ulf", "manoeuvre": "attack", "target": "Kara", "dice": [9, 10]})
    assert "Kara is not hit" in m.log[-1][1]
    # Sten and Bo may not reach Kara (she fights only Ulf): Sten attacks Hild at 11 (dice 10), who may not Block in the wall:
    # he parries at 6 + 3 PD + 2 (the wall) = 11 (dice 13, missed)
    assert m.answers("Hild") == ["dodge", "parry", "none"]
    assert m.defence_line("Hild", "Sten", "parry").target == 11
    m.do({"do": "act", "fighter": "Sten", "manoeuvre": "attack", "target": "Hild", "answer": "parry", "dice": [10, 13]})
    assert "a hit on Hild" in m.log[-1][1]
    m.do({"do": "act", "fighter": "Bo", "manoeuvre": "all-out defence"})
    assert m.turn == 2 and m.log[-1][1] == "Turn 2 begins."

    # Turn 2. Kara again at 14 (she won): dice 17 (her critical failure at 14) against 8: surrounded, for good
    m.do({"do": "contest", "fighter": "Kara", "foes": ["Ulf", "Sten", "Bo"], "first": "Ulf", "dice": [17, 12]})
    k = m.fighters["Kara"]
    assert (k.position, k.surrounded, k.first_foe) == ("surrounded", True, "Ulf")
    # her second turn of attacks: confusion -1; surrounded: -2 to every attack; Sten is beyond the first: -2 more
    assert [s.value for s in m.attack_line("Kara", "Ulf").working] == [14, -2, -1, 11]
    assert [s.value for s in m.attack_line("Kara", "Sten").working] == [14, -2, -2, -1, 9]
    m.do({"do": "act", "fighter": "Kara", "manoeuvre": "attack", "target": "Sten", "answer": "none", "dice": [9]})
    assert "a hit (Sten does not defend" in m.log[-2][1] and m.log[-1][1] == "Kara: 2 turns in a row of nothing but attacks (confusion)."
    # her defence against Bo, beyond the first: Parry 8 + 2 PD - 2 (a foe beyond the first) - 1 (confusion 2) = 7
    assert [s.value for s in m.defence_line("Kara", "Bo", "parry").working] == [8, -2, -1, 2, 7]
    # Hild and Kara roll for group tactics (a drilled side: the better of their own and the group's average Tactics, 6): 11 and 13
    assert m.teamwork_line("Hild").target == 11
    m.do({"do": "teamwork", "fighter": "Hild", "dice": [8]}); m.do({"do": "teamwork", "fighter": "Kara", "dice": [13]})
    assert m.mates("Kara", "Bo") == ["Hild"]  # both made it: Hild 8 against 11, Kara 13 against her Tactics 13
    # Hild all-out defends; Ulf other; Sten is marked killed: Fright Checks due for Ulf and Bo, and a morale check (33%)
    m.do({"do": "act", "fighter": "Hild", "manoeuvre": "all-out defence"})
    m.do({"do": "act", "fighter": "Ulf", "manoeuvre": "other"})
    m.do({"do": "mark", "fighter": "Sten", "what": "killed"})
    assert m.due() == ["Raiders: a morale check (33% casualties)", "Ulf: a Fright Check (a member of the party or unit killed)",
                       "Bo: a Fright Check (a member of the party or unit killed)"]
    # Bo attacks Kara and Hild parries for her at 6 + 3 + 2 (wall) - 2 (teamwork) = 9; Bo's club at 10 (dice 8); Hild's parry dice 9: made
    assert m.defence_line("Hild", "Bo", "parry", "Kara").target == 9
    m.do({"do": "act", "fighter": "Bo", "manoeuvre": "attack", "target": "Kara", "answer": "parry", "defender": "Hild", "dice": [8, 9]})
    assert "Hild's parry for Kara: rolled 9 against 9, success: Kara is not hit." in m.log[-2][1]
    assert m.turn == 3

    # Turn 3. Surrounded still: her contest at 14 - 5 = 9, and every attack at -2 whatever the contest gives
    assert m.contest_line("Kara", ["Ulf", "Bo"])[0].target == 9
    m.do({"do": "contest", "fighter": "Kara", "foes": ["Ulf", "Bo"], "first": "", "dice": [5, 14]})  # by 4 against missed by 6: wins by 10
    assert (m.fighters["Kara"].position, m.fighters["Kara"].first_foe, m.fighters["Kara"].surrounded) == ("fumbler in front", "Bo", True)
    assert [s.value for s in m.attack_line("Kara", "Bo").working] == [14, -2, -2, 10]  # surrounded, confusion (third turn)
    assert m.exchange_odds("Kara", "Bo", "attack", "dodge")["attack succeeds"] == success_odds(10)["success"] + success_odds(10)["critical success"]
    # the raiders' morale: 3d6 9, casualties 33% (-2): 7, Poor: they disengage in order
    m.do({"do": "morale", "side": "Raiders", "superior": False, "leader_down": False, "modifier": 0, "dice": [9]})
    assert m.sides["Raiders"].morale == "disengage or retreat in order"
    saved = json.loads(json.dumps(m.to_dict()))
    assert melee_from_dict(saved).to_dict() == saved


def test_the_switches_of_the_melee_change_the_count():
    "Each reading of the melee page, both ways (the chapter's own tests do the same on other figures)."
    on = melee(MeleeRules(defensive_counts=True)); off = melee(MeleeRules(defensive_counts=False))
    for m in (on, off): m.do({"do": "act", "fighter": "Kara", "manoeuvre": "defensive attack", "target": "Ulf", "dice": [18]})
    assert (on.fighters["Kara"].confusion, off.fighters["Kara"].confusion) == (1, 0)
    assert melee(MeleeRules(group_roll="group")).teamwork_line("Hild").target == 6  # the group's average Tactics (13 + 0) // 2
    assert melee().teamwork_line("Hild").target == 11


@pytest.mark.parametrize("step, says", [
    ({"do": "act", "fighter": "Hild", "manoeuvre": "other"}, "it is Kara's turn, not Hild's"),
    ({"do": "contest", "fighter": "Kara", "foes": ["Ulf", "Ulf"], "first": ""}, "foes: names one foe twice"),
    ({"do": "contest", "fighter": "Kara", "foes": ["Ulf", "Hild"], "first": ""}, "foes: Hild is on Kara's own side"),
    ({"do": "act", "fighter": "Kara", "manoeuvre": "attack", "target": "Hild"}, "target: Hild is on Kara's own side"),
    ({"do": "act", "fighter": "Kara", "manoeuvre": "tug"}, "Kara cannot make a tug now"),
    ({"do": "act", "fighter": "Kara", "manoeuvre": "attack", "target": "Ulf", "answer": "block"}, "Ulf cannot block here"),
    ({"do": "place", "fighter": "Kara", "place": "shieldman", "shelter": "none", "buddy": "", "mirrored": False}, "needs a medium or large shield"),
    ({"do": "place", "fighter": "Kara", "place": "none", "shelter": "sheltered by a buddy", "buddy": "Ulf", "mirrored": False}, "Ulf is not a comrade"),
    ({"do": "morale", "side": "Raiders", "superior": False, "leader_down": False, "modifier": 0}, "no morale check is due"),
    ({"do": "fighter", "name": "Kara", "side": "Elves", **{k: v for k, v in BASE.items()}}, "no side called 'Elves'"),
    ({"do": "act", "fighter": "Kara", "manoeuvre": "attack", "target": "Ulf", "dice": [10, 7, 3]}, "1 more totals than this step rolls"),
])
def test_illegal_steps_are_refused_and_change_nothing(step, says):
    m = melee()
    before = m.to_dict()
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        m.do(step)
    assert m.to_dict() == before
