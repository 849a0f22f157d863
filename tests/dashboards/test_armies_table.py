"""The unit combat and narrative battle trackers at the table, in a real browser: laid out for play into the second
round (the order of play, the odds and the button that acts on the first screen; the same order top to bottom on a
phone), typed dice asked for step by step, a half-made declaration kept across a reload and cleared for the next one to
act, and one battle on two screens with the players' view following."""
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import resize, setup_folds
from tests.dashboards.test_narrative_battle import URL as BATTLE, fresh as fresh_battle, settle, text_is
from tests.dashboards.test_tristat_table import order, where
from tests.dashboards.test_unit_combat import GOB, URL as UNITS, choose, counters, fresh as fresh_units, typed

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there
NISHI = "Warriors of Nishihama"


def current(page, name, root=".besm-order"):
    page.wait_for_function("([r, n]) => document.querySelector(r + ' .besm-current')?.dataset.name === n", arg=[root, name], timeout=30_000)


def number(page, cls, value):
    box = page.locator(f".{cls} input").first
    settle(page); box.fill(str(value)); box.press("Tab")


def first_screen(page, parts, shot):
    "The parts' boxes at 1366 x 900 (all on the first screen, the order of play beside the rest), then at 400 x 800 (the odds and the button in the bar fixed at the bottom of the screen)."
    boxes = {k: where(page, s) for k, s in parts}
    print(f"{shot} 1366x900:", {k: (round(b["top"]), round(b["bottom"])) for k, b in boxes.items()})
    for k, b in boxes.items(): assert b["bottom"] <= 900, f"{k} ends at {b['bottom']:.0f} px, below the first screen"
    assert all(boxes["order"]["right"] <= b["left"] for k, b in boxes.items() if k != "order"), "the order of play stands beside the action panel"
    if SHOTS: page.screenshot(path=str(Path(SHOTS) / f"{shot}-1366.png"))
    resize(page, 400, 800)
    boxes = {k: where(page, s) for k, s in parts}
    print(f"{shot} 400x800:", {k: (round(b["top"]), round(b["bottom"])) for k, b in boxes.items()})
    # on a phone the odds and the button stand in the bar fixed at the bottom of the screen, over the order of play
    assert 0 <= boxes["odds"]["top"] < boxes["act"]["top"] and boxes["act"]["bottom"] <= 800, boxes
    assert page.locator(".besm-resolve-bar").evaluate("e => getComputedStyle(e).position") == "fixed"
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    if SHOTS: page.screenshot(path=str(Path(SHOTS) / f"{shot}-400.png"))
    page.set_viewport_size({"width": 1366, "height": 900})


def test_unit_combat_laid_out_for_play(browser, dashboards_url):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        fresh_units(page, dashboards_url)
        expect(page.locator(".besm-unit-name input")).to_be_visible()  # set-up open until the battle starts (New unfolds it)
        page.locator("button.besm-start").click()
        expect(page.locator(".besm-dice-need")).to_contain_text(f"First dice: 1d20 for {NISHI}'s Initiative", timeout=30_000)
        typed(page, "12")
        expect(page.locator(".besm-dice-need")).to_contain_text("Next dice: type 1d20 for Goblin raiders's Initiative", timeout=30_000)
        page.locator("button.besm-initiative").click()
        expect(page.locator(".besm-act-message")).to_contain_text("Type 1d20 for Goblin raiders's Initiative, then press the button again",
                                                                  timeout=30_000)
        typed(page, "12 15"); page.locator("button.besm-initiative").click()
        current(page, NISHI)
        setup_folds(page, "play starts")
        # round 1: the charge, the goblins pass, their morale check, the next round
        choose(page, "action", "Charge"); choose(page, "target", GOB)
        settle(page); page.get_by_label("In reach (0: all)").fill("8"); page.get_by_label("In reach (0: all)").press("Tab")
        page.locator(".besm-outlook", has_text="lands 60.50%").wait_for(timeout=30_000)
        typed(page, "14 9 7 5 9 4 11 6 8 10"); page.locator("button.besm-act").click()
        counters(page, GOB, "6")
        current(page, GOB)
        choose(page, "action", "Pass (hold, or keep fleeing)")
        page.locator("button.besm-act").click()
        expect(page.locator(".besm-owing").get_by_label("Goblin raiders (DC 15)", exact=True)).to_be_checked(timeout=30_000)
        typed(page, "9"); page.locator("button.besm-morale").click()
        page.locator(".besm-order .besm-side[data-name='Goblin raiders']", has_text="shaken").wait_for(timeout=30_000)
        page.locator("button.besm-next-round").click()
        page.locator(".besm-order .besm-round-now", has_text="2").wait_for(timeout=30_000)
        current(page, NISHI)
        assert order(page) == [NISHI, GOB]
        expect(page.locator(f".besm-order .besm-side[data-name='{GOB}'] .besm-bar[data-label='Counters']")).to_contain_text("6 / 10")
        # round 2: a half-made declaration, kept across a reload
        choose(page, "action", "Attack (melee)")
        settle(page); page.get_by_label("Counters (0: all)").fill("4"); page.get_by_label("Counters (0: all)").press("Tab")
        page.locator(".besm-outlook", has_text="Before rolling").wait_for(timeout=30_000)
        typed(page, "14")
        expect(page.locator(".besm-dice-need")).to_contain_text("Next dice", timeout=30_000)
        page.reload(timeout=120_000)
        page.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
        expect(page.locator(".besm-action").get_by_label("Attack (melee)", exact=True)).to_be_checked(timeout=30_000)
        expect(page.get_by_label("Counters (0: all)")).to_have_value("4")
        expect(page.locator(".besm-typed input")).to_have_value("14")
        page.locator(".besm-outlook", has_text="Before rolling").wait_for(timeout=30_000)
        first_screen(page, (("order", ".besm-order"), ("odds", ".besm-outlook"), ("act", "button.besm-act")), "units")
        # rolled with the seed: what comes next starts clear
        typed(page, ""); page.locator("button.besm-act").click()
        expect(page.locator(".besm-order .besm-order-head")).not_to_contain_text(f"{NISHI} acts", timeout=30_000)
        expect(page.get_by_label("Counters (0: all)")).to_have_value("0", timeout=30_000)
        assert errors == [], errors
    finally:
        ctx.close()


