"""The calculators' roster picks (issue 35): picking an entry sets the very inputs, and gives the very answer, that typing
her numbers gives (and what the command line's --from gives); picking "—" leaves the inputs alone; a 5,000-entry roster
offers at most MAX_TOGGLES entries, with a Find box for the rest; a roster file changed by another screen is seen."""
import os
import random
from pathlib import Path

import pytest

from besm_nb.roster import (AnimeCharacter, Entry, Roster, add_entry, edit_roster, keep, read_roster, remove_entry, roster_path,
                            save_roster, starter_roster)
from besm_nb.ui.anime_d20.combat import attack_calculator
from besm_nb.ui.besm_d20.damage_saves import damage_save_calculator
from besm_nb.ui.roster import MAX_TOGGLES, NO_PICK, RosterPick
from besm_nb.ui.special.vehicles import vehicle_damage_calculator

RIN = AnimeCharacter("Rin", attack_bonus=9, damage="1d10+4", ac=17, defence_bonus=6, max_hp=30, hp=22, extra_defences=2, armour=3, fortitude=3)
ONI = AnimeCharacter("Oni", attack_bonus=2, damage="1d4", ac=11, defence_bonus=1, max_hp=40, hp=-4, extra_defences=0, armour=7, fortitude=5)


def typed(calc, **values):
    "The calculator with these inputs typed in, one by one, as a hand would."
    fields = {f.name: f.widget for f in calc.fields}
    for name, v in values.items(): fields[name].value = v
    return calc


def same(picked, by_hand):
    "Both calculators hold the same inputs, show the same answer and link, and roll alike."
    assert picked.values == by_hand.values
    assert picked.answer.value == by_hand.answer.value and picked.output.value == by_hand.output.value
    assert picked.link_query() == by_hand.link_query()
    if picked.roll_fn is None: assert by_hand.roll_fn is None  # no Roll (the Tri-Stat hit and dodge: exact odds only)
    else: assert picked.roll_fn(random.Random(5), **picked.values) == by_hand.roll_fn(random.Random(5), **by_hand.values)


@pytest.fixture
def saves(tmp_path):
    "A saves folder whose Anime d20 roster holds Rin and Oni."
    r = read_roster(tmp_path, "anime_d20")
    for c in (RIN, ONI): r = edit_roster(tmp_path, "anime_d20", add_entry, keep(c), seen=r.revision)
    return tmp_path


def test_the_attack_resolver_takes_an_attacker_and_a_target_from_the_roster(saves):
    calc = attack_calculator(seed=3, saves=saves)
    attacker, target = calc.roster_picks
    assert (attacker.pick.description, target.pick.description) == ("Attacker from roster", "Target from roster")
    assert [v for _, v in attacker.pick.options] == ["", "Rin", "Oni"]
    before = calc.answer.value
    attacker.choose("Rin"); target.choose("Oni")
    by_hand = typed(attack_calculator(seed=3, saves=None), attack_bonus=9, damage="1d10+4", ac=11, defence_bonus=1, extra_defences=0,
                    armour=7, current_hp=0)
    same(calc, by_hand)
    assert calc.answer.value != before
    assert "1d10" in calc.link_query() and "Rin" not in calc.link_query()  # the link carries the numbers, not her name
    assert "Her Hit Points are below 0 (-4): 0 here" in target.note.value
    assert "Block Ranged Attack" in target.note.value and "pace" in attacker.note.value


def test_the_attack_resolver_agrees_with_the_command_line(saves, capsys):
    import json
    from besm_nb.cli import main
    from besm_nb.ui.anime_d20.combat import attack_result
    calc = typed(attack_calculator(seed=3, saves=saves), defence=())  # the command line's defence takes no situation
    calc.roster_picks[0].choose("Rin"); calc.roster_picks[1].choose("Oni")
    assert main(["d20-attack", "--from", "Rin", "--target-from", "Oni", "--saves", str(saves), "--json"]) in (0, None)
    cli = json.loads(capsys.readouterr().out)
    assert str(attack_result(**calc.values).exact["lands"]) == cli["lands"]["exact"]


