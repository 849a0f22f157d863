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
    assert [size_scale(n) for n in (999, 1000, 10_000, 10_001, 100_000, 100_001)] == [Fraction(1, 10), 1, 1, 10, 10, 100]
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


def _equal_armies(n: int = 6000):
    return (Army("East", General("Ieyasu"), n, 2, soldiers=n), Army("West", General("Mitsunari"), n, 2, soldiers=n))


def test_the_size_band_counts_the_larger_army_by_default():
    text = section(seed_text(SEED), "Note: This system is intended", "An army whose AQ")
    assert "Army Strengths of 1,000 to 10,000" in text  # the range is said of each army's strength
    east, west = _equal_armies()
    s = start_battle(east, west)
    assert BattleRules().battle_size == "larger army" and (s.participants, s.scale) == (6000, 1)
    after, log = resolve_turn(s, dice=[12, 5, 10, 7])  # East wins by 7: 3d6 × 10 and 2d6 × 100, as printed
    assert after.lost == (100, 700) and after.armies[1].strength == 5300 and not after.over
    both = start_battle(east, west, BattleRules(battle_size="both armies"))
    assert (both.participants, both.scale) == (12_000, 10)
    after, log = resolve_turn(both, dice=[12, 5, 10, 7])  # × 10: West's 7,000 is more than it has
    assert after.lost == (1000, 6000) and after.broken == (False, True)
    assert "2d6 rolled 7 × 100 × 10 = 7,000, only 6,000 left to lose" in [s.value for s in log]
    uneven = start_battle(Army("Big", KENSHIN, 9000, 2, soldiers=9000), Army("Small", RAIDER, 3000, 2, soldiers=3000))
    assert (uneven.participants, uneven.scale) == (9000, 1)
    assert start_battle(*uneven.armies, BattleRules(battle_size="both armies")).scale == 10


def test_exactly_ten_thousand_under_both_readings():
    big, small = Army("Big", KENSHIN, 10_000, 2, soldiers=10_000), Army("Small", RAIDER, 4000, 2, soldiers=4000)
    assert start_battle(big, small).scale == 1 and BattleRules().at_10000 == "as printed"
    lost = {}
    for reading in ("as printed", "x10"):
        s = start_battle(big, small, BattleRules(at_10000=reading))
        after, _ = resolve_turn(s, dice=[19, 1, 8])  # 19 + 18 v 1 + 9: won by 27; the loser's 8d6 rolled 8
        lost[reading] = s.scale, after.lost
    assert lost == {"as printed": (1, (0, 800)), "x10": (10, (0, 4000))}  # 8,000 is more than the 4,000 left


def test_encounters_come_every_half_hour():
    hour = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=60)))
    hour.turn(dice=[11, 12, 10, 7])  # won by 6: +2 on each roll
    hour.encounter(dice=[9, 2, 1, 1, 2, 2, 2, 5]); hour.encounter(dice=[3, 3, 1, 4, 8])
    assert [f.modified for f in hour.state.fights] == [11, 5] and hour.state.rolls == 2
    two = hour.state
    with pytest.raises(InputError, match=re.escape("already rolled for turn 1 (2 rolls, one each half-hour)")): hour.encounter(dice=[5])
    hour.turn(dice=[3, 14, 5, 12])
    assert hour.state.fights == () and hour.state.rolls == 0 and battles_mod.encounter_refusal(hour.state) == ""
    short = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=10)))
    short.turn(dice=[11, 12, 10, 7])
    with pytest.raises(InputError, match="roll after turn 3"): short.encounter(dice=[9])
    assert [battles_mod.encounter_rolls(t, BattleRules(turn_minutes=10)) for t in range(1, 7)] == [0, 0, 1, 0, 0, 1]
    assert [battles_mod.encounter_rolls(t, BattleRules(turn_minutes=45)) for t in range(1, 5)] == [1, 2, 1, 2]
    every = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=60, encounters="each turn")))
    every.turn(dice=[11, 12, 10, 7]); every.encounter(dice=[9, 2, 1, 1, 2, 2, 2, 5])
    with pytest.raises(InputError, match=re.escape("already rolled for turn 1")): every.encounter(dice=[3, 3, 1, 4, 8])
    again = battle_from_dict(json.loads(json.dumps(hour.to_dict())))
    assert again.state == hour.state and again.start.rules.turn_minutes == 60
    # a state built by hand: fights without their rolls count as one roll; rolls without fights are refused
    assert replace(two, rolls=0).rolls == 1 and replace(two, rolls=0, fights=two.fights[:1]).rolls == 1
    with pytest.raises(InputError, match=re.escape("rolls: 1 encounter roll(s) cannot give 0 fight(s)")): replace(two, fights=(), rolls=1)
    with pytest.raises(InputError, match=re.escape("rolls: 2 encounter roll(s) cannot give 1 fight(s)")): replace(two, fights=two.fights[:1])
    # the half-hour an army breaks in, cut short, still brings its roll
    ended = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=10)))
    ended.turn(dice=[11, 12, 10, 7]); ended.turn(dice=[18, 2, 30])
    assert ended.state.over and ended.state.minutes == 20 and battles_mod.encounter_refusal(ended.state) == ""
    quiet = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=10, final_encounter=False)))
    quiet.turn(dice=[11, 12, 10, 7]); quiet.turn(dice=[18, 2, 30])
    assert battles_mod.encounter_refusal(quiet.state).startswith("the battle is over")


