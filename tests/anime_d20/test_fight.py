"""The Anime d20 fight engine: a scripted three-round fight against a hand count, the odds shown before each attack against
every dice sequence played through the engine, the rules it enforces, bad input, saves checked field by field and by replay,
and the time a long save takes to load."""
import json
import random
import re
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.dice import DiceFeed, dist
from besm_nb.anime_d20.fight import (MAX_ACTIONS, Aim, Answer, Attack, ClearCondition, Delay, EndRound, EndTurn, Escape, FatePoint, Fighter, FightRules,
                                     FirstAid, Grapple, Harm, Heal, Initiative, MindAttack, MindContact, NonCombat, SecondWind, SetCondition,
                                     Setup, TotalDefence, Weapon, attack_preview, fight_act, fight_from_dict, fight_to_dict, grapple_preview,
                                     legal_actions, legal_answers, legal_targets, load_fight, next_die, refusal, save_fight, standings,
                                     start_fight, who_may_act)
from besm_nb.anime_d20.modifiers import resolve_attack
from besm_nb.store import save_json

AIKO = Fighter("Aiko", "heroes", initiative=3, dexterity=16, ac=14, defence=4, hp=20,
               weapons=(Weapon("katana", 6, "1d10+2", breaks_skin=True), Weapon("pistol", 5, "2d6", kind="ranged")))
ONI = Fighter("Oni", "foes", foe=True, initiative=1, dexterity=10, ac=12, defence=2, hp=24, armour=2,
              weapons=(Weapon("club", 4, "1d8+3", blunt=True),), strength=18, strength_modifier=4, constitution=16, grappling=6, grapple_check=5)
REI = Fighter("Rei", "heroes", initiative=2, dexterity=14, ac=13, defence=3, hp=12, weapons=(Weapon("staff", 4, "1d6+1"),), grapple_check=1)


def play(fight, action, *dice):
    return fight_act(fight, action, DiceFeed(totals=list(dice)))


def hp(fight, name):
    return next(s.hp for s in standings(fight) if s.name == name)


# ---- a scripted fight of three rounds, counted by hand ----

def test_three_rounds_against_a_hand_count():
    f = start_fight(Setup((AIKO, ONI, REI), FightRules(wound_penalties=True)))
    # Round 1. Initiative: Aiko 15 + 3 = 18, Oni 12 + 1 = 13, Rei 10 + 2 = 12.
    f = play(f, Initiative(), 15, 12, 10)
    assert f.state.order == (("Aiko",), ("Oni",), ("Rei",))
    # Aiko's katana: 14 + 6 = 20 reaches AC 12; Oni dodges, 3 + 2 = 5, no better: 1d10+2 rolls 7, less armour 2 = 5. Oni 24 → 19.
    f = play(f, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), 14, 3, 7)
    assert hp(f, "Oni") == 19
    # Oni grabs Rei: 15 + 6 = 21 against AC 13; Rei dodges, 4 + 3 = 7: held.
    f = play(f, Grapple("Oni", "grab", "Rei", Answer("Rei")), 15, 4)
    assert [s.conditions for s in standings(f)] == [(), ("holding Rei",), ("grappled by Oni",)]
    # Rei struggles: 3 + 1 = 4 against DC 10 (Minor Failure); Oni 15 + 5 = 20 (Extreme Success): still held, her action gone.
    f = play(f, Escape("Rei"), 3, 15)
    assert f.log[-1] == "Rei stays held, and her action is gone."
    f = play(f, EndRound())
    # Round 2. Aiko rolls a natural 20: a critical, no defence; 2d10+2 rolls 15, less 2 = 13. Oni 19 → 6 (a quarter: −6 on her checks).
    f = play(f, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), 20, 15)
    assert hp(f, "Oni") == 6 and next(s.penalty for s in standings(f) if s.name == "Oni") == -6
    # Oni clubs Rei at 4 − 6 = −2: 18 − 2 = 16 reaches AC 13; Rei's first defence this round, 16 + 3 = 19: defended.
    f = play(f, Attack("Oni", "club", ("Rei",), (Answer("Rei"),)), 18, 16)
    assert hp(f, "Rei") == 12 and "defended" in f.log[-1]
    # Rei, held (−4 on a melee attack), strikes at 4 − 4 = 0: 16 reaches 12; Oni defends at 2 − 6 = −4: 2 − 4 = −2. 1d6+1 rolls 5, less 2 = 3.
    preview = attack_preview(f, Attack("Rei", "staff", ("Oni",), (Answer("Oni"),)))[0]
    assert (preview.resolution.attack_bonus, preview.resolution.defence_bonus) == (0, -4)
    f = play(f, Attack("Rei", "staff", ("Oni",), (Answer("Oni"),)), 16, 2, 5)
    assert hp(f, "Oni") == 3 and next(s.conditions for s in standings(f) if s.name == "Rei") == ("grappled by Oni",)  # 3 < Constitution 16
    f = play(f, EndRound())
    # Round 3. Aiko: 12 + 6 = 18; Oni's defence 9 − 4 = 5; 1d10+2 rolls 8, less 2 = 6. Oni 3 → −3: unconscious, and she lets go.
    f = play(f, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), 12, 9, 8)
    assert hp(f, "Oni") == -3
    oni = next(s for s in standings(f) if s.name == "Oni")
    assert (oni.out, oni.conditions) == ("unconscious", ())
    assert next(s.conditions for s in standings(f) if s.name == "Rei") == ()
    assert who_may_act(f) == ("Rei",)  # Oni's Initiative passes her by
    with pytest.raises(ValueError, match="Oni is unconscious: she cannot attack"):
        play(f, Attack("Oni", "club", ("Rei",)), 10)
    f = play(f, NonCombat("Rei", "ties Oni up"))
    f = play(f, EndRound())
    assert (f.state.round, hp(f, "Aiko"), hp(f, "Oni"), hp(f, "Rei")) == (4, 20, -3, 12)
    assert fight_from_dict(json.loads(json.dumps(fight_to_dict(f)))).log == f.log


# ---- the odds before the roll against every dice sequence played through the engine ----

def played_out(fight, action, target, typed=(), fixed=(), measure=None):
    """Exact distribution of the Hit Points the target loses (or of `measure(fight after)`), from every dice sequence the action
    can ask for after the `typed` ones, each played by the engine. A die whose purpose names one of `fixed` (a save made after the
    damage, which changes no Hit Points) is given one value only, to keep the walk short."""
    before = hp(fight, target)
    out: dict = defaultdict(Fraction)

    def walk(typed, p):
        need = next_die(fight, action, typed)
        if need is None:
            after = fight_act(fight, action, DiceFeed(totals=typed))
            out[measure(after) if measure else before - hp(after, target)] += p
            return
        if any(x in need[1] for x in fixed): walk(typed + [min(dist(need[0]))], p); return
        for v, q in dist(need[0]).items(): walk(typed + [v], p * q)
    walk(list(typed), Fraction(1))
    return dict(sorted((k, v) for k, v in out.items() if v))


SITUATIONS = [  # (rules, fighters, attack): each is played out die by die and compared with the preview
    (FightRules(), (replace(AIKO, weapons=(Weapon("sling", 5, "1d3+1", kind="ranged"),)), ONI, REI),
     Attack("Aiko", "sling", ("Oni",), (Answer("Oni"),), rows=("beyond melee: taking cover",))),
    (FightRules(), (replace(AIKO, weapons=(Weapon("axe", 5, "1d3+1", crit_range=19, crit_multiplier=3),)), ONI, REI),
     Attack("Aiko", "axe", ("Oni",), (Answer("Oni"),))),
    (FightRules(crit="twice"), (replace(AIKO, weapons=(Weapon("axe", 5, "1d3+2"),)), replace(ONI, block_armour=3), REI),
     Attack("Aiko", "axe", ("Oni",), (Answer("Oni", "block"),))),
    (FightRules(), (replace(AIKO, weapons=(Weapon("axe", 8, "1d4"),)), ONI, REI),
     Attack("Aiko", "axe", ("Oni", "Rei"), (Answer("Oni"),))),
    (FightRules(), (replace(AIKO, weapons=(Weapon("axe", 5, "1d4+4"),)), ONI, REI), Attack("Aiko", "axe", ("Oni",), (Answer("Oni"),), hold_back=5)),
]


