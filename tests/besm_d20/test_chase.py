"""Chases (000 · Chases): the rules as data, the round engine replayed from fixed dice, and the exact odds."""
import itertools
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.besm_d20.chase import (A1_UNKNOWN, MANOEUVRES, PREDATOR_MANOEUVRES, PREY_MANOEUVRES, SIDES, TABLE_A1, Chase, ChaseDice,
                           ChaseRules, ChaseState, Mecha, Plan, a1_modifiers, chase_from_dict, chase_to_dict, clamp_lead,
                           CRASH_DICE_CAP, check_terrain_bonus, condition, crash_damage_expr, crash_dc, cut_off_collides,
                           drive_bonuses, drive_winner, legal_manoeuvres, load_chase, manoeuvre_effect, narrate,
                           resolve_chase_round, save_chase, speed_change, start_chase, start_speed)
from besm_nb.besm_d20.chase_odds import POLICIES, Policy, capture_odds, round_odds, simulate_capture
from besm_nb.dice import InputError

CAR = Mecha("Car", drive=6, manoeuvre=1, max_speed=120, hp=40, armour=4)
BIKE = Mecha("Bike", drive=5, manoeuvre=3, max_speed=110, hp=20)


def state(lead=10, speed=60, terrain="close", **rules):
    return ChaseState(CAR, BIKE, terrain, lead, speed, rules=ChaseRules(**rules))


def quiet(lead=10, speed=60, terrain="close", **rules):
    "No obstacles: the dice are the Drive checks, then any damage and crash dice."
    return state(lead, speed, terrain, obstacles=False, **rules)


# --- the rules as data -------------------------------------------------------------------------------------------

def test_lead_is_clamped():
    assert [clamp_lead(x) for x in (-100, -1, 0, 1, 29, 30, 31, 500)] == [0, 0, 0, 1, 29, 30, 30, 30]


LEGAL = {
    0: (PREDATOR_MANOEUVRES, ("Bootlegger Stunt", "Lure", "Pull Ahead", "Set Up", "Zig-Zag")),
    2: (("Box In", "Crowd", "Gun It", "Herd", "Jockey", "Ram", "Redline", "Shortcut"),
        ("Bootlegger Stunt", "Lure", "Pull Ahead", "Set Up", "Zig-Zag")),
    5: (("Box In", "Gun It", "Herd", "Jockey", "Ram", "Redline", "Shortcut"),
        ("Bootlegger Stunt", "Lure", "Pull Ahead", "Set Up", "Zig-Zag")),
    10: (("Gun It", "Herd", "Jockey", "Redline", "Shortcut"), ("Bootlegger Stunt", "Lure", "Pull Ahead", "Set Up", "Zig-Zag")),
    20: (("Gun It", "Redline", "Shortcut"), ("Hairpin Turn", "Lure", "Pull Ahead", "Stunt", "Zig-Zag")),
    25: (("Gun It", "Redline", "Shortcut"), ("Barnstorm", "Hairpin Turn", "Lure", "Pull Ahead", "Stunt", "Zig-Zag")),
    30: (("Gun It", "Redline", "Shortcut"), ("Barnstorm", "Hairpin Turn", "Lure", "Pull Ahead", "Stunt", "Vanish", "Zig-Zag")),
}


@pytest.mark.parametrize("lead", sorted(LEGAL))
def test_legal_manoeuvre_sets(lead):
    assert legal_manoeuvres(lead) == dict(zip(SIDES, LEGAL[lead]))


def test_just_outside_each_lead_limit():
    assert "Crowd" not in legal_manoeuvres(3)["predator"] and "Box In" not in legal_manoeuvres(6)["predator"]
    assert "Cut Off" not in legal_manoeuvres(1)["predator"] and "Herd" not in legal_manoeuvres(11)["predator"]
    assert "Stunt" not in legal_manoeuvres(19)["prey"] and "Barnstorm" not in legal_manoeuvres(24)["prey"]
    assert "Vanish" not in legal_manoeuvres(29)["prey"] and "Set Up" not in legal_manoeuvres(11)["prey"]