def test_two_player_success_bonuses_under_both_readings():
    got = {}
    for reading in ("best", "sum"):
        b = Battle(start_battle(Army("Ito", General("Ito"), 5000, 8), Army("Oda", General("Oda", 18, 10), 5000, 3),
                                BattleRules(psb=reading), characters="A", party_level=4))
        b.turn(dice=[1, 14, 20])  # 9 v 31: Ito loses by 22
        b.encounter(glory=10, dice=[1, 2, 9, 3, 6, 2, 15, 4, 5])  # −36: the crush (+4), missile fire, −21 (+3)
        assert [f.entry.psb for f in b.state.fights] == [4, 0, 3]
        b.credit(0); b.credit(2)
        got[reading] = b.state.success_bonus[0], check_bonuses(b.state)[0][0]
    assert got == {"best": (4, 9), "sum": (7, 12)}


def test_a_second_version_save_loads_as_it_was_played():
    b = Battle(battle(characters="A", party_size=3, party_level=4, rules=BattleRules(turn_minutes=60)))
    b.turn(dice=[11, 12, 10, 7]); b.encounter(dice=[9, 2, 1, 1, 2, 2, 2, 5])
    old = json.loads(json.dumps(b.to_dict())); old["version"] = 2
    assert old["start"]["participants"] == 5000
    for k in ("battle_size", "at_10000", "encounters", "start_quality"): del old["start"]["rules"][k]
    old["start"]["participants"] = 8600  # version 2 counted both armies, and saved the count
    r = battle_from_dict(old)
    assert (r.start.rules.battle_size, r.start.rules.at_10000, r.start.rules.encounters) == ("both armies", "x10", "each turn")
    assert r.state.participants == 8600 and "already rolled" in battles_mod.encounter_refusal(r.state)
    assert BattleRules().encounters == "each half-hour" and battles_mod.BATTLE_VERSION == 4


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
    (lambda: BattleRules(battle_size="each army"), "battle_size"),
    (lambda: BattleRules(at_10000=10_000), "at_10000"),
    (lambda: BattleRules(encounters="each hour"), "encounters"),
    (lambda: size_scale(10_000, at_10000="x100"), "at_10000"),
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
    with pytest.raises(ValueError, match=re.escape("battle: must be an object of fields, got [1, 2]")): battle_from_dict([1, 2])


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


# --- Table A-6 at its edges, the Table A-9 notes, the breaking turn's encounter -------------------------------------

import ast
import itertools
import tracemalloc

import besm_nb.besm_d20.battles as battles_mod
import besm_nb.besm_d20.battle_odds as odds_mod
from tests.helpers import pasted_runs, words


@pytest.mark.parametrize("reading", ["higher band", "lower band"])
def test_table_a6_at_two_and_five_times_under_every_reading(reading):
    "Not twice as high: +1; exactly twice: +2; four to five times: +4 (five times included); greater than five: +5."
    want = {1999: 1, 2000: 2, 2001: 2, 4999: 4, 5000: 4, 5001: 5}
    for s, bonus in want.items():
        assert outnumber_bonus(s, 1000, reading) == bonus, (s, reading)
        assert outnumber_bonus(1000, s, reading) == 0 and outnumber_bonus(s * 7, 7000, reading) == bonus
    # the switch decides only exactly three and four times, where two rows meet
    assert [outnumber_bonus(s, 1000, reading) for s in (2999, 3000, 3001, 3999, 4000, 4001)] == (
        [2, 3, 3, 3, 4, 4] if reading == "higher band" else [2, 2, 3, 3, 3, 4])


