"""Encounters: properties that must hold for every input (hypothesis), and bad input refused with a message naming the parameter."""
import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from besm_nb.encounters.actions import (awareness_allowed, divide_skills, divided_skill, first_odds, initiative_odds,
                                        initiative_total, round_zero, turn_order)
from besm_nb.encounters.exertion import MAX_EVENTS, MAX_FIGHTERS, MAX_STEPS, StaminaRecord, push_cost, pushed, pushing_cost
from besm_nb.encounters.movement import (charge_damage, charge_damage_odds, long_jump, movement_actions, run_moves,
                                         unencumbered)
from besm_nb.encounters.planner import plan_round
from besm_nb.encounters.ranges import BANDS, INCREMENTS, range_band, range_increment, range_penalty

ORDER = [b for b, _ in BANDS]


@given(st.integers(0, 1000), st.integers(0, 100))
def test_a_divided_skill_never_exceeds_the_original(skill, majors):
    d = divided_skill(skill, majors)
    assert 0 <= d <= skill
    assert d == skill // max(1, majors)


@given(st.integers(0, 1000), st.integers(1, 99))
def test_one_more_action_never_raises_a_skill(skill, majors):
    assert divided_skill(skill, majors + 1) <= divided_skill(skill, majors)


@given(st.integers(0, 100_000), st.integers(0, 100_000), st.integers(1, 5000))
def test_range_bands_are_monotonic_in_distance(a, b, increment):
    near, far = sorted((a, b))
    assert ORDER.index(range_band(near, increment)[0]) <= ORDER.index(range_band(far, increment)[0])
    assert range_band(near, increment)[1] <= range_band(far, increment)[1]


@given(st.sampled_from(sorted(INCREMENTS)), st.integers(0, 100_000), st.integers(0, 100_000), st.integers(1, 20), st.integers(0, 20))
def test_every_attack_is_monotonic_in_distance(attack, a, b, strength, will):
    near, far = sorted((a, b))
    assert range_penalty(attack, near, strength, will).challenge <= range_penalty(attack, far, strength, will).challenge