def test_picking_nothing_leaves_the_inputs_alone(saves):
    calc = attack_calculator(seed=3, saves=saves)
    pick = calc.roster_picks[0]
    pick.choose("Rin")
    assert calc.values["attack_bonus"] == 9
    typed(calc, attack_bonus=4, ac=19)  # changed by hand after the pick
    before = calc.values
    pick.choose(NO_PICK)
    assert calc.values == before and pick.note.value == ""


def test_the_damage_save_calculator_takes_its_target_from_the_roster():
    calc = damage_save_calculator(seed=7, saves=None)  # no saves folder: the starters
    pick, = calc.roster_picks
    assert pick.pick.options == (("—", ""), ("Rei ★", "Rei"))
    before = calc.answer.value
    pick.choose("Rei")
    same(calc, typed(damage_save_calculator(seed=7, saves=None), con=2, armour=2, damn_healthy=1))
    assert calc.answer.value != before  # +5 against the calculator's starting +4
    assert "Damage Save +5 vs DC 18" in calc.answer.value
    assert "her Level is 6" in pick.note.value


def test_the_vehicle_hit_takes_its_vehicle_from_the_roster_as_the_car_chase_and_the_command_line_do():
    from besm_nb.roster import to_vehicle_steps
    from besm_nb.special.car_chase import CarChase
    calc = vehicle_damage_calculator(seed=11, saves=None)
    pick, = calc.roster_picks
    assert [v for _, v in pick.pick.options] == ["", "Roadster", "Bike"]
    before = calc.answer.value
    pick.choose("Bike")
    by_hand = typed(vehicle_damage_calculator(seed=11, saves=None), vehicle="motorcycle", speed_mph=50, passenger=False, engine_ht=9,
                    engine_hp=30)
    same(calc, by_hand)
    assert calc.answer.value != before
    bike = starter_roster("special").entry("Bike")
    chase = CarChase(steps=to_vehicle_steps(bike))  # what `besm-nb vehicle-hit --from Bike` asks
    from besm_nb.ui.special.vehicles import vehicle_damage_result
    want = chase.hit_odds("Bike", "6d6", facing="side")
    got = vehicle_damage_result(**calc.values)
    assert got.exact == {"past the armour": want.penetrates, "fire": want.fire, "explodes": want.explodes,
                         "control roll": want.control_roll, "someone hurt": want.hurt}
    pick.choose("Roadster")  # a car after a motorcycle: its tyres and engine are a car's
    assert (calc.values["vehicle"], calc.values["passenger"], calc.values["engine_hp"]) == ("car", True, 70)


def test_a_roster_of_5000_offers_at_most_the_cap_and_find_narrows_it(tmp_path):
    import time
    many = Roster("anime_d20", tuple(keep(AnimeCharacter(f"Youma {i}", 3, "1d6", 12, 2, 10, 10)) for i in range(5_000)))
    roster_path(tmp_path, "anime_d20").parent.mkdir()
    save_roster(roster_path(tmp_path, "anime_d20"), many)
    t0 = time.process_time()
    calc = attack_calculator(seed=1, saves=tmp_path)
    assert time.process_time() - t0 < 2
    pick = calc.roster_picks[1]
    assert len(pick.pick.options) - 1 <= MAX_TOGGLES  # with "—"
    assert pick.find.layout.display is None and pick.find.description == "Find target"
    assert "5,000 in the roster: 200 shown" in pick.find_note.value
    pick.find.value = "youma 4999"
    assert [v for _, v in pick.pick.options] == ["", "Youma 4999"]
    pick.choose("Youma 4999")
    pick.find.value = "Youma 12"  # the one picked stays offered
    assert [v for _, v in pick.pick.options][:3] == ["", "Youma 4999", "Youma 12"]
    assert pick.pick.value == "Youma 4999" and calc.values["ac"] == 12


