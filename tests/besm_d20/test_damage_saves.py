"""Damage saves (000 · Damage Saves): Tables A-3 and A-4 against the source, the examples, an independent oracle, properties, the record."""
import copy
import dataclasses
import math
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.damage_saves import (ACTIONS, CRITICAL_BONUS, DC_BASE, MAX_EFFECTS, MIGHTY_BLOW_BONUS, MOOK_LEVELS,
                                           SNEAK_ATTACK_DC, SPECIAL_EXTRA_D8, STUNNED_ATTACK_BONUS, TABLE_A3, TABLE_A4, Attack,
                                           DamageRules, DamageTrack, DyingSave, EndRound, HitRecord, MAX_EVENTS, Recover, Stabilise,
                                           Target, Wait, Wake, damage_bonus, damage_save, damage_save_bonus,
                                           damage_save_dc, damage_save_odds, disabled_recovery_odds, dying_odds, hit_penalty,
                                           is_mook, lower_result, outcome_names, recovery_rate, wake_odds)
from besm_nb.dice import InputError
from tests.helpers import seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"


def section(text: str, start: str, end: str) -> str:
    "The source text from one heading to the next."
    i = text.index(start)
    return text[i:text.index(end, i + len(start))]


# --- Tables against the source ------------------------------------------------------------------------------

def test_table_a3_every_cell_is_in_the_source():
    t = section(seed_text(SEED_NAME), "TABLE A-3", "DAMAGE SAVES\n\nA target")
    four = next(l for l in t.splitlines() if l.startswith("+4 Damage Bonus"))
    assert [w for w, b in TABLE_A3.items() if b == 4] == [w.strip() for w in four.split("\t", 1)[1].replace(", or ", ", ").split(",")]
    flat = next(l for l in t.splitlines() if l.startswith("+8 Damage Bonus"))
    bonuses, names = flat.split("\t", 1)
    assert re.findall(r"\+(\d+) Damage Bonus", bonuses) == ["8", "12", "20"]
    # the flattened row read as: both grenades (joined by the comma) +8, the LAW +12, ordnance +20
    assert names == "Concussion Grenade, Tear Gas Grenade 66mm LAW Ordnance (Any)"
    assert {w: b for w, b in TABLE_A3.items() if b > 4} == {"Concussion Grenade": 8, "Tear Gas Grenade": 8, "66mm LAW": 12, "Ordnance (Any)": 20}


def test_table_a4_every_cell_is_in_the_source():
    t = section(seed_text(SEED_NAME), "TABLE A-4", "IMPOSSIBLE DAMAGE SAVES")
    rows = [tuple(c.strip() for c in l.split("\t") if c.strip()) for l in t.splitlines()[2:] if l.strip()]
    assert rows == list(TABLE_A4)


def test_numbers_in_the_rules_are_the_sources():
    text = re.sub(r"\s+", " ", section(seed_text(SEED_NAME), "DAMAGE SAVES\n\nFor some", "FATE POINTS"))
    for phrase in ["(15 + attack's Damage Bonus)", "converted to a +4 Damage Bonus", "grants a +5 Damage Bonus",
                   "by +3 for every Sneak Attack Feat", "at least five Levels lower", "gain a ± 2 bonus to hit",
                   "Fortitude save with a DC of 10", "(DC 10 + 1 per hour of unconsciousness)", "succeeds by 10 or more",
                   "DC 15 Skill check", "Constitution check (DC 10)", "Constitution check (DC 20)", "cumulative +1 bonus per attempt",
                   "fails by more than 5", "fails by more than 10"]:
        assert phrase in text, phrase
    assert (DC_BASE, SPECIAL_EXTRA_D8, CRITICAL_BONUS, SNEAK_ATTACK_DC, MOOK_LEVELS, STUNNED_ATTACK_BONUS) == (15, 4, 5, 3, 5, 2)
    assert MIGHTY_BLOW_BONUS == 5 and "simply adds a +5 Damage Bonus" in re.sub(r"\s+", " ", seed_text(SEED_NAME))


# --- the source's examples ---------------------------------------------------------------------------------------------

