"""The BESM d20 character options dashboard in a real browser: a damage save driven through the page and checked against
the engine (odds, the result, a Fate Point, undo), the tracker kit's promises (reload, undo across rounds, saves), and
the same page at 400 px; the damage-save record, the Fate Point ledger and the classless ledger laid out for play (the
record, the odds and the button on the first screen), on two screens, and the players' view."""
import os
import re
import time
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.damage_saves import DamageTrack, Target
from besm_nb.dice import fmt_odds
from tests.conftest import LOCAL
from tests.dashboards.kit import check_tracker_kit, choose, draft_kept, quiet, resize

pytestmark = pytest.mark.browser
URL = "/voila/render/besm_d20_character.ipynb"
TRACKER = ".besm-damage-tracker"
REI = Target("Rei", con=2, armour=2, damn_healthy=1, fortitude=4, level=6, fate_points=3)  # the tracker's starting target


def open_page(pg, base):
    pg.goto(base + URL, timeout=180_000)
    pg.locator(f"{TRACKER} .besm-order .besm-side").first.wait_for(timeout=180_000)


def text_is(pg, selector, value):
    pg.wait_for_function("([s, v]) => document.querySelector(s)?.innerText === v", arg=[selector, value], timeout=20_000)


def condition_is(pg, condition, root=TRACKER):
    "The record beside the action panel says the target's conditions (the line above it: 'Rei: Stunned, Injured (1)')."
    expect(pg.locator(f"{root} .besm-order .besm-turn").first).to_have_text(f"Rei: {condition}", timeout=30_000)


def fate_points_are(pg, n):
    expect(pg.locator(f'{TRACKER} .besm-order .besm-bar[data-label="Fate Points"]')).to_have_text(
        re.compile(rf"(^|\D){n} / \d+"), timeout=30_000)


def odds_show(pg, odds):
    "The odds panel shows every result's exact chance, as the engine gives it."
    for name, p in odds.items():
        pg.locator(".besm-round-odds", has_text=f"{name} {fmt_odds(p)}").first.wait_for(timeout=20_000)


def fill(pg, selector, value):
    box = pg.locator(f"{selector} input").first
    box.fill(str(value))
    box.press("Tab")


def fresh_record(pg):
    "Start from a blank record whatever an earlier test left (New keeps the old one as a backup)."
    pg.locator(f"{TRACKER} button.besm-new").click()
    condition_is(pg, "Unhurt")


def damage_save_through_the_page(pg):
    "Set up an attack, roll a typed save, spend a Fate Point, undo it: each step against the engine."
    track = DamageTrack(REI)
    fill(pg, ".besm-damage-bonus", 3)
    odds_show(pg, track.odds(18))  # Damage Bonus +3: DC 18
    fill(pg, ".besm-damage-bonus", 10)
    pg.locator(".besm-round-odds", has_text="DC 25").first.wait_for(timeout=20_000)
    odds_show(pg, track.odds(25))
    fill(pg, ".besm-d20", 3)
    pg.locator("button.besm-roll-save").click()
    track.attack(25, natural=3)  # 3 + 5 = 8 vs 25: fails by 17, Disabled
    assert track.record.condition == "Disabled, Injured (1)"
    condition_is(pg, track.record.condition)
    pg.locator(".besm-log", has_text="d20 3 +5 = 8").first.wait_for(timeout=20_000)
    pg.locator("button.besm-fate").click()
    track.fate_point()
    assert track.record.condition == "Stunned, Injured (1)"  # one step milder
    condition_is(pg, track.record.condition)
    fate_points_are(pg, 2)
    odds_show(pg, track.odds(18))  # the next attack starts clear (Damage Bonus +3), and its odds carry the lethal hit's −1
    pg.locator(f"{TRACKER} button.besm-undo").click()
    track.undo()
    condition_is(pg, "Disabled, Injured (1)")
    return track


