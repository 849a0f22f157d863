"""The Encounters dashboard in a real browser: the action planner driven through the page (also on a 400 px phone screen),
its answers and seeded rolls the library's own; the range bands; the Stamina tracker played, reloaded and undone, laid out
for play (everyone's Stamina, what the push costs and the buttons on the first screen), on two screens and the players' view."""
import os
import re
import time

import pytest
from playwright.sync_api import expect
from tests.dashboards.kit import check_tracker_kit, choose as tap, draft_kept, resize
from tests.helpers import assert_beside

from besm_nb.encounters.planner import plan_round
from besm_nb.encounters.ranges import range_penalty
from besm_nb.ui.encounters.planner import action_planner

pytestmark = pytest.mark.browser
URL = "/voila/render/encounters.ipynb"


SIDE = '.besm-stamina-tracker .besm-order .besm-side[data-name="{}"]'


def stamina_is(page, name, value):
    "Her Stamina bar shows `value` (of her full Stamina)."
    bar = page.locator(SIDE.format(name) + ' .besm-bar[data-label="Stamina"]')
    expect(bar).to_have_text(re.compile(rf"(^|\D){value} / \d+"), timeout=30_000)


def open_setup(t):
    "Unfold the set-up (it folds away once play starts) to add characters or change the rules."
    if not t.locator(".besm-exertion input").is_visible():
        t.locator(".besm-setup").get_by_text("Set-up: characters and rules").first.click()
        t.locator(".besm-exertion input").wait_for(timeout=30_000)


TABS = {"Planner": ".besm-planner", "Ranges": ".besm-field-distance", "Charge": ".besm-field-die_expr", "Stamina": ".besm-stamina-tracker"}


def open_tab(page, tab):
    "Open a tab and wait for its tool (each is built the first time its tab is opened)."
    page.locator(".lm-TabBar-tab", has_text=tab).click()
    page.locator(TABS[tab]).first.wait_for(timeout=30_000)


def open_page(page, url):
    "Open the dashboard and wait for the planner (generous: a busy machine's kernels can take a while)."
    page.goto(url + URL, timeout=120_000)
    page.locator(".besm-planner").wait_for(timeout=120_000)


def planner_says(page, text):
    "The planner's answer says `text` (on a phone its headline is the line kept at the foot of the screen)."
    page.wait_for_function("""t => [...document.querySelectorAll('.besm-planner > .besm-answer-line, .besm-planner .besm-output')]
                                   .some(e => e.innerText.includes(t))""", arg=text, timeout=30_000)


def set_int(page, name, value):
    box = page.locator(f".besm-planner .besm-field-{name} input").first
    box.fill(str(value))
    box.press("Tab")


def tick(page, name, on=True):
    box = page.locator(f".besm-planner .besm-field-{name} input").first
    box.check() if on else box.uncheck()


def headline(plan, dex, intelligence):
    count = f"{plan.majors} major action{'s' if plan.majors != 1 else ''} (physical {plan.physical} of Dex {dex}, mental {plan.mental} of Int {intelligence})"
    return ("Allowed: " if plan.allowed else "Not allowed: ") + count


def play_fred(page):
    "Bob's round (the planner's start), then Fred the Swift's, then one action too many: each answer the library's."
    bob = plan_round(3, 2, {"Striking": 5, "Defense": 6}, attacks=1, defences=1, initiative=4)
    planner_says(page, headline(bob, 3, 2))
    set_int(page, "run_yards", 15)
    bob_runs = plan_round(3, 2, {"Striking": 5, "Defense": 6}, attacks=1, defences=1, run_yards=15)
    planner_says(page, headline(bob_runs, 3, 2))
    assert bob_runs.skills == {"Striking": (5, 1), "Defense": (6, 2)}
    set_int(page, "defences", 0); set_int(page, "dex", 4); set_int(page, "striking", 8)
    tick(page, "stand"); set_int(page, "run_yards", 16); set_int(page, "leaps", 1)
    fred = plan_round(4, 2, {"Striking": 8}, attacks=1, stand=True, run_yards=16, leaps=1)
    planner_says(page, headline(fred, 4, 2))
    assert fred.majors == 4 and fred.skills["Striking"] == (8, 2)
    skills = page.locator(".besm-planner .besm-skills").inner_text()
    assert "Striking\t8 → 2" in skills and "Defense (unused)\t6 → 1" in skills, skills
    set_int(page, "attacks", 2)
    planner_says(page, "Not allowed: 5 major actions")
    planner_says(page, plan_round(4, 2, attacks=2, stand=True, run_yards=16, leaps=1).problems[0])
    set_int(page, "attacks", 1)
    planner_says(page, headline(fred, 4, 2))