@pytest.mark.parametrize("rules, fighters, attack", SITUATIONS)
def test_the_odds_shown_are_what_the_engine_rolls(rules, fighters, attack):
    f = play(start_fight(Setup(fighters, rules)), Initiative(), 15, 12, 10)
    for blow in attack_preview(f, attack):
        assert played_out(f, attack, blow.target) == blow.damage, blow.target
        assert blow.damage == (blow.resolution.odds.damage if attack.hold_back is None else blow.damage)


@given(st.integers(-5, 15), st.integers(5, 25), st.one_of(st.none(), st.integers(-5, 10)))
@settings(max_examples=12, deadline=None)
def test_outcomes_played_through_the_engine_equal_the_resolver(bonus, ac, defence):
    "Damage 1 on a hit and 2 on a critical: the Hit Points lost tell the outcome apart, and every pair of d20s is played."
    hero = replace(AIKO, weapons=(Weapon("rod", bonus, "1"),))
    foe = replace(ONI, ac=ac, defence=defence if defence is not None else 0, armour=0, extra_defences=0)
    f = play(start_fight(Setup((hero, foe, REI), FightRules(crit="twice"))), Initiative(), 15, 12, 10)
    a = Attack("Aiko", "rod", ("Oni",), (Answer("Oni"),) if defence is not None else ())
    (blow,) = attack_preview(f, a)
    o = blow.resolution.odds.outcomes
    assert played_out(f, a, "Oni") == {k: v for k, v in {0: o["miss"] + o["defended"], 1: o["hit"], 2: o["critical"]}.items() if v}
    direct = resolve_attack(bonus, ac, "1", defence_bonus=defence, crit="twice", current_hp=24)
    assert blow.resolution == direct


def test_earlier_defences_this_round_count_in_the_odds():
    veteran = replace(AIKO, extra_attacks=2, weapons=(Weapon("rod", 8, "1"),))
    f = play(start_fight(Setup((veteran, replace(ONI, armour=0), REI), FightRules(crit="twice"))), Initiative(), 15, 12, 10)
    a = Attack("Aiko", "rod", ("Oni",), (Answer("Oni"),))
    f = play(play(f, a, 15, 1), a, 15, 1)  # two defences, natural 1s: two hits of 1
    (blow,) = attack_preview(f, a)
    direct = resolve_attack(8, 12, "1", defence_bonus=2, nth_defence=3, crit="twice", current_hp=22)
    assert (blow.resolution.nth_penalty, blow.resolution) == (-4, direct)
    o = blow.resolution.odds.outcomes
    assert played_out(f, a, "Oni") == {0: o["miss"] + o["defended"], 1: o["hit"], 2: o["critical"]}


def test_damage_save_odds_are_what_the_engine_rolls():
    hero = replace(AIKO, con_bonus=2, armour=1, level=5)
    brute = replace(ONI, weapons=(Weapon("club", 4, "1d8+3", damage_bonus=4),), level=5)
    f = play(play(start_fight(Setup((hero, brute, REI), FightRules(damage_saves=True))), Initiative(), 15, 12, 10), NonCombat("Aiko"))
    a = Attack("Oni", "club", ("Aiko",), (Answer("Aiko"),))
    (blow,) = attack_preview(f, a)
    got: dict[str, Fraction] = defaultdict(Fraction)

    def walk(typed, p):
        need = next_die(f, a, typed)
        if need is None:
            rec = next(s.record for s in standings(fight_act(f, a, DiceFeed(totals=typed))) if s.name == "Aiko")
            name = {"Unhurt": "No Effect", "Injured (1)": "Injured (Hit)", "Stunned, Injured (1)": "Stunned",
                    "Disabled, Injured (1)": "Disabled"}[rec]
            got[name] += p
            return
        for v, q in dist(need[0]).items(): walk(typed + [v], p * q)
    walk([], Fraction(1))
    assert dict(got) == {k: v for k, v in blow.saves.items() if v}


# ---- the rules it enforces: each forbidden action refused, the fight unchanged ----

def fight_at(rules=FightRules(), fighters=(AIKO, ONI, REI)):
    return play(start_fight(Setup(fighters, rules)), Initiative(), 15, 12, 10)


def refused(fight, action, message):
    assert message in refusal(fight, action)
    before = fight_to_dict(fight)
    with pytest.raises(ValueError, match=re.escape(message)):
        fight_act(fight, action, DiceFeed(random.Random(1)))
    assert fight_to_dict(fight) == before


def test_refusals():
    f = fight_at()
    refused(start_fight(Setup((AIKO, ONI, REI))), Attack("Aiko", "katana", ("Oni",)), "roll Initiative first")
    refused(f, Initiative(), "it is rolled once for the whole fight")
    refused(f, NonCombat("Oni"), "Oni acts later in the round: Aiko first")
    refused(f, EndRound(), "Aiko, Oni, Rei still have to act")
    once = play(f, NonCombat("Aiko"))
    refused(once, Attack("Aiko", "katana", ("Oni",)), "Aiko has had her turn this round: one action a round")
    refused(once, Delay("Aiko"), "Aiko has had her turn")
    refused(f, Attack("Aiko", "katana", ("Oni",), (Answer("Oni", by="Rei", others=(("target within reach", None),)),)), "Rei is not on Oni's side")
    refused(once, Attack("Oni", "club", ("Aiko",), (Answer("Aiko", by="Rei"),)), "say how far Aiko is from Rei")
    undead = fight_at(fighters=(AIKO, replace(ONI, living=False), REI))
    refused(undead, Attack("Aiko", "katana", ("Oni",), rows=("vital spot",)), "a vital spot is for living beings")
    auto = fight_at(fighters=(replace(AIKO, weapons=(Weapon("smg", 5, "2d6", kind="ranged", ability="Auto-Fire"),)), ONI, REI))
    refused(auto, Attack("Aiko", "smg", ("Oni",), hold_back=3), "an attack with Auto-Fire cannot strike to wound")
    refused(fight_at(), Attack("Aiko", "katana", ("Oni",), max_effect="hit"), "pulling a punch to a chosen result is for Damage Saves")
    refused(fight_at(), Attack("Aiko", "katana", ("Oni",), location="Head"), "the table does not use hit locations")


def test_out_of_action_fighters_neither_act_nor_defend():
    f = play(fight_at(FightRules(shock=True)), Attack("Aiko", "katana", ("Oni",)), 15, 12, 1)  # 10 > Shock Value 4; save 1 + 0 fails by 15
    refused(f, Attack("Oni", "club", ("Aiko",)), "Oni is stunned: she cannot attack")
    assert who_may_act(f) == ("Rei",)
    refused(f, Attack("Rei", "staff", ("Oni",), (Answer("Oni"),)), "Oni is stunned: she cannot defend")
    g = play(fight_at(), SetCondition("Oni", "unaware"))
    refused(g, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), "Oni does not know the attack is coming: no defence")
    refused(g, Attack("Aiko", "pistol", ("Rei",), (Answer("Rei"),), incapacitate=True), "only a blow by hand or with a blunt melee weapon")


def test_defending_someone_else_with_no_defence_left_under_both_readings():
    for desperate in (False, True):
        f = fight_at(FightRules(desperate_defence=desperate))
        f = play(f, Attack("Aiko", "katana", ("Rei",), (Answer("Rei"),)), 15, 20)  # Rei has defended once
        friend = Answer("Aiko", by="Rei", others=(("target within reach", None),))
        a = Attack("Oni", "club", ("Aiko",), (friend,))
        if desperate:
            (blow,) = attack_preview(f, a)
            assert blow.resolution.nth_penalty == -4  # −4 for her one earlier defence (Table 12-7)
        else:
            refused(f, a, "Rei has made her 1 defence this round: none is left to give Aiko")
    flat = play(fight_at(), SetCondition("Rei", "flat-footed"))
    refused(play(flat, NonCombat("Aiko")), Attack("Oni", "club", ("Aiko",), (Answer("Aiko", by="Rei", others=(("target within reach", None),)),)),
            "Rei is surprised: she cannot defend anyone else")