def test_narrative_battle_laid_out_for_play(browser, dashboards_url):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        fresh_battle(page, dashboards_url)
        # set-up open until the battle starts (New unfolds it: a page that resumed a battle under way had it folded)
        expect(page.locator(".besm-start")).to_be_visible()
        page.locator("button.besm-start").click()
        page.locator(".besm-battle-head").wait_for(timeout=30_000)
        setup_folds(page, "the battle starts")
        expect(page.locator(".besm-dice-need")).to_contain_text("First dice: 1d20 for Kenshin's Battle Check", timeout=30_000)
        typed(page, "11")
        expect(page.locator(".besm-dice-need")).to_contain_text("Next dice: type 1d20 for Toghrul's Battle Check", timeout=30_000)
        page.locator("button.besm-play-turn").click()
        expect(page.locator(".besm-play-message")).to_contain_text("Type 1d20 for Toghrul's Battle Check, then press the button again",
                                                                   timeout=30_000)
        typed(page, "11 12 10 7"); page.locator("button.besm-play-turn").click()
        text_is(page, ".besm-battle-head .besm-turn", "2")
        names = order(page)
        assert len(names) == 2
        expect(page.locator(f".besm-order .besm-side[data-name='{names[0]}'] .besm-bar[data-label='Army Strength']")).to_contain_text("5100 / 5200")
        # turn 2: circumstances declared, kept across a reload
        number(page, "besm-circ-A", 2)
        page.locator(".besm-turn-odds", has_text="Battle Checks Samurai +21").wait_for(timeout=30_000)  # 17, last turn's +2 and the GM's +2
        page.reload(timeout=120_000)
        page.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
        expect(page.locator(".besm-circ-A input")).to_have_value("2", timeout=30_000)
        page.locator(".besm-turn-odds", has_text="Before rolling").wait_for(timeout=30_000)
        first_screen(page, (("order", ".besm-order"), ("odds", ".besm-turn-odds"), ("act", "button.besm-play-turn")), "battle")
        typed(page, ""); page.locator("button.besm-play-turn").click()  # rolled with the seed: the next turn starts clear
        text_is(page, ".besm-battle-head .besm-turn", "3")
        expect(page.locator(".besm-circ-A input")).to_have_value("0", timeout=30_000)
        assert errors == [], errors
    finally:
        ctx.close()


@pytest.mark.parametrize("url, started, act, seen", [
    (UNITS, ".besm-round-head", lambda pg: (typed(pg, "12 15"), pg.locator("button.besm-initiative").click()), f"{NISHI} acts"),
    (BATTLE, ".besm-battle-head", lambda pg: (typed(pg, "11 12 10 7"), pg.locator("button.besm-play-turn").click()), "Turn 2")])
def test_two_screens_and_the_players_view_follow(browser, dashboards_url, url, started, act, seen):
    ctx_a, ctx_b, ctx_p = browser.new_context(), browser.new_context(), browser.new_context(viewport={"width": 400, "height": 800})
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        a.goto(dashboards_url + url, timeout=180_000)
        a.locator(".besm-tracker").wait_for(timeout=120_000)
        a.locator("button.besm-new").click(); a.locator("button.besm-start").click()
        a.locator(started).wait_for(timeout=30_000)
        b.goto(dashboards_url + url, timeout=180_000)
        b.locator(".besm-order .besm-side").first.wait_for(timeout=120_000)
        p.goto(dashboards_url + url + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side").first.wait_for(timeout=120_000)
        assert p.locator(".besm-tracker").count() == 0  # read-only: no tracker
        act(a)
        a.locator(".besm-order .besm-order-head", has_text=seen).wait_for(timeout=30_000)
        t0 = time.time()
        b.locator(".besm-order .besm-order-head", has_text=seen).wait_for(timeout=30_000)  # on its own: no reload, no action
        seen_b = time.time() - t0
        p.locator(".besm-players .besm-order-head", has_text=seen).wait_for(timeout=30_000)
        seen_p = time.time() - t0
        print(f"{url}: seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        expect(b.locator(".besm-history-message")).to_contain_text("changed on another screen")
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()
