"""Narrative battles (000 · Narrative Battles): the tables against the source text, the worked examples, the turn
engine and its saves, the exact turn odds and the battle odds, properties, and refusals of bad input."""
import json
import random
import re
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.battles import (TABLE_A8, TABLE_A9, TROOP_TYPES, Army, Battle, BattleRules, BattleState, General, Troops,
                                      a8_row, a9_row, army_from_troops, army_quality, army_strength, average_level, battle_from_dict,
                                      battle_check_bonus, check_bonuses, encounter_modifier, outnumber_bonus, resolve_turn,
                                      roll_encounter, size_scale, start_battle, strength_loss)
from besm_nb.besm_d20.battle_odds import battle_odds, strength_cannot_matter, turn_odds
from besm_nb.dice import InputError, dist, stats
from tests.helpers import ROOT, seed_text

SEED = "000_f9e715c2d04899ab.txt"
KENSHIN = General("Kenshin", intelligence=14, military_science=8, aura_of_command=2, area_ranks=5)
RAIDER = General("Toghrul", intelligence=12, military_science=6)
EXAMPLE = [Troops("Samurai infantry", 2000, 1), Troops("Samurai cavalry", 500, 2, "cavalry", mount_hd=4, war_mount=True),
           Troops("Nomad raiders", 1000, 1, "cavalry", mount_hd=3), Troops("Mecha pilots", 100, 5, "mecha", big_mecha=2)]


def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def battle(**kw) -> BattleState:
    samurai = army_from_troops("Samurai", KENSHIN, EXAMPLE)
    horde = army_from_troops("Raiders", RAIDER, [Troops("Raiders on foot", 4000, 1), Troops("Riders", 1000, 1, "cavalry", mount_hd=3)])
    return start_battle(samurai, horde, **kw)


# --- the tables against the source ------------------------------------------------------------------------------

def test_table_a6_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-6: OUTNUMBER BONUS", "BATTLE CHECKS")
    assert re.findall(r"\+(\d)", text) == ["1", "2", "3", "4", "5"]
    assert "not twice as high" in text and "between two and three times" in text and "greater than five times" in text
    # each printed row at a ratio inside it
    assert [outnumber_bonus(s, 100) for s in (150, 250, 350, 450, 600)] == [1, 2, 3, 4, 5]


def test_table_a8_against_the_seed():
    text = section(seed_text(SEED), "Opposed Battle Check\tResult for Winner", "TABLE A-9")
    rows = [l for l in text.splitlines()[1:] if l.strip()]
    losses = re.findall(r"Lose (\d)d(\d) x (\d+) from Army Strength", text)
    assert losses == [("1", "4", "100"), ("1", "4", "100"), ("4", "6", "10"), ("1", "6", "100"), ("3", "6", "10"), ("2", "6", "100"),
                      ("2", "6", "10"), ("3", "6", "100"), ("1", "6", "10"), ("5", "6", "100"), ("8", "6", "100")]
    mine = []
    for r in TABLE_A8:
        if r.winner_dice: mine.append((r.winner_dice[0], r.winner_dice[-1], str(r.winner_times)))
        mine.append((r.loser_dice[0], r.loser_dice[-1], str(r.loser_times)))
    assert mine == losses
    assert [int(x) for x in re.findall(r"\+(\d) circumstance modifier", text)] == [r.winner_bonus for r in TABLE_A8[1:]]
    assert [int(x) for x in re.findall(r"-(\d) from Army Quality", text)] == [r.loser_quality for r in TABLE_A8[1:]]
    assert [re.match(r"(Tied|Won by [^\t]+)", l).group(1) for l in rows if re.match(r"(Tied|Won by)", l)] == [r.label for r in TABLE_A8]
    assert "No losses" in text and TABLE_A8[-1].winner_dice == ""


