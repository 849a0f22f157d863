"""Unit combat (000 · Big Combats, Small Counters): the tables and the sample roster against the source text, every
worked example, the round engine and its saves, exact attack odds, properties, and refusals of bad input."""
import json
import random
import re
from pathlib import Path
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.anime_d20.combat import attack_odds
from besm_nb.besm_d20.unit_attacks import (TABLE_A12, DamageResult, apply_damage, counters_failing, hit_dice_loss, mass_save,
                                           outmatching, save_percentage, spell_dc, unit_attack_result, unit_hit_points)
from besm_nb.besm_d20.unit_morale import STANDING_MODIFIER, TABLE_A13, TABLE_A14, morale_bonus, morale_triggers
from besm_nb.besm_d20.unit_rounds import (Combat, UnitAction, UnitRules, attack, attack_outlook, combat_from_dict, hit_dice,
                                          morale_check, next_round, pass_turn, roll_initiative, save_effect, start_combat)
from besm_nb.besm_d20.units import (BALLISTA, NEVER_LISTED, NISHIHAMA, Unit, allowed_unit_types, cavalry_counter_hp, counter_hp,
                                    majority, mecha_hit_dice, unit_initiative_bonus, unit_level)
from besm_nb.dice import InputError
from tests.helpers import pasted_runs, prose_pasted, seed_text

SEED = "000_f9e715c2d04899ab.txt"
GOBLINS = Unit("Goblin raiders", "B", 10, 10, initiative=1, attack=(1,), damage="1d6", ac=1, armour=2, standing="mercenary")


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


# --- the source ------------------------------------------------------------------------------------------------

def test_sample_roster_against_the_seed():
    text = section(seed_text(SEED), "Warriors of Nishihama", "RACE, CLASS, LEVEL")
    assert "Unit Size:\t8" in text and "Creatures Per Counter:\t10" in text
    assert "Counter Hit Points:\t11 (+10% Constitution 12)" in text and "Initiative:\t+4 (+4 Improved Initiative)" in text
    assert "Fort: +3; Ref: +0; Will: +0" in text and "Long sword 1d8+3" in text and "Armour:\t5" in text and "AC:\t0 (Dex)" in text
    assert (NISHIHAMA.counters, NISHIHAMA.per_counter, NISHIHAMA.counter_hp, NISHIHAMA.initiative) == (8, 10, 11, 4)
    assert (NISHIHAMA.fortitude, NISHIHAMA.reflex, NISHIHAMA.will, NISHIHAMA.damage, NISHIHAMA.armour, NISHIHAMA.ac) == (3, 0, 0, "1d8+3", 5, 0)
    assert counter_hp(1, 10, 12)[0] == 11 and unit_initiative_bonus(NISHIHAMA.initiative)[0] == 4


def test_never_listed_feats_against_the_seed():
    text = section(seed_text(SEED), "The following Feats have no effect", "ABILITY SCORES")
    listed = text.split("BCSC.", 1)[1]
    assert [f.strip(" .\n") for f in listed.split(",")] == list(NEVER_LISTED)


def test_table_a12_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-12", "SAVING THROWS")
    rows = re.findall(r"^(.+?)\t([+-]\d)\t([+-]\d)", text, re.M)
    assert [(int(a), int(m)) for _, a, m in rows] == [(r[1], r[2]) for r in TABLE_A12]
    assert [l for l, _, _ in rows] == ["Ten or more times enemy's", "Five times enemy's", "Three times enemy's", "Twice enemy's",
                                       "50% of enemy's", "33% of enemy's", "20% of enemy's", "10% or less of enemy's"]
    # each printed ratio gets its own row
    assert [outmatching(m, 100) for m in (1000, 500, 300, 200, 50, 33, 20, 10)] == [r[1] for r in TABLE_A12]


def test_table_a13_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-13", "Unit Types")
    dcs = [int(x) for x in re.findall(r"\t(\d\d)\s*\n", text.split("The following modifiers")[0])]
    assert dcs == [dc for _, _, dc in TABLE_A13] == [15, 20, 10, 15, 15]
    assert "Elite unit**\t+2" in text and "Mercenary unit" in seed_text(SEED) and "Enslaved unit *" in seed_text(SEED)
    assert re.search(r"\n-1\n\n-4\n", text)  # the orphaned values, restored to the mercenary and enslaved rows
    assert (STANDING_MODIFIER["mercenary"], STANDING_MODIFIER["enslaved"]) == (-1, -4)
    assert "Morale check at DC 20 in order to rally" in text


