"""The keyboard alone: Tab to a control (past the skip link), type, Space or Enter to press; every control reached shows
where the keyboard is (an outline of 2 px or more). On the site, the dice box and a calculator page's calculators (a
text box, a number box, a drop-down list, a tick box, toggle buttons, a button); on the dashboards, a Tri-Stat round."""
import random

import pytest
from playwright.sync_api import expect

from besm_nb.dice import roll
from besm_nb.ui.dice import dice_result
from besm_nb.ui.tristat.combat import defence_result
from tests.test_site_live import reader, site_url, wait_live, wait_output  # noqa: F401 (fixtures)

FOCUSED = "document.activeElement"


def tab_to(pg, selector: str, limit: int = 200, back: bool = False) -> int:
    "Press Tab (Shift+Tab when `back`) until the focused element matches `selector`; how many presses it took."
    for n in range(1, limit + 1):
        pg.keyboard.press("Shift+Tab" if back else "Tab")
        if pg.evaluate(f"s => {FOCUSED}?.matches(s)", selector): return n
    raise AssertionError(f"Tab did not reach {selector} in {limit} presses; it is on "
                         f"{pg.evaluate(f'{FOCUSED}?.outerHTML.slice(0, 200)')}")


def outline_px(pg) -> float:
    "How wide the focused element's outline is (0 with none): the keyboard's place must show."
    return pg.evaluate(f"(() => {{ const s = getComputedStyle({FOCUSED}); return s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth); }})()")


def skip_to_content(pg) -> None:
    "The first Tab reaches the skip link; Enter takes the keyboard past the navigation, to the page's text."
    pg.keyboard.press("Tab")
    assert pg.evaluate(f"{FOCUSED}.classList.contains('skip-to-content')"), pg.evaluate(f"{FOCUSED}.outerHTML.slice(0, 200)")
    pg.keyboard.press("Enter")


def retype(pg, text: str) -> None:
    """Replace what the focused box holds, key by key. While Python is busy the widget manager holds back a box's later
    keystrokes; the button pressed next waits for them (ORDER_JS: Roll initiative had once rolled "6" of "6 1")."""
    pg.keyboard.press("Control+A")
    pg.keyboard.type(text)


@pytest.mark.docs
@pytest.mark.browser
def test_the_dice_box_by_keyboard_alone(site_url, reader):
    reader.goto(f"{site_url}/core/dice_ui.html")
    wait_live(reader)
    skip_to_content(reader)
    box = ".besm-live[data-cell='0']"
    tab_to(reader, f"{box} .besm-field-expr input")
    assert outline_px(reader) >= 2
    retype(reader, "4d6")
    wait_output(reader, 0, dice_result("4d6").to_html())
    at_least = f"{box} .besm-field-view button[data-value='At%20least']"
    tab_to(reader, at_least)
    assert outline_px(reader) >= 2 and reader.locator(at_least).get_attribute("aria-pressed") == "false"
    reader.keyboard.press("Space")
    reader.wait_for_function("s => document.querySelector(s).getAttribute('aria-pressed') === 'true'", arg=at_least, timeout=20_000)
    wait_output(reader, 0, dice_result("4d6", "at least").to_html())
    tab_to(reader, f"{box} .besm-seed input")
    retype(reader, "4321")
    tab_to(reader, f"{box} button.besm-roll", back=True)  # Roll stands before its seed
    assert outline_px(reader) >= 2 and reader.evaluate(f"{FOCUSED}.textContent.trim()") == "Roll"
    reader.keyboard.press("Enter")
    reader.locator(f"{box} .besm-log", has_text=f"seed 4321: {roll('4d6', random.Random(4321))}").first.wait_for(timeout=20_000)
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