def test_the_planner_plays_fred_the_swift_and_rolls_like_the_library(page, dashboards_url):
    open_page(page, dashboards_url)
    play_fred(page)
    # a bad input: the message sits beside its own field and names it
    set_int(page, "ride_yards", 200)
    page.locator(".besm-planner .besm-error", has_text="a mount covers at most its movement in a round, 60 yards").first.wait_for(timeout=30_000)
    set_int(page, "ride_yards", 0)
    # the other Initiative reading, and a seeded roll replayed by the library
    page.locator(".besm-planner .besm-field-initiative_reading select").select_option(label="2d6 + Initiative")
    planner_says(page, "Initiative: 2d6+4")
    seed = page.locator(".besm-planner .besm-seed input")
    seed.fill("4321"); seed.press("Tab")
    page.locator(".besm-planner button.besm-roll").click()
    calc = action_planner(seed=4321)
    w = {f.name: f.widget for f in calc.fields}
    for name, value in dict(dex=4, striking=8, defences=0, stand=True, run_yards=16, leaps=1, initiative_reading="add").items():
        w[name].value = value
    page.locator(".besm-planner .besm-log", has_text=f"seed 4321: {calc.do_roll()}").first.wait_for(timeout=30_000)

    # the range bands tab: the heavy crossbow at 160 yards
    open_tab(page, "Ranges")
    box = page.locator(".besm-field-distance input").first
    box.fill("160"); box.press("Tab")
    r = range_penalty("heavy crossbow", 160)
    page.locator(".besm-output", has_text=f"{r.band.capitalize()} range: challenge {r.challenge}").first.wait_for(timeout=30_000)
    assert "Traceback" not in page.locator("body").inner_text()
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def choose(page, name, label):
    page.locator(f".besm-planner .besm-field-{name} select").select_option(label=label)


def test_the_planner_says_who_recovers_and_offers_the_movement_readings(page, dashboards_url):
    "Recovery only after a round of no action at all; a few paces and dropping prone as the GM's rulings, each answer the library's."
    open_page(page, dashboards_url)
    planner_says(page, "Stamina recovery at the round's end: no: she acts this round")  # Bob attacks and defends
    set_int(page, "attacks", 0); set_int(page, "defences", 0)
    planner_says(page, "Stamina recovery at the round's end: yes, unless she is hurt")
    assert plan_round(3, 2).rests
    tick(page, "drop_prone")  # free, but an action: no recovery
    planner_says(page, "Stamina recovery at the round's end: no: she acts this round")
    assert not plan_round(3, 2, drop_prone=True).rests
    tick(page, "drop_prone", False); tick(page, "stand"); set_int(page, "run_yards", 2)
    planner_says(page, headline(plan_round(3, 2, stand=True, run_yards=2), 3, 2))  # the step is a minor action: 0
    choose(page, "paces", "a movement action")
    planner_says(page, headline(plan_round(3, 2, stand=True, run_yards=2, paces="counted"), 3, 2))  # 1
    choose(page, "paces", "a minor action"); tick(page, "stand", False); set_int(page, "run_yards", 10); tick(page, "drop_prone")
    planner_says(page, headline(plan_round(3, 2, run_yards=10, drop_prone=True), 3, 2))  # 0
    choose(page, "prone", "uses the free move")
    planner_says(page, headline(plan_round(3, 2, run_yards=10, drop_prone=True, prone="free_move"), 3, 2))  # 1
    assert [plan_round(3, 2, run_yards=10, drop_prone=True, prone=p).majors for p in ("apart", "free_move")] == [0, 1]
    assert page.errors == [], page.errors


