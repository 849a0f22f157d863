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
from besm_nb.besm_d20.unit_rounds import (Combat, UnitAction, UnitRules, attack, attack_outlook, combat_from_dict, condition, hit_dice,
                                          legal_actions, morale_check, move_away, next_round, pass_turn, rally, roll_initiative, save_effect,
                                          stay, start_combat, withdraw)
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
    "Random play of only what the engine offers, characters too: counters never negative, the dead and fled add up, every legal choice accepted."
    from besm_nb.besm_d20.unit_rounds import Character, legal_actions, legal_targets
    rng = random.Random(seed)
    units = [NISHIHAMA, GOBLINS, Unit("Archers", "A", 4, 9, unit_type="archers", attack=(2,), damage="1d8", ranged_attack=(3,),
                                      ranged_damage="1d8", range_increment=60),
             Unit("Ogres", "B", 3, 40, attack=(4, 0), damage="2d8+4", ac=-1, armour=3)]
    rules = UnitRules(helpless=rng.choice(["removed", "marked"]), third=rng.choice(["by", "to"]), size=rng.choice(["first", "every"]),
                      charge_ac=rng.choice(["turn", "round"]), crit=rng.choice(["dice", "twice"]),
                      withdraw=rng.choice(["own turn", "round start"]), rally=rng.choice(["once", "each round"]),
                      outsized=rng.choice(["when hit", "after losses"]), between=rng.choice(["largest reached", "nearest row"]),
                      army_size=rng.choice(["counters", "creatures"]), limits=rng.choice(["percentage", "counters"]))
    c = Combat(start_combat(units, rules, [Character("Baiko", "A", 5)]))
    c.do(UnitAction("initiative"), rng)
    for _ in range(80):
        s = c.state
        if s.over: break
        now = s.current()
        if now is None:
            owing = [u.name for u in s.units if s.morale_due(u.name)]
            c.do(UnitAction("morale", unit=owing[0]) if owing else UnitAction("round"), rng)
            continue
        if s.character(now):
            foes = [u.name for u in s.units if u.unit.side == "B" and u.counters]
            if foes and rng.random() < 0.5: c.do(UnitAction("hit_dice", target=rng.choice(foes), hit_dice=2, by=now))
            mine = [u.name for u in c.state.units if u.unit.side == "A" and u.counters]
            if not c.state.over and rng.random() < 0.2: c.do(UnitAction("award", unit=rng.choice(mine), value=1, by=now))
            if not c.state.over: c.do(UnitAction("pass", unit=now))
            continue
        option = rng.choice(legal_actions(s, now))
        targets = legal_targets(s, now, option) if option in ("charge", "attack", "ranged", "coup") else ()
        if option in ("charge", "attack", "ranged"):
            c.do(UnitAction("attack", unit=now, target=rng.choice(targets), option=option,
                            distance=rng.randrange(0, 600) if option == "ranged" else 0), rng)
        elif option == "coup": c.do(UnitAction("coup", unit=now, target=rng.choice(targets)))
        else: c.do(UnitAction(option, unit=now), rng)
    for u in c.state.units:
        assert 0 <= u.counters and u.counters + u.dead + u.fled == u.unit.counters
        assert 0 <= u.carry < u.unit.counter_hp and 0 <= u.helpless + u.hindered <= u.counters
        assert (u.counters == 0) == (u.morale in ("fled", "vanquished"))
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
    small = Unit("Few", "A", 2, 10, attack=(3,), damage="1d6", ranged_attack=(3,), ranged_damage="1d4+8", range_increment=50)
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
    (lambda: Unit("X", "A", 5, 10, damage="100d6"), "damage"),  # its critical could never be worked out: refused at once
    (lambda: Unit("X", "A", 5, 10, ranged_attack=(1,), ranged_damage="60d20", range_increment=10), "ranged_damage"),
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
        # one pass over them all: each text's quotations dropped, then a word the source never uses between texts
        texts = [re.sub(r'"[^"]*"', " ", s).replace('"', " ") for s in strings + comments]
        assert pasted_runs(" qqxqq ".join(texts), SEED) == [], mod
    assert pasted_runs("a unit may not contain more than 30 counters, though", SEED)  # the check sees a pasted run


# --- review fixes: each of these failed before its fix ----------------------------------------------------------------

def _started(*units, dice, rules=None, characters=()):
    from besm_nb.besm_d20.unit_rounds import Character  # noqa: F401  (the characters' roster)
    s, _ = roll_initiative(start_combat(list(units), rules, characters=characters) if characters else start_combat(list(units), rules), dice)
    return s


