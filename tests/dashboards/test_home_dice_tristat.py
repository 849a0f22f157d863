"""The dashboards in a real browser: home page, dice and checks, live updates, errors, no outside requests."""
import random

from besm_nb.dice import roll

import pytest
from playwright.sync_api import expect
from tests.dashboards.kit import check_tracker_kit, settle
from tests.helpers import ROOT, SLOW_REPLIES, assert_beside, field

pytestmark = pytest.mark.browser


def test_home_page_links_every_dashboard(page, dashboards_url):
    page.goto(dashboards_url + "/")
    assert page.url.endswith("/voila/render/index.ipynb")  # `/` opens the home page itself
    page.get_by_role("heading", name="besm_nb dashboards").wait_for(timeout=30_000)
    assert page.title() == "besm_nb dashboards"  # its heading, not its file's name ("index")
    link = page.get_by_role("link", name="Dice and checks")
    assert link.count() == 1
    link.click()
    page.locator(".besm-calculator").first.wait_for(timeout=30_000)
    assert page.url.endswith("/voila/render/dice_and_checks.ipynb")
    assert page.title() == "Dice and checks"
    assert page.outside == [], f"requests outside this machine: {page.outside}"


def test_dice_and_checks_update_and_show_errors(page, dashboards_url):
    page.goto(dashboards_url + "/voila/render/dice_and_checks.ipynb")
    out = page.locator(".besm-output").first
    out.wait_for(timeout=30_000)
    assert "2d6: 2 to 12, mean 7" in out.inner_text()

    expr = field(page, "expr")
    expr.fill("3d6")
    page.wait_for_function("document.querySelector('.besm-output').innerText.includes('3d6: 3 to 18')", timeout=30_000)
    expect(out).to_contain_text("10.50", timeout=30_000)

    expr.fill("1d6++2")
    err = page.locator(".besm-error", has_text="expected a number or a die").first
    err.wait_for(timeout=30_000)
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "Error:" not in body.replace("⚠", "")

    # the checks calculator, in its own tab: change the target and watch the exact odds move
    page.get_by_role("tab", name="Checks").click()
    target = field(page, "target")
    target.wait_for(timeout=30_000)
    target.fill("8")
    target.press("Tab")
    page.wait_for_function(
        "[...document.querySelectorAll('.besm-output')].some(e => e.innerText.includes('Success: 13/18 (72.22%)'))",
        timeout=30_000)
    target.fill("99")
    target.press("Tab")
    err = page.locator(".besm-error", has_text="Target (stat, ACV or DCV): must be from 0 to 40, got 99").first
    err.wait_for(timeout=30_000)  # named as the screen labels it
    assert_beside(target, err)

    # switch the mechanic: the d20 calculator appears with its degree-by-degree odds
    page.get_by_role("button", name="d20 vs DC (Anime d20)").click()
    page.wait_for_function(
        "[...document.querySelectorAll('.besm-output')].some(e => e.innerText.includes('Success: 11/20 (55.00%)'))",
        timeout=15_000)
    expect(page.locator("body")).to_contain_text("Overwhelming Failure", timeout=15_000)

    # a seeded roll is logged with its seed, and the seed replays it exactly
    page.get_by_role("tab", name="Dice").click()
    expr.fill("3d6")
    page.wait_for_function("document.querySelector('.besm-output').innerText.includes('3d6: 3 to 18')", timeout=30_000)
    page.locator(".besm-seed input").first.fill("1234")
    page.locator(".besm-seed input").first.press("Tab")
    page.locator("button.besm-roll").first.click()
    expected = f"seed 1234: {roll('3d6', random.Random(1234))}"
    page.locator(".besm-log", has_text=expected).first.wait_for(timeout=30_000)

    assert page.outside == [], f"requests outside this machine: {page.outside}"
    assert page.errors == [], page.errors


