"""The chase tracker in a real browser: a scripted chase played through the page, checked against the engine."""
import random

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.chase import Chase, ChaseRules, Mecha, legal_manoeuvres, start_chase
from besm_nb.besm_d20.chase_odds import round_odds
from besm_nb.dice import fmt_odds
from tests.dashboards.kit import check_tracker_kit
from tests.helpers import assert_beside

pytestmark = pytest.mark.browser
URL = "/voila/render/chase.ipynb"


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
    tracker.get_by_label("Open crashes").select_option(label="open terrain: a failed crash check crashes")
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
