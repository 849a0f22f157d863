"""The vehicle damage dashboard in a real browser: it opens on the car chase tracker; the resolver's numbers are the
library's, readings and errors reach the page, rolls replay from their seed, the other tabs open, and the page works at
400 px (the tracker's own play: test_special_tracker_and_melee.py)."""
import random
from fractions import Fraction

import pytest
from tests.helpers import field

from besm_nb.dice import headline_odds
from besm_nb.special.vehicles import vehicle_hit_odds
from besm_nb.ui.special.vehicles import vehicle_damage_calculator

pytestmark = pytest.mark.browser
URL = "/voila/render/vehicle_damage.ipynb"


def wait_for_output(page, text):
    page.wait_for_function("t => [...document.querySelectorAll('.besm-output')].some(e => e.offsetParent && e.innerText.includes(t))",
                           arg=text, timeout=20_000)


def headline(o) -> str:
    return f"Past the armour {headline_odds(o.penetrates)}; fire {headline_odds(o.fire)}"


def set_value(page, name, value):
    box = field(page, name)
    box.fill(str(value))
    box.press("Tab")


def choose(page, name, label):
    page.locator(f".besm-field-{name} select").first.select_option(label=label)


def open_page(page, dashboards_url, tab="Hit"):
    page.goto(dashboards_url + URL, timeout=120_000)  # a busy machine takes a while to start a kernel, as on every dashboard
    page.locator(".besm-car-chase").first.wait_for(timeout=120_000)  # the first tab: the car chase tracker
    if tab:
        page.locator(".lm-TabBar-tab", has_text=tab).first.click()
        page.locator(".besm-output").first.wait_for(timeout=120_000)


def test_the_resolver_shows_the_librarys_odds(page, dashboards_url):
    open_page(page, dashboards_url)
    wait_for_output(page, headline(vehicle_hit_odds("6d6", facing="side", speed_mph=40)))

    set_value(page, "damage", "2d6")
    choose(page, "facing", "front")
    set_value(page, "speed_mph", 0)
    wait_for_output(page, f"control roll {headline_odds(Fraction(179, 1944))}")  # the chapter's hand-counted example
    out = page.locator(".besm-output").first.inner_text()
    assert "Driver: hit, control roll at −4" in out and "Special Situations · Automobile hit locations" in out

    choose(page, "location", "aimed: Gas Tank (-8)")
    wait_for_output(page, f"fire {headline_odds(Fraction(13, 36))} (explodes {headline_odds(Fraction(13, 3888))})")

    # a reading from the folded switches: the engine's DR 8 alone
    choose(page, "location", "aimed: Engine (-3)")
    wait_for_output(page, headline(vehicle_hit_odds("2d6", facing="front", location="Engine")))
    page.locator(".besm-calculator").locator(".jupyter-widget-Accordion-child, .widget-accordion, .jupyter-widget-Collapse-header").first.click()
    choose(page, "engine_dr", "the table's 8 only")
    wait_for_output(page, headline(vehicle_hit_odds("2d6", facing="front", location="Engine", engine_dr="table")))

    # a motorcycle offers only its own areas
    choose(page, "vehicle", "motorcycle")
    page.wait_for_function("() => ![...document.querySelectorAll('.besm-field-location select option')].some(o => o.textContent.includes('Window'))",
                           timeout=30_000)
    options = [o.replace("\xa0", " ") for o in page.locator(".besm-field-location select option").all_inner_texts()]
    assert "aimed: Gas Tank (-8)" in options and "aimed: Windshield (-3)" in options

    # a bad damage is refused beside its field, and nothing is rolled
    set_value(page, "damage", "2d")
    page.locator(".besm-field-damage").locator("xpath=..").locator(".besm-error", has_text="Damage (dice, or a total rolled):").first.wait_for(timeout=30_000)

    # a seeded roll is logged with its seed, and the same seed replays it in the library's calculator
    set_value(page, "damage", "6d6")
    wait_for_output(page, "Past the armour")
    calculator = page.locator(".besm-calculator").locator("visible=true").first  # the chase tracker in the first tab has a seed box too
    seed = calculator.locator(".besm-seed input").first
    seed.fill("4321"); seed.press("Tab")
    calculator.locator("button.besm-roll").first.click()
    calc = vehicle_damage_calculator(seed=4321)
    w = {f.name: f.widget for f in calc.fields}
    w["vehicle"].value = "motorcycle"
    w["damage"].value, w["facing"].value, w["speed_mph"].value = "6d6", "front", 0
    w["location"].value, w["engine_dr"].value = "Engine", "table"
    page.locator(".besm-log", has_text=f"seed 4321: {calc.do_roll()}").first.wait_for(timeout=30_000)

    assert "Traceback" not in page.locator("body").inner_text()
    assert page.outside == [], f"requests outside this machine: {page.outside}"
    assert page.errors == [], page.errors


def test_the_other_tabs_open(page, dashboards_url):
    open_page(page, dashboards_url)
    for title, text in (("Impact", "20d6 crushing"), ("Critical", "3d6 on the vehicle critical hit table"), ("Firing", "Effective skill 11: hits")):
        page.locator(".lm-TabBar-tab", has_text=title).first.click()
        wait_for_output(page, text)
    assert page.errors == [], page.errors


FITS = """() => {
  const shown = e => e.offsetParent !== null;
  return {
    width: document.documentElement.scrollWidth,
    cut: [...document.querySelectorAll('button, .lm-TabBar-tab')].filter(shown).filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.innerText),
    wide: [...document.querySelectorAll('.besm-calculator, .besm-output')].filter(shown).filter(e => e.scrollWidth > e.clientWidth + 1).length,
  };
}"""


def test_every_tab_fits_a_phone(browser, dashboards_url):
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    page = ctx.new_page()
    try:
        open_page(page, dashboards_url, tab=None)
        for title in ("Chase", "Hit", "Impact", "Critical", "Firing"):
            page.locator(".lm-TabBar-tab", has_text=title).first.click()
            if title == "Chase": page.locator(".besm-control-panel, .besm-vehicles").first.wait_for(timeout=30_000)
            else: page.wait_for_function("() => [...document.querySelectorAll('.besm-output')].some(e => e.offsetParent && e.innerText.length)",
                                         timeout=30_000)
            fits = page.evaluate(FITS)
            assert fits["width"] <= 400, (title, fits)
            assert fits["cut"] == [], (title, fits)  # whole button and tab labels
            assert fits["wide"] == 0, (title, fits)  # no answer wider than its box
    finally:
        ctx.close()