def test_tiny_counters_add_or_multiply_their_percentages():
    "Constitution's ±10% and the −25% of tiny members: added (used here) or multiplied (switch), with and without a mount."
    from besm_nb.besm_d20.units import TINY_READINGS
    assert TINY_READINGS == ("add", "multiply")
    assert counter_hp(2, 10, 16, tiny=True)[0] == 21  # 20 × (1 + 30% − 25%)
    assert counter_hp(2, 10, 16, tiny=True, tiny_con="multiply")[0] == 19  # 20 × 1.3 × 0.75 = 19.5
    assert counter_hp(2, 10, 6, tiny=True)[0] == 11 and counter_hp(2, 10, 6, tiny=True, tiny_con="multiply")[0] == 12
    assert counter_hp(2, 10, 16)[0] == counter_hp(2, 10, 16, tiny_con="multiply")[0] == 26  # not tiny: the same
    assert cavalry_counter_hp(2, 4, mount_con=17, tiny=True)[0] == 49  # (4 + 1) × (1 − 25%) + 1.2 = 4.95 per creature
    assert cavalry_counter_hp(2, 4, mount_con=17, tiny=True, tiny_con="multiply")[0] == 46  # 6.2 × 0.75 = 4.65
    with pytest.raises(InputError) as e: counter_hp(2, tiny=True, tiny_con="both")
    assert e.value.param == "tiny_con"


def test_ranged_attacks_need_a_ranged_weapon_and_a_target_in_range():
    from besm_nb.besm_d20.unit_rounds import legal_actions
    archers = Unit("Archers", "A", 4, 9, unit_type="archers", attack=(1,), damage="1d4", ranged_attack=(3,), ranged_damage="1d8",
                   range_increment=100)
    s = _started(NISHIHAMA, archers, GOBLINS, dice=[5, 20, 1])
    assert s.current() == "Archers" and "ranged" in legal_actions(s, "Archers")
    end, log = attack(s, "Archers", "Goblin raiders", "ranged", distance=250, dice=[10, 1, 8, 8, 8, 8])
    assert [x.value for x in log if x.what.startswith("Range")] == ["-4"]  # 250 ft is in the third increment of 100 ft
    assert end.get("Goblin raiders").counters == 8  # 4 × (8 − 2): the longbow's 1d8, not the melee 1d4
    with pytest.raises(InputError) as e: attack(s, "Archers", "Goblin raiders", "ranged", distance=1001, dice=[10])
    assert e.value.param == "distance"  # past ten range increments
    s2 = _started(NISHIHAMA, GOBLINS, dice=[20, 1])
    assert "ranged" not in legal_actions(s2, NISHIHAMA.name)
    with pytest.raises(InputError) as e: attack(s2, NISHIHAMA.name, "Goblin raiders", "ranged", dice=[10])
    assert e.value.param == "option" and "no ranged weapon" in str(e.value)
    with pytest.raises(InputError) as e: Unit("Bowmen", "A", 4, 9, unit_type="archers")
    assert e.value.param == "ranged_damage"


def test_a_charge_is_one_attack_at_plus_2():
    host = Unit("Host", "A", 4, 10, attack=(6, 1), damage="1d6")
    foes = Unit("Foes", "B", 4, 10)
    s = _started(host, foes, dice=[20, 1])
    end, log = attack(s, "Host", "Foes", "charge", dice=[15, 2, 3, 3, 3, 3])  # one attack d20, the defence d20, four damage dice
    assert [x.what for x in log].count("Attack roll") == 1 and end.get("Foes").counters == 3
    assert len(attack_outlook(s, "Host", "Foes", "charge").outcomes) == 1
    assert len(attack_outlook(end, "Foes", "Host", "attack").outcomes) == 1 and len(host.attack) == 2


def test_bless_adds_to_attack_rolls_and_morale_checks_not_damage():
    from besm_nb.besm_d20.unit_rounds import award
    foes = Unit("Foes", "B", 4, 10, ac=0)
    s = _started(NISHIHAMA, foes, dice=[20, 1])
    blessed, _ = award(s, NISHIHAMA.name, value=1)
    assert (blessed.get(NISHIHAMA.name).spells, blessed.get(NISHIHAMA.name).deeds) == ((1,), ())
    end, log = attack(blessed, NISHIHAMA.name, "Foes", "charge", dice=[10, 1] + [4] * 8)  # +1, +2 charging, +1 for 8 against 4, +1 bless
    assert end.get("Foes").counters == 4 - 3 and end.get("Foes").carry == 2  # 8 × (4 − 0) = 32: three counters, 2 carried; no +1 each
    assert [x.value.split(";")[0] for x in log if x.what == "Attack roll"] == ["d20 10 +5 = 15 against AC 0"]
    hero, _ = award(s, NISHIHAMA.name, "Slaying enemy officer/sergeant")
    end, _ = attack(hero, NISHIHAMA.name, "Foes", "charge", dice=[10, 1] + [4] * 8)
    assert end.get("Foes").counters == 0  # a deed adds to damage: 8 × 5 = 40