def test_table_a9_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-9", "Furthermore, if desired")
    labels = re.findall(r"^(?:Modified d20 Roll )?(-?\d+(?: to -?\d+)?(?: or below|\+)?)\t", text, re.M)
    assert labels == ["-31 or below", "-30", "-21 to -29", "-20", "-11 to -19", "-10", "-1 to -9", "0", "1 to 9", "10", "11 to 19", "20",
                      "21 to 29", "30", "31+"]
    # each printed label is the row our table gives for a roll inside it
    for label, row in zip(labels, TABLE_A9):
        n = int(re.match(r"-?\d+", label).group())
        assert a9_row(n) is row and a9_row(int(label.split(" to ")[1]) if " to " in label else n) is row
    assert [int(x) for x in re.findall(r"\+(\d) if all opponents", text)] == [r.psb for r in TABLE_A9 if r.psb]
    assert [int(x) for x in re.findall(r"(\d+) xp", text)] == [r.xp for r in TABLE_A9 if r.xp]
    assert re.findall(r"Reflex save \(DC (\d+)\) or be dealt (\d)d8", text) == [(str(r.save_dc), r.missile[0]) for r in TABLE_A9 if r.save_dc]
    assert re.findall(r"on a roll of (1-3|1-2|1),", text) == ["1-3", "1-2", "1"] and [r.again for r in TABLE_A9[:3]] == [3, 2, 1]
    assert re.findall(r"casualties reach (\d+)%", text) == ["75", "60", "45", "30", "15"]
    assert [r.rout for r in TABLE_A9 if "%" in r.rout] == ["only at 75% casualties", "at 60% casualties", "at 45% casualties",
                                                          "at 30% casualties", "at 15% casualties"]
    durations = re.findall(r"\t(\d?d\d(?:\+\d)?) rounds", text)
    assert durations == [r.duration for r in TABLE_A9 if r.duration not in ("", "until beaten")]
    opponents = re.findall(r"(?:\t|Opponents )((?:1d\d(?:-1)?|1) (?:Leaders?|Standard|Special|Poor)(?: \+ ?(?:1d\d+|2d6) (?:Special|Standard|Poor))?)\t", text)
    mine = [" + ".join(f"{d} {t}{'s' if t == 'Leader' and d not in ('1',) else ''}" for d, t in r.opponents) for r in TABLE_A9 if r.opponents]
    assert [o.replace("+1d2", "+ 1d2") for o in opponents] == mine
    assert set(TROOP_TYPES) == {"Poor", "Standard", "Special", "Leader"}


def test_battle_check_modifiers_against_the_seed():
    text = section(seed_text(SEED), "A Battle Check is made as a Knowledge (Military Science) check", "Note: This system")
    assert "+1 per Rank in Aura of Command" in text and "+ Army Quality" in text and "+ Outnumber Bonus" in text
    assert "+2 synergy bonus if the general also has five or more ranks of Knowledge (Area)" in text
    assert "Player Success Bonus" in text and "circumstance modifiers" in text
    assert "TARLE A-8. RATTLE CHECK RECIUTS" in text  # the misprinted title inside Table A-7's list
    g = General("G", intelligence=10, aura_of_command=3)
    assert battle_check_bonus(g, 0)[0] == 3  # +1 per rank
    assert battle_check_bonus(replace(g, area_ranks=5), 0)[0] - battle_check_bonus(replace(g, area_ranks=4), 0)[0] == 2
    assert battle_check_bonus(g, 4, 2, 3, -1)[0] == 3 + 4 + 2 + 3 - 1


def test_scale_bands_and_turn_against_the_seed():
    text = section(seed_text(SEED), "Note: This system is intended", "An army whose AQ")
    assert "fewer than 1,000 participants, divide all the Army Strength losses by 10" in text
    assert text.count("multiply all Army Strength losses by 10") == 2  # the OCR's second "10", read as 100
    assert "base of 30 minutes to as much as one hour or as little as 10 minutes" in text
    assert [size_scale(n) for n in (999, 1000, 10_000, 100_000, 100_001)] == [Fraction(1, 10), 1, 10, 10, 100]
    assert size_scale(100_001, "x10") == 10
    assert "for every hour" in seed_text(SEED) and BattleRules().turn_minutes == 30


# --- worked examples --------------------------------------------------------------------------------------------

def test_army_strength_and_quality_examples():
    assert army_strength([Troops("Foot", 1200, 1), Troops("Horse", 400, 1, "cavalry")])[0] == 2000
    assert army_strength(EXAMPLE)[0] == 5200
    assert sum(t.count * t.hit_dice for t in EXAMPLE) == 5700 and sum(t.count for t in EXAMPLE) == 3600
    assert army_quality(EXAMPLE)[0] == 3
    assert Troops("Pilots", 100, 5, "mecha", big_mecha=2).hit_dice == 7
    assert Troops("Light", 10, 1, "cavalry", mount_hd=3).hit_dice == 1 and Troops("Light", 10, 1, "cavalry", mount_hd=3).strength == 20


