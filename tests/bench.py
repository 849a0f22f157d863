"""`make bench`: the performance figures, measured (targets in brackets).

* dist("20d6") median (<= 5 ms), d20_check_odds and tristat_check_odds medians (<= 1 ms);
* dice notation: the slowest expressions the caps allow (keep, explode, reroll, count), each in a fresh process
  (<= 2 s of CPU, <= 500 MB at its peak), a roll that keeps 50 of 100 dice (<= 5 ms), `besm-nb --help` (<= 0.3 s);
* `import besm_nb.dice, besm_nb.checks` in a fresh process (<= 0.3 s), importing neither sympy nor ipywidgets;
* Tri-Stat: a 5-combatant round resolved (<= 2 ms), the combat odds (<= 5 ms each);
* Anime d20: the full attack resolver on a 12d8 attack (<= 20 ms); the fight engine: an attack's odds from the fight
  (<= 20 ms) and its resolution (<= 20 ms), loading a 200-action fight (<= 0.5 s) and one at its cap of actions (<= 2 s);
* Anime d20 damage: a fall's and the largest crash's exact damage, shock odds; mind combat, group saves at their cap of
  500 targets (important characters included), XP;
* chases: one round resolved (<= 1 ms), the exact capture analysis over 20 rounds (<= 1 s), loading a 9,000-round save
  (<= 2 s, <= 100 MB at its peak: loading grows linearly with the rounds);
* BESM d20 damage saves: the exact odds of one Damage Save, with hits and a pulled punch (<= 2 ms); loading a damage
  record, a Fate ledger and a classless build saved at their caps (<= 1 s, <= 50 MB each);
* Encounters: a round planned (Fred the Swift), a range band, charge damage and its exact odds, Initiative odds and
  who goes first, a Stamina step and its undo in a 250-event fight (<= 1 ms each); loading that fight (<= 20 ms);
  the largest Stamina saves the record takes (100 characters, 20,000 events; its step cap reached) (<= 2 s each);
* narrative battles: one turn resolved (<= 1 ms), the battle odds over 16 turns (<= 1 s); a unit attack's exact odds;
* special situations: the vehicle damage resolver's exact odds of one hit (<= 5 ms), with its caches cleared and warm;
  the car chase: a hit applied with its odds (<= 20 ms), the control roll's odds (<= 1 ms), loading a save at its cap of
  1,000 steps (<= 2 s); one fighter's turn on the group melee panel (<= 1 ms);
* the dashboards server: its memory right after `besm-dashboards` starts (<= 600 MB) and after three dashboards are
  opened (resident and proportional);
* the GM screen: the taps of scripted actions played through the page, a Tri-Stat attack with no answer (<= 2), one
  answered by a dodge (<= 3), a round of four fighters (<= 10);
* dashboards in headless Chromium with preheated kernels: page request to first widget visible (<= 1.5 s median),
  for the checks page, the Tri-Stat tracker and, as Voila's own floor, a notebook showing a single label;
  and input change to updated output (<= 100 ms median); a table opening at once, a GM's Tri-Stat tracker and seven
  players' views (p95 <= 6 s), and twenty sessions of the checks page (p95 <= 27 s): p50 / p95 page load (from the
  request), each with the machine's load average, the resident memory of the server with its kernels and of one kernel;
* the rules site's live calculators (the built _site/ on a static server on 127.0.0.1, every other request blocked):
  page load to first calculator interactive with an empty cache (<= 4 s) and a warm one (<= 1.5 s), an input change
  to updated odds (<= 150 ms median), the bytes a first visit downloads, with the machine's load and the browser's CPU;
* the site's trackers: page load to tracker live with an empty cache (<= 4 s) and a warm one (<= 1.5 s), an action to
  its new state on screen, saved on the device (<= 150 ms median), the bytes of a first visit before the tracker is
  live and with the whole site kept for offline use (as sent, and as a gzip or brotli host would send them), and the
  storage each tracker's autosave takes after a ten-round fight;
* the site under Lighthouse (pinned in docs/build.py TOOLS, Debian's Chromium), its mobile profile, on a static host that
  compresses (precompressed .br/.gz copies where the build made them, else gzip): the home page, a chapter, a calculator
  page and a tracker page, with their performance, accessibility, best-practices and SEO scores and Total Blocking Time
  (<= 1 s); and what a first visit moves from that host until the calculators are live (<= 10 MB) and once the whole
  site is kept offline. `--lighthouse` runs only these (`--lighthouse=PATH`: another built copy of the site).

`python tests/bench.py --quick` (what `make test` runs, through tests/test_bench_quick.py) computes every figure but the
browser ones at a small size (a few repeats, small saves and pools) and times nothing against its target: it shows that
the bench still runs, so that it cannot rot unseen again. `--no-browser` leaves the browser figures out of a full run;
`--play` gives only the server's memory and the taps.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project root: `tests` is a package


QUICK = "--quick" in sys.argv  # every figure at a small size, nothing held to its target (see the docstring)


def size(full, quick):
    "A figure's size: `full` in a real run, `quick` under --quick."
    return quick if QUICK else full


def median_ms(fn, n=200, setup=None):
    n = size(n, 1)
    times = []
    for _ in range(n):
        if setup: setup()
        t = time.perf_counter(); fn(); times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def report(name, value, unit, target):
    ok = "not held to it: --quick" if QUICK else "ok" if value <= target else "OVER TARGET"
    print(f"{name:<58} {value:8.3f} {unit}   (target <= {target} {unit}: {ok})", flush=True)


def core():
    from besm_nb import dice
    from besm_nb.checks import d20_check_odds, tristat_check_odds
    first = subprocess.run([sys.executable, "-c", "import time; from besm_nb.dice import dist; t=time.perf_counter(); "
                            "dist('20d6'); print((time.perf_counter()-t)*1000)"], capture_output=True, text=True, check=True)
    print(f"{'dist(20d6), first call in a fresh process (icepool warm-up)':<58} {float(first.stdout):8.3f} ms")
    report("dist('20d6') median, result cache cleared each call", median_ms(lambda: dice.dist("20d6"), setup=dice._counts.cache_clear), "ms", 5)
    report("dist('20d6') median, cached", median_ms(lambda: dice.dist("20d6")), "ms", 5)
    report("d20_check_odds(5, 15) median", median_ms(lambda: d20_check_odds(5, 15), 2000), "ms", 1)
    report("tristat_check_odds(8, 1) median", median_ms(lambda: tristat_check_odds(8, 1), 2000), "ms", 1)
    tristat()
    d20_attack()
    d20_fight()
    d20_damage()
    d20_mind()
    chase()
    damage_saves()
    battles()
    battle_bounds()
    code = "import sys, time; t=time.perf_counter(); import besm_nb.dice, besm_nb.checks; " \
           "print(time.perf_counter()-t, 'sympy' in sys.modules, 'ipywidgets' in sys.modules)"
    walls, imports, heavy = [], [], set()
    for _ in range(size(7, 1)):
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        walls.append(time.perf_counter() - t); imports.append(float(out[0]))
        heavy |= {name for name, flag in zip(("sympy", "ipywidgets"), out[1:]) if flag == "True"}
    report("import besm_nb.dice, besm_nb.checks (median, import only)", statistics.median(imports), "s", 0.3)
    report("python -c 'import besm_nb.dice, besm_nb.checks' (median wall)", statistics.median(walls), "s", 0.3)
    print(f"{'heavy modules imported by the core':<58} {', '.join(sorted(heavy)) or 'none'}")


def chase():
    import random
    from besm_nb.besm_d20 import chase_odds
    from besm_nb.besm_d20.chase import ChaseState, Mecha, resolve_chase_round
    from besm_nb.besm_d20.chase_odds import capture_odds, round_odds
    car = Mecha("Car", drive=6, manoeuvre=1, max_speed=120, hp=40, armour=4)
    bike = Mecha("Bike", drive=5, manoeuvre=3, max_speed=110, hp=20)
    s, rng = ChaseState(car, bike, "close", 10, 70), random.Random(1)
    cold = lambda: (chase_odds._effect.cache_clear(), chase_odds._faces.cache_clear())
    report("Chase: resolve one round, Herd v Zig-Zag (median)", median_ms(lambda: resolve_chase_round(s, "Herd", "Zig-Zag", rng), 1000), "ms", 1)
    report("Chase: round_odds, Herd v Zig-Zag (median)", median_ms(lambda: round_odds(s, "Herd", "Zig-Zag"), 200, cold), "ms", 5)
    chase_load()
    for terrain, lead, p, q in (("close", 10, "Gun It, then the best finisher", "Pull Ahead until 20+, then Stunt"),
                                ("close", 10, "Shortcut, then Box In", "Pull Ahead until 30, then Vanish"),
                                ("open", 12, "Redline, then the best finisher", "Pull Ahead, then the best finisher")):
        report(f"Chase: capture_odds {size(20, 3)} rounds, {p[:8]} v {q[:10]} (median)",
               median_ms(lambda: capture_odds(car, bike, terrain, lead, p, q, rounds=size(20, 3)), 5, cold) / 1000, "s", 1)


def chase_load(rounds=None):
    import json
    import tracemalloc
    from besm_nb.besm_d20.chase import Chase, ChaseRules, ChaseState, Mecha, chase_from_dict, chase_to_dict
    rounds = rounds or size(9000, 30)
    start = ChaseState(Mecha("A", drive=5, max_speed=1000, hp=100), Mecha("B", drive=5, max_speed=1000, hp=100), "close", 10, 60,
                       rules=ChaseRules(obstacles=False))
    chase = Chase(start)
    for _ in range(rounds): chase.act("Jockey", "Set Up", [12, 10])  # ties: it runs on
    data = json.loads(json.dumps(chase_to_dict(chase)))  # as saved: the rounds and where they leave the chase (`now`)
    report(f"Chase: load a {rounds:,}-round save (median of 3)", median_ms(lambda: chase_from_dict(data), 3) / 1000, "s", 2)
    tracemalloc.start()
    chase_from_dict(data)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    report(f"Chase: load a {rounds:,}-round save, peak memory", peak, "MB", 100)
def damage_saves():
    from besm_nb.besm_d20.damage_saves import DamageTrack, Target, damage_save_odds
    report("Damage saves: damage_save_odds, 3 stun + 4 lethal hits (median)",
           median_ms(lambda: damage_save_odds(4, 18, "stun", 3, 4, max_effect="stunned"), 2000), "ms", 2)
    track = DamageTrack(Target("Rei", con=2, armour=2, damn_healthy=1, fortitude=4, level=6))
    for n in (4, 12, 9): track.attack(19, natural=n)
    report("Damage saves: the tracker's odds of the next attack (median)", median_ms(lambda: track.odds(25, "stun", 11), 2000), "ms", 2)
    character_saves()


def character_saves():
    "Loading a damage record, a Fate ledger and a classless build each saved at its cap: linear in the entries."
    import json
    import tracemalloc
    from besm_nb.besm_d20 import classless, damage_saves as ds, fate_points as fp
    events, entries, built = size(ds.MAX_EVENTS, 30), size(fp.MAX_ENTRIES, 30), size(classless.MAX_ENTRIES, 30)
    record = ds.DamageTrack(ds.Target("T", fate_points=100)).to_dict()
    record["events"] = ([{"event": "attack", "dc": 10, "attack": "stun", "natural": 9, "attacker_level": -1, "max_effect": "none",
                          "maximum_force": False}, {"event": "end round"},
                         {"event": "wait", "rounds": 600, "resting": False, "medical": False}] * events)[:events]
    ledger = fp.FateLedger("P").to_dict()
    ledger["entries"] = [{"entry": "gain", "points": 1, "note": "a goal"},
                         {"entry": "spend", "use": "Raw Power", "points": 1, "note": "", "level": 5, "roll": 3, "weapon": "none"}] * (entries // 2)
    build = classless.ClasslessBuild("P", 90).to_dict()
    build["entries"] = [{"entry": "session", "extra": True},
                        {"entry": "buy", "kind": "ability", "name": "Strength", "count": 1, "cost": "", "int_mod": 0}] * (built // 2)
    for name, load, data in ((f"a {events:,}-event damage record", ds.DamageTrack.from_dict, record),
                             (f"a {entries:,}-entry Fate ledger", fp.FateLedger.from_dict, ledger),
                             (f"a {built:,}-entry classless build", classless.ClasslessBuild.from_dict, build)):
        data = json.loads(json.dumps(data))
        report(f"Load {name} (median of 3)", median_ms(lambda: load(data), 3) / 1000, "s", 1)
        tracemalloc.start(); load(data); peak = tracemalloc.get_traced_memory()[1] / 1e6; tracemalloc.stop()
        report(f"Load {name}, peak memory", peak, "MB", 50)


def battles():
    import random
    from besm_nb.besm_d20.battle_odds import battle_odds, turn_odds
    from besm_nb.besm_d20.battles import General, Troops, army_from_troops, resolve_turn, start_battle
    from besm_nb.besm_d20.unit_rounds import attack_outlook, roll_initiative, start_combat
    from besm_nb.besm_d20.units import NISHIHAMA, Unit
    samurai = army_from_troops("Samurai", General("Kenshin", 14, 8, 2, 5), [Troops("Foot", 2000, 1),
                               Troops("Horse", 500, 2, "cavalry", mount_hd=4, war_mount=True), Troops("Mecha", 100, 5, "mecha", big_mecha=2)])
    horde = army_from_troops("Raiders", General("Toghrul", 12, 6), [Troops("Foot", 4000, 1), Troops("Riders", 1000, 1, "cavalry", mount_hd=3)])
    b, rng = start_battle(samurai, horde, characters="A", party_size=3, party_level=4), random.Random(1)
    report("Narrative battle: resolve one turn (median)", median_ms(lambda: resolve_turn(b, dice=rng), 1000), "ms", 1)
    report("Narrative battle: turn_odds, exact (median)", median_ms(lambda: turn_odds(b), 200), "ms", 20)
    turns = size(16, 2)
    report(f"Narrative battle: battle_odds over {turns} turns, 2,000 simulated (median)", median_ms(lambda: battle_odds(b, turns), 5) / 1000, "s", 1)
    even = start_battle(samurai, army_from_troops("Levy", General("Goro", 10, 2), [Troops("Foot", 5200, 1)]))
    report(f"Narrative battle: battle_odds over {turns} turns, evenly matched (median)", median_ms(lambda: battle_odds(even, turns), 5) / 1000, "s", 1)
    # unit combat: an attack's odds (exact within the stated bound, simulated past it), and loading the longest save
    import json
    import tracemalloc
    from dataclasses import replace
    from besm_nb.besm_d20.unit_attacks import unit_attack_odds
    from besm_nb.besm_d20.unit_rounds import MAX_ACTIONS, Combat, UnitAction, combat_from_dict

    def engaged(a, b):
        s, _ = roll_initiative(start_combat([a, b]), [20, 1])
        return s.put(replace(s.get(a.name), engaged=(b.name,))).put(replace(s.get(b.name), engaged=(a.name,)))
    goblins = Unit("Goblins", "B", 30, 10, attack=(1,), damage="1d6", ac=1, armour=2)
    s = engaged(Unit("Host", "A", 30, 20, attack=(6, 1), damage="2d8+4"), goblins)
    report("Unit combat: attack_outlook, 30 counters, two attacks (median)", median_ms(lambda: attack_outlook(s, "Host", "Goblins", "attack"), 10), "ms", 500)
    t, _ = roll_initiative(start_combat([NISHIHAMA, Unit("Goblins", "B", 10, 10, ac=1, armour=2)]), [20, 1])
    report("Unit combat: attack_outlook, the sample roster's charge (median)", median_ms(lambda: attack_outlook(t, NISHIHAMA.name, "Goblins", "charge"), 50), "ms", 50)
    n, bonuses = size(30, 3), size((6, 5, 4, 3, 2, 1), (6, 5))  # --quick: fewer counters and attacks
    six = engaged(Unit("Six", "A", n, 20, attack=bonuses, damage="2d8+4"), Unit("Horde", "B", n, 20, ac=1, armour=2))
    report(f"Unit combat: attack_outlook, {n} counters, {len(bonuses)} attacks (simulated; median)", median_ms(lambda: attack_outlook(six, "Six", "Horde", "attack"), 5) / 1000, "s", 2)
    report(f"Unit combat: the largest exact odds, {len(bonuses)} attacks of {n} counters (median)",
           median_ms(lambda: unit_attack_odds(bonuses, 1, "1d8+3", n, n, 19, armour=2), 5) / 1000, "s", 2)
    report(f"Unit combat: the largest simulated odds, 100d5+1000 at 1,000,000 HP, {len(bonuses)} attacks of {n} counters (median)",
           median_ms(lambda: unit_attack_odds((100,) * len(bonuses), -52, "100d5+1000", n, n, 1_000_000), 3) / 1000, "s", 2)
    heavy = [Unit(n, side, 30, 1_000_000, attack=(6, 5, 4, 3, 2, 1), damage="2d8+4", armour=100) for n, side in (("Host", "A"), ("Horde", "B"))]
    c, rng = Combat(start_combat(heavy)), random.Random(1)
    c.do(UnitAction("initiative"), rng)
    c.do(UnitAction("attack", unit=c.state.current(), target=[u for u in ("Host", "Horde") if u != c.state.current()][0], option="charge"), rng)
    actions = size(MAX_ACTIONS, 20)
    while len(c.actions) < actions:
        now = c.state.current()
        c.do(UnitAction("round") if now is None else UnitAction("attack", unit=now, target="Horde" if now == "Host" else "Host"), rng)
    data = json.loads(json.dumps(c.to_dict()))
    report(f"Unit combat: load a {actions:,}-action save, six attacks of 30 counters each (median of 3)", median_ms(lambda: combat_from_dict(data), 3) / 1000, "s", 2)
    tracemalloc.start()
    combat_from_dict(data)
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    report(f"Unit combat: load a {actions:,}-action save, peak memory", peak, "MB", 500)


def battle_bounds():
    "Narrative battles at their stated limits: a save of MAX_ACTIONS actions (<= 2 s, <= 100 MB), battle_odds at its worst (<= 2 s, <= 500 MB)."
    import json
    import time
    import tracemalloc
    from besm_nb.besm_d20.battle_odds import SIMULATED_TURNS, battle_odds
    from besm_nb.besm_d20.battles import MAX_ACTIONS, Army, Battle, General, battle_from_dict, start_battle
    g = General("Hideyoshi", 18, 20, 10, 20)
    b = Battle(start_battle(Army("A", g, 10**8, 200), Army("B", g, 10**8, 200)))
    b.turn(dice=[10, 10, 1, 1])  # a tie: 1d4 × 100 × 100 each, and the battle goes on
    data = json.loads(json.dumps(b.to_dict()))
    actions = size(MAX_ACTIONS, 20)
    data["actions"] *= actions
    data["claims"] |= {"turn": actions + 1, "strength": [10**8 - 10_000 * actions] * 2}
    report(f"Narrative battle: load a {actions:,}-turn save (median of 3)", median_ms(lambda: battle_from_dict(data), 3) / 1000, "s", 2)
    tracemalloc.start(); battle_from_dict(data); peak = tracemalloc.get_traced_memory()[1] / 1e6; tracemalloc.stop()
    report(f"Narrative battle: load a {actions:,}-turn save, peak memory", peak, "MB", 100)
    elite = lambda aq: start_battle(Army("East", g, 10**9, aq), Army("West", g, 9 * 10**8, aq))
    report("Narrative battle: battle_odds, AQ 200 a side, 16 turns, exact (median)", median_ms(lambda: battle_odds(elite(200), size(16, 2)), 3) / 1000, "s", 1)
    worst, name, long = 0.0, "", size(200, 3)
    for aq in (5, 30, 200):  # the chain stopped at its limit, then 2,000 battles of 200 turns simulated (AQ 200: the longest)
        t = time.perf_counter(); battle_odds(elite(aq), long, n=size(SIMULATED_TURNS // 200, 100)); took = time.perf_counter() - t
        if took > worst: worst, name = took, f"AQ {aq} a side"
    report(f"Narrative battle: battle_odds worst legal case ({name}, {long} turns)", worst, "s", 2)
    tracemalloc.start(); battle_odds(elite(30), long, n=size(SIMULATED_TURNS // 200, 100)); peak = tracemalloc.get_traced_memory()[1] / 1e6; tracemalloc.stop()
    report("Narrative battle: battle_odds worst legal case, peak memory", peak, "MB", 500)


def d20_attack():
    from besm_nb import dice
    from besm_nb.anime_d20.modifiers import resolve_attack
    full = lambda: resolve_attack(8, 16, "12d8", ["moving vehicle, moderate speed", ("beyond melee: taking cover", -6)],
                                  defence_bonus=6, defence=["block"], object_armour=10, ranged=True, block_ranged_feat=True,
                                  nth_defence=2, armour=5, current_hp=40)
    report("resolve_attack(12d8, crit 24d8, Block, HP) median, cache cleared", median_ms(full, 50, setup=dice._counts.cache_clear), "ms", 20)
    report("resolve_attack(12d8, crit 24d8, Block, HP) median, cached", median_ms(full), "ms", 20)


def d20_fight():
    import json
    from besm_nb.dice import DiceFeed
    from besm_nb.anime_d20.fight import MAX_ACTIONS, Answer, Attack, attack_preview, fight_act, fight_from_dict, fight_to_dict
    from tests.anime_d20.test_fight import fight_at, long_fight
    f = fight_at()
    a = Attack("Aiko", "katana", ("Oni",), (Answer("Oni"),), rows=("melee: taking cover",))
    report("Anime d20 fight: an attack's odds from the fight (median)", median_ms(lambda: attack_preview(f, a), 200), "ms", 20)
    report("Anime d20 fight: an attack resolved, typed dice (median)", median_ms(lambda: fight_act(f, a, DiceFeed(totals=[14, 3, 7])), 200), "ms", 20)
    for n, target in ((200, 0.5), (MAX_ACTIONS, 2)):
        data = json.loads(json.dumps(fight_to_dict(long_fight(size(n, 20)))))
        report(f"Anime d20 fight: load a {size(n, 20):,}-action save (median of 3)", median_ms(lambda: fight_from_dict(data), 3) / 1000, "s", target)


def d20_damage():
    from besm_nb import dice
    from besm_nb.anime_d20.damage import MAX_CRASH_MPH, crash_damage, fall_odds, impact_odds, shock_odds
    report("fall_odds(50 ft, Acrobatics +8) median, cache cleared", median_ms(lambda: fall_odds(50, 8), setup=dice._counts.cache_clear), "ms", 5)
    report("impact_odds(98d6, armour 5) median, cache cleared",
           median_ms(lambda: impact_odds(crash_damage(MAX_CRASH_MPH).expr, 5), 20, setup=dice._counts.cache_clear), "ms", 50)
    report("shock_odds(30, 40, +3) median", median_ms(lambda: shock_odds(30, 40, 3), 2000), "ms", 1)


def d20_mind():
    from besm_nb.anime_d20.mind import group_resistance_odds, mind_attack, xp_award
    report("mind_attack(8 rounds, target 10 HP) median", median_ms(lambda: mind_attack(3, 2, 1, 2, rounds=8, target_hp=10)), "ms", 5)
    crowd = list(range(-2, 8)) * 50
    report("group_resistance_odds(500 targets, separate) median", median_ms(lambda: group_resistance_odds(crowd, 15, "separate"), 20), "ms", 300)
    report("group_resistance_odds(500 targets, shared) median", median_ms(lambda: group_resistance_odds(crowd, 15, "shared"), 20), "ms", 300)
    # the stated cap is 500 targets in all, important characters (each on her own die) included: the slowest mixes
    report("group_resistance_odds(500 important characters) median", median_ms(lambda: group_resistance_odds([], 15, "shared", crowd), 10), "ms", 500)
    report("group_resistance_odds(250 + 250 important, average) median",
           median_ms(lambda: group_resistance_odds(crowd[:250], 15, "average", crowd[250:]), 10), "ms", 500)
    report("xp_award median", median_ms(lambda: xp_award([4, 5, 6], ["comparable"], ["superior"], "strong")), "ms", 1)


def tristat():
    import random
    from besm_nb.tristat.combat import health_lost_odds, hit_odds
    from tests.tristat.test_combat_and_round import fighters, plan
    from besm_nb.tristat.round import DiceFeed, resolve_round
    inits = {"A": 14, "B": 7, "C": 9, "D": 9, "E": 12}
    start, actions, rng = fighters(), plan(), random.Random(1)
    report("Tri-Stat: resolve a 5-combatant round (median)", median_ms(lambda: resolve_round(start, actions, inits, DiceFeed(rng)), 500), "ms", 2)
    report("Tri-Stat: hit_odds(8, 1) (median)", median_ms(lambda: hit_odds(8, 1), 2000), "ms", 5)
    report("Tri-Stat: health_lost_odds, dodge + shield + counter (median)", median_ms(
        lambda: health_lost_odds(60, 8, dodge=True, dcv=5, shield=10, counter_power=30, counter_acv=6), 500), "ms", 5)


def encounters():
    from besm_nb import dice
    from besm_nb.encounters.actions import first_odds, initiative_odds
    from besm_nb.encounters.exertion import StaminaRecord
    from besm_nb.encounters.movement import charge_damage, charge_damage_odds
    from besm_nb.encounters.planner import plan_round
    from besm_nb.encounters.ranges import range_penalty
    fred = lambda: plan_round(4, 2, {"Striking": 8, "Defense": 6}, attacks=1, stand=True, run_yards=16, leaps=1, initiative=4)
    report("Encounters: plan_round, Fred the Swift (median)", median_ms(fred, 2000), "ms", 1)
    report("Encounters: range_penalty, heavy crossbow (median)", median_ms(lambda: range_penalty("heavy crossbow", 100), 2000), "ms", 1)
    report("Encounters: charge_damage, the knight (median)", median_ms(lambda: charge_damage(11, 6, 40), 2000), "ms", 1)
    report("Encounters: charge_damage_odds, cache cleared (median)",
           median_ms(lambda: charge_damage_odds(11, "2d6", 40), 500, dice._counts.cache_clear), "ms", 1)
    report("Encounters: initiative_odds, cache cleared (median)", median_ms(lambda: initiative_odds(5), 500, dice._counts.cache_clear), "ms", 1)
    report("Encounters: first_odds(5, 3) (median)", median_ms(lambda: first_odds(5, 3), 500), "ms", 1)
    r = StaminaRecord(exertion=True)
    for n in "ABCD": r.add(n, 5, 5, 10_000)
    for _ in range(50):
        for n in "ABCD": r.push(n, "strength", 1)
        r.end_round()
    report(f"Encounters: push + undo, {len(r.events)}-event fight (median)",
           median_ms(lambda: (r.push("A", "strength", 1), r.undo()), 500), "ms", 1)
    report(f"Encounters: end round + undo, {len(r.events)} events (median)", median_ms(lambda: (r.end_round(), r.undo()), 500), "ms", 1)
    saved = r.to_dict()
    report(f"Encounters: load a {len(r.events)}-event fight (median)",
           median_ms(lambda: StaminaRecord.from_dict(saved), 50), "ms", 20)
    from besm_nb.encounters.exertion import MAX_EVENTS, MAX_FIGHTERS
    MAX_EVENTS, MAX_FIGHTERS = size(MAX_EVENTS, 40), size(MAX_FIGHTERS, 3)
    add = lambda i: {"do": "add", "name": f"c{i}", "strength": 100, "willpower": 100, "max_stamina": 10 ** 5, "stamina": 10 ** 5, "heavy": False}
    crowd = [add(i) for i in range(MAX_FIGHTERS)]
    acts = crowd + [e for _ in range(MAX_EVENTS) for e in [{"do": "act", "name": f"c{i}"} for i in range(MAX_FIGHTERS)] + [{"do": "end_round"}]]
    pushes = crowd + [{"do": "push", "name": f"c{i % MAX_FIGHTERS}", "stat": "strength", "points": 1} for i in range(5000)]
    pushes += [{"do": "end_round"}, {"do": "repeat"}] * MAX_EVENTS
    for what, events in (("acts and rounds", acts), ("pushes, then end round and repeat", pushes)):
        doc = {"kind": "encounters-stamina", "version": 2, "rules": {"exertion": True, "recovery": 1}, "events": events[:MAX_EVENTS]}
        def load():
            try: StaminaRecord.from_dict(doc)
            except ValueError: pass  # the step cap reached: refused, as it should be
        report(f"Encounters: load a {MAX_EVENTS:,}-event Stamina save, {MAX_FIGHTERS} characters, {what}", median_ms(load, 3) / 1000, "s", 2)


def special():
    from besm_nb import dice
    from besm_nb.special import vehicles
    own = lambda: (vehicles._area_table.cache_clear(), vehicles._damage_counts.cache_clear())
    everything = lambda: (own(), vehicles._draw_table.cache_clear(), dice._counts.cache_clear())
    for damage, opts, what in (("6d6", {"facing": "side", "speed_mph": 60}, "car, side, 6d6"),
                               ("13d6+3", {"facing": "front"}, "car, front, 13d6+3"),
                               ("6d6", {"vehicle": "motorcycle", "facing": "side", "tank_full": True}, "motorcycle, side, 6d6"),
                               ("20d6", {"location": "Engine", "engine_taken": 20}, "car engine aimed, 20d6")):
        run = lambda: vehicles.vehicle_hit_odds(damage, **opts)
        report(f"vehicle_hit_odds({what}) median, its caches cleared", median_ms(run, 50, own), "ms", 5)
        report(f"vehicle_hit_odds({what}) median, warm", median_ms(run, 200), "ms", 5)
        print(f"{'  the same with the dice distributions cleared too':<58} {median_ms(run, 20, everything):8.3f} ms", flush=True)
    car_chase()


def car_chase():
    "The car chase tracker's engine: a hit with its odds, the control roll, a save at the cap; the melee panel."
    import json, random
    from besm_nb.dice import DiceFeed
    from besm_nb.special.car_chase import MAX_EVENTS, CarChase, chase_from_dict
    from besm_nb.special.melee import melee_turn
    c = CarChase()
    c.add_vehicle("Roadster", driver="Vic", skill=13, speed=60); c.board("Roadster", "Anna")
    c.add_vehicle("Bike", kind="motorcycle", driver="Kai", skill=12, speed=50, tons=0.25)
    c.hit("Roadster", "6d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[20, 14])); c.control("Roadster", dice=DiceFeed(totals=[6]))
    saved, rng, box = c.to_dict(), random.Random(1), {}
    def fresh(): box["c"] = chase_from_dict(saved)  # each hit on the same chase as it stands (not timed)
    def hit_with_odds():
        ch = box["c"]
        ch.hit_odds("Roadster", "6d6", facing="side")
        ch.hit("Roadster", "6d6", facing="side", dice=DiceFeed(rng))
        ch.control_roll("Roadster")
    report("car chase: a hit applied with its odds, median", median_ms(hit_with_odds, 100, fresh), "ms", 20)
    from besm_nb.special import vehicles
    cold = lambda: (fresh(), vehicles._area_table.cache_clear(), vehicles._damage_counts.cache_clear())
    report("car chase: the same, the resolver's caches cleared, median", median_ms(hit_with_odds, 30, cold), "ms", 20)
    report("car chase: the control roll's odds, median", median_ms(lambda: c.control_roll("Roadster", -1), 2000), "ms", 1)
    long = CarChase(); long.add_vehicle("A", speed=60); long.add_vehicle("B", kind="motorcycle", speed=50, tons=0.25)
    MAX_EVENTS = size(MAX_EVENTS, 40)
    while len(long.steps) < MAX_EVENTS:
        for name in ("A", "B"):
            if len(long.steps) >= MAX_EVENTS - 4: break
            v = long.vehicles[name]
            if v.exploded or v.crashed: long.remove(name); long.add_vehicle(name, kind=v.kind, speed=40, tons=v.tons); continue
            long.hit(name, "6d6", dice=DiceFeed(rng))
            while long.vehicles[name].pending and len(long.steps) < MAX_EVENTS: long.control(name, dice=DiceFeed(rng))
        if len(long.steps) < MAX_EVENTS and not any(v.pending for v in long.vehicles.values()): long.end_turn()
        else: break
    text = json.dumps(long.to_dict())
    report(f"car chase: load a {len(long.steps)}-step save (the cap is {MAX_EVENTS}), median", median_ms(lambda: chase_from_dict(json.loads(text)), 5) / 1000, "s", 2)
    report("group melee panel: one fighter's turn added up, median", median_ms(lambda: melee_turn(13, 9, "parry", pd=2, position="several fronts",
           first_foe=False, confusion_turns=3, shelter="sheltered by a buddy", comrade_shield_pd=3, green=True), 500), "ms", 1)


# Voila's own floor: a notebook showing one label, served beside the dashboards and loaded the same way
FLOOR = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                    "source": "import ipywidgets as w\nb = w.Label('floor'); b.add_class('besm-calculator'); b"}],
         "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
         "nbformat": 4, "nbformat_minor": 5}
DASHBOARD_LOADS = ("dice_and_checks", "tristat_combat", "floor")


def dashboards(loads=11, changes=21, sessions=20, refill=10):
    import json, shutil, tempfile
    from tests import conftest
    from playwright.sync_api import sync_playwright
    folder = Path(tempfile.mkdtemp()) / "dashboards"
    shutil.copytree(conftest.ROOT / "nbs" / "dashboards", folder, ignore=shutil.ignore_patterns("saves"))
    (folder / "floor.ipynb").write_text(json.dumps(FLOOR))
    with conftest.serve_dashboards(folder=folder) as (url, proc):
        from tests.dashboards.crowd import settle
        settle(proc.pid)  # the server readies a kernel for the home page at start
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
            # one browser profile, as at the table: the first visit fetches Voila's scripts, later ones have them cached
            ctx = browser.new_context()
            page_times = {nb: [] for nb in DASHBOARD_LOADS}
            for _ in range(loads + 1):
                for nb in DASHBOARD_LOADS:  # in turn, so the floor is measured under the same conditions
                    time.sleep(refill)  # a closed page's kernel is replaced by a new one running the notebook: let it
                    pg = ctx.new_page()
                    t = time.perf_counter()
                    pg.goto(url + f"/voila/render/{nb}.ipynb", wait_until="commit")
                    pg.locator(".besm-calculator, .besm-tracker").first.wait_for(timeout=60_000)
                    page_times[nb].append(time.perf_counter() - t)
                    pg.close(run_before_unload=True)  # as a closed tab does: Voila shuts its kernel down
            print(f"{'dashboard: first visit (empty browser cache), page -> widget':<58} {page_times['dice_and_checks'][0]:8.3f} s")
            report("dashboard: page request -> first widget visible (median)", statistics.median(page_times["dice_and_checks"][1:]), "s", 1.5)
            report("dashboard: the Tri-Stat tracker's page, the same (median)", statistics.median(page_times["tristat_combat"][1:]), "s", 1.5)
            floor = statistics.median(page_times["floor"][1:])
            print(f"{'Voila floor: a one-label notebook, the same (median)':<58} {floor:8.3f} s   "
                  f"(runs {', '.join(f'{x:.2f}' for x in page_times['floor'][1:])})")
            pg = ctx.new_page()
            pg.goto(url + "/voila/render/dice_and_checks.ipynb")
            pg.locator(".besm-output").first.wait_for(timeout=60_000)
            box = pg.locator(".besm-field-expr input").first
            change_times = []
            for i in range(changes):
                n = 2 + i % 9
                t = time.perf_counter()
                box.fill(f"{n}d6")
                pg.wait_for_function(f"document.querySelector('.besm-output').innerText.startsWith('{n}d6: {n} to {6 * n}')", polling="raf")
                change_times.append((time.perf_counter() - t) * 1000)
            report("dashboard: input change -> updated output (median)", statistics.median(change_times[1:]), "ms", 100)
            pg.close(run_before_unload=True)
            crowds(browser, url, proc, sessions)
            browser.close()


PLAYERS = "/besm/players?tracker=besm_nb.ui.tristat.round.Tracker"  # the players' view the tracker links to: no kernel of its own


def server_memory(pages=("dice_and_checks", "tristat_combat", "chase")):
    "The dashboards server and its kernels right after `besm-dashboards` starts (<= 600 MB), and after three dashboards are opened."
    import tempfile
    from tests import conftest
    from tests.dashboards.crowd import _children, settle, tree_rss_mb
    from playwright.sync_api import sync_playwright
    def pss_mb(pid):
        todo, total, kids = [pid], 0, _children()
        while todo:
            p = todo.pop(); todo += kids.get(p, [])
            try: total += next(int(l.split()[1]) for l in open(f"/proc/{p}/smaps_rollup") if l.startswith("Pss:"))
            except (OSError, StopIteration): pass
        return total / 1024
    with conftest.serve_dashboards(env={"BESM_NB_SAVES": tempfile.mkdtemp()}) as (url, proc):
        settle(proc.pid)
        n = len(_children().get(proc.pid, []))
        report(f"dashboards server right after start ({n} kernel(s)), resident", tree_rss_mb(proc.pid), "MB", 600)
        print(f"{'  the same, proportional (shared pages counted once)':<58} {pss_mb(proc.pid):8.1f} MB")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
            ctx = browser.new_context()
            for nb in pages:
                pg = ctx.new_page(); pg.goto(url + f"/voila/render/{nb}.ipynb")
                pg.locator(".besm-calculator, .besm-tracker").first.wait_for(timeout=120_000)
            settle(proc.pid)
            n = len(_children().get(proc.pid, []))
            print(f"{'  after opening ' + ', '.join(pages) + f' ({n} kernels)':<58} {tree_rss_mb(proc.pid):8.1f} MB resident, "
                  f"{pss_mb(proc.pid):.1f} MB proportional")
            browser.close()


def crowds(browser, url, proc, sessions=20):
    """Pages opened at once: a table (a GM's tracker and seven players' views), then `sessions` sessions of the checks page.
    Each crowd twice: every browser here, on the server's two cores (as before); and as at a real table, where each device
    draws its page on its own processor: the GM's page in a browser here, the players' phones and the other sessions as what
    they ask of the server (`crowd.phones`, `crowd.visits`), plus one device's own drawing time, measured alone."""
    import threading
    from tests.dashboards.crowd import crowd, phones, settle, visits
    checks, gm = "/voila/render/dice_and_checks.ipynb", "/voila/render/tristat_combat.ipynb"
    table = [gm] + [PLAYERS] * 7
    for name, n, paths in (("a table: a GM's tracker and 7 players' views", 8, table),
                           (f"{sessions} sessions of the checks page", sessions, checks)):
        waited = settle(proc.pid)  # closed pages' kernels shut down and the pools refilled: each crowd arrives at a ready server
        c = crowd(browser, url, proc.pid, sessions=n, path=paths)
        print(f"{name}, at once, every browser on this machine (server settled after {waited:.0f} s; load average {c.load:.1f}; "
              f"{len(c.loads)} of {n} shown, {len(c.errors)} errors)")
        print(f"{'  page -> first widget, p50 / p95':<58} {c.p50:8.3f} s / {c.p95:.3f} s   (the browsers' own work on two cores)")
        print(f"{'  server + kernels resident memory / one kernel (mean)':<58} {c.rss_mb:8.0f} MB / {c.kernel_mb:.0f} MB "
              f"({len(c.kernels)} kernels)", flush=True)
    # a table as it sits: the GM's laptop here, seven phones on the players' page
    loads, players = [], []
    for _ in range(3):
        settle(proc.pid)
        out, stop = [], threading.Event()
        t = threading.Thread(target=phones, args=(url, PLAYERS, 7, stop, out)); t.start()
        try: loads += crowd(browser, url, proc.pid, sessions=1, path=gm).loads
        finally: stop.set(); t.join()
        players += out
    both = sorted(loads + players)
    print(f"a table, each device drawing its own page (3 runs; the GM's page {', '.join(f'{x:.2f}' for x in loads)} s; "
          f"the players' pages at most {max(players):.2f} s)")
    report("  page -> first widget, p95 (8 devices)", both[max(0, round(0.95 * len(both)) - 1)], "s", 6)
    sessions_apart(browser, url, proc, sessions)


