"""Anime d20 damage and injury: Tables 12-8 and 12-9 cell by cell, the source's examples, every switch, and properties."""
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.checks import d20_success_odds
from besm_nb.anime_d20.combat import critical_damage
from besm_nb.anime_d20.damage import (CRASH_FALL_TABLE, MAX_CRASH_MPH, WOUND_BANDS, WOUND_PENALTIES, crash_damage, critical_injury,
                                d20_check_any_dc, d20_odds_any_dc, damage_odds, damage_rating, fall_acrobatics_dc,
                                fall_damage, fall_odds, first_aid, hp_state, impact_odds, inflict_less, shock_check,
                                shock_odds, shock_value, surgery, surgery_odds, wound_penalty, wounds_heal, wounds_hit,
                                tries_needed, wounds_second_wind, wounds_start, wounds_status, wounds_undo)
from besm_nb.dice import InputError, dist
from tests.helpers import ROOT, seed_text

SEED_NAME = "002_33214d3f36acad19.txt"

# Table 12-8 as printed, transcribed by hand: speed (mph), falling distance (ft), damage.
TABLE_12_8 = [("10 mph", "10 ft", "1d6"), ("20 mph", "20 ft", "2d6"), ("30 mph", "30 ft", "3d6"), ("45 mph", "40 ft", "4d6"),
              ("60 mph", "50 ft", "5d6"), ("75 mph", "60 ft", "6d6"), ("90 mph", "70 ft", "7d6"), ("120 mph", "80 ft", "8d6"),
              ("150 mph", "90 ft", "9d6"), ("180 mph", "100 ft", "10d6"), ("300 mph", "110 ft", "11d6"),
              ("400 mph", "120 ft", "12d6"), ("500 mph", "130 ft", "13d6"), ("1,000 mph", "140 ft", "14d6"),
              ("2,000 mph", "150 ft", "15d6"), ("3,000 mph", "160 ft", "16d6"), ("4,000 mph", "170 ft", "17d6"),
              ("5,000 mph", "180 ft", "18d6"), ("7,500 mph", "190 ft", "19d6"), ("10,000 mph", "200 ft", "20d6")]


def _n(text: str) -> int: return int(re.sub(r"[^\d]", "", text))


@pytest.mark.parametrize("i", range(len(TABLE_12_8)))
def test_table_12_8_cell_by_cell(i):
    speed, feet, dmg = TABLE_12_8[i]
    assert CRASH_FALL_TABLE[i] == (_n(speed), _n(feet), int(dmg.split("d")[0]))
    assert crash_damage(_n(speed)).expr == dmg
    assert fall_damage(_n(feet)).expr == dmg


def test_table_12_8_against_the_seed_text():
    text = seed_text(SEED_NAME)
    block = text[text.index("Table 12-8: Crashing and Falling\n"):text.index("Armour or Force Fields and Damage\n")]
    rows = re.findall(r"([\d,]+) mph\s+(\d+) ft\s+(\d+)d6", block)
    assert [(_n(s), _n(f), int(d)) for s, f, d in rows] == list(CRASH_FALL_TABLE)
    assert "each additional 2,500 mph above 200 ft. +3d6" in block


def test_table_12_9_against_the_seed_text():
    assert WOUND_BANDS == ("100-76%", "75%-51%", "50%-26%", "25%-0%")
    assert [m for _, m in WOUND_PENALTIES] == [0, -2, -4, -6]
    text = seed_text(SEED_NAME)
    block = text[text.index("Table 12-9: Damage Difficulty Penalties"):text.index("Shock Value and Critical Injury")]
    rows = re.findall(r"(\d+%?-\d+%)\s+(-?\d+)", block)
    assert [(b, int(m)) for b, m in rows] == [(b, m) for b, (_, m) in zip(WOUND_BANDS, WOUND_PENALTIES)]


