"""The GM screen of the two chase trackers, played as at the table at 1366 x 900 and at 400 x 800: a scripted BESM d20
chase (three rounds, each side's manoeuvre chosen with a tap, Herd's terrain shift, typed and seeded dice) and a scripted
car chase turn (a hit aimed at a tyre, its control roll, a hit on the bike's rider and his control roll, End turn). At every
step the acting side, the card with its choices, the odds and the buttons that resolve are on the screen as the page left
it (it follows play: nothing is scrolled by the test), the bar is fixed at the bottom of a phone, and every control
receives a real click at its centre."""
import pytest
from playwright.sync_api import expect

from besm_nb.besm_d20.chase import Chase, ChaseRules, Mecha, Plan, start_chase
from besm_nb.besm_d20.chase_odds import round_odds
from besm_nb.dice import fmt_odds
from tests.dashboards.kit import check_play_screen, clickable_in_place, followed
from tests.dashboards.test_chase import fresh, manoeuvre, offered
from tests.dashboards.test_special_tracker_and_melee import add_vehicle, choose, fill, fresh_chase

pytestmark = pytest.mark.browser
SCREENS = [(1366, 900), (400, 800)]


def screen(width, height):
    "A page of that size whose script errors are kept."
    def open_(browser):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return ctx, page
    return open_


def declared(page, width, height, step):
    "A choice made without moving play on: the screen as the page left it, and every control taking a click."
    boxes = check_play_screen(page, width, height, step, focus=False)
    clickable_in_place(page)
    return boxes


@pytest.mark.parametrize("width, height", SCREENS)
def test_a_besm_d20_chase_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx, page = screen(width, height)(browser)
    try:
        t = fresh(page, dashboards_url)
        chase = Chase(start_chase(Mecha("Interceptor", 6, 2, 200, 40), Mecha("Courier", 5, 3, 180, 35), "close", "predator", 12,
                                  rules=ChaseRules()))  # the tracker's default sides, as the engine plays them beside the page
        page.locator(".besm-lead-in input").fill("12"); page.locator("button.besm-start").click()
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("1", timeout=30_000)
        seen = {"start": followed(page, width, height, "Start chase")}
        # round 1: the predator redlines, the prey zig-zags (a tap each), the table's dice typed
        assert offered(t, "predator")[0] == "Gun It" and offered(t, "prey")[0] == "Pull Ahead"  # the common ones first, and chosen
        manoeuvre(t, "predator", "Redline")
        seen["predator chose"] = declared(page, width, height, "the predator's Redline")
        manoeuvre(t, "prey", "Zig-Zag")
        want = fmt_odds(round_odds(chase.state, "Redline", "Zig-Zag").effect["predator"])
        expect(t.locator(".besm-resolve-bar .besm-round-line")).to_contain_text(f"Redline takes effect {want}", timeout=30_000)
        seen["prey chose"] = declared(page, width, height, "the prey's Zig-Zag")
        fill(t, "besm-typed", "15 9 6 4")
        expect(t.locator(".besm-dice-need")).to_contain_text("are all it needs", timeout=30_000)
        t.locator("button.besm-resolve").click()
        chase.act("Redline", "Zig-Zag", [15, 9, 6, 4])
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("2", timeout=30_000)
        expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Round 1: Redline v Zig-Zag")
        seen["round 1 resolved"] = followed(page, width, height, "round 1's Resolve")
        assert int(t.locator(".besm-lead").first.inner_text()) == chase.state.lead
        # round 2: the predator herds (its terrain shift appears under it), the prey pulls ahead (each side's choice stays until changed)
        assert "Herd" in offered(t, "predator"), (chase.state.lead, offered(t, "predator"))
        manoeuvre(t, "predator", "Herd")
        shift = t.locator(".besm-predator-shift")
        expect(shift).to_be_visible(timeout=30_000)
        seen["Herd chosen"] = declared(page, width, height, "the predator's Herd")
        shift.get_by_label("tight", exact=True).check()  # the terrain shifted, one tap
        expect(t.locator(".besm-round-line")).to_contain_text("Herd takes effect", timeout=30_000)
        seen["terrain shift chosen"] = declared(page, width, height, "Herd's terrain shift")
        manoeuvre(t, "prey", "Pull Ahead")
        expect(t.locator(".besm-round-line")).to_contain_text("Pull Ahead", timeout=30_000)
        seen["prey chose"] = declared(page, width, height, "the prey's Pull Ahead")
        fill(t, "besm-typed", "15 10 6"); t.locator("button.besm-resolve").click()
        chase.act(Plan("Herd", shift_to="tight"), "Pull Ahead", [15, 10, 6])
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("3", timeout=30_000)
        seen["round 2 resolved"] = followed(page, width, height, "round 2's Resolve")
        # round 3: the predator guns it, the prey's Pull Ahead stands, the dice typed, Resolve round
        manoeuvre(t, "predator", "Gun It")
        expect(t.locator(".besm-round-line")).to_contain_text("Gun It takes effect", timeout=30_000)
        seen["predator chose again"] = declared(page, width, height, "the predator's Gun It")
        fill(t, "besm-typed", "9 14 6"); t.locator("button.besm-resolve").click()
        chase.act("Gun It", "Pull Ahead", [9, 14, 6])
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("4", timeout=30_000)
        seen["round 3 resolved"] = followed(page, width, height, "round 3's Resolve")
        assert int(t.locator(".besm-lead").first.inner_text()) == chase.state.lead and not chase.over
        print(f"BESM d20 chase at {width}x{height}:", seen)
        assert page.errors == [], page.errors
    finally:
        ctx.close()