def test_battle_check_pieces():
    bonus, steps = battle_check_bonus(KENSHIN, 3, 2, 1, 1)
    assert bonus == 2 + 8 + 2 + 2 + 3 + 2 + 1 + 1
    whats = [s.what for s in steps]
    assert "Knowledge (Area) 5 ranks: synergy" in whats and "Aura of Command" in whats
    assert battle_check_bonus(replace(KENSHIN, area_ranks=4), 3)[0] == 2 + 8 + 2 + 3  # synergy needs 5+ ranks
    assert average_level([5, 4, 4]) == 4 and encounter_modifier(-3, 4, 2)[0] == -9


def test_a_battle_through_the_engine():
    b = Battle(battle(characters="A", party_size=3, party_level=4))
    b.turn(dice=[11, 12, 10, 7]); b.encounter(dice=[9, 2, 1, 1, 2, 2, 2, 5]); b.turn(dice=[3, 14, 5, 12]); b.turn(dice=[18, 2, 30])
    s = b.state
    assert [a.strength for a in s.armies] == [4600, 2180] and [a.quality for a in s.armies] == [2, -2]
    assert s.broken == (False, True) and s.lost == (600, 3820)
    again = battle_from_dict(json.loads(json.dumps(b.to_dict())))
    assert again.state == s
    while b.actions: b.undo()
    assert b.state == b.start


# --- properties ---------------------------------------------------------------------------------------------------

strengths = st.integers(0, 20_000)


@settings(max_examples=150, deadline=None)
@given(sa=strengths, sb=st.integers(1, 20_000), qa=st.integers(1, 8), qb=st.integers(1, 8), seed=st.integers(0, 10_000),
       zero=st.sampled_from(["breaks", "fights on"]), participants=st.sampled_from([0, 500, 50_000, 500_000]))
def test_army_strength_never_below_zero_and_breaking_follows_the_reading(sa, sb, qa, qb, seed, zero, participants):
    s = start_battle(Army("A", KENSHIN, sa, qa), Army("B", RAIDER, sb, qb), BattleRules(zero_strength=zero), participants=participants)
    rng = random.Random(seed)
    for _ in range(6):
        if s.over: break
        s, _ = resolve_turn(s, dice=rng)
        for a, broke in zip(s.armies, s.broken):
            assert a.strength >= 0
            if a.quality <= 0: assert broke  # AQ 0 or below always flees
            if a.strength == 0 and zero == "breaks": assert broke
            if broke and a.quality > 0: assert zero == "breaks" and a.strength == 0
    if s.over: assert s.reason


@settings(max_examples=200, deadline=None)
@given(a=st.integers(0, 10**7), b=st.integers(0, 10**7))
def test_outnumber_bonus_is_monotone_and_one_sided(a, b):
    x, y = outnumber_bonus(a, b), outnumber_bonus(b, a)
    assert 0 <= x <= 5 and 0 <= y <= 5 and (x == 0 or y == 0)
    assert outnumber_bonus(a + 1000, b) >= x
    assert outnumber_bonus(a, b, "lower band") <= x


@settings(max_examples=100, deadline=None)
@given(d=st.integers(0, 48), times=st.sampled_from([10, 100]), scale=st.sampled_from([Fraction(1, 10), Fraction(1), Fraction(10), Fraction(100)]))
def test_losses_are_whole_and_scaled(d, times, scale):
    assert strength_loss(d, times, scale) == d * times * scale


# --- exact odds ---------------------------------------------------------------------------------------------------

def test_turn_odds_sum_and_agree_with_brute_force():
    s = battle()
    o = turn_odds(s)
    assert sum(o.results.values()) == 1 and all(sum(d.values()) == 1 for d in o.strength_loss + o.quality_loss)
    wins = Fraction(0)
    for da in range(1, 21):
        for db in range(1, 21):
            if da + o.bonuses[0] > db + o.bonuses[1]: wins += Fraction(1, 400)
    assert sum(v for k, v in o.results.items() if k.startswith("A ")) == wins
    small = start_battle(Army("A", KENSHIN, 300, 6), Army("B", RAIDER, 90, 1))  # 390 soldiers: every loss ÷ 10
    o = turn_odds(small)
    assert max(o.strength_loss[1]) == 90  # capped at what the army has
    assert o.breaks[1] == sum(v for k, v in o.results.items() if k.startswith("A ")) + o.results["Tied"] * sum(
        p for t, p in dist("1d4").items() if t * 10 >= 90)