def test_the_chargers_ac_penalty_lasts_until_its_next_turn():
    from besm_nb.besm_d20.unit_rounds import legal_actions
    chargers, foes = Unit("Chargers", "A", 4, 10, ac=1), Unit("Foes", "B", 4, 10)
    for reading, during in (("turn", -1), ("round", 1)):
        s = _started(chargers, foes, dice=[1, 20], rules=UnitRules(charge_ac=reading))  # the foes act first
        s, _ = pass_turn(s, "Foes")
        s, _ = attack(s, "Chargers", "Foes", "charge", dice=[1])  # charges last in round 1
        assert s.ac_now("Chargers") == -1
        s, _ = next_round(s)
        assert s.current() == "Foes" and s.ac_now("Chargers") == during  # the foes strike back before the chargers' turn
        s, _ = attack(s, "Foes", "Chargers", "attack", dice=[1])
        assert s.ac_now("Chargers") == 1  # its turn has come
        assert "attack" in legal_actions(s, "Chargers")


def test_a_negative_ac_gets_odds_like_any_other():
    chargers, foes = Unit("Chargers", "A", 4, 10, ac=1), Unit("Foes", "B", 4, 10, attack=(0,))
    s = _started(chargers, foes, dice=[20, 1])
    s, _ = attack(s, "Chargers", "Foes", "charge", dice=[1])
    o = attack_outlook(s, "Foes", "Chargers", "attack")
    n = {"miss": 0, "defended": 0, "hit": 0, "critical": 0}
    for a in range(1, 21):
        for d in range(1, 21): n[unit_attack_result(a, a, -1, d - 1, d)] += 1
    assert o.outcomes[0] == {k: Fraction(v, 400) for k, v in n.items()}


def test_morale_at_half_size_is_checked_when_the_unit_first_falls_to_it():
    foes = Unit("Foes", "B", 4, 10)
    for reading, again in (("first", ()), ("every", ((TABLE_A13[0][1], 15),))):
        s = _started(NISHIHAMA, foes, dice=[20, 1], rules=UnitRules(size=reading))
        s, _ = attack(s, NISHIHAMA.name, "Foes", "charge", in_range=2, dice=[20] + [5] * 8)  # a critical: 8 × 5 = 40 on 2 in reach
        assert s.get("Foes").counters == 2 and s.morale_due("Foes") == ()  # its turn is still to come
        s, _ = pass_turn(s, "Foes")
        assert [dc for _, dc in s.morale_due("Foes")] == [15, 10, 15]  # half, a third, out-damaged (8 against 4 as it hit: not three times)
        s, _ = morale_check(s, "Foes", dice=[20])
        s, _ = next_round(s)
        s, _ = pass_turn(s, NISHIHAMA.name); s, _ = pass_turn(s, "Foes")
        assert s.morale_due("Foes") == again  # round 2, no losses


def _everyone_holds(s):
    "Every unit still to act holds, a unit that withdrew last round moving away when its turn comes."
    while s.current() and not s.over:
        n = s.current()
        s, _ = move_away(s, n) if legal_actions(s, n)[0] == "move away" else pass_turn(s, n)
    return s


def test_fleeing_units_leave_the_field_and_the_battle_ends():
    ashigaru = Unit("Ashigaru", "B", 6, 10)
    s = _started(NISHIHAMA, GOBLINS, ashigaru, dice=[20, 10, 1])
    s, _ = attack(s, NISHIHAMA.name, GOBLINS.name, "charge", dice=[20] + [13] * 8)  # 8 × 11 = 88: the goblins lose 8 of 10
    s, _ = pass_turn(s, GOBLINS.name); s, _ = pass_turn(s, "Ashigaru")
    s, _ = morale_check(s, GOBLINS.name, dice=[1])
    for _ in range(2):  # it withdraws, then flees (moving away on its own turn)
        s, _ = next_round(s)
        s = _everyone_holds(s)
    assert s.get(GOBLINS.name).morale == "fleeing" and s.over == ""
    s, _ = next_round(s)  # it did not rally: it has left the field
    g = s.get(GOBLINS.name)
    assert (g.morale, g.counters, g.fled, GOBLINS.name in s.to_act()) == ("fled", 0, 2, False)
    # a side whose every unit flees has lost: the battle ends
    t = _started(NISHIHAMA, GOBLINS, dice=[20, 1])
    t, _ = attack(t, NISHIHAMA.name, GOBLINS.name, "charge", dice=[20] + [13] * 8)
    t, _ = pass_turn(t, GOBLINS.name)
    t, _ = morale_check(t, GOBLINS.name, dice=[1])
    t, _ = next_round(t)
    for n in t.to_act(): t, _ = pass_turn(t, n)
    t, _ = next_round(t)
    assert t.get(GOBLINS.name).morale == "routing" and t.over == ""  # still in melee until its turn
    t, _ = pass_turn(t, NISHIHAMA.name); t, _ = move_away(t, GOBLINS.name)
    assert t.get(GOBLINS.name).morale == "fleeing" and t.over == ""  # still in the battle: it may try to rally on this turn
    t, _ = pass_turn(t, GOBLINS.name)  # it lets its try go by
    assert t.over == "side B has no unit still fighting"