def test_the_stamina_tracker_marks_a_minor_action(page, dashboards_url):
    "A minor action only: no rest, no exertion; offered only while legal, and an effort may follow it."
    open_page(page, dashboards_url)
    open_tab(page, "Stamina")
    t = page.locator(".besm-stamina-tracker")
    fresh_fight(page, t)
    t.locator(".besm-exertion input").check(); t.locator(".besm-recovery input").fill("2"); t.locator(".besm-recovery input").press("Tab")
    t.locator("button.besm-set-rules").click()
    page.wait_for_function("document.querySelector('.besm-round').innerText.includes('2 Stamina per rest')", timeout=30_000)
    for name in ("Ann", "Bo"):
        t.locator(".besm-name input").fill(name)
        t.locator(".besm-max-stamina input").fill("20"); t.locator(".besm-stamina-now input").fill("10")
        t.locator("button.besm-add").click()
        page.locator(SIDE.format(name)).wait_for(timeout=30_000)
    tap(t.locator(".besm-who"), "Ann")
    t.locator("button.besm-minor").click()
    expect(page.locator(SIDE.format("Ann"))).to_contain_text("a minor action only: no rest, no exertion", timeout=30_000)
    expect(page.locator(SIDE.format("Bo"))).to_have_class(re.compile("besm-current"), timeout=30_000)  # the card moves on to Bo
    tap(t.locator(".besm-who"), "Ann")
    expect(t.locator("button.besm-minor")).to_be_disabled(timeout=30_000)
    expect(t.locator("button.besm-act")).to_be_enabled(timeout=30_000)
    t.locator("button.besm-end-round").click()
    page.wait_for_function("document.querySelector('.besm-round').dataset.round === '2'", timeout=30_000)
    stamina_is(page, "Ann", 10)  # no rest, no exertion
    stamina_is(page, "Bo", 12)  # did nothing: rests
    assert page.errors == [], page.errors


def push_points(t, n):
    "Type the Stamina to push (a number: one tap), and leave the box so the page has it."
    box = t.locator(".besm-points input")
    box.fill(str(n)); box.press("Tab")


def fresh_fight(page, t):
    "Start from no characters and the default rules (an earlier test's fight is kept as a backup by New; its rules are not)."
    t.locator(".besm-order").wait_for(timeout=30_000)
    if "Nobody in it yet" not in t.locator(".besm-order").inner_text():
        t.locator("button.besm-new").click()
        expect(t.locator(".besm-order")).to_contain_text("Nobody in it yet", timeout=30_000)
        expect(t.locator(".besm-exertion input").first).to_be_visible(timeout=30_000)  # New unfolds the set-up, after the order
    open_setup(t)
    if "exertion off · 0 Stamina per rest" not in t.locator(".besm-round").inner_text():
        t.locator(".besm-exertion input").uncheck()
        t.locator(".besm-recovery input").fill("0"); t.locator(".besm-recovery input").press("Tab")
        t.locator("button.besm-set-rules").click()
        page.wait_for_function("document.querySelector('.besm-round').innerText.includes('exertion off · 0 Stamina per rest')",
                               timeout=30_000)


def test_the_stamina_tracker_holds_the_door(page, dashboards_url):
    open_page(page, dashboards_url)
    open_tab(page, "Stamina")
    t = page.locator(".besm-stamina-tracker")
    fresh_fight(page, t)
    t.locator(".besm-name input").fill("Garth")
    t.locator(".besm-strength input").fill("5"); t.locator(".besm-max-stamina input").fill("40")
    t.locator("button.besm-add").click()
    page.locator(SIDE.format("Garth")).wait_for(timeout=30_000)
    expect(t.locator(".besm-odds-panel")).to_contain_text("this round (up to 5)", timeout=30_000)  # up to double
    push_points(t, 6)
    expect(t.locator("button.besm-push")).to_be_disabled(timeout=30_000)  # more than the rules allow: Push is not offered
    push_points(t, 5)
    expect(t.locator(".besm-odds-panel")).to_contain_text("Push Strength 5 → 10", timeout=30_000)  # what it costs, before it is done
    t.locator("button.besm-push").click()
    stamina_is(page, "Garth", 35)
    expect(page.locator(SIDE.format("Garth"))).to_contain_text("Strength 10 (5 +5)", timeout=30_000)
    t.locator("button.besm-end-round").click()
    for _ in range(3):
        page.wait_for_function("!document.querySelector('button.besm-repeat').disabled", timeout=30_000)
        t.locator("button.besm-repeat").click()
        t.locator("button.besm-end-round").click()
    page.wait_for_function("document.querySelector('.besm-round').dataset.round === '5'", timeout=30_000)
    stamina_is(page, "Garth", 20)  # the example: 20 down

    # the exertion rule on: each round of holding the door costs 6 (5 pushed + 1 exertion), not 5
    open_setup(t)
    t.locator(".besm-exertion input").check(); t.locator("button.besm-set-rules").click()
    page.wait_for_function("document.querySelector('.besm-round').innerText.includes('exertion on')", timeout=30_000)
    for left in ("14", "8", "2"):
        push_points(t, 5)
        t.locator("button.besm-push").click()
        t.locator("button.besm-end-round").click()
        stamina_is(page, "Garth", left)
    expect(t.locator(".besm-odds-panel")).to_contain_text("type 1 to 2 Stamina", timeout=30_000)  # no more than he has
    expect(t.locator("button.besm-push")).to_be_disabled()  # the 5 still typed is more than that: Push is not offered
    push_points(t, 2)
    t.locator("button.besm-push").click()
    t.locator("button.besm-end-round").click()
    expect(page.locator(SIDE.format("Garth"))).to_contain_text("COLLAPSED", timeout=30_000)
    stamina_is(page, "Garth", 0)
    expect(t.locator("button.besm-act")).to_be_disabled(timeout=30_000)  # only what is legal
    expect(t.locator("button.besm-push")).to_be_disabled(timeout=30_000)

    # a refusal sits beside its button and names the field on screen
    open_setup(t)
    t.locator(".besm-name input").fill("Garth")
    t.locator("button.besm-add").click()
    err = t.locator(".besm-add-message", has_text="Name: Garth is already in the record").first
    err.wait_for(timeout=30_000)
    assert_beside(t.locator("button.besm-add"), err)
    assert page.errors == [], page.errors


