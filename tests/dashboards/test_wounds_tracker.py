"""The Anime d20 wounds tracker in a real browser: as a tracker (reload, undo, saves through the browser and by name), and at
the table (laid out for play, the shock save's die asked for, the next hit kept across a reload, two screens and the players' view)."""
import os
import time

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_first_screen, check_readable, check_tracker_kit, draft_kept, first_screen, resize, setup_folds

pytestmark = pytest.mark.browser
URL = "/voila/render/anime_d20_checks.ipynb"
WOUNDS = ".besm-calculator:has(button.besm-damage)"
PARTS = {"order of play": ".besm-order", "odds": ".besm-odds-panel", "Damage": "button.besm-damage"}


SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there


def test_wounds_tracker_keeps_everything(page, dashboards_url):
    def hit(t):
        box = t.locator(".besm-field-amount input").first
        box.fill("7"); box.press("Tab")
        t.locator("button.besm-damage").click()
        t.locator(".besm-headline", has_text="33 / 40 HP").first.wait_for(timeout=30_000)  # as long as the kit waits: a busy machine
        box.fill("5"); box.press("Tab")
        t.locator("button.besm-damage").click()
        t.locator(".besm-headline", has_text="28 / 40 HP").first.wait_for(timeout=30_000)
    check_tracker_kit(page, dashboards_url + URL, WOUNDS, hit, None,
                      lambda t: t.locator(".besm-headline").first.inner_text(), "anime-d20-wounds",
                      open_tab=open_wounds)


def open_wounds(pg):
    pg.get_by_role("tab", name="Wounds").wait_for(timeout=120_000)
    pg.get_by_role("tab", name="Wounds").click()
    t = pg.locator(WOUNDS)
    t.wait_for(timeout=60_000)
    return t


def amount(t, n):
    box = t.locator(".besm-field-amount input").first
    box.fill(str(n)); box.press("Tab")


def test_wounds_at_the_table(browser, dashboards_url, dashboards_server):
    """In play at 1366 x 900 her bar, the next hit's odds and Damage are on the first screen (on a phone, in that order);
    the shock save's die is asked for; the next hit half typed survives a reload; a second screen and the players' view follow."""
    ctx_a, ctx_b, ctx_p = (browser.new_context(viewport={"width": 1366, "height": 900}), browser.new_context(),
                           browser.new_context(viewport={"width": 400, "height": 800}))
    errors = []
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        a.on("pageerror", lambda e: errors.append(str(e)))
        a.goto(dashboards_url + URL, timeout=180_000)
        t = open_wounds(a)
        t.locator("button.besm-new").click()
        expect(t.locator(".besm-history-message")).to_contain_text("New record", timeout=30_000)
        name = t.locator(".besm-wounds-name input")
        name.fill("Aiko"); name.press("Tab")
        expect(t.locator(".besm-order .besm-side")).to_have_attribute("data-name", "Aiko", timeout=30_000)
        t.locator("button.besm-start").click()
        expect(t.locator(".besm-log")).to_contain_text("→ 40 HP", timeout=30_000)
        setup_folds(a, "the record starts")
        amount(t, 20)
        expect(t.locator(".besm-odds-panel")).to_contain_text("If a hit of 20 lands: 20 / 40 HP", timeout=30_000)
        expect(t.locator(".besm-odds-panel")).to_contain_text("saved 30.00%")
        t.locator("button.besm-damage").click()
        expect(t.locator(".besm-dice-need")).to_contain_text("1d20 for Aiko's Fortitude save against shock", timeout=30_000)
        box = t.locator(".besm-typed-dice input")
        box.fill("12"); box.press("Tab")
        t.locator("button.besm-roll-shock-save").click()
        expect(t.locator(".besm-log")).to_contain_text("fails by 3, incapacitated 3 round(s) (dice 12, typed)", timeout=30_000)
        # the next hit: the first screen holds her bar, its odds and Damage
        amount(t, 7)
        expect(t.locator(".besm-odds-panel")).to_contain_text("If a hit of 7 lands: 13 / 40 HP", timeout=30_000)
        print("1366x900 boxes:", first_screen(a, PARTS | {"set-up": ".besm-setup", "action": ".besm-action-pane", "play": ".besm-play"}))
        print("1366x900:", check_first_screen(a, PARTS))
        boxes = first_screen(a, PARTS)
        assert boxes["order of play"]["right"] <= boxes["odds"]["left"], "her bar stands beside the next hit"
        SHOTS and a.screenshot(path=f"{SHOTS}/wounds-1366.png")
        # half typed, it survives a reload
        t.locator(".besm-field-breaks_skin input").check()
        draft_kept(dashboards_server[1].saves, lambda d: str(d["tracker"].get("amount")) == "7" and d["tracker"].get("breaks_skin") is True)
        a.reload(timeout=120_000)
        t = open_wounds(a)
        expect(t.locator(".besm-field-amount input").first).to_have_value("7", timeout=30_000)
        expect(t.locator(".besm-field-breaks_skin input")).to_be_checked()
        # a second screen and the players' view follow
        b.goto(dashboards_url + URL, timeout=180_000)
        tb = open_wounds(b)
        expect(tb.locator(".besm-order")).to_contain_text("20 / 40", timeout=60_000)
        p.goto(dashboards_url + URL + "?view=players", timeout=180_000)
        expect(p.locator(".besm-players-order")).to_contain_text("20 / 40", timeout=120_000)
        assert p.locator(".besm-tracker, .besm-calculator").count() == 0  # read-only
        t.locator("button.besm-damage").click()
        t0 = time.time()
        expect(tb.locator(".besm-order")).to_contain_text("13 / 40")  # on its own: no reload, no action
        seen_b = time.time() - t0
        expect(p.locator(".besm-players-order")).to_contain_text("13 / 40")
        seen_p = time.time() - t0
        print(f"seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        expect(p.locator(".besm-players-results")).to_contain_text("hit for 7")
        SHOTS and p.screenshot(path=f"{SHOTS}/wounds-players-400.png")
        resize(a, 400, 800)
        boxes = first_screen(a, PARTS)
        print("400x800:", {k: (round(v["top"]), round(v["bottom"])) for k, v in boxes.items()})
        # on a phone the odds and Damage stand in the bar fixed at the bottom of the screen
        assert 0 <= boxes["odds"]["top"] < boxes["Damage"]["top"] and boxes["Damage"]["bottom"] <= 800, boxes
        assert a.locator(".besm-resolve-bar").first.evaluate("e => getComputedStyle(e).position") == "fixed"
        assert a.evaluate("document.documentElement.scrollWidth") <= 400
        print("400x800 numbers:", check_readable(a))  # chart labels >= 12 px, none overlapping; wide tables show their cue
        SHOTS and a.screenshot(path=f"{SHOTS}/wounds-400.png")
        assert errors == [], errors
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()