def test_characters_act_in_initiative_order_among_the_units():
    from besm_nb.besm_d20.unit_rounds import Character, award, legal_actions
    hammers = Unit("Blood Hammers", "B", 3, 29, level=4, standing="mercenary")  # 87 hit points
    heroes = Unit("Baiko's samurai", "A", 5, 20, attack=(5,), damage="1d10+2")
    c = Combat(start_combat([heroes, hammers], characters=[Character("Baiko", "A", 6)]))
    c.do(UnitAction("initiative"), [10, 12, 15])  # Baiko: 15 + 6 = 21, the highest
    assert c.state.order[0] == "Baiko" and c.state.current() == "Baiko" and legal_actions(c.state, "Baiko") == ("pass",)
    with pytest.raises(InputError) as e: c.do(UnitAction("attack", unit="Blood Hammers", target="Baiko's samurai"), [10])
    assert e.value.param == "unit" and "Baiko's turn" in str(e.value)
    c.do(UnitAction("hit_dice", target="Blood Hammers", hit_dice=4, by="Baiko"))
    assert c.state.get("Blood Hammers").hit_points == 83
    c.do(UnitAction("pass", unit="Baiko"))
    assert c.state.current() in ("Blood Hammers", "Baiko's samurai")
    with pytest.raises(InputError) as e: award(c.state, "Baiko's samurai", "Slaying enemy unit leader", by="Baiko")
    assert e.value.param == "by"  # his turn is over
    back = combat_from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.state == c.state and back.state.characters == c.state.characters


def test_critical_setting_is_the_attack_codes_own():
    from besm_nb.anime_d20.combat import CRIT_READINGS
    from besm_nb.besm_d20.unit_rounds import RULES_CRIT
    assert RULES_CRIT == CRIT_READINGS
    with pytest.raises(InputError) as e: UnitRules(crit="total")
    assert e.value.param == "crit"
    s = _started(NISHIHAMA, GOBLINS, dice=[20, 1], rules=UnitRules(crit="twice"))
    end, log = attack(s, NISHIHAMA.name, GOBLINS.name, "charge", in_range=8, dice=[20] + [8] * 8)  # 2d8+6 each
    assert any("2d8+6" in x.what for x in log) and end.get(GOBLINS.name).counters == 10 - 4  # 8 × (8 − 2) = 48
    o = attack_outlook(s, NISHIHAMA.name, GOBLINS.name, "charge", in_range=8)
    assert o.exact and sum(o.removed.values()) == 1


def test_attack_outlook_with_several_attacks_counts_the_defences_actually_made():
    "Two attacks: the second defence roll is at −2 only if the first attack drew a defence roll. Composed from the engine's own single attacks."
    duo, single = Unit("Duo", "A", 1, 10, attack=(4, 4), damage="10"), Unit("Single", "A", 1, 10, attack=(4,), damage="10")
    target = Unit("Target", "B", 2, 10, ac=2)

    def engaged(a):
        s = _started(a, target, dice=[20, 1])
        return s.put(replace(s.get(a.name), engaged=("Target",))).put(replace(s.get("Target"), engaged=(a.name,)))
    one = engaged(single)
    paths = {}  # defences made before → [(chance, counters removed, defences made after)]
    for before in (0, 1):
        s = one.put(replace(one.get("Target"), defences=before))
        paths[before] = []
        for a in range(1, 21):
            rolled = a not in (1, 20)
            for d in (range(1, 21) if rolled else [None]):
                end, _ = attack(s, "Single", "Target", "attack", dice=[a] + ([d] if rolled else []) + [10])
                paths[before].append((Fraction(1, 400 if rolled else 20), 2 - end.get("Target").counters, end.get("Target").defences))
    removed: dict[int, Fraction] = {}
    for w1, r1, after in paths[0]:
        for w2, r2, _ in paths[after]: removed[r1 + r2] = removed.get(r1 + r2, Fraction(0)) + w1 * w2
    o = attack_outlook(engaged(duo), "Duo", "Target", "attack")
    assert o.exact and o.removed == removed
    assert o.outcomes[1] != o.outcomes[0]  # the second attack is defended less often


