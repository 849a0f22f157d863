"""A screen that was behind, on the chase, unit combat and narrative battle trackers: its action is refused with
"changed on another screen", it then shows the latest, and nothing the other screen did is lost (one server whose pages
look for other screens' actions only every 60 s, so the second page is sure to be behind)."""
import pytest
from playwright.sync_api import expect

from tests.dashboards.test_chase_table import CHASE, chase_with_a_cab, set_speed
from tests.dashboards.test_narrative_battle import URL as BATTLE
from tests.dashboards.test_unit_combat import URL as UNITS, typed

pytestmark = pytest.mark.browser


def two_pages(browser, url, path, start):
    "Screen A starts afresh; screen B opens the same tracker and shows it."
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a, b = ctx_a.new_page(), ctx_b.new_page()
    a.goto(url + path, timeout=180_000)
    a.locator(".besm-tracker").wait_for(timeout=120_000)
    start(a)
    b.goto(url + path, timeout=180_000)
    b.locator(".besm-order .besm-side").first.wait_for(timeout=120_000)
    return ctx_a, ctx_b, a, b


def test_the_chase(browser, slow_follow_server):
    url = slow_follow_server[0]
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        ta = chase_with_a_cab(a, url)
        b.goto(url + CHASE, timeout=180_000)
        tb = b.locator(".besm-car-chase").first
        b.locator(".besm-order .besm-side[data-name='Cab']").wait_for(timeout=120_000)
        set_speed(ta, 30)  # screen A acts; B has not looked since
        ta.locator(".besm-order .besm-side[data-name='Cab']", has_text="car, 30 mph").wait_for(timeout=30_000)
        set_speed(tb, 20)
        expect(tb.locator(".besm-speed-message")).to_contain_text("changed on another screen", timeout=30_000)
        tb.locator(".besm-order .besm-side[data-name='Cab']", has_text="car, 30 mph").wait_for(timeout=30_000)  # B shows A's action
        expect(tb.locator(".besm-log")).not_to_contain_text("20 mph")
        set_speed(tb, 20)  # up to date now: B's action goes through
        tb.locator(".besm-order .besm-side[data-name='Cab']", has_text="car, 20 mph").wait_for(timeout=30_000)
    finally:
        for c in (ctx_a, ctx_b): c.close()


def test_unit_combat(browser, slow_follow_server):
    url = slow_follow_server[0]
    start = lambda a: (a.locator("button.besm-new").click(), a.locator("button.besm-start").click(),
                       a.locator(".besm-round-head", has_text="roll Initiative").wait_for(timeout=30_000))
    ctx_a, ctx_b, a, b = two_pages(browser, url, UNITS, start)
    try:
        typed(a, "12 15"); a.locator("button.besm-initiative").click()  # screen A rolls Initiative
        a.locator(".besm-order .besm-order-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
        typed(b, "3 4"); b.locator("button.besm-initiative").click()  # screen B, behind, rolls it too
        expect(b.locator(".besm-act-message")).to_contain_text("changed on another screen", timeout=30_000)
        b.locator(".besm-order .besm-order-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
        expect(b.locator(".besm-log")).to_contain_text("dice 12 15, typed")  # A's roll, not B's
        expect(b.locator(".besm-log")).not_to_contain_text("dice 3 4")
    finally:
        for c in (ctx_a, ctx_b): c.close()


def test_narrative_battle(browser, slow_follow_server):
    url = slow_follow_server[0]
    start = lambda a: (a.locator("button.besm-new").click(), a.locator("button.besm-start").click(),
                       a.locator(".besm-battle-head").wait_for(timeout=30_000))
    ctx_a, ctx_b, a, b = two_pages(browser, url, BATTLE, start)
    try:
        typed(a, "11 12 10 7"); a.locator("button.besm-play-turn").click()  # screen A plays turn 1
        a.locator(".besm-order .besm-order-head", has_text="Turn 2").wait_for(timeout=30_000)
        typed(b, "6 16 3 3"); b.locator("button.besm-play-turn").click()  # screen B, behind, plays its own turn 1
        expect(b.locator(".besm-play-message")).to_contain_text("changed on another screen", timeout=30_000)
        b.locator(".besm-order .besm-order-head", has_text="Turn 2").wait_for(timeout=30_000)
        expect(b.locator(".besm-log")).to_contain_text("dice 11 12 10 7, typed")
        expect(b.locator(".besm-log")).not_to_contain_text("dice 6 16 3 3")
    finally:
        for c in (ctx_a, ctx_b): c.close()
