"""Tri-Stat (001): the rules the review found the engine allowing or leaving out, each failing before its fix."""
import json
import random
from dataclasses import replace
from fractions import Fraction
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import InputError
from besm_nb.tristat.combat import Counter, health_lost_odds
from besm_nb.tristat.round import (Action, Attack, AttackPlan, Combatant, DiceFeed, Fight, Response, action_kinds, can_act,
                                   fight_act, fight_from_dict, fight_to_dict, resolve_round, roll_initiative)

INITS = {"Jadeite": 14, "Sailor Moon": 7, "Mercury": 9, "Mars": 9, "Tuxedo Mask": 12}


def senshi(**changes):
    out = {
        "Jadeite": Combatant("Jadeite", acv=8, dcv=6, health=40, energy=50, attacks=(Attack("Dark Energy", 60),)),
        "Sailor Moon": Combatant("Sailor Moon", acv=6, dcv=5, health=40, energy=50, attacks=(Attack("Moon Tiara", 30),)),
        "Mercury": Combatant("Mercury", acv=6, dcv=4, health=40, energy=50, attacks=(Attack("Bubble Spray", 15),), shield=10),
        "Mars": Combatant("Mars", acv=7, dcv=5, health=40, energy=50, attacks=(Attack("Fire Soul", 15),)),
        "Tuxedo Mask": Combatant("Tuxedo Mask", acv=7, dcv=5, health=40, energy=50, attacks=(Attack("Rose Strike", 15, adds_acv=False),)),
    }
    for name, kw in changes.items(): out[name] = replace(out[name], **kw)
    return out


def attack(who, what, *targets, answers=(), **kw):
    return Action(who, attack=AttackPlan(who, what, tuple(targets), responses={targets[0]: tuple(answers)} if answers else {}, **kw))


def play(fighters, actions, totals, inits=INITS, **kw):
    return resolve_round(fighters, actions, inits, DiceFeed(totals=list(totals)), **kw)


# 1. the dead and the unconscious take no actions and answer nothing
def test_the_dead_do_not_attack():
    with pytest.raises(InputError, match="Tuxedo Mask is dead: she cannot act"):
        play(senshi(**{"Tuxedo Mask": dict(health=10)}), [attack("Jadeite", "Dark Energy", "Tuxedo Mask"),
                                                           attack("Tuxedo Mask", "Rose Strike", "Jadeite")], [5, 7])


def test_the_unconscious_do_not_cover_and_nobody_waits_for_the_dead():
    with pytest.raises(InputError, match="Mercury is unconscious: she cannot answer with a cover"):
        play(senshi(Mercury=dict(energy=-1)), [attack("Jadeite", "Dark Energy", "Mars", answers=[Response("Mercury", "cover")])], [5])
    dead = senshi(**{"Tuxedo Mask": dict(health=-1)})
    inits, log = roll_initiative(dead, DiceFeed(totals=[6, 1, 3, 2]))
    assert "Tuxedo Mask" not in inits and log[-2].text == "Tuxedo Mask is dead: no initiative, no phase."
    after, _ = play(dead, [attack("Jadeite", "Dark Energy", "Mars"), Action("Mercury", "non-combat")], [12], inits)  # Mercury need not wait
    assert can_act(dead, [], inits, DiceFeed(totals=[]))["out"] == ["Tuxedo Mask"]


def test_a_dying_character_may_only_buy_her_own_health():
    dying = senshi(Mars=dict(health=-5))
    after, _ = play(dying, [Action("Mars", "energy", to="Mars", health=2)], [], health_reading="dying")
    assert after["Mars"].health == -3
    with pytest.raises(InputError, match="Mars is dying: she cannot spend Energy except on her own Health"):
        play(dying, [Action("Mars", "energy", to="Mercury", health=2)], [], health_reading="dying")


# 2. the pinned may not attack or defend
@pytest.mark.parametrize("kind", ["counterattack", "cover", "dodge"])
def test_a_pinned_fighter_gives_no_answer(kind):
    held = senshi(Mars=dict(conditions=("grabbed by Jadeite", "pinned by Jadeite")), Jadeite=dict(conditions=("grabbing Mars",)))
    target = "Mars" if kind == "dodge" else "Sailor Moon"
    with pytest.raises(InputError, match=f"Mars is pinned: she cannot {'dodge' if kind == 'dodge' else 'answer with a ' + kind}"):
        play(held, [attack("Jadeite", "Dark Energy", target, answers=[Response("Mars", kind)])], [5, 5])
    assert action_kinds(held["Mars"]) == ["hold", "non-combat", "escape"]


