"""The car chase tracker and the group melee panel in a real browser at a phone's width (400 px): a three-turn chase
with a flat tyre and a broken windshield played through the page and checked against a hand count and the engine; the
tracker kit's reload, undo, download and upload; the melee panel's total against the library."""
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from besm_nb.dice import DiceFeed, fmt_odds, headline_odds
from besm_nb.special.car_chase import CHASE_KIND, CarChase
from besm_nb.special.melee import MeleeTurn, melee_turn
from tests.conftest import LOCAL
from tests.dashboards.kit import check_tracker_kit

pytestmark = pytest.mark.browser
CHASE = "/voila/render/vehicle_damage.ipynb"
MELEE = "/voila/render/special_situations.ipynb"
FITS = """() => ({page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
                  cut: [...document.querySelectorAll('#rendered_cells button')].filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
                       .map(b => b.innerText)})"""


@pytest.fixture
def phone(browser, dashboards_url):
    "A 400 px wide page that blocks anything leaving this machine and records page errors."
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    pg = ctx.new_page()
    pg.outside, pg.errors = [], []
    def route(r):
        u = urlparse(r.request.url)
        if u.scheme in ("http", "https", "ws", "wss") and u.hostname not in LOCAL:
            pg.outside.append(r.request.url); return r.abort()
        return r.continue_()
    pg.route("**/*", route)
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


def fill(t, cls, value):
    box = t.locator(f".{cls} input").first
    box.fill(str(value)); box.press("Tab")


def choose(t, cls, label):
    "Pick a choice by the words on screen: from a list, or one tap on a row of toggles (the GM screen's)."
    box = t.locator(f".{cls}").first
    if box.locator("select").count(): box.locator("select").first.select_option(label=label)
    else: box.get_by_label(label, exact=True).check()


def unfold(t, fold, inside):
    "Open a fold of the GM's card (its class `fold`) unless what it holds (`inside`) is shown already."
    if not t.locator(inside).first.is_visible():
        t.locator(f".{fold}").first.locator(".lm-AccordionPanel-title, .jupyter-widget-Collapse-header").first.click()
    t.locator(inside).first.wait_for(timeout=30_000)


FOLDS = {"besm-other": "besm-control-area", "besm-hits": "besm-hit-more-fold", "besm-burst": "besm-hit-more-fold",
         "besm-critical": "besm-hit-more-fold", "besm-mph": "besm-aboard-fold", "besm-passenger": "besm-aboard-fold",
         "besm-who": "besm-aboard-fold", "besm-into": "besm-crash-fold", "besm-crash-mph": "besm-crash-fold"}  # a box, and the fold it is in


def fold_fill(t, cls, value):
    "Type into a box of the car chase's card that waits in a fold: opened first."
    unfold(t, FOLDS[cls], f".{cls} input"); fill(t, cls, value)


WHERE = {"random": "random", "Tire": "Tire -4", "Windshield": "Windshield -1", "Driver": "Driver -4"}
BIKE_WHERE = {"Driver": "Driver -3", "Engine": "Engine -7"}


def wait_attr(page, selector, attr, value):
    page.wait_for_function("([s, a, v]) => document.querySelector(s)?.getAttribute(a) === v", arg=[selector, attr, str(value)], timeout=30_000)


def fresh_chase(page, dashboards_url):
    page.goto(dashboards_url + CHASE, timeout=180_000)
    t = page.locator(".besm-car-chase").first
    t.wait_for(timeout=120_000)
    t.locator("button.besm-new").click()
    t.locator(".besm-vehicles", has_text="No vehicles yet").first.wait_for(timeout=30_000)
    return t


def add_vehicle(t, name, kind, driver, skill, speed, tons=None):
    choose(t, "besm-new-kind", kind)
    fill(t, "besm-new-name", name); fill(t, "besm-new-driver", driver); fill(t, "besm-new-skill", skill); fill(t, "besm-new-speed", speed)
    if tons is not None: fill(t, "besm-new-tons", tons)
    t.locator("button.besm-add-vehicle").click()
    t.locator(f".besm-vehicle[data-name='{name}']").wait_for(timeout=30_000)
    # the action is done when the new vehicle is picked and the form cleared: a tap before that is undone by its last updates
    expect(t.locator(".besm-pick").first.get_by_label(name, exact=True)).to_be_checked(timeout=30_000)
    expect(t.locator(".besm-new-name input").first).to_have_value("", timeout=30_000)


