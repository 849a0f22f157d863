"""The Tri-Stat tracker at the table, in a real browser: laid out for play (the order of play, the odds and Resolve on
the first screen), one fight on two screens, the players' view, a half-made declaration kept across a reload, typed
dice asked for step by step; its calculators' answers on the first screen; chart labels readable at a phone's width."""
import time

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import CHART_CHECK, PLAY_PARTS, check_first_screen, draft_kept, first_screen, resize
from tests.dashboards.test_home_dice_tristat import TRISTAT, add_fighters, fill, fresh_fight, quick_answer, tick_target

pytestmark = pytest.mark.browser


def where(page, selector):
    "Where an element sits on the page scrolled to its top (its box in the first screen's coordinates)."
    return first_screen(page, {"it": selector})["it"]


def order(page, root=".besm-order"):
    return [n.strip() for n in page.locator(f"{root} .besm-side").evaluate_all("els => els.map(e => e.dataset.name)")]


def into_round_two(page, tracker):
    "Three combatants, a round played, the next round's initiative rolled: the tracker as it stands in play."
    add_fighters(page, tracker, [("Aiko", 8, 6, 25), ("Bandit", 5, 5, 10), ("Rei", 7, 6, 20)])
    fill(tracker, "Typed dice", "6 1 3"); tracker.get_by_role("button", name="Roll initiative").click()  # Aiko 14, Rei 10, Bandit 6
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Aiko'", timeout=30_000)
    tick_target(page, tracker, "Bandit", ["Bandit", "Rei"])
    fill(tracker, "Typed dice", "5"); tracker.get_by_role("button", name="Resolve").click()
    tracker.locator(".besm-last", has_text="comes off Bandit").wait_for(timeout=30_000)
    tracker.get_by_role("button", name="Next round").click()
    tracker.locator(".besm-round-now", has_text="2").wait_for(timeout=30_000)
    fill(tracker, "Typed dice", "2 6 4"); tracker.get_by_role("button", name="Roll initiative").click()  # Aiko 10, Bandit 11, Rei 11
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Bandit'", timeout=30_000)


def test_play_layout_first_screen(browser, dashboards_url):
    "In round 2 at 1366 x 900 the order of play, the odds and Resolve are on the first screen; at 400 x 800 they come in that order."
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        tracker = fresh_fight(page, dashboards_url)
        into_round_two(page, tracker)
        assert order(page) == ["Bandit", "Rei", "Aiko"]  # initiative order: the Bandit and Rei act together
        expect(page.locator(".besm-order .besm-turn")).to_contain_text("Bandit & Rei act together")
        assert page.locator(".besm-setup .lm-AccordionPanel, .besm-setup .widget-accordion-content").evaluate_all(
            "els => els.every(e => !e.getClientRects().length)"), "the set-up should fold away once play starts"
        tick_target(page, tracker, "Aiko", ["Aiko", "Rei"])
        expect(page.locator(".besm-odds-panel")).to_contain_text("Bandit hits with", timeout=30_000)
        print("1366x900:", check_first_screen(page))
        boxes = first_screen(page)
        assert boxes["order of play"]["right"] <= boxes["odds"]["left"], "the order of play stands beside the action panel"
        resize(page, 400, 800)
        boxes = first_screen(page)
        print("400x800:", {k: (round(b["top"]), round(b["bottom"])) for k, b in boxes.items()})
        # on a phone the odds and Resolve stand in the bar fixed at the bottom of the screen, over the order of play
        assert 0 <= boxes["odds"]["top"] < boxes["Resolve"]["top"] and boxes["Resolve"]["bottom"] <= 800, boxes
        assert page.locator(".besm-resolve-bar").evaluate("e => getComputedStyle(e).position") == "fixed"
        # the combatants' table (in the set-up) at a phone's width: names first, and a shadow where more columns scroll in
        page.locator(".besm-setup .lm-AccordionPanel-title, .besm-setup .jupyter-widget-Collapse-header").first.click()
        table = page.locator(".besm-combatants table").first
        table.wait_for(timeout=30_000)
        cue = table.evaluate("t => ({wide: t.scrollWidth > t.clientWidth, first: t.rows[0].cells[0].innerText,"
                             " shadow: getComputedStyle(t).backgroundAttachment, sticky: getComputedStyle(t.rows[1].cells[0]).position})")
        assert cue == {"wide": True, "first": "name", "shadow": "local, local, scroll, scroll", "sticky": "sticky"}, cue
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
        assert errors == [], errors
    finally:
        ctx.close()