def test_block_and_pin_and_mind_rules():
    f = fight_at()
    refused(f, Attack("Aiko", "pistol", ("Oni",), (Answer("Oni", "block"),)), "a ranged attack can be blocked only with the Block Ranged Attack Feat")
    feat = fight_at(fighters=(AIKO, replace(ONI, block_ranged=True), REI))
    assert attack_preview(feat, Attack("Aiko", "pistol", ("Oni",), (Answer("Oni", "block"),)))[0].resolution.defence_bonus == 2 + 2
    held = play(play(play(f, NonCombat("Aiko")), Grapple("Oni", "grab", "Rei"), 15), NonCombat("Rei"))
    held = play(play(held, EndRound()), NonCombat("Aiko"))
    pinned = play(held, Grapple("Oni", "pin", "Rei"), 15)
    refused(pinned, Attack("Rei", "staff", ("Oni",)), "Rei is pinned: she cannot attack")
    round3 = play(play(pinned, NonCombat("Rei")), EndRound())
    refused(round3, Attack("Aiko", "katana", ("Rei",), (Answer("Rei"),)), "Rei is pinned and cannot move: no defence")
    assert attack_preview(round3, Attack("Aiko", "katana", ("Rei",)))[0].resolution.defence_bonus is None
    refused(f, MindContact("Aiko", "Oni"), "Aiko has no Telepathy")


def test_second_wind_first_aid_and_fate_points():
    f = fight_at(FightRules(wound_penalties=True, shock=True, fate_points=True), (replace(AIKO, fate_points=1, willpower=3), ONI, REI))
    f = play(f, Attack("Aiko", "katana", ("Oni",)), 15, 10, 20)  # 10 > Shock Value 4: critical injury; the save, 20, holds
    assert next(s.injuries for s in standings(f) if s.name == "Oni") == 1
    g = play(f, SecondWind("Aiko"), 7)  # 7 + 3 = 10: made
    refused(g, SecondWind("Aiko"), "Aiko has had her second wind: one a combat scene")
    refused(f, FirstAid("Rei", "Aiko", 3), "Aiko has no untreated critical injury")
    aid = play(f, FirstAid("Oni", "Oni", 0), 20)  # DC 16; −2 on herself and −2 for her wounds: 20 − 4 = 16
    assert next(s.injuries for s in standings(aid) if s.name == "Oni") == 0
    refused(f, FatePoint("Oni", "left for dead"), "Oni has no Fate Point left")
    refused(f, FatePoint("Aiko", "left for dead"), "only the blow that has just killed Aiko")
    refused(fight_at(FightRules(damage_saves=True, hit_locations=False)), Harm("Aiko", 3), "with Damage Saves there are no Hit Points")


def test_a_disabled_fighter_who_fights_is_dying():
    brute = replace(ONI, weapons=(Weapon("club", 4, "1d8+3", damage_bonus=10),))
    f = play(play(fight_at(FightRules(damage_saves=True), (AIKO, brute, REI)), NonCombat("Aiko")), Attack("Oni", "club", ("Aiko",)), 15, 2)
    assert next(s.record for s in standings(f) if s.name == "Aiko") == "Disabled, Injured (1)"
    f = play(play(f, NonCombat("Rei")), EndRound())
    f = play(f, Attack("Aiko", "katana", ("Oni",)), 1)
    assert next((s.record, s.out) for s in standings(f) if s.name == "Aiko") == ("Dying", "dying")


def test_initiative_every_round_reading():
    f = fight_at(FightRules(initiative="round"))
    f = play(play(play(play(f, NonCombat("Aiko")), NonCombat("Oni")), Delay("Rei")), EndRound())
    refused(f, NonCombat("Aiko"), "round 2 begins with a new Initiative roll")
    f = play(f, Initiative(), 1, 20, 2)  # Aiko 1 + 3 = 4, Oni 20 + 1 = 21, Rei 2 + 2 = 4; Rei held her action: she goes first
    assert (f.state.order, f.state.totals) == ((("Rei",), ("Oni",), ("Aiko",)), (4, 21, 4))


def test_legal_choices_agree_with_the_engine():
    "Random play: every action the choice functions offer is accepted by the engine, and a save of it replays."
    R = random.Random(7)
    for rules in (FightRules(shock=True, wound_penalties=True), FightRules(damage_saves=True, fate_points=True),
                  FightRules(hit_locations=True, initiative="round")):
        f = start_fight(Setup((replace(AIKO, bab=7, telepathy=2, wisdom_modifier=2, intelligence_modifier=3), ONI, REI), rules))
        for _ in range(80):
            options = [Initiative()] if not refusal(f, Initiative()) else []
            options += [EndRound()] if not refusal(f, EndRound()) else []
            for who in who_may_act(f):
                kinds = legal_actions(f, who)
                if "attack" in kinds:
                    w = R.choice([w.name for w in next(x for x in (AIKO, ONI, REI) if x.name == who).weapons])
                    targets = legal_targets(f, who, w)
                    if targets:
                        t = R.choice(targets)
                        options.append(Attack(who, w, (t,), (R.choice(legal_answers(f, who, w, t)),)))
                if "non-combat" in kinds: options.append(NonCombat(who))
                if "delay" in kinds: options.append(Delay(who))
                if "total defence" in kinds: options.append(TotalDefence(who))
            if not options: break
            a = R.choice(options)
            assert refusal(f, a) == ""
            f = fight_act(f, a, DiceFeed(R))
        assert fight_from_dict(json.loads(json.dumps(fight_to_dict(f)))).state == f.state


# ---- bad input, and saves ----

@pytest.mark.parametrize("make, field", [
    (lambda: Weapon("x", damage="2d"), "damage"), (lambda: Weapon("x", hands=3), "hands"), (lambda: Weapon("x", ability="Laser"), "ability"),
    (lambda: Fighter("x", side=""), "side"), (lambda: Fighter("x", dexterity=-1), "dexterity"), (lambda: Fighter("x", weapons=[1]), "weapons"),
    (lambda: Fighter("x", fate_points=101), "fate_points"), (lambda: Fighter("x", free_hands=True), "free_hands"),
    (lambda: FightRules(total_attack="turn"), "total_attack"), (lambda: FightRules(shock="yes"), "shock"),
    (lambda: Setup(()), "fighters"), (lambda: Setup((AIKO, ONI), "rules"), "rules"),
    (lambda: Attack("Aiko", "katana", ("Oni",), hold_back=0), "hold_back"), (lambda: Attack("Aiko", "katana", ("Oni",), gm=99), "gm"),
    (lambda: Attack("Aiko", "katana", "Oni"), "targets"), (lambda: Attack("Aiko", "katana", ("Oni",), answers=("Oni",)), "answers"),
    (lambda: Answer("Oni", by="Oni"), "by"), (lambda: TotalDefence("Aiko", 0), "sacrificed"), (lambda: FatePoint("Aiko", "destiny"), "use"),
    (lambda: FirstAid("Aiko", "Rei", 1.5), "skill"), (lambda: SetCondition("Aiko", "prone", -1), "rounds"),
])
def test_bad_input_is_refused_naming_the_field(make, field):
    with pytest.raises(ValueError, match=rf"^{field}\b"):
        make()


def test_fight_functions_refuse_what_is_not_theirs():
    f = fight_at()
    for call, field in ((lambda: fight_act("fight", NonCombat("Aiko")), "fight"), (lambda: fight_act(f, "attack"), "action"),
                        (lambda: fight_act(f, NonCombat("Aiko"), [1]), "dice"), (lambda: legal_actions(f, "Nobody"), "who"),
                        (lambda: legal_targets(f, "Aiko", "bow"), "weapon"), (lambda: next_die(f, NonCombat("Aiko"), "12"), "typed"),
                        (lambda: attack_preview(f, NonCombat("Aiko")), "attack"), (lambda: grapple_preview(f, Grapple("Aiko", "lock", "Oni")), "grapple")):
        with pytest.raises(ValueError, match=rf"^{field}\b"):
            call()


