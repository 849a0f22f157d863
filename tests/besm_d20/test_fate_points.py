"""Fate points (000 · Fate Points): the numbers against the source, each use, the ledger and its saved form."""
import copy
import dataclasses
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.fate_points import (GOAL_GAIN, LEFT_FOR_DEAD_DC, MAX_ENTRIES, SPEND_USES, START, USES, WEAPON_BREAKS, FateLedger, Gain,
                                          Spend, left_for_dead, left_for_dead_applies, left_for_dead_odds, mighty_blow, push_it,
                                          raw_power, raw_power_expr)
from besm_nb.dice import InputError, dist
from tests.helpers import seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"


def text():
    t = re.sub(r"\s+", " ", seed_text(SEED_NAME))
    return t[t.index("FATE POINTS For certain"):t.index("SCHOOL CAMPAIGNS")]


def test_the_numbers_are_the_sources():
    t = text()
    for phrase in ["you have 3 Fate Points", "Fortitude save (DC 20) after one hour", "stable and at -1 Hit Points",
                   "50% chance of snapping in two", "always shatters irreparably", "will never break",
                   "double your ranks in any one Attribute", "regain 1d6 Energy Points, plus one Energy Point per character Level",
                   "gains from 1 to 2 FPs", "reduce the severity of a Damage Save result by one level", "simply adds a +5 Damage Bonus",
                   "Left For Dead, Mighty Blow, Pushing It, Raw Power, and Destiny"]:
        assert phrase in t, phrase
    assert START == 3 and LEFT_FOR_DEAD_DC == 20 and GOAL_GAIN == (1, 2)
    assert USES == ("Left For Dead", "Mighty Blow", "Pushing It", "Raw Power", "Destiny")
    assert WEAPON_BREAKS == {"none": 0, "bought": 1, "personal gear": Fraction(1, 2), "item of power": 0}


def test_left_for_dead():
    assert left_for_dead_applies(-30, 30) and not left_for_dead_applies(-29, 30)
    assert [left_for_dead(0, False, n)[0] for n in (19, 20)] == ["dead", "stable at -1 HP"]
    assert left_for_dead(0, True)[0] == "stable at -1 HP"
    assert left_for_dead_odds(5) == Fraction(6, 20) and left_for_dead_odds(30) == Fraction(19, 20)
    assert left_for_dead_odds(5, 1) == 1


def test_mighty_blow_and_raw_power():
    assert mighty_blow("3d6+2").damage == 20 and mighty_blow("1d8+1d6", "bought").breaks == 1
    assert mighty_blow(weapon="personal gear", damage_saves=True).damage_bonus == 5
    assert dist(raw_power_expr(10)) == {k: Fraction(1, 6) for k in range(11, 17)}
    assert raw_power(10, 0, 100, 6)[0] == 16
    assert push_it("Energy Bonus", 4) == 8


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SPEND_USES + ("gain",)), st.integers(1, 3), st.integers(1, 6)), max_size=20))
def test_the_ledger_never_goes_below_zero_and_undoes(script):
    led = FateLedger("P")
    for use, n, d in script:
        before = (led.balance, len(led.entries))
        try:
            if use == "gain": led.gain(n)
            elif use == "Raw Power": led.spend(use, level=3, roll=d)
            elif use == "Mighty Blow": led.spend(use, weapon="personal gear", roll=1 + d % 2)
            else: led.spend(use, n)
        except InputError:
            assert (led.balance, len(led.entries)) == before  # a refusal changes nothing
            continue
        assert led.balance >= 0
        assert led.balance == START + led.gained - led.spent
    assert FateLedger.from_dict(copy.deepcopy(led.to_dict())).balances == led.balances
    while led.entries: led.undo()
    assert led.balance == START


BAD = [
    (lambda: left_for_dead(2.0, False, 10), "fortitude: must be a whole number"),
    (lambda: left_for_dead(2, "False", 10), "healed_in_time: must be True or False"),
    (lambda: left_for_dead_applies(float("nan"), 10), "hp: must be a whole number"),
    (lambda: mighty_blow("2d6", damage_saves="False"), "damage_saves: must be True or False"),
    (lambda: mighty_blow("2d6", weapon="stolen"), "weapon: must be one of"),
    (lambda: push_it("", 2), "attribute: must not be empty"),
    (lambda: push_it("Flight", "2"), "ranks: must be a whole number"),
    (lambda: raw_power(3, 1, 10, 3, cap="no"), "cap: must be True or False"),
    (lambda: FateLedger("P").spend("Destiny", 1.0), "points: must be a whole number"),
    (lambda: FateLedger("P").spend("Trade for CP"), "use: must be one of"),
    (lambda: FateLedger("P").gain(0), "points: must be from 1 to 2"),
    (lambda: FateLedger("P").spend("Destiny", note=5), "note: must be text"),
    (lambda: FateLedger("P", start="3"), "start: must be a whole number"),
]


