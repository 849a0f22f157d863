"""The Anime d20 fight tracker on the GM screen, played as at the table: two rounds of four fighters at 1366 x 900 and at
400 x 800, on two screens at once with the players' view open. At every step the acting fighter, her card and the bar (the
odds and the button that resolves) are on the screen as the page left it (it follows play: nothing is scrolled by the test),
the bar is fixed at the bottom of a phone, and every control takes a real click at its centre. Then the kit's own check: a
reload, undo across a round, Download and Upload, saves by name."""
import os

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import check_play_screen, check_tracker_kit, clickable_in_place, followed, settle

pytestmark = pytest.mark.browser
URL = "/voila/render/anime_d20_attack.ipynb"
TRACKER = ".besm-d20-fight"
SCREENS = [(1366, 900), (400, 800)]
FIGHTERS = [  # name, side, Initiative bonus, AC, defence, Hit Points, weapon, its bonus, its damage, a foe
    ("Aiko", "heroes", 3, 14, 4, 20, "katana", 6, "1d10+2", False), ("Oni", "foes", 1, 12, 2, 24, "club", 4, "1d8+3", True),
    ("Rei", "heroes", 2, 13, 3, 12, "staff", 4, "1d6+1", False), ("Ninja", "foes", 0, 13, 3, 10, "shuriken", 5, "1d4", True)]
ORDER = ["Aiko", "Oni", "Rei", "Ninja"]  # Initiative 18, 13, 12, 5
SHOTS = os.environ.get("BESM_NB_SHOTS")  # a folder: screenshots of the screen in play at both widths are saved there


def shot(page, name, width):
    "The screen as the GM sees it (no scrolling), when SHOTS names a folder."
    if SHOTS: page.screenshot(path=f"{SHOTS}/fight-{name}-{width}.png")


def fill(t, cls, value):
    "Type into the box of this class, as a person does (then Tab, so the kernel has it)."
    box = t.locator(f".{cls} input").first
    box.fill(str(value)); box.press("Tab")


def fresh_fight(page, url):
    "The fight tracker, started afresh (the page resumes the last autosave; New fight keeps it as a backup)."
    page.goto(url + URL, timeout=180_000)
    t = page.locator(TRACKER)
    t.wait_for(timeout=120_000)
    t.locator("button.besm-new").click()
    t.locator(".besm-combatants", has_text="No fighters yet").wait_for(timeout=30_000)
    return t


def add_fighters(t, fighters=FIGHTERS):
    "Each fighter typed into the set-up form with her first weapon, then Add / update fighter."
    for name, side, init, ac, defence, hp, weapon, bonus, damage, foe in fighters:
        for cls, value in (("besm-f-name", name), ("besm-f-side", side), ("besm-f-initiative", init), ("besm-f-ac", ac),
                           ("besm-f-defence", defence), ("besm-f-hp", hp), ("besm-w-name", weapon), ("besm-w-bonus", bonus),
                           ("besm-w-damage", damage)):
            fill(t, cls, value)
        box = t.locator(".besm-f-foe input")
        if box.is_checked() != foe: box.click()
        t.locator("button.besm-add").click()
        t.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)


def now(page, name, root=".besm-order"):
    "Wait until the order of play marks `name` as the one acting (or, with None, nobody), and the page has followed play there."
    page.wait_for_function("([r, n]) => (document.querySelector(`${r} .besm-current`)?.dataset.name ?? null) === n",
                           arg=[root, name], timeout=30_000)
    if root == ".besm-order": settle(page, quiet_ms=150)  # the GM's page: a tap now could land as it moves


def target(t, name):
    "Tick a target: one tap."
    t.locator(".besm-targets").get_by_label(name, exact=True).check()
    expect(t.locator(".besm-targets .besm-ticked")).to_contain_text(name)


def answer(t, target, defence):
    "The target's own answer: one tap on her row."
    row = t.locator(".besm-quick-answer").filter(has_text=target)
    row.get_by_label(defence, exact=True).check()
    expect(row.get_by_label(defence, exact=True)).to_be_checked()


def resolve(page, t, dice, w, h, step, then):
    "Type the table's dice, press Resolve, wait for the page to follow to the next one acting, and check the screen."
    fill(t, "besm-typed-dice", dice)
    t.locator("button.besm-resolve").click()
    now(page, then)
    return followed(page, w, h, step)


