"""The chase tracker in a real browser: a scripted chase played through the page, checked against the engine."""
import os
import random
import time

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.chase import Chase, ChaseRules, Mecha, legal_manoeuvres, start_chase
from besm_nb.besm_d20.chase_odds import round_odds
from besm_nb.dice import fmt_odds
from tests.dashboards.kit import HIDDEN, check_first_screen, check_readable, check_tracker_kit, draft_kept, first_screen, resize
from tests.helpers import assert_beside

pytestmark = pytest.mark.browser
URL = "/voila/render/chase.ipynb"


SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there


def text_is(page, selector, value):
    page.wait_for_function(f"document.querySelector({selector!r})?.innerText === {str(value)!r}", timeout=30_000)


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
    pred, prey = page.locator(".besm-predator-manoeuvre select"), page.locator(".besm-prey-manoeuvre select")
    offered = [o.replace("\xa0", " ").strip() for o in pred.locator("option").all_inner_texts()]
    assert offered == list(legal_manoeuvres(12)["predator"])  # only what a lead of 12 allows

    seed = 42
    for rnd, (p, q) in enumerate([("Gun It", "Pull Ahead"), ("Redline", "Zig-Zag"), ("Gun It", "Pull Ahead")], start=1):
        if chase.over: break
        pred.select_option(p); prey.select_option(q)
        want = fmt_odds(round_odds(chase.state, p, q).effect["predator"])
        page.locator(".besm-round-odds", has_text=f"predator {want}").first.wait_for(timeout=10_000)
        seed_box = page.locator(".besm-seed input")
        seed_box.fill(str(seed + rnd)); seed_box.press("Tab")
        page.locator("button.besm-resolve").click()
        chase.act(p, q, random.Random(seed + rnd))
        text_is(page, ".besm-lead", chase.state.lead)
        page.locator(".besm-log", has_text=f"Round {rnd}").first.wait_for(timeout=10_000)

    played = len(chase.rounds)
    page.locator("button.besm-undo").click()
    chase.undo()
    text_is(page, ".besm-lead", chase.state.lead)
    page.locator(".besm-chase-head", has_text=f"Round {played}").first.wait_for(timeout=10_000)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_chase_tracker_offers_the_review_readings_and_each_obstacles_dc(page, dashboards_url):
    tracker = fresh(page, dashboards_url)
    tracker.get_by_label("Open crashes").select_option(label="a failed check crashes")
    tracker.get_by_label("Speed change").select_option(label="Gun It's and Cut Off's speed change lasts its round")
    page.locator(".besm-lead-in input").fill("12")
    page.locator("button.besm-start").click()
    text_is(page, ".besm-lead", 12)
    page.locator(".besm-predator-manoeuvre select").select_option("Gun It")
    page.locator(".besm-prey-manoeuvre select").select_option("Pull Ahead")
    page.locator(".besm-checks", has_text="(DC 18;").first.wait_for(timeout=10_000)  # close terrain's obstacle
    box = page.locator(".besm-obstacle-adjust input")
    box.fill("-2"); box.press("Tab")
    page.locator(".besm-checks", has_text="(DC 16;").first.wait_for(timeout=10_000)  # this obstacle, 2 easier
    box.fill("3"); box.press("Tab")  # beyond the GM's ±2: refused under the round's choices, in the screen's words, never cut to 2
    msg = page.locator(".besm-round-message", has_text="Obstacle DC ±: must be from -2 to 2, got 3").first
    msg.wait_for(timeout=10_000)
    assert_beside(box, msg)
    assert page.errors == [], page.errors