def test_table_a14_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-14", "GAINING EXPERIENCE")
    rows = dict((k, int(v)) for k, v in re.findall(r"^(.+?)\t([+-]\d)$", text, re.M))
    assert rows == TABLE_A14


def test_ballista_against_the_seed():
    text = section(seed_text(SEED), "BALLISTA ATTRIBUTES", "PLAYER CHARACTERS")
    costs = [int(x) for x in re.findall(r"\[(-?\d+)\]", text)]
    assert costs == [30, 10, 25, 0, 5, -5, -6, -10, -1, 14]
    assert sorted(costs) == sorted(v for _, v in BALLISTA.attributes + BALLISTA.defects + BALLISTA.weapons if v or _.startswith("Defence"))
    assert "62 Mecha Points (1 major item of Personal Gear)" in text and (BALLISTA.mecha_points, BALLISTA.gear_items) == (62, 1)
    assert re.search(r"Range Increment:\s*\n", text)  # lost in the OCR


# --- worked examples ----------------------------------------------------------------------------------------------

def test_the_majority_examples():
    assert majority({"human fighters": 27, "elven samurai": 3}) == "human fighters"
    assert unit_level({4: 8, 5: 2}) == 4


def test_overflow_examples():
    assert apply_damage(8, 10, 0, 20) == DamageResult(2, 0, 0, 6)
    r = apply_damage(8, 10, 0, 14)
    assert r == DamageResult(1, 4, 0, 7) and apply_damage(7, 10, 4, 6).removed == 1


def test_outmatching_ten_against_ten_gives_nothing():
    assert outmatching(10, 10) == 0 == outmatching(10, 10, "morale")


def test_issa_fireball_end_to_end():
    dc = spell_dc(3, 19)
    assert dc == 17 and save_percentage(dc, 2) == 70 and counters_failing(10, 70) == 7
    ms = mass_save(10, dc, 2, 25)
    assert (ms.failed * ms.per_failed, ms.saved * ms.per_saved, ms.total) == (175, 36, 211)
    assert apply_damage(10, 33, 0, 211) == DamageResult(6, 13, 0, 4)
    assert mass_save(10, dc, 2, 25, armour=5).per_failed == 20  # Armour off the 25, not the 211
    dwarves = Unit("Dwarves", "B", 10, 33, reflex=2)
    s, _ = roll_initiative(start_combat([NISHIHAMA, dwarves]), [10, 5])
    s, _ = save_effect(s, "Dwarves", 17, "reflex", "7d6", dice=[25])
    assert (s.get("Dwarves").counters, s.get("Dwarves").carry) == (4, 13)


def test_cavalry_example_both_readings():
    assert cavalry_counter_hp(2, 4, mount_con=17)[0] == 62
    assert cavalry_counter_hp(2, 4, mount_con=17, cavalry="example")[0] == 72
    assert mecha_hit_dice(400) == 4 and allowed_unit_types(5, "none", mounted=True) == ("cavalry",)


def test_baiko_87_to_83():
    assert unit_hit_points(3, 40, 33) == 87
    r = hit_dice_loss(3, 40, 33, 4)
    assert unit_hit_points(r.counters, 40, r.carry) == 83
    s, _ = roll_initiative(start_combat([NISHIHAMA, Unit("Blood Hammers", "B", 3, 40, level=4)]), [10, 5])
    s = s.put(replace(s.get("Blood Hammers"), carry=33))
    s, _ = hit_dice(s, "Blood Hammers", 4)
    assert s.get("Blood Hammers").hit_points == 83


# --- the engine ------------------------------------------------------------------------------------------------------

def skirmish() -> Combat:
    c = Combat(start_combat([NISHIHAMA, GOBLINS]))
    c.do(UnitAction("initiative"), [12, 15])
    c.do(UnitAction("attack", unit="Warriors of Nishihama", target="Goblin raiders", option="charge", in_range=8), [14, 9, 7, 5, 9, 4, 11, 6, 8, 10])
    c.do(UnitAction("attack", unit="Goblin raiders", target="Warriors of Nishihama"), [11, 8, 6, 2, 5, 4, 6, 1])
    return c


def test_the_skirmish_and_its_save():
    c = skirmish()
    assert c.state.get("Goblin raiders").counters == 6 and c.state.morale_due("Goblin raiders")[-1][1] == 15
    c.do(UnitAction("morale", unit="Goblin raiders"), [9])
    c.do(UnitAction("round"))
    assert c.state.get("Goblin raiders").morale == "routing" and c.state.current() == "Warriors of Nishihama"
    back = combat_from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.state == c.state
    while c.actions: c.undo()
    assert c.state == c.start