def test_table_a6_edges_against_the_seed():
    text = section(seed_text(SEED), "TABLE A-6: OUTNUMBER BONUS", "BATTLE CHECKS")
    assert "but not twice as high\t+1" in text  # exactly twice is twice as high: not this row
    assert "greater than five times higher than opponent's\t+5" in text  # exactly five times is not greater
    assert all(outnumber_bonus(2 * b, b, r) == 2 and outnumber_bonus(5 * b, b, r) == 4
               for b in (1, 7, 1000, 123_457) for r in ("higher band", "lower band"))


def test_the_table_a9_notes_are_on_the_page():
    "Foes seldom fight to the death; the GM weighs the characters' power when choosing foes, leaders above all."
    cells = json.loads((ROOT / "nbs" / "besm_d20" / "50_battles.ipynb").read_text())["cells"]
    page = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown").lower()
    for idea in (r"to the death", r"captur|prisoner", r"left for dead", r"(wake|come to|come round)[^.]*(battle|outcome|victor)",
                 r"(power|strength|match)[^.]*leaders|leaders[^.]*(power|strength|match)"):
        assert re.search(idea, page), idea
    assert battles_mod.A9_NOTES and all(not pasted_runs(n, SEED) for n in battles_mod.A9_NOTES)


def ended_in_one_turn(**rules):
    s = battle(characters="A", party_size=2, party_level=4, rules=BattleRules(**rules))
    b = Battle(s)
    b.turn(dice=[18, 2, 30])  # Kenshin wins by 23: the raiders lose 3 AQ and flee
    assert b.state.over
    return b


def test_the_encounter_of_the_turn_an_army_breaks_is_rolled_by_default():
    b = ended_in_one_turn()
    assert battles_mod.encounter_refusal(b.state) == "" and BattleRules().final_encounter is True
    b.encounter(dice=[3, 1, 2, 0, 1, 4])  # 3 + 23 − 4 = 22: 1d2−1 standard and 1d2 poor foes each, 1d6 rounds
    assert b.state.fights[0].modified == 22 and "Turn 1 encounter" in b.state.history[-1]
    with pytest.raises(InputError, match="no next Battle Check"): b.credit(0)
    with pytest.raises(InputError, match="already rolled"): b.encounter(dice=[3, 1, 2, 0, 1, 4])
    with pytest.raises(InputError, match="over"): b.turn(dice=[10, 10, 1, 1])
    again = battle_from_dict(json.loads(json.dumps(b.to_dict())))
    assert again.state == b.state and again.start.rules.final_encounter is True


def test_the_other_reading_ends_the_battle_with_its_last_check():
    b = ended_in_one_turn(final_encounter=False)
    assert "the battle is over" in battles_mod.encounter_refusal(b.state)
    with pytest.raises(InputError, match="the battle is over"): b.encounter(dice=[3, 1, 3, 4])
    again = battle_from_dict(json.loads(json.dumps(b.to_dict())))
    assert again.start.rules.final_encounter is False
    with pytest.raises(InputError) as e: BattleRules(final_encounter="no")
    assert e.value.param == "final_encounter"


def test_a_first_version_save_loads_with_the_reading_it_was_played_under():
    b = ended_in_one_turn(final_encounter=False)
    old = json.loads(json.dumps(b.to_dict()))
    old["version"] = 1
    for k in ("final_encounter", "battle_size", "at_10000", "encounters", "start_quality"): del old["start"]["rules"][k]  # the first layout
    assert battle_from_dict(old).start.rules.final_encounter is False  # version 1 had no encounter after the break
    old["start"]["rules"]["final_encounter"] = True
    with pytest.raises(ValueError, match="final_encounter"): battle_from_dict(old)  # not a field of version 1


# --- the battle engine refuses what it cannot keep ----------------------------------------------------------------

