"""The group melee tracker on the GM screen, played as at the table: a scripted turn (Kara rolls for position against two
raiders, fights their fumbler; then Hild, Ulf, Sten and Bo act on their common choices) at 1366 x 900 and at 400 x 800,
and at every step the acting fighter, his card, the odds and the button that resolves are on the screen as the page left
it, the bar is fixed at the bottom of a phone, and every control receives a real click at its centre. Then the tracker
kit's own check: reload, undo across the turn, download and upload, saves by name."""
import os

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_tracker_kit, followed
from tests.dashboards.test_home_dice_tristat import fill, in_turn

pytestmark = pytest.mark.browser
MELEE = "/voila/render/special_situations.ipynb?tab=melee-tracker"
SCREENS = [(1366, 900), (400, 800)]
ORDER = ["Kara", "Hild", "Ulf", "Sten", "Bo"]


def fresh_melee(page, dashboards_url):
    "The melee tracker, started afresh with the set-up's example (the page resumes the last autosave; New keeps it as a backup)."
    page.goto(dashboards_url + MELEE, timeout=180_000)
    t = page.locator(".besm-melee-tracker")
    t.wait_for(timeout=120_000)
    t.locator("button.besm-new").click()
    t.locator(".besm-fighters", has_text="No fighters yet").wait_for(timeout=30_000)
    t.get_by_role("button", name="Example: Kara and Hild against three raiders").click()
    in_turn(page, ORDER, "Kara")
    return t


@pytest.mark.parametrize("width, height", SCREENS)
def test_a_melee_turn_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        t = fresh_melee(page, dashboards_url)
        # Kara faces Ulf and Bo: two taps, and the bar offers the contest for position with its odds
        for foe in ("Ulf", "Bo"): t.locator(".besm-faces").get_by_label(foe, exact=True).check()
        expect(t.locator(".besm-odds-line")).to_contain_text("rolls for position at 14 against the group's 8")
        fill(t, "Typed dice", "8 13"); t.get_by_role("button", name="Roll for position").click()
        expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Kara's contest for position")
        expect(t.locator(".besm-odds-line")).to_contain_text("A hit on Bo")  # she fights only their fumbler, who dodges
        seen = {"contest": followed(page, width, height, "the contest for position")}  # the set-up folds away, the page follows
        if os.environ.get("BESM_NB_SHOTS"): page.screenshot(path=f"{os.environ['BESM_NB_SHOTS']}/melee-{width}-kara.png")  # for the report
        fill(t, "Typed dice", "9 12"); t.get_by_role("button", name="Resolve").click()
        in_turn(page, ORDER, "Hild")
        expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("a hit on Bo")
        seen["Kara resolved"] = followed(page, width, height, "Kara's Resolve")
        # Hild, Ulf, Sten and Bo: the common choice each (an attack on the first target, answered by the target), dice rolled here
        for who, after in (("Hild", "Ulf"), ("Ulf", "Sten"), ("Sten", "Bo")):
            t.get_by_role("button", name="Resolve").click()
            in_turn(page, ORDER, after)
            seen[f"{who} resolved"] = followed(page, width, height, f"{who}'s Resolve")
        t.get_by_role("button", name="Resolve").click()
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("2")
        in_turn(page, ORDER, "Kara")
        seen["turn 2"] = followed(page, width, height, "the turn's last Resolve")
        expect(t.locator(".besm-faces input:checked")).to_have_count(2)  # her card opens on the foes she faced
        if os.environ.get("BESM_NB_SHOTS"): page.screenshot(path=f"{os.environ['BESM_NB_SHOTS']}/melee-{width}-turn2.png")
        print(f"{width}x{height}:", seen)
        assert errors == [], errors
    finally:
        ctx.close()


def test_the_melee_tracker_keeps_the_kits_promises(browser, dashboards_url):
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-fighters", has_text="No fighters yet").wait_for(timeout=30_000)
        t.get_by_role("button", name="Example: Kara and Hild against three raiders").click()
        in_turn(page, ORDER, "Kara")
        t.get_by_role("button", name="Resolve").click()
        in_turn(page, ORDER, "Hild")
    def next_turn(t):
        for after in ("Ulf", "Sten", "Bo"):
            t.get_by_role("button", name="Resolve").click()
            in_turn(page, ORDER, after)
        t.get_by_role("button", name="Resolve").click()
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("2")
    try:
        check_tracker_kit(page, dashboards_url + MELEE, ".besm-melee-tracker", step, next_turn,
                          lambda t: t.locator(".besm-order").first.inner_text(), "special-melee")
    finally:
        page.close()