def test_the_stamina_tracker_keeps_everything(page, dashboards_url):
    "The checks every tracker shares: reload, undo across the end of a round, Download/Upload, a corrupt upload, save names."
    def step(t):
        fresh_fight(page, t)
        t.locator(".besm-name input").fill("Ann")
        t.locator(".besm-strength input").fill("4"); t.locator(".besm-max-stamina input").fill("30")
        t.locator("button.besm-add").click()
        page.locator(SIDE.format("Ann")).wait_for(timeout=30_000)
        push_points(t, 3)
        t.locator("button.besm-push").click()
        stamina_is(page, "Ann", 27)

    def next_round(t):
        t.locator("button.besm-end-round").click()
        page.wait_for_function("document.querySelector('.besm-round').dataset.round === '2'", timeout=30_000)

    def tab(pg):
        pg.locator(".besm-planner").wait_for(timeout=120_000)
        open_tab(pg, "Stamina")

    check_tracker_kit(page, dashboards_url + URL, ".besm-stamina-tracker", step, next_round,
                      lambda t: t.locator(".besm-order").inner_text(), "encounters-stamina", open_tab=tab)


@pytest.fixture
def phone(browser, dashboards_url):
    ctx = browser.new_context(viewport={"width": 400, "height": 800})
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


def box(page, selector):
    "Where the first element shown of `selector` sits on the screen: (top, bottom) in px, the page not scrolled."
    return page.evaluate("""s => { const e = [...document.querySelectorAll(s)].find(e => e.offsetParent);
                                  const r = e.getBoundingClientRect(); return [r.top, r.bottom]; }""", selector)


def test_the_planner_works_on_a_400px_screen(phone, dashboards_url):
    open_page(phone, dashboards_url)
    # the answer on the first screen: at 400 x 800 the headline's line stays at the foot of the screen, at 1366 x 900 the
    # answer stands beside the inputs
    bob = headline(plan_round(3, 2, {"Striking": 5, "Defense": 6}, attacks=1, defences=1, initiative=4), 3, 2)
    expect(phone.locator(".besm-planner > .besm-answer-line")).to_have_text(bob, timeout=30_000)
    top, bottom = box(phone, ".besm-planner > .besm-answer-line")
    assert 0 <= top and bottom <= 800, (top, bottom)
    phone.set_viewport_size({"width": 1366, "height": 900})
    expect(phone.locator(".besm-planner > .besm-answer-line")).to_be_hidden(timeout=30_000)  # the answer beside says it
    expect(phone.locator(".besm-planner .besm-output .besm-headline")).to_have_text(bob, timeout=30_000)
    top, bottom = box(phone, ".besm-planner .besm-output .besm-headline")
    assert 0 <= top and bottom <= 900, (top, bottom)
    phone.set_viewport_size({"width": 400, "height": 800})
    play_fred(phone)
    for tab, shown in TABS.items():
        open_tab(phone, tab)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 400, tab
        clipped = phone.evaluate("""() => [...document.querySelectorAll('button')].filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
                                          .map(b => b.innerText)""")
        assert clipped == [], (tab, clipped)
        wide = phone.evaluate("""() => [...document.querySelectorAll('.besm-output, .besm-stamina-status, .besm-calculator, .besm-tracker')]
                                        .filter(e => e.offsetParent && e.getBoundingClientRect().right > 400).length""")
        assert wide == 0, tab
    assert phone.errors == [], phone.errors


