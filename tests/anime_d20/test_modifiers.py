"""Anime d20 attack and defence modifiers: Tables 12-4 to 12-7 cell by cell, both readings of each switch, and exact
odds of a fully modified attack against brute force and properties."""
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.anime_d20.combat import attack_odds, bab_attacks, defence_penalty, drop_below_zero, next_round_order
from besm_nb.anime_d20.modifiers import (ATTACK_MODIFIERS, DEFENCE_MODIFIERS, DEFENDING_OTHERS, attack_modifiers,
                                   block_result, defence_modifiers, movement_feet, movement_penalty, resolve_attack,
                                   target_speed_penalty, vehicle_fire_penalty)
from besm_nb.dice import InputError, dist
from tests.helpers import seed_text

SEED_NAME = "002_33214d3f36acad19.txt"

# Table 12-5 as printed (the line of the source), with the row(s) that carry it and their values.
# A value is a fixed modifier, ("per", unit) for a per-row, ("range", mildest, worst) or ("open", mildest).
TABLE_12_5 = [
    ("Taking an action to aim +2, or +3 with scope", {"aiming": ("action", 2), "aiming with a scope": ("action", 3)}),
    ("Attacking Multiple Targets with one action 0, -2, or -4 per additional target",
     {"several targets": ("per", -4), "several targets, 5+ levels weaker": ("per", -2), "several targets, 10+ levels weaker": ("per", 0)}),
    ("Attacking with two weapons (same target) -6 and -10",
     {"two weapons, same target: main hand": -6, "two weapons, same target: off hand": -10}),
    ("Attacking with two weapons (different targets) -8 and -12",
     {"two weapons, different targets: main hand": -8, "two weapons, different targets: off hand": -12}),
    ("Attempting a Combined Attack -2 per attacker after the first", {"combined attack": ("per", -2)}),
    ("Attempting to Touch the Target +6", {"touch": 6}),
    ("Making a Total Attack +2", {"total attack": 2}),
    ("Firing personal weapons from a moving vehicle -2 or -4",
     {"moving vehicle, moderate speed": ("table", -2), "moving vehicle, very fast": ("table", -4)}),
    ("Firing personal weapons while piloting a vehicle -8", {"piloting while firing": ("table", -8)}),
    ("Firing personal weapons while swimming or performing acrobatics -4", {"swimming or acrobatics": -4}),
    ("In an awkward position (on the ground, etc.) -4", {"awkward position": -4}),
    ("Jogging: At Base Movement x 2 or lower no modifier", {"jogging (walking × 2 or less)": 0}),
    ("Running: At Base Movement x 3 per round -2", {"running (walking × 3)": -2}),
    ("Sprinting: At Base Movement x 4 per round -4", {"sprinting (walking × 4)": -4}),
    ("Jogging: At two Ranks below maximum Attribute movement rate no modifier", {"jogging (two Ranks below top)": 0}),
    ("Running: At one Rank below maximum Attribute movement rate -2", {"running (one Rank below top)": -2}),
    ("Sprinting: At maximum Attribute movement rate -4", {"sprinting (top Rank)": -4}),
    ("Disarming (with melee attack) -4", {"disarm (melee)": -4}),
    ("Disarming (with a ranged attack) -8", {"disarm (ranged)": -8}),
    ("Targeting a partially armoured point -4", {"partially armoured point": -4}),
    ("Targeting a vital spot -8", {"vital spot": -8}),
    ("Targeting a Weak Point -2, -4, or -6", {"weak point (large)": -2, "weak point (small)": -4, "weak point (tiny)": -6}),
    ("up to 99 mph no modifier", {"target up to 99 mph": 0}),
    ("100 to 499 mph -2", {"target 100 to 499 mph": -2}),
    ("500 to 999 mph -4", {"target 500 to 999 mph": -4}),
    ("1,000 to 4,999 mph -6", {"target 1,000 to 4,999 mph": -6}),
    ("5,000 to 10,000 mph -8", {"target 5,000 to 10,000 mph": -8}),
    ("10,000 mph or more -10", {"target over 10,000 mph": -10}),
    ("Concealed by trees or brush -2 to -6", {"melee: in trees or brush": ("range", -2, -6)}),
    ("Partially concealed by darkness, fog, or smoke -2 to -4", {"melee: partly hidden by darkness, fog or smoke": ("range", -2, -4)}),
    ("Fully concealed by darkness, fog, or smoke -6 and up", {"melee: fully hidden by darkness, fog or smoke": ("open", -6)}),
    ("Taking cover -2 to -8", {"melee: taking cover": ("range", -2, -8)}),
    ("Concealed by trees or brush -4 to -8", {"beyond melee: in trees or brush": ("range", -4, -8)}),
    ("Partially concealed by darkness, fog, or smoke -4 to -6", {"beyond melee: partly hidden by darkness, fog or smoke": ("range", -4, -6)}),
    ("Fully concealed by darkness, fog, or smoke -12 and up", {"beyond melee: fully hidden by darkness, fog or smoke": ("open", -12)}),
    ("Taking cover -4 to -10", {"beyond melee: taking cover": ("range", -4, -10)}),
    ("Attacking at up to twice range -4", {"up to twice range": -4}),
    ("Attacking at up to four times range -8", {"up to four times range": -8}),
]
TABLE_12_6 = [
    ("Dodge/Parry Defence No Modifier", {"dodge/parry": 0}),
    ("Block Defence +2", {"block": 2}),
    ("Total Defence +4 per attack sacrificed", {"total defence": ("table-per", 4)}),
    ("Defending Against Multiple Attacks -2 per additional attack (cumulative)", {"multiple attacks": ("per", -2)}),
    ("Defending Against Undetectable Assailant -8", {"undetectable assailant": -8}),
    ("Defending When Surprised or Flat-Footed No Dex Bonus", {"surprised or flat-footed": "no dex"}),
    ("Defending Against Critical Hit No Defence Possible", {"critical hit": None}),
]
TABLE_12_7 = [
    ("Target is within reach -2", {"target within reach": -2}),
    ("Target is at medium range -4", {"target at medium range": -4}),
    ("Target is at long range -6", {"target at long range": -6}),
    ("Target is in an awkward position -2", {"target in an awkward position": -2}),
    ("Defender is in an awkward position -2", {"defender in an awkward position": -2}),
    ("Target concealed by trees or bush -2", {"target concealed by trees or bush": -2}),
    ("Target concealed by darkness, smoke -4", {"target concealed by darkness or smoke": -4}),
    ("Defending against additional attacks -4 (cumulative)", {"additional attacks": ("per", -4)}),
    ("Defender is surprised Defence Not Possible", {"defender surprised": None}),
    ("Defending against Undetectable assailant Defence Not Possible", {"undetectable assailant": None}),
]