def test_three_stun_and_four_lethal_hits():
    assert hit_penalty(3, 4, "stun") == -7 and hit_penalty(3, 4, "lethal") == -4
    assert HitRecord(stun_hits=3, lethal_hits=4).penalty("stun") == -7
    # the same character, a save bonus of +4 against DC 18: a 14 is Stunned against stun, a hit against lethal
    assert damage_save(4, 18, 14, "stun", 3, 4).outcome == "Stunned" and damage_save(4, 18, 14, "lethal", 3, 4).outcome == "Injured (Hit)"


def test_a_fate_point_turns_disabled_into_stunned():
    t = DamageTrack(Target("Ami", fate_points=1))
    t.attack(30, natural=2)
    assert t.record.disabled
    t.fate_point()
    assert t.record.stunned and not t.record.disabled and t.record.fate_points == 0
    assert lower_result(3) == (2, "Stunned")


def test_damage_bonus_parts():
    assert damage_bonus("special", special_d8=1).value == 0 and damage_bonus("special", special_d8=5).value == 16
    assert damage_bonus("melee", strength=-1, critical=True).value == 4
    assert damage_save_dc(damage_bonus("ranged", weapon="66mm LAW").value) == 27
    assert damage_save_bonus(3, 4, 2) == 9


# --- an independent oracle for Table A-4 and its exceptions ------------------------------------------------------------

def oracle(bonus, dc, natural, attack, mook, cap, natural_1):
    "Table A-4 straight from the rules' words, written separately from the module."
    total = natural + bonus
    fails = total < dc or (natural == 1 and natural_1)
    if not fails: level = 0
    else:
        short = dc - total
        level = 3 if short > 10 else 2 if short > 5 else 1
        if mook: level = 3 if attack == "stun" else 4
        elif natural == 20 and 20 + bonus < dc: level = min(level, 1)
    return level if cap is None else min(level, cap)


@settings(max_examples=400, deadline=None)
@given(st.integers(-10, 40), st.integers(0, 60), st.sampled_from(["stun", "lethal"]), st.integers(0, 8), st.integers(0, 8),
       st.booleans(), st.sampled_from(list(MAX_EFFECTS)), st.booleans())
def test_odds_agree_with_the_oracle_and_sum_to_one(save, dc, attack, stun, lethal, mook, cap, nat1):
    odds = damage_save_odds(save, dc, attack, stun, lethal, mook, cap, natural_1=nat1)
    assert sum(odds.values()) == 1
    assert list(odds) == list(outcome_names(attack, mook))
    bonus = save + hit_penalty(stun, lethal, attack)
    levels = [oracle(bonus, dc, n, attack, mook, MAX_EFFECTS[cap], nat1) for n in range(1, 21)]
    assert list(odds.values()) == [Fraction(levels.count(k), 20) for k in range(len(odds))]


def worse_or_equal(odds, k):
    return sum(list(odds.values())[k:], Fraction(0))


@settings(max_examples=300, deadline=None)
@given(st.integers(-10, 39), st.integers(0, 60), st.sampled_from(["stun", "lethal"]), st.integers(0, 5), st.integers(0, 5),
       st.booleans(), st.sampled_from(list(MAX_EFFECTS)), st.booleans())
def test_a_higher_save_bonus_never_makes_a_worse_result_more_likely(save, dc, attack, stun, lethal, mook, cap, nat1):
    low = damage_save_odds(save, dc, attack, stun, lethal, mook, cap, natural_1=nat1)
    high = damage_save_odds(save + 1, dc, attack, stun, lethal, mook, cap, natural_1=nat1)
    for k in range(1, len(low)):
        assert worse_or_equal(high, k) <= worse_or_equal(low, k)
    # and neither do a lower DC or fewer hits
    easier = damage_save_odds(save, max(0, dc - 1), attack, stun, lethal, mook, cap, natural_1=nat1)
    fewer = damage_save_odds(save, dc, attack, max(0, stun - 1), lethal, mook, cap, natural_1=nat1)
    for k in range(1, len(low)):
        assert worse_or_equal(easier, k) <= worse_or_equal(low, k) and worse_or_equal(fewer, k) <= worse_or_equal(low, k)


def test_the_impossible_save_and_the_mook_exception():
    assert damage_save_odds(0, 60) == {"No Effect": 0, "Injured (Hit)": Fraction(1, 20), "Stunned": 0, "Disabled": Fraction(19, 20)}
    assert damage_save_odds(0, 60, mook=True)["Dead"] == 1
    assert damage_save_odds(0, 60, mook=True, max_effect="stunned")["Stunned"] == 1
    assert is_mook(6, 1) and not is_mook(6, 2)