def test_dice_box_views_comparison_and_errors_on_a_phone(page, dashboards_url):
    "At 400 px: the three views, three expressions on one chart with labels >= 12 px that never overlap, an error at its character."
    from besm_nb.ui.dice import dice_result
    page.set_viewport_size({"width": 400, "height": 800})
    page.goto(dashboards_url + "/voila/render/dice_and_checks.ipynb")
    out = page.locator(".besm-output").first
    out.wait_for(timeout=30_000)
    field(page, "expr").fill("4d6kh3")
    page.wait_for_function("document.querySelector('.besm-output').innerText.includes('4d6kh3: 3 to 18')", timeout=30_000)
    page.locator(".besm-field-view").get_by_role("button", name="At least").click()
    expect(out).to_contain_text("The chance of each total or more", timeout=30_000)
    field(page, "expr2").fill("3d6")
    field(page, "expr3").fill("2d6+6")
    page.wait_for_function("document.querySelector('.besm-output').querySelectorAll('polyline').length === 3", timeout=30_000)
    want = dice_result("4d6kh3", "at least", "3d6", "2d6+6")
    expect(out).to_contain_text(want.lines[1], timeout=30_000)
    labels = page.evaluate("""() => [...document.querySelectorAll('.besm-output .besm-chart-label')].map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, parseFloat(getComputedStyle(e).fontSize)]; })""")
    assert len(labels) >= 8 and min(l[4] for l in labels) >= 12
    touching = [(a, b) for i, a in enumerate(labels) for b in labels[i + 1:] if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]]
    assert touching == [], touching
    assert page.evaluate("document.documentElement.scrollWidth") <= 400  # nothing runs off the side
    # a mistake in the third expression: refused beside its own box, pointing at the character
    field(page, "expr3").fill("2d6kq1")
    err = page.locator(".besm-error", has_text="and with: 'k' (keep the highest) needs a whole number after it").first
    err.wait_for(timeout=30_000)
    assert "at position 5 of '2d6kq1'" in err.inner_text() and "2d6k‸q1" in err.inner_text()
    assert_beside(field(page, "expr3"), err)
    field(page, "expr3").fill("")
    # a seeded roll shows every die, kept and dropped
    page.locator(".besm-seed input").first.fill("99")
    page.locator(".besm-seed input").first.press("Tab")
    page.locator("button.besm-roll").first.click()
    rng = random.Random(99)
    line = "; ".join(str(roll(e, rng)) for e in ("4d6kh3", "3d6"))
    page.locator(".besm-log", has_text=f"seed 99: {line}").first.wait_for(timeout=30_000)
    assert "(dropped" in line
    assert page.outside == [] and page.errors == [], (page.outside, page.errors)


TRISTAT = "/voila/render/tristat_combat.ipynb"


def fresh_fight(page, dashboards_url):
    "The Tri-Stat tracker, started afresh (the page resumes the last autosave; New keeps it as a backup)."
    page.goto(dashboards_url + TRISTAT, timeout=180_000)
    tracker = page.locator(".besm-tracker")
    tracker.wait_for(timeout=120_000)
    tracker.locator("button.besm-new").click()
    tracker.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=30_000)
    return tracker


def fill(tracker, label, value):
    box = tracker.get_by_label(label, exact=True).first
    box.fill(str(value))
    box.press("Tab")


def add_fighters(page, tracker, fighters):
    for name, acv, dcv, power in fighters:
        fill(tracker, "Name", name); fill(tracker, "ACV", acv); fill(tracker, "DCV", dcv); fill(tracker, "Health", 40)
        fill(tracker, "Power", power)
        tracker.get_by_role("button", name="Add / update").click()
        tracker.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)


def in_turn(page, names, current):
    "Wait until the order of play lists these combatants, in this order, with `current` marked as the one acting."
    page.wait_for_function("([names, current]) => { const s = [...document.querySelectorAll('.besm-order .besm-side')];"
                           " return JSON.stringify(s.map(e => e.dataset.name)) === JSON.stringify(names) &&"
                           " document.querySelector('.besm-order .besm-current')?.dataset.name === current; }",
                           arg=[names, current], timeout=30_000)


def targets_offered(page, offered):
    "Wait until the target boxes offered are exactly these (the list is rebuilt as the one acting changes)."
    page.wait_for_function("([sel, want]) => JSON.stringify([...document.querySelectorAll(sel)].map(e => e.innerText.trim())) === "
                           "JSON.stringify(want)", arg=[".besm-targets .widget-checkbox", offered], timeout=30_000)


