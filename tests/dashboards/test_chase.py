"""The chase tracker in a real browser: a scripted chase played through the page, checked against the engine."""
import os
import random
import time

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.chase import Chase, ChaseRules, Mecha, legal_manoeuvres, start_chase
from besm_nb.besm_d20.chase_odds import round_odds
from besm_nb.dice import fmt_odds
from tests.dashboards.kit import HIDDEN, check_play_screen, check_readable, check_tracker_kit, draft_kept, first_screen, resize, setup_folds
from tests.dashboards.test_special_tracker_and_melee import unfold
from tests.helpers import assert_beside

pytestmark = pytest.mark.browser
URL = "/voila/render/chase.ipynb"


SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there


def text_is(page, selector, value):
    page.wait_for_function(f"document.querySelector({selector!r})?.innerText === {str(value)!r}", timeout=30_000)


def manoeuvre(t, side, name):
    "One tap on a side's row of manoeuvres."
    t.locator(f".besm-segmented.besm-{side}-manoeuvre").get_by_label(name, exact=True).check()


def offered(t, side):
    "The manoeuvres a side's row offers, in order."
    return [o.replace("\xa0", " ").strip() for o in t.locator(f".besm-segmented.besm-{side}-manoeuvre .widget-radio-box label").all_inner_texts()]


def extras(t, inside):
    "Open the card's fold of the round's rarer inputs (Drive mods, operators, boosters, hits, the obstacle's DC)."
    unfold(t, "besm-round-extras", inside)


def fresh(page, dashboards_url):
    "The chase tracker, started afresh (the page resumes the last autosave; New chase keeps it as a backup)."
    page.goto(dashboards_url + URL, timeout=180_000)
    tracker = page.locator(".besm-tracker")
    tracker.wait_for(timeout=120_000)
    tracker.locator("button.besm-new").click()
    tracker.locator(".besm-chase-status", has_text="No chase yet").wait_for(timeout=30_000)
    return tracker


def test_chase_tracker_plays_a_scripted_chase(page, dashboards_url):
    tracker = fresh(page, dashboards_url)
    # the tracker's default sides, as the engine sees them
    state = start_chase(Mecha("Interceptor", 6, 2, 200, 40), Mecha("Courier", 5, 3, 180, 35), "close", "predator", 12, rules=ChaseRules())
    chase = Chase(state)

    page.locator(".besm-lead-in input").fill("12")
    page.locator("button.besm-start").click()
    text_is(page, ".besm-lead", 12)
    expect(page.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=30_000)  # drawn after the manoeuvres are offered
    shown = offered(tracker, "predator")
    assert sorted(shown) == sorted(legal_manoeuvres(12)["predator"]) and shown[0] == "Gun It"  # only what a lead of 12 allows, the common one first

    seed = 42
    for rnd, (p, q) in enumerate([("Gun It", "Pull Ahead"), ("Redline", "Zig-Zag"), ("Gun It", "Pull Ahead")], start=1):
        if chase.over: break
        expect(page.locator(".besm-order .besm-round-now")).to_have_text(str(rnd), timeout=30_000)  # the last Resolve's lists offered
        manoeuvre(tracker, "predator", p); manoeuvre(tracker, "prey", q)
        want = fmt_odds(round_odds(chase.state, p, q).effect["predator"])
        expect(page.locator(".besm-round-line").first).to_contain_text(f"{p} takes effect {want}", timeout=30_000)  # the bar's line
        expect(page.locator(".besm-round-odds").first).to_contain_text(f"predator {want}")  # the odds in full, in the card's fold
        seed_box = page.locator(".besm-seed input")
        seed_box.fill(str(seed + rnd)); seed_box.press("Tab")
        page.locator("button.besm-resolve").click()
        chase.act(p, q, random.Random(seed + rnd))
        text_is(page, ".besm-lead", chase.state.lead)
        page.locator(".besm-log", has_text=f"Round {rnd}").first.wait_for(timeout=30_000)

    played = len(chase.rounds)
    page.locator("button.besm-undo").click()
    chase.undo()
    text_is(page, ".besm-lead", chase.state.lead)
    page.locator(".besm-chase-head", has_text=f"Round {played}").first.wait_for(timeout=30_000)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_chase_tracker_offers_the_review_readings_and_each_obstacles_dc(page, dashboards_url):
    tracker = fresh(page, dashboards_url)
    tracker.get_by_label("Open crashes").select_option(label="a failed check crashes")
    tracker.get_by_label("Speed change").select_option(label="Gun It's and Cut Off's speed change lasts its round")
    page.locator(".besm-lead-in input").fill("12")
    page.locator("button.besm-start").click()
    text_is(page, ".besm-lead", 12)
    manoeuvre(tracker, "predator", "Gun It"); manoeuvre(tracker, "prey", "Pull Ahead")
    expect(page.locator(".besm-checks").first).to_contain_text("(DC 18;", timeout=30_000)  # close terrain's obstacle
    extras(tracker, ".besm-obstacle-adjust input")
    box = page.locator(".besm-obstacle-adjust input")
    box.fill("-2"); box.press("Tab")
    expect(page.locator(".besm-checks").first).to_contain_text("(DC 16;", timeout=30_000)  # this obstacle, 2 easier
    box.fill("3"); box.press("Tab")  # beyond the GM's ±2: refused under the round's choices, in the screen's words, never cut to 2
    msg = page.locator(".besm-round-message", has_text="Obstacle DC ±: must be from -2 to 2, got 3").first
    msg.wait_for(timeout=30_000)
    assert_beside(box, msg)
    assert page.errors == [], page.errors


