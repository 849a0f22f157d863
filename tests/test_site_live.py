"""The site's calculators, live in the reader's browser: _site/ served by a plain static server on 127.0.0.1, every
other request blocked; inputs changed on two chapter pages, the shown answers checked against the library's."""
import functools
import http.server
import json
import random
import re
import threading

import pytest

from besm_nb.dice import roll
from besm_nb.ui.dice import dice_result
from besm_nb.ui.special.rolls import _contest, _success
from besm_nb.ui.tristat.combat import attack_result, defence_result
from tests.helpers import ROOT

SITE = ROOT / "_site"
pytestmark = [pytest.mark.docs, pytest.mark.browser]


class StaticServer(http.server.ThreadingHTTPServer):
    "Any static file server: no server-side code, no compression, nothing but the files."
    daemon_threads = True

    def handle_error(self, request, client_address): pass  # a browser dropping a connection is not news


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


@pytest.fixture(scope="module")
def site_url():
    if not (SITE / "index.html").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    server = StaticServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def reader(browser):
    "A reader's browser tab with an empty cache: requests leaving 127.0.0.1 are blocked and recorded, as are page errors."
    ctx = browser.new_context()
    ctx.set_default_navigation_timeout(90_000)  # as long as Python may take: a busy machine is slow to load the page too
    pg = ctx.new_page()
    pg.outside, pg.errors, pg.held = [], [], []
    def route(r):
        url = r.request.url
        if not url.startswith(("http://127.0.0.1", "data:", "blob:")):
            pg.outside.append(url)
            return r.abort()
        if getattr(pg, "hold", None) and pg.hold in url:  # a test holds this file back, to see the page meanwhile
            return pg.held.append(r)
        return r.continue_()
    ctx.route("**/*", route)  # the context's route also sees the workers' requests
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


def wait_live(pg, timeout=90_000):
    pg.wait_for_function("window.besmLive && window.besmLive.state !== 'loading'", timeout=timeout)
    state = pg.evaluate("window.besmLive")
    assert state["state"] == "live", state["errors"]
    return state


def text_of(pg, html: str) -> str:
    "What the library's HTML reads as on this page."
    return pg.evaluate("h => { const d = document.createElement('div'); d.innerHTML = h; document.body.append(d);"
                       " const t = d.innerText; d.remove(); return t; }", html)


def wait_output(pg, n: int, expected_html: str, calc: int = 0):
    "The live output of cell `n`'s calculator (the `calc`-th on it) reads exactly as the library's answer."
    want = text_of(pg, expected_html)
    pg.wait_for_function("([n, c, want]) => { const o = document.querySelectorAll(`.besm-live[data-cell='${n}'] .besm-output`)[c];"
                         " return o && o.innerText === want; }", arg=[n, calc, want], timeout=20_000)


def live_field(pg, n: int, name: str, kind: str = "input"):
    return pg.locator(f".besm-live[data-cell='{n}'] .besm-field-{name} {kind}").first


def set_int(pg, n, name, value):
    box = live_field(pg, n, name)
    box.fill(str(value))
    box.press("Tab")


def test_dice_box_is_live_and_computes_the_librarys_odds(site_url, reader):
    reader.goto(f"{site_url}/core/dice_ui.html")
    wait_live(reader)
    note = reader.locator(".besm-live-note").first
    assert note.get_attribute("data-state") == "live" and "computed in your browser" in note.inner_text()
    wait_output(reader, 0, dice_result("3d6").to_html())  # as the cell made it: dice_box("3d6", seed=7)
    expr = live_field(reader, 0, "expr")
    assert expr.is_enabled()
    for e in ("4d6", "2d6+1d4", "d%"):
        expr.fill(e)
        wait_output(reader, 0, dice_result(e).to_html())
    expr.fill("4d")  # a refusal, beside its field, naming it as labelled
    reader.locator(".besm-live[data-cell='0'] .besm-error", has_text="Dice expression: 'd' needs a number of sides").first.wait_for(timeout=10_000)
    expr.fill("4d6")
    wait_output(reader, 0, dice_result("4d6").to_html())
    # a seeded roll, logged with its seed: the library's roll for that seed
    seed = reader.locator(".besm-live[data-cell='0'] .besm-seed input").first
    seed.fill("4321")
    seed.press("Tab")
    reader.locator(".besm-live[data-cell='0'] .besm-roll").first.click()
    line = f"seed 4321: {roll('4d6', random.Random(4321))}"
    reader.locator(".besm-live[data-cell='0'] .besm-log", has_text=line).first.wait_for(timeout=10_000)
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


