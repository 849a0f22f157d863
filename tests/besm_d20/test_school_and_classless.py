"""School campaigns and classless characters (000): the numbers and names against the source, the builder, the ledger."""
import copy
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.classless import (ABILITY_COST, BUY_KINDS, HIT_DIE_COST, MAX_ENTRIES, MIN_CP, SAVE_COST, SKILL_TIERS, Buy,
                                        ClasslessBuild, Session, ecl, skill_points)
from besm_nb.besm_d20.school import (CHILD_STRENGTH, ORIGINS, SCHOOL_CLASSES, SIZE_MODIFIERS, SIZE_RULE, SIZES, Character, make_child,
                                     school_origins)
from besm_nb.dice import InputError
from tests.helpers import seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"


def flat(start, end):
    t = re.sub(r"\s+", " ", seed_text(SEED_NAME))
    return t[t.index(start):t.index(end, t.index(start))]


# --- school campaigns ------------------------------------------------------------------------------------------------------

def test_every_origin_and_class_is_the_sources():
    t = flat("SCHOOL CAMPAIGNS", "HIT LOCATIONS")
    assert "Subtract 2 from the character's Strength" in t and CHILD_STRENGTH == -2
    assert "limited to Magical Girl, Pet Monster Trainer, Sentai Member, Shapechanger, and Student" in t
    assert SCHOOL_CLASSES == ("Magical Girl", "Pet Monster Trainer", "Sentai Member", "Shapechanger", "Student")
    printed = re.findall(r"([A-Z]+ KID) .*? Bonus: (.*?)\.(?= |$)", t)
    assert [(n.title(), b) for n, b in printed] == [(o.name, f"{o.bonus} Rank {o.ranks}" if o.kind == "attribute" else f"{o.bonus} Feat")
                                                   for o in ORIGINS.values()]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(SCHOOL_CLASSES), st.integers(3, 30), st.sampled_from(SIZES[1:]), st.sampled_from(list(ORIGINS)))
def test_a_child_is_two_weaker_one_size_smaller_with_one_origin(cls, strength, size, origin):
    c = Character("Kid", cls, strength=strength, size=size)
    child = make_child(c, origin).character
    assert child.strength == strength - 2 and SIZES.index(child.size) == SIZES.index(size) - 1
    o = ORIGINS[origin]
    assert (child.ranks(o.bonus) == o.ranks) if o.kind == "attribute" else (o.bonus in child.feats)
    assert child.child and child.origin == origin
    assert origin in school_origins(c)


def test_size_modifiers_are_the_d20_systems_table():
    # the source refers to the bonuses without printing them: the d20 System's Size Modifiers table, named as an assumption
    t = flat("SCHOOL CAMPAIGNS", "HIT LOCATIONS")
    assert "The bonuses to attacks and Armour Class apply as usual" in t
    assert SIZE_MODIFIERS == {"Colossal": -8, "Gargantuan": -4, "Huge": -2, "Large": -1, "Medium": 0, "Small": 1, "Tiny": 2,
                              "Diminutive": 4, "Fine": 8}
    assert tuple(SIZE_MODIFIERS) == SIZES


def test_a_medium_humans_child_is_small_with_plus_one():
    b = make_child(Character("Hikari", "Magical Girl", strength=12), "Farm Kid")
    assert (b.character.size, b.attack_bonus, b.ac_bonus, b.size_bonus, b.size_change) == ("Small", 1, 1, 1, 1)
    step = next(s for s in b.working if s.rule == SIZE_RULE)
    assert step.value == "+1 (Medium +0: change +1)"


def test_a_small_races_child_is_tiny_with_plus_two():
    b = make_child(Character("Bo", "Student", size="Small"), "Rich Kid")
    assert (b.character.size, b.attack_bonus, b.ac_bonus, b.size_change) == ("Tiny", 2, 2, 1)


@pytest.mark.parametrize("size", SIZES[1:])
def test_every_size_gives_the_smaller_sizes_bonus_and_the_change(size):
    b = make_child(Character("Kid", "Student", size=size), "Farm Kid")
    smaller = SIZES[SIZES.index(size) - 1]
    assert b.size_bonus == SIZE_MODIFIERS[smaller] and b.size_change == SIZE_MODIFIERS[smaller] - SIZE_MODIFIERS[size] > 0