def hit(page, t, vehicle, damage, where, typed, facing="side", tyre=None, hits=None, burst=False, critical=None):
    choose(t, "besm-pick", vehicle)
    fill(t, "besm-damage", damage); choose(t, "besm-facing", facing)
    choose(t, "besm-where", (BIKE_WHERE if vehicle == "Bike" else WHERE).get(where, WHERE.get(where)))
    if tyre: choose(t, "besm-tyre", tyre)
    if hits: fold_fill(t, "besm-hits", hits)
    if burst: unfold(t, FOLDS["besm-burst"], ".besm-burst input"); t.locator(".besm-burst input").check()
    if critical: unfold(t, FOLDS["besm-critical"], ".besm-critical select"); choose(t, "besm-critical", f"{critical}: x3 damage")
    t.locator(".besm-hit-odds", has_text="before rolling").first.wait_for(timeout=30_000)
    fill(t, "besm-typed", typed)
    n = t.locator(".besm-log code").count()
    t.locator("button.besm-resolve-hit").click()
    page.wait_for_function("n => document.querySelectorAll('.besm-car-chase .besm-log code').length > n", arg=n, timeout=30_000)
    if hits: fold_fill(t, "besm-hits", 1)
    if burst: t.locator(".besm-burst input").uncheck()
    if critical: choose(t, "besm-critical", "not a critical")


def control(page, t, vehicle, typed, effective, other=0):
    choose(t, "besm-pick", vehicle)
    fold_fill(t, "besm-other", other)
    wait_attr(page, ".besm-car-chase .besm-control", "data-effective", effective)  # the roll as it stands, before rolling
    fill(t, "besm-typed", typed)
    t.locator("button.besm-roll-control").click()
    t.locator(".besm-control-message", has_text="control roll").first.wait_for(timeout=30_000)