@given(st.integers(0, 100_000), st.integers(1, 5000))
def test_a_band_is_the_count_of_full_increments(distance, increment):
    assert range_band(distance, increment)[0] == ORDER[min(4, distance // increment)]


@given(st.integers(0, 10_000), st.integers(1, 10))
def test_moving_farther_never_costs_fewer_actions(yards, per):
    assert run_moves(yards + 1, per) >= run_moves(yards, per) and run_moves(yards, per) == math.ceil(yards / per)


@given(st.integers(1, 100), st.integers(-50, 50), st.sampled_from(["multiply", "add"]))
def test_initiative_odds_are_a_distribution(initiative, modifier, reading):
    odds = initiative_odds(initiative, modifier, reading)
    assert sum(odds.values()) == 1 and len(odds) == 11
    assert min(odds) == initiative_total(initiative, 2, modifier, reading) and max(odds) == initiative_total(initiative, 12, modifier, reading)


@given(st.integers(1, 30), st.integers(1, 30))
@settings(max_examples=30)
def test_first_odds_are_symmetric(a, b):
    ab, ba = first_odds(a, b), first_odds(b, a)
    assert ab["first"] == ba["second"] and ab["tie"] == ba["tie"] and sum(ab.values()) == 1


@given(st.integers(0, 100), st.integers(0, 100))
def test_pushing_never_passes_double(base, points):
    if points <= base: assert pushed(base, points) == base + points <= 2 * base
    else:
        with pytest.raises(ValueError, match="points: "): pushed(base, points)


@given(st.integers(0, 50), st.integers(0, 50), st.booleans(), st.booleans())
def test_exertion_adds_one_or_two_a_round(points, rounds, exertion, heavy):
    assert pushing_cost(points, rounds, exertion, heavy) == rounds * (points + (0 if not exertion else 2 if heavy else 1))


@given(st.integers(0, 1000), st.integers(1, 100), st.integers(0, 500))
def test_momentum_adds_exactly_the_yards(rating, die, yards):
    assert charge_damage(rating, die, yards).total - charge_damage(rating, die).total == yards
    assert charge_damage(rating, die, yards, charging_rule=False).total == rating * die


# -- the Stamina record: random play, saved and loaded, undone to the start ---------------------------------------
EVENT = st.one_of(
    st.tuples(st.just("act"), st.sampled_from(["Ann", "Bo"])), st.tuples(st.just("act"), st.sampled_from(["Ann", "Bo"]), st.just(False)),
    st.tuples(st.just("push"), st.sampled_from(["Ann", "Bo"]), st.sampled_from(["strength", "willpower"]), st.integers(1, 6)),
    st.tuples(st.just("hurt"), st.sampled_from(["Ann", "Bo"]), st.integers(0, 5), st.integers(0, 3)),
    st.tuples(st.just("end_round")), st.tuples(st.just("repeat")), st.tuples(st.just("undo")))


@given(st.booleans(), st.integers(0, 3), st.lists(EVENT, max_size=40))
@settings(max_examples=60, deadline=None)
def test_the_record_survives_any_play(exertion, recovery, plays):
    r = StaminaRecord(exertion, recovery)
    r.add("Ann", 4, 3, 20); r.add("Bo", 2, 5, 12, stamina=9)
    for p in plays:
        before = r.to_dict()
        was = {n: (f.stamina, f.acted, f.injured, f.max_stamina) for n, f in r.fighters.items()}
        try:
            getattr(r, p[0])(*p[1:])
        except ValueError:
            assert r.to_dict() == before  # a refused step changes nothing
        else:
            if p[0] == "end_round":  # only a character who did nothing at all, and was not hurt, gains Stamina
                for n, (stamina, acted, injured, most) in was.items():
                    gained = r.fighters[n].stamina - stamina
                    assert gained == (min(recovery, most - stamina) if not (acted or injured) else min(0, gained))
        for f in r.fighters.values():
            assert 0 <= f.stamina <= f.max_stamina
            for stat in ("strength", "willpower"): assert getattr(f, stat) <= f.now(stat) <= 2 * getattr(f, stat)
    saved = json.loads(json.dumps(r.to_dict()))
    again = StaminaRecord.from_dict(saved)
    assert again.to_dict() == saved and again.round == r.round and again.log == r.log
    assert {n: f.stamina for n, f in again.fighters.items()} == {n: f.stamina for n, f in r.fighters.items()}
    while again.can_undo: again.undo()
    assert again.fighters == {} and again.round == 1


# -- bad input: a ValueError naming the parameter, never a TypeError from inside ----------------------------------
NAN = float("nan")
BAD = [
    (lambda: divided_skill(NAN, 2), "skill"), (lambda: divided_skill(5.0, 2), "skill"), (lambda: divided_skill("5", 2), "skill"),
    (lambda: divided_skill(5, True), "majors"), (lambda: divide_skills({"Striking": 2.5}, 2), "skills"),
    (lambda: awareness_allowed("napping"), "condition"), (lambda: awareness_allowed("awake", "ESP"), "skill"),
    (lambda: initiative_total(5, 7, reading="times"), "reading"), (lambda: initiative_total(NAN, 7), "initiative"),
    (lambda: initiative_odds(5, "2"), "modifier"), (lambda: first_odds(5, 3.0), "initiative_b"),
    (lambda: turn_order({"Ann": NAN}), "rolls"), (lambda: round_zero(["Ann"], ["Bo"], surprise="False"), "surprise"),
    (lambda: range_increment("trebuchet"), "attack"), (lambda: range_penalty("long bow", "50"), "distance"),
    (lambda: range_penalty("long bow", NAN), "distance"), (lambda: range_penalty("long bow", 50, living="False"), "living"),
    (lambda: range_penalty("long bow", 50, strength=2.5), "strength"), (lambda: range_penalty("Mahasu", 50, will=None), "will"),
    (lambda: movement_actions(run_yards=12.5), "run_yards"), (lambda: movement_actions(stand="False"), "stand"),
    (lambda: movement_actions(ride_yards=200, mount_speed=90), "ride_yards"), (lambda: unencumbered(NAN, 10), "carried"),
    (lambda: long_jump(4, running="False"), "running"), (lambda: charge_damage(11, NAN), "die"),
    (lambda: charge_damage(11, 6, charging_rule="False"), "charging_rule"), (lambda: charge_damage_odds(11, "two dice"), "die_expr"),
    (lambda: pushed(5, 2, "charisma"), "stat"), (lambda: push_cost(5, 11), "target"), (lambda: pushing_cost(5, NAN), "rounds"),
    (lambda: plan_round(3, 3, mixing="never"), "mixing"), (lambda: plan_round(3, 3, engrossed="False"), "engrossed"),
    (lambda: plan_round(3, 3, casts=NAN), "casts"), (lambda: plan_round(3, "3"), "intelligence"),
    (lambda: plan_round(3, 3, initiative_reading="sum"), "initiative_reading"),
    (lambda: plan_round(3, 3, initiative=4, initiative_modifier=2.5), "initiative_modifier"),
    (lambda: StaminaRecord(exertion="False"), "exertion"), (lambda: StaminaRecord(recovery=1.5), "recovery"),
    (lambda: StaminaRecord().add("Ann", 4, 4, NAN), "max_stamina"), (lambda: StaminaRecord.from_dict({"kind": 1}), "kind"),
    (lambda: StaminaRecord().add("", 4, 4, 10), "name"), (lambda: StaminaRecord().add("Ann", 4, 4, 10, heavy="False"), "heavy"),
    (lambda: StaminaRecord().push("Ann", "strength", 1), "name"), (lambda: StaminaRecord().do({"do": "dance"}), "do"),
]


@pytest.mark.parametrize("call,param", BAD)
def test_bad_input_names_its_parameter(call, param):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value).startswith(f"{param}: "), str(err.value)
    assert getattr(err.value, "param", param) == param


def test_undo_across_checkpoints_matches_a_fresh_replay():
    r = StaminaRecord(exertion=True, recovery=1)
    r.add("Ann", 5, 4, 500); r.add("Bo", 3, 6, 400)
    for i in range(60):
        r.push("Ann", "strength", 1 + i % 5)
        if i % 3: r.act("Bo")
        else: r.hurt("Bo", stamina=1)
        r.end_round()
    assert len(r.events) > 3 * StaminaRecord.CHECKPOINT
    events = [dict(e) for e in r.events]
    for keep in (len(events) - 1, 150, 97, 64, 33, 31, 1, 0):
        while len(r.events) > keep: r.undo()
        fresh = StaminaRecord(True, 1, events[:keep])
        assert (r.round, r.log, r.to_dict()) == (fresh.round, fresh.log, fresh.to_dict())
        assert {n: (f.stamina, f.boost, f.acted, f.injured) for n, f in r.fighters.items()} == \
               {n: (f.stamina, f.boost, f.acted, f.injured) for n, f in fresh.fighters.items()}
    while r.can_redo: r.redo()
    assert r.to_dict()["events"] == events


# -- every public entry point of the wing, walked: a bad argument gets a ValueError naming that very parameter -------
# where the fault is a pair of parameters, the message may name the other one: a name in `first` with no total in `previous`
PAIRED = {("turn_order", "first"): "previous"}


def _named(err: ValueError, name: str, fn: str = "") -> bool:
    "Whether a refusal names the parameter itself (or a place inside it, such as `events[3].points`)."
    param = getattr(err, "param", None) or str(err).split(": ", 1)[0]
    return param == name or param.startswith((f"{name}.", f"{name}[")) or param == PAIRED.get((fn, name))


def wing_refusals() -> list[str]:
    "Every entry point and engine method of besm_nb.encounters, each argument replaced by a value of the wrong type."
    import inspect
    import typing
    import tests.test_inputs as walk
    out, seen = [], 0
    for mod in walk.wing_modules("encounters"):
        b = walk.Builder(mod)
        for label, obj in walk.entry_points(mod):
            calls = [(f"{mod.__name__}.{label}", obj, None)]
            if inspect.isclass(obj) and b.instance(obj) is not None:
                calls += [(f"{mod.__name__}.{label}.{m}", m, lambda obj=obj: b.instance(obj)) for m in walk.methods(obj)]
            for name, fn, make in calls:
                target = fn if make is None else getattr(make(), fn)
                base = b.base_call(target)
                if base is None: continue
                h = walk.hints(target, mod)
                for param in base:
                    ann = h.get(param, typing.Any)
                    for value in walk.probes(ann):
                        wrong = not (walk.admits(ann, value) and walk.finite(value))  # else of the right type, perhaps out of range
                        seen += 1
                        call = target if make is None else getattr(make(), fn)
                        try: call(**(base | {param: value}))
                        except ValueError as err:
                            if not _named(err, param, name.rsplit('.', 1)[1]): out.append(f"{name}({param}={value!r:.30}): {str(err)[:100]}")
                        except Exception as err: out.append(f"{name}({param}={value!r:.30}): {type(err).__name__}: {err}")
                        else:
                            if wrong: out.append(f"{name}({param}={value!r:.30}): answered")
    assert seen > 500, seen  # the walk reached the wing
    return out


def test_every_entry_point_names_the_parameter_it_refuses():
    found = wing_refusals()
    assert found == [], f"{len(found)}:\n" + "\n".join(found)


# -- what a Stamina save may hold: capped, and loaded in time linear in its length --------------------------------------
def _add(i: int) -> dict:
    return {"do": "add", "name": f"c{i}", "strength": 50, "willpower": 50, "max_stamina": 10 ** 5, "stamina": 10 ** 5, "heavy": False}


def _doc(events: list) -> dict:
    return {"kind": "encounters-stamina", "version": 1, "rules": {"exertion": True, "recovery": 1}, "events": events}  # a version-1 save: no minor actions


def test_loading_copies_no_more_than_it_replays(monkeypatch):
    "Undo checkpoints are spaced by the state's size: the characters loading copies stay within the number of events."
    copies = []
    copy = StaminaRecord._copy
    monkeypatch.setattr(StaminaRecord, "_copy", staticmethod(lambda f: (copies.append(1), copy(f))[1]))
    crowd = [_add(i) for i in range(MAX_FIGHTERS)]
    rounds = [e for _ in range(60) for e in [{"do": "act", "name": f"c{i}"} for i in range(0, MAX_FIGHTERS, 3)] + [{"do": "end_round"}]]
    r = StaminaRecord.from_dict(_doc(crowd + rounds))
    assert len(r.events) == MAX_FIGHTERS + 60 * 35 and len(copies) <= len(r.events), (len(copies), len(r.events))
    for _ in range(40): r.undo()  # and undo still lands where a fresh replay does
    assert r.to_dict() == StaminaRecord.from_dict(_doc((crowd + rounds)[:-40])).to_dict()


def test_a_save_beyond_the_caps_is_refused_naming_where():
    with pytest.raises(ValueError, match=rf"events\[{MAX_FIGHTERS}\]: \(add\) name: the record holds at most {MAX_FIGHTERS} characters"):
        StaminaRecord.from_dict(_doc([_add(i) for i in range(MAX_FIGHTERS + 1)]))
    with pytest.raises(ValueError, match=f"events: must have at most {MAX_EVENTS} items"):
        StaminaRecord.from_dict(_doc([{"do": "end_round"}] * (MAX_EVENTS + 1)))
    pushes = [_add(i) for i in range(MAX_FIGHTERS)] + [{"do": "push", "name": f"c{i}", "stat": "strength", "points": 1}
                                                        for i in range(MAX_FIGHTERS)]
    repeats = pushes + [{"do": "end_round"}, {"do": "repeat"}] * 400  # 1 + 100 steps a round's end, 1 + 100 a repeat
    with pytest.raises(ValueError, match=r"events\[693\]: \(repeat\) events: the record is full: at most 50,000 steps"):
        StaminaRecord.from_dict(_doc(repeats))
    r = StaminaRecord.from_dict(_doc(repeats[:2 * MAX_FIGHTERS + 2 * 240]))
    assert r.steps == 2 * MAX_FIGHTERS + 240 * (2 + 2 * MAX_FIGHTERS) <= MAX_STEPS
    with pytest.raises(ValueError, match="events: the record is full"):  # live play meets the same limit
        while True: r.end_round(); r.repeat()