@pytest.mark.parametrize("width, height", SCREENS)
def test_two_rounds_of_a_fight_on_two_screens_with_the_players_view(browser, dashboards_url, width, height):
    ctx_a, ctx_b = (browser.new_context(viewport={"width": width, "height": height}) for _ in range(2))
    ctx_p = browser.new_context(viewport={"width": 400, "height": 800})
    errors = []
    try:
        a, b, p = ctx_a.new_page(), ctx_b.new_page(), ctx_p.new_page()
        for pg in (a, b, p): pg.on("pageerror", lambda e: errors.append(str(e)))
        ta = fresh_fight(a, dashboards_url)
        add_fighters(ta)
        b.goto(dashboards_url + URL, timeout=180_000)
        tb = b.locator(TRACKER); tb.wait_for(timeout=120_000)
        tb.locator(".besm-combatants td", has_text="Ninja").first.wait_for(timeout=60_000)
        p.goto(dashboards_url + URL + "?view=players", timeout=180_000)
        p.locator(".besm-players .besm-side[data-name='Ninja']").wait_for(timeout=120_000)
        seen = {}

        def all_follow(name, turn=""):
            "The other screen and the players' view show the same one acting, and the same turn (they look about once a second)."
            now(b, name); now(p, name, ".besm-players")
            for pg, root in ((b, ".besm-order"), (p, ".besm-players")):
                if turn: expect(pg.locator(f"{root} .besm-turn")).to_contain_text(turn)

        # Round 1: Initiative typed as the table rolled it
        fill(ta, "besm-typed-dice", "15 12 10 5")
        ta.locator("button.besm-roll-initiative").click()
        now(a, "Aiko")
        seen["initiative"] = followed(a, width, height, "Roll Initiative")
        all_follow("Aiko")
        # Aiko (screen A): the katana at Oni, who dodges: two taps and the dice
        target(ta, "Oni"); answer(ta, "Oni", "dodge/parry")
        expect(ta.locator(".besm-odds-line")).to_contain_text("lands 241/400 (60.25%)")
        seen["Aiko declared"] = check_play_screen(a, width, height, "Aiko's declaration", focus=False)
        clickable_in_place(a)
        shot(a, "aiko-declared", width)
        seen["Aiko"] = resolve(a, ta, "14 3 7", width, height, "Aiko's Resolve", "Oni")
        all_follow("Oni")
        expect(b.locator(".besm-order .besm-side[data-name='Oni'] .besm-bar")).to_contain_text("17 / 24")
        expect(p.locator(".besm-players .besm-side[data-name='Oni'] .besm-bar").first).not_to_contain_text("/")  # a foe: no numbers
        expect(p.locator(".besm-players .besm-side[data-name='Aiko'] .besm-bar").first).to_contain_text("20 / 20")
        expect(p.locator(".besm-players-results")).not_to_contain_text("17 of 24")
        # Oni (screen B): the club at Aiko, no answer: one tap and the die
        target(tb, "Aiko")
        expect(tb.locator(".besm-odds-line")).to_contain_text("club → Aiko")
        shot(b, "oni-declared", width)
        seen["Oni"] = resolve(b, tb, "5", width, height, "Oni's Resolve", "Rei")
        now(a, "Rei")
        # Rei (screen A) waits; the Ninja's shuriken at Rei; Rei steps in against the Ninja; the round ends
        ta.locator(".besm-does").get_by_label("wait", exact=True).check()
        seen["Rei waits"] = resolve(a, ta, "", width, height, "Rei waits", "Ninja")
        target(ta, "Rei")
        fill(ta, "besm-typed-dice", "3"); ta.locator("button.besm-resolve").click()
        now(a, None)
        expect(a.locator(".besm-order .besm-turn")).to_contain_text("Waiting, free to act: Rei")
        seen["Ninja"] = followed(a, width, height, "the Ninja's Resolve")
        target(ta, "Ninja")
        fill(ta, "besm-typed-dice", "2"); ta.locator("button.besm-resolve").click()
        expect(a.locator(".besm-order .besm-turn")).to_contain_text("Everyone has acted")
        seen["Rei steps in"] = followed(a, width, height, "Rei's Resolve after waiting")
        all_follow(None, "Everyone has acted")
        tb.locator("button.besm-end-round").click()  # screen B ends the round
        expect(b.locator(".besm-order .besm-round-now")).to_have_text("2")
        now(b, "Aiko")
        seen["round 2"] = followed(b, width, height, "End round")
        all_follow("Aiko")
        # Round 2 (screen B): Aiko's katana at the Ninja behind cover, the Ninja dodging; Oni grabs Rei; Rei struggles; the Ninja
        target(tb, "Ninja"); answer(tb, "Ninja", "dodge/parry")
        tb.locator(".besm-situations").get_by_label("cover in melee -4", exact=True).check()
        expect(tb.locator(".besm-odds-line")).to_contain_text("taking cover")
        seen["Aiko declared (2)"] = check_play_screen(b, width, height, "Aiko's declaration, round 2", focus=False)
        clickable_in_place(b)
        shot(b, "aiko-declared-round2", width)
        seen["Aiko (2)"] = resolve(b, tb, "18 2 6", width, height, "Aiko's Resolve, round 2", "Oni")
        all_follow("Oni")
        tb.locator(".besm-does").get_by_label("grapple", exact=True).check()
        tb.locator(".besm-target").get_by_label("Rei", exact=True).check()
        expect(tb.locator(".besm-odds-line")).to_contain_text("grab → Rei: takes hold")  # the target tapped, not the first offered
        shot(b, "oni-grabs", width)
        seen["Oni grabs"] = resolve(b, tb, "15", width, height, "Oni's grab", "Rei")
        expect(b.locator(".besm-order .besm-side[data-name='Rei'] .besm-conditions")).to_contain_text("grappled by Oni")
        now(a, "Rei")  # screen A has caught up: Rei, held, may struggle free
        ta.locator(".besm-does").get_by_label("struggle free", exact=True).check()
        expect(ta.locator(".besm-odds-line")).to_contain_text("struggle free")
        expect(ta.locator(".besm-more-choices")).to_contain_text("More: GM's modifier")  # not the attack's pace or weapons
        shot(a, "rei-struggles", width)
        seen["Rei struggles"] = resolve(a, ta, "3 15", width, height, "Rei's struggle", "Ninja")
        target(ta, "Aiko")
        fill(ta, "besm-typed-dice", "4"); ta.locator("button.besm-resolve").click()
        expect(a.locator(".besm-order .besm-turn")).to_contain_text("Everyone has acted")
        seen["round 2 over"] = followed(a, width, height, "the round's last Resolve")
        shot(a, "round-over", width)
        all_follow(None, "Everyone has acted")
        expect(p.locator(".besm-players-results")).to_contain_text("Ninja")
        print(f"{width}x{height}:", seen)
        assert errors == [], errors
    finally:
        for c in (ctx_a, ctx_b, ctx_p): c.close()


