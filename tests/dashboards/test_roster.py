"""The roster in the trackers (issue 35), through real clicks and typing: a party built once (typed into a tracker's set-up
and kept with Keep in roster), then a Tri-Stat fight and an Anime d20 fight each started afresh from it with Add from
roster (toggles, one step each); after a reload both fights are still there, and so is the roster."""
import re

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


def d20_fight_from_roster(f):
    "The Anime d20 party typed once and kept, then a new fight started from the roster: the heroes, then the foes (as such)."
    d20.add_fighters(f, D20_PARTY)
    for name, *_ in D20_PARTY: keep(f, name)
    f.locator("button.besm-new").click()
    f.locator(".besm-combatants", has_text="No fighters yet").wait_for(timeout=30_000)
    add_from_roster(f, ["Minako"], "Minako is in the fight, with the heroes")
    f.locator(".besm-roster-side").get_by_label("foes", exact=True).check()
    add_from_roster(f, ["Kunzite"], "Kunzite is in the fight, with the foes")


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
    d20_fight_from_roster(f)
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


def test_the_attack_resolver_takes_its_attacker_and_target_from_the_roster(page, dashboards_server):
    "Issue 35's calculators: a character kept in the Anime d20 roster is chosen in the attack resolver's picks; the inputs and the answer follow."
    from besm_nb.anime_d20.modifiers import resolve_attack
    from besm_nb.roster import AnimeCharacter, edit_roster, keep, keep_entry, read_roster
    from tests.dashboards import test_anime_d20_attack as attack
    from tests.helpers import field
    url, server = dashboards_server
    hotaru = AnimeCharacter("Hotaru", attack_bonus=11, damage="3d6+1", ac=19, defence_bonus=7, max_hp=25, hp=25, extra_defences=0,
                            armour=4, fortitude=2)
    edit_roster(server.saves, "anime_d20", keep_entry, keep(hotaru), seen=read_roster(server.saves, "anime_d20").revision)
    attack.open_resolver(page, url)
    attack.wait_for_output(page, attack.shown(resolve_attack(6, 14, "2d6+3", defence_bonus=4, armour=2, current_hp=20)))
    page.get_by_label("Attacker from roster").select_option(label="Hotaru")
    expect(field(page, "attack_bonus")).to_have_value("11", timeout=30_000)
    expect(field(page, "damage")).to_have_value("3d6+1")
    expect(page.locator(".besm-roster-calc-note").first).to_contain_text("Hotaru fills Attack bonus; Damage")
    attack.wait_for_output(page, attack.shown(resolve_attack(11, 14, "3d6+1", defence_bonus=4, armour=2, current_hp=20)))
    page.get_by_label("Target from roster").select_option(label="Hotaru")
    expect(field(page, "ac")).to_have_value("19", timeout=30_000)
    attack.wait_for_output(page, attack.shown(resolve_attack(11, 19, "3d6+1", defence_bonus=7, armour=4, current_hp=25)))
    expect(page.locator(".besm-calculator .besm-link-href").first).to_have_attribute("href", re.compile(r"attack_bonus=11.*ac=19"))
    assert page.errors == [], page.errors
    assert page.outside == [], page.outside
