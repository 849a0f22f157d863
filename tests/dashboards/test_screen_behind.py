"""A page that was behind another screen's action is refused and shown the latest, on the chase and the wounds record
(the Tri-Stat tracker's own check is in test_tristat_table)."""
import pytest
from playwright.sync_api import expect

from tests.dashboards.test_chase import URL as CHASE, chase_round, manoeuvre
from tests.dashboards.test_wounds_tracker import URL as WOUNDS, amount, open_wounds

pytestmark = pytest.mark.browser


def test_a_screen_behind_is_refused_on_the_chase_and_the_wounds_record(browser, slow_follow_server):
    url = slow_follow_server[0]
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        # the chase: screen A plays round 1; screen B, still showing round 1, tries to play it too
        a.goto(url + CHASE, timeout=180_000)
        ta = a.locator(".besm-tracker"); ta.wait_for(timeout=120_000)
        ta.locator("button.besm-new").click()
        ta.locator(".besm-chase-status", has_text="No chase yet").wait_for(timeout=30_000)
        a.locator(".besm-lead-in input").fill("12"); a.locator("button.besm-start").click()
        expect(a.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=30_000)
        b.goto(url + CHASE, timeout=180_000)
        tb = b.locator(".besm-tracker"); tb.wait_for(timeout=120_000)
        expect(b.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=60_000)
        chase_round(a, ta, 1)
        manoeuvre(tb, "predator", "Gun It"); manoeuvre(tb, "prey", "Pull Ahead")
        tb.locator("button.besm-resolve").click()
        expect(tb.locator(".besm-resolve-message")).to_contain_text("changed on another screen", timeout=30_000)
        expect(b.locator(".besm-order .besm-round-now")).to_have_text("2", timeout=30_000)  # B now shows A's round
        expect(tb.locator(".besm-log")).to_contain_text("(dice 14 9 6, typed)")  # nothing lost, nothing played twice
        expect(tb.locator(".besm-log")).not_to_contain_text("Round 2 ")
        # the wounds record: A takes a hit; B, behind, heals
        a.goto(url + WOUNDS, timeout=180_000)
        wa = open_wounds(a)
        wa.locator("button.besm-new").click()
        wa.locator("button.besm-start").click()
        expect(wa.locator(".besm-log")).to_contain_text("→ 40 HP", timeout=30_000)
        b.goto(url + WOUNDS, timeout=180_000)
        wb = open_wounds(b)
        expect(wb.locator(".besm-log")).to_contain_text("→ 40 HP", timeout=60_000)
        amount(wa, 7); wa.locator("button.besm-damage").click()
        expect(wa.locator(".besm-order")).to_contain_text("33 / 40", timeout=30_000)
        amount(wb, 5); wb.locator("button.besm-heal").click()
        expect(wb.locator(".besm-message").filter(has_text="changed on another screen").first).to_be_visible(timeout=30_000)
        expect(wb.locator(".besm-order")).to_contain_text("33 / 40", timeout=30_000)
    finally:
        for c in (ctx_a, ctx_b): c.close()