# --- bad input -----------------------------------------------------------------------------------------------------------

BAD = [
    (lambda: damage_save_odds(float("nan"), 15), "save_bonus: must be a whole number"),
    (lambda: damage_save_odds(2.0, 15), "save_bonus: must be a whole number"),
    (lambda: damage_save_odds("2", 15), "save_bonus: must be a whole number"),
    (lambda: damage_save_odds(2, 15, mook="False"), "mook: must be True or False"),
    (lambda: damage_save_odds(2, 15, natural_1=1), "natural_1: must be True or False"),
    (lambda: damage_save_odds(2, 15, attack="fire"), "attack: must be one of"),
    (lambda: damage_save_odds(2, 15, max_effect="soft"), "max_effect: must be one of"),
    (lambda: damage_save_odds(2, 15, stun_hits=-1), "stun_hits: must be from 0 to 100"),
    (lambda: damage_save(2, 15, 0), "natural: must be from 1 to 20"),
    (lambda: damage_bonus("melee", strength=math.inf), "strength: must be a whole number"),
    (lambda: damage_bonus("laser"), "source: must be one of"),
    (lambda: damage_bonus("melee", mighty_blow="True"), "mighty_blow: must be True or False"),
    (lambda: damage_save_dc(3, sneak_attack_feats=1.5), "sneak_attack_feats: must be a whole number"),
    (lambda: recovery_rate(1, medical="yes"), "medical: must be True or False"),
    (lambda: wake_odds(1, 2.5), "minutes: must be a whole number"),
    (lambda: disabled_recovery_odds("1", 2), "con: must be a whole number"),
    (lambda: dying_odds(2, 91), "hours: must be from 0 to 90"),
    (lambda: Target("X", damn_healthy=True), "damn_healthy: must be a whole number"),
    (lambda: Target(""), "name: must not be empty"),
    (lambda: DamageRules(natural_1="False"), "natural_1: must be True or False"),
    (lambda: DamageTrack(Target("X")).attack(15, "lethal", natural=10, attacker_level=2.0), "attacker_level: must be a whole number"),
    (lambda: DamageTrack(Target("X")).wait(hours=-1), "hours: must be from 0"),
    (lambda: DamageTrack(Target("X")).wait(), "rounds: let at least one round pass"),
    (lambda: DamageTrack(Target("X")).push("attack"), "event: must be one of the events"),
]


@pytest.mark.parametrize("call,why", BAD)
def test_bad_input_is_refused_naming_the_parameter(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()


# --- the record ----------------------------------------------------------------------------------------------------------

def test_a_whole_evening_replays_from_its_saved_form():
    t = DamageTrack(Target("Rei", con=2, armour=2, damn_healthy=1, fortitude=4, level=6, fate_points=1))
    t.attack(19, natural=4); t.fate_point(); t.end_round()
    t.attack(30, natural=2)  # 2 + 5 − 1 = 6 vs 30: Disabled
    t.strenuous(); t.dying_save(natural=11); t.stabilise(5, natural=15)
    t.wait(minutes=1); t.wake(natural=12); t.wait(days=1, resting=True); t.recover(natural=19)
    assert t.record.condition == "Injured (2)"
    again = DamageTrack.from_dict(copy.deepcopy(t.to_dict()))
    assert again.records == t.records and again.log == t.log


def events_strategy():
    return st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(1, 20), st.integers(0, 45), st.booleans()), max_size=25)


@settings(max_examples=150, deadline=None)
@given(events_strategy())
def test_any_sequence_of_allowed_events_undoes_and_saves_exactly(script):
    t = DamageTrack(Target("P", con=1, armour=1, fortitude=2, level=5, fate_points=2))
    for kind, d20, dc, flag in script:
        legal = t.legal()
        before, n = t.record, len(t.events)
        call = {"attack": lambda: t.attack(dc, "stun" if flag else "lethal", natural=d20, attacker_level=10 if d20 == 7 else -1),
                "fate point": t.fate_point, "end round": t.end_round,
                "wait": lambda: t.wait(days=1, resting=flag) if d20 > 14 else t.wait(minutes=1 + dc, resting=flag, medical=flag),
                "wake": lambda: t.wake(natural=d20), "recover": lambda: t.recover(natural=d20), "strenuous": t.strenuous,
                "dying save": lambda: t.dying_save(natural=d20), "stabilise": lambda: t.stabilise(3, natural=d20)}[kind]
        if kind in legal:
            call()
            r = t.record
            assert r.stun_hits >= 0 and r.lethal_hits >= 0 and r.fate_points >= 0
            assert not (r.dead and r.dying) and not (r.dying and r.disabled)
            assert r.out == (r.unconscious or r.dying)
            t.undo()
            assert t.record == before and len(t.events) == n
            call()
        else:
            with pytest.raises(InputError):
                call()
            assert t.record == before and len(t.events) == n  # a refusal changes nothing
    saved = DamageTrack.from_dict(copy.deepcopy(t.to_dict()))
    assert saved.records == t.records
    while t.events: t.undo()
    assert t.record == HitRecord(fate_points=2)