def sessions_apart(browser, url, proc, sessions=20):
    "`sessions` sessions of the checks page at once, each device drawing its own page (see `crowds`)."
    from tests.dashboards.crowd import crowd, settle, visits
    checks = "/voila/render/dice_and_checks.ipynb"
    settle(proc.pid)
    draw = crowd(browser, url, proc.pid, sessions=1, path=checks).loads[0]
    settle(proc.pid)
    served = visits(url, [checks])[0]
    settle(proc.pid)
    times = sorted(visits(url, [checks] * sessions))
    p95 = times[max(0, round(0.95 * len(times)) - 1)]
    print(f"{sessions} sessions of the checks page, each device drawing its own page: the server had sent every widget's state "
          f"after p50 {statistics.median(times):.2f} s, p95 {p95:.2f} s; one device's own drawing {max(0.0, draw - served):.2f} s "
          f"(alone: page {draw:.2f} s, of which the server {served:.2f} s)")
    report("  page -> first widget, p95 (the server's p95 + one device's drawing)", p95 + max(0.0, draw - served), "s", 27)


# a page's first live calculator: n -> (field, the value typed, how the new answer starts)
SITE_CHANGES = {"core/dice_ui.html": lambda n: ("expr", f"{n}d6", f"{n}d6: {n} to {6 * n}"),
                "special/rolls_ui.html": lambda n: ("skill", str(n + 5), f"Effective skill {n + 5}:")}