def saved_fight():
    f = fight_at(FightRules(shock=True, wound_penalties=True))
    f = play(f, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), 14, 3, 7, 15)  # 5 > Shock Value 4: a save, 15 + 0 made
    f = play(f, Grapple("Oni", "grab", "Rei", Answer("Rei")), 15, 4)
    return f, json.loads(json.dumps(fight_to_dict(f)))


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.update(kind="tristat-fight"), "kind: this holds a 'tristat-fight'"),
    (lambda d: d.update(version=2), "version: is 2"),
    (lambda d: d.pop("now"), "data: is missing now"),
    (lambda d: d["setup"]["fighters"][1].update(ac=-3), "setup.fighters[1].ac: must be from 0 to 100"),
    (lambda d: d["setup"]["fighters"][1]["weapons"][0].update(damage="1d8+"), "setup.fighters[1].weapons[0].damage"),
    (lambda d: d["setup"]["rules"].update(gritty="no"), "setup.rules.gritty: must be true or false"),
    (lambda d: d["actions"][1].update(weapon="spear"), "actions[1]: does not replay: weapon: Aiko has no weapon called 'spear'"),
    (lambda d: d["actions"][1]["answers"][0].update(defence="parry"), "actions[1].answers[0].defence: must be one of"),
    (lambda d: d["actions"][2].update(manoeuvre="suplex"), "actions[2].manoeuvre: must be one of"),
    (lambda d: d["actions"][2].update(action="teleport"), "actions[2]: must name one of the fight's actions"),
    (lambda d: d["actions"][0]["dice"].append(3), "actions[0]: has 1 dice left over"),
    (lambda d: d["actions"][1].update(dice=[14, 3, 13]), "actions[1]: does not replay: totals: the 3rd typed total is for the damage"),
    (lambda d: d["actions"].insert(1, d["actions"][1]), "actions[2]: does not replay: who: Aiko has had her turn"),
    (lambda d: d["now"]["fighters"][2].update(conditions=[]), "the saved fight does not replay to the state it claims"),
    (lambda d: d["now"].update(round=3), "round 3 but the replay gives 1"),
    (lambda d: d["actions"][1].update(extra=1), "actions[1].extra: is not a field of Attack"),
])
def test_a_damaged_save_is_refused_naming_what_is_wrong(damage, message):
    f, d = saved_fight()
    damage(d)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        fight_from_dict(d)


def test_save_and_load_by_file_and_a_corrupt_file_changes_nothing(tmp_path):
    f, d = saved_fight()
    path = save_fight(tmp_path / "castle.json", f)
    g = load_fight(path)
    assert (g.state, g.log, g.played) == (f.state, f.log, f.played)
    d["actions"][1]["dice"] = [14, 3, 9, 15]
    save_json(tmp_path / "bad.json", "anime-d20-fight", 1, d)
    with pytest.raises(ValueError, match="does not replay to the state it claims"):
        load_fight(tmp_path / "bad.json")
    assert fight_to_dict(g) == fight_to_dict(f)  # the fight held is as it was


def test_a_fight_keeps_at_most_its_cap_of_actions():
    f = fight_at()
    many = replace(f, played=f.played * (MAX_ACTIONS // len(f.played) + 1))
    with pytest.raises(ValueError, match=f"a fight keeps at most {MAX_ACTIONS:,} actions"):
        fight_act(many, NonCombat("Aiko"))


# ---- the time a long save takes ----

def long_fight(n: int, seed: int = 1):
    "An attack-heavy fight: every action but the round's end is an attack with a defence, under shock and wound penalties."
    a = replace(AIKO, hp=100_000, fortitude=5, bab=6, weapons=(Weapon("katana", 6, "1d10+2", breaks_skin=True),))
    b = replace(ONI, hp=100_000, fortitude=5, weapons=(Weapon("club", 4, "2d8+3"),))
    c = Fighter("Ogre", "foes", ac=11, defence=1, hp=100_000, fortitude=5, weapons=(Weapon("fist", 3, "1d6+2", kind="unarmed"),))
    f = start_fight(Setup((a, b, c), FightRules(shock=True, wound_penalties=True)))
    R = random.Random(seed)
    f = fight_act(f, Initiative(), DiceFeed(R))
    while len(f.played) < n:
        who = who_may_act(f)
        if not who: f = fight_act(f, EndRound()); continue
        act = {"Aiko": Attack("Aiko", "katana", ("Oni", "Ogre"), (Answer("Oni"), Answer("Ogre"))),
               "Oni": Attack("Oni", "club", ("Aiko",), (Answer("Aiko"),)), "Ogre": Attack("Ogre", "fist", ("Aiko",), (Answer("Aiko"),))}[who[0]]
        f = fight_act(f, act, DiceFeed(R))
    return f


@pytest.mark.parametrize("n, limit", [(200, 0.5), (MAX_ACTIONS, 2.0)])
def test_a_long_save_loads_in_time(tmp_path, n, limit):
    "Measured in a fresh process (its caches empty), as processor time so that other work on the machine does not count."
    path = tmp_path / "long.json"
    path.write_text(json.dumps(fight_to_dict(long_fight(n))))
    code = ("import json, sys, time; from besm_nb.anime_d20.fight import fight_from_dict; d = json.load(open(sys.argv[1])); "
            "t = time.process_time(); fight_from_dict(d); print(time.process_time() - t)")
    seconds = float(subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True).stdout)
    print(f"{n} actions load in {seconds * 1000:.0f} ms")
    assert seconds < limit


# ---- the wing's readings, passed through the fight's switches ----

def test_the_wings_switches_reach_the_rolls():
    base = fight_at()
    flat = fight_at(FightRules(defence_natural_20=False))
    a = Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),))
    assert attack_preview(flat, a)[0].resolution == resolve_attack(6, 12, "1d10+2", defence_bonus=2, armour=2, current_hp=24,
                                                                   defence_natural_20=False)
    assert "defended" in play(base, Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),)), 19, 20).log[-1]  # 25 against 22: a 20 still saves her
    assert hp(play(flat, a, 19, 20, 5), "Oni") == 24 - 3  # under the other reading it does not
    aimed = play(play(play(play(fight_at(FightRules(aim="action")), Aim("Aiko", "pistol")), NonCombat("Oni")), NonCombat("Rei")), EndRound())
    assert attack_preview(aimed, Attack("Aiko", "pistol", ("Oni",), pace="still"))[0].resolution.attack_bonus == 5 + 2
    for gritty, out in ((False, ""), (True, "dead")):  # Rei, 12 Hit Points, taken to −10
        f = play(fight_at(FightRules(gritty=gritty)), Harm("Rei", 22))
        assert next(s.out for s in standings(f) if s.name == "Rei") == ("unconscious" if not gritty else out)
    for trigger, saves in (("more", 0), ("equal", 1)):  # 4 damage to the Ogre-sized Brute: Shock Value 4
        f = play(fight_at(FightRules(shock=True, shock_trigger=trigger)), Harm("Oni", 4), *([10] * saves))
        assert ("Shock:" in f.log[-1] or "Shock:" in f.log[-2]) == bool(saves)
    grab = Grapple("Oni", "grab", "Rei", Answer("Rei"))
    mantis = replace(ONI, free_hands=4)
    for on, pen in ((True, -4), (False, 0)):
        f = play(fight_at(FightRules(hands_on_defence=on), (AIKO, mantis, REI)), NonCombat("Aiko"))
        assert grapple_preview(f, grab).defence_bonus - 3 == pen
    for stops, lands in ((False, True), (True, False)):
        f = play(play(play(play(fight_at(FightRules(defence_stops_throw=stops)), NonCombat("Aiko")), Grapple("Oni", "grab", "Rei"), 15),
                      NonCombat("Rei")), EndRound())
        f = play(f, NonCombat("Aiko"))
        dice = (10, 20, 7, 20) if lands else (10, 20, 20)  # the throw, 10 + 4 reaches AC 13; her defence, a natural 20, stops it or not
        f = play(f, Grapple("Oni", "throw", "Rei", Answer("Rei")), *dice)
        assert ("prone" in next(s.conditions for s in standings(f) if s.name == "Rei")) == lands
    for reading, pen in (("table", -4), ("both", -6)):
        f = play(fight_at(FightRules(others_penalty=reading, desperate_defence=True)), Attack("Aiko", "katana", ("Rei",), (Answer("Rei"),)), 15, 20)
        friend = Attack("Oni", "club", ("Aiko",), (Answer("Aiko", by="Rei", others=(("target within reach", None),)),))
        assert attack_preview(f, friend)[0].resolution.nth_penalty == pen


def test_damage_save_readings_pass_through():
    brute = replace(ONI, weapons=(Weapon("club", 4, "1d8+3", damage_bonus=10),))
    for hit, record in ((True, "Disabled, Injured (1)"), (False, "Disabled")):
        f = play(play(fight_at(FightRules(damage_saves=True, disabled_hit=hit), (AIKO, brute, REI)), NonCombat("Aiko")),
                 Attack("Oni", "club", ("Aiko",)), 15, 2)
        assert next(s.record for s in standings(f) if s.name == "Aiko") == record
    tough = replace(AIKO, con_bonus=30)
    for natural_1, record in ((True, "Injured (1)"), (False, "Unhurt")):
        f = play(play(fight_at(FightRules(damage_saves=True, save_natural_1=natural_1), (tough, brute, REI)), NonCombat("Aiko")),
                 Attack("Oni", "club", ("Aiko",)), 15, 1)
        assert next(s.record for s in standings(f) if s.name == "Aiko") == record