ATTACK = {"event": "attack", "dc": 19, "attack": "lethal", "natural": 4, "attacker_level": -1, "max_effect": "none", "maximum_force": False}


@pytest.mark.parametrize("field,value,why", [
    (("target", "fortitude"), "4", "target.fortitude: must be a whole number"),
    (("target", "fate_points"), 1.0, "target.fate_points: must be a whole number"),
    (("rules", "disabled_hit"), "False", "rules.disabled_hit: must be true or false"),
    (("rules", "house"), 1, "rules.house: is not a field of DamageRules"),
    (("events", 0), {"event": "heal", "amount": 3}, "events[0]: must name one of the events"),
    (("events", 0), ATTACK | {"natural": "4"}, "events[0].natural: must be a whole number"),
    (("events", 0), ATTACK | {"max_effect": None}, "events[0].max_effect: must be text"),
    (("events", 0), {"event": "attack", "dc": 19, "attack": "lethal"}, "events[0]: is incomplete"),
    (("events", 0), {"event": "attack", "dc": 19, "attack": "lethal", "natural": 4}, "events[0]: is incomplete: missing attacker_level"),
    (("events", 0), {"event": ["attack"]}, "events[0]: must name one of the events"),
    (("events", 0), {"event": {"attack": 1}}, "events[0]: must name one of the events"),
    (("events", 0), ["attack"], "events[0]: must name one of the events"),
    (("target", "name"), ["P"], "target.name: must be text"),
    (("events", 0), {"event": "wake", "natural": 10}, "events[0]: wake: P is not unconscious"),
])
def test_a_damaged_save_is_refused_field_by_field(field, value, why):
    t = DamageTrack(Target("P", fate_points=1)); t.attack(19, natural=4)
    data = copy.deepcopy(t.to_dict())
    data[field[0]][field[1]] = value
    with pytest.raises(ValueError, match=re.escape(why)):
        DamageTrack.from_dict(data)


# --- the odds are the record's own chances ------------------------------------------------------------------------------

def per_try_chances(target: Target, setup, event, tries: int) -> list[Fraction]:
    "Each try's chance of success as the record plays it: every face pushed and taken back, then a natural 1 (a miss) kept."
    t = DamageTrack(target)
    setup(t)
    out = []
    for _ in range(tries):
        wins = 0
        for n in range(1, 21):
            t.push(event(n))
            wins += not (t.record.disabled if event is Recover else t.record.unconscious)
            t.undo()
        out.append(Fraction(wins, 20))
        t.push(event(1))
        t.wait(days=1) if event is Recover else t.wait(minutes=1)
    return out


def within(chances: list[Fraction], k: int) -> Fraction:
    "The chance that one of the first k tries succeeds: one less the product of their misses."
    miss = Fraction(1)
    for p in chances[:k]: miss *= 1 - p
    return 1 - miss


@pytest.mark.parametrize("con", [-10, -3, -2, -1, 0, 2, 17, 18, 19, 60])
def test_disabled_recovery_odds_are_the_product_of_the_records_daily_chances(con):
    def disabled(t): t.attack(100, natural=2); t.wait(days=1)
    chances = per_try_chances(Target("P", con=con), disabled, Recover, 32)
    for days in range(0, 33):
        assert disabled_recovery_odds(con, days) == within(chances, days), days
    # past the last try computed, every try has the chance of the last (only a natural 1 fails)
    assert chances[-1] == Fraction(19, 20) and disabled_recovery_odds(con, 100) == 1 - (1 - within(chances, 32)) * Fraction(1, 20) ** 68