def test_a_battle_refuses_a_start_already_played():
    b = Battle(battle(characters="A"))
    b.turn(dice=[11, 12, 10, 7])
    for s in (b.state, replace(b.start, next_bonus=(2, 0)), replace(b.start, margin=3), replace(b.start, lost=(0, 5))):
        with pytest.raises(ValueError) as e: Battle(s)
        assert isinstance(e.value, InputError) and e.value.param == "start", str(e.value)
    assert Battle(b.start).state == b.start


def test_hand_built_records_are_refused_naming_the_field():
    F = battles_mod.Fight
    cases = [(lambda: F(5, 5, 99), "row"), (lambda: F(5, 5, "8"), "row"), (lambda: F(5, 5, -1), "row"),
             (lambda: F(5, 5, 0), "row"),  # 5 is not in the "-31 or less" row
             (lambda: F(21, 21, TABLE_A9.index(a9_row(21))), "d20"), (lambda: F(5, "5", 8), "modified"),
             (lambda: F(5, 5, 8, "abc"), "opponents"), (lambda: F(5, 5, 8, (((9, "Standard"),),)), "opponents"),
             (lambda: F(5, 5, 8, (((2, "Leader"),),)), "opponents"), (lambda: F(5, 5, 8, (((2, "Standard"),),), "3"), "rounds"),
             (lambda: F(5, 5, 8, (((2, "Standard"),),), 40), "rounds"), (lambda: F(5, 5, 8, (((2, "Standard"),),), 4, 2), "again"),
             (lambda: F(5, 5, 8, (), 4), "opponents"),
             (lambda: battles_mod.turn_losses(replace(TABLE_A8[1], loser_dice="zz"), "A"), "loser_dice"),
             (lambda: battles_mod.turn_losses(replace(TABLE_A8[1], winner_times="10"), "A"), "winner_times"),
             (lambda: replace(TABLE_A8[1], winner_bonus=9), "winner_bonus"), (lambda: replace(TABLE_A8[1], hi=0), "hi"),
             (lambda: battles_mod.describe_fight(replace(F(5, 5, 8, (((2, "Standard"),),), 4), row=99)), "row")]
    for call, param in cases:
        with pytest.raises(ValueError) as e: call()
        assert isinstance(e.value, InputError) and e.value.param == param, (param, str(e.value))
    good = F(5, 5, 8, (((2, "Standard"),),), 4)
    s = replace(battle(characters="A"), margin=3, turn=2)
    with pytest.raises(InputError) as e: replace(s, fights=(good,), credited=(3,))
    assert e.value.param == "credited"


# --- loading is linear, and capped ----------------------------------------------------------------------------------

def long_battle(n: int, kind: str = "turn") -> dict:
    s = start_battle(Army("A", KENSHIN, 10**8, 200), Army("B", RAIDER, 10**8, 200))
    b = Battle(s)
    b.turn(dice=[10, 17, 1, 1]) if kind == "turn" else b.adjust("A", strength=1, note="a few more")
    d = json.loads(json.dumps(b.to_dict()))
    d["actions"] = d["actions"] * n
    won = kind == "turn"  # 10 + 17 v 17 + 10: a tie, 1d4 × 100 × 100 each
    d["claims"] = {"turn": n + 1 if won else 1, "strength": [10**8 - 10_000 * n] * 2 if won else [10**8 + n, 10**8],
                   "quality": [200, 200], "broken": [False, False], "reason": ""}
    return d


@pytest.mark.parametrize("kind", ["turn", "adjust"])
def test_loading_memory_grows_linearly(kind):
    peaks = []
    for n in (500, 1000):
        data = long_battle(n, kind)
        tracemalloc.start()
        b = battle_from_dict(data)
        peaks.append(tracemalloc.get_traced_memory()[1]); tracemalloc.stop()
        assert len(b.actions) == n and len(b.state.history) == n
    assert peaks[1] < 2.6 * peaks[0], peaks


def test_a_save_holds_at_most_max_actions():
    cap = battles_mod.MAX_ACTIONS
    assert 500 <= cap <= 5000
    battle_from_dict(long_battle(cap, "adjust"))
    with pytest.raises(ValueError, match=re.escape(f"battle.actions: a saved battle holds at most {cap:,} actions")):
        battle_from_dict(long_battle(cap + 1, "adjust"))
    b = battle_from_dict(long_battle(cap, "adjust"))
    with pytest.raises(InputError, match=f"at most {cap:,} actions"): b.adjust("B", strength=1)