def test_the_fight_tracker_keeps_everything(page, dashboards_url):
    "The kit's check: a reload resumes, undo reaches back across the round's end, Download then Upload, saves by name."
    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-combatants", has_text="No fighters yet").wait_for(timeout=30_000)
        add_fighters(t, FIGHTERS[:2])
        fill(t, "besm-typed-dice", "15 12"); t.locator("button.besm-roll-initiative").click()
        now(page, "Aiko")
        target(t, "Oni")
        fill(t, "besm-typed-dice", "14 7"); t.locator("button.besm-resolve").click()
        t.locator(".besm-side[data-name='Oni'] .besm-bar", has_text="17 / 24").wait_for(timeout=30_000)
        now(page, "Oni")  # Oni's turn, the page followed there: the next tap lands where it aims

    def next_round(t):
        target(t, "Aiko")
        fill(t, "besm-typed-dice", "1"); t.locator("button.besm-resolve").click()
        t.locator("button.besm-end-round").click()
        t.locator(".besm-round-now", has_text="2").wait_for(timeout=30_000)

    marker = lambda t: (t.locator(".besm-order").first.inner_text() + " | " + t.locator(".besm-last").first.inner_text())
    check_tracker_kit(page, dashboards_url + URL, TRACKER, step, next_round, marker, "anime-d20-fight")