def test_the_damage_save_tracker_keeps_everything(page, dashboards_url):
    def save(t):
        t.locator(".besm-d20 input").first.fill("3")
        t.locator("button.besm-roll-save").click()  # a lethal attack at DC 18: 3 + 5 = 8, stunned
        condition_is(page, "Stunned, Injured (1)")
    def end_round(t):
        t.locator("button.besm-end-round").click()
        condition_is(page, "Injured (1)")
    check_tracker_kit(page, dashboards_url + URL, TRACKER, save, end_round,
                      lambda t: t.locator(".besm-order").first.inner_text(), "besm-d20-damage-track")


def test_a_damage_save_through_the_page(page, dashboards_url):
    open_page(page, dashboards_url)
    fresh_record(page)
    track = damage_save_through_the_page(page)
    # a refused step shows beside its buttons, naming the label on screen, and changes nothing
    fill(page, ".besm-d20", 25)
    page.locator("button.besm-roll-save").click()
    page.locator(".besm-attack-message", has_text="d20 rolled: must be from 1 to 20, got 25").first.wait_for(timeout=20_000)
    condition_is(page, track.record.condition)
    # the page opened again: the record is where it was left
    open_page(page, dashboards_url)
    condition_is(page, track.record.condition)
    page.locator(".besm-log", has_text="d20 3 +5 = 8").first.wait_for(timeout=20_000)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_the_dashboard_at_400_px(browser, dashboards_url):
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    pg = ctx.new_page()
    outside, errors = [], []
    def route(r):
        u = urlparse(r.request.url)
        if u.scheme in ("http", "https", "ws", "wss") and u.hostname not in LOCAL:
            outside.append(r.request.url)
            return r.abort()
        return r.continue_()
    pg.route("**/*", route)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_page(pg, dashboards_url)
        fresh_record(pg)
        damage_save_through_the_page(pg)
        tabs = pg.locator(".besm-character > .lm-TabBar .lm-TabBar-tab")
        assert tabs.count() == 7
        for i in range(tabs.count()):
            tabs.nth(i).click()
            quiet(pg, ".besm-character")  # a tab is made when first opened: its widgets all drawn
            title = tabs.nth(i).inner_text()
            assert pg.evaluate("document.documentElement.scrollWidth") <= 400, title
            over = pg.evaluate("""() => [...document.querySelectorAll('.besm-character *')].filter(e => {
                const r = e.getBoundingClientRect(); return r.width > 0 && r.right > document.documentElement.clientWidth + 1; })
                .map(e => e.className).slice(0, 5)""")
            assert over == [], (title, over)  # nothing runs off the right edge
            cut = pg.evaluate("""() => [...document.querySelectorAll('.besm-character button, .besm-character .lm-TabBar-tabLabel')]
                .filter(b => b.offsetWidth > 0 && b.scrollWidth > b.clientWidth + 1).map(b => b.innerText)""")
            assert cut == [], (title, cut)  # every button and tab shows its whole label
        assert outside == [] and errors == [], (outside, errors)
    finally:
        ctx.close()


# -- laid out for play, on several screens ------------------------------------------------------------------------------
from tests.dashboards.test_tristat_table import where  # noqa: E402

SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there
FATE, CLASSLESS = ".besm-fate-ledger", ".besm-classless"


def open_tab(pg, title, root):
    pg.locator(".besm-character > .lm-TabBar .lm-TabBar-tab", has_text=title).first.click()
    pg.locator(f"{root} .besm-order").first.wait_for(timeout=60_000)


def damage_into_round_two(pg):
    "A save failed in round 1 (typed 3 against DC 18: stunned), the round ended, and the next attack declared."
    fresh_record(pg)
    fill(pg, f"{TRACKER} .besm-d20", 3)
    pg.locator(f"{TRACKER} button.besm-roll-save").click()
    condition_is(pg, "Stunned, Injured (1)")
    pg.locator(f"{TRACKER} button.besm-end-round").click()
    expect(pg.locator(f"{TRACKER} .besm-order .besm-round-now")).to_have_text("2", timeout=30_000)
    fill(pg, f"{TRACKER} .besm-damage-bonus", 6)
    pg.locator(f"{TRACKER} .besm-round-odds", has_text="DC 21").first.wait_for(timeout=30_000)


