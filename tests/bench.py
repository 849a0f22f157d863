"""`make bench`: the performance figures, measured (targets in brackets).

* dist("20d6") median (<= 5 ms), d20_check_odds and tristat_check_odds medians (<= 1 ms);
* `import besm_nb.dice, besm_nb.checks` in a fresh process (<= 0.3 s), importing neither sympy nor ipywidgets;
* Tri-Stat: a 5-combatant round resolved (<= 2 ms), the combat odds (<= 5 ms each);
* Anime d20: the full attack resolver on a 12d8 attack (<= 20 ms);
* Anime d20 damage: a fall's and the largest crash's exact damage, shock odds; mind combat, group saves at their cap of
  500 targets (important characters included), XP;
* chases: one round resolved (<= 1 ms), the exact capture analysis over 20 rounds (<= 1 s), loading a 9,000-round save
  (<= 2 s, <= 100 MB at its peak: loading grows linearly with the rounds);
* BESM d20 damage saves: the exact odds of one Damage Save, with hits and a pulled punch (<= 2 ms);
* Encounters: a round planned (Fred the Swift), a range band, charge damage and its exact odds, Initiative odds and
  who goes first, a Stamina step and its undo in a 250-event fight (<= 1 ms each); loading that fight (<= 20 ms);
* narrative battles: one turn resolved (<= 1 ms), the battle odds over 16 turns (<= 1 s); a unit attack's exact odds;
* special situations: the vehicle damage resolver's exact odds of one hit (<= 5 ms), with its caches cleared and warm;
* dashboards in headless Chromium with preheated kernels: page request to first widget visible (<= 1.5 s median),
  for the checks page, the Tri-Stat tracker and, as Voila's own floor, a notebook showing a single label;
  and input change to updated output (<= 100 ms median); twenty sessions opened at once: p50 / p95 page load and
  the resident memory of the server with its twenty kernels;
* the rules site's live calculators (the built _site/ on a static server on 127.0.0.1, every other request blocked):
  page load to first calculator interactive with an empty cache (<= 4 s) and a warm one (<= 1.5 s), an input change
  to updated odds (<= 150 ms median), the bytes a first visit downloads, with the machine's load and the browser's CPU.
"""
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project root: `tests` is a package


def median_ms(fn, n=200, setup=None):
    times = []
    for _ in range(n):
        if setup: setup()
        t = time.perf_counter(); fn(); times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def report(name, value, unit, target):
    ok = "ok" if value <= target else "OVER TARGET"
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
    d20_damage()
    d20_mind()
    chase()
    damage_saves()
    battles()
    code = "import sys, time; t=time.perf_counter(); import besm_nb.dice, besm_nb.checks; " \
           "print(time.perf_counter()-t, 'sympy' in sys.modules, 'ipywidgets' in sys.modules)"
    walls, imports, heavy = [], [], set()
    for _ in range(7):
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
        report(f"Chase: capture_odds 20 rounds, {p[:8]} v {q[:10]} (median)",
               median_ms(lambda: capture_odds(car, bike, terrain, lead, p, q, rounds=20), 5, cold) / 1000, "s", 1)


def chase_load(rounds=9000):
    import json
    import tracemalloc
    from besm_nb.besm_d20.chase import Chase, ChaseRules, ChaseState, Mecha, chase_from_dict, chase_to_dict
    start = ChaseState(Mecha("A", drive=5, max_speed=1000, hp=100), Mecha("B", drive=5, max_speed=1000, hp=100), "close", 10, 60,
                       rules=ChaseRules(obstacles=False))
    data = chase_to_dict(Chase(start))
    data["rounds"] = [{"predator": {"manoeuvre": "Jockey"}, "prey": {"manoeuvre": "Set Up"}, "dice": [12, 10]}] * rounds  # ties: it runs on
    data.pop("now")
    data = json.loads(json.dumps(data))
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


