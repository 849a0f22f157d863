"""The unit combat tracker in a real browser: a skirmish played through the page, checked against the engine; only
legal actions offered; undo across a round; refusals beside their button; an average Hit Dice typed as 1.5; a
character's turn in the order; what every tracker keeps (reload, undo and redo across rounds, Download and Upload, save
names); and the page at 400 px wide."""
import os

import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.unit_rounds import Combat, UnitAction, legal_actions, start_combat
from besm_nb.ui.besm_d20.units import ACTION_LABELS, GOBLINS, NISHIHAMA
from tests.dashboards.kit import check_foes, check_tracker_kit, undo
from tests.dashboards.test_narrative_battle import settle, typed

pytestmark = pytest.mark.browser
URL = "/voila/render/unit_combat.ipynb"
GOB = "Goblin raiders"


def counters(page, unit, value, timeout=30_000):
    page.wait_for_function(f"document.querySelector(\".besm-counters[data-unit='{unit}']\")?.innerText === '{value}'", timeout=timeout)


def fresh(page, dashboards_url):
    page.goto(dashboards_url + URL, timeout=180_000)
    page.locator(".besm-units").wait_for(timeout=120_000)
    page.locator("button.besm-new").click()
    page.locator(".besm-unit-status", has_text="Add the units").wait_for(timeout=30_000)


def offered(page):
    "The actions offered: a toggle each."
    return [o.replace("\xa0", " ").strip() for o in page.locator(".besm-action .widget-radio-box label").all_inner_texts()]


def choose(page, part, label):
    "One tap on a toggle of the card (an action, a target, a unit owing a check) and the tracker has it."
    settle(page if hasattr(page, "wait_for_function") else page.page)  # a tracker's locator: its page
    toggle = page.locator(f".besm-{part}").get_by_label(label, exact=True)
    toggle.check()
    expect(toggle).to_be_checked()