# 3. the grab's penalty on counterattacks, and +4 on dodges with a weapon
def test_held_counterattack_and_armed_dodge():
    held = senshi(Mars=dict(conditions=("grabbed by Jadeite",)), Jadeite=dict(conditions=("grabbing Mars",), body=6))
    _, log = play(held, [attack("Jadeite", "Dark Energy", "Sailor Moon", answers=[Response("Mars", "counterattack")])], [5, 7])
    assert [e.text for e in log if e.who == "Mars" and e.kind == "roll"] == ["Mars rolls 7 +2 on 2d6 for counterattack (Fire Soul) against 7: failure."]
    armed = dict(held); armed["Mars"] = replace(held["Mars"], attacks=held["Mars"].attacks + (Attack("Katana", 10, ranged=False, weapon=True),))
    _, log = play(armed, [attack("Jadeite", "Dark Energy", "Mars", answers=[Response("Mars", "dodge")])], [5, 6])
    assert [e.text for e in log if e.who == "Mars" and e.kind == "roll"] == ["Mars rolls 6 +4 on 2d6 for dodge against 5: failure."]


# 4. a held action comes after another's phase
def test_a_held_action_waits_for_another_phase():
    with pytest.raises(InputError, match="Jadeite is holding: she acts once another combatant has completed her phase"):
        play(senshi(), [Action("Jadeite", "hold"), attack("Jadeite", "Dark Energy", "Mars")], [5])
    after, _ = play(senshi(), [Action("Jadeite", "hold"), Action("Tuxedo Mask", "non-combat"), attack("Jadeite", "Dark Energy", "Mars")], [5])
    assert after["Mars"].health == 40 - 68


# 5. counterattacks are ranged
def test_a_hand_to_hand_attack_does_not_counterattack():
    kick = senshi(Mars=dict(attacks=(Attack("Fire Kick", 15, ranged=False),)))
    with pytest.raises(InputError, match="Mars has no ranged attack to counterattack with"):
        play(kick, [attack("Jadeite", "Dark Energy", "Sailor Moon", answers=[Response("Mars", "counterattack")])], [5, 5])


# 6. grabs take a modifier
def test_the_grab_modifier_changes_the_contest():
    g = senshi(Jadeite=dict(wrestling=2))
    assert play(g, [Action("Jadeite", "grab", to="Mars")], [11, 5])[0]["Mars"].conditions == ()
    assert play(g, [Action("Jadeite", "grab", to="Mars", modifier=-2)], [11, 5])[0]["Mars"].conditions == ("grabbed by Jadeite",)


# 7. controlling mental attacks take no Health
def test_mind_control_takes_no_health():
    pd = senshi(**{"Sailor Moon": dict(mind=3)})
    pd["Prince Diamond"] = Combatant("Prince Diamond", 5, 5, 40, 50, mind=7, attacks=(Attack("Mind Control", 0, mental=True, controls=True),))
    after, _ = play(pd, [attack("Prince Diamond", "Mind Control", "Sailor Moon", answers=[Response("Sailor Moon", "dodge")])], [7, 4],
                    {n: 1 for n in pd})
    assert after["Sailor Moon"].health == 40 and after["Sailor Moon"].conditions == ("under Prince Diamond's Mind Control",)
    pd["Prince Diamond"] = replace(pd["Prince Diamond"], attacks=(Attack("Mind Blast", 10, mental=True),))  # a damaging one still hurts
    after, _ = play(pd, [attack("Prince Diamond", "Mind Blast", "Sailor Moon")], [7], {n: 1 for n in pd})
    assert after["Sailor Moon"].health == 40 - 17


# 8. every switch in the fight; two counterattacks in the odds; a vital-spot counterattack doubles
def test_the_fight_keeps_its_readings_and_they_reach_the_round():
    f = Fight(senshi(), initiatives=dict(INITS), critical_multiplier=2)
    f, _ = fight_act(f, attack("Jadeite", "Dark Energy", "Mars"), DiceFeed(totals=[2]))
    assert f.now()[0]["Mars"].health == 40 - 136  # a natural 2, doubled
    assert fight_from_dict(json.loads(json.dumps(fight_to_dict(f)))).critical_multiplier == 2