# -- the Stamina tracker laid out for play, on several screens ---------------------------------------------------------
from tests.dashboards.test_tristat_table import where  # noqa: E402

SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots in play at both widths are saved there


def stamina_tab(page, url):
    page.goto(url + URL, timeout=180_000)
    page.locator(".besm-planner").wait_for(timeout=180_000)
    open_tab(page, "Stamina")
    t = page.locator(".besm-stamina-tracker")
    t.locator(".besm-order").wait_for(timeout=60_000)
    return t


def into_round_two(page, t):
    "Ann and Bo; Ann pushes Strength in round 1; round 2 begins and Bo is chosen: the tracker as it stands in play."
    fresh_fight(page, t)
    for name, strength, full in (("Ann", 4, 30), ("Bo", 5, 20)):
        t.locator(".besm-name input").fill(name); t.locator(".besm-strength input").fill(str(strength))
        t.locator(".besm-max-stamina input").fill(str(full)); t.locator(".besm-stamina-now input").fill("")
        t.locator("button.besm-add").click()
        page.locator(SIDE.format(name)).wait_for(timeout=30_000)
    tap(t.locator(".besm-who"), "Ann")
    push_points(t, 3)
    t.locator("button.besm-push").click()
    stamina_is(page, "Ann", 27)
    t.locator("button.besm-end-round").click()
    page.wait_for_function("document.querySelector('.besm-stamina-tracker .besm-round').dataset.round === '2'", timeout=30_000)
    tap(t.locator(".besm-who"), "Bo")
    push_points(t, 2)
    expect(t.locator(".besm-odds-panel")).to_contain_text("Push Strength 5 → 7", timeout=30_000)


def test_stamina_laid_out_for_play_and_a_declaration_kept_across_a_reload(browser, dashboards_url, dashboards_server):
    "Round 2 at 1366 x 900: everyone's Stamina, what the push costs and the buttons on the first screen, side by side; at 400 x 800 the same order; a half-made declaration survives a reload and the next character's starts clear."
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        t = stamina_tab(page, dashboards_url)
        into_round_two(page, t)
        assert t.locator(".besm-setup .lm-AccordionPanel, .besm-setup .widget-accordion-content").evaluate_all(
            "els => els.every(e => !e.getClientRects().length)"), "the set-up should fold away once play starts"
        expect(page.locator(SIDE.format("Bo"))).to_have_class(re.compile("besm-current"))  # the one the panel is about, marked
        expect(t.locator(".besm-odds-panel")).to_contain_text("Kept up each round (2 a round): 10 rounds")
        sel = {"order": ".besm-stamina-tracker .besm-order", "odds": ".besm-stamina-tracker .besm-odds-panel",
               "push": ".besm-stamina-tracker button.besm-push", "end round": ".besm-stamina-tracker button.besm-end-round"}
        boxes = {k: where(page, s) for k, s in sel.items()}
        print("Stamina 1366x900:", {k: (round(b["top"]), round(b["bottom"]), round(b["left"])) for k, b in boxes.items()})
        SHOTS and page.screenshot(path=f"{SHOTS}/stamina-1366.png")
        for k, b in boxes.items(): assert b["bottom"] <= 900, f"{k} ends at {b['bottom']:.0f} px, below the first screen"
        assert boxes["order"]["right"] <= boxes["odds"]["left"], "the order of play stands beside the action panel"
        resize(page, 400, 800)
        boxes = {k: where(page, s) for k, s in sel.items()}
        print("Stamina 400x800:", {k: (round(b["top"]), round(b["bottom"])) for k, b in boxes.items()})
        SHOTS and page.screenshot(path=f"{SHOTS}/stamina-400.png")
        # on a phone the odds and the buttons stand in the bar fixed at the bottom of the screen
        assert 0 <= boxes["odds"]["top"] < boxes["push"]["top"] and boxes["push"]["bottom"] <= 800, boxes
        assert page.locator(".besm-stamina-tracker .besm-resolve-bar").evaluate("e => getComputedStyle(e).position") == "fixed"
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
        # half made (Bo, 2 pushed, an injury typed), then a reload: it comes back, and the record has not moved
        t.locator(".besm-hurt-stamina input").fill("4"); t.locator(".besm-hurt-stamina input").press("Tab")
        draft_kept(dashboards_server[1].saves, lambda d: d["tracker"].get("hurt_stamina") == 4 and d["tracker"].get("who") == "Bo")
        page.reload(timeout=120_000)
        page.locator(".besm-planner").wait_for(timeout=120_000)
        open_tab(page, "Stamina")
        t = page.locator(".besm-stamina-tracker")
        t.locator(".besm-history-message", has_text="Resumed").wait_for(timeout=60_000)
        expect(t.locator(".besm-who").get_by_label("Bo", exact=True)).to_be_checked(timeout=30_000)
        expect(t.locator(".besm-points input")).to_have_value("2")
        expect(t.locator(".besm-hurt-stamina input")).to_have_value("4")
        stamina_is(page, "Ann", 27)
        # another character: her declaration starts clear
        tap(t.locator(".besm-who"), "Ann")
        expect(t.locator(".besm-hurt-stamina input")).to_have_value("1", timeout=30_000)
        expect(t.locator(".besm-points input")).to_have_value("1")
        assert errors == [], errors
    finally:
        ctx.close()