def test_between_two_rows_the_greater_and_beyond_10000():
    assert crash_damage(11).expr == "2d6" and crash_damage(121).expr == "9d6" and crash_damage(9999).expr == "20d6"
    assert [crash_damage(s).dice for s in (10_001, 12_500, 12_501, 15_000, 20_000)] == [23, 23, 26, 26, 32]
    assert crash_damage(MAX_CRASH_MPH).dice == 98
    with pytest.raises(InputError, match="speed_mph"): crash_damage(MAX_CRASH_MPH + 1)
    assert fall_damage(101).expr == "11d6"


def test_switches_below_and_beyond_the_table():
    assert crash_damage(9).expr == "0" and crash_damage(9, below_first_row="first_row").expr == "1d6"
    assert fall_damage(9).expr == "0" and fall_damage(9, below_first_row="first_row").expr == "1d6"
    assert fall_damage(0, below_first_row="first_row").expr == "0"
    assert [fall_damage(f).dice for f in (201, 300, 10_000)] == [23, 23, 23]
    assert [fall_damage(f, beyond_200="cap").dice for f in (201, 300, 10_000)] == [20, 20, 20]
    assert [fall_damage(f, beyond_200="per_10ft").dice for f in (201, 210, 211, 300, 1000)] == [21, 21, 22, 30, 100]