def test_two_counterattacks_in_the_odds_match_enumeration():
    odds = health_lost_odds(60, 8, counter_power=15, counter_acv=7, counters=[Counter(30, 6)])
    ok = lambda r, t: r == 2 or (r != 12 and r <= t)
    brute = {}
    for a, m, s in itertools.product(range(2, 13), repeat=3):
        p = Fraction((6 - abs(a - 7)) * (6 - abs(m - 7)) * (6 - abs(s - 7)), 36 ** 3)
        left = 68 if ok(a, 8) else 0
        for roll, total, acv in ((m, 22, 7), (s, 36, 6)):
            if left and ok(roll, acv): left = left - total if left > total else 0
        brute[left] = brute.get(left, 0) + p
    assert odds == dict(sorted(brute.items()))


def test_a_vital_spot_counterattack_doubles():
    after, _ = play(senshi(), [attack("Jadeite", "Dark Energy", "Sailor Moon", answers=[
        Response("Sailor Moon", "counterattack", modifiers=("Targeting a vital spot",))])], [5, 2])
    assert (after["Jadeite"].health, after["Sailor Moon"].health) == (40 - 4, 40)  # 72 against 68


# 9. one defence action; total defence forbids the attack
def test_cover_is_one_defence_and_total_defence_spends_the_attack():
    yo = senshi(Mercury=dict(health=200))
    yo["Youma"] = Combatant("Youma", 8, 3, 30, 20, attacks=(Attack("Claw", 20, ranged=False),))
    inits = INITS | {"Youma": 13}
    with pytest.raises(InputError, match="Mercury has already covered this round"):
        play(yo, [attack("Jadeite", "Dark Energy", "Mars", answers=[Response("Mercury", "cover")]),
                  attack("Youma", "Claw", "Sailor Moon", answers=[Response("Mercury", "cover")])], [5, 5], inits)
    with pytest.raises(InputError, match="Mercury is on total defence this round: no Bubble Spray"):
        play(yo, [attack("Jadeite", "Dark Energy", "Mercury", answers=[Response("Mercury", "dodge", modifiers=("Total defence",))]),
                  Action("Youma", "non-combat"), Action("Tuxedo Mask", "non-combat"), attack("Mercury", "Bubble Spray", "Jadeite")],
             [5, 3, 5], inits)


# inputs: switches, numbers, saves, boosts
def test_bad_inputs_are_refused_by_name():
    with pytest.raises(InputError, match="attack_modifier"): health_lost_odds(60, 8, attack_modifier=float("nan"))
    with pytest.raises(InputError, match="dodge: must be True or False"): health_lost_odds(60, 8, dodge="False")
    with pytest.raises(InputError, match="Mind is already 40, the most this engine holds"):
        play(senshi(Mercury=dict(mind=40)), [Action("Mercury", "boost", to="mind")], [])
    data = fight_to_dict(Fight(senshi()))
    data["fighters"][0]["acv"] = 8.5
    with pytest.raises(InputError, match=r"fighters\[0\].acv: must be a whole number"): fight_from_dict(data)


@given(st.integers(0, 2 ** 32))
@settings(max_examples=40, deadline=None)
def test_nobody_out_of_the_fight_ever_acts(seed):
    "Random rounds: once someone is dead, no later line of the log has her roll or pay."
    rng = random.Random(seed)
    fighters = senshi(**{n: dict(health=rng.randint(1, 40), energy=rng.randint(0, 30)) for n in INITS})
    actions = []
    for n in sorted(INITS, key=INITS.get, reverse=True):
        target = rng.choice([t for t in INITS if t != n])
        actions.append(Action(n, attack=AttackPlan(n, fighters[n].attacks[0].name, (target,), energy=rng.randint(0, 10))))
    for i in range(len(actions), -1, -1):  # the longest prefix the engine accepts
        try:
            after, log = resolve_round(fighters, actions[:i], INITS, DiceFeed(random.Random(seed)), allow_overspend=True)
            break
        except InputError:
            continue
    out = set()
    for e in log:
        if e.kind in ("roll", "energy") and e.who in out: raise AssertionError(f"{e.who} acted out of the fight: {e.text}")
        if e.kind == "state" and e.text.endswith(" is dead."): out.add(e.who)