def test_big_attacks_are_bounded_and_say_so():
    "Six attacks of thirty counters: the landing odds and mean stay exact; the counters removed are simulated, and say so."
    from besm_nb.besm_d20.unit_attacks import MAX_SIMULATED
    host = Unit("Host", "A", 30, 20, attack=(6, 5, 4, 3, 2, 1), damage="2d8+4")
    horde = Unit("Horde", "B", 30, 20, ac=1, armour=2)
    s = _started(host, horde, dice=[20, 1])
    s = s.put(replace(s.get("Host"), engaged=("Horde",))).put(replace(s.get("Horde"), engaged=("Host",)))
    o = attack_outlook(s, "Host", "Horde", "attack")
    assert not o.exact and o.trials == MAX_SIMULATED and abs(sum(o.removed.values()) - 1) < Fraction(1, 10 ** 9)
    assert o.mean == sum(30 * (x["hit"] * 11 + x["critical"] * 20) for x in o.outcomes)  # 2d8+4 − 2: 11 on average; 4d8+4 − 2: 20
    assert attack_outlook(s, "Host", "Horde", "attack").removed == o.removed  # seeded: the same every time


def test_hand_built_records_and_actions_are_refused_naming_the_field():
    from besm_nb.besm_d20.unit_rounds import CombatState, UnitState
    s = _started(NISHIHAMA, GOBLINS, dice=[20, 1])
    for make, param in ((lambda: UnitState(NISHIHAMA, "8"), "counters"),
                        (lambda: UnitState("Warriors", 8), "unit"),
                        (lambda: replace(s, units=(s.units[0], "a unit")), "units"),
                        (lambda: replace(s, round="1"), "round"),
                        (lambda: UnitAction("pass", unit="x", option="fly"), "option"),
                        (lambda: UnitAction("attack", unit="x", save="wisdom"), "save"),
                        (lambda: UnitAction("award", unit="x", deed="Singing"), "deed"),
                        (lambda: Combat(s), "start")):  # a battle already under way is not a start
        with pytest.raises(ValueError) as e: make()
        assert isinstance(e.value, InputError) and e.value.param == param, (param, str(e.value))
    assert CombatState is type(s)


def test_loading_grows_linearly_and_saves_are_capped():
    import tracemalloc
    from besm_nb.besm_d20.unit_rounds import MAX_ACTIONS

    def save(rounds):
        c = Combat(start_combat([NISHIHAMA, GOBLINS]))
        c.do(UnitAction("initiative"), [20, 1])
        for _ in range(rounds):
            for n in c.state.to_act(): c.do(UnitAction("pass", unit=n))
            c.do(UnitAction("round"))
        return json.loads(json.dumps(c.to_dict()))

    peaks = []
    for rounds in (150, 600):
        data = save(rounds)
        tracemalloc.start(); combat_from_dict(data); peaks.append(tracemalloc.get_traced_memory()[1]); tracemalloc.stop()
    assert peaks[1] < 6 * peaks[0], peaks  # four times the rounds: about four times the memory, not sixteen
    big = save(1)
    big["actions"] = big["actions"][:1] + [{**big["actions"][-1], "kind": "pass"}] * MAX_ACTIONS
    with pytest.raises(ValueError) as e: combat_from_dict(big)
    assert "combat.actions" in str(e.value) and f"{MAX_ACTIONS:,}" in str(e.value)


def test_the_trackers_hit_dice_box_takes_an_average():
    "The counter hit point calculator takes the average Hit Dice the rule asks for: 1.5 or 3/2, not only whole numbers."
    from besm_nb.ui.besm_d20.units import UnitTracker
    t = UnitTracker(saves=None)
    t.c_hd.value, t.c_con.value = "1.5", 12
    assert "besm-hp-calc'>16<" in t.c_out.value  # 16.5, rounded down: the engine's own answer
    t.c_hd.value = "3/2"; t.use_button.click()
    assert t.u_hp.value == counter_hp(Fraction(3, 2), 10, 12)[0] == 16
    t.c_mounted.value, t.c_mount.value = True, "4.5"
    assert f"besm-hp-calc'>{cavalry_counter_hp(Fraction(3, 2), Fraction(9, 2), rider_con=12)[0]}<" in t.c_out.value
    t.c_hd.value = "one"
    assert "Hit Dice (average): a number such as 2, 1.5 or 7/4" in t.c_out.value


# --- the second reader's findings: each test failed before its fix ------------------------------------------------------

ASH, BOW = Unit("Ash", "A", 6, 10, attack=(2,), damage="1d6"), Unit("Bow", "B", 6, 10, attack=(0,), damage="1d6")


