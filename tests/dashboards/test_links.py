"""Links that reopen a dashboard, in a real browser: a calculator's inputs set (in a tab made when first opened), its Copy
link, the link opened in a fresh browser: the same tab, inputs and answer; a tampered link refused field by field beside
the fields, the good values applied; a tracker's link to a named save opens that save in its tab."""
import re

import pytest
from playwright.sync_api import expect

from tests.dashboards.kit import settle, setup_folds
from tests.helpers import assert_beside, field

pytestmark = pytest.mark.browser
PAGE = "/voila/render/anime_d20_checks.ipynb"
WOUNDS = ".besm-calculator:has(button.besm-damage)"
LINK = "?tab=mind-combat&mind-combat.wisdom=18&mind-combat.target_wisdom=10&mind-combat.rounds=3"


def calculator(page, field_name):
    "The calculator on the page that has this field."
    return page.locator(".besm-calculator").filter(has=page.locator(f".besm-field-{field_name}")).first


def set_field(scope, name, value):
    box = scope.locator(f".besm-field-{name} input").first
    box.fill(str(value))
    box.press("Tab")


def hit(t, amount, leaves):
    "A hit on the wounds record as a person makes it: the amount typed, Damage once the bar shows what it would leave."
    set_field(t, "amount", amount)
    expect(t.locator(".besm-odds-panel")).to_contain_text(f"If a hit of {amount} lands: {leaves}", timeout=30_000)
    t.locator("button.besm-damage").click()
    expect(t.locator(".besm-headline").first).to_contain_text(leaves, timeout=30_000)


def fresh(browser, **options):
    "A page in a browser context of its own (no cookies, storage or kernel shared), with its script errors kept."
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return ctx, page


def open_tab(page, name, selector):
    page.get_by_role("tab", name=name).wait_for(timeout=120_000)
    page.get_by_role("tab", name=name).click()
    found = page.locator(selector).first
    found.wait_for(timeout=60_000)
    return found


@pytest.fixture
def wounds_kept(dashboards_server):
    "The wounds tracker's files as they were before the test, put back after it (other tests start from them)."
    saves = dashboards_server[1].saves
    before = {p: p.read_bytes() for p in saves.glob("autosave-*wounds*.json")}
    yield
    for p in saves.glob("autosave-*wounds*.json"):
        if p not in before: p.unlink()
    for p, data in before.items(): p.write_bytes(data)
    (saves / "castle-fight.json").unlink(missing_ok=True)