@pytest.mark.docs
@pytest.mark.browser
def test_a_calculator_page_by_keyboard_alone(site_url, reader):
    "Tri-Stat odds: the defence calculator's drop-down list, a number box and a tick box, by keys; the answer is the library's."
    reader.goto(f"{site_url}/tristat/combat_ui.html")
    wait_live(reader)
    skip_to_content(reader)
    box = ".besm-live[data-cell='1']"
    tab_to(reader, f"{box} .besm-field-defence select")
    assert outline_px(reader) >= 2
    for _ in range(10):  # a closed list changes its choice with the arrow keys
        if reader.evaluate(f"{FOCUSED}.value") == "dodge + shield": break  # its shown text has no-break spaces
        reader.keyboard.press("ArrowDown")
    tab_to(reader, f"{box} .besm-field-power input")
    retype(reader, "40")
    tab_to(reader, f"{box} .besm-field-ranged input[type=checkbox]")
    assert outline_px(reader) >= 2
    reader.keyboard.press("Space")
    defaults = dict(power=60, acv=8, attack_modifier=0, dcv=5, nth=1, shield=10, armour=0, counter_power=30, counter_acv=6, ranged=True)
    wait_output(reader, 1, defence_result("dodge + shield", **(defaults | dict(power=40, ranged=False))).to_html())
    assert reader.outside == [] and reader.errors == [], (reader.outside, reader.errors)


def tab_until(pg, test: str, arg, limit: int = 300) -> None:
    "Press Tab until `test` (a JavaScript function of the focused element and `arg`) holds."
    for _ in range(limit):
        pg.keyboard.press("Tab")
        if pg.evaluate(f"a => ({test})({FOCUSED}, a)", arg): return
    raise AssertionError(f"Tab did not reach {arg!r} in {limit} presses")


LABELLED = "(el, label) => el.matches('input, select') && ([...(el.labels || [])].some((l) => l.textContent.trim() === label) || el.getAttribute('aria-label') === label)"
BUTTON = "(el, text) => el.matches('button:not(:disabled)') && el.textContent.trim() === text"


@pytest.mark.browser
def test_a_tristat_round_by_keyboard_alone(page, dashboards_url):
    "Two fighters added, initiative rolled, a target ticked, an attack resolved: Tab, typing, Space and Enter only."
    page.goto(dashboards_url + "/voila/render/tristat_combat.ipynb", timeout=180_000)
    page.locator(".besm-tracker").wait_for(timeout=120_000)

    def press(text: str) -> None:
        tab_until(page, BUTTON, text)
        assert outline_px(page) >= 2, text
        page.keyboard.press("Enter")

    def type_in(label: str, value) -> None:
        tab_until(page, LABELLED, label)
        assert outline_px(page) >= 2, label
        retype(page, str(value))
        page.keyboard.press("Tab")

    press("New fight")
    page.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=60_000)
    for name, acv, dcv, power in [("Rei", 8, 6, 20), ("Youma", 5, 5, 10)]:
        for label, value in (("Name", name), ("ACV", acv), ("DCV", dcv), ("Health", 40), ("Power", power)): type_in(label, value)
        press("Add / update")
        page.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=60_000)
    type_in("Typed dice", "6 1")  # the table's d6s for initiative
    press("Roll initiative")
    page.wait_for_function("() => document.querySelector('.besm-order .besm-current')?.dataset.name === 'Rei'", timeout=60_000)
    tab_until(page, "(el) => el.matches('.besm-targets input[type=checkbox]')", None)
    assert outline_px(page) >= 2
    page.keyboard.press("Space")  # a target is a toggle now: Space presses it, and the tracker has it (a line kept hidden)
    expect(page.locator(".besm-targets .besm-ticked")).to_contain_text("Ticked: Youma", timeout=60_000)
    type_in("Typed dice", "5")  # Rei hits with 5; Youma makes no answer
    press("Resolve")
    page.wait_for_function("document.querySelector(\".besm-health[data-name='Youma']\")?.innerText === '12'", timeout=60_000)
    assert page.outside == [] and page.errors == [], (page.outside, page.errors)
