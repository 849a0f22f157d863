"""The GM screen of the narrative battle and unit combat trackers, played as at the table at 1366 x 900 and at 400 x 800:
a turn of the battle (circumstances declared, Play turn, the characters' encounter, the next turn) and a round of unit
combat with three units and a character (a shot at a distance, a character's turn, a charge, the goblins' blow, the
morale checks owed, Next round). At every step the acting side, its card, the odds and the button that resolves are on
the screen as the page left it (it follows play: nothing is scrolled by the test), the bar is fixed at the bottom of a
phone, and every control receives a real click at its centre."""
import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_play_screen, clickable_in_place, followed
from tests.dashboards.test_narrative_battle import fresh as fresh_battle, text_is
from tests.dashboards.test_unit_combat import GOB, fresh as fresh_units, typed

pytestmark = pytest.mark.browser
SCREENS = [(1366, 900), (400, 800)]
NISHI = "Warriors of Nishihama"


def number(page, label, value):
    box = page.locator(".besm-tracker").get_by_label(label, exact=True).first
    box.fill(str(value)); box.press("Tab")


def current(page, name):
    "Wait until the order of play marks `name` as the one acting (None: everyone has acted)."
    page.wait_for_function("n => (document.querySelector('.besm-order .besm-current')?.dataset.name ?? null) === n", arg=name, timeout=30_000)


def declared(page, width, height, step):
    "A declaration made without moving play on: the screen as the page left it, and every control clickable."
    boxes = check_play_screen(page, width, height, step, focus=False)
    clickable_in_place(page)
    return boxes