def test_tristat_combat_calculators_are_live_and_match_the_library(site_url, reader):
    reader.goto(f"{site_url}/tristat/combat_ui.html")
    state = wait_live(reader)
    assert state["shown"] == 2
    assert reader.locator(".besm-live-note[data-state='live']").count() == 2
    # hit and dodge: the reader's ACV, the defender's DCV and her second dodge
    wait_output(reader, 0, attack_result(8, 0, 5, 1, 0).to_html())
    set_int(reader, 0, "acv", 11)
    set_int(reader, 0, "dcv", 7)
    set_int(reader, 0, "nth", 2)
    wait_output(reader, 0, attack_result(11, 0, 7, 2, 0).to_html())
    # what a defence is worth: dodge and shield, a weaker attack, a hand-to-hand one
    defaults = dict(power=60, acv=8, attack_modifier=0, dcv=5, nth=1, shield=10, armour=0, counter_power=30, counter_acv=6, ranged=True)
    wait_output(reader, 1, defence_result("dodge", **defaults).to_html())
    live_field(reader, 1, "defence", "select").select_option("dodge + shield")
    set_int(reader, 1, "power", 40)
    live_field(reader, 1, "ranged").uncheck()
    wait_output(reader, 1, defence_result("dodge + shield", **(defaults | dict(power=40, ranged=False))).to_html())
    set_int(reader, 1, "power", -5)  # refused beside its own field
    reader.locator(".besm-live[data-cell='1'] .besm-error", has_text="Attack power").first.wait_for(timeout=10_000)
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


def test_special_situations_rolls_are_live_and_match_the_library(site_url, reader):
    "A page of a later wing: its three calculators live, the shown odds the library's for the inputs typed."
    reader.goto(f"{site_url}/special/rolls_ui.html")
    state = wait_live(reader)
    assert state["shown"] == 3
    wait_output(reader, 0, _success(12, 0, "basic").to_html())  # as the cell made it: success_calculator(seed=11)
    set_int(reader, 0, "skill", 15)
    set_int(reader, 0, "modifier", -2)
    live_field(reader, 0, "criticals", "select").select_option("none: the total alone")
    wait_output(reader, 0, _success(15, -2, "none").to_html())
    wait_output(reader, 1, _contest(12, 12, "basic").to_html())
    set_int(reader, 1, "skill_a", 14)
    set_int(reader, 1, "skill_b", 9)
    wait_output(reader, 1, _contest(14, 9, "basic").to_html())
    set_int(reader, 0, "skill", 99)  # refused beside its own field, as labelled
    reader.locator(".besm-live[data-cell='0'] .besm-error", has_text="Skill or attribute").first.wait_for(timeout=10_000)
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


def test_a_chapter_with_math_and_a_live_calculator_has_no_errors(site_url, reader):
    "The widget manager's label typesetting (MathJax 2's call) meets the site's MathJax 3 without an error; the maths shows."
    reader.goto(f"{site_url}/special/vehicles.html")
    assert wait_live(reader)["shown"] == 1
    reader.locator("mjx-container").first.wait_for(timeout=30_000)
    assert reader.locator(".besm-live .widget-checkbox").count() > 0
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)

def test_the_page_reads_while_python_loads(site_url, reader):
    "Text, tables and the snapshot show at once; the note says the calculator is loading; then it goes live."
    reader.hold = "python.snapshot"
    reader.goto(f"{site_url}/core/dice_ui.html")
    note = reader.locator(".besm-live-note").first
    reader.wait_for_function("document.querySelector('.besm-live-note').dataset.state === 'loading'", timeout=30_000)
    assert "Calculator loading" in note.inner_text()
    reader.locator(".widget-html.besm-output", has_text="3d6: 3 to 18").first.wait_for(timeout=30_000)  # the snapshot
    assert reader.locator(".cell_output .widget-text input").first.is_disabled()
    assert "Dice calculator" in reader.locator("h1").first.inner_text()
    reader.wait_for_function("n => window.besmLive.times.worker", arg=0, timeout=30_000)
    for r in reader.held: r.continue_()
    reader.hold = None
    wait_live(reader)
    assert live_field(reader, 0, "expr").is_enabled()