def battles():
    import random
    from besm_nb.besm_d20.battle_odds import battle_odds, turn_odds
    from besm_nb.besm_d20.battles import General, Troops, army_from_troops, resolve_turn, start_battle
    from besm_nb.besm_d20.units import NISHIHAMA, Unit, attack_outlook, roll_initiative, start_combat
    samurai = army_from_troops("Samurai", General("Kenshin", 14, 8, 2, 5), [Troops("Foot", 2000, 1),
                               Troops("Horse", 500, 2, "cavalry", mount_hd=4, war_mount=True), Troops("Mecha", 100, 5, "mecha", big_mecha=2)])
    horde = army_from_troops("Raiders", General("Toghrul", 12, 6), [Troops("Foot", 4000, 1), Troops("Riders", 1000, 1, "cavalry", mount_hd=3)])
    b, rng = start_battle(samurai, horde, characters="A", party_size=3, party_level=4), random.Random(1)
    report("Narrative battle: resolve one turn (median)", median_ms(lambda: resolve_turn(b, dice=rng), 1000), "ms", 1)
    report("Narrative battle: turn_odds, exact (median)", median_ms(lambda: turn_odds(b), 200), "ms", 20)
    report("Narrative battle: battle_odds over 16 turns, 2,000 simulated (median)", median_ms(lambda: battle_odds(b, 16), 5) / 1000, "s", 1)
    even = start_battle(samurai, army_from_troops("Levy", General("Goro", 10, 2), [Troops("Foot", 5200, 1)]))
    report("Narrative battle: battle_odds over 16 turns, evenly matched (median)", median_ms(lambda: battle_odds(even, 16), 5) / 1000, "s", 1)
    goblins = Unit("Goblins", "B", 30, 10, attack=(1,), damage="1d6", ac=1, armour=2)
    s, _ = roll_initiative(start_combat([Unit("Host", "A", 30, 20, attack=(6, 1), damage="2d8+4"), goblins]), [20, 1])
    report("Unit combat: attack_outlook, 30 counters, two attacks (median)", median_ms(lambda: attack_outlook(s, "Host", "Goblins", "charge"), 10), "ms", 500)
    t, _ = roll_initiative(start_combat([NISHIHAMA, Unit("Goblins", "B", 10, 10, ac=1, armour=2)]), [20, 1])
    report("Unit combat: attack_outlook, the sample roster's charge (median)", median_ms(lambda: attack_outlook(t, NISHIHAMA.name, "Goblins", "charge"), 50), "ms", 50)


def d20_attack():
    from besm_nb import dice
    from besm_nb.anime_d20.modifiers import resolve_attack
    full = lambda: resolve_attack(8, 16, "12d8", ["moving vehicle, moderate speed", ("beyond melee: taking cover", -6)],
                                  defence_bonus=6, defence=["block"], object_armour=10, ranged=True, block_ranged_feat=True,
                                  nth_defence=2, armour=5, current_hp=40)
    report("resolve_attack(12d8, crit 24d8, Block, HP) median, cache cleared", median_ms(full, 50, setup=dice._counts.cache_clear), "ms", 20)
    report("resolve_attack(12d8, crit 24d8, Block, HP) median, cached", median_ms(full), "ms", 20)


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


# Voila's own floor: a notebook showing one label, served beside the dashboards and loaded the same way
FLOOR = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                    "source": "import ipywidgets as w\nb = w.Label('floor'); b.add_class('besm-calculator'); b"}],
         "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
         "nbformat": 4, "nbformat_minor": 5}
DASHBOARD_LOADS = ("dice_and_checks", "tristat_combat", "floor")


def dashboards(loads=11, changes=21, sessions=20, refill=10):
    import json, shutil, tempfile
    from tests import conftest
    from tests.dashboards.crowd import crowd
    from playwright.sync_api import sync_playwright
    folder = Path(tempfile.mkdtemp()) / "dashboards"
    shutil.copytree(conftest.ROOT / "nbs" / "dashboards", folder, ignore=shutil.ignore_patterns("saves"))
    (folder / "floor.ipynb").write_text(json.dumps(FLOOR))
    with conftest.serve_dashboards(folder=folder) as (url, proc):
        time.sleep(30)  # every dashboard's kernels are preheating at start
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
            time.sleep(5)
            c = crowd(browser, url, proc.pid, sessions=sessions)
            print(f"{f'{sessions} sessions at once: page -> first widget, p50 / p95':<58} {c.p50:8.1f} s / {c.p95:.1f} s"
                  f"   ({len(c.loads)} of {sessions} shown, {len(c.errors)} errors)")
            print(f"{f'{sessions} sessions at once: server + kernels resident memory':<58} {c.rss_mb:8.0f} MB")
            browser.close()


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


if __name__ == "__main__":
    if "--site" in sys.argv:  # only the live site's figures
        for page in SITE_CHANGES: site_live(page=page)
        sys.exit()
    core()
    encounters()
    special()
    if "--no-browser" not in sys.argv:
        dashboards()
        for page in SITE_CHANGES: site_live(page=page)
