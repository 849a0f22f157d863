"""Rosters (issue 35): each tracker gets from the roster the very record typing it gives; a roster file is refused whole, field
by field, for an unknown, missing or mistyped field, another system's entry or a later version; 5,000 entries load in half a
second; an edit made on a revision that is behind is refused; the command line lists, shows and fills stats from entries."""
import contextlib
import io
import json
import random
import re
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from besm_nb.dice import DiceFeed, InputError
from besm_nb.roster import (FIELDS, KINDS, MAX_DAMAGES, MAX_ENTRIES, ROSTER_KIND, ROSTER_VERSION, SYSTEMS, AnimeCharacter, Entry,
                            Group, Roster, RosterBehind, add_entry, edit_roster, keep, keep_entry, load_roster, read_roster,
                            remove_entry, replace_roster, roster_from_dict, roster_from_text, roster_path, roster_to_dict,
                            roster_to_text, save_roster, starter_roster, to_anime_character, to_army, to_attacker_fields,
                            to_defender_fields, to_fighter, to_mecha, to_stamina_event, to_target, to_unit, to_unit_character,
                            to_vehicle_steps, to_wounds, update_entry)
from besm_nb.store import document_text
from tests.helpers import ROOT, WING_SEEDS, code_pasted, notebook_pasted

RIN = dict(name="Rin", attack_bonus=5, damage="2d6+3", ac=14, defence_bonus=4, max_hp=30, hp=22, extra_defences=1, armour=2, fortitude=3)


def entry(system: str, name: str) -> Entry:
    return starter_roster(system).entry(name)


def one_of_each() -> dict[str, Entry]:
    "An entry of every kind: the starters', and an Anime d20 character (that roster starts empty)."
    out = {e.kind: e for s in SYSTEMS for e in starter_roster(s).entries}
    out["anime-character"] = Entry("anime-character", RIN)
    assert set(out) == set(KINDS)
    return out


# ---- adding from the roster gives the same fight as typing it, tracker by tracker ------------------------------------
def test_tristat_the_party_from_the_roster_plays_the_sources_round_as_typed():
    from besm_nb.tristat.round import Action, Attack, AttackPlan, Combatant, Fight, Response, fight_act, fight_to_dict
    typed = {"Jadeite": Combatant("Jadeite", acv=8, dcv=6, health=40, energy=50, attacks=(Attack("Dark Energy", 60),)),
             "Sailor Moon": Combatant("Sailor Moon", acv=6, dcv=5, health=40, energy=50, attacks=(Attack("Moon Tiara", 30),)),
             "Mercury": Combatant("Mercury", acv=6, dcv=4, health=40, energy=50, attacks=(Attack("Bubble Spray", 15),), shield=10),
             "Mars": Combatant("Mars", acv=7, dcv=5, health=40, energy=50, attacks=(Attack("Fire Soul", 15),)),
             "Tuxedo Mask": Combatant("Tuxedo Mask", acv=7, dcv=5, health=40, energy=50, attacks=(Attack("Rose Strike", 15, adds_acv=False),))}
    party = {e.name: to_fighter(e) for e in starter_roster("tristat").members("Jadeite's round", ("fighter",))}
    round_ = [Action("Jadeite", attack=AttackPlan("Jadeite", "Dark Energy", ("Sailor Moon",), energy=20, responses={"Sailor Moon": (
                  Response("Mars", "counterattack", 5), Response("Sailor Moon", "counterattack", 10), Response("Mercury", "shield", 5),
                  Response("Sailor Moon", "dodge"))})),
              Action("Tuxedo Mask", attack=AttackPlan("Tuxedo Mask", "Rose Strike", ("Jadeite",), energy=5,
                                                      responses={"Jadeite": (Response("Jadeite", "dodge"),)}))]
    dice = [[8, 8, 5, 6], [7, 7]]
    fights = []
    for fighters in (party, typed):
        f = Fight(fighters, initiatives={"Jadeite": 14, "Sailor Moon": 7, "Mercury": 9, "Mars": 9, "Tuxedo Mask": 12})
        for act, totals in zip(round_, dice): f, _ = fight_act(f, act, DiceFeed(totals=totals))
        fights.append(f)
    assert fight_to_dict(fights[0]) == fight_to_dict(fights[1])
    now = fights[0].now()[0]
    assert (now["Sailor Moon"].health, now["Jadeite"].health) == (40 - 22, 40 - 15)  # the source's 22 and 15
    assert starter_roster("tristat").entry("Sailor Moon").stats["health"] == 40  # the fight played on its own copies