@pytest.mark.parametrize("call,why", BAD)
def test_bad_input_is_refused_naming_the_parameter(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()


@pytest.mark.parametrize("i,key,value,why", [
    (0, "points", True, "entries[0].points: must be a whole number"),
    (0, "use", "Trade", "entries[0]: use: must be one of"),
    (1, "points", "1", "entries[1].points: must be a whole number"),
    (1, "when", "today", "entries[1].when: is not a field of Gain"),
])
def test_a_saved_ledger_is_checked_field_by_field(i, key, value, why):
    led = FateLedger("P"); led.spend("Destiny"); led.gain(1, "a goal")
    data = copy.deepcopy(led.to_dict())
    data["entries"][i][key] = value
    with pytest.raises(ValueError, match=re.escape(why)):
        FateLedger.from_dict(data)


# --- saves hold exactly their fields, and no more than a ledger may ------------------------------------------------------

def saved() -> dict:
    led = FateLedger("P"); led.spend("Raw Power", level=3, roll=2); led.gain(1, "a goal")
    return copy.deepcopy(led.to_dict())


@pytest.mark.parametrize("change,why", [
    (lambda d: d.update(colour="red"), "data: has fields this tracker does not save: colour"),
    (lambda d: d.update({7: "x"}), "data: has fields this tracker does not save: 7"),
    (lambda d: d.pop("entries"), "data: is missing entries"),
    (lambda d: d.pop("start"), "data: is missing start"),
    (lambda d: d.pop("name"), "data: is missing name"),
    (lambda d: d["entries"][0].pop("weapon"), "entries[0]: is incomplete: missing weapon"),
    (lambda d: d["entries"][1].pop("note"), "entries[1]: is incomplete: missing note"),
    (lambda d: d["entries"][1].update({5: 1}), "entries[1].5: is not a field of Gain"),
    (lambda d: d["entries"][0].update(entry=["spend"]), "entries[0]: must be a 'spend' or a 'gain'"),
    (lambda d: d["entries"][0].update(entry={"spend": 1}), "entries[0]: must be a 'spend' or a 'gain'"),
    (lambda d: d.update(name=["P"]), "name: must be text"),
    (lambda d: d.update(start="3"), "start: must be a whole number"),
    (lambda d: d.update(entries={"entry": "gain"}), "entries: must be a list"),
    (lambda d: d.update(entries=[{"entry": "gain", "points": 1, "note": ""}] * (MAX_ENTRIES + 1)), f"entries: must have at most {MAX_ENTRIES} items"),
])
def test_a_save_holds_exactly_its_fields(change, why):
    data = saved(); change(data)
    with pytest.raises(ValueError, match=re.escape(why)):
        FateLedger.from_dict(data)


def test_a_full_ledger_loads_and_refuses_one_more_entry():
    data = saved()
    data["entries"] = [{"entry": "gain", "points": 1, "note": ""}, {"entry": "spend", "use": "Destiny", "points": 1, "note": "", "level": 0,
                                                                    "roll": 0, "weapon": "none"}] * (MAX_ENTRIES // 2)
    led = FateLedger.from_dict(data)
    assert len(led.entries) == MAX_ENTRIES and led.balance == START
    with pytest.raises(InputError, match="entry: this ledger is full"):
        led.gain(1)
    with pytest.raises(InputError, match="entries: a ledger holds at most"):
        FateLedger("P", 3, [Gain(1)] * (MAX_ENTRIES + 1))


@pytest.mark.parametrize("value", (None, [], {}, ["x"], {"a": 1}, "x", 1.5, float("nan"), True, -1, 10 ** 20, 10 ** 400), ids=repr)
def test_entries_built_by_hand_are_refused_naming_the_field(value):
    for base in (Spend("Destiny"), Spend("Raw Power", level=3, roll=2), Spend("Mighty Blow", weapon="personal gear", roll=1), Gain(1)):
        for f in dataclasses.fields(base):
            e = dataclasses.replace(base, **{f.name: value})
            for call in (lambda: FateLedger("P").push(e), lambda: FateLedger("P", 3, [e])):
                try: call()
                except ValueError: pass
