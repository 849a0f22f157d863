"""The GM screen on the records of one character at a time, played as at the table: a scripted sequence of steps on the
BESM d20 damage-save record (and its Fate Point and classless ledgers), the Anime d20 wounds record and the Encounters
Stamina tracker, at 1366 x 900 and at 400 x 800. The acting side is the character being changed; the card holds the hit
or the event being entered (a number typed only where one is needed, the rest at one tap); the bar the odds of what
comes next and the button that applies it. At every step the acting character, the whole card, the odds and the button
are on the screen as the page left it (it follows play: nothing is scrolled by the test), the bar is fixed at the bottom
of a phone with every target 44 px or more, and every control receives a real click at its centre. Each result is
checked against the engine."""
import re

import pytest
from playwright.sync_api import expect

from besm_nb.anime_d20.damage import wounds_heal, wounds_hit, wounds_second_wind, wounds_start
from besm_nb.besm_d20.classless import Buy, ClasslessBuild
from besm_nb.besm_d20.damage_saves import DamageTrack
from besm_nb.besm_d20.fate_points import FateLedger
from besm_nb.dice import fmt_odds
from besm_nb.encounters.exertion import StaminaRecord
from tests.dashboards import test_besm_d20_character as character
from tests.dashboards import test_encounters as encounters
from tests.dashboards.kit import check_play_screen, choose, clickable_in_place, followed
from tests.dashboards.test_wounds_tracker import URL as WOUNDS_URL, amount, open_wounds

pytestmark = pytest.mark.browser
SCREENS = [(1366, 900), (400, 800)]


@pytest.fixture
def screen(browser, request):
    "A page at the width and height asked for, its script errors kept."
    width, height = request.param
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page, width, height
    ctx.close()


def declared(page, width, height, step):
    "A declaration made without moving play on: the screen as the page left it, and every control clickable in place."
    boxes = check_play_screen(page, width, height, step, focus=False)
    clickable_in_place(page)
    return boxes


def moved_on(page, width, height, step, moved: bool):
    "After an action: if it moved play on (the record's state, in words, changed) the page follows to the card; else it stays."
    return followed(page, width, height, step) if moved else declared(page, width, height, step)


def typed(box, value):
    "Type a number in a box (one tap), then leave it so the page has it."
    box.fill(str(value))
    box.press("Tab")


# -- BESM d20: the damage-save record ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_damage_save_record_on_the_gm_screen(screen, dashboards_url):
    page, width, height = screen
    character.open_page(page, dashboards_url)
    character.fresh_record(page)
    t = page.locator(character.TRACKER)
    track, seen = DamageTrack(character.REI), {}

    def hit(bonus, kind, d20, step, dc, **rare):
        "Declare a hit (its Damage Bonus typed, stun or lethal at one tap), check the odds against the engine, then roll the table's d20."
        typed(t.locator(".besm-damage-bonus input"), bonus)
        choose(t.locator(".besm-attack-kind"), kind)
        odds = track.odds(dc, kind, max_effect=rare.get("max_effect", "none"))
        for name, p in odds.items():
            expect(t.locator(".besm-round-odds")).to_contain_text(f"{name} {fmt_odds(p)}", timeout=30_000)
        if track.events: seen[f"{step} declared"] = declared(page, width, height, f"{step} declared")
        typed(t.locator(".besm-d20 input"), d20)
        before = track.record.condition
        track.attack(dc, kind, d20, **rare)
        t.get_by_role("button", name="Roll the save").click()
        character.condition_is(page, track.record.condition)
        seen[step] = moved_on(page, width, height, step, track.record.condition != before or len(track.events) == 1)

    # round 1: a lethal hit at Damage Bonus +3 (DC 18), the table's 3: 3 + 5 = 8 fails by 10, stunned and a lethal hit
    hit(3, "lethal", 3, "a lethal hit", 18)
    assert track.record.condition == "Stunned, Injured (1)"
    t.get_by_role("button", name="Spend a Fate Point").click()  # one step milder
    track.fate_point()
    character.condition_is(page, track.record.condition)
    character.fate_points_are(page, 2)
    seen["a Fate Point"] = followed(page, width, height, "a Fate Point")
    t.get_by_role("button", name="End round").click()
    track.end_round()
    expect(t.locator(".besm-order .besm-round-now")).to_have_text("2", timeout=30_000)
    seen["End round"] = followed(page, width, height, "End round")
    # round 2: a stun hit at +6 (DC 21), the table's 9: 9 + 5 − 1 (the lethal hit she carries) = 13 fails by 8, stunned
    hit(6, "stun", 9, "a stun hit", 21)
    # a pulled punch, from the card's fold: at most a hit, whatever the d20
    t.locator(".besm-rare-hit").get_by_text("More:").first.click()
    choose(t.locator(".besm-cap"), "at most a hit")
    expect(t.locator(".besm-rare-hit")).to_contain_text("set: pulled punch")
    hit(10, "lethal", 2, "a pulled punch", 25, max_effect="hit")
    expect(t.locator(".besm-attack-kind").get_by_label("lethal", exact=True)).to_be_checked()  # the next hit starts clear
    t.get_by_role("button", name="End round").click()
    track.end_round()
    expect(t.locator(".besm-order .besm-round-now")).to_have_text("3", timeout=30_000)
    seen["End round 2"] = followed(page, width, height, "End round 2")
    expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("Round ends")
    print(f"damage-save record {width}x{height}:", seen)
    assert page.errors == [], page.errors