def test_aiming_takes_a_round_or_an_action():
    quick = replace(AIKO, extra_attacks=1)
    f = fight_at(FightRules(aim="action"), (quick, ONI, REI))
    f = play(f, Aim("Aiko", "pistol"))
    assert (f.state.turn, who_may_act(f)) == ("Aiko", ("Aiko", "Oni"))  # Table 12-5's reading: an action of aiming, then the shot in the same turn
    assert attack_preview(f, Attack("Aiko", "pistol", ("Oni",), pace="still"))[0].resolution.attack_bonus == 5 + 2
    g = play(fight_at(FightRules(aim="round"), (quick, ONI, REI)), Aim("Aiko", "pistol"))
    assert who_may_act(g) == ("Oni",)  # the text's reading: a whole round of aiming
    refused(play(fight_at(FightRules(aim="round"), (quick, ONI, REI)), NonCombat("Aiko")), Aim("Aiko", "pistol"),
            "aiming takes her whole turn, standing still")


# ---- death after unconsciousness, Left For Dead whatever the cause, healing someone left for dead (review of issue 34) ----

def out(fight, name):
    return next(s.out for s in standings(fight) if s.name == name)


def test_going_from_unconscious_to_dead_is_noticed_and_may_be_left_for_dead():
    f = fight_at(FightRules(fate_points=True), (AIKO, ONI, replace(REI, fate_points=1)))
    f = play(f, Harm("Rei", 13))  # 12 Hit Points → −1: unconscious
    assert out(f, "Rei") == "unconscious"
    f = play(f, Harm("Rei", 11))  # −12: minus her full Hit Points
    assert (out(f, "Rei"), f.log[-1]) == ("dead", "Rei is dead: a mortal wound: dies (or falls into a coma) unless medical help arrives at once.")
    g = play(f, FatePoint("Rei", "left for dead"))
    assert (out(g, "Rei"), next(s.fate_points for s in standings(g) if s.name == "Rei")) == ("left for dead", 0)
    knocked = play(play(fight_at(FightRules(fate_points=True), (AIKO, ONI, replace(REI, fate_points=1))), SetCondition("Rei", "knocked out")),
                   Harm("Rei", 24))  # knocked out, then beaten to −12
    assert out(knocked, "Rei") == "dead"
    assert out(play(knocked, FatePoint("Rei", "left for dead")), "Rei") == "left for dead"


def test_bleeding_to_death_at_the_rounds_end_may_be_left_for_dead_by_each_who_dies():
    rules = FightRules(shock=True, fate_points=True)
    f = fight_at(rules, (replace(AIKO, fate_points=2), ONI, replace(REI, fate_points=2)))
    f = play(play(play(f, NonCombat("Aiko")), Harm("Aiko", 39, breaks_skin=True)), Harm("Rei", 23, breaks_skin=True))  # −19, −11: out, injured
    assert (hp(f, "Aiko"), hp(f, "Rei"), out(f, "Aiko"), out(f, "Rei")) == (-19, -11, "unconscious", "unconscious")
    f = play(play(f, NonCombat("Oni")), EndRound())  # each bleeds a point: −20 and −12, dead
    assert (out(f, "Aiko"), out(f, "Rei")) == ("dead", "dead")
    assert f.log[-3:-1] == ("Rei loses 1 Hit Point: -12 of 12 left.", "Rei is dead: a mortal wound: dies (or falls into a coma) unless medical help arrives at once.")
    g = play(play(f, FatePoint("Aiko", "left for dead")), FatePoint("Rei", "left for dead"))
    assert (out(g, "Aiko"), out(g, "Rei")) == ("left for dead", "left for dead")
    refused(g, FatePoint("Rei", "left for dead"), "only the blow that has just killed Rei")  # one Fate Point saves her once
    refused(play(f, Harm("Oni", 1)), FatePoint("Rei", "left for dead"), "only the blow that has just killed Rei")  # the moment has passed


def test_healing_someone_left_for_dead_makes_her_stable_at_minus_1():
    f = fight_at(FightRules(fate_points=True), (AIKO, ONI, replace(REI, fate_points=1)))
    f = play(play(f, Harm("Rei", 30)), FatePoint("Rei", "left for dead"))
    g = play(f, Heal("Rei", 5, "a healing potion"))
    assert (hp(g, "Rei"), out(g, "Rei"), next(s.conditions for s in standings(g) if s.name == "Rei")) == (-1, "unconscious", ())
    assert g.log[-1] == "Rei is healed within the hour of being left for dead: she is stable at -1 Hit Points (000 · Left For Dead)."
    refused(play(fight_at(), Harm("Rei", 30)), Heal("Rei", 5), "Rei is dead: healing does not raise the dead")


# ---- turns: Disabled, falling at one's own moment, Initiative for those out at the roll, waiting, the open turn ----

def test_a_disabled_fighter_has_one_action_and_no_extra_attacks():
    brute = replace(ONI, weapons=(Weapon("club", 4, "1d8+3", damage_bonus=10),))
    f = play(play(fight_at(FightRules(damage_saves=True), (replace(AIKO, bab=6), brute, REI)), NonCombat("Aiko")),
             Attack("Oni", "club", ("Aiko",)), 15, 2)
    f = play(play(f, NonCombat("Rei")), EndRound())
    assert next(s.record for s in standings(f) if s.name == "Aiko") == "Disabled, Injured (1)"
    f = play(f, Attack("Aiko", "katana", ("Oni",)), 1)  # her one action; fighting makes her Dying
    assert (f.state.turn, who_may_act(f)) == ("", ("Oni",))
    refused(f, Attack("Aiko", "katana", ("Oni",)), "Aiko is dying: she cannot attack")
    g = play(play(play(fight_at(FightRules(damage_saves=True), (replace(AIKO, bab=6), brute, REI)), NonCombat("Aiko")),
                  Attack("Oni", "club", ("Aiko",)), 15, 2), NonCombat("Rei"))
    g = play(play(g, EndRound()), NonCombat("Aiko", "bandages herself"))  # not strenuous: she stays Disabled, and her turn is over
    assert (next(s.record for s in standings(g) if s.name == "Aiko"), g.state.turn) == ("Disabled, Injured (1)", "")


def test_only_someone_dropped_by_another_at_her_own_moment_still_acts():
    f = play(fight_at(), Harm("Aiko", 25))  # the GM's harm at Aiko's own moment: she is out, and does not act
    assert who_may_act(f) == ("Oni",)
    twin = Fighter("Twin", "foes", initiative=3, dexterity=16, ac=10, hp=3, weapons=(Weapon("blade", 10, "1d6"),))
    s = play(play(start_fight(Setup((AIKO, twin))), Initiative(), 10, 10), Attack("Aiko", "katana", ("Twin",)), 15, 8)
    assert (out(s, "Twin"), who_may_act(s)) == ("dead", ("Twin",))  # struck down by the other fighter of her moment: she still strikes


def test_a_fighter_out_when_initiative_is_rolled_acts_once_she_is_back():
    f = play(start_fight(Setup((AIKO, ONI, REI))), SetCondition("Rei", "knocked out"))
    f = play(f, Initiative(), 15, 12, 10)
    assert f.state.totals == (18, 13, 12)
    f = play(play(f, NonCombat("Aiko")), ClearCondition("Rei", "knocked out"))  # she comes to
    f = play(f, NonCombat("Oni"))
    assert who_may_act(f) == ("Rei",)
    round_by_round = play(start_fight(Setup((AIKO, ONI, REI), FightRules(initiative="round"))), SetCondition("Rei", "knocked out"))
    assert play(round_by_round, Initiative(), 15, 12).state.totals == (18, 13, None)  # she rolls with the next round's Initiative


def test_waiting_she_may_step_in_at_any_later_moment():
    f = play(fight_at(), Delay("Aiko"))  # the moment moves on to Oni's Initiative
    assert who_may_act(f) == ("Aiko", "Oni")
    g = play(f, NonCombat("Aiko"))  # she steps in before Oni acts
    assert who_may_act(g) == ("Oni",)
    twin = Fighter("Twin", "foes", initiative=3, dexterity=16, ac=10, hp=3, weapons=(Weapon("blade", 10, "1d6"),))
    s = play(play(start_fight(Setup((AIKO, twin))), Initiative(), 10, 10), Delay("Aiko"))  # Twin still to act at this very moment
    refused(s, NonCombat("Aiko"), "Aiko has just chosen to wait")