def test_stamina_on_two_screens_and_the_players_view(browser, dashboards_url):
    "A push on one screen shows on the other and on the players' view on their own (no reload, no action; how soon is in make bench)."
    ctx_a, ctx_b, ctx_p = browser.new_context(), browser.new_context(), browser.new_context(viewport={"width": 400, "height": 800})
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        ta = stamina_tab(a, dashboards_url)
        into_round_two(a, ta)
        tb = stamina_tab(b, dashboards_url)
        stamina_is(b, "Ann", 27)
        p.goto(dashboards_url + URL + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side").first.wait_for(timeout=120_000)
        assert p.locator(".besm-players .besm-side").evaluate_all("els => els.map(e => e.dataset.name)") == ["Ann", "Bo"]
        assert p.locator(".besm-tracker").count() == 0  # read-only
        expect(p.locator('.besm-players .besm-side[data-name="Ann"] .besm-bar')).to_contain_text("27 / 30")
        ta.locator("button.besm-push").click()  # Bo pushes 2
        t0 = time.time()
        b.wait_for_function("""() => /(^|\\D)18 \\/ 20/.test(document.querySelector('.besm-stamina-tracker .besm-order .besm-side[data-name="Bo"] .besm-bar')?.innerText)""",
                            timeout=30_000)
        seen_b = time.time() - t0
        p.wait_for_function("""() => /(^|\\D)18 \\/ 20/.test(document.querySelector('.besm-players .besm-side[data-name="Bo"] .besm-bar')?.innerText)""",
                            timeout=30_000)
        seen_p = time.time() - t0
        print(f"Stamina: seen on the other screen after {seen_b:.1f} s, on the players' view after {seen_p:.1f} s")
        SHOTS and p.screenshot(path=f"{SHOTS}/stamina-players-400.png")
        expect(p.locator(".besm-players-results")).to_contain_text("Bo pushes")
        expect(tb.locator(".besm-history-message")).to_contain_text("changed on another screen")
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()


def test_stamina_from_a_screen_behind_is_refused_and_nothing_is_lost(browser, slow_follow_server):
    url = slow_follow_server[0]
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    try:
        a, b = ctx_a.new_page(), ctx_b.new_page()
        ta = stamina_tab(a, url)
        into_round_two(a, ta)
        tb = stamina_tab(b, url)
        stamina_is(b, "Ann", 27)
        ta.locator("button.besm-push").click()  # Bo pushes 2 on screen A
        stamina_is(a, "Bo", 18)
        tb.locator("button.besm-end-round").click()  # screen B has not looked since: it still shows Bo at 20
        expect(tb.locator(".besm-round-message")).to_contain_text("changed on another screen", timeout=30_000)
        stamina_is(b, "Bo", 18)  # B now shows A's push: nothing lost, and B's End round was not applied
        expect(tb.locator(".besm-round")).to_have_attribute("data-round", "2")
        assert "Round 2 ends" not in tb.locator(".besm-log").inner_text()
    finally:
        for c in (ctx_a, ctx_b): c.close()