def test_chase_tracker_keeps_everything(page, dashboards_url):
    dice = [14, 9, 6]  # Drive checks 14 and 9, then the obstacle die: no obstacle
    chase = Chase(start_chase(Mecha("Interceptor", 6, 2, 200, 40), Mecha("Courier", 5, 3, 180, 35), "close", "predator", 12, rules=ChaseRules()))
    for _ in range(2): chase.act("Gun It", "Pull Ahead", list(dice))  # the engine plays these rounds with exactly these dice

    def play(t, rnd):
        manoeuvre(t, "predator", "Gun It"); manoeuvre(t, "prey", "Pull Ahead")
        box = t.locator(".besm-typed input")
        box.fill(" ".join(map(str, dice))); box.press("Tab")
        t.locator("button.besm-resolve").click()
        t.locator(".besm-chase-head", has_text=f"Round {rnd + 1}").first.wait_for(timeout=30_000)

    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-chase-status", has_text="No chase yet").wait_for(timeout=30_000)
        t.locator(".besm-lead-in input").fill("12")
        t.locator("button.besm-start").click()
        t.locator(".besm-chase-head", has_text="Round 1").first.wait_for(timeout=30_000)
        play(t, 1)

    check_tracker_kit(page, dashboards_url + URL, ".besm-tracker", step, lambda t: play(t, 2),
                      lambda t: t.locator(".besm-chase-head").first.inner_text(), "besm-chase")
    expect(page.locator(".besm-chase-head").first).to_contain_text(f"lead {chase.state.lead}", timeout=30_000)


def chase_round(page, t, rnd, dice="14 9 6"):
    "Both manoeuvres (Gun It, Pull Ahead), the table's dice typed, Resolve round: the next round is shown."
    manoeuvre(t, "predator", "Gun It"); manoeuvre(t, "prey", "Pull Ahead")
    box = t.locator(".besm-typed input")
    box.fill(dice); box.press("Tab")
    t.locator("button.besm-resolve").click()
    expect(t.locator(".besm-order .besm-round-now")).to_have_text(str(rnd + 1), timeout=30_000)