def test_withdraw_is_declared_then_made_on_the_units_own_turn():
    text = section(seed_text(SEED), "Unit Withdraw Option", "INDIVIDUAL UNIT MEMBERS")
    assert "The following round it must move away, or it is not considered to have successfully withdrawn" in text
    s = _started(ASH, BOW, dice=[20, 1])  # Ash first
    s, _ = attack(s, "Ash", "Bow", "charge", dice=[1])  # a miss, but melee is joined
    s, _ = withdraw(s, "Bow")
    s, _ = next_round(s)
    assert s.get("Bow").engaged == ("Ash",) and s.get("Bow").morale == "withdrawing" and s.acted == ()
    assert legal_actions(s, "Ash") == ("attack", "withdraw", "pass")  # Bow is still in melee when Ash acts
    hit, log = attack(s, "Ash", "Bow", "attack", dice=[15, 3, 4, 4, 4, 4, 4, 4])  # 15 + 2 against AC 0, Bow's defence 3: 6 × 4
    assert hit.get("Bow").counters == 4 and hit.get("Bow").carry == 4 and hit.get("Bow").taken == 24
    assert legal_actions(hit, "Bow") == ("move away", "stay")
    with pytest.raises(InputError, match="withdrew last round: now it moves away, or stays"): pass_turn(hit, "Bow")
    with pytest.raises(InputError, match="Bow is withdrawing: it cannot attack"): attack(hit, "Bow", "Ash", "attack", dice=[10])
    away, _ = move_away(hit, "Bow")
    assert away.get("Bow").engaged == () and away.get("Ash").engaged == () and away.get("Bow").morale == "steady" and "Bow" in away.acted
    held, _ = stay(hit, "Bow")
    assert held.get("Bow").engaged == ("Ash",) and held.current() == "Bow" and legal_actions(held, "Bow") == ("attack", "withdraw", "pass")
    with pytest.raises(InputError, match="only a unit that withdrew last round"): move_away(held, "Bow")
    # the other reading: out of melee as the round begins, so Ash can only charge again
    r = _started(ASH, BOW, dice=[20, 1], rules=UnitRules(withdraw="round start"))
    r, _ = next_round(withdraw(attack(r, "Ash", "Bow", "charge", dice=[1])[0], "Bow")[0])
    assert r.get("Bow").engaged == () and r.acted == ("Bow",) and legal_actions(r, "Ash") == ("charge", "pass")
    assert UnitRules().withdraw == "own turn"


def test_a_unit_that_withdraws_then_breaks_runs_on_its_next_turn():
    for reading, round2, round3 in (("own turn", ("routing", ("Ash",), ()), None), ("round start", ("routing", ("Ash",), ("Bow",)), "fleeing")):
        s = _started(ASH, BOW, dice=[20, 1], rules=UnitRules(withdraw=reading))
        s, _ = attack(s, "Ash", "Bow", "charge", dice=[20] + [6] * 6)  # a critical: 6 × 2d6 rolled 6 = 36: three counters
        s, _ = withdraw(s, "Bow")
        s, _ = morale_check(s, "Bow", dice=[1])
        s, _ = next_round(s)
        b = s.get("Bow")
        assert (b.morale, b.engaged, s.acted) == round2, reading
        if round3 is None:
            s, _ = pass_turn(s, "Ash")
            assert legal_actions(s, "Bow") == ("move away",)
            s, _ = move_away(s, "Bow")
            assert s.get("Bow").morale == "fleeing" and s.get("Bow").engaged == ()  # gone from melee in round 2
        else:
            s, _ = next_round(pass_turn(s, "Ash")[0])
            assert s.get("Bow").morale == round3  # a round later


def test_a_fleeing_unit_may_rally_each_round_of_its_flight():
    from besm_nb.besm_d20.unit_rounds import FLIGHT_ROUNDS
    text = section(seed_text(SEED), "If a Morale check is failed", "Unit Types")
    assert "must pass a Morale check at DC 20 in order to rally" in text and "once" not in text.split("Characters are")[0]
    assert FLIGHT_ROUNDS == 3 and UnitRules().rally == "once"
    spare = Unit("Spare", "B", 4, 10)
    gone_at = {}
    for reading in ("once", "each round"):
        s = _started(ASH, BOW, spare, dice=[20, 2, 1], rules=UnitRules(rally=reading))
        s, _ = attack(s, "Ash", "Bow", "charge", dice=[20] + [6] * 6)
        s = _everyone_holds(s)
        s, _ = morale_check(s, "Bow", dice=[1])
        s, _ = next_round(s); s = _everyone_holds(s)  # round 2: the forced withdrawal
        s, _ = next_round(s)  # round 3: it moves away on its turn and flees
        rnd = 3
        while s.get("Bow").morale != "fled":
            s, _ = pass_turn(s, "Ash")
            if s.get("Bow").morale == "routing": s, _ = move_away(s, "Bow")
            assert legal_actions(s, "Bow") == ("rally", "pass")
            s, _ = rally(s, "Bow", dice=[5])
            s, _ = next_round(pass_turn(s, "Spare")[0]); rnd += 1
            assert rnd < 10
        gone_at[reading] = rnd
    assert gone_at == {"once": 4, "each round": 6}  # it left the field as round 4, or round 6, began