def test_if_python_cannot_start_the_snapshot_stays_with_its_note(site_url, reader):
    reader.route("**/python.snapshot.gz*", lambda r: r.fulfill(status=404, body="gone"))
    reader.goto(f"{site_url}/tristat/combat_ui.html")
    reader.wait_for_function("window.besmLive && window.besmLive.state === 'failed'", timeout=60_000)
    notes = reader.locator(".besm-live-note")
    assert notes.count() == 2
    for i in range(2):
        text = notes.nth(i).inner_text()
        assert "A snapshot" in text and "Tri-Stat" in text and "could not start" in text, text
    assert reader.locator(".besm-live").count() == 0
    inputs = reader.locator(".cell_output .widget-text input")
    assert inputs.count() > 0 and all(inputs.nth(i).is_disabled() for i in range(inputs.count()))


def test_every_calculator_and_tracker_is_live():
    "Each calculator page says which: a live note and a cell for Python to run (a tracker by its class), or the snapshot note naming the dashboard."
    pages = {p.relative_to(SITE).as_posix(): p.read_text() for p in SITE.rglob("*.html")}
    spec = {p: json.loads(re.search(r'id="besm-live-spec">(.*?)</script>', h, re.S).group(1).replace("<\\/", "</"))
            for p, h in pages.items() if 'id="besm-live-spec"' in h}
    for p in ["core/dice_ui.html", "core/checks_ui.html", "tristat/combat_ui.html", "anime_d20/combat_ui.html",
              "anime_d20/checks_ui.html", "anime_d20/damage_ui.html", "anime_d20/mind_ui.html", "tristat/combat.html"]:
        assert p in spec, p
        assert pages[p].count('class="admonition note besm-live-note"') == len(spec[p]["cells"]), p
    assert len(spec["core/checks_ui.html"]["cells"]) == 3 and len(spec["anime_d20/mind_ui.html"]["cells"]) == 2
    for p, n in [("special/rolls_ui.html", 3), ("special/vehicles_ui.html", 1), ("special/morale_ui.html", 2), ("encounters/ranges_ui.html", 1),
                 ("encounters/movement_ui.html", 1), ("encounters/planner_ui.html", 1), ("besm_d20/hit_locations_ui.html", 1),
                 ("besm_d20/epic_ui.html", 1), ("besm_d20/school_ui.html", 1)]:  # the later wings' calculators
        assert len(spec[p]["cells"]) == n, p
    trackers = {"tristat/round_ui.html": "tristat.round:Tracker", "besm_d20/chase_ui.html": "besm_d20.chase:ChaseTracker",
                "besm_d20/battles_ui.html": "besm_d20.battles:BattleTracker", "besm_d20/units_ui.html": "besm_d20.units:UnitTracker",
                "besm_d20/fate_points_ui.html": "besm_d20.fate_points:FateLedgerPanel",
                "besm_d20/classless_ui.html": "besm_d20.classless:ClasslessPanel", "encounters/exertion_ui.html": "encounters.exertion:StaminaTracker",
                "anime_d20/damage_ui.html": "anime_d20.damage:WoundsTracker", "besm_d20/damage_saves_ui.html": "besm_d20.damage_saves:DamageSaveTracker",
                "anime_d20/fight_ui.html": "anime_d20.fight:Tracker"}
    for p, name in trackers.items():  # each made in the browser as its dashboard makes it, its note saying the game is saved here
        assert [c["tracker"] for c in spec[p]["cells"] if "tracker" in c] == [f"besm_nb.ui.{name}"], p
        assert pages[p].count('data-kind="tracker"') == 1 and "saved on this device" in pages[p], p
    assert len(spec["anime_d20/damage_ui.html"]["cells"]) == 2  # a live calculator and a live tracker on one page
    # the tracker kit's own chapter shows trackers made with settings of its own: those stay snapshots
    assert "core/tracker.html" not in spec and "A snapshot: its inputs are disabled here" in pages["core/tracker.html"]
    for p, s in spec.items():
        for w, url in s["python"]["wheels"]:
            assert (SITE / "_static" / url.split("?")[0]).is_file() and w.endswith("-py3-none-any.whl"), (p, w)
        assert (SITE / "_static" / s["python"]["snapshot"].split("?")[0]).is_file()