def site_live(cold_runs=5, warm_runs=7, changes=21, page="core/dice_ui.html"):
    import functools
    import http.server
    import os
    import threading
    from tests import conftest
    from playwright.sync_api import sync_playwright
    site = Path(__file__).resolve().parents[1] / "_site"
    if not (site / "index.html").exists():
        print("site: not built (make docs): live calculator figures skipped")
        return
    served = {"bytes": 0}

    class Counting(http.server.SimpleHTTPRequestHandler):
        "A plain static server that counts the bytes it sends: a first visit's download."
        def log_message(self, *args): pass
        def copyfile(self, source, outputfile):
            served["bytes"] += os.fstat(source.fileno()).st_size
            super().copyfile(source, outputfile)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    server.handle_error = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/{page}"
    wait = "window.besmLive && window.besmLive.state !== 'loading'"

    def cpu_seconds() -> float:  # user + system time of this process's children (the browser's processes), from /proc
        tick, kids, spent = os.sysconf("SC_CLK_TCK"), {}, {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try: stat = open(f"/proc/{pid}/stat").read()
            except OSError: continue
            f = stat[stat.rindex(")") + 2:].split()
            kids.setdefault(int(f[1]), []).append(int(pid)); spent[int(pid)] = sum(map(int, f[11:15])) / tick
        total, todo = 0.0, list(kids.get(os.getpid(), []))
        while todo:
            p = todo.pop(); total += spent.get(p, 0); todo += kids.get(p, [])
        return total

    def block(ctx):
        ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1") else r.abort())

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
        cold, warm, cold_cpu, warm_cpu, loads, downloads = [], [], [], [], [], []
        cold_marks, warm_marks = [], []
        for i in range(cold_runs):  # a fresh profile each time: an empty cache
            ctx = browser.new_context(); block(ctx); pg = ctx.new_page()
            served["bytes"], c0 = 0, cpu_seconds()
            pg.goto(url); pg.wait_for_function(wait, timeout=180_000)
            state = pg.evaluate("window.besmLive")
            assert state["state"] == "live", state["errors"]
            cold.append(state["times"]["first"] / 1000); cold_cpu.append(cpu_seconds() - c0); downloads.append(served["bytes"])
            cold_marks.append(state["times"])
            loads.append(os.getloadavg()[0])
            if i < cold_runs - 1: ctx.close()
        for _ in range(warm_runs):  # the same profile: everything cached
            c0 = cpu_seconds()
            pg.goto(url); pg.wait_for_function(wait, timeout=180_000)
            warm_marks.append(pg.evaluate("window.besmLive.times")); warm.append(warm_marks[-1]["first"] / 1000)
            warm_cpu.append(cpu_seconds() - c0)
            loads.append(os.getloadavg()[0])
        # an input change -> the updated odds on screen, timed in the page: the input event to the new output text
        times = []
        for i in range(changes):
            field, value, want = SITE_CHANGES[page](2 + i % 9)
            times.append(pg.evaluate("""([field, value, want]) => new Promise(done => {
                const out = document.querySelector('.besm-live .besm-output'), box = document.querySelector(`.besm-live .besm-field-${field} input`);
                const t = performance.now();
                const seen = new MutationObserver(() => { if (out.innerText.startsWith(want)) { seen.disconnect(); done(performance.now() - t); } });
                seen.observe(out, {childList: true, subtree: true, characterData: true});
                box.value = value;  // a text box sends as typed, a number box when changed
                box.dispatchEvent(new Event('input', {bubbles: true})); box.dispatchEvent(new Event('change', {bubbles: true}));
            })""", [field, value, want]))
        ctx.close()
        browser.close()
    server.shutdown()
    print(f"{'site (' + page + '): machine load average while measured':<58} {statistics.median(loads):8.1f}     (2 cores)")
    print(f"{'site: first visit, empty cache: page -> calculator live':<58} {statistics.median(cold):8.3f} s   "
          f"(browser CPU {statistics.median(cold_cpu):.2f} s; runs {', '.join(f'{x:.2f}' for x in cold)})")
    report(f"site: {page}: first calculator interactive, empty cache (median)", statistics.median(cold), "s", 4)
    report(f"site: {page}: first calculator interactive, warm cache (median)", statistics.median(warm), "s", 1.5)
    print(f"{'site: warm cache, best run / browser CPU per load':<58} {min(warm):8.3f} s   (browser CPU {statistics.median(warm_cpu):.2f} s)")
    for name, marks in (("empty", cold_marks), ("warm", warm_marks)):  # where the time goes: ms since the page's start
        steps = [k for k in ("script", "worker", "runtime", "wasm", "snapshot", "restored", "python", "first", "all") if all(k in m for m in marks)]
        print(f"site: {name} cache, median ms at each step: " + ", ".join(f"{k} {statistics.median(m[k] for m in marks):.0f}" for k in steps))
    report(f"site: {page}: input change -> updated odds (median)", statistics.median(times[1:]), "ms", 150)
    python = sum(f.stat().st_size for d in [site / "_static" / "python", *site.glob("_static/pyodide-*")] for f in d.iterdir())
    print(f"{'site: a first visit downloads (page, scripts, Python)':<58} {statistics.median(downloads) / 1e6:8.1f} MB"
          f"   (of which Python: {python / 1e6:.1f} MB; the whole site: {sum(f.stat().st_size for f in site.rglob('*') if f.is_file()) / 1e6:.0f} MB)")


def crowds_only():
    "`python tests/bench.py --crowd`: only the pages-at-once figures, on a server of their own."
    from tests import conftest
    from playwright.sync_api import sync_playwright
    with conftest.serve_dashboards() as (url, proc), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
        crowds(browser, url, proc)
        browser.close()


MULTIPLIED_WORST = ("1d100x50+1d500+1d4x997+10d20x50", "1d500+1d100x100+32d4x10+21d4x2", "20d10x50+11d20+62d4")  # near MAX_SUMS
DICE_WORST = ("100d10", "100d10r<=9", "20d20kh19", "4d100kh3", "13d5!kh12", "16d10!", "100d10!>=8", "20d20kh10>=10",
              "1d166!", "20d20kh19+20d20kh18+10d20")  # the largest the caps allow, of each kind


def dice_notation():
    "The dice notation's caps: no expression they allow costs more than 2 s or 500 MB (first call, fresh process)."
    import random
    from besm_nb import dice
    code = ("import resource, sys, time; from besm_nb.dice import dist; t, c = time.perf_counter(), time.process_time(); "
            "dist(sys.argv[1]); print(time.perf_counter() - t, time.process_time() - c, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)")
    worst = (0.0, 0.0, 0.0)
    for expr in size(DICE_WORST, ("4d6kh3", "6d10!>=8")):
        out = subprocess.run([sys.executable, "-c", code, expr], capture_output=True, text=True, check=True).stdout.split()
        wall, cpu, mb = map(float, out)
        print(f"{'dist(' + repr(expr) + '), fresh process':<58} {wall * 1000:8.1f} ms   (CPU {cpu * 1000:.0f} ms, peak {mb:.0f} MB)")
        worst = (max(worst[0], wall), max(worst[1], cpu), max(worst[2], mb))
    report("dice notation: slowest allowed expression, CPU time", worst[1], "s", 2)
    print(f"{'dice notation: slowest allowed expression, wall time':<58} {worst[0]:8.3f} s   (the machine's load adds to it)")
    report("dice notation: largest peak memory of those processes", worst[2], "MB", 500)
    long = " + ".join(["10d10!r<=2kh3"] * 12) + " + 1d4"  # 195 characters, 13 terms
    for expr in size(MULTIPLIED_WORST, ("d100x100+d100",)):  # the caps on totals and sums: the slowest they allow
        t, c = time.perf_counter(), time.process_time()
        dice._counts.cache_clear(); dice.odds_rows(expr); dice.stats(expr)
        print(f"{'odds of ' + repr(expr) + ' (dist, rows, stats)':<58} {(time.perf_counter() - t) * 1000:8.1f} ms   (CPU {(time.process_time() - c) * 1000:.0f} ms)")
    report("parse a 195-character expression (median)", median_ms(lambda: dice.parse(long, exact=False), 500), "ms", 1)
    rng = random.Random(1)
    report("roll('100d100kh50') with every die shown (median)", median_ms(lambda: str(dice.roll("100d100kh50", rng)), 200), "ms", 5)
    cli = Path(sys.executable).parent / "besm-nb"
    if cli.exists():
        import resource
        walls, cpus = [], []
        for _ in range(size(5, 1)):
            before, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run([str(cli), "--help"], capture_output=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls.append(time.perf_counter() - t); cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        report("besm-nb --help, fresh process (median CPU time)", statistics.median(cpus), "s", 0.3)
        print(f"{'besm-nb --help, fresh process (median wall time)':<58} {statistics.median(walls):8.3f} s   (the machine's load adds to it)")
    report("bounds('100d1000!'), too large for odds (first call)", median_ms(lambda: dice.bounds("100d1000!"), 1, setup=dice._bounds.cache_clear), "ms", 2000)


# -- the trackers on the site: live in the reader's browser, saved on the device, kept for offline use -----------------
def ten_rounds(folder: Path) -> dict:
    "Each tracker played for ten rounds (two with --quick; or to its end) with its autosave in `folder`/<kind>: (rounds played, steps to undo)."
    ROUNDS = size(10, 2)
    import ipywidgets  # noqa: F401  (the trackers' widgets)
    from besm_nb.ui.anime_d20.damage import WoundsTracker
    from besm_nb.ui.besm_d20.battles import BattleTracker
    from besm_nb.ui.besm_d20.chase import ChaseTracker
    from besm_nb.ui.besm_d20.classless import ClasslessPanel
    from besm_nb.ui.besm_d20.damage_saves import DamageSaveTracker
    from besm_nb.ui.besm_d20.fate_points import FateLedgerPanel
    from besm_nb.ui.besm_d20.units import UnitTracker
    from besm_nb.ui.encounters.exertion import StaminaTracker
    from besm_nb.ui.tristat.round import Tracker as FightTracker

    def fight(t):  # four fighters; each round: initiative, then each acts on the next one standing
        for name, acv, dcv, power in [("Aiko", 8, 6, 40), ("Ben", 7, 5, 30), ("Chiyo", 6, 5, 30), ("Daigo", 7, 6, 35)]:
            t.f_name.value, t.f_acv.value, t.f_dcv.value, t.f_power.value, t.f_health.value = name, acv, dcv, power, 200
            t.add_button.click()
        for _ in range(ROUNDS):
            t.roll_init_button.click()
            for _ in range(8):
                standing = [n for n, c in t.fight.now()[0].items() if n != t.who.value and c.health > 0]
                if not (t.who.options and standing): break
                t.targets.value = (standing[0],)
                t.resolve_button.click()
            t.next_button.click()
        return ROUNDS

    def chase(t):
        t.lead_in.value = "20"; t.start_button.click()
        for r in range(ROUNDS):
            if t.chase.over: return r
            t.pred.pick.value, t.prey.pick.value = "Gun It", "Pull Ahead"
            t.resolve_button.click()
        return ROUNDS

    def battle(t):
        t.start_button.click()
        for r in range(ROUNDS):
            if t.battle.state.over: return r
            t.turn_button.click()
        return ROUNDS

    def units(t):
        t.start_button.click(); t.init_button.click()
        for r in range(ROUNDS):
            for _ in range(6):
                if t.combat.state.over: return r
                if t.owing.options: t.morale_button.click(); continue
                acts = [v for _, v in t.action.options]
                if not acts: break
                t.action.value = "attack" if "attack" in acts else "charge" if "charge" in acts else acts[0]
                t.act_button.click()
            t.round_button.click()
            if t.owing.options: t.morale_button.click(); t.round_button.click()
            t.init_button.click()
        return ROUNDS

    def stamina(t):
        for name in ("Garth", "Ezra", "Mira"): t.f_name.value = name; t.b_add.click()
        for _ in range(ROUNDS):
            for name in ("Garth", "Ezra", "Mira"): t.who.value = name; t.b_act.click()
            t.b_end.click()
        return ROUNDS

    def each(*buttons):
        def play(t):
            for _ in range(ROUNDS):
                for b in buttons: getattr(t, b).click()
            return ROUNDS
        return play

    def saves_record(t):
        t.bonus.value = -2  # light hits: ten rounds without the target falling
        return each("roll_button", "round_button")(t)

    wounds = lambda t: each("damage", "heal")(type("W", (), {"damage": t.buttons["Damage"], "heal": t.buttons["Heal"]}))
    plays = {"Tri-Stat fight (4 fighters)": (FightTracker, fight), "BESM d20 chase": (ChaseTracker, chase),
             "wounds": (WoundsTracker, wounds), "damage-save record": (DamageSaveTracker, saves_record),
             "Fate Point ledger": (FateLedgerPanel, each("spend_button", "gain_button")),
             "classless ledger": (ClasslessPanel, each("buy_button", "session_button")),
             "narrative battle (default armies)": (BattleTracker, battle), "unit combat (default rosters)": (UnitTracker, units),
             "Encounters Stamina (3 characters)": (StaminaTracker, stamina)}
    try:
        from besm_nb.ui.special.car_chase import CarChaseTracker
        def car(t):
            for _ in range(ROUNDS): t.b_end.click()
            return ROUNDS
        plays["car chase (turns only)"] = (CarChaseTracker, car)
    except ImportError: pass
    out = {}
    for name, (cls, play) in plays.items():
        where = folder / cls.kind
        where.mkdir(parents=True)
        try:
            t = cls(saves=where)
            rounds = play(t)
        except Exception as e:  # a tracker whose controls changed: said, and the others still measured (--quick: it fails)
            if QUICK: raise
            print(f"storage: {name}: not measured ({type(e).__name__}: {e})")
            continue
        out[name] = (rounds, len(t._undo), sum(f.stat().st_size for f in where.iterdir()))
    return out


SITE_TRACKERS = {  # a tracker page -> one action: the button pressed, alternately with a second one
    "anime_d20/damage_ui.html": ("besm-damage", "besm-heal"),
    "tristat/round_ui.html": None,  # loading only: its actions need a fight set up first
}


def site_trackers(cold_runs=5, warm_runs=11, actions=21):
    "Tracker pages on the site: page -> tracker live (empty cache, warm), action -> new state, first visit bytes, storage."
    import functools, gzip, http.server, os, tempfile, threading
    from tests import conftest
    from playwright.sync_api import sync_playwright
    site = Path(__file__).resolve().parents[1] / "_site"
    if not (site / "sw.js").exists():
        print("site: not built (make docs): tracker figures skipped")
        return
    served = {"bytes": 0, "files": []}

    class Counting(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
        def copyfile(self, source, outputfile):
            served["bytes"] += os.fstat(source.fileno()).st_size
            served["files"].append(self.path.split("?")[0])
            super().copyfile(source, outputfile)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    server.handle_error = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    wait = "window.besmLive && window.besmLive.state !== 'loading'"

    def brotli(data: bytes) -> int:  # Node's brotli at the quality a host precompresses with (11)
        js = ("const z=require('zlib');const b=[];process.stdin.on('data',d=>b.push(d)).on('end',()=>process.stdout.write("
              "String(z.brotliCompressSync(Buffer.concat(b),{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length)))")
        return int(subprocess.run(["node", "-e", js], input=data, capture_output=True, check=True).stdout)

    def sizes(paths) -> tuple[int, int, int]:
        raw = gz = br = 0
        for p in dict.fromkeys(paths):
            f = site / p.lstrip("/")
            if f.is_dir(): f = f / "index.html"
            if not f.is_file(): continue
            data = f.read_bytes()
            raw, gz, br = raw + len(data), gz + len(gzip.compress(data, 6)), br + brotli(data)
        return raw, gz, br

    with sync_playwright() as p:
        for page, buttons in SITE_TRACKERS.items():
            url = f"{base}/{page}"
            cold, warm, warm_tracker, loads, before_live = [], [], [], [], None
            for i in range(cold_runs):  # a fresh profile on disk each time (a phone's browser keeps its cache there): empty cache and storage
                ctx = p.chromium.launch_persistent_context(tempfile.mkdtemp(prefix="besm-bench-"), executable_path=conftest.chromium_path(),
                                                           args=[*conftest.CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])
                pg = ctx.new_page()
                served.update(bytes=0, files=[])
                pg.goto(url); pg.wait_for_function(wait, timeout=180_000)
                state = pg.evaluate("window.besmLive")
                assert state["state"] == "live", state["errors"]
                cold.append(state["times"]["all"] / 1000); loads.append(os.getloadavg()[0])
                if i == 0:  # what the page needed before it was live; then all a first visit keeps for offline use
                    before_live = (served["bytes"], sizes(served["files"]))
                    pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=600_000)
                    visit = (served["bytes"], sizes(served["files"]))
                if i < cold_runs - 1: ctx.close()
            # a later visit: the site kept (its service worker installed, as after any first visit), the Python inflated
            pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=600_000)
            for _ in range(warm_runs):  # the same profile: the site kept, the Python inflated, the game in storage
                pg.goto(url); pg.wait_for_function(wait, timeout=180_000)
                times = pg.evaluate("window.besmLive.times")
                warm.append(times["all"] / 1000); loads.append(os.getloadavg()[0])
                warm_tracker.append(times.get("tracker", times["all"]) / 1000)
            print(f"{'site (' + page + '): machine load average while measured':<58} {statistics.median(loads):8.1f}     (2 cores)")
            report(f"site: {page}: tracker live, empty cache (median)", statistics.median(cold), "s", 4)
            report(f"site: {page}: tracker live, warm cache (median)", statistics.median(warm), "s", 1.5)
            q1, _, q3 = statistics.quantiles(warm, n=4)  # one load varies by a third on a shared 2-core machine: the spread says how far to trust the median
            print(f"{'site: warm cache, middle half of the loads':<58} {q1:8.3f} – {q3:.3f} s   ({warm_runs} loads, fastest {min(warm):.3f} s)")
            print(f"{'site: warm cache, the tracker itself drawn live (median)':<58} {statistics.median(warm_tracker):8.3f} s"
                  f"   (made first; the page's calculators follow)")
            raw, (r, g, b) = before_live
            print(f"{'site: first visit, before the tracker is live':<58} {raw / 1e6:8.1f} MB   (a compressing host: gzip {g / 1e6:.1f} MB, brotli {b / 1e6:.1f} MB)")
            raw, (r, g, b) = visit
            print(f"{'site: first visit, with the whole site kept offline':<58} {raw / 1e6:8.1f} MB   (gzip {g / 1e6:.1f} MB, brotli {b / 1e6:.1f} MB)")
            if buttons:  # an action -> the tracker's new state on screen (saved in storage before the next one is taken)
                times = []
                for k in range(actions):
                    times.append(pg.evaluate("""button => new Promise(done => {
                        const note = document.querySelector('.besm-live .besm-history'), was = note.innerText, t = performance.now();
                        const seen = new MutationObserver(() => { if (note.innerText !== was) { seen.disconnect(); done(performance.now() - t); } });
                        seen.observe(note, {childList: true, subtree: true, characterData: true});
                        document.querySelector(`.besm-live button.${button}`).click();
                    })""", buttons[k % 2]))
                    pg.wait_for_timeout(100)
                report(f"site: {page}: action -> new state, saved (median)", statistics.median(times[1:]), "ms", 150)
            ctx.close()
    server.shutdown()
    storage()


def play_clicks():
    """The taps a GM spends on scripted actions, played through the page at 1366 x 900 (a tap, a tick, a choice picked or
    a box filled counts one; the dice are rolled here, so none are typed): a Tri-Stat attack with no answer (<= 2), one
    answered by a dodge (<= 3), a round of four fighters (<= 10); a car-chase hit (<= 3) and its control roll (1)."""
    from tests import conftest
    from tests.dashboards.test_home_dice_tristat import add_fighters, fresh_fight, in_turn
    from playwright.sync_api import sync_playwright, expect
    taps = []
    def tap(locator, check=False):
        (locator.check if check else locator.click)(); taps.append(1)
    with conftest.serve_dashboards() as (url, proc), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
        pg = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        t = fresh_fight(pg, url)
        order = ["Aiko", "Rei", "Ninja", "Oni"]
        add_fighters(pg, t, [("Aiko", 8, 6, 20), ("Oni", 5, 5, 10), ("Rei", 7, 6, 15), ("Ninja", 6, 6, 12)])
        pg.locator(".besm-typed-dice input").fill("6 1 4 3")  # initiative typed once, so the order is the script's
        counts = {}
        taps.clear(); tap(t.get_by_role("button", name="Roll initiative")); in_turn(pg, order, "Aiko")
        def attack(target, after, dodge=False):
            n = len(taps)
            tap(t.locator(".besm-targets").get_by_label(target, exact=True), check=True)
            expect(t.locator(".besm-targets .besm-ticked")).to_contain_text(f"Ticked: {target}")
            if dodge: tap(t.locator(".besm-quick-answer").filter(has_text=target).get_by_label("dodge", exact=True), check=True)
            tap(t.get_by_role("button", name="Resolve"))
            if after: in_turn(pg, order, after)
            else: expect(pg.locator(".besm-order .besm-turn")).to_contain_text("Everyone has acted")
            return len(taps) - n
        counts["attack, no answer"] = attack("Oni", "Rei")
        counts["attack, dodged"] = attack("Ninja", "Ninja", dodge=True)
        attack("Aiko", "Oni"); attack("Rei", None)
        report("taps: a Tri-Stat attack with no answer", counts["attack, no answer"], "taps", 2)
        report("taps: a Tri-Stat attack answered by a dodge", counts["attack, dodged"], "taps", 3)
        report("taps: a Tri-Stat round of four fighters", len(taps), "taps", 10)
        car_chase_taps(pg, url, tap, taps)
        browser.close()


def car_chase_taps(pg, url, tap, taps):
    """A car-chase hit on the vehicle in view, at its rider (its damage, where, Resolve hit: <= 3), then the control roll
    it calls for (<= 1). The hit's dice are typed before counting, as the Tri-Stat initiative is."""
    from playwright.sync_api import expect
    from tests.dashboards.test_special_tracker_and_melee import add_vehicle, fill, fresh_chase
    t = fresh_chase(pg, url)
    add_vehicle(t, "Roadster", "car", "Vic", 13, 60)
    add_vehicle(t, "Bike", "motorcycle", "Kai", 12, 50, 0.25)
    expect(pg.locator(".besm-order .besm-current")).to_have_attribute("data-name", "Bike", timeout=30_000)  # the last added, in view
    fill(t, "besm-typed", "7")  # 2d6 of 7 at the rider
    taps.clear()
    box = t.locator(".besm-damage input").first
    tap(box); box.fill("2d6"); box.press("Tab")
    tap(t.locator(".besm-where").first.get_by_label("Driver -3", exact=True), check=True)
    tap(t.locator("button.besm-resolve-hit"))
    expect(pg.locator(".besm-order .besm-turn")).to_contain_text("control roll now: Bike", timeout=30_000)
    report("taps: a car-chase hit (the rider of the vehicle in view)", len(taps), "taps", 3)
    taps.clear()
    tap(t.locator("button.besm-roll-control"))
    expect(pg.locator(".besm-order .besm-turn")).not_to_contain_text("control roll now", timeout=30_000)
    report("taps: a car-chase control roll", len(taps), "taps", 1)


COMPRESSIBLE = {".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt", ".webmanifest", ".map", ".ttf", ".eot", ""}


def compressing_handler(folder: Path, counted: dict):
    """A static host as the common ones are (no server-side code): a precompressed copy beside a file (.br, then .gz) when
    the browser takes it, else text and WebAssembly gzipped as sent; every byte sent counted in `counted['bytes']`."""
    import gzip, http.server, mimetypes, os
    mimetypes.add_type("application/wasm", ".wasm")
    mimetypes.add_type("text/javascript", ".mjs")

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass

        def send_head(self):
            path = Path(self.translate_path(self.path))
            if path.is_dir(): path = path / "index.html"
            if not path.is_file() or self.path.split("?")[0].endswith("/") and not (path.parent / "index.html").is_file():
                return super().send_head()
            accepts = self.headers.get("Accept-Encoding", "")
            body, encoding = None, None
            for enc, ext in (("br", ".br"), ("gzip", ".gz")):
                if enc in accepts and path.suffix not in (".gz", ".br") and path.with_name(path.name + ext).is_file():
                    body, encoding = path.with_name(path.name + ext).read_bytes(), enc
                    break
            if body is None:
                body = path.read_bytes()
                if "gzip" in accepts and path.suffix in COMPRESSIBLE and len(body) > 1024:
                    body, encoding = gzip.compress(body, 6), "gzip"
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Vary", "Accept-Encoding")
            self.send_header("Cache-Control", "no-cache")
            if encoding: self.send_header("Content-Encoding", encoding)
            self.end_headers()
            if self.command == "GET":  # a HEAD (the live worker asks which copy the host sends) moves no body
                counted["bytes"] = counted.get("bytes", 0) + len(body)
                counted.setdefault("files", []).append((self.path.split("?")[0], len(body)))
            import io
            return io.BytesIO(body)

    import functools
    return functools.partial(Handler, directory=str(folder))


LIGHTHOUSE_PAGES = {"home": "index.html", "chapter": "anime_d20/modifiers.html", "calculator": "core/dice_ui.html",
                    "tracker": "tristat/round_ui.html"}  # the four kinds of page (tests/test_a11y.py audits the same)


def site_lighthouse(site: Path | None = None):
    """Lighthouse (pinned: docs/build.py TOOLS) on the four kinds of page, its mobile profile (simulated slow 4G and a 4x
    slower CPU), the site on a compressing static host: the scores, Total Blocking Time (<= 1 s), and the bytes moved."""
    import http.server, json, os, tempfile, threading
    from tests import conftest
    from tests.a11y import build_module
    site = site or Path(__file__).resolve().parents[1] / "_site"
    if not (site / "index.html").exists():
        print("site: not built (make docs): Lighthouse figures skipped")
        return
    cli = build_module().tools() / "lighthouse" / "cli" / "index.js"
    counted = {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), compressing_handler(site, counted))
    server.daemon_threads = True
    server.handle_error = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = os.environ | {"CHROME_PATH": conftest.chromium_path()}
    print(f"{'lighthouse 12, mobile (' + str(site.name) + ')':<30} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'TBT ms':>8} {'LCP s':>6} {'bytes MB':>9} {'served MB':>9}")
    for kind, page in LIGHTHOUSE_PAGES.items():
        counted.clear()
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "report.json"
            r = subprocess.run(["node", str(cli), f"http://127.0.0.1:{server.server_port}/{page}", "--output=json", f"--output-path={out}",
                                "--quiet", "--only-categories=performance,accessibility,best-practices,seo", "--max-wait-for-load=120000",
                                f"--chrome-flags={' '.join(conftest.CHROMIUM_ARGS)}"], env=env, capture_output=True, text=True, timeout=600)
            if r.returncode or not out.exists():
                print(f"  {kind}: Lighthouse failed: {r.stderr[-500:]}")
                continue
            rep = json.loads(out.read_text())
            if os.environ.get("BESM_LIGHTHOUSE_REPORTS"):  # a folder to keep each report in, to read where the time goes
                Path(os.environ["BESM_LIGHTHOUSE_REPORTS"]).mkdir(parents=True, exist_ok=True)
                (Path(os.environ["BESM_LIGHTHOUSE_REPORTS"]) / f"{kind}.json").write_text(out.read_text())
        score = {k: round(100 * (v["score"] or 0)) for k, v in rep["categories"].items()}
        audits = rep["audits"]
        tbt = audits["total-blocking-time"]["numericValue"]
        print(f"  {kind + ': ' + page:<28} {score['performance']:>5} {score['accessibility']:>5} {score['best-practices']:>5} {score['seo']:>5} "
              f"{tbt:>8.0f} {audits['largest-contentful-paint']['numericValue'] / 1000:>6.1f} "
              f"{audits['total-byte-weight']['numericValue'] / 1e6:>9.1f} {counted.get('bytes', 0) / 1e6:>9.1f}", flush=True)
        failed = [a["id"] for a in audits.values() if a.get("score") == 0 and a["id"] in {r["id"] for r in rep["categories"]["accessibility"]["auditRefs"]}]
        if failed: print(f"    accessibility audits failed: {', '.join(failed)}")
        if not QUICK: report(f"site: {page}: Total Blocking Time, Lighthouse mobile", tbt / 1000, "s", 1)
    server.shutdown()