@pytest.mark.parametrize("width, height", SCREENS)
def test_a_car_chase_turn_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx, page = screen(width, height)(browser)
    try:
        t = fresh_chase(page, dashboards_url)
        add_vehicle(t, "Roadster", "car", "Vic", 13, 60)
        add_vehicle(t, "Bike", "motorcycle", "Kai", 12, 50, 0.25)
        # the roadster's tyre: the vehicle, the damage, the place and the tyre, the table's dice, Resolve hit (play starts)
        choose(t, "besm-pick", "Roadster"); fill(t, "besm-damage", "6d6"); choose(t, "besm-where", "Tire -4"); choose(t, "besm-tyre", "front left")
        fill(t, "besm-typed", "20 14")
        expect(t.locator(".besm-resolve-bar .besm-hit-odds")).to_contain_text("before rolling", timeout=30_000)
        expect(t.locator(".besm-dice-need")).to_contain_text("are all it needs", timeout=30_000)  # the tyre's HT roll too: the tyre chosen
        t.locator("button.besm-resolve-hit").click()
        expect(t.locator(".besm-hit-message")).to_contain_text("Rolled (dice 20 14, typed)", timeout=30_000)
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("control roll now: Roadster", timeout=30_000)
        seen = {"tyre hit": followed(page, width, height, "the roadster's tyre hit")}
        expect(t.locator(".besm-resolve-bar .besm-control-panel")).to_contain_text("35/216")  # 13 - 6 at 60 mph: 7 or less on 3d6
        assert t.locator("button.besm-end-turn").is_disabled()
        # its control roll: one tap, the dice rolled here
        t.locator("button.besm-roll-control").click()
        expect(page.locator(".besm-order .besm-turn")).not_to_contain_text("control roll now", timeout=30_000)
        seen["control roll"] = followed(page, width, height, "the roadster's control roll")
        # the bike's rider: the vehicle (a tap), the damage typed, aimed at the driver (a tap), the dice typed, Resolve hit
        choose(t, "besm-pick", "Bike")
        expect(page.locator(".besm-order .besm-current")).to_have_attribute("data-name", "Bike", timeout=30_000)
        seen["bike in view"] = declared(page, width, height, "the bike in view")
        fill(t, "besm-damage", "2d6"); choose(t, "besm-where", "Driver -3")
        seen["bike hit declared"] = declared(page, width, height, "a hit on the bike's rider declared")
        fill(t, "besm-typed", "7"); t.locator("button.besm-resolve-hit").click()
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("control roll now: Bike", timeout=30_000)
        seen["rider hit"] = followed(page, width, height, "the rider's hit")
        fill(t, "besm-typed", "8"); t.locator("button.besm-roll-control").click()
        expect(page.locator(".besm-order .besm-turn")).not_to_contain_text("control roll now", timeout=30_000)
        seen["bike's control roll"] = followed(page, width, height, "the bike's control roll")
        # the turn ends: the damaged slow down
        t.locator("button.besm-end-turn").click()
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("Turn 2", timeout=30_000)
        seen["End turn"] = followed(page, width, height, "End turn")
        print(f"car chase at {width}x{height}:", seen)
        assert page.errors == [], page.errors
    finally:
        ctx.close()
