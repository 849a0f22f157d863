"""The narrative battle tracker in a real browser: a battle played through the page, checked against the engine; undo
across turns; refusals beside their button; what every tracker keeps (reload, undo and redo across turns, Download and
Upload, save names); and the page at 400 px wide."""
import os
import random

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.battle_odds import turn_odds
from besm_nb.besm_d20.battles import Battle, BattleRules, army_from_troops, start_battle
from besm_nb.dice import pct
from besm_nb.ui.besm_d20.battles import DEFAULT_ARMIES, DEFAULT_TROOPS
from tests.dashboards.kit import check_foes, check_tracker_kit, settle, undo
from tests.helpers import assert_beside

pytestmark = pytest.mark.browser
URL = "/voila/render/narrative_battle.ipynb"


def text_is(page, selector, value, timeout=30_000):
    page.wait_for_function(f"document.querySelector({selector!r})?.innerText === {str(value)!r}", timeout=timeout)


def engine() -> Battle:
    "The battle the tracker's default set-up starts."
    armies = [army_from_troops(DEFAULT_ARMIES[s][0], DEFAULT_ARMIES[s][1], DEFAULT_TROOPS[s]) for s in "AB"]
    return Battle(start_battle(*armies, BattleRules(), 0, "A", 3, 4))


def fresh(page, dashboards_url):
    page.goto(dashboards_url + URL, timeout=180_000)
    page.locator(".besm-battles").wait_for(timeout=120_000)
    page.locator("button.besm-new").click()  # the page resumes the last autosave: start afresh (the old one is kept)
    page.locator(".besm-battle-status", has_text="Set up both armies").wait_for(timeout=30_000)


FOLLOWS = "() => Math.max(0, ...[...document.querySelectorAll('.besm-play-box')].map(b => +(b.dataset.followed || 0)))"


def moved_on(page, act):
    "Do `act`, which moves play on, and wait until the page has followed it to the card: a click or a box typed in meanwhile would be lost when the page scrolls and moves the focus."
    before = page.evaluate(FOLLOWS)
    act()
    page.wait_for_function(f"n => ({FOLLOWS})() > n", arg=before, timeout=30_000)


def typed(page, text):
    "Type the dice, once the page has followed play."
    settle(page)
    box = page.locator(".besm-typed input")
    box.fill(text); box.press("Tab")


def test_a_battle_played_through_the_page(page, dashboards_url):
    fresh(page, dashboards_url)
    text_is(page, ".besm-as-calc-A", "5,200"); text_is(page, ".besm-aq-calc-A", "3")
    page.locator("button.besm-start").click()
    text_is(page, ".besm-as-B", "6,000")
    war = engine()
    o = turn_odds(war.state)
    page.locator(".besm-turn-odds", has_text=f"Raiders {pct(o.breaks[1])}").wait_for(timeout=30_000)

    typed(page, "11 12 10 7")
    page.locator("button.besm-play-turn").click()
    war.turn(dice=[11, 12, 10, 7])
    text_is(page, ".besm-as-A", f"{war.state.armies[0].strength:,}"); text_is(page, ".besm-as-B", f"{war.state.armies[1].strength:,}")
    text_is(page, ".besm-aq-B", str(war.state.armies[1].quality))

    typed(page, "9 2 1 1 2 2 2 5")
    page.locator("button.besm-encounter").click()
    page.locator(".besm-fights", has_text="d20 9 → 11 (11 to 19)").wait_for(timeout=30_000)

    # a seeded turn: the page and the engine roll the same dice from the seed shown
    seed = page.locator(".besm-seed input")
    settle(page); seed.fill("4242"); seed.press("Tab")
    page.locator("button.besm-play-turn").click()
    war.encounter(dice=[9, 2, 1, 1, 2, 2, 2, 5]); war.turn(dice=random.Random(4242))
    text_is(page, ".besm-as-A", f"{war.state.armies[0].strength:,}"); text_is(page, ".besm-as-B", f"{war.state.armies[1].strength:,}")
    page.locator(".besm-log", has_text="seed 4242").wait_for(timeout=30_000)

    # undo reaches back across the turn and the encounter
    undo(page.locator(".besm-battles").first, 2)
    text_is(page, ".besm-as-A", "5,100"); text_is(page, ".besm-battle-head .besm-turn", "2")
    expect(page.locator(".besm-fights")).to_have_text("", timeout=30_000)

    # a typed total the dice cannot show: refused beside the button, nothing changes
    typed(page, "25")
    page.locator("button.besm-play-turn").click()
    msg = page.locator(".besm-message", has_text="Typed dice: the 1st typed total is for Kenshin's Battle Check (1d20)").first
    msg.wait_for(timeout=30_000)
    assert_beside(page.locator("button.besm-play-turn"), msg)
    text_is(page, ".besm-battle-head .besm-turn", "2")

    # the battles to simulate are bounded: refused beside the odds button, the bound shown under the boxes
    page.locator(".besm-odds-help", has_text="400,000 battles × turns").wait_for(timeout=30_000)
    n = page.locator(".besm-odds-n input"); settle(page); n.fill("1000000"); n.press("Tab")
    page.locator("button.besm-battle-odds").click()
    msg = page.locator(".besm-message", has_text="Battles to simulate: must be from 100 to 20000").first
    msg.wait_for(timeout=30_000)
    assert_beside(page.locator("button.besm-battle-odds"), msg)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_the_size_and_encounter_switches_through_the_page(page, dashboards_url):
    "The band counts the larger army by default; both armies when switched; an hour-long turn brings two encounter rolls."
    fresh(page, dashboards_url)
    page.locator(".besm-readings-help", has_text="Size band counts").wait_for(timeout=30_000)
    page.locator(".besm-readings-help", has_text="Encounter rolls").wait_for(timeout=30_000)
    minutes = page.get_by_label("Turn (minutes)"); minutes.fill("60"); minutes.press("Tab")
    page.locator("button.besm-start").click()
    page.locator(".besm-battle-status", has_text="(5,000 soldiers)").wait_for(timeout=30_000)
    typed(page, "11 12 10 7"); page.locator("button.besm-play-turn").click()
    text_is(page, ".besm-as-A", "5,100")
    typed(page, "9 2 1 1 2 2 2 5"); page.locator("button.besm-encounter").click()
    page.locator(".besm-fights", has_text="d20 9 → 11 (11 to 19)").wait_for(timeout=30_000)
    expect(page.locator("button.besm-encounter")).to_be_enabled(timeout=30_000)  # the turn's second half-hour
    typed(page, "3 3 1 4 8"); page.locator("button.besm-encounter").click()
    page.locator(".besm-fights", has_text="d20 3 → 5 (1 to 9)").wait_for(timeout=30_000)
    expect(page.locator("button.besm-encounter")).to_be_disabled(timeout=30_000)
    page.locator("button.besm-new").click()
    page.locator(".besm-battle-status", has_text="Set up both armies").wait_for(timeout=30_000)
    expect(minutes).to_have_value("30")  # a new battle's set-up is a first visit's: the next test's page starts there too
    page.locator(".besm-battle-size select").select_option(label="both armies together")
    page.locator("button.besm-start").click()
    page.locator(".besm-battle-status", has_text="(8,600 soldiers)").wait_for(timeout=30_000)
    assert page.errors == [], page.errors