@pytest.mark.parametrize("con", [-10, -5, 0, 9, 60])
def test_wake_odds_are_the_product_of_the_records_chances(con):
    def out(t): t.attack(100, "stun", natural=2); t.wait(minutes=1)
    chances = per_try_chances(Target("P", con=con), out, Wake, 22)
    for minutes in range(0, 23):
        assert wake_odds(con, minutes) == within(chances, minutes), minutes


def test_two_tries_that_need_a_natural_20_do_not_freeze_the_bonus():
    # Con −1: day 1 needs 21 (a natural 20), day 2 needs 20 (a natural 20), day 3 needs 19: 2 faces
    assert disabled_recovery_odds(-1, 3) == 1 - Fraction(19, 20) * Fraction(19, 20) * Fraction(18, 20)


def dying_by_the_record(fortitude: int, hours: int, medical: int | None, medical_first: bool) -> dict[str, Fraction]:
    "A dying character's fate by exact enumeration of the record: the helper tries as early as each hour allows."
    start = DamageTrack(Target("P", fortitude=fortitude))
    start.attack(100, natural=2); start.strenuous()
    states = {start.record: (Fraction(1), list(start.events))}

    def step(states, make):
        out = {}
        for rec, (p, events) in states.items():
            if not rec.dying:
                out[rec] = (out.get(rec, (0,))[0] + p, events); continue
            for n in range(1, 21):
                t = DamageTrack(start.target, DamageRules(), events + [make(n)])
                q = out.get(t.record, (Fraction(0), t.events))
                out[t.record] = (q[0] + p / 20, q[1])
        return out

    for h in range(hours + 1):
        if medical is not None and (h >= 2 or h == (0 if medical_first else 1)):
            states = step(states, lambda n: Stabilise(medical, n))
        states = step(states, DyingSave)
    totals = {"dead": Fraction(0), "stable": Fraction(0), "still dying": Fraction(0)}
    for rec, (p, _) in states.items():
        totals["dead" if rec.dead else "still dying" if rec.dying else "stable"] += p
    return totals


@pytest.mark.parametrize("fortitude,hours,medical,first", [(2, 0, None, True), (2, 3, None, True), (2, 0, 6, True), (2, 3, 6, True),
                                                           (2, 3, 6, False), (-1, 2, 0, True), (8, 2, 15, False), (0, 4, 3, True)])
def test_dying_odds_are_the_records_by_enumeration(fortitude, hours, medical, first):
    assert dying_odds(fortitude, hours, medical, medical_first=first) == dying_by_the_record(fortitude, hours, medical, first)


def test_a_helper_on_the_spot_tries_before_the_first_save():
    # Medical +6 vs DC 15: 9–20 stabilises (12 in 20); without it the first save at DC 10 with Fortitude +2 kills 7 in 20
    assert dying_odds(2, 0, 6)["stable"] == Fraction(12, 20) + Fraction(8, 20) * Fraction(3, 20)
    assert dying_odds(2, 0, 6, medical_first=False) == dying_odds(2, 0)
    t = DamageTrack(Target("P", fortitude=2)); t.attack(100, natural=2); t.strenuous()
    assert "stabilise" in t.legal()  # the record lets the helper try at once


# --- a Fate Point on the blow that has just killed -------------------------------------------------------------------

def test_a_fate_point_turns_a_mooks_death_into_disabled():
    t = DamageTrack(Target("Mook", level=1, fate_points=1))
    t.attack(16, natural=14, attacker_level=6)
    assert t.record.dead and "fate point" in t.legal()
    t.fate_point()
    assert not t.record.dead and t.record.disabled and t.record.fate_points == 0 and t.record.lethal_hits == 1
    assert "Dead, one Fate Point: Disabled" in t.log[-1]


def test_a_fate_point_turns_disabled_while_dying_into_stunned():
    t = DamageTrack(Target("Ami", fortitude=2, fate_points=2))
    t.attack(100, natural=2); t.strenuous(); t.dying_save(natural=9)
    t.attack(100, natural=2)  # Disabled while Dying: dead
    assert t.record.dead
    t.fate_point()
    assert t.record.dying and t.record.stunned and not t.record.dead and t.record.fate_points == 1
    assert DamageTrack.from_dict(copy.deepcopy(t.to_dict())).records == t.records