def test_the_printed_lines_are_the_seeds():
    text = seed_text(SEED_NAME)
    for line, _ in TABLE_12_5 + TABLE_12_6 + TABLE_12_7:
        assert line in text, line


def test_every_row_is_covered_exactly_once():
    for printed, table in ((TABLE_12_5, ATTACK_MODIFIERS), (TABLE_12_6, DEFENCE_MODIFIERS), (TABLE_12_7, DEFENDING_OTHERS)):
        names = [n for _, rows in printed for n in rows]
        assert sorted(names) == sorted(table) and len(set(names)) == len(names)


def _value(fn, name, expected):
    "Check one cell by summing it alone with the right function."
    if expected is None:
        assert fn([name])[0] is None
    elif expected == "no dex":
        assert [fn([(name, d)])[0] for d in (-2, 0, 3)] == [0, 0, -3]
    elif isinstance(expected, int):
        assert fn([name])[0] == expected
    elif expected[0] in ("action", "table"):
        kw = {"aim": "action"} if expected[0] == "action" else {"vehicle": "table"}
        assert fn([name], **kw)[0] == expected[1]
    elif expected[0] == "per":
        assert [fn([(name, n)])[0] for n in (1, 2, 3)] == [expected[1] * n for n in (1, 2, 3)]
    elif expected[0] == "table-per":
        assert [fn([(name, n)], total_defence="table")[0] for n in (1, 2, 3)] == [expected[1] * n for n in (1, 2, 3)]
    elif expected[0] == "range":
        _, mild, worst = expected
        assert fn([name])[0] == mild and fn([(name, worst)])[0] == worst
        for bad in (mild + 1, worst - 1):
            with pytest.raises(InputError, match="takes a whole number"): fn([(name, bad)])
    elif expected[0] == "open":
        assert fn([name])[0] == expected[1] and fn([(name, expected[1] - 10)])[0] == expected[1] - 10
        with pytest.raises(InputError): fn([(name, expected[1] + 1)])