def tick_target(page, tracker, name, offered):
    "Tick a target once the page offers exactly these."
    targets_offered(page, offered)
    tracker.locator(".besm-targets").get_by_label(name, exact=True).check()
    expect(tracker.locator(".besm-targets .besm-ticked")).to_contain_text(f"Ticked: {name}")  # the tracker has it (a line kept hidden)


def quick_answer(tracker, target, kind):
    "The target's own answer, at one tap: her row of toggles under Answers."
    row = tracker.locator(".besm-quick-answer").filter(has_text=target)
    row.get_by_label(kind, exact=True).check()
    expect(row.get_by_label(kind, exact=True)).to_be_checked()


def test_tristat_tracker_runs_a_round(page, dashboards_url):
    tracker = fresh_fight(page, dashboards_url)
    add_fighters(page, tracker, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
    fill(tracker, "Typed dice", "6 1")  # the table's d6s for initiative, in the order of the combatants
    tracker.get_by_role("button", name="Roll initiative").click()
    in_turn(page, ["Rei", "Youma"], "Rei")
    tick_target(page, tracker, "Youma", ["Youma"])  # a toggle: one tap
    fill(tracker, "Typed dice", "5 9")  # Rei hits with 5; Youma's dodge (9 against DCV 5) fails
    quick_answer(tracker, "Youma", "dodge")  # her own answer, one tap
    expect(tracker.locator(".besm-dice-need")).to_contain_text("are all it needs")  # the attack's die and the dodge's
    tracker.get_by_role("button", name="Resolve").click()
    page.wait_for_function("document.querySelector(\".besm-health[data-name='Youma']\")?.innerText === '12'", timeout=30_000)
    # the log is its own widget: its update may arrive after the health table's
    expect(page.locator(".besm-log")).to_contain_text("= 28 comes off Youma", timeout=30_000)  # 40 - (20 power + 8 ACV)

    tracker.get_by_role("button", name="Undo").click()
    page.wait_for_function("document.querySelector(\".besm-health[data-name='Youma']\")?.innerText === '40'", timeout=30_000)

    # a typed total the dice cannot show: refused beside Resolve, naming the box as the screen labels it
    tick_target(page, tracker, "Youma", ["Youma"])
    fill(tracker, "Typed dice", "13")
    tracker.get_by_role("button", name="Resolve").click()
    msg = tracker.locator(".besm-resolve-message", has_text="Typed dice: the 1st typed total is for").first
    msg.wait_for(timeout=30_000)
    assert_beside(tracker.get_by_role("button", name="Resolve"), msg)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors


def test_tristat_tracker_shows_who_is_out_and_offers_the_readings(page, dashboards_url):
    tracker = fresh_fight(page, dashboards_url)
    for name, health in [("Rei", 40), ("Youma", 40), ("Ghost", -5)]:
        fill(tracker, "Name", name); fill(tracker, "Health", health)
        tracker.get_by_role("button", name="Add / update").click()
        page.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
    page.locator(".besm-state[data-name='Ghost']", has_text="dead: out of the fight").wait_for(timeout=30_000)
    tracker.get_by_label("A natural 2's damage").select_option(label="× 2")
    tracker.get_by_label("Covering a friend").select_option(label="costs the attack action too")
    page.locator(".besm-readings-message", has_text="Readings set for this fight").wait_for(timeout=30_000)
    fill(tracker, "Typed dice", "6 1")  # the dead roll no initiative: two dice
    tracker.get_by_role("button", name="Roll initiative").click()
    in_turn(page, ["Rei", "Youma", "Ghost"], "Rei")
    expect(page.locator(".besm-side[data-name='Ghost'] .besm-conditions")).to_contain_text("dead")
    targets_offered(page, ["Youma"])  # the dead are not offered (waited for: the boxes are rebuilt after the order)
    assert page.errors == [], page.errors


def test_tristat_tracker_keeps_everything(page, dashboards_url):
    def step(t):
        t.locator("button.besm-new").click()
        t.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=30_000)
        add_fighters(page, t, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
        fill(t, "Typed dice", "6 1")
        t.get_by_role("button", name="Roll initiative").click()
        in_turn(page, ["Rei", "Youma"], "Rei")
        tick_target(page, t, "Youma", ["Youma"])
        fill(t, "Typed dice", "5")
        t.get_by_role("button", name="Resolve").click()
        t.locator(".besm-side[data-name='Youma'] .besm-bar", has_text="12 / 40").wait_for(timeout=30_000)
        in_turn(page, ["Rei", "Youma"], "Youma"); settle(page, quiet_ms=150)  # the page followed to Youma: the next tap lands where it aims

    def next_round(t):
        t.locator("button.besm-next-round").click()
        t.locator(".besm-round-now", has_text="2").wait_for(timeout=30_000)
        t.locator(".besm-resolve-message", has_text="Youma had not acted").wait_for(timeout=30_000)

    check_tracker_kit(page, dashboards_url + TRISTAT, ".besm-tracker", step, next_round,
                      lambda t: t.locator(".besm-order").first.inner_text(), "tristat-fight")


def test_home_page_lists_every_dashboard():
    "Every dashboard notebook is linked from the home page (a static check, no browser)."
    import json
    from pathlib import Path
    folder = ROOT / "nbs" / "dashboards"
    home = "".join("".join(c["source"]) for c in json.loads((folder / "index.ipynb").read_text())["cells"])
    for nb in folder.glob("*.ipynb"):
        if nb.name != "index.ipynb":
            assert f"({nb.name})" in home, f"{nb.name} is not linked from the dashboards home page"
    # grouped by system, under the site's own section headings, in the site's order
    import yaml
    side = yaml.safe_load((ROOT / "nbs" / "sidebar.yml").read_text())["website"]["sidebar"]["contents"]
    sections = [i["section"] for i in side if isinstance(i, dict) and i["section"] != "For contributors"]
    headings = [l[3:] for l in home.splitlines() if l.startswith("## ")]
    assert headings == sections
    assert home.index("## BESM d20") < home.index("(chase.ipynb)") < home.index("## Core")


FOLLOWS = "() => Math.max(0, ...[...document.querySelectorAll('.besm-play-box')].map(b => +(b.dataset.followed || 0)))"


def test_the_page_follows_play_but_leaves_a_box_being_typed_in(page, dashboards_url):
    """Roll initiative moves play on, Python is slow to answer it, and the GM is typing a save's name by then: every
    letter lands in the name, and the focus stays there (the page would move it to the acting card's first box)."""
    page.add_init_script(SLOW_REPLIES)
    tracker = fresh_fight(page, dashboards_url)
    add_fighters(page, tracker, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
    fill(tracker, "Typed dice", "6 1")
    before = page.evaluate(FOLLOWS)
    page.evaluate("window.besmSlow = 1000")
    tracker.get_by_role("button", name="Roll initiative").click()
    name = tracker.locator(".besm-save-name input")
    name.click()
    name.press_sequentially("after-the-roll", delay=150)  # 2 s of typing: Python's answer comes in the middle of it
    assert page.evaluate(FOLLOWS) > before, "the page followed play only after the typing: the test proved nothing"
    expect(name).to_have_value("after-the-roll")
    assert name.evaluate("e => e === document.activeElement")
    in_turn(page, ["Rei", "Youma"], "Rei")


def roll_typed_while_slow(page, tracker):
    "Two fighters, then Python's answers slowed to 1.5 s: \"1 6\" typed key by key and Roll initiative clicked at once."
    add_fighters(page, tracker, [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)])
    page.evaluate("window.besmSlow = 1500")
    tracker.get_by_label("Typed dice", exact=True).first.click()
    page.keyboard.type("1 6")  # Youma's 6 puts her first: only a roll with both dice gives this order
    tracker.get_by_role("button", name="Roll initiative").click()


def test_a_click_waits_for_the_dice_typed_just_before_it(page, dashboards_url):
    """A slow kernel: ipywidgets holds a box's later keystrokes back until the kernel has answered the first, and sends a
    click at once. Typed "1 6" key by key, then Roll initiative at once: the roll uses both dice, never "1" alone (the
    site's worker: test_site_trackers)."""
    page.add_init_script(SLOW_REPLIES)
    roll_typed_while_slow(page, fresh_fight(page, dashboards_url))
    in_turn(page, ["Youma", "Rei"], "Youma")