def test_fall_acrobatics_dc_and_odds():
    assert [fall_acrobatics_dc(f) for f in (5, 10, 11, 30, 200)] == [15, 15, 16, 35, 205]
    o, p = fall_odds(20, acrobatics=10)  # DC 25: d20 of 15+
    assert p == Fraction(6, 20)
    full, half = dist("2d6"), {}
    for k, q in full.items(): half[k // 2] = half.get(k // 2, 0) + q
    assert o == {k: full.get(k, 0) * Fraction(14, 20) + half.get(k, 0) * Fraction(6, 20) for k in set(full) | set(half)}
    assert fall_odds(20)[1] == 0 and fall_odds(20)[0] == dist("2d6")


def test_halve_first_switch():
    assert impact_odds("1d6", armour=2, break_fall=1) == {0: Fraction(3, 6), 1: Fraction(2, 6), 2: Fraction(1, 6)}  # (k-2)//2
    assert impact_odds("1d6", armour=2, break_fall=1, halve_first=True) == {0: Fraction(5, 6), 1: Fraction(1, 6)}  # k//2-2


def test_the_sources_examples():
    assert inflict_less("5d8", 32, 15)[0] == 15
    assert critical_damage("6d8") == "12d8"
    assert damage_rating("unarmed", strength=2, massive_damage=1).expr == "1d3+3"


def test_hit_point_states_and_the_gritty_switch():
    assert [hp_state(h, 30) for h in (0, -1, -29, -30)] == ["ok", "unconscious", "unconscious", "dead"]
    assert [hp_state(h, 30, gritty=True) for h in (0, -1, -9, -10)] == ["ok", "unconscious", "unconscious", "dead"]
    assert hp_state(-10, 10) == hp_state(-10, 10, gritty=True) == "dead"


def test_wound_penalties_and_second_wind():
    assert [wound_penalty(h, 100) for h in (100, 76, 75, 51, 50, 26, 25, 0, -3)] == [0, 0, -2, -2, -4, -4, -6, -6, -6]
    assert wound_penalty(60, 100, second_wind_hp=70) == 0 and wound_penalty(50, 100, second_wind_hp=70) == -4
    assert wound_penalty(25, 100, second_wind_hp=40) == -6 and wound_penalty(26, 100, second_wind_hp=40) == 0


def test_shock_reading_and_switch():
    assert shock_value(40) == 8
    assert shock_check(8, 40) is None and shock_check(8, 40, trigger="equal").dc == 15
    assert [shock_check(d, 40).dc for d in (9, 13, 18, 23)] == [15, 16, 17, 18]
    assert critical_injury(8, 40, True) is False and critical_injury(8, 40, True, trigger="equal") is True
    assert critical_injury(20, 40, False) is False
    with pytest.raises(InputError, match="trigger"): shock_check(9, 40, trigger="maybe")


@given(st.integers(1, 200), st.integers(1, 300), st.integers(-10, 30), st.sampled_from(["more", "equal"]))
@settings(max_examples=150, deadline=None)
def test_shock_odds_match_brute_force(damage, max_hp, fort, trigger):
    check = shock_check(damage, max_hp, trigger)
    o = shock_odds(damage, max_hp, fort, trigger)
    assert sum(o.values()) == 1
    if check is None:
        assert o == {0: 1}; return
    want: dict[int, Fraction] = {}
    for nat in range(1, 21):
        total = nat + fort
        ok = nat == 20 or (nat != 1 and total >= check.dc)
        k = 0 if ok else max(1, check.dc - total)
        want[k] = want.get(k, 0) + Fraction(1, 20)
    assert o == want


def test_medical_checks():
    assert first_aid(5, 3).dc == 18 and first_aid(5, 3, on_self=True, improvised=True).bonus == 1
    assert surgery(5, 2, "lesser").bonus == 1 and surgery(5, 2, "improvised").bonus == -3
    assert surgery(5, 2, "hospital").success == d20_success_odds(5, 17)
    assert surgery_odds(0, 5) == {0: Fraction(1, 20), **{2 * k: Fraction(1, 20) for k in range(1, 20)}}  # DC 20: 19 fails by 1, 1 by 19
    with pytest.raises(InputError, match="facility"): surgery(5, 1, "tent")


def test_wounds_record_and_undo():
    w0 = wounds_start(40)
    w1 = wounds_hit(w0, 15, armour=3, breaks_skin=True)
    assert (w1.hp, w1.critical_injuries, wounds_status(w1).shock.dc) == (28, 1, 15)
    assert wounds_undo(w1) == w0
    w2 = wounds_second_wind(w1)
    assert wounds_status(w2).penalty == 0 and wounds_status(w1).penalty == -2
    assert wounds_heal(w2, 99).hp == 40
    with pytest.raises(InputError, match="undo"): wounds_undo(w0)


EXPRS = st.builds(lambda n, s, c: f"{n}d{s}{c:+d}" if c else f"{n}d{s}", st.integers(1, 6), st.sampled_from([3, 4, 6, 8, 10]),
                  st.integers(-20, 10))


@given(EXPRS, st.integers(0, 30))
@settings(max_examples=150, deadline=None)
def test_damage_never_negative_and_sums_to_one(expr, armour):
    o = damage_odds(expr, armour)
    assert min(o) >= 0 and sum(o.values()) == 1


@given(st.integers(0, 400), st.integers(0, 20), st.one_of(st.none(), st.integers(-10, 40)),
       st.sampled_from(["once", "cap", "per_10ft"]), st.booleans())
@settings(max_examples=80, deadline=None)
def test_fall_odds_are_distributions_of_non_negative_damage(feet, armour, acro, beyond, halve_first):
    o, p = fall_odds(feet, acro, armour, beyond, halve_first=halve_first)
    assert sum(o.values()) == 1 and min(o) >= 0 and 0 <= p <= 1


@given(st.floats(0, MAX_CRASH_MPH - 1), st.floats(0, 1000))
@settings(max_examples=300, deadline=None)
def test_crash_damage_is_monotonic_in_speed(speed, more):
    faster = min(MAX_CRASH_MPH, speed + more)
    assert crash_damage(speed).dice <= crash_damage(faster).dice
    assert crash_damage(speed, "first_row").dice <= crash_damage(faster, "first_row").dice


@given(st.integers(0, 999), st.integers(0, 50), st.sampled_from(["once", "cap", "per_10ft"]))
@settings(max_examples=200, deadline=None)
def test_fall_damage_and_dc_are_monotonic_in_height(feet, more, beyond):
    higher = min(1000, feet + more)
    assert fall_damage(feet, beyond).dice <= fall_damage(higher, beyond).dice
    assert fall_acrobatics_dc(feet) <= fall_acrobatics_dc(higher)


@given(st.integers(-200, 200), st.integers(1, 200))
@settings(max_examples=300, deadline=None)
def test_losing_hit_points_never_lightens_the_penalty(hp, max_hp):
    assert wound_penalty(hp - 1, max_hp) <= wound_penalty(hp, max_hp)


@given(st.integers(-50, 100), st.integers(0, 400))
@settings(max_examples=300, deadline=None)
def test_any_dc_odds_match_the_d20_rules(bonus, dc):
    want = Fraction(sum(1 for n in range(1, 21) if n == 20 or (n != 1 and n + bonus >= dc)), 20)
    assert d20_odds_any_dc(bonus, dc) == want
    if dc <= 100: assert want == d20_success_odds(bonus, dc)
    for n in range(1, 21):
        ok, by = d20_check_any_dc(bonus, dc, n)
        assert ok == (n == 20 or (n != 1 and n + bonus >= dc)) and (by == 0) == ok


def test_strength_switch_both_ways():
    assert damage_rating("melee", "2d6", strength=3).expr == "2d6+3"
    assert damage_rating("melee", "2d6", strength=3, add_strength=False).expr == "2d6"
    assert damage_rating("unarmed", strength=3, add_strength=False, massive_damage=2).expr == "1d3+2"
    assert damage_rating("special", "4d8", strength=3).expr == "4d8"
    assert damage_rating("special", "4d8", strength=3, add_strength=True).expr == "4d8+3"


def test_critical_doubles_the_dice_not_the_bonus():
    assert critical_damage(damage_rating("unarmed", strength=2).expr) == "2d3+2"


def test_probabilities_are_checked_by_name():
    for bad in ("0.5", None, True, -0.1, Fraction(3, 2)):
        with pytest.raises(InputError, match="break_fall: must be a"): impact_odds("2d6", break_fall=bad)
        with pytest.raises(InputError, match="success: must be a"): tries_needed(bad, 2)
    assert tries_needed(Fraction(1, 2), 2) == Fraction(3, 4) and tries_needed(1, 0) == 0


def test_second_wind_tiers():
    assert wound_penalty(30, 40, second_wind_hp=35) == -2  # taken with no penalty: the -2 tier is lower
    assert wound_penalty(38, 40, second_wind_hp=20) == 0  # healing never brings a penalty back
    assert wound_penalty(20, 40, second_wind_hp=20) == 0 and wound_penalty(10, 40, second_wind_hp=20) == -6


def test_medical_dc_counts_every_critical_injury_taken():
    w = wounds_hit(wounds_hit(wounds_start(40), 10, breaks_skin=True), 10, breaks_skin=True)
    assert w.critical_injuries == 2 and wounds_status(w).first_aid_dc == 17 == first_aid(0, 2).dc == surgery(0, 2).dc
    assert first_aid(4, 1, on_self=True).bonus == first_aid(4, 1, improvised=True).bonus == 2


def test_chapter_prose_is_in_our_own_words():
    """No run of 7 words of the seed in the pages' prose, outside quotation marks (table and section titles are code)."""
    import json
    def words(t): return re.findall(r"[a-z0-9']+", t.lower().replace("\u2019", "'"))
    sw = words(seed_text(SEED_NAME))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    root = ROOT / "nbs" / "anime_d20"
    for name in ("25_damage.ipynb", "25_damage_ui.ipynb"):
        for c in json.loads((root / name).read_text())["cells"]:
            if c["cell_type"] != "markdown": continue
            w = words(re.sub(r'"[^"]*"', " ", "".join(c["source"])))
            pasted = [" ".join(w[j:j + 7]) for j in range(len(w) - 6) if tuple(w[j:j + 7]) in grams]
            assert not pasted, (name, pasted)
