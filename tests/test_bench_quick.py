"""`make bench` once, small: every figure but the browser ones computed at a small size (`tests/bench.py --quick`), so
that the bench cannot rot unseen again (its chase figure once stopped on a save without `now`, and nothing after it ran).
Nothing is timed against its target here: that is `make bench`'s work, on a quiet machine."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# one figure of each part of the bench: each must be printed
FIGURES = ("dist('20d6') median", "Tri-Stat: resolve a 5-combatant round", "resolve_attack(12d8", "impact_odds(98d6",
           "group_resistance_odds(500 targets", "Chase: load a 30-round save", "Chase: capture_odds 3 rounds", "Load a 30-event damage record",
           "Narrative battle: battle_odds over 2 turns", "Unit combat: load a 20-action save", "Narrative battle: load a 20-turn save",
           "import besm_nb.dice, besm_nb.checks", "dist('6d10!>=8'), fresh process", "odds of 'd100x100+d100'", "besm-nb --help",
           "Encounters: load a 40-event Stamina save", "vehicle_hit_odds(car engine aimed, 20d6)", "car chase: load a 40-step save",
           "group melee panel", "storage: Tri-Stat fight (4 fighters), 2 rounds", "storage: car chase (turns only), 2 rounds")


def test_the_bench_runs_every_figure():
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "bench.py"), "--quick"], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
    assert "not measured" not in r.stdout and "OVER TARGET" not in r.stdout
    missing = [f for f in FIGURES if f not in r.stdout]
    assert missing == [], missing
    assert r.stdout.rstrip().splitlines()[-1].startswith("bench --quick: every figure computed in ")