def site_first_visit(site: Path | None = None, pages=("core/dice_ui.html", "tristat/round_ui.html")):
    """What a first visit moves over the wire from a compressing static host (see `compressing_handler`): until the page's
    calculators are live (<= 10 MB), then until the whole site is kept for offline use."""
    import http.server, tempfile, threading
    from tests import conftest
    from playwright.sync_api import sync_playwright
    site = site or Path(__file__).resolve().parents[1] / "_site"
    if not (site / "sw.js").exists():
        print("site: not built (make docs): first visit figures skipped")
        return
    counted = {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), compressing_handler(site, counted))
    server.daemon_threads = True
    server.handle_error = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with sync_playwright() as p:
        for page in pages:
            counted.clear()
            with tempfile.TemporaryDirectory() as profile:
                ctx = p.chromium.launch_persistent_context(profile, executable_path=conftest.chromium_path(), args=conftest.CHROMIUM_ARGS)
                pg = ctx.new_page()
                pg.goto(f"http://127.0.0.1:{server.server_port}/{page}")
                pg.wait_for_function("window.besmLive && window.besmLive.state !== 'loading'", timeout=180_000)
                live, files = counted.get("bytes", 0), list(counted.get("files", []))
                pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=600_000)
                kept = counted.get("bytes", 0)
                ctx.close()
            report(f"site: {page}: first visit until live, compressed", live / 1e6, "MB", 10)
            print(f"{'site: ... and with the whole site kept offline':<58} {kept / 1e6:8.1f} MB   (largest: "
                  + ", ".join(f"{f.rsplit('/', 1)[-1]} {n / 1e6:.1f}" for f, n in sorted(files, key=lambda x: -x[1])[:4]) + ")")
    server.shutdown()


