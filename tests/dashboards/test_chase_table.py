"""The car chase tracker at the table, in a real browser: laid out for play (the order of play, the card, the control
roll's and the hit's odds, Roll control, Resolve hit and End turn on the first screen; on a phone the bar fixed at the
bottom), typed dice asked for step by step, a half-made declaration kept across a reload, one chase on two screens with
the players' view following (a screen that was behind: test_screens_behind.py)."""
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_foes, check_play_screen, first_screen, resize
from tests.dashboards.test_special_tracker_and_melee import CHASE, add_vehicle, choose, control, fill, fold_fill, fresh_chase, wait_attr
from tests.dashboards.test_tristat_table import order

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots of the tracker in play at both widths are saved there


def current(page, name, root=".besm-order"):
    page.wait_for_function("([r, n]) => document.querySelector(r + ' .besm-current')?.dataset.name === n", arg=[root, name], timeout=30_000)


def test_the_chase_laid_out_for_play(browser, dashboards_url):
    "Into turn 2 at 1366 x 900: the order of play beside the card of the vehicle in view, its control roll, the hit's odds, Roll control, Resolve hit and End turn on the first screen; typed dice step by step; a declaration kept across a reload; at 400 x 800 the bar fixed at the bottom."
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        t = fresh_chase(page, dashboards_url)
        add_vehicle(t, "Roadster", "car", "Vic", 13, 60)
        add_vehicle(t, "Bike", "motorcycle", "Kai", 12, 50, 0.25)
        assert t.locator(".besm-new-name input").is_visible()  # set-up open until play starts
        # typed dice, asked for step by step: the line says which dice before any is typed, then the next
        choose(t, "besm-pick", "Roadster"); fill(t, "besm-damage", "6d6")
        choose(t, "besm-where", "Tire -4"); choose(t, "besm-tyre", "front left")
        expect(t.locator(".besm-dice-need")).to_contain_text("First dice: 6d6 for damage", timeout=30_000)
        fill(t, "besm-typed", "20")
        expect(t.locator(".besm-dice-need")).to_contain_text("Next dice: type 3d6 for tyre's HT", timeout=30_000)
        t.locator("button.besm-resolve-hit").click()
        expect(t.locator(".besm-hit-message")).to_contain_text("Type 3d6 for tyre's HT, then press the button again", timeout=30_000)
        fill(t, "besm-typed", "20 14"); t.locator("button.besm-resolve-hit").click()
        expect(t.locator(".besm-hit-message")).to_contain_text("Rolled (dice 20 14, typed)", timeout=30_000)
        # the flat calls for a control roll: its vehicle is marked, End turn waits, the dice line asks for it
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("control roll now: Roadster", timeout=30_000)
        expect(t.locator(".besm-dice-need")).to_contain_text("3d6 for Roadster's control roll")
        assert t.locator("button.besm-end-turn").is_disabled()
        # the one dice box, in the bar by the three buttons, names the button its dice go to
        expect(t.locator(".besm-resolve-bar .besm-dice-need")).to_contain_text("3d6 for Roadster's control roll")
        fill(t, "besm-typed", "6")
        expect(t.locator(".besm-resolve-bar .besm-dice-need")).to_contain_text("are all it needs: press Roll control", timeout=30_000)
        fill(t, "besm-typed", "")
        control(page, t, "Roadster", "6", 7)
        expect(t.locator(".besm-resolve-bar .besm-dice-need")).to_contain_text("First dice:", timeout=30_000)  # for Resolve hit again
        t.locator("button.besm-end-turn").click()
        wait_attr(page, ".besm-turn-head", "data-turn", 2)
        assert page.locator(".besm-setup .lm-AccordionPanel, .besm-setup .widget-accordion-content").evaluate_all(
            "els => els.every(e => !e.getClientRects().length)"), "the set-up should fold away once play starts"
        # turn 2: the Bike in view, a hit declared on it (the Roadster's choices do not carry over)
        choose(t, "besm-pick", "Bike")
        current(page, "Bike")
        assert order(page) == ["Roadster", "Bike"]
        expect(page.locator(".besm-order .besm-side[data-name='Roadster']")).to_contain_text("front left tyre flat")
        expect(page.locator(".besm-order .besm-side[data-name='Roadster'] .besm-bar[data-label='Speed']")).to_contain_text("50 / 60")
        expect(t.locator(".besm-where").get_by_label("random", exact=True)).to_be_checked()
        fill(t, "besm-damage", "2d6"); choose(t, "besm-facing", "front"); choose(t, "besm-where", "Driver -3"); fold_fill(t, "besm-other", -1)
        t.locator(".besm-hit-odds", has_text="before rolling").wait_for(timeout=30_000)
        fill(t, "besm-typed", "5")
        expect(t.locator(".besm-dice-need")).to_contain_text("Next dice: type 1d6 for the way in", timeout=30_000)  # a shot through the front
        # a reload: the half-made declaration comes back, the chase has not moved
        page.reload(timeout=120_000)
        t = page.locator(".besm-car-chase").first
        t.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
        expect(t.locator(".besm-pick").get_by_label("Bike", exact=True)).to_be_checked(timeout=30_000)
        expect(t.locator(".besm-where").get_by_label("Driver -3", exact=True)).to_be_checked()
        expect(t.locator(".besm-facing").get_by_label("front", exact=True)).to_be_checked()
        expect(t.locator(".besm-damage input")).to_have_value("2d6")
        expect(t.locator(".besm-other input")).to_have_value("-1")
        expect(t.locator(".besm-typed input")).to_have_value("5")
        fill(t, "besm-typed", "5 3")
        t.locator(".besm-hit-odds", has_text="before rolling").wait_for(timeout=30_000)
        current(page, "Bike")
        print("1366x900:", check_play_screen(page, 1366, 900, "a declaration kept across a reload", focus=False))
        for sel in ("button.besm-roll-control", "button.besm-resolve-hit", "button.besm-end-turn", ".besm-control-panel", ".besm-hit-odds"):
            expect(t.locator(sel)).to_be_in_viewport()
        boxes = first_screen(page, {"order": ".besm-order", "odds": ".besm-hit-odds"})
        assert boxes["order"]["right"] <= boxes["odds"]["left"], "the order of play stands beside the card and its bar"
        if SHOTS: page.screenshot(path=str(Path(SHOTS) / "chase-1366.png"))
        resize(page, 400, 800)
        print("400x800:", check_play_screen(page, 400, 800, "at a phone's width", focus=False))  # the bar fixed at the bottom
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
        if SHOTS: page.screenshot(path=str(Path(SHOTS) / "chase-400.png"))
        t.locator("button.besm-resolve-hit").click()  # the declaration kept is the one resolved
        t.locator(".besm-log", has_text="Kai").first.wait_for(timeout=30_000)
        expect(t.locator(".besm-hit-message")).to_contain_text("Rolled (dice 5 3, typed)")
        # a shooter's line: a passenger's pistol from the Roadster (a car on a good road), at the bike
        fill(t, "besm-shooter-skill", 13); choose(t, "besm-shooter-from", "Roadster"); choose(t, "besm-shooter-at", "Bike")
        t.locator(".besm-shooter-line[data-effective='11']").wait_for(timeout=30_000)  # 13 - 2
        expect(t.locator(".besm-shooter")).to_contain_text("Hand weapon, passenger")
        choose(t, "besm-shooter-through", "its rear window")
        expect(t.locator(".besm-shooter-message")).to_contain_text("Through: Bike is a motorcycle: it has no rear window", timeout=30_000)
        assert errors == [], errors
    finally:
        ctx.close()