def test_a_skirmish_played_through_the_page(page, dashboards_url):
    fresh(page, dashboards_url)
    page.locator("button.besm-start").click()
    typed(page, "12 15"); page.locator("button.besm-initiative").click()
    page.locator(".besm-round-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
    war = Combat(start_combat([NISHIHAMA, GOBLINS]))
    war.do(UnitAction("initiative"), [12, 15])
    now = war.state.current()
    expect(page.locator(".besm-action .widget-radio-box label")).to_have_text([ACTION_LABELS[a] for a in legal_actions(war.state, now)],
                                                            timeout=30_000)  # only what the rules allow

    choose(page, "action", "Charge")
    expect(page.locator(".besm-target").get_by_label(GOB, exact=True)).to_be_checked()  # the only target it may reach: chosen already
    box = page.get_by_label("In reach (0: all)")
    box.fill("8"); box.press("Tab")
    page.locator(".besm-outlook", has_text="lands 60.50%").wait_for(timeout=30_000)
    typed(page, "14 9 7 5 9 4 11 6 8 10"); page.locator("button.besm-act").click()
    war.do(UnitAction("attack", unit=now, target=GOB, option="charge", in_range=8), [14, 9, 7, 5, 9, 4, 11, 6, 8, 10])
    counters(page, GOB, str(war.state.get(GOB).counters))
    page.locator(".besm-round-head", has_text="Goblin raiders acts").wait_for(timeout=30_000)
    expect(page.locator(".besm-action .widget-radio-box label")).to_have_text([ACTION_LABELS[a] for a in legal_actions(war.state, GOB)],
                                                            timeout=30_000)  # in melee now: no charge
    assert "Charge" not in offered(page)

    typed(page, "11 8 6 2 5 4 6 1"); page.locator("button.besm-act").click()
    expect(page.locator(".besm-owing").get_by_label("Goblin raiders (DC 15)", exact=True)).to_be_checked(timeout=30_000)
    expect(page.locator("button.besm-next-round")).to_be_hidden()  # not before the morale check owed: only Morale check is offered
    expect(page.locator("button.besm-morale")).to_be_visible()
    typed(page, "9"); page.locator("button.besm-morale").click()
    expect(page.locator("button.besm-next-round")).to_be_visible(timeout=30_000)
    page.locator("button.besm-next-round").click()
    page.wait_for_function("document.querySelector('.besm-round')?.innerText === '2'", timeout=30_000)

    # undo back across the round boundary and the morale check, to the goblins' blow
    undo(page.locator(".besm-units").first, 2)
    page.wait_for_function("document.querySelector('.besm-round')?.innerText === '1'", timeout=30_000)
    counters(page, GOB, "6")
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_hit_dice_averages_and_a_characters_turn(page, dashboards_url):
    "The Hit Dice box takes 1.5 (the rule averages); a character added to the rosters gets a turn in the order: End turn only."
    fresh(page, dashboards_url)
    box = page.locator(".besm-hd input")
    box.fill("1.5"); box.press("Tab")
    page.wait_for_function("document.querySelector('.besm-hp-calc')?.innerText === '15'", timeout=30_000)  # 1.5 × 10 at Con 10
    box.fill("1,5"); box.press("Tab")
    page.locator(".besm-counter-hp", has_text="Hit Dice (average): a number such as 2, 1.5 or 7/4").wait_for(timeout=30_000)
    name = page.locator(".besm-character-name input")
    name.fill("Baiko"); name.press("Tab")
    init = page.locator(".besm-character-init input")
    init.fill("6"); init.press("Tab")
    page.locator("button.besm-add-character").click()
    page.locator(".besm-rosters", has_text="Baiko").wait_for(timeout=30_000)
    page.locator("button.besm-start").click()
    typed(page, "12 15 15"); page.locator("button.besm-initiative").click()  # Baiko 15 + 6 = 21: first
    page.locator(".besm-round-head", has_text="Baiko acts").wait_for(timeout=30_000)
    expect(page.locator(".besm-action .widget-radio-box label")).to_have_text(["End turn"], timeout=30_000)  # the toggles themselves, not the head before them
    page.locator(".besm-magic-who", has_text="Done by Baiko").wait_for(timeout=30_000)
    expect(page.locator(".besm-order .besm-current")).to_have_attribute("data-name", "Baiko")  # his turn in the order of play too
    page.locator("button.besm-act", has_text="End turn").click()
    page.locator(".besm-round-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
    page.locator(".besm-action .widget-radio-box label", has_text="Charge").wait_for(timeout=30_000)
    assert "Ranged attack" not in offered(page) and "End turn" not in offered(page)
    assert page.errors == [], page.errors


def test_the_tracker_keeps_everything(page, dashboards_url):
    "The checks every tracker shares: reload, undo across a round and redo, Download/Upload, a corrupt upload, save names."
    war = Combat(start_combat([NISHIHAMA, GOBLINS]))
    war.do(UnitAction("initiative"), [12, 15])
    war.do(UnitAction("attack", unit=war.state.current(), target=GOB, option="charge", in_range=8), [14, 9, 7, 5, 9, 4, 11, 6, 8, 10])
    war.do(UnitAction("pass", unit=GOB), [])
    assert war.state.morale_due(GOB)  # the charge cost the goblins a third of their counters: a check is owed

    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-unit-status", has_text="Add the units").wait_for(timeout=30_000)
        t.locator("button.besm-start").click()
        typed(page, "12 15"); t.locator("button.besm-initiative").click()
        t.locator(".besm-round-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
        choose(t, "action", "Charge")
        box = t.get_by_label("In reach (0: all)")
        box.fill("8"); box.press("Tab")
        typed(page, "14 9 7 5 9 4 11 6 8 10"); t.locator("button.besm-act").click()
        counters(page, GOB, str(war.state.get(GOB).counters))
        t.locator(".besm-round-head", has_text="Goblin raiders acts").wait_for(timeout=30_000)
        t.locator(".besm-order .besm-current[data-name='Goblin raiders']").wait_for(timeout=30_000)  # drawn after their actions are offered
        choose(t, "action", ACTION_LABELS["pass"])
        t.locator("button.besm-act").click()
        t.locator(".besm-round-head", has_text="every unit has acted").wait_for(timeout=30_000)
        typed(page, "9"); t.locator("button.besm-morale").click()
        t.locator(".besm-unit-status", has_text="shaken").wait_for(timeout=30_000)

    def next_round(t):
        t.locator("button.besm-next-round").click()
        page.wait_for_function("document.querySelector('.besm-round')?.innerText === '2'", timeout=30_000)

    def marker(t):
        return t.locator(".besm-unit-status").inner_text() + "\n" + t.locator(".besm-log").inner_text()

    check_tracker_kit(page, dashboards_url + URL, ".besm-units", step, next_round, marker, "besm-unit-tracker",
                      open_tab=lambda pg: pg.locator(".besm-units").wait_for(timeout=120_000))
    assert page.outside == [], page.outside


def test_the_page_fits_400_px(page, dashboards_url):
    page.set_viewport_size({"width": 400, "height": 900})
    fresh(page, dashboards_url)
    assert page.evaluate("document.documentElement.scrollWidth") <= 400
    page.locator("button.besm-start").click()
    typed(page, "12 15"); page.locator("button.besm-initiative").click()
    page.locator(".besm-round-head", has_text="acts").wait_for(timeout=30_000)
    choose(page, "action", "Charge")
    page.locator(".besm-outlook", has_text="Before rolling").wait_for(timeout=30_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 400


def test_foes_on_the_players_view(browser, dashboards_url):
    "The goblins ticked as foes, their numbers hidden: marked on the GM's order of play, shown without bars on the players' view while the samurai keep theirs; as bars, without numbers."
    def play(page, t):
        t.locator("button.besm-start").click()
        typed(page, "12 15"); t.locator("button.besm-initiative").click()
        t.locator(".besm-round-head", has_text="Warriors of Nishihama acts").wait_for(timeout=30_000)
    def prepare(page):
        fresh(page, dashboards_url)
        return page.locator(".besm-units").first
    check_foes(browser, dashboards_url + URL, prepare, GOB, GOB, "Warriors of Nishihama", play, os.environ.get("BESM_NB_SHOTS"), "units-foes")