def test_illegal_manoeuvre_is_refused_naming_the_lead():
    with pytest.raises(InputError, match="predator: Box In needs a lead of 5 lengths or less; the lead is 6"):
        resolve_chase_round(quiet(6), "Box In", "Pull Ahead", [10, 10])
    with pytest.raises(InputError, match="prey: Hairpin Turn needs a lead of 20 lengths or more; the lead is 6"):
        resolve_chase_round(quiet(6), "Gun It", "Hairpin Turn", [10, 10])
    with pytest.raises(InputError, match="predator: Cut Off needs a lead of 0 lengths; the lead is 1"):
        resolve_chase_round(quiet(1), "Cut Off", "Pull Ahead", [10, 10])


def test_starting_speed_and_terrain_bonuses():
    assert [start_speed(t, [121, 80]) for t in ("open", "close", "tight")] == [90, 60, 30]
    # open: +2 to the faster; tight: +1 to the better Manoeuvre (the bike); close: nothing
    assert drive_bonuses(state(terrain="open"), "Gun It", "Pull Ahead")["predator"][0] == 6 + 1 + 2
    assert drive_bonuses(state(terrain="tight"), "Gun It", "Pull Ahead")["prey"][0] == 5 + 3 + 1
    assert drive_bonuses(state(), "Gun It", "Pull Ahead")["prey"][0] == 8


def test_speed_rule():
    assert speed_change(10, -15) == -15 and speed_change(20, 10) == 20 and speed_change(-25, 20) == -25
    assert speed_change(10, 10) == 10  # the larger, not the sum
    assert (speed_change(15, -15), speed_change(15, -15, "faster"), speed_change(15, -15, "slower")) == (0, 15, -15)
    # in the engine: Gun It +10 against Bootlegger Stunt -15: -15 counts
    end, _ = resolve_chase_round(quiet(), "Gun It", "Bootlegger Stunt", [10, 10, 20])
    assert end.speed == 45
    end, _ = resolve_chase_round(quiet(speed=10), "Shortcut", "Pull Ahead", [10, 10, 10])
    assert end.speed == 0  # never below 0


def test_over_speed_damage_ignores_armour():
    slow_car = replace(CAR, max_speed=65)
    s = ChaseState(slow_car, BIKE, "close", 10, 60, rules=ChaseRules(obstacles=False))
    end, log = resolve_chase_round(s, "Gun It", "Pull Ahead", [10, 10, 6])  # 70 mph > 65: 1d6 = 6, Armour 4 ignored
    assert end.predator.damage == 6 and end.prey.damage == 0
    end, _ = resolve_chase_round(replace(s, speed=55), "Gun It", "Pull Ahead", [10, 10])  # 65 is not above 65
    assert end.predator.damage == 0


@pytest.mark.parametrize("terrain,base", [("open", 10), ("close", 15), ("tight", 20)])
def test_table_a2_boundaries(terrain, base):
    assert crash_dc(terrain, 0)[0] == base and crash_dc(terrain, 24)[0] == base
    assert crash_dc(terrain, 25)[0] == base + 2 and crash_dc(terrain, 49)[0] == base + 2 and crash_dc(terrain, 50)[0] == base + 4
    assert crash_dc(terrain, 100, extra_checks=1)[0] == base + 8 + 5 and crash_dc(terrain, 100, extra_checks=2)[0] == base + 18


def test_crash_damage_and_conditions():
    assert crash_damage_expr(9, 3) == "3" and crash_damage_expr(10) == "1d6" and crash_damage_expr(99, 4) == "9d6+4"
    assert [condition(10, d) for d in (5, 6, 10, 19, 20)] == ["Okay", "Crippled", "Disabled", "Disabled", "Destroyed"]


def test_table_a1_reconstruction_and_house_values():
    unknown = [(p, q) for q, (cells, _) in TABLE_A1.items() for p, c in zip(PREDATOR_MANOEUVRES, cells) if c == A1_UNKNOWN]
    assert len(unknown) == 12 and all(q in ("Hairpin Turn", "Lure") for _, q in unknown)
    assert set(TABLE_A1) == set(PREY_MANOEUVRES)
    assert a1_modifiers("Crowd", "Zig-Zag")[:2] == (0, -6) and a1_modifiers("Box In", "Set Up")[:2] == (-2, 0)
    assert all(a1_modifiers(p, q)[:2] == (0, 0) for p, q in unknown)
    assert all(a1_modifiers(p, q, (-1, 2))[:2] == (-1, 2) for p, q in unknown)
    # the house value reaches the Drive check
    assert drive_bonuses(replace(state(), rules=ChaseRules(house_a1=(-3, 0))), "Gun It", "Lure")["predator"][0] == 7 - 3