def fate_into_a_second_spend(pg):
    open_tab(pg, "Fate Points", FATE)
    pg.locator(f"{FATE} button.besm-new").click()
    expect(pg.locator(f"{FATE} .besm-order .besm-turn")).to_have_text("Usagi: 3 Fate Points", timeout=30_000)
    pg.locator(f"{FATE} button.besm-fp-spend").click()  # Left For Dead
    expect(pg.locator(f"{FATE} .besm-order .besm-turn")).to_have_text("Usagi: 2 Fate Points", timeout=30_000)
    choose(pg.locator(f"{FATE} .besm-fp-use"), "Raw Power")  # one tap
    expect(pg.locator(f"{FATE} .besm-odds-panel")).to_contain_text("1d6 + Level 5 = 6 to 11, each 1/6 (16.67%)", timeout=30_000)
    expect(pg.locator(f"{FATE} .besm-dice-need")).to_contain_text("Dice: 1d6 for Raw Power")


def classless_into_a_second_buy(pg):
    open_tab(pg, "Classless", CLASSLESS)
    pg.locator(f"{CLASSLESS} button.besm-new").click()
    expect(pg.locator(f"{CLASSLESS} .besm-order .besm-turn")).to_have_text("Kaede: ECL 5, 90 CP left", timeout=30_000)
    choose(pg.locator(f"{CLASSLESS} .besm-cl-pick"), "Dexterity")
    fill(pg, f"{CLASSLESS} .besm-cl-count", 4)
    expect(pg.locator(f"{CLASSLESS} .besm-odds-panel")).to_contain_text("Dexterity +4: 2 CP", timeout=30_000)
    pg.locator(f"{CLASSLESS} button.besm-cl-buy").click()
    expect(pg.locator(f"{CLASSLESS} .besm-order .besm-turn")).to_have_text("Kaede: ECL 5, 88 CP left", timeout=30_000)
    choose(pg.locator(f"{CLASSLESS} .besm-cl-kind"), "save")
    expect(pg.locator(f"{CLASSLESS} .besm-odds-panel")).to_contain_text("Fortitude save +1: 1 CP", timeout=30_000)


def first_screen(pg, name, root, button):
    "Where the record, the odds and the button sit at 1366 x 900 and at 400 x 800 (screenshots of both)."
    sel = {"record": f"{root} .besm-order", "odds": f"{root} .besm-odds-panel", "button": f"{root} {button}"}
    resize(pg, 1366, 900)
    assert pg.locator(f"{root} .besm-setup .lm-AccordionPanel, {root} .besm-setup .widget-accordion-content").evaluate_all(
        "els => els.every(e => !e.getClientRects().length)"), f"{name}: the set-up should fold away once play starts"
    boxes = {k: where(pg, s) for k, s in sel.items()}
    print(f"{name} 1366x900:", {k: (round(b["top"]), round(b["bottom"]), round(b["left"])) for k, b in boxes.items()})
    SHOTS and pg.screenshot(path=f"{SHOTS}/{name}-1366.png")
    for k, b in boxes.items(): assert b["bottom"] <= 900, f"{name}: the {k} ends at {b['bottom']:.0f} px, below the first screen"
    assert boxes["record"]["right"] <= boxes["odds"]["left"], f"{name}: the record stands beside the action panel"
    resize(pg, 400, 800)
    boxes = {k: where(pg, s) for k, s in sel.items()}
    print(f"{name} 400x800:", {k: (round(b["top"]), round(b["bottom"])) for k, b in boxes.items()})
    SHOTS and pg.screenshot(path=f"{SHOTS}/{name}-400.png")
    # on a phone the odds and the button stand in the bar fixed at the bottom of the screen, over the record and the card
    assert 0 <= boxes["odds"]["top"] < boxes["button"]["top"] and boxes["button"]["bottom"] <= 800, (name, boxes)
    assert pg.locator(f"{root} .besm-resolve-bar").evaluate("e => getComputedStyle(e).position") == "fixed", name
    assert pg.evaluate("document.documentElement.scrollWidth") <= 400, name
    pg.set_viewport_size({"width": 1366, "height": 900})