def test_turn_order_and_refusals():
    c = skirmish()
    with pytest.raises(InputError, match="every unit has acted"): attack(c.state, "Goblin raiders", "Warriors of Nishihama")
    with pytest.raises(InputError, match="owes a morale check first"): next_round(c.state)
    with pytest.raises(InputError, match="owes no morale check"): morale_check(c.state, "Warriors of Nishihama")


# --- properties -----------------------------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(counters=st.integers(0, 30), hp=st.integers(1, 200), data=st.data())
def test_damage_never_leaves_negative_counters(counters, hp, data):
    carry = data.draw(st.integers(0, hp - 1))
    damage = data.draw(st.integers(0, 10_000))
    reach = data.draw(st.integers(0, counters))
    r = apply_damage(counters, hp, carry, damage, reach)
    assert r.counters >= 0 and 0 <= r.removed <= reach and 0 <= r.carry < hp and r.wasted >= 0
    assert r.removed * hp + r.carry + r.wasted == carry + damage or (reach == 0 and r.carry == carry and r.wasted == damage)


@settings(max_examples=300)
@given(dc=st.integers(0, 100), save=st.integers(-50, 100))
def test_save_percentage_always_within_5_and_95(dc, save):
    assert 5 <= save_percentage(dc, save) <= 95


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_random_battles_keep_counters_whole(seed):
    "Random legal play through the engine: counters never negative, the dead pile adds up, carry below a counter."
    rng = random.Random(seed)
    units = [NISHIHAMA, GOBLINS, Unit("Archers", "A", 4, 9, unit_type="archers", attack=(2,), damage="1d8"),
             Unit("Ogres", "B", 3, 40, attack=(4,), damage="2d8+4", ac=-1, armour=3)]
    c = Combat(start_combat(units, UnitRules(helpless=rng.choice(["removed", "marked"]), third=rng.choice(["by", "to"]))))
    c.do(UnitAction("initiative"), rng)
    for _ in range(40):
        s = c.state
        if s.over: break
        now = s.current()
        if now is None:
            owing = [u.name for u in s.units if s.morale_due(u.name)]
            c.do(UnitAction("morale", unit=owing[0]) if owing else UnitAction("round"), rng)
            continue
        me = s.get(now)
        foes = [u.name for u in s.units if u.unit.side != me.unit.side and u.counters]
        if me.morale == "fleeing": act = UnitAction("rally", unit=now)
        elif me.morale != "steady" or me.able == 0: act = UnitAction("pass", unit=now)
        elif me.engaged: act = UnitAction("attack", unit=now, target=me.engaged[0])
        elif rng.random() < 0.7: act = UnitAction("attack", unit=now, target=rng.choice(foes), option="charge")
        else: act = UnitAction("attack", unit=now, target=rng.choice(foes), option="ranged")
        c.do(act, rng)
        if rng.random() < 0.1:
            t = rng.choice([u for u in c.state.units if u.counters])
            c.do(UnitAction("save", target=t.name, dc=15, save="reflex", damage="4d6"), rng) if not c.state.over else None
    for u in c.state.units:
        assert 0 <= u.counters and u.counters + u.dead + u.fled == u.unit.counters
        assert 0 <= u.carry < u.unit.counter_hp and 0 <= u.helpless + u.hindered <= u.counters
    assert Combat.from_dict(json.loads(json.dumps(c.to_dict()))).state == c.state


# --- exact odds --------------------------------------------------------------------------------------------------------

def test_unit_attack_result_counts_as_attack_odds():
    for bonus, ac, dfn in ((5, 2, 2), (0, 0, 0), (12, 3, -1)):
        n = {"miss": 0, "defended": 0, "hit": 0, "critical": 0}
        for a in range(1, 21):
            for d in range(1, 21): n[unit_attack_result(a + bonus, a, ac, d + dfn, d)] += 1
        assert {k: Fraction(v, 400) for k, v in n.items()} == attack_odds(bonus, ac, "1d6", defence_bonus=dfn).outcomes


def test_attack_outlook_against_brute_force():
    "Every attack die, defence die and damage total of a small attack through the engine, weighted, against the exact outlook."
    from besm_nb.dice import dist
    small = Unit("Few", "A", 2, 10, attack=(3,), damage="1d4+8")
    target = Unit("Target", "B", 3, 10, ac=1, armour=1)
    s, _ = roll_initiative(start_combat([small, target]), [20, 1])
    o = attack_outlook(s, "Few", "Target", "ranged")
    tables = {"hit": dist("1d4+8"), "critical": dist("2d4+8")}
    removed: dict[int, Fraction] = {}
    for a in range(1, 21):
        defends = a not in (1, 20) and a + 3 >= 1
        for d in (range(1, 21) if defends else [None]):
            w = Fraction(1, 20) * (Fraction(1, 20) if defends else 1)
            res = unit_attack_result(a + 3, a, 1, d + 1 if defends else None, d)
            if res not in tables:
                removed[0] = removed.get(0, Fraction(0)) + w; continue
            for x, px in tables[res].items():
                for y, py in tables[res].items():
                    end, _ = attack(s, "Few", "Target", "ranged", dice=[a] + ([d] if defends else []) + [x, y])
                    r = 3 - end.get("Target").counters
                    removed[r] = removed.get(r, Fraction(0)) + w * px * py
    assert removed == o.removed and sum(removed.values()) == 1


