"""The wing states seed 003 in its own words. The check (prose, docstrings, docments, comments and on-screen messages of
every page and module) runs for every wing in tests/test_own_words.py; here, that it reaches this wing and sees its source."""
from tests.helpers import ROOT, WING_SEEDS, code_pasted, pasted_runs, wing_files

SEED = "003_f3673ce212f5243c.txt"
PAGES = sorted((ROOT / "nbs" / "special").glob("*.ipynb"))


def test_the_wing_has_its_pages():
    names = {p.name for p in PAGES}
    assert {"index.ipynb", "60_rolls.ipynb", "61_vehicles.ipynb", "61_vehicles_ui.ipynb", "68_morale.ipynb"} <= names


def test_the_shared_check_reads_this_wing():
    assert WING_SEEDS["special"] == SEED
    files = set(wing_files("special"))
    assert set(PAGES) <= files and ROOT / "besm_nb" / "special" / "vehicles.py" in files


def test_the_check_sees_a_pasted_sentence():
    sentence = "Humans normally fly in a horizontal position (so they can see the ground)"
    assert pasted_runs(sentence, SEED)  # in prose
    assert code_pasted(f'def f():\n    "{sentence}"\n', SEED)  # in a docstring
    assert pasted_runs(f'> **Reading used here.** "{sentence}" is read as ...', SEED)  # quoted in a reading note
