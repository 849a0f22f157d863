"""Every control in every tracker's play area receives a real click at its centre, at 1366 x 900 and at 400 x 800: nothing
(a list spilling out of its box, a row laid over another) lies over a button, box or tick box. One page per dashboard,
each tracker brought into play as a GM leaves it, then looked at at both widths."""
import pytest
from playwright.sync_api import expect

from tests.dashboards import test_besm_d20_character as character
from tests.dashboards import test_encounters as encounters
from tests.dashboards.kit import SETUP_TITLE, check_clickable
from tests.dashboards.test_chase import chase_round, fresh as fresh_chase
from tests.dashboards.test_chase_table import chase_with_a_cab
from tests.dashboards.test_home_dice_tristat import add_fighters, fill, fresh_fight, tick_target
from tests.dashboards.test_narrative_battle import fresh as fresh_battle, typed as battle_dice
from tests.dashboards import test_play_screen_fight as d20
from tests.dashboards.test_unit_combat import fresh as fresh_units
from tests.dashboards.test_wounds_tracker import URL as WOUNDS, WOUNDS as WOUNDS_TRACKER, open_wounds

pytestmark = pytest.mark.browser
WIDTHS = ((1366, 900), (400, 800))
ROOT = ".besm-play-box"  # the tracker laid out for play: its header, the order of play, the action panel, the log and the saves
SETUP_INPUTS = f"{ROOT} .besm-setup input"
SETUP_SHOWN = "s => [...document.querySelectorAll(s)].some(e => e.getClientRects().length)"  # the set-up fold is open


def tristat_in_play(page, url):
    "Aiko's turn in round 1: a target ticked, so every part of her declaration (the twelve modifiers too) is shown."
    t = fresh_fight(page, url)
    add_fighters(page, t, [("Aiko", 8, 6, 25), ("Oni", 5, 5, 10), ("Rei", 7, 6, 20)])
    fill(t, "Typed dice", "6 1 3"); t.get_by_role("button", name="Roll initiative").click()
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Aiko'", timeout=30_000)
    tick_target(page, t, "Oni", ["Oni", "Rei"])
    expect(t.locator(".besm-odds-panel")).to_contain_text("Aiko hits with", timeout=30_000)


def chase_in_play(page, url):
    t = fresh_chase(page, url)
    page.locator(".besm-lead-in input").fill("12"); page.locator("button.besm-start").click()
    expect(page.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=30_000)
    chase_round(page, t, 1)


def car_chase_in_play(page, url):
    "A cab in the chase, turn 1 ended: turn 2 in play."
    t = chase_with_a_cab(page, url)
    page.locator(".besm-order .besm-side[data-name='Cab']").wait_for(timeout=30_000)
    t.locator("button.besm-end-turn").click()
    expect(t.locator(".besm-order .besm-turn")).to_contain_text("Turn 2", timeout=30_000)


def battle_in_play(page, url):
    fresh_battle(page, url)
    page.locator("button.besm-start").click()
    page.locator(".besm-battle-head").wait_for(timeout=30_000)
    battle_dice(page, "11 12 10 7"); page.locator("button.besm-play-turn").click()
    page.locator(".besm-order .besm-order-head", has_text="Turn 2").wait_for(timeout=30_000)


def units_in_play(page, url):
    fresh_units(page, url)
    page.locator("button.besm-start").click()
    page.locator(".besm-round-head", has_text="roll Initiative").wait_for(timeout=30_000)


def wounds_in_play(page, url):
    page.goto(url + WOUNDS, timeout=180_000)
    t = open_wounds(page)
    t.locator("button.besm-new").click()
    t.locator("button.besm-start").click()
    expect(t.locator(".besm-log")).to_contain_text("→ 40 HP", timeout=30_000)