# --- bad input --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, param", [
    (lambda: counter_hp(float("nan")), "hit_dice"),
    (lambda: counter_hp(1, 10, "12"), "constitution"),
    (lambda: counter_hp(1, 10, 100), "constitution"),
    (lambda: cavalry_counter_hp(1, 2, mount_con=-1), "mount_con"),
    (lambda: counter_hp(1, 10, 12, tiny="False"), "tiny"),
    (lambda: cavalry_counter_hp(2, 4, cavalry="half"), "cavalry"),
    (lambda: apply_damage(8, 10, 0, 1.5), "damage"),
    (lambda: apply_damage(-1, 10, 0, 1), "counters"),
    (lambda: save_percentage(17.0, 2), "dc"),
    (lambda: counters_failing(10, 70, "banker"), "rounding"),
    (lambda: outmatching(3, 1, "ranged"), "kind"),
    (lambda: morale_triggers(8, 8, 4, third="at"), "third"),
    (lambda: morale_bonus(elite="True"), "elite"),
    (lambda: morale_bonus(standing="serf"), "standing"),
    (lambda: Unit("X", "C", 5, 10), "side"),
    (lambda: Unit("X", "A", 5, 10, unit_type="pikemen"), "unit_type"),
    (lambda: Unit("X", "A", 5, 10, attack=(1.5,)), "attack"),
    (lambda: UnitRules(defence="False"), "defence"),
    (lambda: UnitAction("teleport"), "kind"),
    (lambda: mecha_hit_dice(500), "mecha_points"),
    (lambda: allowed_unit_types(3, barding="no"), "barding"),
])
def test_bad_input_is_refused_naming_the_parameter(call, param):
    with pytest.raises(ValueError) as e: call()
    assert isinstance(e.value, InputError) and e.value.param == param, str(e.value)


def test_saved_unit_battles_are_checked_field_by_field():
    good = skirmish().to_dict()
    for path, value, msg in ((("units", 0, "attack"), [1.0], "combat.units[0].attack: must be a whole number from -50 to 100, got 1.0"),
                             (("units", 0, "side"), "C", "combat.units[0].side: must be one of"),
                             (("rules", "defence"), 1, "combat.rules.defence: must be True or False, got 1"),
                             (("claims", "morale"), ["steady", "fleeing"], "morale ['steady', 'fleeing'] but the replay gives"),
                             (("actions", 1, "unit"), "Ghosts", "action 2 (attack) cannot be replayed")):
        bad = json.loads(json.dumps(good))
        node = bad
        for k in path[:-1]: node = node[k]
        node[path[-1]] = value
        with pytest.raises(ValueError, match=re.escape(msg)): combat_from_dict(bad)


# --- own words --------------------------------------------------------------------------------------------------------

UNIT_PAGES = ("52_units", "55_unit_attacks", "56_unit_morale", "57_unit_rounds", "54_units_ui")
UNIT_MODULES = ("besm_d20/units.py", "besm_d20/unit_attacks.py", "besm_d20/unit_morale.py", "besm_d20/unit_rounds.py", "ui/besm_d20/units.py")


def test_unit_chapters_are_in_our_own_words():
    "No run of seven words of the source in the unit pages' prose, nor in the modules' docstrings, comments and messages."
    import ast
    root = Path(__file__).resolve().parents[2]
    for name in UNIT_PAGES:
        assert prose_pasted(root / "nbs" / "besm_d20" / f"{name}.ipynb", SEED) == [], name
    for mod in UNIT_MODULES:
        source = (root / "besm_nb" / mod).read_text()
        strings = [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and n.value not in TABLE_A14]  # the table's rows carry over as they are printed
        comments = [line.split("#", 1)[1] for line in source.splitlines() if "#" in line]
        pasted = [r for s in strings + comments for r in pasted_runs(s, SEED)]
        assert pasted == [], (mod, pasted)
    assert pasted_runs("a unit may not contain more than 30 counters, though", SEED)  # the check sees a pasted run