@pytest.mark.parametrize("line,rows", TABLE_12_5)
def test_table_12_5_cell_by_cell(line, rows):
    for name, expected in rows.items():
        if name == "piloting while firing":
            assert attack_modifiers([name], vehicle="table")[0] == -8
            continue
        _value(attack_modifiers, name, expected)


@pytest.mark.parametrize("line,rows", TABLE_12_6)
def test_table_12_6_cell_by_cell(line, rows):
    for name, expected in rows.items(): _value(defence_modifiers, name, expected)


@pytest.mark.parametrize("line,rows", TABLE_12_7)
def test_table_12_7_cell_by_cell(line, rows):
    for name, expected in rows.items(): _value(lambda c, **kw: defence_modifiers([], others=c, **kw), name, expected)


def test_table_12_4_and_the_movement_text():
    # the text: sprinting -4, running -2, jogging none; Parry/Dodge never penalised; Block is
    assert [movement_penalty(p, c) for c in ("attack", "block", "dodge/parry") for p in ("jogging", "running", "sprinting")] == \
        [0, -2, -4, 0, -2, -4, 0, 0, 0]
    # 3 feet x Dexterity walking for a human; jog x2, run x3, sprint x4; half a foot per Dexterity crawling
    assert [movement_feet(10, p) for p in ("walking", "jogging", "running", "sprinting")] == [30, 60, 90, 120]
    assert movement_feet(10, crawling=True) == 5


def test_both_readings_of_each_switch():
    # Extra Aim: text a full round +4 / +6; table an action +2 / +3
    assert [attack_modifiers([r], aim=a)[0] for a in ("round", "action") for r in ("aiming", "aiming with a scope")] == [4, 6, 2, 3]
    # moving vehicle: text -4 / -8, piloting -4 more; table -2 / -4, piloting -8 in all
    assert [vehicle_fire_penalty(s, p, r) for r in ("text", "table") for p in (False, True) for s in ("moderate", "very fast")] == \
        [-4, -8, -8, -12, -2, -4, -8, -8]
    assert attack_modifiers(["moving vehicle, very fast", "piloting while firing"], vehicle="text")[0] == -12
    assert attack_modifiers(["piloting while firing"], vehicle="table")[0] == -8
    with pytest.raises(InputError, match="whole penalty"):
        attack_modifiers(["moving vehicle, very fast", "piloting while firing"], vehicle="table")
    # Total Defence: text +4 for the round; table +4 per attack sacrificed
    assert defence_modifiers(["total defence"])[0] == 4
    assert defence_modifiers([("total defence", 3)], total_defence="table")[0] == 12
    with pytest.raises(InputError, match="takes no value"): defence_modifiers([("total defence", 3)])


def test_fast_targets_and_the_overlap_at_10000():
    assert [target_speed_penalty(s) for s in (99, 100, 9_999, 10_000, 10_000.5)] == [0, -2, -8, -8, -10]


def test_unknown_and_incompatible_rows_are_refused():
    for bad, msg in ((["jump kick"], "unknown row"), (["vital spot", "disarm (ranged)"], "called shot"),
                     (["up to twice range", "up to four times range"], "cannot be combined"),
                     (["melee: taking cover", "beyond melee: in trees or brush"], "cannot be both")):
        with pytest.raises(InputError, match=msg) as e: attack_modifiers(bad)
        assert e.value.param == "rows"
    with pytest.raises(InputError) as e: defence_modifiers(["block"], ranged=True)
    assert e.value.param == "ranged"


