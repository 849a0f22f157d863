"""The BESM d20 character options dashboard in a real browser: a damage save driven through the page and checked against
the engine (odds, the result, a Fate Point, undo), the tracker kit's promises (reload, undo across rounds, saves), and
the same page at 400 px."""
from urllib.parse import urlparse

import pytest

from besm_nb.besm_d20.damage_saves import DamageTrack, Target
from besm_nb.dice import fmt_odds
from tests.conftest import LOCAL
from tests.dashboards.kit import check_tracker_kit

pytestmark = pytest.mark.browser
URL = "/voila/render/besm_d20_character.ipynb"
TRACKER = ".besm-damage-tracker"
REI = Target("Rei", con=2, armour=2, damn_healthy=1, fortitude=4, level=6, fate_points=3)  # the tracker's starting target


def open_page(pg, base):
    pg.goto(base + URL, timeout=180_000)
    pg.locator(f"{TRACKER} .besm-condition").first.wait_for(timeout=180_000)


def text_is(pg, selector, value):
    pg.wait_for_function("([s, v]) => document.querySelector(s)?.innerText === v", arg=[selector, value], timeout=20_000)


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
    text_is(pg, ".besm-condition", "Unhurt")


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
    text_is(pg, ".besm-condition", track.record.condition)
    pg.locator(".besm-log", has_text="d20 3 +5 = 8").first.wait_for(timeout=20_000)
    pg.locator("button.besm-fate").click()
    track.fate_point()
    assert track.record.condition == "Stunned, Injured (1)"  # one step milder
    text_is(pg, ".besm-condition", track.record.condition)
    text_is(pg, ".besm-fp", "2")
    odds_show(pg, track.odds(25))  # the next attack's odds carry the lethal hit's −1
    pg.locator(f"{TRACKER} button.besm-undo").click()
    track.undo()
    text_is(pg, ".besm-condition", "Disabled, Injured (1)")
    return track


def test_the_damage_save_tracker_keeps_everything(page, dashboards_url):
    def save(t):
        t.locator(".besm-d20 input").first.fill("3")
        t.locator("button.besm-roll-save").click()  # a lethal attack at DC 18: 3 + 5 = 8, stunned
        t.locator(".besm-condition", has_text="Stunned").first.wait_for(timeout=20_000)
    def end_round(t):
        t.locator("button.besm-end-round").click()
        t.locator(".besm-condition", has_text="Injured (1)").first.wait_for(timeout=20_000)
        page.wait_for_function("() => !document.querySelector('.besm-condition').innerText.includes('Stunned')", timeout=20_000)
    check_tracker_kit(page, dashboards_url + URL, TRACKER, save, end_round,
                      lambda t: t.locator(".besm-status").first.inner_text(), "besm-d20-damage-track")


def test_a_damage_save_through_the_page(page, dashboards_url):
    open_page(page, dashboards_url)
    fresh_record(page)
    track = damage_save_through_the_page(page)
    # a refused step shows beside its buttons, naming the label on screen, and changes nothing
    fill(page, ".besm-d20", 25)
    page.locator("button.besm-roll-save").click()
    page.locator(".besm-attack-message", has_text="d20 rolled: must be from 1 to 20, got 25").first.wait_for(timeout=20_000)
    text_is(page, ".besm-condition", track.record.condition)
    # the page opened again: the record is where it was left
    open_page(page, dashboards_url)
    text_is(page, ".besm-condition", track.record.condition)
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
            pg.wait_for_function("""() => ![...document.querySelectorAll('.besm-character .widget-html-content')]
                .some(e => e.offsetWidth > 0 && e.innerText.trim() === 'Opening…')""", timeout=60_000)  # a tab is made when first opened
            pg.wait_for_timeout(500)
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
