"""Epic levels (000 · Epic Level Characters): Table A-10 against the source and the formula, Table A-11's reconstruction against
the scrambled print, both readings, the alternation, Hoshiko."""
import re
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.epic import (CLASSES, TABLE_A10, TABLE_A11, alternation, base_with_epic, epic_ability_levels,
                                   epic_attack_bonus, epic_cp, epic_cp_formula, epic_cp_total, epic_feat_levels, epic_save_bonus,
                                   foes_per_round, low_hd_limit, single_class_cp)
from besm_nb.dice import InputError
from tests.helpers import seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"


def epic_text():
    t = seed_text(SEED_NAME)
    return t[t.index("EPIC LEVEL"):t.index("MAKING")]


def test_table_a10_every_cell_is_in_the_source():
    t = epic_text()
    block = t[t.index("Character Level\tEpic Save Bonus"):t.index("CLASS FEATURES")]
    rows = [l.split("\t") for l in block.splitlines()[1:] if l.strip()]
    assert [(int(re.sub(r"\D", "", a)), int(b), int(c)) for a, b, c in rows] == list(TABLE_A10)


@settings(max_examples=200)
@given(st.integers(1, 1000))
def test_the_formula_steps_by_one_each_level(level):
    # from 21st, each Level adds exactly one of the two bonuses: saves on even Levels, attacks on odd
    if level > 20:
        ds, da = epic_save_bonus(level) - epic_save_bonus(level - 1), epic_attack_bonus(level) - epic_attack_bonus(level - 1)
        assert (ds, da) == ((1, 0) if level % 2 == 0 else (0, 1))
    else:
        assert epic_save_bonus(level) == epic_attack_bonus(level) == 0


def test_feats_and_ability_increases_are_the_sources():
    t = re.sub(r"\s+", " ", epic_text())
    assert "bonus Feat at 21st Level, 24th Level, 27th Level" in t and "+1 to an ability score at 24th Level, 28th Level, 32nd Level" in t
    assert epic_feat_levels(27) == (21, 24, 27) and epic_ability_levels(32) == (24, 28, 32)


def printed_a11():
    "The class names and the values as the source prints them (scrambled)."
    t = epic_text()
    t = t[t.index("Other class features"):t.index("APPENDIX")]
    values = re.findall(r"\+(\d)(?:/\+(\d))? Character Points", t)
    return [(int(a), int(b or a)) for a, b in values]


@pytest.mark.parametrize("reading", ["A", "C"])
def test_table_a11_uses_exactly_the_printed_values(reading):
    printed = printed_a11()
    assert len(printed) == len(CLASSES) == 26
    assert Counter(printed) == Counter(TABLE_A11[c].cp(reading) for c in CLASSES)


def test_table_a11_names_every_printed_class():
    t = epic_text()
    names = t[t.index("Character Class"):t.index("+4 Character Points")]
    for c in CLASSES:
        assert c in names, c


def test_the_formula_and_the_wizards_footnote():
    t = re.sub(r"\s+", " ", epic_text())
    assert "base 10 CPs per Level" in t and "regarded as 3 CPs' worth" in t and "Class Skill Bonus each Level is still 0.5" in t
    assert epic_cp_formula(4, 2, Fraction(1, 2)) == 5 == TABLE_A11["Wizard"].a[0] == TABLE_A11["Wizard"].a[1]
    assert alternation(epic_cp_formula(4, 2)) == TABLE_A11["Sorcerer"].a == (5, 6)


def test_alternation_follows_the_class_level():
    # a character of 20th Level takes his 21st and 22nd in a new class: class Levels 1 and 2
    assert epic_cp_total([("Rogue", 1), ("Rogue", 2)])[0] == 3 + 4
    assert [epic_cp("Cleric", l) for l in (21, 22, 23, 24)] == [4, 5, 4, 5]
    assert single_class_cp("Sorcerer", 30) == 5 * 5 + 6 * 5


def test_readings_differ_only_on_the_low_confidence_rows():
    differ = {c for c in CLASSES if TABLE_A11[c].a != TABLE_A11[c].c}
    assert differ == {c for c in CLASSES if TABLE_A11[c].confidence == "L"}
    assert differ == {"Adventurer", "Gun Bunny", "Hot Rod", "Mecha Pilot", "Ninja", "Pet Monster Trainer", "Sentai Member", "Tech Genius"}


def test_hoshiko():
    t = re.sub(r"\s+", " ", epic_text())
    assert "25th Level epic samurai treats all characters of 5th Level or below" in t and "total of 20 foes slain per round" in t
    assert low_hd_limit(25) == 5 and foes_per_round(25, 4)[0] == 20
    assert base_with_epic(20, 25) == 23


BAD = [
    (lambda: epic_save_bonus(float("nan")), "level: must be a whole number"),
    (lambda: epic_attack_bonus("21"), "level: must be a whole number"),
    (lambda: epic_cp("Bard", 21, "a"), "reading: must be one of 'A', 'C'"),
    (lambda: epic_cp("bard", 21), "character_class: must be one of"),
    (lambda: epic_cp("Bard", 21.0), "class_level: must be a whole number"),
    (lambda: epic_cp_formula(True, 2), "hit_die: must be one of"),
    (lambda: foes_per_round(25, 4, [5.0]), "foes: must be a whole number"),
    (lambda: foes_per_round(25, 4, [9]), "foes: a foe of Level or HD 9 is not low-HD"),
    (lambda: base_with_epic(10, 25, "Attack"), "kind: must be one of"),
]


@pytest.mark.parametrize("call,why", BAD)
def test_bad_input_is_refused_naming_the_parameter(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()