def pages(browser, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.besm_errors = []
    page.on("pageerror", lambda e: page.besm_errors.append(str(e)))
    return ctx, page


@pytest.mark.parametrize("width, height", SCREENS)
def test_a_battle_turn_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx, page = pages(browser, width, height)
    try:
        fresh_battle(page, dashboards_url)
        page.locator("button.besm-start").click()
        text_is(page, ".besm-as-B", "6,000")
        seen = {"started": followed(page, width, height, "Start battle")}
        # turn 1: the samurai hold the high ground (+2), the dice typed as the table rolled them
        number(page, "Samurai", 2)
        expect(page.locator(".besm-resolve-bar .besm-odds-line")).to_contain_text("Battle Checks Samurai +19, Raiders +10")
        seen["circumstances"] = declared(page, width, height, "the samurai's circumstances")
        typed(page, "11 12 10 7"); page.get_by_role("button", name="Play turn").click()
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("Turn 2")
        expect(page.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Turn 1: Samurai won by 5 to 9")
        seen["turn 1"] = followed(page, width, height, "Play turn")
        expect(page.locator(".besm-circ-A input")).to_have_value("0")  # the next turn's declaration starts clear
        # the characters' encounter for the half-hour just fought (won by 8: 9 + 8 − their Level 4 = 13): one button in the bar
        typed(page, "9 2 1 1 2 2 2 5"); page.get_by_role("button", name="Roll encounter").click()
        page.locator(".besm-fights", has_text="d20 9 → 13 (11 to 19)").wait_for(timeout=30_000)
        seen["encounter"] = followed(page, width, height, "Roll encounter")
        expect(page.get_by_role("button", name="Roll encounter")).to_be_hidden()
        # turn 2, rolled here with the seed shown
        page.get_by_role("button", name="Play turn").click()
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("Turn 3")
        seen["turn 2"] = followed(page, width, height, "the second Play turn")
        print(f"battle {width}x{height}:", seen)
        assert page.besm_errors == [], page.besm_errors
    finally:
        ctx.close()


def add_archers_and_a_character(page):
    "The longbowmen (side A, shooting 1d8 at +3, 100 ft increments) and Baiko, a character, added to the default rosters."
    number(page, "Unit", "Longbowmen")
    number(page, "Unit Size", 4); number(page, "Counter HP", 9)
    page.locator(".besm-tracker").get_by_label("Type", exact=True).select_option("archers")
    number(page, "Ranged bonuses", "3"); number(page, "Ranged damage", "1d8"); number(page, "Range increment (ft)", 100)
    page.locator("button.besm-add-unit").click()
    page.locator(".besm-rosters", has_text="Longbowmen").wait_for(timeout=30_000)
    number(page, "Character", "Baiko"); page.locator(".besm-character-init input").fill("6"); page.locator(".besm-character-init input").press("Tab")
    page.locator("button.besm-add-character").click()
    page.locator(".besm-rosters", has_text="Baiko").wait_for(timeout=30_000)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("width, height", SCREENS)
def test_a_unit_combat_round_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx, page = pages(browser, width, height)
    t = page.locator(".besm-tracker")
    try:
        fresh_units(page, dashboards_url)
        add_archers_and_a_character(page)
        page.locator("button.besm-start").click()
        seen = {"started": followed(page, width, height, "Start battle")}
        typed(page, "5 3 20 10"); page.get_by_role("button", name="Roll Initiative").click()  # bowmen 20, Baiko 16, Nishihama 9, goblins 4
        current(page, "Longbowmen")
        seen["initiative"] = followed(page, width, height, "Roll Initiative")
        # the longbowmen shoot: one tap for the action (the goblins, the only target, already chosen), the distance typed
        t.locator(".besm-action").get_by_label("Ranged attack", exact=True).check()
        number(page, "Distance (ft)", 250)
        expect(page.locator(".besm-resolve-bar .besm-odds-line")).to_contain_text("lands 43.50%")
        expect(t.locator(".besm-target").get_by_label(GOB, exact=True)).to_be_checked()
        seen["the shot declared"] = declared(page, width, height, "the longbowmen's shot")
        typed(page, "10 1 8 8 8 8"); page.get_by_role("button", name="Act").click()
        current(page, "Baiko")
        expect(page.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Goblin raiders 8 counters")
        seen["the shot"] = followed(page, width, height, "the longbowmen's Act")
        # Baiko, a character: his deeds are told in Magic and characters; End turn passes on
        page.get_by_role("button", name="End turn").click()
        current(page, NISHI)
        seen["Baiko"] = followed(page, width, height, "Baiko's End turn")
        # the samurai charge: their first legal action and the only target, already chosen: the dice and Act
        expect(t.locator(".besm-action").get_by_label("Charge", exact=True)).to_be_checked()
        expect(page.locator(".besm-resolve-bar .besm-odds-line")).to_contain_text("lands 67.75%")
        typed(page, "14 9 7 5 9 4 11 6 8 10"); page.get_by_role("button", name="Act").click()
        current(page, GOB)
        seen["the charge"] = followed(page, width, height, "the samurai's charge")
        # the goblins strike back (rolled here with the seed shown)
        expect(t.locator(".besm-action").get_by_label("Attack (melee)", exact=True)).to_be_checked()
        page.get_by_role("button", name="Act").click()
        current(page, None)
        seen["the goblins' blow"] = followed(page, width, height, "the goblins' Act")
        # the morale checks owed (the goblins lost more than a third of their counters this round), one by one
        expect(page.get_by_role("button", name="Morale check")).to_be_visible()
        checks = 0
        while page.get_by_role("button", name="Morale check").is_visible():
            expect(page.locator(".besm-resolve-bar .besm-odds-line")).to_contain_text("of the d20's 20 faces")
            page.get_by_role("button", name="Morale check").click()
            checks += 1
            seen[f"morale check {checks}"] = followed(page, width, height, f"morale check {checks}")
            assert checks <= 4
        page.get_by_role("button", name="Next round").click()
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("2")
        seen["next round"] = followed(page, width, height, "Next round")
        print(f"units {width}x{height}:", seen)
        assert page.besm_errors == [], page.besm_errors
    finally:
        ctx.close()