def test_the_next_in_order_may_act_and_so_ends_an_open_turn():
    v = fight_at(fighters=(replace(AIKO, bab=11), ONI, REI))
    v = play(v, Attack("Aiko", "katana", ("Oni",)), 1)
    assert (v.state.turn, who_may_act(v)) == ("Aiko", ("Aiko", "Oni"))  # her extra attack, or Oni's Initiative
    refused(v, NonCombat("Rei"), "Rei acts later in the round: Oni first")
    w = play(v, NonCombat("Oni"))
    assert (w.state.turn, who_may_act(w)) == ("", ("Rei",))
    refused(w, Attack("Aiko", "katana", ("Oni",)), "Aiko has had her turn")


# ---- the odds shown are the odds played: hit locations, the off hand, a throw, a total past the resolver's range ----

@pytest.mark.parametrize("called", ["", "Left Arm", "Head"])
def test_hit_locations_are_in_the_odds_shown(called):
    f = fight_at(FightRules(hit_locations=True), (replace(AIKO, weapons=(Weapon("axe", 5, "1d2+2"),)), ONI, REI))
    a = Attack("Aiko", "axe", ("Oni",), location=called)  # armour 2: 1 to 2 gets through (2 to 4 on a critical)
    (blow,) = attack_preview(f, a)
    assert blow.damage == played_out(f, a, "Oni", fixed=("Fortitude save",))
    o = blow.resolution.odds.outcomes
    if not called:  # 8 faces in 12 are limbs, 1 less (at least 1)
        h, c, limb, other = o["hit"], o["critical"], Fraction(8, 12), Fraction(4, 12)  # a hit gets 1 or 2 through; a critical 2, 3 or 4
        assert blow.damage == {0: o["miss"], 1: h / 2 + h / 2 * limb + c / 4 * limb, 2: h / 2 * other + c / 4 * other + c / 2 * limb,
                               3: c / 2 * other + c / 4 * limb, 4: c / 4 * other}


def test_the_off_hands_odds_weigh_whether_the_main_hand_drew_her_defence():
    twin = replace(AIKO, extra_defences=0, weapons=(Weapon("feint", 6, "0"), Weapon("knife", 6, "1d2")))
    f = fight_at(fighters=(twin, replace(ONI, armour=0), REI))
    a = Attack("Aiko", "feint", ("Oni",), (Answer("Oni"),), off_hand="knife", off_answer=Answer("Oni"))
    main, off = attack_preview(f, a)
    o = main.resolution.odds.outcomes
    drawn = o["defended"] + o["hit"]  # the main hand reaches her AC without a critical: she rolls her defence against it
    (q1, r1), (q0, r0) = off.branches
    assert (q1, q0, r1.nth_penalty, r0.nth_penalty) == (drawn, 1 - drawn, -2, 0)
    for r, nth in ((r1, 2), (r0, 1)):
        assert r == resolve_attack(6 - 10, 12, "1d2", defence_bonus=2, nth_defence=nth, current_hp=24)
    assert off.damage == {k: drawn * r1.odds.damage.get(k, 0) + (1 - drawn) * r0.odds.damage.get(k, 0) for k in range(5)}
    # played: the main hand's 0 damage leaves her as she was, whether it drew her defence (15, then her 2) or not (a natural 1)
    assert played_out(f, a, "Oni", typed=(15, 2)) == r1.odds.damage
    assert played_out(f, a, "Oni", typed=(1,)) == r0.odds.damage


def test_a_friend_with_no_defence_left_leaves_the_off_hand_undefended():
    two = replace(ONI, weapons=(Weapon("claw", 10, "0"), Weapon("fang", 10, "1d2")))
    f = play(fight_at(fighters=(AIKO, two, REI)), NonCombat("Aiko"))
    friend = Answer("Aiko", by="Rei", others=(("target within reach", None),))
    a = Attack("Oni", "claw", ("Aiko",), (friend,), off_hand="fang", off_answer=friend)
    main, off = attack_preview(f, a)
    (q1, r1), (q0, r0) = off.branches
    assert (r1.defence_bonus, r0.defence_bonus is not None) == (None, True)  # her one defence went on the main hand
    g = play(f, a, 15, 2, 15, 1)  # the claw, 15 + 4, reaches AC 14 and Rei's defence fails; the fang, 15 + 0, lands undefended
    assert "Rei has no defence left for Aiko against the fang: it goes undefended." in g.log
    assert hp(g, "Aiko") == 20 - 1


@pytest.mark.parametrize("stops", [False, True])
def test_a_throws_odds_are_what_is_played(stops):
    f = play(play(play(play(fight_at(FightRules(defence_stops_throw=stops)), NonCombat("Aiko")), Grapple("Oni", "grab", "Rei"), 15),
                  NonCombat("Rei")), EndRound())
    f = play(f, NonCombat("Aiko"))
    g = Grapple("Oni", "throw", "Rei", Answer("Rei"), keep_hold=False)
    r = grapple_preview(f, g)
    prone = played_out(f, g, "Rei", fixed=("damage of",), measure=lambda x: "prone" in next(s.conditions for s in standings(x) if s.name == "Rei"))
    assert r.odds.lands == prone[True]
    assert played_out(f, g, "Rei") == r.odds.damage


def test_a_total_past_minus_50_is_shown_and_played_as_only_a_natural_20():
    horde = tuple(Fighter(f"Imp {i}", "foes", ac=10, hp=10) for i in range(15))
    hero = Fighter("Hero", weapons=(Weapon("sweep", 4, "1d2"),), initiative=20)
    f = play(start_fight(Setup((hero,) + horde)), Initiative(), *([10] * 16))
    a = Attack("Hero", "sweep", tuple(h.name for h in horde))  # 14 extra targets, −4 each: 4 − 56 = −52
    assert refusal(f, a) == ""
    blows = attack_preview(f, a)
    assert len(blows) == 15 and {b.resolution.attack_bonus for b in blows} == {-50}
    assert blows[0].resolution.odds.outcomes == {"miss": Fraction(19, 20), "defended": 0, "hit": 0, "critical": Fraction(1, 20)}
    assert played_out(f, a, "Imp 0") == blows[0].damage
    assert any("-52" in s.what and "only a natural 20" in s.what for s in blows[0].working)
    sniper = Fighter("Sniper", initiative=20, weapons=(Weapon("rifle", 100, "2d6", kind="ranged", scope=True),))
    s = play(play(play(start_fight(Setup((sniper, REI))), Initiative(), 10, 1), Aim("Sniper", "rifle")), NonCombat("Rei"))
    s = play(s, EndRound())
    shot = Attack("Sniper", "rifle", ("Rei",), pace="still")  # +100 and a scoped aim's +6: past the +100 the resolver takes
    refused(s, shot, "rows: the attack's total bonus, +106, is past +100")
    with pytest.raises(ValueError, match=r"rows: the attack's total bonus, \+106, is past \+100"):
        attack_preview(s, shot)


# ---- first aid, defending others, holding back, Total Attack, Mighty Blow, and the minor rules (review of issue 34) ----

def test_one_first_aid_success_treats_one_critical_injury():
    f = play(play(fight_at(FightRules(shock=True)), Harm("Oni", 5, breaks_skin=True), 20), Harm("Oni", 5, breaks_skin=True), 20)
    assert next(s.injuries for s in standings(f) if s.name == "Oni") == 2  # 5 > Shock Value 4, twice: two critical injuries
    g = play(f, FirstAid("Aiko", "Oni", 10), 10)  # DC 15 + 2 injuries = 17; 10 + 10 = 20: one is treated
    assert (next(s.injuries for s in standings(g) if s.name == "Oni"), g.state.fighters[1].treated) == (1, 1)
    assert g.log[-1].endswith("one critical injury is treated (1 still bleeds).")


def test_no_one_defends_another_against_an_undetectable_assailant():
    with pytest.raises(ValueError, match="^by: no one can defend someone else against an assailant"):
        Answer("Aiko", by="Rei", rows=("undetectable assailant",), others=(("target within reach", None),))