def test_chase_at_the_table(browser, dashboards_url, dashboards_server):
    """In play at 1366 x 900 the order of play, the card, the odds and Resolve round are on the first screen (on a phone, the
    bar with the odds and Resolve round fixed at the bottom); typed dice are asked for one roll at a time; the round's choices survive a reload; a second screen and the
    players' view follow on their own, the other side's numbers as the GM chooses."""
    ctx_a, ctx_b, ctx_p = (browser.new_context(viewport={"width": 1366, "height": 900}), browser.new_context(),
                           browser.new_context(viewport={"width": 400, "height": 800}))
    errors = []
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        t = fresh(a, dashboards_url)
        t.get_by_label("Players drive").select_option(label="the prey")
        t.get_by_label("The other side").select_option(label=HIDDEN)
        a.locator(".besm-lead-in input").fill("12")
        a.locator("button.besm-start").click()
        expect(a.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=30_000)
        setup_folds(a, "the chase starts")
        # typed dice, one roll at a time: the line says which roll comes next before the button is pressed
        manoeuvre(t, "predator", "Gun It"); manoeuvre(t, "prey", "Pull Ahead")
        expect(t.locator(".besm-dice-need")).to_contain_text("1d20 for the predator's Drive check", timeout=30_000)
        box = t.locator(".besm-typed input")
        box.fill("14"); box.press("Tab")
        expect(t.locator(".besm-dice-need")).to_contain_text("Next dice: type 1d20 for the prey's Drive check", timeout=30_000)
        t.locator("button.besm-resolve").click()
        expect(t.locator(".besm-resolve-message")).to_contain_text("Type 1d20 for the prey's Drive check", timeout=30_000)
        chase_round(a, t, 1)
        expect(t.locator(".besm-log")).to_contain_text("(dice 14 9 6, typed)")
        # round 2: the screen as the page left it holds the order of play, the card, the odds and the button
        manoeuvre(t, "predator", "Gun It"); manoeuvre(t, "prey", "Pull Ahead")
        expect(a.locator(".besm-round-odds")).to_contain_text("Odds before rolling", timeout=30_000)
        print("1366x900:", check_play_screen(a, 1366, 900, "round 2 declared", focus=False))
        boxes = first_screen(a, {"order of play": ".besm-order", "odds": ".besm-odds-line"})
        assert boxes["order of play"]["right"] <= boxes["odds"]["left"], "the order of play stands beside the card and its bar"
        assert [s for s in a.locator(".besm-order .besm-side").evaluate_all("els => els.map(e => e.dataset.name)")] == ["Interceptor", "Courier"]
        SHOTS and a.screenshot(path=f"{SHOTS}/chase-1366.png")
        # the round's choices, half made, survive a reload
        extras(t, ".besm-predator-mod input")
        mod = t.locator(".besm-predator-mod input")
        mod.fill("2"); mod.press("Tab")
        expect(a.locator(".besm-round-odds")).to_contain_text("Odds before rolling", timeout=30_000)
        # the saves folder holds every tracker's draft (other tests' too): only the chase's has a predator
        draft_kept(dashboards_server[1].saves, lambda d: str((d["tracker"].get("predator") or {}).get("mod")) == "2")
        a.reload(timeout=120_000)
        t = a.locator(".besm-tracker")
        t.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
        expect(t.locator(".besm-segmented.besm-predator-manoeuvre").get_by_label("Gun It", exact=True)).to_be_checked(timeout=30_000)
        expect(t.locator(".besm-predator-mod input")).to_have_value("2")
        # a second screen and the players' view, following the first
        b.goto(dashboards_url + URL, timeout=180_000)
        tb = b.locator(".besm-tracker"); tb.wait_for(timeout=120_000)
        expect(b.locator(".besm-order .besm-round-now")).to_have_text("2", timeout=60_000)
        href = a.locator(".besm-players-href").get_attribute("href")
        assert href.startswith("/besm/players?tracker="), href  # the server's light page: no kernel of its own
        p.goto(dashboards_url + href, timeout=180_000)
        expect(p.locator(".besm-players .besm-round-now")).to_have_text("2", timeout=120_000)
        assert p.locator(".besm-tracker").count() == 0  # read-only
        assert "/ 40" not in p.locator(".besm-players-order").inner_text()  # the predator's Hit Points are the GM's
        expect(p.locator(".besm-players-order")).to_contain_text("35 / 35")
        box = t.locator(".besm-typed input")
        box.fill("14 9 6"); box.press("Tab")
        t.locator("button.besm-resolve").click()
        t0 = time.time()
        expect(b.locator(".besm-order .besm-round-now")).to_have_text("3")  # on its own: no reload, no action
        seen_b = time.time() - t0
        expect(p.locator(".besm-players .besm-round-now")).to_have_text("3")
        seen_p = time.time() - t0
        print(f"seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        expect(p.locator(".besm-players-results")).to_contain_text("Round 2: Gun It v Pull Ahead")
        SHOTS and p.screenshot(path=f"{SHOTS}/chase-players-400.png")
        resize(a, 400, 800)
        print("400x800:", check_play_screen(a, 400, 800, "round 3 at a phone's width", focus=False))  # the bar fixed at the bottom
        assert a.evaluate("document.documentElement.scrollWidth") <= 400
        print("400x800 numbers:", check_readable(a))  # chart labels >= 12 px, none overlapping; wide tables show their cue
        SHOTS and a.screenshot(path=f"{SHOTS}/chase-400.png", full_page=False)
        assert errors == [], errors
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()