SCHOOL_BAD = [
    (lambda: Character("X", "Student", strength="10"), "strength: must be a whole number"),
    (lambda: Character("X", "Student", attributes=(("Flight", 1.5),)), "attributes: must be a whole number"),
    (lambda: Character("X", "Student", attributes=(("Flight", 1), ("Flight", 2))), "attributes: an Attribute is listed twice"),
    (lambda: make_child(Character("X", "Student"), "Farm Kid", gm_permits_class=1), "gm_permits_class: must be True or False"),
    (lambda: make_child(Character("X", "Student"), "Farm Kid", divine_relationship_cap=1.0), "divine_relationship_cap: must be a whole number"),
    (lambda: make_child(Character("X", "Ninja"), "Farm Kid"), "character_class: Ninja is not one of the school classes"),
    (lambda: make_child(Character("X", "Student"), "farm kid"), "origin: must be one of"),
]


@pytest.mark.parametrize("call,why", SCHOOL_BAD)
def test_school_bad_input(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()


# --- classless -------------------------------------------------------------------------------------------------------------

def test_the_costs_are_the_sources():
    t = flat("MAKING", "BIG COMBATS")
    for phrase in ["minimum of 40 for player characters", "Each 10 Points above 40 equals one additional ECL",
                   "90 Character Points with which to make characters, the characters are ECL 5", "by 1 per 0.5 Point",
                   "2+Int modifier for 0.5 Point", "4+Int modifier for 1 Point", "6+Int modifier for 1.5 Points",
                   "8+Int modifier for 2 Points", "d4 for 1 Points", "d6 for 1.5 Points", "d8 for 2 Points", "d10 for 2.5 Points",
                   "d12 for 3 Points", "each +1 costs 1 Character Point", "Attack Combat Mastery Attribute",
                   "All combat Skills are cross class Skills", "(or partial Points) may be saved", "award players 1 Character Point",
                   "For each 10 Character Points gained through adventuring (not spent gained), the character's ECL increases by 1"]:
        assert phrase in t, phrase
    assert MIN_CP == 40 and ABILITY_COST == Fraction(1, 2) and SAVE_COST == 1
    assert SKILL_TIERS == {Fraction(1, 2): 2, Fraction(1): 4, Fraction(3, 2): 6, Fraction(2): 8}
    assert HIT_DIE_COST == {"d4": 1, "d6": Fraction(3, 2), "d8": 2, "d10": Fraction(5, 2), "d12": 3}


def test_ecl_readings():
    assert ecl(90) == 5 and ecl(90, "additional") == 6  # the example, and the other reading
    assert [ecl(c) for c in (40, 49, 50, 59, 60)] == [0, 0, 1, 1, 2]


@settings(max_examples=150, deadline=None)
@given(st.integers(40, 120), st.lists(st.tuples(st.sampled_from(BUY_KINDS + ("session",)), st.integers(1, 4), st.booleans()), max_size=25))
def test_the_ledger_never_overspends_and_undoes(start, script):
    b = ClasslessBuild("P", start)
    for kind, n, flag in script:
        before = (b.left, len(b.entries))
        try:
            if kind == "session": b.session(flag)
            elif kind == "ability": b.buy(kind, "Wisdom", n)
            elif kind == "save": b.buy(kind, "Will", n)
            elif kind == "hit die": b.buy(kind, "d10", n)
            elif kind == "skills": b.buy(kind, "lore", cost=str(Fraction(n, 2)), int_mod=-2 if flag else 1)
            else: b.buy(kind, "Something", n, cost=str(Fraction(5 * n, 2)))
        except InputError:
            assert (b.left, len(b.entries)) == before
            continue
        assert b.left >= 0 and b.left.denominator in (1, 2)
        assert b.ecl == ecl(start) + b.gained // 10
    assert ClasslessBuild.from_dict(copy.deepcopy(b.to_dict())).lines == b.lines
    while b.entries: b.undo()
    assert b.left == start


CLASSLESS_BAD = [
    (lambda: ecl(float("nan")), "cp: must be a whole number"),
    (lambda: ecl(90, ecl_reading=None), "ecl_reading: must be text, got None"),
    (lambda: skill_points(Fraction(1, 2), int_mod="1"), "int_mod: must be a whole number"),
    (lambda: skill_points(Fraction(1, 2), at_least_one="False"), "at_least_one: must be True or False"),
    (lambda: ClasslessBuild("P", 90).buy("attack bonus", "BAB"), "kind: a base attack bonus is not for sale"),
    (lambda: ClasslessBuild("P", 90).buy("feat", "Attack Combat Mastery", cost="2"), "kind: Attack Combat Mastery is an Attribute"),
    (lambda: ClasslessBuild("P", 90).buy("ability", "Strength", 1.0), "count: must be a whole number"),
    (lambda: ClasslessBuild("P", 90).buy("skills", "x", count=2, cost="1"), "count: skill points are bought one purchase at a time"),
    (lambda: ClasslessBuild("P", 90).buy("save", "Luck"), "name: must be one of"),
    (lambda: ClasslessBuild("P", 90).buy("feat", "", cost="1"), "name: name the feat"),
    (lambda: ClasslessBuild("P", 90).buy("attribute", "Flight", cost="nan"), "cost: must be a number of points"),
    (lambda: ClasslessBuild("P", 90).buy("ability", "Strength", int_mod=1), "int_mod: only a skills purchase"),
    (lambda: ClasslessBuild("P", 90).session("False"), "extra: must be True or False"),
    (lambda: ClasslessBuild("P", 90, at_least_one=0), "at_least_one: must be True or False"),
]


@pytest.mark.parametrize("call,why", CLASSLESS_BAD)
def test_classless_bad_input(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()


# --- ECL: points left over at creation and points earned in play (a reading, both ways) -----------------------------------

def test_points_earned_in_play_count_in_their_own_tens():
    assert ecl(95, earned=5) == 5 and ecl(100) == 6  # the reading used: 95 + 5 earned is ECL 5, a 100-point build ECL 6
    assert ecl(95, earned=5, earned_reading="pooled") == 6 and ecl(100, earned_reading="pooled") == 6
    assert ecl(95, earned=15) == 6 and ecl(95, earned=15, earned_reading="pooled") == 7
    assert ecl(95, "additional", earned=5) == 6 and ecl(95, "additional", earned=5, earned_reading="pooled") == 7


@pytest.mark.parametrize("reading,want", [("apart", 5), ("pooled", 6)])
def test_the_ledger_follows_the_reading_and_saves_it(reading, want):
    b = ClasslessBuild("P", 95, earned_reading=reading)
    for _ in range(5): b.session()
    assert (b.gained, b.ecl) == (5, want) and b.lines[-1].endswith(f"ECL {want}).")
    again = ClasslessBuild.from_dict(copy.deepcopy(b.to_dict()))
    assert (again.earned_reading, again.ecl) == (reading, want)
    assert ClasslessBuild("Q", 100, earned_reading=reading).ecl == 6


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), st.sampled_from(["example", "additional"]), st.booleans())
def test_ecl_by_either_reading(cp, earned, reading, npc):
    if cp < MIN_CP and not npc:
        with pytest.raises(InputError, match="cp: a player character"): ecl(cp, reading, earned, npc=npc)
        return
    base = (1 if reading == "additional" else 0)
    apart, pooled = ecl(cp, reading, earned, "apart", npc), ecl(cp, reading, earned, "pooled", npc)
    assert apart == max(0, (cp - 40) // 10 + base) + earned // 10
    assert pooled == max(0, (cp + earned - 40) // 10 + base)
    assert apart <= pooled <= apart + 1 if cp >= MIN_CP else apart >= 0 and pooled >= 0


# --- a GM's weaker non-player character ------------------------------------------------------------------------------

def test_a_gms_npc_may_be_built_on_fewer_than_40_points():
    with pytest.raises(InputError, match="start: a player character starts with at least 40"):
        ClasslessBuild("Thug", 25)
    thug = ClasslessBuild("Thug", 25, npc=True)
    assert (thug.left, thug.ecl) == (25, 0)
    thug.buy("hit die", "d8", 2)
    assert thug.left == 21
    assert ecl(25, npc=True) == 0 and ecl(0, npc=True) == 0 and ecl(39, "additional", npc=True) == 0
    again = ClasslessBuild.from_dict(copy.deepcopy(thug.to_dict()))
    assert (again.npc, again.start, again.left) == (True, 25, 21)


def test_a_version_1_save_reads_as_before():
    v1 = {"kind": "besm-d20-classless-build", "version": 1, "name": "P", "start": 95, "ecl_reading": "example", "at_least_one": True,
          "entries": [{"entry": "session", "extra": False}] * 5}
    b = ClasslessBuild.from_dict(v1)
    assert (b.earned_reading, b.npc, b.ecl) == ("apart", False, 5)
    with pytest.raises(ValueError, match="data: has fields this tracker does not save: npc"):
        ClasslessBuild.from_dict(v1 | {"npc": True})


# --- saves hold exactly their fields, and no more than a build may --------------------------------------------------------

def saved_build() -> dict:
    b = ClasslessBuild("P", 90); b.buy("save", "Will", 2); b.session(True)
    return copy.deepcopy(b.to_dict())


@pytest.mark.parametrize("change,why", [
    (lambda d: d.update(colour="red"), "data: has fields this tracker does not save: colour"),
    (lambda d: d.update({7: "x"}), "data: has fields this tracker does not save: 7"),
    (lambda d: d.pop("at_least_one"), "data: is missing at_least_one"),
    (lambda d: d.pop("entries"), "data: is missing entries"),
    (lambda d: d.pop("npc"), "data: is missing npc"),
    (lambda d: d["entries"][0].pop("int_mod"), "entries[0]: is incomplete: missing int_mod"),
    (lambda d: d["entries"][1].pop("extra"), "entries[1]: is incomplete: missing extra"),
    (lambda d: d["entries"][1].update({2: 1}), "entries[1].2: is not a field of Session"),
    (lambda d: d["entries"][0].update(entry=["buy"]), "entries[0]: must be a 'buy' or a 'session'"),
    (lambda d: d.update(name=["P"]), "name: must be text"),
    (lambda d: d.update(ecl_reading=["example"]), "ecl_reading: must be"),
    (lambda d: d.update(earned_reading="both"), "earned_reading: must be one of"),
    (lambda d: d.update(npc="False"), "npc: must be True or False"),
    (lambda d: d.update(start=30), "start: a player character starts with at least 40"),
    (lambda d: d.update(entries=[{"entry": "session", "extra": False}] * (MAX_ENTRIES + 1)), f"entries: must have at most {MAX_ENTRIES} items"),
])
def test_a_build_save_holds_exactly_its_fields(change, why):
    data = saved_build(); change(data)
    with pytest.raises(ValueError, match=re.escape(why)):
        ClasslessBuild.from_dict(data)


def test_a_full_build_loads_and_refuses_one_more_entry():
    data = saved_build()
    data["entries"] = [{"entry": "session", "extra": True}] * MAX_ENTRIES
    b = ClasslessBuild.from_dict(data)
    assert (len(b.entries), b.gained, b.ecl) == (MAX_ENTRIES, 2 * MAX_ENTRIES, 5 + 2 * MAX_ENTRIES // 10)
    with pytest.raises(InputError, match="entry: this build is full"):
        b.session()
    with pytest.raises(InputError, match="entries: a build holds at most"):
        ClasslessBuild("P", 90, entries=[Session()] * (MAX_ENTRIES + 1))


# --- school origins for a character already strong in an origin's Attribute ----------------------------------------------

def test_school_origins_lists_what_a_strong_believer_may_take():
    c = Character("Ai", "Student", attributes=(("Divine Relationship", 99),))
    assert school_origins(c) == ("Farm Kid", "Popular Kid", "Rich Kid", "Street Kid")
    with pytest.raises(InputError, match=re.escape("origin: Mystery Kid would give Divine Relationship 101")):
        make_child(c, "Mystery Kid")
    full = Character("Bo", "Student", attributes=tuple((o.bonus, 100) for o in ORIGINS.values() if o.kind == "attribute"), feats=("Brawl",))
    assert school_origins(full) == ()
    assert school_origins(Character("Cy", "Student", attributes=(("Divine Relationship", 98),))) == tuple(ORIGINS)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from([o.bonus for o in ORIGINS.values() if o.kind == "attribute"] + ["Flight"]), st.integers(1, 100)),
       st.booleans(), st.one_of(st.none(), st.integers(0, 100)))
def test_school_origins_are_exactly_the_origins_make_child_accepts(ranks, brawl, cap):
    c = Character("Kid", "Student", attributes=tuple(ranks.items()), feats=("Brawl",) if brawl else ())
    allowed = school_origins(c, cap)
    for name in ORIGINS:
        try: make_child(c, name, divine_relationship_cap=cap); ok = True
        except InputError: ok = False
        assert ok == (name in allowed), name


@pytest.mark.parametrize("value", (None, [], {}, ["x"], {"a": 1}, "x", 1.5, float("nan"), 1, 10 ** 400), ids=repr)
def test_entries_built_by_hand_are_refused_naming_the_field(value):
    with pytest.raises(InputError, match="extra: must be True or False"):
        ClasslessBuild("P").push(Session(value))
    with pytest.raises(InputError, match="extra: must be True or False"):
        ClasslessBuild("P", entries=[Session(value)])
    with pytest.raises(InputError, match="entries: must be"):
        ClasslessBuild("P", entries=[{"entry": "session", "extra": True}])
