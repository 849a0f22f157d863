"""The Anime d20 checks dashboard in a real browser: a fall, a mind attack and the wounds tracker, each checked against the library."""
from fractions import Fraction

import pytest
from playwright.sync_api import expect
from tests.helpers import assert_beside, field

from besm_nb.ui.anime_d20.damage import crash_fall_calculator, crash_fall_result
from besm_nb.ui.anime_d20.mind import mind_combat_result
from besm_nb.anime_d20.damage import wound_penalty

pytestmark = pytest.mark.browser
FEET_LABEL = next(f.title for f in crash_fall_calculator().fields if f.name == "feet")


def calculator(page, field_name):
    "The calculator on the page that has this field."
    return page.locator(".besm-calculator").filter(has=page.locator(f".besm-field-{field_name}")).first


def set_field(page, name, value):
    box = field(page, name)
    box.fill(str(value))
    box.press("Tab")


def headline_becomes(calc, text):
    calc.locator(".besm-headline", has_text=text).first.wait_for(timeout=30_000)


def test_checks_dashboard_fall_mind_and_wounds(page, dashboards_url):
    page.goto(dashboards_url + "/voila/render/anime_d20_checks.ipynb")
    page.locator(".besm-tabs").first.wait_for(timeout=30_000)
    # five calculators, one tab each: the page opens on the first
    assert [t.strip() for t in page.get_by_role("tab").all_inner_texts()] == ["Skill check", "Crash or fall", "Wounds", "Mind combat", "Experience"]
    page.get_by_role("tab", name="Crash or fall").click()
    page.locator(".besm-field-feet").first.wait_for(timeout=30_000)

    # a 30 ft fall, Acrobatics +12, armour 2: the headline is the library's exact mean
    fall = calculator(page, "feet")
    for name, value in (("feet", 30), ("acrobatics", 12), ("armour", 2)):
        set_field(page, name, value)
    want = crash_fall_result("fall", 60, 30, 2, True, 12, "once", "none", False)
    headline_becomes(fall, want.headline)
    expect(fall).to_contain_text("Acrobatics DC 35", timeout=30_000)

    # a mind attack against a wiser target: the shown chance is the library's
    page.get_by_role("tab", name="Mind combat").click()
    mind = calculator(page, "target_wisdom")
    set_field(page, "target_wisdom", 16)
    want = mind_combat_result(16, 14, 0, 16, 2, 0, 0, 8, 10, 2, 3)
    headline_becomes(mind, want.headline)

    # the wounds tracker: 40 HP, a 12-point hit -> 28 HP, the library's Table 12-9 penalty; undo restores it
    page.get_by_role("tab", name="Wounds").click()
    wounds = page.locator(".besm-calculator").filter(has=page.locator("button.besm-damage")).first
    wounds.locator("button.besm-new").click()  # a fresh record of 40, whatever an earlier test on this server left
    expect(wounds.locator(".besm-wounds-name input")).to_be_visible(timeout=30_000)  # New unfolds the set-up, among its last updates
    headline_becomes(wounds, "40 / 40 HP: conscious")
    wounds.locator(".besm-field-amount input").first.fill("12")
    wounds.locator(".besm-field-amount input").first.press("Tab")
    expect(wounds.locator(".besm-odds-panel")).to_contain_text("If a hit of 12 lands: 28 / 40 HP", timeout=30_000)  # read before the tap
    wounds.locator("button.besm-damage").click()
    headline_becomes(wounds, f"28 / 40 HP: conscious; wound penalty {wound_penalty(28, 40):+d}")
    wounds.locator("button.besm-undo").click()
    headline_becomes(wounds, "40 / 40 HP: conscious; wound penalty +0")

    # bad input is shown beside the field, named as the screen labels it, not as a traceback
    page.get_by_role("tab", name="Crash or fall").click()
    set_field(page, "feet", -5)
    err = fall.locator(".besm-error", has_text=f"{FEET_LABEL}: must be").first
    err.wait_for(timeout=30_000)
    assert_beside(field(page, "feet"), err)
    assert page.outside == [], page.outside
    assert page.errors == [], page.errors