# --- battle odds: the exact chain where it is exact, bounded everywhere -------------------------------------------

def _pair(s, o, em):
    return (outnumber_bonus(s, o, em), outnumber_bonus(o, s, em))


def as_matters(state, turns, circumstance=(0, 0)) -> bool:
    """Independent reference: every sequence of Table A-8 results the dice allow (with the chain's AQ and carried
    bonuses), its losses at their extremes; AS matters if some path could change an outnumber bonus before a later
    check, or take more AS than an army has (or, under "breaks", bring it to 0 while its AQ holds)."""
    a, b = state.armies
    em, zr, scale = state.rules.exact_multiple, state.rules.zero_strength, state.scale
    start = _pair(a.strength, b.strength, em)
    fixed = (battles_mod.general_bonus(a.general)[0] + start[0], battles_mod.general_bonus(b.general)[0] + start[1])
    first = tuple(max(-50, min(50, c + n)) + p for c, n, p in zip(circumstance, state.next_bonus, state.success_bonus))

    def extremes(expr, times):
        if not expr: return 0, 0
        return strength_loss(stats(expr).low, times, scale), strength_loss(stats(expr).high, times, scale)

    def walk(t, qa, qb, ea, eb, xa, xb):  # xa, xb: (least, most) AS lost so far
        if t == turns: return False
        for (winner, row), p in odds_mod.result_odds(fixed[0] + qa + ea, fixed[1] + qb + eb).items():
            (da, ta, la), (db, tb, lb) = battles_mod.turn_losses(row, winner)
            ya = tuple(x + y for x, y in zip(xa, extremes(da, ta))); yb = tuple(x + y for x, y in zip(xb, extremes(db, tb)))
            na, nb = qa - la, qb - lb
            for strength, most, q in ((a.strength, ya[1], na), (b.strength, yb[1], nb)):
                if most > strength or (most == strength and q > 0 and zr == "breaks"): return True
            if na <= 0 or nb <= 0: continue
            if t + 1 < turns and (_pair(a.strength - ya[0], b.strength - yb[1], em) != start
                                  or _pair(a.strength - ya[1], b.strength - yb[0], em) != start
                                  or _pair(a.strength - ya[1], b.strength - yb[1], em) != start): return True  # both at 0: no ratio
            w = row.winner_bonus
            if walk(t + 1, na, nb, w if winner == "A" else 0, w if winner == "B" else 0, ya, yb): return True
        return False
    return walk(0, a.quality, b.quality, *first, (0, 0), (0, 0))


@settings(max_examples=300, deadline=None)
@given(sb=st.integers(1, 3_000_000), ratio=st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(199, 100),
                                                           Fraction(201, 100), Fraction(3), Fraction(5), Fraction(1, 2),
                                                           Fraction(1, 3), Fraction(21, 5), Fraction(1, 5), Fraction(7)]),
       nudge=st.integers(-3000, 3000), qa=st.integers(1, 7), qb=st.integers(1, 7), turns=st.integers(1, 3),
       participants=st.sampled_from([0, 900, 5000, 50_000, 500_000]), em=st.sampled_from(["higher band", "lower band"]),
       zr=st.sampled_from(["breaks", "fights on"]), carried=st.integers(0, 5), circ=st.integers(-8, 8),
       ints=st.tuples(st.integers(3, 20), st.integers(0, 12), st.integers(3, 20), st.integers(0, 12)))
def test_strength_cannot_matter_is_exact(sb, ratio, nudge, qa, qb, turns, participants, em, zr, carried, circ, ints):
    sa = max(0, int(sb * ratio) + nudge)
    s = start_battle(Army("A", General("a", ints[0], ints[1]), sa, qa), Army("B", General("b", ints[2], ints[3]), sb, qb),
                     BattleRules(exact_multiple=em, zero_strength=zr), participants=participants)
    s = replace(s, next_bonus=(carried, 0))
    if s.over: return
    assert strength_cannot_matter(s, turns, (circ, 0)) is not as_matters(s, turns, (circ, 0))