def test_typed_dice_step_by_step_and_a_declaration_kept_across_a_reload(page, dashboards_url, dashboards_server):
    tracker = fresh_fight(page, dashboards_url)
    add_fighters(page, tracker, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
    expect(tracker.locator(".besm-dice-need")).to_contain_text("d6 for Rei's initiative")  # said before it is asked for
    fill(tracker, "Typed dice", "6"); tracker.get_by_role("button", name="Roll initiative").click()
    expect(tracker.locator(".besm-resolve-message")).to_contain_text("Type d6 for Youma's initiative", timeout=30_000)
    fill(tracker, "Typed dice", "6 1"); tracker.get_by_role("button", name="Roll initiative").click()
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Rei'", timeout=30_000)
    tick_target(page, tracker, "Youma", ["Youma"])
    quick_answer(tracker, "Youma", "dodge")
    tracker.locator(".besm-mods").get_by_label("Target is far off", exact=True).check()
    fill(tracker, "Typed dice", "5")
    expect(tracker.locator(".besm-dice-need")).to_contain_text("Next dice: type 2d6 for Youma's dodge", timeout=30_000)
    draft_kept(dashboards_server[1].saves, lambda d: d["typed"] == "5" and "Target is far off" in d["tracker"].get("mods", []))
    # a reload: the half-made declaration comes back (the dice typed too), and the fight has not moved
    page.reload(timeout=120_000)
    tracker = page.locator(".besm-tracker")
    tracker.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=120_000)
    expect(tracker.locator(".besm-quick-answer").filter(has_text="Youma").get_by_label("dodge", exact=True)).to_be_checked()
    assert tracker.locator(".besm-targets").get_by_label("Youma", exact=True).is_checked()
    assert tracker.locator(".besm-mods").get_by_label("Target is far off", exact=True).is_checked()
    expect(tracker.locator(".besm-typed-dice input")).to_have_value("5")
    tracker.get_by_role("button", name="Resolve").click()
    expect(tracker.locator(".besm-resolve-message")).to_contain_text("Type 2d6 for Youma's dodge", timeout=30_000)
    fill(tracker, "Typed dice", "5 9"); tracker.get_by_role("button", name="Resolve").click()
    expect(tracker.locator(".besm-log")).to_contain_text("power 20 + ACV 8 = 28 comes off Youma", timeout=30_000)  # the total's parts
    # Youma's declaration starts clear: nothing of Rei's carries over
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Youma'", timeout=30_000)
    assert tracker.locator(".besm-mods input:checked").count() == 0
    expect(tracker.locator(".besm-answers")).to_have_text("")  # no answers declared
    assert page.errors == [], page.errors