def test_a_three_turn_car_chase_at_400_px(phone, dashboards_url):
    page = phone
    t = fresh_chase(page, dashboards_url)
    add_vehicle(t, "Roadster", "car", "Vic", 13, 60)
    fold_fill(t, "besm-passenger", "Anna"); t.locator("button.besm-board").click()
    t.locator(".besm-vehicles", has_text="Anna (passenger)").first.wait_for(timeout=30_000)
    add_vehicle(t, "Bike", "motorcycle", "Kai", 12, 50, 0.25)
    # the engine plays the same chase beside the page
    c = CarChase()
    c.add_vehicle("Roadster", driver="Vic", skill=13, speed=60); c.board("Roadster", "Anna")
    c.add_vehicle("Bike", kind="motorcycle", driver="Kai", skill=12, speed=50, tons=0.25)

    # turn 1: a flat tyre (its roll at -6 for 60 mph), a broken windshield
    hit(page, t, "Roadster", "6d6", "Tire", "20 14", tyre="front left")
    c.hit("Roadster", "6d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[20, 14]))
    want = c.control_roll("Roadster")
    t.locator(".besm-control-panel", has_text=fmt_odds(want.chance)).first.wait_for(timeout=30_000)
    assert t.locator("button.besm-end-turn").is_disabled()  # a control roll waits
    control(page, t, "Roadster", "6", 7)
    c.control("Roadster", dice=DiceFeed(totals=[6]))
    hit(page, t, "Roadster", "3d6", "Windshield", "12", facing="front")
    c.hit("Roadster", "3d6", facing="front", location="Windshield", dice=DiceFeed(totals=[12]))
    t.locator("button.besm-end-turn").click(); c.end_turn()
    wait_attr(page, ".besm-vehicle[data-name='Roadster']", "data-speed", 50)

    # turn 2: a swerve the GM calls, the rider hit, a tripled critical on the bike's engine
    choose(t, "besm-pick", "Roadster")
    fold_fill(t, "besm-other", -1)
    mods = t.locator(".besm-control-mods")
    for what in ("Windshield broken", "Driving on a flat tyre (front left)", "Other (the GM"):
        mods.locator("td", has_text=what).first.wait_for(timeout=30_000)
    control(page, t, "Roadster", "12", 7, -1); c.control("Roadster", -1, DiceFeed(totals=[12]))
    hit(page, t, "Bike", "2d6", "Driver", "7"); c.hit("Bike", "2d6", location="Driver", dice=DiceFeed(totals=[7]))
    control(page, t, "Bike", "8", 8); c.control("Bike", dice=DiceFeed(totals=[8]))
    hit(page, t, "Bike", "2d6", "Engine", "5 10", critical=15); c.hit("Bike", "2d6", location="Engine", critical=15, dice=DiceFeed(totals=[5, 10]))
    choose(t, "besm-pick", "Roadster"); fold_fill(t, "besm-mph", 55); t.locator("button.besm-set-speed").click()
    t.locator(".besm-speed-message", has_text="Roadster is on a flat tyre: 40 mph at most").first.wait_for(timeout=30_000)
    fill(t, "besm-mph", 45); t.locator("button.besm-set-speed").click(); c.set_speed("Roadster", 45)
    wait_attr(page, ".besm-vehicle[data-name='Roadster']", "data-speed", 45)
    t.locator("button.besm-end-turn").click(); c.end_turn()
    wait_attr(page, ".besm-vehicle[data-name='Bike']", "data-speed", 45)

    # turn 3: a burst of two, the bike into a wall
    hit(page, t, "Roadster", "7d6", "random", "8 1 25 5 3 2 30", hits=2, burst=True)
    c.hit("Roadster", "7d6", facing="side", hits=2, burst=True, dice=DiceFeed(totals=[8, 1, 25, 5, 3, 2, 30]))
    choose(t, "besm-pick", "Bike"); unfold(t, FOLDS["besm-into"], ".besm-into select"); choose(t, "besm-into", "a fixed obstacle"); fill(t, "besm-typed", 40)
    t.locator("button.besm-crash").click(); c.crash("Bike", dice=DiceFeed(totals=[40]))
    t.locator(".besm-vehicle[data-name='Bike']", has_text="CRASHED").first.wait_for(timeout=30_000)
    t.locator("button.besm-end-turn").click(); c.end_turn()
    wait_attr(page, ".besm-turn-head", "data-turn", 4)

    # the hand count, on the page
    assert (c.turn, c.vehicles["Roadster"].speed, c.vehicles["Bike"].aboard[0].damage) == (4, 40, 47)
    wait_attr(page, ".besm-vehicle[data-name='Roadster']", "data-speed", 40)
    roadster = t.locator(".besm-vehicle[data-name='Roadster']").inner_text()
    assert "front left flat" in roadster and "windshield broken" in roadster and "windows ✓ crazed ✓ ✓" in roadster
    assert "Kai (driver, 47 dmg)" in t.locator(".besm-vehicle[data-name='Bike']").inner_text()
    choose(t, "besm-pick", "Roadster"); fold_fill(t, "besm-other", 0)
    wait_attr(page, ".besm-car-chase .besm-control", "data-effective", c.control_roll("Roadster").effective)  # 13 - 3 - 2
    fits = page.evaluate(FITS)
    assert fits["page"] <= 400 and fits["cut"] == [], fits
    assert page.outside == [] and page.errors == [], (page.outside, page.errors)


def test_the_chase_tracker_keeps_what_the_kit_promises(page, dashboards_url):
    def step(t):
        t.locator("button.besm-new").click()
        fill(t, "besm-new-name", "Cab"); fill(t, "besm-new-driver", "Moe")
        t.locator("button.besm-add-vehicle").click()
        t.locator(".besm-vehicle[data-name='Cab']").wait_for(timeout=30_000)
    def end_turn(t):
        t.locator("button.besm-end-turn").click()
        t.locator(".besm-turn-head[data-turn='2']").wait_for(timeout=30_000)
    check_tracker_kit(page, dashboards_url + CHASE, ".besm-car-chase", step, end_turn,
                      lambda t: t.locator(".besm-turn-head").first.inner_text(), CHASE_KIND)
    assert page.errors == [], page.errors


def test_the_melee_panel_adds_up_as_the_library_does_at_400_px(phone, dashboards_url):
    page = phone
    page.goto(dashboards_url + MELEE, timeout=180_000)
    panel = page.locator(".besm-melee-panel").first
    panel.locator(".besm-output").wait_for(timeout=120_000)
    f = lambda name: panel.locator(f".besm-field-{name}")
    for name, value in (("skill", 13), ("defence", 9), ("pd", 2), ("confusion_turns", 3)):
        box = f(name).locator("input").first; box.fill(str(value)); box.press("Tab")
    f("position").locator("select").first.select_option(label="on several fronts")
    f("first_foe").locator("input").first.uncheck()
    f("shelter").locator("select").first.select_option(label="actively sheltered by a buddy")
    f("green").locator("input").first.check()
    want = melee_turn(13, 9, "parry", pd=2, position="several fronts", first_foe=False, confusion_turns=3,
                      shelter="sheltered by a buddy", comrade_shield_pd=3, green=True)
    head = (f"Attack {want.attack}: {headline_odds(MeleeTurn.chance(want.attack_odds))} · "
            f"parry {want.defence}: {headline_odds(MeleeTurn.chance(want.defence_odds))}")
    panel.locator(".besm-headline", has_text=head).first.wait_for(timeout=30_000)
    assert (want.attack, want.defence) == (5, 4)  # the chapter's hand count
    out = panel.locator(".besm-output").inner_text()
    assert "Several fronts: a foe beyond the first" in out and "Special Situations · Individuals vs. groups" in out and "Green: never under fire" in out
    f("wall").locator("select").first.select_option(label="a shieldman in a shield wall")
    f("defence_kind").locator("select").first.select_option(label="block")
    panel.locator(".besm-headline", has_text="no block").first.wait_for(timeout=30_000)  # shieldmen may not Block
    fits = page.evaluate(FITS)
    assert fits["page"] <= 400 and fits["cut"] == [], fits
    assert page.outside == [] and page.errors == [], (page.outside, page.errors)