def test_three_times_its_size_is_judged_as_the_hit_lands():
    text = section(seed_text(SEED), "TABLE A-13", "The following modifiers")
    assert "hit by enemy of three times or greater Unit S" in text
    picket, horde = Unit("Picket", "A", 4, 10), Unit("Horde", "B", 9, 10, ranged_attack=(5,), ranged_damage="1d6", range_increment=100)
    due = {}
    for reading in ("when hit", "after losses"):
        s = _started(picket, horde, dice=[1, 20], rules=UnitRules(outsized=reading))
        s, _ = attack(s, "Horde", "Picket", "ranged", dice=[10, 2, 2] + [1] * 8)  # 10 damage: one counter of the four
        s, _ = pass_turn(s, "Picket")
        due[reading] = s.morale_due("Picket")
    assert due == {"when hit": (), "after losses": (("hit by an enemy unit of three times its Unit Size or more", 15),)}


def test_table_a12_between_the_rows_and_the_armies_sizes():
    assert [outmatching(n, 10, between="nearest row") for n in (40, 15, 4, 25)] == [3, 1, -2, 2]
    assert [outmatching(n, 10) for n in (40, 15, 4, 25)] == [2, 0, -1, 1]
    text = section(seed_text(SEED), "The morale modifier is handled differently", "TABLE A-12")
    assert "the size of every single unit on the field" in text
    ogres, goblins = Unit("Ogres", "A", 5, 60, per_counter=40), Unit("Goblin band", "B", 10, 10)
    sizes = {}
    for size in ("counters", "creatures"):
        s = _started(ogres, goblins, dice=[20, 1], rules=UnitRules(army_size=size))
        s, _ = condition(s, "Ogres", "fear", 1)
        s2, log = morale_check(s, "Ogres", dice=[15])
        sizes[size] = (s.army_size("A"), s.army_size("B"), log[1].value, s2.get("Ogres").morale)
    assert sizes == {"counters": (4, 10, "-1", "shaken"), "creatures": (160, 100, "+0", "steady")}  # fear, DC 15: 15 − 1, or 15


def test_the_other_switches_change_the_numbers():
    # defence rolls off: the charge lands on all but a natural 1, no defence die is asked for
    s = _started(NISHIHAMA, GOBLINS, dice=[12, 15], rules=UnitRules(defence=False))
    o = attack_outlook(s, NISHIHAMA.name, GOBLINS.name, "charge", in_range=8)
    assert (o.outcomes[0]["hit"], o.outcomes[0]["defended"], o.outcomes[0]["critical"]) == (Fraction(18, 20), 0, Fraction(1, 20))
    assert o.mean == Fraction(18, 20) * 44 + Fraction(1, 20) * 80
    s2, _ = attack(s, NISHIHAMA.name, GOBLINS.name, "charge", in_range=8, dice=[14, 7, 5, 9, 4, 11, 6, 8, 10])
    assert (s2.get(GOBLINS.name).counters, s2.get(GOBLINS.name).carry) == (6, 4)
    # rounding and the bounds through an area effect
    guard = Unit("Guard", "B", 7, 33, reflex=2)
    got = {}
    for rounding in ("nearest", "down", "up"):
        g = _started(NISHIHAMA, guard, dice=[20, 1], rules=UnitRules(rounding=rounding))
        g, log = save_effect(g, "Guard", 13, "reflex", "5d6", dice=[20])  # 50% of 7
        got[rounding] = log[1].value, g.get("Guard").hit_points
    assert got == {"nearest": ("4 fail, 3 save", 7 * 33 - 110), "down": ("3 fail, 4 save", 7 * 33 - 100), "up": ("4 fail, 3 save", 7 * 33 - 110)}
    line = Unit("Line", "B", 9, 33, reflex=2)
    hp = [save_effect(_started(NISHIHAMA, line, dice=[20, 1], rules=UnitRules(limits=lim)), "Line", 30, "reflex", "5d6", dice=[20])[0]
          .get("Line").hit_points for lim in ("percentage", "counters")]
    assert hp == [9 * 33 - 180, 9 * 33 - 170]  # 95% of 9: all nine, or eight and one saves
    assert [counters_failing(9, 5, "nearest", lim) for lim in ("percentage", "counters")] == [0, 1]
    # a fear DC of 12
    f = _started(NISHIHAMA, GOBLINS, dice=[12, 15], rules=UnitRules(fear_dc=12))
    f, _ = condition(f, GOBLINS.name, "fear", 2)
    assert f.morale_due(GOBLINS.name) == (("a fear effect", 12),)
    assert morale_check(f, GOBLINS.name, dice=[13])[0].get(GOBLINS.name).morale == "steady"  # 13 − 1 (mercenary), 8 counters a side: 12
    assert morale_check(replace(f, rules=UnitRules()), GOBLINS.name, dice=[13])[0].get(GOBLINS.name).morale == "shaken"  # against 15