def test_battle_odds_exact_and_simulated_agree_where_exact():
    host = start_battle(Army("North", KENSHIN, 40_000_000, 4), Army("South", RAIDER, 25_000_000, 5))
    assert strength_cannot_matter(host, 6)
    ex = battle_odds(host, 6)
    sim = battle_odds(host, 6, method="simulate", n=3000, seed=11)
    assert ex.exact and not sim.exact and sim.n == 3000
    for i, side in enumerate("AB"):
        lo, hi = sim.interval(side, 6)
        assert lo - 0.01 <= float(ex.broken[i][-1]) <= hi + 0.01
    assert all(a <= b for a, b in zip(ex.ended, ex.ended[1:]))


def test_battle_odds_refuse_bad_input():
    s = battle()
    with pytest.raises(InputError) as e: battle_odds(s, method="exact")
    assert e.value.param == "method"
    with pytest.raises(InputError) as e: battle_odds(s, turns=16.0)
    assert e.value.param == "turns"
    with pytest.raises(InputError) as e: battle_odds(s, n=10)
    assert e.value.param == "n"


# --- bad input ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, param", [
    (lambda: Troops("X", float("nan"), 1), "count"),
    (lambda: Troops("X", 10, 1.5), "level"),
    (lambda: Troops("X", 10, "1"), "level"),
    (lambda: Troops("X", 10, 1, "cavalry", war_mount="False"), "war_mount"),
    (lambda: Troops("X", 10, 1, "chariots"), "kind"),
    (lambda: Troops("", 10, 1), "name"),
    (lambda: General("G", intelligence=float("inf")), "intelligence"),
    (lambda: outnumber_bonus(10, 5, "middle"), "exact_multiple"),
    (lambda: size_scale(5000, "x1000"), "largest"),
    (lambda: BattleRules(chain="True"), "chain"),
    (lambda: BattleRules(turn_minutes=90), "turn_minutes"),
    (lambda: BattleRules(zero_strength="fight"), "zero_strength"),
    (lambda: start_battle(Army("A", KENSHIN, 10, 1), Army("B", RAIDER, 10, 1), characters="C"), "characters"),
    (lambda: resolve_turn(battle(), circumstance=(0, float("nan"))), "circumstance"),
    (lambda: roll_encounter(0, 1, dice=[21]), "totals"),
    (lambda: roll_encounter(0, 1, chain="False"), "chain"),
    (lambda: encounter_modifier(3, 4, glory=-1), "glory"),
    (lambda: a8_row(1.5), "margin"),
])
def test_bad_input_is_refused_naming_the_parameter(call, param):
    with pytest.raises(ValueError) as e: call()
    assert isinstance(e.value, InputError) and e.value.param == param, str(e.value)


def test_saved_battles_are_checked_field_by_field():
    b = Battle(battle(characters="A"))
    b.turn(dice=[11, 12, 10, 7])
    good = b.to_dict()
    for path, value, msg in ((("start", "participants"), "8600", "participants: must be a whole number"),
                             (("start", "armies"), [], "needs 2 armies"),
                             (("actions",), {}, "battle.actions: must be a list"),
                             (("claims", "turn"), 5, "turn 5 but the replay gives 2"),
                             (("start", "rules", "psb"), "all", "psb: must be one of")):
        bad = json.loads(json.dumps(good))
        node = bad
        for k in path[:-1]: node = node[k]
        node[path[-1]] = value
        with pytest.raises(ValueError, match=re.escape(msg)): battle_from_dict(bad)
    with pytest.raises(ValueError, match="must be a JSON object"): battle_from_dict([1, 2])


def test_chapter_prose_is_in_our_own_words():
    """No run of 7 words of the seed in the pages' prose, outside quotation marks."""
    def words(t): return re.findall(r"[a-z0-9']+", t.lower().replace("\u2019", "'"))
    sw = words(seed_text(SEED))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    root = ROOT / "nbs" / "besm_d20"
    for name in ("50_battles.ipynb", "51_battle_odds.ipynb", "52_units.ipynb", "53_battles_ui.ipynb", "54_units_ui.ipynb"):
        for c in json.loads((root / name).read_text())["cells"]:
            if c["cell_type"] != "markdown": continue
            w = words(re.sub(r'"[^"]*"', " ", "".join(c["source"])))
            pasted = [" ".join(w[j:j + 7]) for j in range(len(w) - 6) if tuple(w[j:j + 7]) in grams]
            assert not pasted, (name, pasted)