def test_anime_d20_the_resolver_and_the_wounds_tracker_get_what_typing_gives():
    from besm_nb.anime_d20.combat import attack_odds
    from besm_nb.anime_d20.damage import wounds_hit, wounds_start
    rin = Entry("anime-character", RIN)
    foe = Entry("anime-character", RIN | {"name": "Oni", "ac": 12, "defence_bonus": 3, "hp": 30})
    a, t = to_attacker_fields(rin), to_defender_fields(foe)
    assert attack_odds(a["attack_bonus"], t["ac"], a["damage"], defence_bonus=t["defence_bonus"], extra_defences=t["extra_defences"],
                       armour=t["armour"]) == attack_odds(5, 12, "2d6+3", defence_bonus=3, extra_defences=1, armour=2)
    assert t["current_hp"] == 30
    assert wounds_hit(to_wounds(rin), 9, 2) == wounds_hit(wounds_start(30, 22), 9, 2)
    assert to_anime_character(rin) == AnimeCharacter(**RIN)


def test_besm_d20_chase_from_the_roster_plays_as_typed():
    from besm_nb.besm_d20.chase import Chase, Mecha, chase_to_dict, start_chase
    chases = []
    for car, bike in ((to_mecha(entry("besm_d20", "Patrol car")), to_mecha(entry("besm_d20", "Motorbike"))),
                      (Mecha("Patrol car", drive=6, manoeuvre=1, max_speed=120, hp=40, armour=4), Mecha("Motorbike", drive=5, manoeuvre=3, max_speed=110, hp=20))):
        c = Chase(start_chase(car, bike, "close", started_by="prey", dice=[15]))
        for _ in range(3):
            if not c.over: c.act(c.legal()["predator"][0], c.legal()["prey"][0], random.Random(7))
        chases.append(chase_to_dict(c))
    assert chases[0] == chases[1]


def test_besm_d20_unit_combat_from_the_roster_plays_as_typed():
    from besm_nb.besm_d20.unit_rounds import Character, Combat, combat_to_dict, roll_initiative, start_combat
    from besm_nb.besm_d20.units import Unit
    r = starter_roster("besm_d20")
    units = [to_unit(e) for e in r.members("Baiko's charge", ("unit", "unit-character")) if e.kind == "unit"]
    people = [to_unit_character(e) for e in r.members("Baiko's charge") if e.kind == "unit-character"]
    typed_units = [Unit("Baiko's samurai", "A", 5, 20, attack=(5,), damage="1d10+2", ranged_attack=(5,), ranged_damage="1d8", range_increment=100),
                   Unit("Blood Hammers", "B", 3, 29, level=4, standing="mercenary")]
    starts = [start_combat(units, characters=people), start_combat(typed_units, characters=[Character("Baiko", "A", 6)])]
    assert combat_to_dict(Combat(starts[0])) == combat_to_dict(Combat(starts[1]))
    assert roll_initiative(starts[0], [10, 12, 15])[0] == roll_initiative(starts[1], [10, 12, 15])[0]
    assert to_unit(r.entry("Blood Hammers"), side="A").side == "A" and r.entry("Blood Hammers").stats["side"] == "B"


def test_besm_d20_narrative_battle_from_the_roster_plays_as_typed():
    from besm_nb.besm_d20.battles import Battle, General, Troops, army_from_troops, battle_to_dict, resolve_turn, start_battle
    samurai = army_from_troops("Samurai", General("Kenshin", intelligence=14, military_science=8, aura_of_command=2, area_ranks=5),
                               [Troops("Samurai infantry", 2000, 1), Troops("Samurai cavalry", 500, 2, "cavalry", mount_hd=4, war_mount=True),
                                Troops("Nomad raiders", 1000, 1, "cavalry", mount_hd=3), Troops("Mecha pilots", 100, 5, "mecha", big_mecha=2)])
    horde = army_from_troops("Raiders", General("Toghrul", intelligence=12, military_science=6),
                             [Troops("Raiders on foot", 4000, 1), Troops("Raiders on light horses", 1000, 1, "cavalry", mount_hd=3)])
    roster = [to_army(entry("besm_d20", n)) for n in ("Samurai", "Raiders")]
    b = [start_battle(a, b_, characters="A", party_size=3, party_level=4) for a, b_ in (roster, (samurai, horde))]
    assert battle_to_dict(Battle(b[0])) == battle_to_dict(Battle(b[1]))
    assert resolve_turn(b[0], dice=[11, 12, 10, 7])[0] == resolve_turn(b[1], dice=[11, 12, 10, 7])[0]