# --- every manoeuvre through the engine ---------------------------------------------------------------------------

def play(s, p, q, dice):
    end, log = resolve_chase_round(s, p, q, ChaseDice(totals=list(dice)))
    return end, log, narrate(log)


def test_gun_it_redline_shortcut():
    # Car +7, Bike +8 (Pull Ahead: Gun It "-", Redline +0/-4, Shortcut +0/-4)
    assert play(quiet(), "Gun It", "Pull Ahead", [15, 10])[0].lead == 10 - 4
    end, log, text = play(quiet(), "Redline", "Pull Ahead", [15, 10, 5])  # bike 10 + 8 - 4 = 14; 22 - 14 = 8: lead -16
    assert end.lead == 0 and end.predator.damage == 5 and end.speed == 80  # 1d6 = 5: the strain is inside, Armour does not count
    assert play(quiet(armour="all"), "Redline", "Pull Ahead", [15, 10, 5])[0].predator.damage == 1  # the other reading: 5 less Armour 4
    end, _, _ = play(replace(quiet(), predator=replace(CAR, booster=True)), "Redline", "Pull Ahead", [15, 10])
    assert end.predator.damage == 0  # a Booster takes the strain: no die rolled
    end, _, _ = play(quiet(), Plan("Redline", booster=True), "Pull Ahead", [15, 10])
    assert end.predator.damage == 0  # switched on for this round only
    end, _, _ = play(replace(quiet(), predator=replace(CAR, booster=True)), Plan("Redline", booster=False), "Pull Ahead", [15, 10, 5])
    assert end.predator.damage == 5  # switched off this round: 1d6 = 5 (the strain is inside: Armour does not count)
    end, log, text = play(quiet(), "Shortcut", "Pull Ahead", [15, 14, 12])  # 22 v 18: lead -8; crash check DC 15+2 (45 mph)
    assert end.lead == 2 and end.speed == 45 and "Car's crash check (Shortcut): DC 17" in text


def test_herd_and_its_options():
    # Herd v Pull Ahead: -6/+0. Car 19 + 7 - 6 = 20, Bike 7 + 8 = 15: by 5
    # 70 mph: base DC 15 + 4 = 19; the bike's is raised by the difference
    end, _, text = play(quiet(), "Herd", "Pull Ahead", [19, 7, 20, 15])
    assert end.lead == 9 and "Bike's crash check (Herd (+5, the difference)): DC 24" in text and "Car's crash check (Herd): DC 19" in text
    end, _, text = play(quiet(), Plan("Herd", shift_to="open"), "Pull Ahead", [19, 7, 20, 15])
    assert end.terrain == "open" and "DC 19;" in text and "DC 14;" in text  # both DCs -5, terrain shifts at the end
    end, _, text = play(quiet(), Plan("Herd", skip_crash=True), "Pull Ahead", [19, 7, 20])
    assert "Car's crash check" not in text and end.terrain == "close"
    end, _, text = play(quiet(), Plan("Herd", shift_to="open"), "Pull Ahead", [18, 7, 20, 15])  # by 4: no shift
    assert end.terrain == "close" and "DC 23;" in text and "DC 19;" in text


