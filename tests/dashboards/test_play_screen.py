"""The GM screen, played as at the table: a scripted round of each tracker at 1366 x 900 and at 400 x 800, and at every step
the acting side, its card (targets, modifiers, answers), the odds and the button that resolves are on the screen as the
page left it (it follows play: nothing is scrolled by the test), the bar is fixed at the bottom of a phone, and every
control receives a real click at its centre."""
import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_play_screen, clickable_in_place, followed
from tests.dashboards.test_home_dice_tristat import add_fighters, fill, fresh_fight, in_turn, quick_answer, tick_target

pytestmark = pytest.mark.browser
SCREENS = [(1366, 900), (400, 800)]


@pytest.mark.parametrize("width, height", SCREENS)
def test_a_tristat_round_on_the_gm_screen(browser, dashboards_url, width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        t = fresh_fight(page, dashboards_url)
        add_fighters(page, t, [("Aiko", 8, 6, 20), ("Oni", 5, 5, 10), ("Rei", 7, 6, 15), ("Ninja", 6, 6, 12)])
        order = ["Aiko", "Rei", "Ninja", "Oni"]
        fill(t, "Typed dice", "6 1 4 3"); t.get_by_role("button", name="Roll initiative").click()
        in_turn(page, order, "Aiko")
        seen = {"initiative": followed(page, width, height, "Roll initiative")}
        # Aiko attacks Oni from behind cover, Oni dodges: three taps and the dice
        tick_target(page, t, "Oni", ["Oni", "Rei", "Ninja"])
        quick_answer(t, "Oni", "dodge")
        t.locator(".besm-mods").get_by_label("Target is behind cover", exact=True).check()
        expect(t.locator(".besm-odds-line")).to_contain_text("+1 harder")
        seen["declared"] = check_play_screen(page, width, height, "a declaration", focus=False)
        clickable_in_place(page)
        fill(t, "Typed dice", "5 9"); t.get_by_role("button", name="Resolve").click()
        in_turn(page, order, "Rei")
        expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Aiko: attack")
        seen["Aiko resolved"] = followed(page, width, height, "Aiko's Resolve")
        # Rei, Ninja and Oni: a target each, no answer (two taps), the dice rolled here
        for who, target, after in (("Rei", "Ninja", "Ninja"), ("Ninja", "Aiko", "Oni")):
            t.locator(".besm-targets").get_by_label(target, exact=True).check()
            expect(t.locator(".besm-targets .besm-ticked")).to_contain_text(f"Ticked: {target}")
            t.get_by_role("button", name="Resolve").click()
            in_turn(page, order, after)
            seen[f"{who} resolved"] = followed(page, width, height, f"{who}'s Resolve")
        t.locator(".besm-targets").get_by_label("Rei", exact=True).check()
        expect(t.locator(".besm-targets .besm-ticked")).to_contain_text("Ticked: Rei")
        t.get_by_role("button", name="Resolve").click()
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("Everyone has acted")
        seen["round over"] = followed(page, width, height, "the round's last Resolve")
        t.get_by_role("button", name="Next round").click()
        expect(page.locator(".besm-order .besm-round-now")).to_have_text("2")
        seen["next round"] = followed(page, width, height, "Next round")
        assert t.get_by_role("button", name="Roll initiative").is_visible()
        print(f"{width}x{height}:", seen)
        assert errors == [], errors
    finally:
        ctx.close()