def test_besm_d20_damage_record_from_the_roster_plays_as_typed():
    from besm_nb.besm_d20.damage_saves import DamageTrack, Target
    tracks = [DamageTrack(to_target(entry("besm_d20", "Rei"))), DamageTrack(Target("Rei", con=2, armour=2, damn_healthy=1, fortitude=4, level=6, fate_points=2))]
    for t in tracks: t.attack(19, natural=7); t.attack(19, natural=12)
    assert tracks[0].to_dict() == tracks[1].to_dict()


def test_special_car_chase_from_the_roster_plays_as_typed():
    from besm_nb.special.car_chase import CarChase
    roster, typed = CarChase(), CarChase()
    for name in ("Roadster", "Bike"):
        for step in to_vehicle_steps(entry("special", name)): roster.do(step)
    typed.add_vehicle("Roadster", driver="Vic", skill=13, speed=60); typed.board("Roadster", "Anna")
    typed.add_vehicle("Bike", kind="motorcycle", driver="Kai", skill=12, speed=50, tons=0.25)
    for c in (roster, typed): c.hit("Roadster", "6d6", location="Tire", tyre="front left", dice=DiceFeed(totals=[20, 14]))
    assert roster.to_dict() == typed.to_dict()


def test_encounters_stamina_record_from_the_roster_plays_as_typed():
    from besm_nb.encounters.exertion import StaminaRecord
    roster, typed = StaminaRecord(), StaminaRecord()
    for e in starter_roster("encounters").members("Pushing examples"): roster.do(to_stamina_event(e))
    typed.add("Garth", strength=5, willpower=3, max_stamina=40); typed.add("Ezra", strength=2, willpower=5, max_stamina=30)
    for r in (roster, typed): r.push("Garth", "strength", 5); r.end_round()
    assert roster.to_dict() == typed.to_dict()


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_goes_into_a_fight_and_back_unchanged(kind):
    "keep(record) of an entry's own record is the entry: 'Keep in roster' loses nothing; each record is a new copy."
    from besm_nb.roster import combatant
    e = one_of_each()[kind]
    first, second = combatant(e), combatant(e)
    assert first == second and first is not second
    assert keep(first, e.note).stats == e.stats
    assert [f for f, _ in FIELDS[kind]] == list(KINDS[kind].write(first))  # the page's field list is what each kind writes


def test_a_combatant_hurt_in_a_fight_is_kept_hurt_and_the_roster_is_untouched():
    r = starter_roster("tristat")
    mars = to_fighter(r.entry("Mars"))
    mars.health, mars.conditions = 12, ("grabbed by Jadeite",)
    kept = keep_entry(r, keep(mars), seen=0)
    assert kept.entry("Mars").stats["health"] == 12 and r.entry("Mars").stats["health"] == 40
    assert to_fighter(kept.entry("Mars")) == mars and to_fighter(kept.entry("Mars")) is not mars


# ---- a roster file refused whole, field by field --------------------------------------------------------------------
def every_kind_roster(system: str) -> dict:
    "A roster of the system with one entry of each of its kinds."
    es = tuple(e for e in one_of_each().values() if e.system == system)
    return roster_to_dict(Roster(system, es))


def wrong(value):
    "A value of another type than `value`."
    if isinstance(value, bool): return "true"
    if isinstance(value, (int, float)): return str(value)
    if isinstance(value, str): return 7
    if isinstance(value, list): return "a list"
    if isinstance(value, dict): return ["an object"]
    return "nothing"


CASES = [(k, f) for k in sorted(KINDS) for f, _ in FIELDS[k]]