def test_links_reopen_a_calculator_and_a_save(browser, dashboards_url, wounds_kept):
    base = dashboards_url + PAGE
    ctx, page = fresh(browser, permissions=["clipboard-read", "clipboard-write"])
    try:
        page.goto(base, timeout=180_000)
        # the Mind combat tab: three inputs set, the link holds only what differs from the defaults, and Copy link copies it whole
        calc = open_tab(page, "Mind combat", ".besm-calculator:has(.besm-field-target_wisdom)")
        for name, value in (("wisdom", 18), ("rounds", 3), ("target_wisdom", 10)):
            set_field(calc, name, value)
        link = calc.locator("a.besm-link-href")
        expect(link).to_have_attribute("href", LINK, timeout=30_000)  # in the fields' order
        out = calc.locator(".besm-output")
        for part in ("Mind broken within 3 round(s)", "Attacker's Wisdom 18", "Target's Wisdom 10"):  # the answer for these inputs
            expect(out).to_contain_text(part, timeout=30_000)
        answer = out.text_content()  # all of it: the headline, the odds, the working
        href = link.evaluate("a => a.href")
        assert href == base + LINK
        button = calc.locator("button.besm-copy-link")
        button.click()
        expect(button).to_have_text("Link copied", timeout=30_000)
        assert page.evaluate("navigator.clipboard.readText()") == href
        # the Wounds tab: a hit, saved by name; its link opens this tab and the save; one more hit after it
        t = open_tab(page, "Wounds", WOUNDS)
        t.locator("button.besm-new").click()
        expect(t.locator(".besm-history-message")).to_contain_text("New record", timeout=30_000)
        expect(t.locator(".besm-wounds-name input")).to_be_visible(timeout=30_000)  # New unfolds the set-up, among its last updates
        t.locator("button.besm-start").click()
        expect(t.locator(".besm-log")).to_contain_text("→ 40 HP", timeout=30_000)
        setup_folds(page, "the record starts")  # among Start's last updates: the page moves under a tap before them
        settle(page)  # and has followed play to the card
        hit(t, 9, "31 / 40 HP")
        # the hit's last update: the shock save it calls for is asked for, which moves the saves below down
        expect(t.locator(".besm-dice-need")).to_contain_text("Fortitude save against shock", timeout=30_000)
        settle(page)  # and the page has followed play to her card (it scrolls 120 ms after the step: a tap then lands elsewhere)
        t.locator(".besm-save-name input").fill("castle-fight")
        t.locator("button.besm-save").click()
        expect(t.locator(".besm-save-message")).to_contain_text("Saved as 'castle-fight'", timeout=30_000)
        save_link = t.locator(".besm-save-link a.besm-link-href")
        expect(save_link).to_have_attribute("href", "?tab=wounds&save=castle-fight", timeout=30_000)
        assert_beside(t.locator(".besm-saved select").first, save_link)
        save_href = save_link.evaluate("a => a.href")
        hit(t, 5, "26 / 40 HP")
        assert page.errors == [], page.errors
    finally:
        ctx.close()

    ctx, page = fresh(browser)
    try:
        # the calculator's link in a fresh browser: its tab opens by itself, with the same inputs and the same answer
        page.goto(href, timeout=180_000)
        calc = calculator(page, "target_wisdom")
        calc.wait_for(timeout=60_000)
        expect(calc.locator(".besm-output")).to_have_text(answer, timeout=30_000)
        for name, value in (("wisdom", "18"), ("target_wisdom", "10"), ("rounds", "3"), ("intelligence", "14")):
            expect(field(page, name)).to_have_value(value, timeout=30_000)
        expect(calc.locator("a.besm-link-href")).to_have_attribute("href", LINK)
        expect(page.get_by_role("tab", name="Mind combat")).to_have_attribute("aria-selected", "true")

        # a tampered link: the bad value refused beside its field in the calculator's words, the good ones applied, a
        # parameter the calculator does not have named under the inputs, the answer for what was taken (never a blank page)
        page.goto(href.replace("wisdom=18", "wisdom=lots") + "&mind-combat.telepathy=9", timeout=180_000)
        calc = calculator(page, "target_wisdom")
        calc.wait_for(timeout=60_000)
        err = calc.locator(".besm-field-wisdom").locator("xpath=..").locator(
            ".besm-error", has_text="Attacker's Wisdom score: the link gives 'lots', not a whole number").first
        err.wait_for(timeout=30_000)
        assert_beside(field(page, "wisdom"), err)
        expect(field(page, "rounds")).to_have_value("3", timeout=30_000)
        expect(field(page, "target_wisdom")).to_have_value("10", timeout=30_000)
        expect(field(page, "wisdom")).to_have_value("16")  # its default, kept
        expect(calc.locator(".besm-calc-message")).to_contain_text("'telepathy' is not an input of this calculator", timeout=30_000)
        expect(calc.locator(".besm-output")).to_contain_text("Mind broken within 3 round(s)", timeout=30_000)
        expect(calc.locator(".besm-output")).to_contain_text("Attacker's Wisdom 16", timeout=30_000)

        # the save's link: the Wounds tab opens with the save (not the later hit), which Undo takes back
        page.goto(save_href, timeout=180_000)
        t = page.locator(WOUNDS).first
        t.wait_for(timeout=60_000)
        expect(t.locator(".besm-load-message")).to_contain_text("Opened 'castle-fight' from its link", timeout=30_000)
        expect(t.locator(".besm-headline").first).to_contain_text("31 / 40 HP", timeout=30_000)
        expect(page.get_by_role("tab", name="Wounds")).to_have_attribute("aria-selected", "true")
        page.wait_for_function("() => !location.search.includes('save=')", timeout=30_000)  # a reload carries on the game
        t.locator("button.besm-undo").click()
        expect(t.locator(".besm-headline").first).to_contain_text("26 / 40 HP", timeout=30_000)
        page.goto(base + "?tab=wounds&save=../castle-fight", timeout=180_000)
        t = page.locator(WOUNDS).first
        t.wait_for(timeout=60_000)
        expect(t.locator(".besm-load-message")).to_contain_text("is not the name of a saved", timeout=30_000)
        expect(t.locator(".besm-headline").first).to_contain_text("26 / 40 HP", timeout=30_000)
        assert page.errors == [], page.errors
    finally:
        ctx.close()