def test_the_record_and_ledgers_laid_out_for_play_and_declarations_kept_across_a_reload(browser, dashboards_url, dashboards_server):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_page(pg, dashboards_url)
        damage_into_round_two(pg)
        expect(pg.locator(f"{TRACKER} .besm-dice-need")).to_contain_text("a d20 for Rei's Damage Save")
        first_screen(pg, "damage-saves", TRACKER, "button.besm-roll-save")
        fate_into_a_second_spend(pg)
        first_screen(pg, "fate-points", FATE, "button.besm-fp-spend")
        classless_into_a_second_buy(pg)
        first_screen(pg, "classless", CLASSLESS, "button.besm-cl-buy")
        # half made on each: the next attack, a spend, a purchase; then a reload brings all three back
        open_tab(pg, "Damage saves", TRACKER)
        pg.locator(f"{TRACKER} .besm-rare-hit").get_by_text("More:").first.click()  # the rarer parts of the hit, in the card's fold
        fill(pg, f"{TRACKER} .besm-attacker", 9); fill(pg, f"{TRACKER} .besm-d20", 12)
        draft_kept(dashboards_server[1].saves, lambda d: str(d["tracker"].get("attacker")) == "9" and d["tracker"].get("d20") == "12")
        pg.reload(timeout=120_000)
        pg.locator(f"{TRACKER} .besm-history-message", has_text="Resumed").first.wait_for(timeout=120_000)
        expect(pg.locator(f"{TRACKER} .besm-damage-bonus input")).to_have_value("6", timeout=30_000)
        expect(pg.locator(f"{TRACKER} .besm-attacker input")).to_have_value("9")
        expect(pg.locator(f"{TRACKER} .besm-rare-hit")).to_contain_text("set: attacker's Level")  # the fold, closed, says what it holds
        expect(pg.locator(f"{TRACKER} .besm-d20 input")).to_have_value("12")
        condition_is(pg, "Injured (1)")  # the record has not moved
        open_tab(pg, "Fate Points", FATE)
        expect(pg.locator(f"{FATE} .besm-fp-use").get_by_label("Raw Power", exact=True)).to_be_checked(timeout=30_000)
        open_tab(pg, "Classless", CLASSLESS)
        expect(pg.locator(f"{CLASSLESS} .besm-cl-kind").get_by_label("save", exact=True)).to_be_checked(timeout=30_000)
        # resolved, the next declaration starts clear
        open_tab(pg, "Damage saves", TRACKER)
        pg.locator(f"{TRACKER} button.besm-roll-save").click()  # 12 + 5 − 1 = 16 vs DC 21: a hit
        pg.locator(f"{TRACKER} .besm-log", has_text="d20 12").first.wait_for(timeout=30_000)
        expect(pg.locator(f"{TRACKER} .besm-damage-bonus input")).to_have_value("3", timeout=30_000)
        expect(pg.locator(f"{TRACKER} .besm-attacker input")).to_have_value("")
        assert errors == [], errors
    finally:
        ctx.close()