def test_total_attack_gives_its_plus_2_to_one_attack_check():
    twin = replace(AIKO, weapons=(Weapon("katana", 6, "1d10+2"), Weapon("wakizashi", 6, "1d6+2")))
    f = fight_at(fighters=(twin, ONI, REI))
    main, off = attack_preview(f, Attack("Aiko", "katana", ("Oni",), off_hand="wakizashi", total_attack=True))
    assert (main.resolution.attack_bonus, off.resolution.attack_bonus) == (6 - 6 + 2, 6 - 10)


def test_a_mighty_blow_is_one_fate_point_a_blow_and_breaks_what_it_must():
    twin = replace(AIKO, fate_points=3, weapons=(Weapon("katana", 6, "1d10+2", origin="item of power"),
                                                 Weapon("wakizashi", 6, "1d6+2", origin="item of power")))
    f = fight_at(FightRules(fate_points=True), (twin, ONI, REI))
    main_only = Attack("Aiko", "katana", ("Oni",), off_hand="wakizashi", mighty_blow=True)
    main, off = attack_preview(f, main_only)
    assert (set(main.damage), off.damage) == ({0, 12 - 2, 22 - 2}, off.resolution.odds.damage)  # the katana at its most; the wakizashi rolls
    g = play(f, main_only, 15, 18, 5)  # the katana at its most (12 − 2); the wakizashi, 18 − 4 against AC 12, rolls 5 (− 2)
    assert (hp(g, "Oni"), next(s.fate_points for s in standings(g) if s.name == "Aiko")) == (24 - 10 - 3, 2)
    both = replace(main_only, off_mighty_blow=True)
    g = play(f, both, 15, 18)
    assert (hp(g, "Oni"), next(s.fate_points for s in standings(g) if s.name == "Aiko")) == (24 - 10 - 6, 1)
    g = play(f, main_only, 1, 18, 5)  # the Mighty Blow misses: no Fate Point spent, whatever the off hand does
    assert (hp(g, "Oni"), next(s.fate_points for s in standings(g) if s.name == "Aiko")) == (24 - 3, 3)
    refused(fight_at(FightRules(fate_points=True), (replace(twin, fate_points=1), ONI, REI)), both, "mighty_blow: Aiko has 1 Fate Point")
    with pytest.raises(ValueError, match="^off_mighty_blow: "):
        Attack("Aiko", "katana", ("Oni",), off_mighty_blow=True)
    bought = fight_at(FightRules(fate_points=True), (replace(AIKO, fate_points=3), ONI, REI))  # a weapon bought or found: it shatters
    g = play(bought, Attack("Aiko", "katana", ("Oni",), mighty_blow=True), 15)
    assert "The katana shatters on the Mighty Blow: it is gone (000 · Mighty Blow)." in g.log
    g = play(play(play(g, NonCombat("Oni")), NonCombat("Rei")), EndRound())
    refused(g, Attack("Aiko", "katana", ("Oni",)), "weapon: Aiko's katana broke on a Mighty Blow")
    assert "attack" in legal_actions(g, "Aiko")  # her pistol is still hers
    gear = fight_at(FightRules(fate_points=True), (replace(AIKO, fate_points=3, weapons=(Weapon("katana", 6, "1d10+2", origin="personal gear"),)), ONI, REI))
    assert next_die(gear, Attack("Aiko", "katana", ("Oni",), mighty_blow=True), [15]) == ("1d2", "whether Aiko's katana snaps (1: it does)")
    snapped, held = (play(gear, Attack("Aiko", "katana", ("Oni",), mighty_blow=True), 15, n) for n in (1, 2))
    assert "The katana snaps in two: the broken blade can serve as an improvised weapon (the GM gives it its numbers)." in snapped.log
    assert "The katana holds." in held.log


def test_holding_back_after_the_roll():
    from besm_nb.anime_d20.fight import HoldBack
    caster = Fighter("Caster", initiative=5, weapons=(Weapon("bolt", 8, "5d8", kind="ranged", ability="Area Effect"),
                                                      Weapon("blast", 8, "6d8", kind="ranged")))
    guard = Fighter("Guard", "foes", ac=10, hp=20, fortitude=0)
    k = play(start_fight(Setup((caster, guard), FightRules(shock=True))), Initiative(), 10, 5)
    k2 = play(k, Attack("Caster", "bolt", ("Guard",)), 15, 32)  # 32 damage: Guard at −12, unconscious (no shock save once out)
    assert (hp(k2, "Guard"), out(k2, "Guard")) == (-12, "unconscious")
    g = play(k2, HoldBack("Caster", "Guard", 3))  # the chapter's 5d8 that rolls 32, held back; 3 is within her Shock Value: no save
    assert (hp(g, "Guard"), out(g, "Guard")) == (17, "")
    assert "Caster holds back: Guard takes 3 of the 32 (002 · Amount of Damage Inflicted)." in g.log
    assert next_die(k2, HoldBack("Caster", "Guard", 15)) == ("1d20", "Guard's Fortitude save against shock (DC 17)")  # 15 − 4: DC 15 + 2
    g = play(k2, HoldBack("Caster", "Guard", 15), 3)  # a new save, for the damage she now takes
    assert (hp(g, "Guard"), next(s.conditions for s in standings(g) if s.name == "Guard")) == (5, ("stunned until round 15", "prone"))
    assert fight_from_dict(json.loads(json.dumps(fight_to_dict(g)))).state == g.state
    refused(k2, HoldBack("Caster", "Guard", 32), "amount: Caster's blow gives Guard 32: she may inflict less, from 0 to 31")
    refused(k2, HoldBack("Caster", "Caster", 3), "target: Caster's blow did Caster no damage")
    refused(play(k2, Harm("Guard", 1)), HoldBack("Caster", "Guard", 3), "who: Caster has struck no blow just now")
    dead = play(k, Attack("Caster", "blast", ("Guard",)), 15, 45)
    assert (out(dead, "Guard"), dead.state.killed) == ("dead", ("Guard",))
    alive = play(dead, HoldBack("Caster", "Guard", 10), 20)
    assert (out(alive, "Guard"), alive.state.killed, hp(alive, "Guard")) == ("", (), 10)
    refused(fight_at(FightRules(damage_saves=True)), HoldBack("Aiko", "Oni", 1), "who: with Damage Saves no damage is dealt")


def test_the_minor_rules_of_the_review():
    # a lock: 1d4 plus Strength plus Massive Damage
    crusher = replace(ONI, massive_damage=2)
    f = play(play(play(fight_at(fighters=(AIKO, crusher, REI)), NonCombat("Aiko")), Grapple("Oni", "grab", "Rei"), 15), NonCombat("Rei"))
    f = play(play(play(f, EndRound()), NonCombat("Aiko")), Grapple("Oni", "lock", "Rei"), 9)
    assert f.log[-2:] == ("Damage 1d4+6: 9.", "Rei loses 9 Hit Points: 3 of 12 left.")
    # stunned by a Damage Save: no Dexterity, no Defence Combat Mastery in her Armour Class
    hero = replace(AIKO, dex_modifier=2, defence_combat_mastery=3, con_bonus=2, armour=1)
    ogre = replace(ONI, weapons=(Weapon("club", 4, "1d8+3", damage_bonus=4),))
    d = play(play(fight_at(FightRules(damage_saves=True), (hero, ogre, REI)), NonCombat("Aiko")), Attack("Oni", "club", ("Aiko",)), 15, 10)
    assert next(s.record for s in standings(d) if s.name == "Aiko").startswith("Stunned")  # DC 19; 10 + 3 fails by 6
    (b,) = attack_preview(d, Attack("Rei", "staff", ("Aiko",)))
    assert b.resolution.odds == resolve_attack(4 + 2, 14 - 2 - 3, "1d6+1").odds
    # a failed shock save: stunned, and she collapses
    s = play(fight_at(FightRules(shock=True)), Attack("Aiko", "katana", ("Oni",)), 15, 12, 1)
    assert next(x.conditions for x in standings(s) if x.name == "Oni") == ("stunned until round 16", "prone")
    # a blocking object destroyed by five times its Armour Rating blocks no more
    shield = replace(ONI, block_armour=1)
    b = play(fight_at(fighters=(AIKO, shield, REI)), Attack("Aiko", "katana", ("Oni",), (Answer("Oni", "block"),)), 15, 19, 7)
    assert "Oni's block takes 1 off it: the object is destroyed." in b.log
    b = play(b, NonCombat("Oni"))
    refused(b, Attack("Rei", "staff", ("Oni",), (Answer("Oni", "block"),)), "answers: what Oni blocked with was destroyed")
    assert attack_preview(b, Attack("Rei", "staff", ("Oni",), (Answer("Oni"),)))[0].resolution.defence_bonus == 2  # she still dodges