def test_a_condition_can_come_from_a_mass_save():
    text = section(seed_text(SEED), "Spells that produce effects other than damage", "Fear effects")
    assert "sleep or stinking cloud" in text
    dwarves = Unit("Dwarf warriors", "B", 10, 33, reflex=2, will=1)
    s = _started(NISHIHAMA, dwarves, dice=[20, 1])
    s2, log = condition(s, "Dwarf warriors", "helpless", dc=15, save="will")  # (15 − 1 − 1) × 5 = 65% of 10: 6.5 → 7
    assert (s2.get("Dwarf warriors").counters, log[0].value) == (3, "65% → 65%: 7 of 10 counters fail (nearest)")
    assert condition(replace(s, rules=UnitRules(rounding="down")), "Dwarf warriors", "helpless", dc=15, save="will")[0].get("Dwarf warriors").counters == 4
    assert condition(s, "Dwarf warriors", "hindered", dc=15, save="will", area=4)[0].get("Dwarf warriors").hindered == 3  # 2.6 → 3
    c = Combat(start_combat([NISHIHAMA, dwarves]))
    c.do(UnitAction("initiative"), [20, 1]); c.do(UnitAction("condition", target="Dwarf warriors", effect="helpless", dc=15, save="will"))
    assert combat_from_dict(json.loads(json.dumps(c.to_dict()))).state == c.state
    with pytest.raises(InputError) as e: condition(s, "Dwarf warriors", "helpless", 3, dc=15)
    assert e.value.param == "counters"


def test_a_second_version_unit_save_loads_as_it_was_played():
    from besm_nb.besm_d20.unit_rounds import UNIT_VERSION
    c = Combat(start_combat([ASH, BOW]))
    c.do(UnitAction("initiative"), [20, 1]); c.do(UnitAction("attack", unit="Ash", target="Bow", option="charge"), [1])
    c.do(UnitAction("withdraw", unit="Bow")); c.do(UnitAction("round"))
    assert c.state.get("Bow").engaged == ("Ash",)  # version 3: still in melee
    old = json.loads(json.dumps(c.to_dict())); old["version"] = 2
    for k in ("withdraw", "rally", "outsized", "between", "army_size", "limits", "morale_bonuses"): del old["rules"][k]
    old["claims"]["morale"] = ["steady", "steady"]
    back = combat_from_dict(old)
    assert UNIT_VERSION == 4 and back.start.rules.morale_bonuses == "add up" and back.start.rules.withdraw == "round start" and back.start.rules.army_size == "creatures"
    assert back.state.get("Bow").engaged == () and back.state.acted == ("Bow",)  # as version 2 played it
    with pytest.raises(ValueError, match="has fields this tracker does not save: withdraw"):
        combat_from_dict({**old, "rules": {**old["rules"], "withdraw": "own turn"}})


def test_the_sample_roster_names_no_leader_and_no_ranged_attack():
    text = section(seed_text(SEED), "Warriors of Nishihama", "RACE, CLASS, LEVEL")
    assert "Leader" not in text and "Cha 14" in text and "longbow" in text and "Unit Type:\tInfantry" in text
    assert "Any unit armed with a ranged weapon" in seed_text(SEED)
    assert NISHIHAMA.leader_cha == 0 and not NISHIHAMA.shoots and NISHIHAMA.unit_type == "infantry"
    assert allowed_unit_types(8, "medium", ranged=NISHIHAMA.shoots) == ("infantry",)
    root = Path(__file__).resolve().parents[2]
    page = json.loads((root / "nbs" / "besm_d20" / "52_units.ipynb").read_text())["cells"]
    prose = " ".join("".join(c["source"]) for c in page if c["cell_type"] == "markdown")
    assert "Reading used here (the sample's longbow)" in prose and "Reading used here (the sample's leader)" in prose
    assert "Reading used here (whose Constitution), switch `con`" in prose
    assert [cavalry_counter_hp(2, 4, mount_con=17, con=c)[0] for c in ("higher", "riders")] == [62, 50]


def test_the_exact_odds_bound_on_the_page_is_the_codes():
    from besm_nb.besm_d20.unit_attacks import MAX_SIMULATED, MIN_SIMULATED, ODDS_BITS
    root = Path(__file__).resolve().parents[2]
    page = json.loads((root / "nbs" / "besm_d20" / "55_unit_attacks.ipynb").read_text())["cells"]
    prose = " ".join("".join(c["source"]) for c in page if c["cell_type"] == "markdown")
    assert f"**{ODDS_BITS:,} bits**" in prose and f"{MIN_SIMULATED:,} to {MAX_SIMULATED:,} simulated attacks" in prose
    assert "400,000 bits" not in prose and "4,000 attacks" not in prose
