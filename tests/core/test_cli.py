"""`besm-nb`, the command line, run as a user runs it: a subprocess, its output, its errors and its exit status."""
import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from besm_nb.dice import roll

BESM_NB = Path(sys.executable).parent / "besm-nb"  # the console script the package installs


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BESM_NB), *args], capture_output=True, text=True, timeout=120)


def test_roll_shows_the_dice_and_the_total_and_replays_by_seed():
    r = run("roll", "4d6kh3", "--seed", "7")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.strip() == f"seed 7: {roll('4d6kh3', random.Random(7))}" == "seed 7: 4d6kh3 → 3+4+6 (dropped 2) = 13"
    again = run("roll", "4d6kh3", "--seed", "7")
    assert again.stdout == r.stdout
    fresh = run("roll", "d20r1")  # no seed: one is chosen and printed, so the roll can still be replayed
    seed = int(fresh.stdout.split(":")[0].split()[1])
    assert fresh.stdout.strip() == f"seed {seed}: {roll('d20r1', random.Random(seed))}"


def test_roll_json_for_scripts():
    data = json.loads(run("roll", "6d10!>=8", "--seed", "3", "--times", "2", "--json").stdout)
    rng = random.Random(3)
    want = [roll("6d10!>=8", rng) for _ in range(2)]
    assert [r["total"] for r in data["rolls"]] == [w.total for w in want]
    assert [r["faces"] for r in data["rolls"]] == [list(w.faces) for w in want]
    assert data["rolls"][0]["terms"][0]["term"] == "6d10!>=8"


def test_odds_table_has_exact_odds_with_at_least_and_at_most():
    r = run("odds", "2d6+3")
    lines = r.stdout.splitlines()
    assert lines[0] == "2d6+3: 5 to 15, mean 10, spread (sd) 2.42"
    assert lines[1].split() == ["total", "chance", "%", "at", "least", "at", "most"]
    assert lines[2].split() == ["5", "1/36", "2.78%", "100.00%", "2.78%"]
    assert lines[7].split() == ["10", "1/6", "16.67%", "58.33%", "58.33%"]
    data = json.loads(run("odds", "2d20kl1", "--json").stdout)
    by_total = {row["total"]: row for row in data["odds"]}
    assert by_total[11]["at_least"]["exact"] == "1/4"  # disadvantage against DC 11
    assert sum(Fraction(row["chance"]["exact"]) for row in data["odds"]) == 1


def test_check_gives_degrees_of_success_with_their_odds():
    r = run("check", "d20", "--bonus", "5", "--dc", "15")
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "d20 +5 against DC 15: success 11/20 (55.00%)"
    assert "Extreme Success" in r.stdout and "Overwhelming Failure" in r.stdout
    r = run("check", "2d6", "--target", "9")
    assert r.stdout.splitlines()[0] == "2d6 at or under 9: success 5/6 (83.33%)"
    assert [l.split()[-2:] for l in r.stdout.splitlines()[2:]] == [["1/36", "2.78%"], ["29/36", "80.56%"], ["1/6", "16.67%"]]


@pytest.mark.parametrize("argv,key", [
    (("tristat-attack", "--acv", "8", "--power", "20", "--dodge", "--dcv", "5"), "health_lost"),
    (("d20-attack", "--bonus", "5", "--ac", "15", "--damage", "2d6+3", "--hp", "8"), "below_zero"),
    (("damage-save", "--save", "3", "--dc", "15"), "results"),
    (("chase-round", "--predator", "Gun It", "--prey", "Zig-Zag"), "outcome"),
    (("vehicle-hit", "6d6+2"), "outcomes"),
])
def test_each_systems_odds_from_its_own_functions(argv, key):
    r = run(*argv, "--json")
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    data = json.loads(r.stdout)
    assert key in data
    text = run(*argv)
    assert text.returncode == 0 and text.stdout.strip()


def test_the_numbers_are_the_libraries():
    from besm_nb.anime_d20.combat import attack_odds
    from besm_nb.besm_d20.damage_saves import damage_save_odds
    from besm_nb.tristat.combat import health_lost_odds, hit_odds
    d = json.loads(run("tristat-attack", "--acv", "8", "--power", "20", "--json").stdout)
    assert d["hit"]["exact"] == str(hit_odds(8)) == "13/18"
    assert {int(k): Fraction(v["exact"]) for k, v in d["health_lost"].items()} == health_lost_odds(20, 8)
    d = json.loads(run("d20-attack", "--bonus", "5", "--ac", "15", "--damage", "2d6+3", "--json").stdout)
    assert {int(k): Fraction(v["exact"]) for k, v in d["damage"].items()} == attack_odds(5, 15, "2d6+3").damage
    d = json.loads(run("damage-save", "--save", "3", "--dc", "15", "--attack", "stun", "--json").stdout)
    assert {k: Fraction(v["exact"]) for k, v in d["results"].items()} == damage_save_odds(3, 15, "stun")