def test_jockey_and_set_up_attack_bonus():
    _, log, _ = play(quiet(), "Jockey", "Pull Ahead", [20, 5])  # 27 - 2 = 25 v 13: by 12
    assert [e.value for e in log if e.what == "Attack bonus"] == [6]
    end, log, _ = play(quiet(), "Gun It", "Set Up", [5, 20])  # 12 - 0 v 28 - 4 = 24... Set Up v Gun It is +0/-4
    assert end.lead == 11 and [e.value for e in log if e.what == "Attack bonus"] == [(24 - 12) // 2]


def test_finishers_box_in_crowd_ram_cut_off():
    assert play(quiet(5), "Box In", "Pull Ahead", [20, 2])[0].outcome == "caught"
    # Crowd by 5+: the prey crashes without a check (missed by 0): 6d6 at 60 mph
    end, _, text = play(quiet(2, 50), "Crowd", "Pull Ahead", [18, 6, 20])  # 25 v 14 - 4 = 10 (Crowd v Pull Ahead +0/-4)
    assert end.outcome == "caught" and end.prey.damage == 20 and "Bike's crash check" not in text
    # Crowd by less than 5: the prey makes a crash check; still caught
    end, _, text = play(quiet(2, 50), "Crowd", "Pull Ahead", [10, 9, 20])  # 17 v 13: by 4, DC 15 + 4 (50+10 mph)
    assert end.outcome == "caught" and "Bike's crash check (Crowd (beaten by less than 5)): DC 19" in text
    # Ram: both crash, no checks: 6d6 each
    end, _, _ = play(quiet(5, 50), "Ram", "Pull Ahead", [20, 2, 21, 30])
    assert end.outcome == "caught" and (end.prey.damage, end.predator.damage) == (21, 26)
    # Cut Off: the prey's check (10) misses DC 15 (35 mph: +2 = 17) by 7: collision damage 3d6+7 each
    end, _, _ = play(quiet(0, 60), "Cut Off", "Pull Ahead", [15, 2, 19, 16])
    assert (end.outcome, end.speed, end.prey.damage, end.predator.damage) == ("caught", 35, 19, 12)
    end, _, _ = play(quiet(0, 60), "Cut Off", "Pull Ahead", [20, 15])  # bike 23 reaches DC 17: no collision
    assert end.outcome == "caught" and end.prey.damage == 0


def test_prey_manoeuvres():
    assert play(quiet(), "Gun It", "Pull Ahead", [5, 15])[0].lead == 10 + 11
    end, _, text = play(quiet(), "Gun It", "Zig-Zag", [5, 15, 15])  # 12 - 6 = 6 v 23: by 17, +34 held to 30; crash check
    assert end.lead == 30 and "Bike's crash check (Zig-Zag)" in text
    end, _, text = play(quiet(), "Gun It", "Bootlegger Stunt", [5, 15, 15])  # 12 - 2 = 10 v 23: by 13
    assert end.lead == 30 and end.speed == 45 and "Bike's crash check (Bootlegger Stunt)" in text
    end, log, text = play(quiet(), "Gun It", Plan("Lure", shift_to="open", reverse=True), [2, 20, 15, 20])  # 9 v 28: by 19
    assert end.lead == 11 and end.terrain == "open" and any(e.what == "Roles swapped" for e in log)
    assert "Car's crash check (Lure (+19, the difference)): DC " in text and "Bike's crash check (Lure)" in text
    end, _, text = play(quiet(25, 80), "Gun It", "Barnstorm", [2, 15, 10, 15, 15])  # 3d6 = 10; both crash checks
    assert end.outcome == "escaped" and end.prey.damage == 10 and "Car's crash check (Barnstorm)" in text
    end, _, text = play(quiet(20, 80), "Gun It", "Hairpin Turn", [2, 15, 15, 15])
    assert end.outcome == "escaped" and end.speed == 55 and "Car's crash check (Hairpin Turn)" in text
    end, _, text = play(quiet(20, 80), "Gun It", "Stunt", [2, 15, 15])  # 7 v 23: by 16, the predator checks
    assert end.outcome == "escaped" and "Car's crash check (Stunt (beaten by 5+))" in text
    end, _, text = play(quiet(20, 80), "Gun It", "Stunt", [14, 15])  # 19 v 23: by 4, no check
    assert end.outcome == "escaped" and "crash check" not in text
    assert play(quiet(30, 80), "Gun It", "Vanish", [2, 15])[0].outcome == "escaped"


def test_effect_table_covers_every_manoeuvre():
    leads = {n: (30 if m.lead_min >= 20 else min(5, m.lead_max)) for n, m in MANOEUVRES.items()}
    effects = {n: manoeuvre_effect(m.side, n, 7, leads[n]) for n, m in MANOEUVRES.items()}
    assert set(effects) == set(PREDATOR_MANOEUVRES) | set(PREY_MANOEUVRES) and len(effects) == 18
    lead_after = {n: e.lead for n, e in effects.items()}
    assert lead_after["Gun It"] == 0 and lead_after["Pull Ahead"] == 12 and lead_after["Zig-Zag"] == 19 and lead_after["Herd"] == 4


def test_tie_and_the_dc_reading():
    end, log, _ = play(quiet(), "Gun It", "Pull Ahead", [11, 10])  # 18 v 18: neither, speed still changes
    assert end.lead == 10 and end.speed == 70 and any(e.what == "Neither manoeuvre succeeds" for e in log)
    # under "dc" each check must reach the crash DC (15 + 4 at 70 mph = 19): 18 v 15 is no success at all
    assert play(quiet(success="dc"), "Gun It", "Pull Ahead", [11, 7])[0].lead == 10
    assert play(quiet(), "Gun It", "Pull Ahead", [11, 7])[0].lead == 7
    assert play(quiet(success="dc"), "Gun It", "Pull Ahead", [12, 7])[0].lead == 6  # 19 reaches DC 19
    assert drive_winner(30, 2, "dc", 40, predator_d20=19, prey_d20=20) == ("prey", 0)


def test_operator_penalty_and_big_hits():
    s1, log, _ = play(quiet(), Plan("Gun It", operator_acts=True), "Pull Ahead", [10, 10])
    assert s1.penalty == (-4, 0)
    assert drive_bonuses(s1, "Gun It", "Pull Ahead")["predator"][0] == 7 - 4
    s2, _, _ = play(s1, "Gun It", "Pull Ahead", [10, 10])
    assert s2.penalty == (0, 0)
    # a 34-point hit (30 after Armour) calls a crash check; it also cripples the car (+5)
    end, _, text = play(quiet(), Plan("Gun It", hits=(34,)), "Pull Ahead", [10, 10, 20])
    assert end.predator.condition == "Crippled" and "Car's crash check (Crippled; 30+ damage in one attack): DC 29" in text
    # disabled by attacks: the chase ends
    end, _, _ = play(quiet(), "Gun It", Plan("Pull Ahead", hits=(25,)), [10, 10, 20])
    assert end.outcome == "disabled"


# --- a whole chase from fixed dice, undo, save and load ------------------------------------------------------------

def whole_chase():
    s0 = start_chase(CAR, BIKE, "close", started_by="prey", dice=[15])
    ch = Chase(s0)
    ch.act("Gun It", "Pull Ahead", [15, 9, 4])
    ch.act("Herd", "Zig-Zag", [12, 14, 1, 10, 5, 15, 18])
    ch.act("Gun It", "Bootlegger Stunt", [3, 18, 2, 2, 26])
    return ch


def test_whole_chase_replayed_from_fixed_dice(tmp_path):
    ch = whole_chase()
    assert [(s.lead, s.speed) for s in ch.states] == [(15, 60), (10, 70), (9, 70), (30, 55)]
    assert ch.state.outcome == "crash" and ch.state.reason == "Bike crashed" and ch.state.prey.damage == 26
    assert ch.legal() == {"predator": (), "prey": ()}
    with pytest.raises(InputError, match="the chase is over"):
        ch.act("Gun It", "Pull Ahead", [10, 10, 2])
    path = save_chase(tmp_path / "chase.json", ch)
    again = load_chase(path)
    assert again.state == ch.state and [narrate(l) for l in again.logs] == [narrate(l) for l in ch.logs]
    ch.undo()
    assert ch.state.outcome == "" and ch.state.lead == 9
    ch.act("Gun It", "Pull Ahead", random.Random(5))
    assert chase_from_dict(chase_to_dict(ch)).state == ch.state


def test_saved_chase_is_checked():
    data = chase_to_dict(whole_chase())
    with pytest.raises(ValueError, match="not a 'besm-chase'"):
        chase_from_dict(data | {"kind": "tristat-fight"})
    with pytest.raises(ValueError, match="version 3"):
        chase_from_dict(data | {"version": 3})
    extra = chase_to_dict(whole_chase()); extra["rounds"][0]["dice"].append(3)
    with pytest.raises(ValueError, match="left over"):
        chase_from_dict(extra)
    with pytest.raises(ValueError, match="start: is missing predator, prey, lead"):
        chase_from_dict(data | {"start": {"terrain": "close"}})
    with pytest.raises(ValueError, match="chase: is missing now"):  # a version-2 save says where the chase stands
        chase_from_dict({k: v for k, v in data.items() if k != "now"})


def test_undo_with_nothing_to_undo():
    with pytest.raises(InputError, match="no round to undo"):
        Chase(quiet()).undo()


# --- properties ----------------------------------------------------------------------------------------------------

lead_st = st.integers(0, 30)


@st.composite
def plans(draw, lead):
    legal = legal_manoeuvres(lead)
    p = draw(st.sampled_from(legal["predator"]))
    q = draw(st.sampled_from(legal["prey"]))
    return Plan(p, operator_acts=draw(st.booleans()), hits=tuple(draw(st.lists(st.integers(0, 40), max_size=2)))), \
        Plan(q, operator_acts=draw(st.booleans()))


@given(lead_st, st.integers(0, 300), st.sampled_from(("open", "close", "tight")), st.data(), st.integers(0, 2 ** 32))
@settings(max_examples=300, deadline=None)
def test_the_lead_stays_in_range_and_replays(lead, speed, terrain, data, seed):
    s = ChaseState(replace(CAR, hp=400), replace(BIKE, hp=400), terrain, lead, speed)
    for _ in range(4):
        if s.over: break
        pp, qp = data.draw(plans(s.lead))
        feed = ChaseDice(random.Random(seed))
        new, log = resolve_chase_round(s, pp, qp, feed)
        assert 0 <= new.lead <= 30 and new.speed >= 0
        assert resolve_chase_round(s, pp, qp, ChaseDice(totals=feed.used))[0] == new  # replays exactly
        s = new


@given(lead_st, st.integers(0, 200), st.sampled_from(("open", "close", "tight")), st.sampled_from(("opposed", "dc")), st.data(),
       st.sampled_from(("all", "contest")), st.sampled_from(("dc", "always")))
@settings(max_examples=150, deadline=None)
def test_round_odds_sum_to_one(lead, speed, terrain, success, data, terrain_bonus, cut_off):
    s = ChaseState(CAR, BIKE, terrain, lead, speed, rules=ChaseRules(success=success, terrain_bonus=terrain_bonus, cut_off=cut_off))
    legal = legal_manoeuvres(lead)
    o = round_odds(s, data.draw(st.sampled_from(legal["predator"])), data.draw(st.sampled_from(legal["prey"])))
    assert sum(o.effect.values()) == 1 and sum(o.lead.values()) == 1 and sum(o.outcome.values()) == 1
    assert sum(o.next_lead.values()) == o.outcome["continues"] and all(0 <= l <= 30 for l in o.lead)
    assert all(0 <= p <= 1 for p in o.crash.values())


def test_round_odds_match_the_engine_dice_by_dice():
    "Every pair of Drive dice and every crash die through the engine, weighted, equals the exact round odds."
    for s, p, q in ((quiet(), "Shortcut", "Pull Ahead"), (quiet(3, 40, "tight"), "Gun It", "Zig-Zag"),
                    (quiet(0, 60, success="dc"), "Cut Off", "Set Up"), (quiet(terrain="open"), "Shortcut", "Pull Ahead"),
                    (quiet(terrain="open", terrain_bonus="contest"), "Shortcut", "Pull Ahead"),
                    (quiet(0, 60, cut_off="always"), "Cut Off", "Pull Ahead")):
        out = dict.fromkeys(("caught", "escaped", "crash", "continues"), Fraction(0))

        def walk(prefix, weight):
            feed = ChaseDice(random.Random(0), prefix)
            end, log = resolve_chase_round(s, p, q, feed)
            if 2 + sum(e.what.endswith("crash check") for e in log) > len(prefix):
                for f in range(1, 21): walk(prefix + [f], weight / 20)
            else:
                out[end.outcome if end.outcome in out else "continues"] += weight
        for dp, dq in itertools.product(range(1, 21), repeat=2):
            walk([dp, dq], Fraction(1, 400))
        assert out == round_odds(s, p, q).outcome, (p, q)


@given(st.integers(0, 30), st.sampled_from(sorted(n for n, p in POLICIES.items() if p.side == "predator")),
       st.sampled_from(sorted(n for n, p in POLICIES.items() if p.side == "prey")), st.sampled_from(("open", "close", "tight")))
@settings(max_examples=12, deadline=None)
def test_capture_odds_sum_to_one(lead, pp, qp, terrain):
    co = capture_odds(CAR, BIKE, terrain, lead, pp, qp, rounds=6)
    assert co.caught + co.escaped + co.crash + co.running == 1
    cum = [h["caught"] + h["escaped"] + h["crash"] for h in co.by_round]
    assert cum == sorted(cum)  # ended chases stay ended


def test_capture_exact_agrees_with_the_engine():
    tank, bolt = replace(CAR, hp=10 ** 5, max_speed=10 ** 4, booster=True), replace(BIKE, hp=10 ** 5, max_speed=10 ** 4)
    exact = capture_odds(tank, bolt, "tight", 8, "Herd within 10, then Box In", "Zig-Zag until 20+, then Stunt", rounds=8)
    sim = simulate_capture(tank, bolt, "tight", 8, "Herd within 10, then Box In", "Zig-Zag until 20+, then Stunt", rounds=8, n=1500, seed=11)
    for what, p in (("caught", exact.caught), ("escaped", exact.escaped), ("crash", exact.crash)):
        lo, hi = sim.interval(what)
        assert lo - 0.01 <= float(p) <= hi + 0.01, (what, float(p), lo, hi)


def test_capture_one_round_is_round_odds():
    s = state(10, 70)
    one = capture_odds(CAR, BIKE, "close", 10, rounds=1, speed=70)
    r = round_odds(s, "Gun It", "Pull Ahead")
    assert (one.caught, one.escaped, one.crash) == (r.outcome["caught"], r.outcome["escaped"], r.outcome["crash"])


def test_policies_are_checked():
    with pytest.raises(InputError, match="no allowed manoeuvre at a lead of 11"):
        Policy("Herd only", "predator", ((0, 10, "Herd"),))
    with pytest.raises(InputError, match="predator_policy"):
        capture_odds(CAR, BIKE, predator_policy="Pull Ahead until 20+, then Stunt")


# --- second reading: the terrain bonus on every Drive check, Cut Off's collision, the crash-dice cap ----------------

def test_terrain_bonus_goes_on_every_drive_check():
    "Open terrain: '+2 speed bonus to all Drive checks', so the faster car's obstacle and crash checks get it too."
    s = state(terrain="open")
    assert (check_terrain_bonus(s, "predator"), check_terrain_bonus(s, "prey")) == (2, 0)
    _, _, text = play(s, "Gun It", "Pull Ahead", [10, 10, 1, 9, 9])  # obstacle DC 12: bike 9 + 8, car 9 + 7 + 2
    assert "Bike rolls 9 (Drive +5, Manoeuvre +3) = 17 against DC 12" in text
    assert "Car rolls 9 (Drive +6, Manoeuvre +1, terrain +2) = 18 against DC 12" in text
    # the crash check: Shortcut at 45 mph in open terrain, DC 10 + 2; the car's d20 of 3 is safe only with the +2
    end, _, text = play(quiet(terrain="open"), "Shortcut", "Pull Ahead", [15, 10, 3])  # 3 + 9 = 12 reaches DC 12
    assert end.outcome == "" and "Car's crash check (Shortcut): DC 12; rolls 3 (Drive +6, Manoeuvre +1, terrain +2) = 12: safe." in text
    end, _, text = play(quiet(terrain="open", terrain_bonus="contest", open_collisions="crash"), "Shortcut", "Pull Ahead", [15, 10, 3, 10])
    assert end.outcome == "crash" and "rolls 3 (Drive +6, Manoeuvre +1) = 10: crashes, missing by 2" in text
    assert end.predator.damage == 10 - 4  # 4d6+2 rolled 10, less Armour 4
    # the contest has the bonus under both readings
    assert drive_bonuses(quiet(terrain="open", terrain_bonus="contest"), "Gun It", "Pull Ahead")["predator"][0] == 9
    # only one side in open terrain: that side's checks get the +2, whatever the terrain
    alone = replace(quiet(terrain="tight"), only_open="prey")
    assert (check_terrain_bonus(alone, "predator"), check_terrain_bonus(alone, "prey")) == (0, 2)


def test_terrain_bonus_follows_the_mecha_as_they_stand():
    "Tight terrain: the better Manoeuvre *now*; a bike Crippled in Step 5 loses the +1 on that round's crash check."
    s = quiet(10, 40, "tight")
    _, _, text = play(s, "Gun It", "Zig-Zag", [5, 15, 15])
    assert "Bike's crash check (Zig-Zag): DC 24; rolls 15 (Drive +5, Manoeuvre +3, terrain +1) = 24: safe." in text
    _, _, text = play(s, "Gun It", Plan("Zig-Zag", hits=(12,)), [5, 15, 20])  # 8 of 20 left: Crippled, Manoeuvre 3 − 5
    assert "Bike's crash check (Zig-Zag; Crippled): DC 34; rolls 20 (Drive +5, Manoeuvre -2) = 23: safe." in text


def test_terrain_bonus_reading_is_checked():
    with pytest.raises(InputError, match="terrain_bonus: must be one of 'all', 'contest'"):
        ChaseRules(terrain_bonus="obstacles")
    with pytest.raises(InputError, match="who"):
        check_terrain_bonus(state(), "pilot")


def test_cut_off_collision_readings():
    # 23 v 20 (Cut Off v Pull Ahead is -2/+0): the bike reaches DC 17 at 35 mph
    end, _, text = play(quiet(0, 60), "Cut Off", "Pull Ahead", [18, 12])
    assert end.outcome == "caught" and (end.prey.damage, end.predator.damage) == (0, 0) and "collision" not in text
    end, log, text = play(quiet(0, 60, cut_off="always"), "Cut Off", "Pull Ahead", [18, 12, 10, 11])  # 3d6 + 0 each
    assert end.outcome == "caught" and (end.prey.damage, end.predator.damage) == (10, 11 - 4)
    assert "Bike's Drive check (20) reaches DC 17 but lost the contest: it runs into Car" in text
    # a miss counts under both readings
    for reading in ("dc", "always"):
        end, _, _ = play(quiet(0, 60, cut_off=reading), "Cut Off", "Pull Ahead", [15, 2, 19, 16])
        assert (end.prey.damage, end.predator.damage) == (19, 12)
    assert (cut_off_collides(17, 17), cut_off_collides(17, 17, "always"), cut_off_collides(16, 17)) == (False, True, True)
    with pytest.raises(InputError, match="cut_off"):
        ChaseRules(cut_off="sometimes")
    with pytest.raises(InputError, match="reading"):
        cut_off_collides(1, 2, "sometimes")
    # the odds follow: every Cut Off that takes effect is a collision for both sides
    o = round_odds(quiet(0, 60, cut_off="always"), "Cut Off", "Pull Ahead")
    assert o.crash == {"predator": o.effect["predator"], "prey": o.effect["predator"]}
    assert round_odds(quiet(0, 60), "Cut Off", "Pull Ahead").crash["prey"] < o.effect["predator"]


def test_crash_dice_are_capped_visibly():
    assert CRASH_DICE_CAP == 100
    assert crash_damage_expr(1000) == "100d6" and crash_damage_expr(1500, 3) == "100d6+3" and crash_damage_expr(1500, 3, per=100) == "15d6+3"
    big = dict(max_speed=5000, hp=10 ** 5)
    fast = ChaseState(replace(CAR, **big), replace(BIKE, **big), "open", 5, 1200, rules=ChaseRules(obstacles=False))
    end, _, text = play(fast, "Ram", "Pull Ahead", [20, 2, 350, 340])
    assert "crash at 1210 mph: 100d6, capped at 100d6" in text and (end.prey.damage, end.predator.damage) == (350, 336)
    _, _, text = play(replace(fast, speed=900), "Ram", "Pull Ahead", [20, 2, 350, 340])
    assert "crash at 910 mph: 91d6)" in text  # below the cap: no mention


def test_new_switches_are_saved_and_old_saves_load():
    s = replace(quiet(), rules=ChaseRules(obstacles=False, terrain_bonus="contest", cut_off="always"))
    ch = Chase(s); ch.act("Gun It", "Pull Ahead", [15, 10])
    again = chase_from_dict(chase_to_dict(ch))
    assert again.state.rules.terrain_bonus == "contest" and again.state.rules.cut_off == "always" and again.state == ch.state
    old = chase_to_dict(whole_chase())
    for k in ("terrain_bonus", "cut_off"): del old["start"]["rules"][k]
    with pytest.raises(ValueError, match="start.rules: is missing terrain_bonus, cut_off"): chase_from_dict(old)  # never filled in
    old["version"] = 1  # a save from before the switches (version 1 left out what was at its default): the defaults
    assert chase_from_dict(old).state == whole_chase().state