def test_the_last_turns_losses_and_the_winners_small_ones_no_longer_refuse_the_chain():
    # one turn: AS can run out, and the answer is turn_odds' own
    for s in (battle(), start_battle(Army("A", KENSHIN, 300, 6), Army("B", RAIDER, 90, 1))):
        o, t = battle_odds(s, 1, "exact"), turn_odds(s)
        assert o.exact and (o.broken[0][0], o.broken[1][0], o.ended[0], o.mean_lost) == (t.breaks[0], t.breaks[1], t.ends, t.mean_loss)
    # 3,000,000 against 2,000,000 (× 100): 1.5 times, +1. After one turn the ratio stays between 2,520,000 / 2,000,000
    # (A loses 8d6 × 100 × 100 at most, B nothing if it wins by 20) and 3,000,000 / 1,520,000 = 1.97: still +1 at the second
    # check. Charging both armies 480,000 a turn for both turns (the old test) put B at 1,040,000 and A 2.9 times larger.
    s = start_battle(Army("A", KENSHIN, 3_000_000, 4), Army("B", RAIDER, 2_000_000, 4))
    assert s.scale == 100 and strength_cannot_matter(s, 2) and battle_odds(s, 2).exact and not as_matters(s, 2)
    assert not strength_cannot_matter(s, 3) and as_matters(s, 3)  # two turns of B's losses can reach twice


def test_two_turns_of_the_chain_against_turn_odds():
    "Where AS cannot matter, turn 2 is turn_odds from each result of turn 1 (with any of its losses)."
    host = start_battle(Army("North", KENSHIN, 40_000_000, 4), Army("South", RAIDER, 25_000_000, 3))
    ex = battle_odds(host, 2, "exact")
    first = turn_odds(host)
    broken, lost = [Fraction(0), Fraction(0)], list(first.mean_loss)
    for (winner, row), p in odds_mod.result_odds(*first.bonuses).items():
        losses = battles_mod.turn_losses(row, winner)
        armies = [replace(a, strength=a.strength - strength_loss(stats(d).low, t, host.scale) if d else a.strength, quality=a.quality - q)
                  for a, (d, t, q) in zip(host.armies, losses)]
        if any(a.quality <= 0 for a in armies):
            for i, a in enumerate(armies): broken[i] += p * (a.quality <= 0)
            continue
        nxt = turn_odds(replace(host, armies=tuple(armies), next_bonus=tuple(row.winner_bonus if w == winner else 0 for w in "AB")))
        for i in (0, 1):
            broken[i] += p * nxt.breaks[i]; lost[i] += p * nxt.mean_loss[i]
    assert ex.broken[0][1] == broken[0] and ex.broken[1][1] == broken[1] and ex.mean_lost == tuple(lost)


def test_battle_odds_are_bounded():
    g = General("G", 18, 20, 10, 20)
    high = start_battle(Army("A", g, 10**9, 200), Army("B", g, 9 * 10**8, 200))  # AQ 200 a side, AS that cannot matter
    o = battle_odds(high)  # the defaults: 16 turns
    assert o.exact and o.broken == ((Fraction(0),) * 16,) * 2  # 200 AQ cannot be lost in 16 turns
    lo, hi = odds_mod.SIMULATIONS_RANGE
    assert hi <= 100_000
    with pytest.raises(InputError) as e: battle_odds(battle(), n=1_000_000)
    assert e.value.param == "n"
    budget = odds_mod.SIMULATED_TURNS
    with pytest.raises(InputError, match=f"at most {budget // 200:,} battles over 200 turns") as e: battle_odds(battle(), 200, n=budget // 200 + 1)
    assert e.value.param == "n"
    battle_odds(battle(), 200, n=budget // 200)
    cap = odds_mod.MAX_CHAIN_STATES
    with pytest.raises(InputError, match=f"{cap:,}") as e: battle_odds(high, 200, "exact")
    assert e.value.param == "method"
    assert battle_odds(high, 200, n=budget // 200).method == "simulated"


def test_the_full_chain_size_is_on_the_page():
    cells = json.loads((ROOT / "nbs" / "besm_d20" / "51_battle_odds.ipynb").read_text())["cells"]
    page = " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert "94,169" in page and "full chain" in page.lower()


def test_docstrings_and_messages_are_in_our_own_words():
    for mod in (battles_mod, odds_mod, __import__("besm_nb.ui.besm_d20.battles", fromlist=["x"])):
        tree = ast.parse(open(mod.__file__).read())
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        pasted = pasted_runs(" qqqq ".join(strings), SEED)  # one pass; the stop word keeps runs inside one string
        assert not pasted, (mod.__name__, pasted)