def test_the_record_on_two_screens_and_the_players_view(browser, dashboards_url):
    "A save on one screen shows on the other and on the players' view on their own (no reload, no action; how soon is in make bench); the players' view shows the ledgers too."
    ctx_a, ctx_b, ctx_p = browser.new_context(), browser.new_context(), browser.new_context(viewport={"width": 400, "height": 800})
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        open_page(a, dashboards_url)
        fresh_record(a)
        open_page(b, dashboards_url)
        condition_is(b, "Unhurt")
        p.goto(dashboards_url + URL + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side").first.wait_for(timeout=120_000)
        assert p.locator(".besm-tracker, .besm-fate-ledger, .besm-classless").count() == 0  # read-only
        expect(p.locator(".besm-players .besm-turn").first).to_have_text("Rei: Unhurt", timeout=30_000)
        fill(a, f"{TRACKER} .besm-d20", 3)
        a.locator(f"{TRACKER} button.besm-roll-save").click()
        t0 = time.time()
        b.wait_for_function(f"() => document.querySelector('{TRACKER} .besm-order .besm-turn')?.innerText === 'Rei: Stunned, Injured (1)'",
                            timeout=30_000)
        seen_b = time.time() - t0
        p.wait_for_function("() => document.querySelector('.besm-players .besm-turn')?.innerText === 'Rei: Stunned, Injured (1)'",
                            timeout=30_000)
        seen_p = time.time() - t0
        print(f"damage record: seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        SHOTS and p.screenshot(path=f"{SHOTS}/damage-saves-players-400.png")
        expect(p.locator(".besm-players-results").first).to_contain_text("d20 3 +5 = 8")
        expect(b.locator(f"{TRACKER} .besm-history-message")).to_contain_text("changed on another screen")
        p.locator(".besm-character > .lm-TabBar .lm-TabBar-tab", has_text="Fate Points").click()
        p.locator(".besm-players .besm-side[data-name='Usagi']").wait_for(timeout=60_000)
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()


def test_a_screen_behind_is_refused_and_nothing_is_lost(browser, slow_follow_server):
    "On each of the three: screen A acts, screen B (not yet brought up to date) acts too and is refused, then shows A's step."
    url = slow_follow_server[0]
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        open_page(a, url)
        fresh_record(a)
        open_tab(a, "Fate Points", FATE); open_tab(a, "Classless", CLASSLESS)
        open_page(b, url)
        open_tab(b, "Fate Points", FATE); open_tab(b, "Classless", CLASSLESS)
        # the damage record: A rolls, B (behind) ends the round
        open_tab(a, "Damage saves", TRACKER); open_tab(b, "Damage saves", TRACKER)
        fill(a, f"{TRACKER} .besm-d20", 3); a.locator(f"{TRACKER} button.besm-roll-save").click()
        condition_is(a, "Stunned, Injured (1)")
        b.locator(f"{TRACKER} button.besm-end-round").click()
        expect(b.locator(f"{TRACKER} .besm-attack-message")).to_contain_text("changed on another screen", timeout=30_000)
        condition_is(b, "Stunned, Injured (1)")  # B shows A's save: nothing lost, B's step not applied
        # the Fate Point ledger: A spends, B (behind) gains
        open_tab(a, "Fate Points", FATE); open_tab(b, "Fate Points", FATE)
        a.locator(f"{FATE} button.besm-fp-spend").click()
        a.locator(f"{FATE} .besm-log", has_text="Left For Dead").first.wait_for(timeout=30_000)
        b.locator(f"{FATE} button.besm-fp-gain").click()
        expect(b.locator(f"{FATE} .besm-fp-gain-message")).to_contain_text("changed on another screen", timeout=30_000)
        expect(b.locator(f"{FATE} .besm-log")).to_contain_text("Left For Dead")
        expect(b.locator(f"{FATE} .besm-log")).not_to_contain_text("for a major goal")
        # the classless ledger: A buys, B (behind) buys too
        open_tab(a, "Classless", CLASSLESS); open_tab(b, "Classless", CLASSLESS)
        a.locator(f"{CLASSLESS} button.besm-cl-buy").click()
        a.locator(f"{CLASSLESS} .besm-log", has_text="Strength +1").first.wait_for(timeout=30_000)
        b.locator(f"{CLASSLESS} button.besm-cl-session").click()
        expect(b.locator(f"{CLASSLESS} .besm-cl-session-message")).to_contain_text("changed on another screen", timeout=30_000)
        expect(b.locator(f"{CLASSLESS} .besm-log")).to_contain_text("Strength +1")
        expect(b.locator(f"{CLASSLESS} .besm-log")).not_to_contain_text("Session")
    finally:
        for c in (ctx_a, ctx_b): c.close()