def test_the_tracker_keeps_everything(page, dashboards_url):
    "The checks every tracker shares: reload, undo across a turn and redo, Download/Upload, a corrupt upload, save names."
    war = engine()
    war.turn(dice=[11, 12, 10, 7]); war.turn(dice=[6, 16, 3, 3])
    assert (war.state.turn, war.state.over) == (3, False)  # the second turn leaves the battle going

    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-battle-status", has_text="Set up both armies").wait_for(timeout=30_000)
        moved_on(page, lambda: t.locator("button.besm-start").click())
        text_is(page, ".besm-battle-head .besm-turn", "1")
        typed(page, "11 12 10 7"); moved_on(page, lambda: t.locator("button.besm-play-turn").click())
        text_is(page, ".besm-battle-head .besm-turn", "2"); text_is(page, ".besm-as-A", "5,100")

    def next_turn(t):
        typed(page, "6 16 3 3"); t.locator("button.besm-play-turn").click()
        text_is(page, ".besm-battle-head .besm-turn", "3")
        text_is(page, ".besm-as-A", f"{war.state.armies[0].strength:,}"); text_is(page, ".besm-as-B", f"{war.state.armies[1].strength:,}")
        text_is(page, ".besm-aq-B", str(war.state.armies[1].quality))

    def marker(t):
        return t.locator(".besm-battle-status").inner_text() + "\n" + t.locator(".besm-log").inner_text()

    check_tracker_kit(page, dashboards_url + URL, ".besm-battles", step, next_turn, marker, "besm-battle-tracker",
                      open_tab=lambda pg: pg.locator(".besm-battles").wait_for(timeout=120_000))
    assert page.outside == [], page.outside


def test_the_page_fits_400_px(page, dashboards_url):
    page.set_viewport_size({"width": 400, "height": 900})
    fresh(page, dashboards_url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.locator(".besm-readings-help", has_text="The turn an army breaks").wait_for(timeout=30_000)  # each switch explained
    page.locator("button.besm-start").click()
    text_is(page, ".besm-as-A", "5,200")
    typed(page, "11 12 10 7"); page.locator("button.besm-play-turn").click()
    text_is(page, ".besm-as-A", "5,100")
    page.locator("button.besm-battle-odds").click()
    page.locator(".besm-odds-method", has_text="Simulated").wait_for(timeout=60_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    labels = page.locator("button.besm-play-turn, button.besm-encounter, button.besm-battle-odds")
    for i in range(labels.count()):  # whole button labels: nothing cut off
        assert labels.nth(i).evaluate("b => b.scrollWidth <= b.clientWidth + 1")


def test_foes_on_the_players_view(browser, dashboards_url):
    "The raiders ticked as foes, their numbers hidden: marked on the GM's order of play, shown without bars on the players' view while the samurai keep theirs; as bars, without numbers."
    def play(page, t):
        t.locator("button.besm-start").click()
        typed(page, "11 12 10 7"); t.locator("button.besm-play-turn").click()
        t.locator(".besm-log", has_text="Turn 1").wait_for(timeout=30_000)
    def prepare(page):
        fresh(page, dashboards_url)
        return page.locator(".besm-battles").first
    check_foes(browser, dashboards_url + URL, prepare, "army B", "Raiders", "Samurai", play, os.environ.get("BESM_NB_SHOTS"), "battle-foes")