@pytest.mark.parametrize("kind,field", CASES)
def test_each_field_of_each_kind_refused_missing_or_mistyped_with_nothing_changed(kind, field, tmp_path):
    system = KINDS[kind].system
    d = every_kind_roster(system)
    i = next(j for j, e in enumerate(d["entries"]) if e["kind"] == kind)
    path = roster_path(tmp_path, system)
    path.parent.mkdir()
    for change, said in ((lambda s: s.pop(field), rf"entries\[{i}\]\.stats: (is missing|is incomplete: missing) (\w+, )*{field}\b"),
                         (lambda s: s.update({field: wrong(s[field])}), rf"entries\[{i}\]\.stats\.{field}\b")):
        bad = json.loads(json.dumps(d))
        change(bad["entries"][i]["stats"])
        path.write_text(document_text(ROSTER_KIND, ROSTER_VERSION, bad))
        before = path.read_bytes()
        with pytest.raises(ValueError) as err: read_roster(tmp_path, system)
        assert re.search(said, str(err.value)), str(err.value)
        with pytest.raises(ValueError): edit_roster(tmp_path, system, remove_entry, d["entries"][i]["stats"]["name"], seen=0)
        assert path.read_bytes() == before  # refused, and nothing written


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_unknown_field_is_refused_in_every_kind(kind):
    system = KINDS[kind].system
    d = every_kind_roster(system)
    i = next(j for j, e in enumerate(d["entries"]) if e["kind"] == kind)
    d["entries"][i]["stats"]["colour"] = "red"
    with pytest.raises(ValueError, match=rf"entries\[{i}\]\.stats.*colour"): roster_from_dict(d, system)


@pytest.mark.parametrize("change,said", [
    (lambda d: d.pop("groups"), "roster: is missing groups"), (lambda d: d.update(owner="GM"), "does not save: owner"),
    (lambda d: d.update(revision=1.0), "revision: must be a whole number"), (lambda d: d.update(entries={}), "entries: must be a list"),
    (lambda d: d["entries"][0].update(starter=1), "entries[0].starter: must be True or False"),
    (lambda d: d["entries"][0].update(kind="fighter"), "entries[0].kind: 'fighter' is a Tri-Stat entry: a BESM d20 roster holds"),
    (lambda d: d["entries"][0].update(kind="goblin"), "entries[0].kind: must be one of chase-mecha, unit"),
    (lambda d: d["entries"][1]["stats"].update(name=d["entries"][0]["stats"]["name"]), "names entries[0] too"),
    (lambda d: d["groups"][0].update(members=["Nobody"]), "groups[0].members[0]: the roster has no entry called 'Nobody'"),
    (lambda d: d["groups"][0].update(members=[]), "groups[0].members: a group needs at least one entry"),
    (lambda d: d["groups"].append(dict(d["groups"][0])), "groups[3].name: two groups are called"),
    (lambda d: d.update(system="tristat"), "this is the Tri-Stat roster, not the BESM d20 one"),
])
def test_the_roster_itself_is_checked_field_by_field(change, said):
    d = json.loads(json.dumps(roster_to_dict(starter_roster("besm_d20"))))
    change(d)
    with pytest.raises(ValueError) as err: roster_from_dict(d, "besm_d20")
    assert said in str(err.value), str(err.value)


def test_a_later_version_or_another_document_is_refused(tmp_path):
    text = roster_to_text(starter_roster("tristat"))
    for bad, said in ((text.replace('"version": 1', '"version": 2', 1), "is version 2; this reads versions 1 to 1"),
                      (text.replace('"besm-roster"', '"tristat-fight"', 1), "holds a 'tristat-fight', not a 'besm-roster'"),
                      ("{", "not valid JSON")):
        with pytest.raises(ValueError, match=said): roster_from_text(bad, "tristat")
        (tmp_path / "r.json").write_text(bad)
        with pytest.raises(ValueError, match=said): load_roster(tmp_path / "r.json", "tristat")


# ---- size and caps ---------------------------------------------------------------------------------------------------
def big_roster(e: Entry, n: int) -> dict:
    d = roster_to_dict(Roster(e.system))
    d["entries"] = [{"kind": e.kind, "starter": False, "note": "", "stats": dict(e.stats, name=f"{e.name} {i}")} for i in range(n)]
    return d


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_five_thousand_entries_load_in_half_a_second(kind, tmp_path):
    e = one_of_each()[kind]
    path = tmp_path / "big.json"
    path.write_text(document_text(ROSTER_KIND, ROSTER_VERSION, big_roster(e, MAX_ENTRIES)))
    load_roster(path)  # the first read builds each check's caches (a module's first import, its first dice)
    took = []
    for _ in range(3):  # process time, the best of three: other work on a shared machine slows a run, never speeds it
        start = time.process_time()
        assert len(load_roster(path).entries) == MAX_ENTRIES
        took.append(time.process_time() - start)
    assert min(took) <= 0.5, f"{MAX_ENTRIES} {kind} entries took {min(took):.2f} s at best"