def test_chase_tracker_keeps_everything(page, dashboards_url):
    dice = [14, 9, 6]  # Drive checks 14 and 9, then the obstacle die: no obstacle
    chase = Chase(start_chase(Mecha("Interceptor", 6, 2, 200, 40), Mecha("Courier", 5, 3, 180, 35), "close", "predator", 12, rules=ChaseRules()))
    for _ in range(2): chase.act("Gun It", "Pull Ahead", list(dice))  # the engine plays these rounds with exactly these dice

    def play(t, rnd):
        t.locator(".besm-predator-manoeuvre select").select_option("Gun It")
        t.locator(".besm-prey-manoeuvre select").select_option("Pull Ahead")
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
    t.locator(".besm-predator-manoeuvre select").select_option("Gun It")
    t.locator(".besm-prey-manoeuvre select").select_option("Pull Ahead")
    box = t.locator(".besm-typed input")
    box.fill(dice); box.press("Tab")
    t.locator("button.besm-resolve").click()
    expect(t.locator(".besm-order .besm-round-now")).to_have_text(str(rnd + 1), timeout=30_000)


def test_chase_at_the_table(browser, dashboards_url, dashboards_server):
    """In play at 1366 x 900 the order of play, the odds and Resolve round are on the first screen (on a phone, in that
    order); typed dice are asked for one roll at a time; the round's choices survive a reload; a second screen and the
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
        assert a.locator(".besm-setup .lm-AccordionPanel, .besm-setup .widget-accordion-content").evaluate_all(
            "els => els.every(e => !e.getClientRects().length)"), "the set-up should fold away once the chase starts"
        # typed dice, one roll at a time: the line says which roll comes next before the button is pressed
        t.locator(".besm-predator-manoeuvre select").select_option("Gun It")
        t.locator(".besm-prey-manoeuvre select").select_option("Pull Ahead")
        expect(t.locator(".besm-dice-need")).to_contain_text("1d20 for the predator's Drive check", timeout=30_000)
        box = t.locator(".besm-typed input")
        box.fill("14"); box.press("Tab")
        expect(t.locator(".besm-dice-need")).to_contain_text("Next dice: type 1d20 for the prey's Drive check", timeout=30_000)
        t.locator("button.besm-resolve").click()
        expect(t.locator(".besm-resolve-message")).to_contain_text("Type 1d20 for the prey's Drive check", timeout=30_000)
        chase_round(a, t, 1)
        expect(t.locator(".besm-log")).to_contain_text("(dice 14 9 6, typed)")
        # round 2: the first screen holds the order of play, the odds and the button
        t.locator(".besm-predator-manoeuvre select").select_option("Gun It")
        t.locator(".besm-prey-manoeuvre select").select_option("Pull Ahead")
        expect(a.locator(".besm-round-odds")).to_contain_text("Odds before rolling", timeout=30_000)
        print("1366x900:", check_first_screen(a))
        boxes = first_screen(a)
        assert boxes["order of play"]["right"] <= boxes["odds"]["left"], "the order of play stands beside the round panel"
        assert [s for s in a.locator(".besm-order .besm-side").evaluate_all("els => els.map(e => e.dataset.name)")] == ["Interceptor", "Courier"]
        SHOTS and a.screenshot(path=f"{SHOTS}/chase-1366.png")
        # the round's choices, half made, survive a reload
        mod = t.locator(".besm-predator-mod input")
        mod.fill("2"); mod.press("Tab")
        expect(a.locator(".besm-round-odds")).to_contain_text("Odds before rolling", timeout=30_000)
        draft_kept(dashboards_server[1].saves, lambda d: str(d["tracker"]["predator"]["mod"]) == "2")
        a.reload(timeout=120_000)
        t = a.locator(".besm-tracker")
        t.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
        expect(t.locator(".besm-predator-manoeuvre select")).to_have_value("Gun It", timeout=30_000)
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
        boxes = first_screen(a)
        print("400x800:", {k: (round(v["top"]), round(v["bottom"])) for k, v in boxes.items()})
        assert boxes["order of play"]["bottom"] <= boxes["odds"]["top"] <= boxes["Resolve"]["top"]
        assert a.evaluate("document.documentElement.scrollWidth") <= 400
        print("400x800 numbers:", check_readable(a))  # chart labels >= 12 px, none overlapping; wide tables show their cue
        SHOTS and a.screenshot(path=f"{SHOTS}/chase-400.png", full_page=False)
        assert errors == [], errors
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()