def play_two(page, a, dashboards_url):
    "A fresh fight on screen A with two combatants and initiative: Rei acts first."
    tracker = fresh_fight(a, dashboards_url)
    add_fighters(a, tracker, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
    fill(tracker, "Typed dice", "6 1"); tracker.get_by_role("button", name="Roll initiative").click()
    a.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Rei'", timeout=30_000)
    return tracker


def test_two_screens_follow_each_other(browser, dashboards_url):
    "An action on one screen shows on the other on its own (no reload, no action; how soon is in make bench); the players' view follows, foes' numbers as the GM chooses."
    ctx_a, ctx_b, ctx_p = browser.new_context(), browser.new_context(), browser.new_context(viewport={"width": 400, "height": 800})
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        ta = play_two(a, a, dashboards_url)
        b.goto(dashboards_url + TRISTAT, timeout=180_000)
        tb = b.locator(".besm-tracker"); tb.wait_for(timeout=120_000)
        b.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Rei'", timeout=60_000)
        p.goto(dashboards_url + TRISTAT + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side").first.wait_for(timeout=120_000)
        assert order(p, ".besm-players") == ["Rei", "Youma"] and p.locator(".besm-tracker").count() == 0  # read-only: no tracker
        tb.locator(".besm-mods").get_by_label("Target is far off", exact=True).check()  # screen B starts Rei's declaration too
        expect(tb.locator(".besm-mods .besm-ticked")).to_contain_text("Ticked: Target is far off")
        tick_target(a, ta, "Youma", ["Youma"])
        fill(ta, "Typed dice", "5"); ta.get_by_role("button", name="Resolve").click()
        t0 = time.time()
        b.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Youma'", timeout=30_000)
        seen_b = time.time() - t0
        p.wait_for_function("() => document.querySelector('.besm-players .besm-current')?.dataset.name === 'Youma'", timeout=30_000)
        seen_p = time.time() - t0
        print(f"seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        expect(p.locator(".besm-players-results")).to_contain_text("comes off Youma")
        expect(b.locator(".besm-history-message")).to_contain_text("changed on another screen")
        expect(tb.locator(".besm-mods .besm-ticked")).to_have_text("None ticked.")  # Rei's declaration is not moved onto Youma's turn
        assert tb.locator(".besm-mods input:checked").count() == 0
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()


def test_a_screen_behind_is_refused_and_nothing_is_lost(browser, slow_follow_server):
    url = slow_follow_server[0]
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        ta = play_two(a, a, url)
        b.goto(url + TRISTAT, timeout=180_000)
        tb = b.locator(".besm-tracker"); tb.wait_for(timeout=120_000)
        b.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Rei'", timeout=60_000)
        tick_target(a, ta, "Youma", ["Youma"])
        fill(ta, "Typed dice", "5"); ta.get_by_role("button", name="Resolve").click()  # Rei hits on screen A
        ta.locator(".besm-last", has_text="comes off Youma").wait_for(timeout=30_000)
        tb.locator(".besm-does select").select_option("hold")  # screen B has not looked since: it still shows Rei to act
        tb.get_by_role("button", name="Resolve").click()
        expect(tb.locator(".besm-resolve-message")).to_contain_text("changed on another screen", timeout=30_000)
        b.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Youma'", timeout=30_000)
        expect(tb.locator(".besm-log")).to_contain_text("comes off Youma")  # B now shows A's action: nothing lost
        expect(tb.locator(".besm-log")).not_to_contain_text("Rei: hold")
        # and Undo from the screen behind goes through the same check
        ta.get_by_role("button", name="Undo").click()
        ta.locator(".besm-history-message", has_text="Undone").wait_for(timeout=30_000)
        tb.get_by_role("button", name="Undo").click()
        expect(tb.locator(".besm-history-message")).to_contain_text("changed on another screen", timeout=30_000)
        expect(tb.locator(".besm-log")).not_to_contain_text("comes off Youma")  # B shows the undone state; one step undone, not two
        expect(ta.locator(".besm-history")).to_contain_text("1 to redo")
    finally:
        for c in (ctx_a, ctx_b): c.close()


CALCULATORS = [("tristat_combat", "Chance to hit"), ("tristat_combat", "Defences"), ("anime_d20_attack", "Attack resolver"), ("dice_and_checks", None),
               ("dice_and_checks", "Checks")]


@pytest.mark.parametrize("name, tab", CALCULATORS)
def test_calculator_answer_on_the_first_screen(browser, dashboards_url, name, tab):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{dashboards_url}/voila/render/{name}.ipynb", timeout=180_000)
        if tab:
            page.get_by_role("tab", name=tab).click()
        head = page.locator(".besm-output .besm-headline").locator("visible=true").first
        head.wait_for(timeout=120_000)
        box = where(page, ".besm-calculator:not(.besm-hidden) .besm-output .besm-headline")
        print(f"{name} {tab or ''}: headline at {box['top']:.0f} px")
        assert box["top"] <= 900 - 30, f"the headline starts at {box['top']:.0f} px"
    finally:
        ctx.close()





@pytest.mark.parametrize("name, tab, entry", [("dice_and_checks", None, ("expr", "20d6")), ("tristat_combat", "Defences", None),
                                              ("tristat_combat", "Chance to hit", None)])
def test_chart_labels_readable_at_400_px(browser, dashboards_url, name, tab, entry):
    ctx = browser.new_context(viewport={"width": 400, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(f"{dashboards_url}/voila/render/{name}.ipynb", timeout=180_000)
        if tab: page.get_by_role("tab", name=tab).click()
        page.locator(".besm-chart").locator("visible=true").first.wait_for(timeout=120_000)
        found = page.evaluate(CHART_CHECK)
        assert found["charts"] and found["bad"] == [] and found["small"] == [], found
        if entry:  # a long distribution too: upright bars, sparse labels
            box = page.locator(f".besm-field-{entry[0]} input").first
            box.fill(entry[1]); box.press("Tab")
            page.wait_for_function("t => document.querySelector('.besm-output').innerText.includes(t)", arg=entry[1], timeout=30_000)
            found = page.evaluate(CHART_CHECK)
            assert found["bad"] == [] and found["small"] == [], found
    finally:
        ctx.close()