def chase_with_a_cab(page, url):
    t = fresh_chase(page, url)
    add_vehicle(t, "Cab", "car", "Moe", 12, 40)
    return t


def set_speed(t, mph):
    choose(t, "besm-pick", "Cab"); fold_fill(t, "besm-mph", mph); t.locator("button.besm-set-speed").click()


def test_two_screens_and_the_players_view_follow(browser, dashboards_url):
    ctx_a, ctx_b, ctx_p = browser.new_context(), browser.new_context(), browser.new_context(viewport={"width": 400, "height": 800})
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        ta = chase_with_a_cab(a, dashboards_url)
        b.goto(dashboards_url + CHASE, timeout=180_000)
        b.locator(".besm-order .besm-side[data-name='Cab']").wait_for(timeout=120_000)
        p.goto(dashboards_url + CHASE + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side[data-name='Cab']").wait_for(timeout=120_000)
        assert p.locator(".besm-tracker").count() == 0  # read-only: no tracker
        set_speed(ta, 30)
        ta.locator(".besm-order .besm-side[data-name='Cab']", has_text="car, 30 mph").wait_for(timeout=30_000)
        t0 = time.time()
        b.locator(".besm-order .besm-side[data-name='Cab']", has_text="car, 30 mph").wait_for(timeout=30_000)  # on its own: no reload, no action
        seen_b = time.time() - t0
        p.locator(".besm-players .besm-side[data-name='Cab']", has_text="car, 30 mph").wait_for(timeout=30_000)
        seen_p = time.time() - t0
        print(f"seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        expect(b.locator(".besm-history-message")).to_contain_text("changed on another screen")
        expect(p.locator(".besm-players-results")).to_contain_text("Cab")
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()


def test_foes_on_the_players_view(browser, dashboards_url):
    "The bike ticked as a foe, its numbers hidden: marked on the GM's order of play, shown without bars on the players' view while the roadster keeps its own; as bars, without numbers."
    def prepare(page):
        t = fresh_chase(page, dashboards_url)
        add_vehicle(t, "Roadster", "car", "Vic", 13, 60)
        add_vehicle(t, "Bike", "motorcycle", "Kai", 12, 50, 0.25)
        return t
    def play(page, t):
        t.locator("button.besm-end-turn").click()
        wait_attr(page, ".besm-turn-head", "data-turn", 2)
    check_foes(browser, dashboards_url + CHASE, prepare, "Bike", "Bike", "Roadster", play, SHOTS, "car-chase-foes")