def test_a_roster_changed_by_another_screen_is_seen_by_look(saves):
    calc = damage_save_calculator(seed=7, saves=saves)
    pick, = calc.roster_picks
    assert not pick.look()  # nothing changed yet
    from besm_nb.besm_d20.damage_saves import Target
    r = read_roster(saves, "besm_d20")
    edit_roster(saves, "besm_d20", add_entry, keep(Target("Ami", con=1, armour=0, damn_healthy=3, level=2)), seen=r.revision)
    assert pick.look()
    assert ("Ami", "Ami") in pick.pick.options
    pick.choose("Ami")
    assert (calc.values["con"], calc.values["armour"], calc.values["damn_healthy"]) == (1, 0, 3)
    r = read_roster(saves, "besm_d20")
    edit_roster(saves, "besm_d20", remove_entry, "Ami", seen=r.revision)  # gone: the pick goes back to —, the inputs stay
    assert pick.look()
    assert pick.pick.value == "" and (calc.values["con"], calc.values["damn_healthy"]) == (1, 3)


def test_an_unreadable_roster_is_said_beside_the_pick(tmp_path):
    roster_path(tmp_path, "special").parent.mkdir()
    roster_path(tmp_path, "special").write_text("{not json")
    calc = vehicle_damage_calculator(saves=tmp_path)
    assert "cannot be read" in calc.roster_picks[0].note.value
    assert roster_path(tmp_path, "special").read_text() == "{not json"


def test_a_pick_takes_only_its_own_systems_kinds():
    calc = damage_save_calculator(saves=None)
    with pytest.raises(ValueError, match="kinds"):
        RosterPick(calc, "besm_d20", ["vehicle"], dict)


def test_the_tristat_hit_and_dodge_takes_an_attacker_and_a_target_from_the_roster():
    from besm_nb.ui.tristat.combat import attack_calculator as tristat_calculator
    calc = tristat_calculator(saves=None)  # no saves folder: the starters, source 001's worked round
    attacker, target = calc.roster_picks
    assert (attacker.pick.description, target.pick.description) == ("Attacker from roster", "Target from roster")
    assert [v for _, v in attacker.pick.options] == ["", "Jadeite", "Sailor Moon", "Mercury", "Mars", "Tuxedo Mask"]
    before = calc.answer.value
    attacker.choose("Mars"); target.choose("Mercury")
    same(calc, typed(tristat_calculator(saves=None), acv=7, dcv=4))  # Mars's ACV 7 against Mercury's DCV 4
    assert calc.answer.value != before and "Lands: 35/72" in calc.answer.value  # 21/36 to hit × 30/36 past the dodge
    assert "Mars" not in calc.link_query() and "dcv=4" in calc.link_query()


@pytest.mark.parametrize("attacker, target, attack", [("Jadeite", "Mercury", ()), ("Mars", "Sailor Moon", ()),
                                                      ("Hotaru", "Hotaru", ("--attack", "Mind Lance")), ("Hotaru", "Mars", ())])
def test_the_tristat_hit_and_dodge_agrees_with_the_command_line(tmp_path, capsys, attacker, target, attack):
    import json
    from besm_nb.cli import main
    from besm_nb.tristat.round import Attack, Combatant
    from besm_nb.ui.tristat.combat import attack_calculator as tristat_calculator, attack_result
    psychic = Combatant("Hotaru", 5, 4, 40, 50, mind=9, attacks=(Attack("Mind Lance", 20, mental=True), Attack("Kick", 10)))
    edit_roster(tmp_path, "tristat", add_entry, keep(psychic), seen=0)
    calc = tristat_calculator(saves=tmp_path)
    calc.roster_picks[1].choose(target); calc.roster_picks[0].choose(attacker)  # either order: the target's DCV follows the attack
    assert main(["tristat-attack", "--from", attacker, *attack, "--target-from", target, "--dodge", "--saves", str(tmp_path), "--json"]) in (0, None)
    cli = json.loads(capsys.readouterr().out)
    assert str(attack_result(**calc.values).exact["lands"]) == cli["lands"]["exact"]
    if attacker == "Hotaru": assert (calc.values["acv"], calc.values["dcv"]) == (9, 9 if target == "Hotaru" else 0)  # Mind against Mind
