"""Tri-Stat combat: the source's round, enumeration cross-checks and properties of the engine and odds."""
import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.tristat.combat import (damage_taken, dodge_odds, expected_loss, health_lost_odds, hit_odds, phase_order)
from besm_nb.tristat.round import Action, Attack, AttackPlan, Combatant, DiceFeed, Response, resolve_round, roll_initiative

cv = st.integers(0, 20)


@given(st.integers(0, 39), st.integers(-10, 10))
def test_more_acv_never_lowers_the_chance_to_hit(acv, mod):
    assert hit_odds(acv, mod) <= hit_odds(acv + 1, mod)


@given(cv, st.integers(1, 6))
def test_each_further_dodge_is_no_easier(dcv, nth):
    assert dodge_odds(dcv, nth + 1) <= dodge_odds(dcv, nth)


@given(st.integers(0, 500), st.integers(0, 200), st.integers(0, 200), st.integers(0, 200))
def test_damage_is_never_negative_and_never_more_than_the_total(total, shield, armour, ff):
    lost, steps = damage_taken(total, shield, armour, ff)
    assert 0 <= lost <= total and lost == max(0, total - shield - armour - ff)


@given(st.integers(0, 80), cv, cv, st.booleans(), st.integers(0, 30), st.one_of(st.none(), st.integers(0, 80)), cv)
@settings(max_examples=150, deadline=None)
def test_health_lost_odds_sum_to_one(power, acv, dcv, dodge, shield, counter, cacv):
    odds = health_lost_odds(power, acv, dodge=dodge, dcv=dcv, shield=shield, counter_power=counter, counter_acv=cacv)
    assert sum(odds.values()) == 1 and all(k >= 0 for k in odds)
    assert expected_loss(odds) <= power + acv


def test_health_lost_odds_match_brute_force():
    "Every combination of the three rolls enumerated directly (attack ACV 8, counter ACV 6, dodge DCV 5)."
    out = {}
    for a, c, d in itertools.product(range(2, 13), repeat=3):
        p = Fraction((6 - abs(a - 7)) * (6 - abs(c - 7)) * (6 - abs(d - 7)), 36 ** 3)
        hit = a == 2 or (a != 12 and a <= 8)
        if not hit:
            lost = 0
        else:
            total = 68
            if c == 2 or (c != 12 and c <= 6):
                total = 68 - 36
            dodged = d == 2 or (d != 12 and d <= 5)
            lost = 0 if dodged else max(0, total - 10)
        out[lost] = out.get(lost, 0) + p
    assert health_lost_odds(60, 8, dodge=True, dcv=5, shield=10, counter_power=30, counter_acv=6) == out


def fighters():
    return {n: Combatant(n, acv=a, dcv=d, health=40, energy=50, attacks=(Attack("Blast", 20),), shield=s)
            for n, a, d, s in [("A", 8, 6, 0), ("B", 6, 5, 0), ("C", 6, 4, 10), ("D", 7, 5, 0), ("E", 7, 5, 0)]}


def plan():
    return [Action("A", attack=AttackPlan("A", "Blast", ("B",), energy=20, responses={"B": (
                Response("D", "counterattack", 5), Response("B", "counterattack", 10), Response("C", "shield", 5), Response("B", "dodge"))})),
            Action("E", attack=AttackPlan("E", "Blast", ("A",), energy=5, responses={"A": (Response("A", "dodge"),)}))]


@given(st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_energy_accounting_balances_and_replays(seed):
    start = fighters()
    inits, _ = roll_initiative(start, DiceFeed(random.Random(seed)))
    order = [n for phase in phase_order(inits) for n in phase]
    attacks = {a.who: a for a in plan()}
    # in phase order: A and E attack; the others hold, keeping their attack action to answer A's attack
    actions = [attacks.get(n, Action(n, kind="hold")) for n in order]
    after, log = resolve_round(start, actions, inits, DiceFeed(random.Random(seed)))
    paid = sum(e.value for e in log if e.kind == "energy")
    assert sum(c.energy for c in start.values()) - sum(c.energy for c in after.values()) == paid
    assert paid == (45 if any(e.kind == "shield" or "counterattack" in e.text for e in log) else 25)  # answers only follow a hit
    lost = sum(e.value for e in log if e.kind == "damage")
    assert sum(c.health for c in start.values()) - sum(c.health for c in after.values()) == lost >= 0
    again, log2 = resolve_round(start, actions, inits, DiceFeed(random.Random(seed)))
    assert log == log2


def test_declaring_the_impossible_is_refused_before_any_roll():
    inits = {"A": 14, "B": 7, "C": 9, "D": 9, "E": 12}
    dice = DiceFeed(totals=[5, 5, 5])
    with pytest.raises(ValueError, match="already used her attack action"):
        resolve_round(fighters(), [Action("A", attack=AttackPlan("A", "Blast", ("B",), responses={"B": (
            Response("C", "counterattack"), Response("C", "shield"))}))], inits, dice)