def test_only_the_blow_that_has_just_killed_can_be_softened():
    t = DamageTrack(Target("Ami", fortitude=0, fate_points=3))
    t.attack(100, natural=2); t.strenuous(); t.dying_save(natural=2)  # a failed dying save: not a Damage Save result
    assert t.record.dead and t.legal() == ()
    with pytest.raises(InputError, match="fate point: Ami is dead"):
        t.fate_point()
    m = DamageTrack(Target("Mook", level=1, fate_points=2))
    m.attack(16, natural=14, attacker_level=6); m.fate_point()
    with pytest.raises(InputError, match="fate point: a Fate Point lowers the result of the attack just made, once"):
        m.fate_point()


# --- saves hold exactly their fields, and no more than a record may ------------------------------------------------------

def saved() -> dict:
    t = DamageTrack(Target("P", fate_points=1)); t.attack(19, natural=4); t.fate_point(); t.end_round()
    return copy.deepcopy(t.to_dict())


@pytest.mark.parametrize("change,why", [
    (lambda d: d.update(colour="red"), "data: has fields this tracker does not save: colour"),
    (lambda d: d.update({7: "x"}), "data: has fields this tracker does not save: 7"),
    (lambda d: d.pop("events"), "data: is missing events"),
    (lambda d: d.pop("rules"), "data: is missing rules"),
    (lambda d: d.pop("target"), "data: is missing target"),
    (lambda d: d["target"].pop("fortitude"), "target: is incomplete: missing fortitude"),
    (lambda d: d["target"].update({7: 3}), "target.7: is not a field of Target"),
    (lambda d: d["rules"].pop("natural_1"), "rules: is incomplete: missing natural_1"),
    (lambda d: d["events"][1].update(extra=1), "events[1].extra: is not a field of FatePoint"),
    (lambda d: d["events"][2].update({3: 1}), "events[2].3: is not a field of EndRound"),
    (lambda d: d.update(events="attack"), "events: must be a list"),
    (lambda d: d.update(events=[{"event": "end round"}] * (MAX_EVENTS + 1)), f"events: must have at most {MAX_EVENTS} items"),
])
def test_a_save_holds_exactly_its_fields(change, why):
    data = saved(); change(data)
    with pytest.raises(ValueError, match=re.escape(why)):
        DamageTrack.from_dict(data)


def test_a_full_record_loads_and_refuses_one_more_event():
    data = saved()
    data["events"] = [{"event": "end round"}] * MAX_EVENTS
    t = DamageTrack.from_dict(data)
    assert len(t.events) == MAX_EVENTS and t.record.clock == MAX_EVENTS
    with pytest.raises(InputError, match="event: this record is full"):
        t.end_round()
    with pytest.raises(InputError, match="events: a record holds at most"):
        DamageTrack(Target("P"), DamageRules(), [EndRound()] * (MAX_EVENTS + 1))


WEIRD = (None, [], {}, ["x"], {"a": 1}, "x", 1.5, float("nan"), True, -1, 10 ** 20, 10 ** 400)


@pytest.mark.parametrize("value", WEIRD, ids=repr)
def test_records_built_by_hand_are_refused_naming_the_field(value):
    "Every field of every event, given a value of the wrong kind or out of range: a ValueError naming it, never a crash."
    setups = {Attack: lambda t: None, Wait: lambda t: None, Wake: lambda t: (t.attack(100, "stun", natural=2), t.wait(minutes=1)),
              Recover: lambda t: (t.attack(100, natural=2), t.wait(days=1)), DyingSave: lambda t: (t.attack(100, natural=2), t.strenuous()),
              Stabilise: lambda t: (t.attack(100, natural=2), t.strenuous())}
    bases = {Attack: Attack(19, "lethal", 4), Wait: Wait(10), Wake: Wake(10), Recover: Recover(10), DyingSave: DyingSave(10),
             Stabilise: Stabilise(3, 10)}
    for cls, base in bases.items():
        for f in dataclasses.fields(cls):
            e = dataclasses.replace(base, **{f.name: value})
            t = DamageTrack(Target("P", fate_points=1)); setups[cls](t)
            try: t.push(e)
            except ValueError as err: assert str(err).split(":")[0] in (f.name, "event", cls.KIND, "natural", "rounds"), (cls, f.name, err)
            try: DamageTrack(Target("P"), DamageRules(), [e])
            except ValueError: pass