# ---- every FightRules switch that the tests above do not yet prove both ways (review of issue 34, item 19) ----

def test_the_moving_vehicle_reading_reaches_the_attack():
    shot = Attack("Aiko", "pistol", ("Oni",), rows=("moving vehicle, moderate speed",))
    bonus = {reading: attack_preview(fight_at(FightRules(vehicle=reading)), shot)[0].resolution.attack_bonus for reading in ("text", "table")}
    assert bonus == {"text": 5 - 4, "table": 5 - 2}  # Table 12-5: the text's −4 at moderate speed, the table's −2


def test_the_total_defence_reading_counts_the_attacks_given_up():
    quick = replace(AIKO, extra_attacks=1)
    club = Attack("Oni", "club", ("Aiko",), (Answer("Aiko"),))
    text = fight_at(FightRules(total_defence="text"), (quick, ONI, REI))
    refused(text, TotalDefence("Aiko", sacrificed=2), "sacrificed: the text reading gives a flat +4")
    assert attack_preview(play(text, TotalDefence("Aiko")), club)[0].resolution.defence_bonus == 4 + 4
    table = play(fight_at(FightRules(total_defence="table"), (quick, ONI, REI)), TotalDefence("Aiko", sacrificed=2))
    assert attack_preview(table, club)[0].resolution.defence_bonus == 4 + 4 * 2


def test_the_free_gap_decides_when_a_weaker_target_costs_nothing():
    hero = replace(AIKO, level=12)
    mooks = tuple(Fighter(f"Mook {i}", "foes", level=6, ac=10) for i in range(2))
    sweep = Attack("Aiko", "pistol", ("Mook 0", "Mook 1"))
    bonus = {}
    for gap in (10, 5):
        f = play(start_fight(Setup((hero,) + mooks, FightRules(free_gap=gap))), Initiative(), 15, 10, 10)
        bonus[gap] = attack_preview(f, sweep)[0].resolution.attack_bonus
    assert bonus == {10: 5 - 2, 5: 5}  # six Levels below: −2 for the second target, nothing once five Levels suffice


def test_the_table_options_are_off_unless_chosen():
    for on in (False, True):  # Table 12-9: 12 of 20 Hit Points is 60%, −2
        f = play(fight_at(FightRules(wound_penalties=on)), Harm("Aiko", 8))
        assert attack_preview(f, Attack("Aiko", "katana", ("Oni",)))[0].resolution.attack_bonus == 6 - 2 * on
    plain = play(fight_at(), Harm("Oni", 10))  # 10 is past Oni's Shock Value of 4
    assert not any(line.startswith("Shock:") for line in plain.log)
    shocked = play(fight_at(FightRules(shock=True)), Harm("Oni", 10), 20)
    assert any(line.startswith("Shock:") for line in shocked.log)
    refused(fight_at(FightRules(), (replace(AIKO, fate_points=1), ONI, REI)), Attack("Aiko", "katana", ("Oni",), mighty_blow=True),
            "mighty_blow: the table does not use Fate Points")
    refused(fight_at(), Attack("Aiko", "katana", ("Oni",), location="Head"), "location: the table does not use hit locations")
    kept = play(play(play(fight_at(), NonCombat("Aiko")), NonCombat("Oni")), NonCombat("Rei"))
    assert who_may_act(play(kept, EndRound())) == ("Aiko",)  # Initiative kept for the fight: round 2 goes on in the same order


def test_the_cinematic_rule_spares_weaker_extra_targets():
    hero = replace(AIKO, level=12)
    mooks = tuple(Fighter(f"Mook {i}", "foes", level=6, ac=10) for i in range(2))
    bonus = {}
    for cinematic in (True, False):
        f = play(start_fight(Setup((hero,) + mooks, FightRules(cinematic=cinematic))), Initiative(), 15, 10, 10)
        bonus[cinematic] = attack_preview(f, Attack("Aiko", "pistol", ("Mook 0", "Mook 1")))[0].resolution.attack_bonus
    assert bonus == {True: 5 - 2, False: 5 - 4}  # six Levels weaker: −2 in a cinematic game, the full −4 otherwise


@pytest.mark.parametrize("reading, lasting", [("round", ()), ("next action", ("total attack",))])
def test_a_total_attacks_lower_armour_class_lasts_by_the_reading(reading, lasting):
    f = play(fight_at(FightRules(total_attack=reading)), Attack("Aiko", "katana", ("Oni",), total_attack=True), 1)
    assert attack_preview(f, Attack("Oni", "club", ("Aiko",)))[0].resolution.odds == resolve_attack(4, 14 - 2, "1d8+3").odds
    f = play(play(play(f, NonCombat("Oni")), NonCombat("Rei")), EndRound())
    assert next(s.conditions for s in standings(f) if s.name == "Aiko") == lasting


def _in_contact(rules):
    psychic = replace(REI, telepathy=2, wisdom_modifier=3, intelligence_modifier=4)
    mind = replace(ONI, wisdom_modifier=1, willpower=2, hp=6)
    f = play(play(start_fight(Setup((AIKO, mind, psychic), rules)), Initiative(), 15, 12, 10), NonCombat("Aiko"))
    return play(play(play(f, NonCombat("Oni")), MindContact("Rei", "Oni")), EndRound())


def test_a_mind_attack_after_a_physical_defence_only_under_the_switch():
    for after in (False, True):
        f = _in_contact(FightRules(mind_after_defence=after))
        f = play(play(f, Attack("Aiko", "katana", ("Rei",), (Answer("Rei"),)), 15, 19), Attack("Oni", "club", ("Aiko",)), 1)
        if after: assert hp(play(f, MindAttack("Rei", "Oni"), 15), "Oni") == 6 - 4
        else: refused(f, MindAttack("Rei", "Oni"), "who: Rei has already defended with her body this round")


def test_a_blow_to_the_telepath_breaks_her_contact_unless_the_switch_says_not():
    for breaks, kept in ((True, ()), (False, ("mind contact with Oni",))):
        f = play(_in_contact(FightRules(damage_breaks_contact=breaks)), Attack("Aiko", "katana", ("Rei",)), 15, 3)
        assert next(s.conditions for s in standings(f) if s.name == "Rei") == kept


def test_no_block_once_the_gm_says_what_she_blocks_with_is_gone():
    # the condition stops a Block whether or not her blocking object was given an Armour Rating
    for fighter in (ONI, replace(ONI, block_armour=1)):
        f = fight_at(fighters=(AIKO, fighter, REI))
        f = play(play(play(f, SetCondition("Oni", "blocking object destroyed")), NonCombat("Aiko")), NonCombat("Oni"))
        refused(f, Attack("Rei", "staff", ("Oni",), (Answer("Oni", "block"),)), "answers: what Oni blocked with was destroyed")
        assert [a.defence for a in legal_answers(f, "Rei", "staff", "Oni")] == ["none", "dodge/parry"]


def test_holding_back_counts_both_hands_blows_on_one_target_together():
    from besm_nb.anime_d20.fight import HoldBack
    twin = replace(AIKO, weapons=(Weapon("katana", 6, "1d10+2"), Weapon("wakizashi", 6, "1d6+2")))
    g = play(fight_at(fighters=(twin, ONI, REI)), Attack("Aiko", "katana", ("Oni",), off_hand="wakizashi"), 19, 12, 19, 6)
    assert hp(g, "Oni") == 24 - 10 - 4  # 12 and 6, each less Oni's Armour 2
    refused(g, HoldBack("Aiko", "Oni", 14), "amount: Aiko's blow gives Oni 14: she may inflict less, from 0 to 13")
    h = play(g, HoldBack("Aiko", "Oni", 12))  # the katana's 10 in full, then 2 of the wakizashi's 4
    assert (hp(h, "Oni"), h.log[-2]) == (24 - 12, "Aiko holds back: Oni takes 2 of the 4 (002 · Amount of Damage Inflicted).")
    assert hp(play(g, HoldBack("Aiko", "Oni", 3)), "Oni") == 24 - 3  # 3 of the katana's 10, none of the wakizashi's