def test_one_more_than_the_cap_is_refused_before_any_entry_is_read():
    d = big_roster(entry("tristat", "Mars"), MAX_ENTRIES + 1)
    d["entries"][-1]["stats"] = "never read"
    took = time.process_time()
    with pytest.raises(ValueError, match=f"entries: must have at most {MAX_ENTRIES} items, got {MAX_ENTRIES + 1}"): roster_from_dict(d)
    assert time.process_time() - took < 0.1


def test_damage_expressions_are_capped_and_the_largest_allowed_load_within_two_seconds():
    "The largest legal damage found (three multiplied pools: each critical hit doubles them all), 40 different ones, checked cold."
    from besm_nb import dice
    from besm_nb.besm_d20.units import _critical_fits
    d = roster_to_dict(Roster("anime_d20"))
    d["entries"] = [{"kind": "anime-character", "starter": False, "note": "",
                     "stats": RIN | {"name": f"Giant {i}", "damage": f"5d20+5d20x7+5d20x49+{1000 + i}"}} for i in range(MAX_DAMAGES)]
    for cache in (_critical_fits, dice._parsed, dice._bounds): cache.cache_clear()
    took = time.process_time()
    assert len(roster_from_dict(d).entries) == MAX_DAMAGES
    took = time.process_time() - took
    assert took < 2, f"{MAX_DAMAGES} of the largest damage expressions took {took:.2f} s"
    d["entries"].append({"kind": "anime-character", "starter": False, "note": "", "stats": dict(RIN, name="One more", damage="1d4")})
    took = time.process_time()
    with pytest.raises(ValueError, match=f"hold {MAX_DAMAGES + 1} different damage expressions; a roster holds at most {MAX_DAMAGES}"):
        roster_from_dict(d)
    assert time.process_time() - took < 0.2  # refused before any is checked


def test_a_roster_too_large_to_read_back_is_not_written(tmp_path):
    held = dict(entry("tristat", "Mars").stats, conditions=[f"held by the {n}th of the Youma, who will not let go" + "!" * 150 for n in range(50)])
    r = Roster("tristat", tuple(Entry("fighter", dict(held, name=f"Mars {i}")) for i in range(600)))  # 600 × 50 long conditions
    with pytest.raises(ValueError, match="a roster file holds at most 5 MB"): save_roster(tmp_path / "r.json", r)
    assert not (tmp_path / "r.json").exists()


# ---- one edit at a time ----------------------------------------------------------------------------------------------
def test_an_edit_made_on_a_revision_behind_is_refused_with_the_latest(tmp_path):
    zoisite = Entry("fighter", dict(entry("tristat", "Mars").stats, name="Zoisite"))
    screen_1 = screen_2 = read_roster(tmp_path, "tristat")  # both screens show revision 0
    now = edit_roster(tmp_path, "tristat", add_entry, zoisite, seen=screen_1.revision)
    with pytest.raises(RosterBehind, match="changed on another screen") as err:
        edit_roster(tmp_path, "tristat", remove_entry, "Zoisite", seen=screen_2.revision)
    assert err.value.latest == now == read_roster(tmp_path, "tristat")
    with pytest.raises(RosterBehind): update_entry(now, "Mars", zoisite, seen=0)  # the pure edits refuse it the same way


def test_screens_editing_at_once_never_lose_an_edit(tmp_path):
    "Twelve screens each add one entry, trying again on their latest whenever they were behind: all twelve are kept."
    mars = entry("tristat", "Mars")
    def screen(n: int):
        seen = read_roster(tmp_path, "tristat").revision
        while True:
            try: return edit_roster(tmp_path, "tristat", add_entry, Entry("fighter", dict(mars.stats, name=f"Youma {n}")), seen=seen)
            except RosterBehind as err: seen = err.latest.revision
    threads = [threading.Thread(target=screen, args=(n,)) for n in range(12)]
    for t in threads: t.start()
    for t in threads: t.join()
    r = read_roster(tmp_path, "tristat")
    assert r.revision == 12 and {f"Youma {n}" for n in range(12)} <= {e.name for e in r.entries}