def test_refusals_go_to_stderr_in_the_rules_words_with_a_nonzero_exit():
    r = run("roll", "4d6kq3")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == ("besm-nb roll: expr: 'k' (keep the highest) needs a whole number after it (e.g. 4d6kh3) at position 5 of "
                        "'4d6kq3': found 'q' (4d6k‸q3)\n  4d6kq3\n      ^\n")
    r = run("check", "d20", "--bonus", "5", "--dc", "999")
    assert r.returncode == 1 and r.stderr.startswith("besm-nb check: dc: must be from") and r.stdout == ""
    r = run("damage-save", "--save", "3", "--dc", "15", "--attack", "gentle")  # a name not in the list: a usage error that lists them
    assert r.returncode == 2 and "argument --attack: invalid choice: 'gentle' (choose from 'stun', 'lethal')" in r.stderr
    r = run("odds", "100d100")
    assert r.returncode == 1 and "exact odds are kept to 1,000" in r.stderr and "can still be rolled" in r.stderr
    r = run("check", "2d6")  # a usage error: argparse's own message and status 2
    assert r.returncode == 2 and "a 2d6 check needs --target" in r.stderr
    r = run("roll")
    assert r.returncode == 2 and "expr" in r.stderr


@pytest.mark.parametrize("command", ["roll", "odds", "check", "tristat-attack", "d20-attack", "damage-save", "chase-round",
                                     "vehicle-hit"])
def test_every_command_has_help(command):
    r = run(command, "--help")
    assert r.returncode == 0 and f"usage: besm-nb {command}" in r.stdout and "example:" in r.stdout


def test_help_is_fast_and_imports_nothing_heavy():
    code = ("import sys, time; t = time.perf_counter(); from besm_nb.cli import main, build_parser; build_parser(); "
            "print(time.perf_counter() - t, *(m in sys.modules for m in ('icepool', 'sympy', 'ipywidgets', 'besm_nb.dice')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[1:] == ["False"] * 4  # the rules load only when a command needs them
    r = run("--help")
    assert r.returncode == 0 and "dashboards" in r.stdout and "roll" in r.stdout


def test_dashboards_help_is_the_servers():
    r = run("dashboards", "--help")
    assert r.returncode == 0 and "usage: besm-nb dashboards" in r.stdout and "--port" in r.stdout


# ---- issue 31 items 36 to 38: the command line as a new user meets it ----

import os

BESM_DASHBOARDS = Path(sys.executable).parent / "besm-dashboards"


def test_a_checks_usage_error_names_check_not_the_last_command():
    r = run("check", "d20", "--bonus", "5")
    assert r.returncode == 2 and r.stderr.startswith("usage: besm-nb check ")
    assert "besm-nb check: error: a d20 check needs --bonus and --dc" in r.stderr and "vehicle-hit" not in r.stderr


@pytest.mark.parametrize("argv", [[str(BESM_DASHBOARDS)], [str(BESM_DASHBOARDS), "--help"], [str(BESM_NB), "dashboards"],
                                  [str(BESM_NB), "dashboards", "--help"]])
def test_without_the_dashboards_extra_one_line_says_how_to_install_it(argv, tmp_path):
    for name in ("voila", "ipywidgets"):  # stand-ins that fail to import, as a missing package does
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ModuleNotFoundError({'No module named ' + name!r}, name={name!r})\n")
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=os.environ | {"PYTHONPATH": str(tmp_path)})
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.endswith('is not installed: pip install "besm_nb[dashboards]"\n')