# -- BESM d20: the Fate Point ledger ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_fate_point_ledger_on_the_gm_screen(screen, dashboards_url):
    page, width, height = screen
    character.open_page(page, dashboards_url)
    character.open_tab(page, "Fate Points", character.FATE)
    t = page.locator(character.FATE)
    t.locator("button.besm-new").click()
    led, seen = FateLedger("Usagi"), {}
    turn = lambda: expect(t.locator(".besm-order .besm-turn")).to_have_text(
        f"Usagi: {led.balance} Fate Point{'s' if led.balance != 1 else ''}", timeout=30_000)
    turn()
    choose(t.locator(".besm-fp-use"), "Left For Dead")  # the common use, at one tap
    t.get_by_role("button", name="Spend", exact=True).click()
    led.spend("Left For Dead")
    turn()
    seen["Left For Dead"] = followed(page, width, height, "Left For Dead")
    # Raw Power: one tap, its d6 typed at the table
    choose(t.locator(".besm-fp-use"), "Raw Power")
    expect(t.locator(".besm-odds-line")).to_contain_text("1d6 + Level 5 = 6 to 11, each 1/6 (16.67%)", timeout=30_000)
    seen["Raw Power declared"] = declared(page, width, height, "Raw Power declared")
    typed(t.locator(".besm-fp-die input"), 4)
    t.get_by_role("button", name="Spend", exact=True).click()
    led.spend("Raw Power", level=5, roll=4)
    turn()
    seen["Raw Power"] = followed(page, width, height, "Raw Power")
    # a Mighty Blow with a Personal Gear weapon: two taps, its d2 typed
    choose(t.locator(".besm-fp-use"), "Mighty Blow")
    choose(t.locator(".besm-fp-weapon"), "Personal Gear (snaps on a 1)")
    expect(t.locator(".besm-odds-line")).to_contain_text("it snaps on a 1 on 1d2, 1/2 (50.00%)", timeout=30_000)
    seen["Mighty Blow declared"] = declared(page, width, height, "Mighty Blow declared")
    typed(t.locator(".besm-fp-die input"), 1)
    t.get_by_role("button", name="Spend", exact=True).click()
    led.spend("Mighty Blow", weapon="personal gear", roll=1)
    turn()
    seen["Mighty Blow"] = followed(page, width, height, "Mighty Blow")
    expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text(led.lines[-1][:30])
    expect(t.get_by_role("button", name="Spend", exact=True)).to_be_disabled()  # none left: Spend is not offered
    # two points for a goal: one tap for the points, the goal typed
    choose(t.locator(".besm-fp-gain-points"), "2")
    typed(t.locator(".besm-fp-goal input"), "saved the school")
    seen["a gain declared"] = declared(page, width, height, "a gain declared")
    t.get_by_role("button", name="Gain for a major goal").click()
    led.gain(2, "saved the school")
    turn()
    seen["a gain"] = followed(page, width, height, "a gain")
    print(f"Fate Point ledger {width}x{height}:", seen)
    assert page.errors == [], page.errors


