"""The Anime d20 attack resolver dashboard in a real browser: inputs change, the shown odds are the library's, rolls replay."""
import pytest
from tests.helpers import field

from besm_nb.anime_d20.modifiers import resolve_attack
from besm_nb.dice import headline_odds
from besm_nb.ui.anime_d20.combat import attack_calculator

pytestmark = pytest.mark.browser
URL = "/voila/render/anime_d20_attack.ipynb"
TAB = "Attack resolver"  # the dashboard's second tab (the first is the fight tracker)


def open_resolver(page, dashboards_url):
    page.goto(dashboards_url + URL, timeout=180_000)
    page.get_by_role("tab", name=TAB).click(timeout=120_000)  # the fight tracker, the first tab, renders first


def shown(r) -> str:
    "The part of the headline the library's numbers fix."
    return f"Lands {headline_odds(r.odds.lands)}; mean damage {float(r.odds.expected):.2f}; drops her below 0 HP {headline_odds(r.drop)}"


def wait_for_output(page, text):
    page.wait_for_function("t => [...document.querySelectorAll('.besm-output')].some(e => e.innerText.includes(t))",
                           arg=text, timeout=15_000)


def tick(page, name, labels):
    "Tick exactly these boxes of a list of situations (by their labels), as a finger would."
    box = page.locator(f".besm-field-{name}").first
    for i in reversed(range(box.locator("input[type=checkbox]:checked").count())):
        c = box.locator("input[type=checkbox]:checked").nth(i)
        if c.locator("xpath=..").inner_text().strip() not in labels: c.uncheck()
    for label in labels: box.get_by_label(label, exact=True).check()


def set_int(page, name, value):
    box = field(page, name)
    box.fill(str(value))
    box.press("Tab")


def test_attack_resolver_shows_the_librarys_odds(page, dashboards_url):
    open_resolver(page, dashboards_url)
    page.locator(".besm-output").first.wait_for(timeout=120_000)
    wait_for_output(page, shown(resolve_attack(6, 14, "2d6+3", defence_bonus=4, armour=2, current_hp=20)))

    set_int(page, "attack_bonus", 9)
    wait_for_output(page, shown(resolve_attack(9, 14, "2d6+3", defence_bonus=4, armour=2, current_hp=20)))
    set_int(page, "ac", 18)
    wait_for_output(page, shown(resolve_attack(9, 18, "2d6+3", defence_bonus=4, armour=2, current_hp=20)))

    # two Table 12-5 rows: a round of aiming (+4 under the text reading) and light cover beyond melee (-6 chosen)
    page.locator(".besm-field-pace select").first.select_option(label="walking")  # the pace starts at still: walk first
    tick(page, "rows", ["aiming: +4 (round) / +2 (action)", "beyond melee: taking cover: -6 (-4 to -10)"])
    # aiming counts only standing still: refused beside the pace until the pace is "still"
    page.locator(".besm-error", has_text="Extra Aim counts only if the attacker does not move").first.wait_for(timeout=30_000)
    page.locator(".besm-field-pace select").first.select_option(label="still (not moving: needed to aim)")
    chosen = ["aiming", ("beyond melee: taking cover", -6)]
    expected = resolve_attack(9, 18, "2d6+3", chosen, "still", defence_bonus=4, armour=2, current_hp=20)
    assert expected.attack_bonus == 7
    wait_for_output(page, shown(expected))
    out = page.locator(".besm-output").first.inner_text()
    assert "aiming (aim reading: round)" in out and "Anime d20 SRD ch. 12 · Table 12-5" in out

    # the other Extra Aim reading: +2
    page.locator(".besm-field-aim select").first.select_option(label="an action: +2, scope +3 (Table 12-5)")
    wait_for_output(page, shown(resolve_attack(9, 18, "2d6+3", chosen, "still", aim="action", defence_bonus=4, armour=2, current_hp=20)))

    # two rows that exclude each other: the reason appears beside the list
    tick(page, "rows", ["aiming: +4 (round) / +2 (action)", "aiming with a scope: +6 (round) / +3 (action)"])
    page.locator(".besm-error", has_text="cannot be combined").first.wait_for(timeout=30_000)

    # a seeded roll is logged with its seed, and the same seed replays it in the library's calculator
    tick(page, "rows", ["touch: +6"])
    wait_for_output(page, shown(resolve_attack(9, 18, "2d6+3", ["touch"], "still", aim="action", defence_bonus=4, armour=2, current_hp=20)))
    page.locator(".besm-calculator .besm-seed input").first.fill("4321")  # the calculator's seed, not the tracker's
    page.locator(".besm-calculator .besm-seed input").first.press("Tab")
    page.locator(".besm-calculator button.besm-roll").first.click()
    calc = attack_calculator(seed=4321)
    w = {f.name: f.widget for f in calc.fields}
    w["attack_bonus"].value, w["ac"].value, w["rows"].value, w["aim"].value, w["pace"].value = 9, 18, ("touch",), "action", "still"
    page.locator(".besm-log", has_text=f"seed 4321: {calc.do_roll()}").first.wait_for(timeout=30_000)

    body = page.locator("body").inner_text()
    assert "Traceback" not in body
    assert page.outside == [], f"requests outside this machine: {page.outside}"
    assert page.errors == [], page.errors


def test_attack_resolver_takes_combined_attackers_and_the_damage_rows(page, dashboards_url):
    open_resolver(page, dashboards_url)
    page.locator(".besm-output").first.wait_for(timeout=120_000)
    set_int(page, "combined", 3)  # three strike together: each at -4, her one defence at -2
    wait_for_output(page, shown(resolve_attack(6, 14, "2d6+3", defence_bonus=4, armour=2, current_hp=20, combined=3)))
    set_int(page, "combined", 1)
    filter_box = page.locator(".besm-field-rows .besm-filter input").first
    filter_box.fill("vital")  # the filter narrows the long list as one types
    page.locator(".besm-field-rows").get_by_label("aiming: +4 (round) / +2 (action)", exact=True).wait_for(state="hidden", timeout=30_000)
    tick(page, "rows", ["vital spot: -8"])
    page.locator(".besm-field-rows .besm-ticked", has_text="Ticked: vital spot: -8").wait_for(timeout=30_000)
    wait_for_output(page, "Damage 2d8+3; critical damage 4d8+3")  # the dice one size up, and their critical
    page.locator(".besm-field-crit select").first.select_option(label="rolled twice: 2d6+3 → 4d6+6")
    wait_for_output(page, "critical damage 4d8+6")
    wait_for_output(page, shown(resolve_attack(6, 14, "2d6+3", ["vital spot"], defence_bonus=4, armour=2, current_hp=20, crit="twice")))
    assert page.errors == [], page.errors