def test_python_dash_m_runs_the_command_line():
    from besm_nb import __version__
    r = subprocess.run([sys.executable, "-m", "besm_nb", "--version"], capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout.strip()) == (0, f"besm-nb {__version__}")
    r = subprocess.run([sys.executable, "-m", "besm_nb", "roll", "4d6kh3", "--seed", "7"], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "seed 7: 4d6kh3 → 3+4+6 (dropped 2) = 13"


def test_the_dashboards_server_answers_for_itself():
    from besm_nb import __version__
    r = subprocess.run([str(BESM_DASHBOARDS), "--version"], capture_output=True, text=True, timeout=120)
    assert (r.returncode, r.stdout.strip()) == (0, f"besm-dashboards {__version__}")  # not Voila's version
    for bad, why in [(["--prot", "9000"], "unrecognized arguments: --prot"), (["--port", "70000"], "must be from 1 to 65535, got 70000"),
                     (["--port", "0"], "must be from 1 to 65535, got 0"), (["--port", "-1"], "must be from 1 to 65535")]:
        r = subprocess.run([str(BESM_DASHBOARDS), *bad], capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and why in r.stderr and r.stderr.startswith("usage: besm-dashboards"), (bad, r.stderr[-300:])


def test_a_server_that_cannot_write_its_folders_says_so_in_one_line(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    r = subprocess.run([str(BESM_DASHBOARDS), "--port", "9"], capture_output=True, text=True, timeout=120,
                       env=os.environ | {"BESM_NB_SAVES": str(blocked / "saves")})  # a folder inside a file cannot be made
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("besm-dashboards: cannot start: ")


def test_ranges_are_said_in_a_few_words():
    r = run("roll", "2d6", "--times", "0")
    assert r.returncode == 2 and r.stderr.splitlines()[-1] == "besm-nb roll: error: argument --times: must be from 1 to 100, got 0"


def test_a_dodge_needs_a_dcv_and_the_headline_gives_the_chance_after_it():
    r = run("tristat-attack", "--acv", "8", "--power", "20", "--dodge")
    assert r.returncode == 2 and "--dodge needs --dcv" in r.stderr
    r = run("tristat-attack", "--acv", "8", "--power", "20", "--dodge", "--dcv", "5", "--json")
    data = json.loads(r.stdout)
    assert (data["hit"]["exact"], data["lands"]["exact"]) == ("13/18", "169/324")  # hit 13/18, then a DCV 5 dodge fails 13/18
    lost = {int(k): Fraction(v["exact"]) for k, v in data["health_lost"].items()}
    assert 1 - lost[0] == Fraction(169, 324)  # the headline agrees with the odds below it
    assert run("tristat-attack", "--acv", "8", "--power", "20", "--dodge", "--dcv", "5").stdout.startswith("ACV 8: lands 169/324 (52.16%)")


def test_a_negative_expression_prints_its_bracket_and_negative_damage_is_refused():
    r = run("roll", "--seed", "1", "--", "-3d6")
    total = roll("-3d6", random.Random(1))
    assert r.stdout.strip() == f"seed 1: -3d6 → -[{'+'.join(map(str, total.faces))}] = {total.total}"
    for damage in ("-5", "1d6-10"):
        r = run("vehicle-hit", "--", damage)
        assert r.returncode == 1 and "is always below 0" in r.stderr


def test_a_terminal_that_cannot_show_an_arrow_still_gets_the_answer():
    r = subprocess.run([str(BESM_NB), "roll", "4d6kh3", "--seed", "7"], capture_output=True, timeout=60,
                       env=os.environ | {"PYTHONIOENCODING": "ascii"})
    assert (r.returncode, r.stdout.decode("ascii").strip(), r.stderr) == (0, "seed 7: 4d6kh3 -> 3+4+6 (dropped 2) = 13", b"")
    r = subprocess.run([str(BESM_NB), "roll", "4d6kq3"], capture_output=True, timeout=60, env=os.environ | {"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 1 and b"(4d6k^q3)" in r.stderr and b"Traceback" not in r.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
def test_a_full_disk_gives_a_message_not_a_traceback():
    with open("/dev/full", "w") as full:
        r = subprocess.run([str(BESM_NB), "odds", "2d6"], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr == "besm-nb odds: could not write the answer: No space left on device\n"


def test_names_in_any_case_and_listed_by_help():
    base = run("chase-round", "--predator", "Gun It", "--prey", "Zig-Zag", "--terrain", "close", "--json").stdout
    assert run("chase-round", "--predator", "gun it", "--prey", "ZIG-ZAG", "--terrain", "Close", "--json").stdout == base
    assert run("damage-save", "--save", "3", "--dc", "15", "--attack", "LETHAL").returncode == 0
    assert run("vehicle-hit", "2d6", "--vehicle", "Motorcycle", "--location", "gas tank", "--ammo", "Tracer").returncode == 0
    assert run("d20-attack", "--bonus", "5", "--ac", "15", "--damage", "2d6", "--crit", "Twice").returncode == 0
    helped = " ".join(run("chase-round", "--help").stdout.split())
    from besm_nb.besm_d20.chase import PREDATOR_MANOEUVRES, PREY_MANOEUVRES, TERRAINS
    assert all(n in helped for n in PREDATOR_MANOEUVRES + PREY_MANOEUVRES + TERRAINS)
    from besm_nb.special.vehicles import AMMO, FACINGS, VEHICLES
    helped = " ".join(run("vehicle-hit", "--help").stdout.split())
    assert all(n in helped for n in AMMO + FACINGS + VEHICLES)