# -- BESM d20: the classless ledger ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_classless_ledger_on_the_gm_screen(screen, dashboards_url):
    page, width, height = screen
    character.open_page(page, dashboards_url)
    character.open_tab(page, "Classless", character.CLASSLESS)
    t = page.locator(character.CLASSLESS)
    t.locator("button.besm-new").click()
    b, seen = ClasslessBuild("Kaede", 90), {}
    turn = lambda: expect(t.locator(".besm-order .besm-turn")).to_have_text(
        f"Kaede: ECL {b.ecl}, {float(b.left):g} CP left", timeout=30_000)
    turn()

    def buy(kind, which, step, purchase, count=None, typed_in=()):
        "Tap the kind and which one, type only what the kind needs, check the cost against the rules, then Buy."
        choose(t.locator(".besm-cl-kind"), kind)
        if which: choose(t.locator(".besm-cl-pick"), which)
        if count is not None: typed(t.locator(".besm-cl-count input"), count)
        for cls, value in typed_in: typed(t.locator(f"{cls} input"), value)
        expect(t.locator(".besm-odds-line")).to_contain_text(f"left {float(b.left):g} →", timeout=30_000)
        if b.entries: seen[f"{step} declared"] = declared(page, width, height, f"{step} declared")  # in play: the set-up folded
        t.get_by_role("button", name="Buy", exact=True).click()
        b.push(purchase)
        turn()
        seen[step] = followed(page, width, height, step)

    buy("ability", "Dexterity", "Dexterity +2", Buy("ability", "Dexterity", 2), count=2)
    buy("save", "Will", "Will save +1", Buy("save", "Will", 1))
    buy("feat", None, "a Feat", Buy("feat", "Alertness", 1, "2"), typed_in=((".besm-cl-what", "Alertness"), (".besm-cl-cost", 2)))
    expect(t.locator(".besm-cl-kind").get_by_label("ability", exact=True)).to_be_checked()  # the next purchase starts clear
    print(f"classless ledger {width}x{height}:", seen)
    assert page.errors == [], page.errors


# -- Anime d20: the wounds record ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_the_wounds_record_on_the_gm_screen(screen, dashboards_url):
    page, width, height = screen
    page.goto(dashboards_url + WOUNDS_URL, timeout=180_000)
    t = open_wounds(page)
    t.locator("button.besm-new").click()
    expect(t.locator(".besm-history-message")).to_contain_text("New record", timeout=30_000)
    name = t.locator(".besm-wounds-name input")
    name.fill("Aiko"); name.press("Tab")
    expect(t.locator(".besm-order .besm-side")).to_have_attribute("data-name", "Aiko", timeout=30_000)
    w, seen = wounds_start(40), {}
    skin = t.get_by_label("Breaks the skin (bullet, blade…)", exact=True)
    skin.uncheck()  # New keeps the declaration: an earlier test on this server may have left the blade's toggle on
    expect(skin).not_to_be_checked()
    hp_is = lambda extra="": expect(t.locator(".besm-order .besm-turn")).to_have_text(f"Aiko: {w.hp} / {w.max_hp} HP{extra}", timeout=30_000)
    t.locator("button.besm-start").click()
    hp_is()
    seen["Start"] = followed(page, width, height, "Start")
    # a hit of 20: the number typed; it calls for a shock save, whose odds the bar shows before the d20 is typed
    amount(t, 20)
    expect(t.locator(".besm-odds-line")).to_contain_text("If a hit of 20 lands: 20 / 40 HP", timeout=30_000)
    seen["a hit declared"] = declared(page, width, height, "a hit declared")
    t.get_by_role("button", name="Damage", exact=True).click()
    w = wounds_hit(w, 20)
    expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("hit for 20 → 20 HP", timeout=30_000)  # not breaking the skin
    hp_is(", a shock save owed (Fortitude DC 17)")
    expect(t.locator(".besm-odds-line")).to_contain_text("Aiko owes a shock save: Fortitude +2 vs DC 17, saved 30.00%")
    seen["Damage"] = followed(page, width, height, "Damage")
    typed(t.locator(".besm-typed-dice input"), 12)
    t.get_by_role("button", name="Roll shock save").click()
    expect(t.locator(".besm-resolve-bar .besm-last-line")).to_contain_text("fails by 3, incapacitated 3 round(s) (dice 12, typed)",
                                                                           timeout=30_000)
    hp_is()
    seen["shock save"] = followed(page, width, height, "the shock save")
    # a blade's 7: the number typed, breaking the skin at one tap
    amount(t, 7)
    choose(t, "Breaks the skin (bullet, blade…)")
    seen["a blade declared"] = declared(page, width, height, "a blade declared")
    t.get_by_role("button", name="Damage", exact=True).click()
    w = wounds_hit(w, 7, breaks_skin=True)
    hp_is()
    seen["a blade"] = followed(page, width, height, "a blade")
    amount(t, 5)
    t.get_by_role("button", name="Heal", exact=True).click()
    w = wounds_heal(w, 5)
    hp_is()
    seen["Heal"] = followed(page, width, height, "Heal")
    t.get_by_role("button", name="Second wind").click()  # her record changes, not what comes next: the page stays
    w = wounds_second_wind(w)
    expect(t.locator(".besm-order .besm-conditions")).to_contain_text("second wind taken", timeout=30_000)
    seen["Second wind"] = declared(page, width, height, "Second wind")
    print(f"wounds record {width}x{height}:", seen)
    assert page.errors == [], page.errors