def storage():
    "The storage each tracker's autosave takes after ten rounds (no browser: the trackers are played here)."
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for name, (rounds, steps, size_) in ten_rounds(Path(tmp)).items():
            print(f"{'storage: ' + name + f', {rounds} rounds':<58} {size_ / 1e3:8.1f} kB   ({steps} steps to undo)")


if __name__ == "__main__":
    if QUICK:  # every figure but the browser ones, small (tests/test_bench_quick.py; the browser tests cover those pages)
        start, took = time.perf_counter(), []
        for part in (core, dice_notation, encounters, special, storage):
            t = time.perf_counter(); part(); took.append(f"{part.__name__} {time.perf_counter() - t:.1f} s")
        print(f"bench --quick: every figure computed in {time.perf_counter() - start:.1f} s ({', '.join(took)}; "
              f"load average {__import__('os').getloadavg()[0]:.1f})")
        sys.exit()
    if "--crowd" in sys.argv:  # only the pages-at-once figures
        crowds_only()
        sys.exit()
    if "--play" in sys.argv:  # only the table figures: the server's memory and the taps of scripted actions
        server_memory()
        play_clicks()
        sys.exit()
    if any(a.startswith("--lighthouse") for a in sys.argv):  # only Lighthouse's figures (--lighthouse=PATH: another built site, e.g. an older copy)
        arg = next(a for a in sys.argv if a.startswith("--lighthouse"))
        site_lighthouse(Path(arg.split("=", 1)[1]) if "=" in arg else None)
        site_first_visit(Path(arg.split("=", 1)[1]) if "=" in arg else None)
        sys.exit()
    if "--site" in sys.argv:  # only the live site's figures
        for page in SITE_CHANGES: site_live(page=page)
        site_trackers()
        site_lighthouse()
        site_first_visit()
        sys.exit()
    core()
    dice_notation()
    encounters()
    special()
    if "--no-browser" not in sys.argv:
        server_memory()
        play_clicks()
        dashboards()
        for page in SITE_CHANGES: site_live(page=page)
        site_trackers()
        site_lighthouse()
        site_first_visit()