def character_in_play(page, url):
    "The damage-save record in round 2, the Fate Point ledger before a second spend, the Classless ledger before a second buy: each tab looked at in turn."
    character.open_page(page, url)
    character.damage_into_round_two(page)
    return {"Damage saves": lambda: None, "Fate Points": lambda: character.fate_into_a_second_spend(page),
            "Classless": lambda: character.classless_into_a_second_buy(page)}


def d20_fight_in_play(page, url):
    "Aiko's turn in round 1: a target ticked and answered, so every part of her card is shown."
    t = d20.fresh_fight(page, url)
    d20.add_fighters(t)
    d20.fill(t, "besm-typed-dice", "15 12 10 5"); t.locator("button.besm-roll-initiative").click()
    d20.now(page, "Aiko")
    d20.target(t, "Oni"); d20.answer(t, "Oni", "dodge/parry")
    expect(t.locator(".besm-odds-line")).to_contain_text("lands")


def stamina_in_play(page, url):
    t = encounters.stamina_tab(page, url)
    encounters.into_round_two(page, t)


DASHBOARDS = {  # how each dashboard's tracker is opened and brought into play (a dashboard with several: how to bring each tab's)
    "tristat": tristat_in_play, "chase": chase_in_play, "car chase": car_chase_in_play, "narrative battle": battle_in_play,
    "unit combat": units_in_play, "wounds": wounds_in_play, "damage saves, Fate Points, Classless": character_in_play,
    "Stamina": stamina_in_play, "anime d20 fight": d20_fight_in_play,
}


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", DASHBOARDS)
def test_every_control_in_play_takes_a_click(browser, dashboards_url, name):
    into_play = DASHBOARDS[name]
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        tabs = into_play(page, dashboards_url) or {"": lambda: None}  # a dashboard with several trackers: each tab in turn
        for tab, prepare in tabs.items():
            page.set_viewport_size({"width": 1366, "height": 900})
            prepare()
            for width, height in WIDTHS:
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=width)
                try: page.wait_for_function(f"s => !({SETUP_SHOWN})(s)", arg=SETUP_INPUTS, timeout=30_000)  # its update comes after the order's
                except Exception: raise AssertionError(f"{name} {tab}: the set-up should be folded away in play") from None
                seen = check_clickable(page, ROOT)
                fold = page.locator(f"{ROOT} :is({SETUP_TITLE})").locator("visible=true").first
                fold.click()  # the set-up, opened again in play
                page.wait_for_function(SETUP_SHOWN, arg=SETUP_INPUTS)
                opened = check_clickable(page, ROOT)
                fold.click()
                page.wait_for_function(f"s => !({SETUP_SHOWN})(s)", arg=SETUP_INPUTS)
                print(f"{name} {tab} at {width} px: {len(seen)} controls take a click, {len(opened)} with the set-up open")
        assert errors == [], errors
    finally:
        ctx.close()


def test_the_click_check_sees_a_control_covered(browser, dashboards_url):
    "Not vacuous: a button with a box laid over its centre, and one past the screen's edge, are both reported."
    ctx = browser.new_context(viewport={"width": 400, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(f"{dashboards_url}/voila/render/index.ipynb", timeout=180_000)
        page.locator("#rendered_cells").wait_for(state="visible", timeout=120_000)
        page.evaluate("""() => document.querySelector('#rendered_cells').insertAdjacentHTML('beforeend',
            '<div class="besm-play"><button class="one">Covered</button><div style="position:relative;top:-20px;height:30px;background:#fff">over it</div>'
            + '<div style="overflow:hidden;width:100px"><button class="two" style="margin-left:300px">Hidden past the edge</button></div></div>')""")
        with pytest.raises(AssertionError) as err:
            check_clickable(page, ".besm-play")
        said = str(err.value).splitlines()
        assert said == ['Covered: a click at its centre lands on div. "over it"',
                        'Hidden past the edge: clipped by div. "Hidden past the edge", a box that does not scroll'], said
    finally:
        ctx.close()