def test_renaming_and_removing_keep_the_groups_right():
    r = starter_roster("tristat")
    renamed = update_entry(r, "Mars", Entry("fighter", dict(r.entry("Mars").stats, name="Sailor Mars")), seen=0)
    assert "Sailor Mars" in renamed.group("Jadeite's round").members and "Mars" not in renamed.group("Jadeite's round").members
    alone = remove_entry(remove_entry(remove_entry(remove_entry(r, "Sailor Moon", seen=0), "Mercury", seen=1), "Mars", seen=2), "Tuxedo Mask", seen=3)
    assert [g.name for g in alone.groups] == ["Jadeite's round"] and alone.group("Jadeite's round").members == ("Jadeite",)
    with pytest.raises(ValueError, match="is a BESM d20 roster, not a Tri-Stat one"): replace_roster(r, starter_roster("besm_d20"), seen=0)


def test_a_group_adds_only_what_the_tracker_takes():
    r = starter_roster("besm_d20")
    assert [e.kind for e in r.members("Baiko's charge", ("unit", "unit-character"))] == ["unit-character", "unit", "unit"]
    with pytest.raises(ValueError, match="Baiko \\(unit-character\\) of Baiko's charge cannot join: this takes unit"):
        r.members("Baiko's charge", ("unit",))


# ---- starters -------------------------------------------------------------------------------------------------------
def test_starters_are_marked_say_where_they_come_from_and_pass_the_loaders_checks():
    for system in SYSTEMS:
        r = starter_roster(system)
        assert all(x.starter and x.note for x in r.entries + r.groups)
        assert roster_from_text(roster_to_text(r), system) == r
    assert {e.name for e in starter_roster("tristat").entries} == {"Jadeite", "Sailor Moon", "Mercury", "Mars", "Tuxedo Mask"}
    from besm_nb.besm_d20.units import NISHIHAMA
    assert to_unit(entry("besm_d20", "Warriors of Nishihama")) == NISHIHAMA  # the source's sample Unit Roster
    assert (to_army(entry("besm_d20", "Samurai")).strength, to_army(entry("besm_d20", "Samurai")).quality) == (5200, 3)  # the source's army


# ---- the roster's own words ------------------------------------------------------------------------------------------
def test_the_roster_page_and_module_are_in_our_own_words():
    found = []
    for seed in WING_SEEDS.values():
        found += notebook_pasted(ROOT / "nbs" / "core" / "10_roster.ipynb", seed)
        found += code_pasted((ROOT / "besm_nb" / "roster.py").read_text(encoding="utf-8"), seed, "besm_nb/roster.py")
    assert found == []


# ---- the command line ------------------------------------------------------------------------------------------------
def cli(*argv) -> tuple[int, str, str]:
    from besm_nb.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try: status = main(list(argv))
        except SystemExit as e: status = e.code
    return status, out.getvalue(), err.getvalue()


def test_roster_list_and_show(tmp_path):
    saves = str(tmp_path)
    status, out, _ = cli("roster", "list", "--saves", saves)
    assert status == 0 and all(f"{label} ({s})" in out for s, label in SYSTEMS.items())
    data = json.loads(cli("roster", "list", "tristat", "--saves", saves, "--json")[1])
    assert (data["kept_in"], [e["name"] for e in data["entries"]][:2]) == (None, ["Jadeite", "Sailor Moon"])
    edit_roster(tmp_path, "tristat", remove_entry, "Jadeite", seen=0)
    data = json.loads(cli("roster", "list", "tristat", "--saves", saves, "--json")[1])
    assert data["kept_in"] == str(roster_path(tmp_path, "tristat")) and data["revision"] == 1 and "Jadeite" not in {e["name"] for e in data["entries"]}
    shown = json.loads(cli("roster", "show", "besm_d20", "warriors of nishihama", "--saves", saves, "--json")[1])
    assert shown["stats"] == entry("besm_d20", "Warriors of Nishihama").stats and shown["starter"] is True
    status, out, _ = cli("roster", "show", "besm-d20", "Baiko's charge", "--saves", saves)
    assert status == 0 and "Baiko's samurai (unit)" in out
    status, _, err = cli("roster", "show", "tristat", "Zoisite", "--saves", saves)
    assert status == 1 and "no entry or group called 'Zoisite'" in err
    assert cli("roster", "list", "klingon")[0] == 2  # not a system: a usage error
    file = tmp_path / "mine.json"
    save_roster(file, starter_roster("encounters"))
    assert "Garth *" in cli("roster", "list", "--roster", str(file))[1]
    status, _, err = cli("roster", "list", "tristat", "--roster", str(file))
    assert status == 1 and "this is the Encounters roster, not the Tri-Stat one" in err
    roster_path(tmp_path, "special").parent.mkdir(exist_ok=True)
    roster_path(tmp_path, "special").write_text("{")  # a damaged roster: said, and the others still listed
    status, out, _ = cli("roster", "list", "--saves", saves)
    assert status == 0 and "cannot be read: special.json is not a readable save file" in out and "Encounters (encounters)" in out