def test_cumulative_rows_match_defence_penalty():
    assert [defence_modifiers([("multiple attacks", k)])[0] for k in range(1, 6)] == [defence_penalty(n) for n in range(2, 7)]


def test_block_lets_through_what_beats_the_object_and_breaks_it_at_five_times():
    assert block_result(30, 6) == (24, True) and block_result(29, 6) == (23, False) and block_result(3, 6) == (0, False)


def test_next_round_and_iterative_attacks():
    assert next_round_order([["A"], ["B", "C"], ["D"]], ["D", "B"]) == [["B", "D"], ["A"], ["C"]]
    assert [len(bab_attacks(b)) for b in (5, 6, 10, 11, 15, 16, 30)] == [1, 2, 2, 3, 3, 4, 4]


def brute(atk, ac, dfn, pen, damage, armour, hp):
    "Every attack die, defence die and damage total, one by one (a critical: twice the dice)."
    lands = Fraction(0)
    dropped = Fraction(0)
    normal = dist(damage)
    doubled = dist(f"{damage}+{damage}")
    for a in range(1, 21):
        for d in range(1, 21):
            p = Fraction(1, 400)
            if a == 20: table = doubled
            elif a == 1 or a + atk < ac: continue
            elif dfn is not None and d != 1 and (d == 20 or d + dfn + pen > a + atk): continue
            else: table = normal
            lands += p
            dropped += p * sum(q for k, q in table.items() if max(0, k - armour) > hp)
    return lands, dropped


@given(st.integers(-5, 20), st.integers(5, 30), st.one_of(st.none(), st.integers(-5, 20)), st.integers(1, 3),
       st.sampled_from(["1d6", "2d4", "3d8"]), st.integers(0, 6), st.integers(0, 30),
       st.sampled_from([(), ("aiming",), ("touch", "vital spot"), (("melee: taking cover", -6),)]))
@settings(max_examples=120, deadline=None)
def test_resolver_matches_brute_force(bonus, ac, dbonus, nth, damage, armour, hp, rows):
    pace = "still" if "aiming" in rows else "walking"  # Extra Aim needs her to stand still
    r = resolve_attack(bonus, ac, damage, rows, pace, defence_bonus=dbonus, nth_defence=nth, armour=armour, current_hp=hp)
    assert r.attack_bonus == bonus + attack_modifiers(rows)[0]
    stepped = {"1d6": "1d8", "2d4": "2d6", "3d8": "3d10"}[damage] if "vital spot" in rows else damage  # a vital spot: each die one size up
    assert r.damage == stepped
    lands, dropped = brute(r.attack_bonus, ac, dbonus, defence_penalty(nth), stepped, armour, hp)
    assert r.odds.lands == lands and r.drop == dropped
    assert sum(r.odds.outcomes.values()) == 1 and sum(r.odds.damage.values()) == 1
    assert min(r.odds.damage) >= 0


@given(st.integers(-10, 29), st.integers(0, 40), st.integers(-10, 30), st.sampled_from([(), ("touch",), ("aiming", "awkward position")]),
       st.sampled_from([["dodge/parry"], ["block"], ["total defence"]]), st.integers(0, 10), st.integers(0, 20))
@settings(max_examples=120, deadline=None)
def test_a_bigger_bonus_never_lowers_the_hit_chance_and_damage_is_never_negative(bonus, ac, dbonus, rows, defence, obj, hp):
    kw = dict(defence_bonus=dbonus, defence=defence, object_armour=obj, armour=2, current_hp=hp, pace="still" if "aiming" in rows else "walking")
    lo, hi = resolve_attack(bonus, ac, "2d6", rows, **kw), resolve_attack(bonus + 1, ac, "2d6", rows, **kw)
    assert lo.odds.lands <= hi.odds.lands
    assert lo.drop <= hi.drop  # miss -> blocked or hit, blocked -> hit: each only adds damage
    for r in (lo, hi):
        assert min(r.odds.damage) >= 0
        assert sum(r.odds.outcomes.values()) == 1 and sum(r.odds.damage.values()) == 1
        assert r.drop == drop_below_zero(r.odds, hp)


