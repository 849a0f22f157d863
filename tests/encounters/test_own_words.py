"""The Encounters wing states seed 004 in its own words. The check itself (prose, docstrings, docments, comments and
on-screen messages of every page and module) runs for every wing in tests/test_own_words.py; here, that it reaches this
wing's pages and modules, and the docstrings and the message that once held copied runs."""
from besm_nb.encounters.actions import divide_skills, divided_skill, multi_round_action_fails, recovers
from besm_nb.encounters.planner import plan_round
from tests.helpers import ROOT, WING_SEEDS, pasted_runs, wing_files

SEED_NAME = "004_f60d15258c3531be.txt"
PAGES = sorted((ROOT / "nbs" / "encounters").glob("*.ipynb"))


def test_every_page_and_module_is_checked():
    assert WING_SEEDS["encounters"] == SEED_NAME
    assert len(PAGES) >= 10 and {p.name for p in PAGES} >= {"index.ipynb", "70_actions.ipynb", "74_planner_ui.ipynb"}
    files = {p.relative_to(ROOT).as_posix() for p in wing_files("encounters")}
    assert {p.relative_to(ROOT).as_posix() for p in PAGES} <= files
    assert {"besm_nb/encounters/actions.py", "besm_nb/encounters/exertion.py", "besm_nb/ui/encounters/exertion.py",
            "besm_nb/ui/encounters/planner.py"} <= files


def test_the_docstrings_that_held_copied_runs_are_our_own():
    for fn in (divided_skill, divide_skills, multi_round_action_fails, recovers):
        assert pasted_runs(fn.__doc__, SEED_NAME) == [], fn.__name__


def test_the_message_on_mixing_dex_and_int_is_our_own():
    (message,) = plan_round(4, 4, attacks=1, casts=1).problems
    assert message.startswith("Dex (attacks) and Int (sorcery) in one round")
    assert pasted_runs(message, SEED_NAME) == []


def test_the_check_catches_a_pasted_sentence():
    assert pasted_runs("Conflict is handled by dividing time and space into discrete units.", SEED_NAME)
