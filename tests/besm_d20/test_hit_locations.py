"""Hit locations (000 · Hit Locations): Table A-5 against the source, the effects, the exact odds against brute force."""
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.hit_locations import (CALLED_SHOT, EFFECTS, LOCATIONS, NO_EFFECT, TABLE_A5, called_shot_penalty, effect_chance,
                                            hit_location_odds, location, location_hit, location_odds, roll_location_hit)
from besm_nb.dice import InputError, dist
from tests.helpers import seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"


def test_table_a5_every_cell_is_in_the_source():
    t = seed_text(SEED_NAME)
    t = t[t.index("1d12 Roll"):t.index("Leg:")]
    rows = [tuple(c.strip() for c in l.split("\t") if c.strip()) for l in t.splitlines()[1:] if l.strip()]
    assert rows == [(f"{lo}-{hi}" if lo != hi else f"{lo}", name) for lo, hi, name in TABLE_A5]


def test_the_effects_and_called_shots_are_the_sources():
    t = re.sub(r"\s+", " ", seed_text(SEED_NAME))
    t = t[t.index("HIT LOCATIONS"):t.index("NARRATIVE BATTLES")]
    for phrase in ["-1 Damage (minimum 1 point)", "DC 5 + half damage dealt) or fall prone", "drop whatever he or she is holding",
                   "strapped to the arm or wrist", "Incapacitated for one round", "-4 penalty for a Called Shot against the torso",
                   "-6 penalty for a Called Shot against any limb", "-8 penalty for a Called Shot against the head"]:
        assert phrase in t, phrase
    assert CALLED_SHOT == {"torso": -4, "leg": -6, "arm": -6, "head": -8}


def test_every_face_of_the_d12():
    assert [location(n) for n in range(1, 13)] == ["Left Leg", "Left Leg", "Right Leg", "Right Leg", "Left Arm", "Left Arm",
                                                   "Right Arm", "Right Arm", "Torso", "Torso", "Torso", "Head"]
    assert location_odds() == {n: Fraction(sum(location(k) == n for k in range(1, 13)), 12) for n in LOCATIONS}


def brute(damage_expr, fortitude, strapped):
    "Every d12 face, damage total and d20 face, counted."
    out = {}
    for face in range(1, 13):
        for dmg, p in dist(damage_expr).items():
            for nat in range(1, 21):
                hit = location_hit(location(face), dmg, strapped)
                fails = hit.save_dc is not None and (nat == 1 or (nat != 20 and nat + fortitude < hit.save_dc))
                key = hit.effect if fails else NO_EFFECT
                out[key] = out.get(key, Fraction(0)) + Fraction(1, 12) * p * Fraction(1, 20)
    return out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["1d4", "2d6+3", "1d8+1", "3d6", "0", "1d2-1"]), st.integers(-5, 15), st.booleans())
def test_exact_odds_agree_with_brute_force(expr, fortitude, strapped):
    odds = hit_location_odds(expr, fortitude, strapped)
    assert sum(odds.values()) == 1
    b = brute(expr, fortitude, strapped)
    assert {k: v for k, v in odds.items() if v} == {k: v for k, v in b.items() if v}


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 200), st.integers(-10, 30))
def test_more_fortitude_never_makes_an_effect_more_likely(damage, fort):
    for w in LOCATIONS:
        assert effect_chance(w, damage, fort + 1) <= effect_chance(w, damage, fort)
        assert location_hit(w, damage).damage == (max(1, damage - 1) if damage and w not in ("Torso", "Head") else damage)


def test_the_limb_minimum_and_the_half_rounded_down():
    assert location_hit("Right Leg", 2).damage == 1 and location_hit("Right Leg", 2).save_dc == 5
    assert location_hit("Right Leg", 4).save_dc == 6  # 3 dealt: half is 1
    assert location_hit("Head", 1).save_dc == 5 and location_hit("Head", 1).effect == EFFECTS["head"]


def test_rolls_replay_from_their_seed():
    a = [roll_location_hit("2d6", 1, rng=random.Random(s)) for s in range(50)]
    assert a == [roll_location_hit("2d6", 1, rng=random.Random(s)) for s in range(50)]


BAD = [
    (lambda: location(0), "d12: must be from 1 to 12"),
    (lambda: location("3"), "d12: must be a whole number"),
    (lambda: location_hit("left leg", 3), "where: must be one of"),
    (lambda: location_hit("Head", 3.5), "damage: must be a whole number"),
    (lambda: location_hit("Head", float("nan")), "damage: must be a whole number"),
    (lambda: location_hit("Left Arm", 3, "False"), "strapped: must be True or False"),
    (lambda: hit_location_odds("2d", 1), "damage: 'd' needs a number of sides"),
    (lambda: hit_location_odds(5, 1.0), "fortitude: must be a whole number"),
    (lambda: roll_location_hit("2d6", 1, d12=13), "d12: must be from 1 to 12"),
    (lambda: roll_location_hit("2d6", 1, d12=1, total=3, d20=0), "d20: must be from 1 to 20"),
    (lambda: called_shot_penalty("Tail"), "where: must be one of"),
]


@pytest.mark.parametrize("call,why", BAD)
def test_bad_input_is_refused_naming_the_parameter(call, why):
    with pytest.raises(InputError, match=re.escape(why)):
        call()