@pytest.mark.parametrize("with_roster,typed", [
    (["tristat-attack", "--from", "Jadeite", "--target-from", "Mercury", "--dodge"],
     ["tristat-attack", "--acv", "8", "--power", "60", "--dodge", "--dcv", "4"]),
    (["d20-attack", "--from", "Rin", "--target-from", "Oni"],
     ["d20-attack", "--bonus", "5", "--damage", "2d6+3", "--ac", "12", "--defence", "3", "--armour", "2", "--hp", "30", "--extra-defences", "1"]),
    (["damage-save", "--from", "Rei", "--dc", "19"], ["damage-save", "--save", "5", "--dc", "19"]),
    (["chase-round", "--predator-from", "Patrol car", "--prey-from", "Motorbike", "--predator", "Ram", "--lead", "5"],
     ["chase-round", "--predator-drive", "6", "--predator-rating", "1", "--predator-speed", "120", "--prey-drive", "5",
      "--prey-rating", "3", "--prey-speed", "110", "--predator", "Ram", "--lead", "5"]),
    (["vehicle-hit", "6d6", "--from", "Bike", "--facing", "side"], ["vehicle-hit", "6d6", "--vehicle", "motorcycle", "--facing", "side"]),
])
def test_stats_from_the_roster_give_the_odds_typing_them_gives(with_roster, typed, tmp_path):
    edit_roster(tmp_path, "anime_d20", add_entry, Entry("anime-character", RIN | {"hp": 30}), seen=0)
    edit_roster(tmp_path, "anime_d20", add_entry, Entry("anime-character", RIN | {"name": "Oni", "ac": 12, "defence_bonus": 3, "hp": 30}), seen=1)
    status, out, err = cli(*with_roster, "--saves", str(tmp_path), "--json")
    assert status == 0, err
    got = json.loads(out)
    assert got.pop("roster")
    expected = json.loads(cli(*typed, "--json")[1])
    if with_roster[0] == "chase-round":  # the odds match; only the names differ (the entries' own, not "predator" and "prey")
        assert got["effect"] == expected["effect"] and got["lead"] == expected["lead"] and got["next_lead"] == expected["next_lead"]
    elif with_roster[0] == "vehicle-hit":  # the bike's own set-up (its speed, its engine) against the calculator's defaults
        assert got["areas"] == expected["areas"] and got["penetrates"] == expected["penetrates"]
    else: assert got == expected


def test_a_typed_option_wins_and_a_wrong_kind_is_refused(tmp_path):
    saves = str(tmp_path)
    rose = json.loads(cli("tristat-attack", "--from", "Tuxedo Mask", "--target-from", "Jadeite", "--saves", saves, "--json")[1])
    assert set(rose["health_lost"]) == {"0", "15"}  # Rose Strike adds no ACV: the source's 15, as the entry says
    a = json.loads(cli("tristat-attack", "--from", "Jadeite", "--power", "20", "--saves", saves, "--json")[1])
    b = json.loads(cli("tristat-attack", "--acv", "8", "--power", "20", "--json")[1])
    assert a["health_lost"] == b["health_lost"]
    status, _, err = cli("chase-round", "--predator-from", "Rei", "--saves", saves)
    assert status == 1 and "--predator-from: Rei is a damage-target: chase-round takes a chase-mecha of the BESM d20 roster" in err
    status, _, err = cli("tristat-attack", "--saves", saves)
    assert status == 2 and "give --acv and --power, or --from NAME" in err
    status, _, err = cli("vehicle-hit", "6d6", "--from", "Bike", "--vehicle", "car", "--saves", saves)
    assert status == 1 and "Bike is a motorcycle, not a car" in err