# -- Encounters: the Stamina of several characters --------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS, indirect=True)
def test_a_stamina_round_on_the_gm_screen(screen, dashboards_url):
    page, width, height = screen
    t = encounters.stamina_tab(page, dashboards_url)
    encounters.fresh_fight(page, t)
    r, seen = StaminaRecord(), {}
    for name, strength, full in (("Ann", 4, 30), ("Bo", 5, 20), ("Cy", 3, 25)):
        t.locator(".besm-name input").fill(name); t.locator(".besm-strength input").fill(str(strength))
        t.locator(".besm-max-stamina input").fill(str(full)); t.locator(".besm-stamina-now input").fill("")
        t.locator("button.besm-add").click()
        page.locator(encounters.SIDE.format(name)).wait_for(timeout=30_000)
        r.add(name, strength, 3, full)
    acting = lambda name: expect(page.locator(encounters.SIDE.format(name))).to_have_class(re.compile("besm-current"), timeout=30_000)
    done = lambda n: expect(t.locator(".besm-order .besm-turn")).to_contain_text(f"{n} of 3 done", timeout=30_000)
    choose(t.locator(".besm-who"), "Ann")  # before play: the set-up is still open
    acting("Ann")
    # round 1: Ann acts (one tap); the card moves on to Bo
    t.get_by_role("button", name="Acts", exact=True).click()
    r.act("Ann")
    acting("Bo"); done(1)
    seen["Ann acts"] = followed(page, width, height, "Ann acts")
    # Bo pushes Strength 2: the Stamina typed, what it costs in the bar before it is done
    typed(t.locator(".besm-points input"), 2)
    expect(t.locator(".besm-odds-line")).to_contain_text("Push Strength 5 → 7", timeout=30_000)
    seen["Bo's push declared"] = declared(page, width, height, "Bo's push declared")
    t.get_by_role("button", name="Push", exact=True).click()
    r.push("Bo", "strength", 2)
    encounters.stamina_is(page, "Bo", r.fighter("Bo").stamina)
    acting("Cy"); done(2)
    seen["Bo pushes"] = followed(page, width, height, "Bo pushes")
    # Cy is hurt (she may still act: the card stays on her), then takes a minor action only
    typed(t.locator(".besm-hurt-stamina input"), 3)
    t.get_by_role("button", name="Hurt", exact=True).click()
    r.hurt("Cy", 3, 0)
    encounters.stamina_is(page, "Cy", r.fighter("Cy").stamina)
    seen["Cy is hurt"] = declared(page, width, height, "Cy is hurt")
    t.get_by_role("button", name="Minor action only").click()
    r.act("Cy", effort=False)
    done(3)
    seen["Cy's minor action"] = followed(page, width, height, "Cy's minor action")
    t.get_by_role("button", name="End round").click()
    r.end_round()
    page.wait_for_function("document.querySelector('.besm-stamina-tracker .besm-round').dataset.round === '2'", timeout=30_000)
    acting("Ann")
    seen["End round"] = followed(page, width, height, "End round")
    # round 2: everyone again, at one tap
    t.get_by_role("button", name="Repeat last round").click()
    r.repeat()
    done(3)
    encounters.stamina_is(page, "Bo", r.fighter("Bo").stamina)
    seen["Repeat last round"] = followed(page, width, height, "Repeat last round")
    t.get_by_role("button", name="End round").click()
    r.end_round()
    page.wait_for_function("document.querySelector('.besm-stamina-tracker .besm-round').dataset.round === '3'", timeout=30_000)
    for name in ("Ann", "Bo", "Cy"): encounters.stamina_is(page, name, r.fighter(name).stamina)
    seen["End round 2"] = followed(page, width, height, "End round 2")
    print(f"Stamina {width}x{height}:", seen)
    assert page.errors == [], page.errors