@given(st.integers(0, 30), st.integers(1, 40))
@settings(max_examples=60, deadline=None)
def test_a_block_with_an_object_only_adds_damage_on_blocked_attacks(obj, dmg_bonus):
    damage = f"1d6+{dmg_bonus}"
    plain = attack_odds(5, 12, damage, 4)
    blocked = resolve_attack(5, 12, damage, defence_bonus=2, defence=["block"], object_armour=obj)  # 2 + 2 for the Block = 4
    assert blocked.odds.outcomes == plain.outcomes
    extra = blocked.odds.outcomes["defended"] * sum(max(0, k - obj) * p for k, p in dist(damage).items())
    assert blocked.odds.expected == plain.expected + extra


@given(st.integers(-5, 20), st.integers(5, 30), st.integers(-5, 20), st.integers(1, 4), st.integers(0, 2),
       st.sampled_from(["table", "both"]), st.sampled_from([["target within reach"], ["target at long range", "target in an awkward position"]]),
       st.integers(0, 12))
@settings(max_examples=120, deadline=None)
def test_defending_someone_else_matches_brute_force(bonus, ac, dbonus, nth, free, reading, others, hp):
    r = resolve_attack(bonus, ac, "2d4", defence_bonus=dbonus, others=others, nth_defence=nth, extra_defences=free,
                       others_penalty=reading, current_hp=hp)
    step = {"table": -4, "both": -6}[reading]  # Table 12-7's -4 instead of, or on top of, the usual -2
    pen = step * max(0, nth - 1 - free)
    assert r.nth_penalty == pen and r.defence_bonus == dbonus + defence_modifiers([], others=others)[0]
    lands, dropped = brute(bonus, ac, r.defence_bonus, pen, "2d4", 0, hp)
    assert r.odds.lands == lands and r.drop == dropped


def test_defending_someone_else_refuses_a_second_count_and_unknown_readings():
    with pytest.raises(InputError) as e:
        resolve_attack(6, 14, "2d6", defence_bonus=4, others=[("additional attacks", 1)])
    assert e.value.param == "others"
    with pytest.raises(InputError) as e:
        resolve_attack(6, 14, "2d6", defence_bonus=4, others=["target within reach"], others_penalty="stack")
    assert e.value.param == "others_penalty"


def test_defence_natural_20_switch_reaches_the_resolver():
    # she cannot out-roll a +30 attack; only her natural 20s defend, and only under the default reading
    on = resolve_attack(30, 0, "1d6", defence_bonus=-20)
    off = resolve_attack(30, 0, "1d6", defence_bonus=-20, defence_natural_20=False)
    assert on.odds.outcomes["defended"] == Fraction(18, 400) and off.odds.outcomes["defended"] == 0


def test_the_magical_girls_ninja_cost_minus_10():
    # "Attacking Multiple Weaker Opponents": Rank 12 against Ninja of Ranks 1, 1, 2, 2, 4, 4, 6, 8 -> -2 -2 -2 -4 = -10
    rows = [("several targets, 10+ levels weaker", 3), ("several targets, 5+ levels weaker", 3), ("several targets", 1)]
    assert attack_modifiers(rows)[0] == -10


def test_speeds_must_be_finite_and_attribute_ranks_start_at_1():
    from besm_nb.anime_d20.modifiers import attribute_pace
    for bad in (float("inf"), float("nan"), -1):
        with pytest.raises(InputError) as e: target_speed_penalty(bad)
        assert e.value.param == "mph"
    assert [target_speed_penalty(s) for s in (99.5, 499.9)] == [0, -2]
    with pytest.raises(InputError) as e: attribute_pace(0, 3)
    assert e.value.param == "rank"
    assert [attribute_pace(r, 3) for r in (3, 2, 1)] == ["sprinting", "running", "jogging"]


def test_total_attack_costs_ac_for_the_whole_round():
    assert ATTACK_MODIFIERS["total attack"].value == 2 and "whole round" in ATTACK_MODIFIERS["total attack"].note
