"""The roster in the trackers (issue 35), through real clicks and typing: a party built once (typed into a tracker's set-up
and kept with Keep in roster), then a Tri-Stat fight and an Anime d20 fight each started afresh from it with Add from
roster (toggles, one step each); after a reload both fights are still there, and so is the roster."""
import pytest
from playwright.sync_api import expect

from tests.dashboards import test_home_dice_tristat as tristat
from tests.dashboards import test_play_screen_fight as d20

pytestmark = pytest.mark.browser
PARTY = [("Usagi", 7, 5, 20), ("Naru", 5, 4, 10)]  # name, ACV, DCV, power: Tri-Stat
D20_PARTY = [("Minako", "heroes", 3, 14, 4, 20, "katana", 6, "1d10+2", False), ("Kunzite", "foes", 1, 12, 2, 24, "club", 4, "1d8+3", True)]


def keep(t, name):
    "Keep in roster: pick her in the set-up's Keep list, press the button, and see it said."
    t.locator(".besm-roster-keep-pick select").select_option(name)
    t.locator("button.besm-roster-keep").click()
    expect(t.locator(".besm-roster-keep-message")).to_contain_text(f"{name} is", timeout=30_000)


def toggle(t, name):
    "One tap on an entry's toggle in the roster."
    box = t.locator(".besm-roster-pick").get_by_label(name, exact=True)
    box.check()
    expect(box).to_be_checked()


def add_from_roster(t, names, said):
    for n in names: toggle(t, n)
    t.locator("button.besm-roster-add").click()
    expect(t.locator(".besm-roster-add-message")).to_contain_text(said, timeout=30_000)


def test_a_party_kept_once_starts_a_tristat_and_an_anime_d20_fight(page, dashboards_url):
    # Tri-Stat: the party typed once and kept
    t = tristat.fresh_fight(page, dashboards_url)
    tristat.add_fighters(page, t, PARTY)
    for name, *_ in PARTY: keep(t, name)
    t.locator("button.besm-new").click()
    t.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=30_000)
    add_from_roster(t, ["Usagi", "Naru"], "Usagi, Naru are in the fight")
    for name, *_ in PARTY: t.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
    t.get_by_role("button", name="Undo").click()  # the whole addition is one step
    t.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=30_000)
    t.get_by_role("button", name="Redo").click()
    for name, *_ in PARTY: t.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)

    # Anime d20: the party typed once and kept; a new fight from it, the heroes then the foes
    f = d20.fresh_fight(page, dashboards_url)
    d20.add_fighters(f, D20_PARTY)
    for name, *_ in D20_PARTY: keep(f, name)
    f.locator("button.besm-new").click()
    f.locator(".besm-combatants", has_text="No fighters yet").wait_for(timeout=30_000)
    add_from_roster(f, ["Minako"], "Minako is in the fight, with the heroes")
    f.locator(".besm-roster-side").get_by_label("foes", exact=True).check()
    add_from_roster(f, ["Kunzite"], "Kunzite is in the fight, with the foes")
    for name, *_ in D20_PARTY: f.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)

    # a reload finds both fights, and the roster
    page.reload()
    f = page.locator(d20.TRACKER); f.wait_for(timeout=120_000)
    for name, *_ in D20_PARTY: f.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
    expect(f.locator(".besm-combatants")).to_contain_text("foes")
    for name, *_ in D20_PARTY: expect(f.locator(".besm-roster-pick").get_by_label(name, exact=True)).to_have_count(1)
    page.goto(dashboards_url + tristat.TRISTAT, timeout=180_000)
    t = page.locator(".besm-tracker"); t.wait_for(timeout=120_000)
    for name, *_ in PARTY: t.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
    for name, *_ in PARTY: expect(t.locator(".besm-roster-pick").get_by_label(name, exact=True)).to_have_count(1)
    assert page.errors == [], page.errors
    assert page.outside == [], page.outside
