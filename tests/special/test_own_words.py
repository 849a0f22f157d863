"""The wing's pages state the rules in their own words: no run of 7 words of the source in their prose, outside quotation marks."""
import pytest

from tests.helpers import ROOT, pasted_runs, prose_pasted

SEED = "003_f3673ce212f5243c.txt"
PAGES = sorted((ROOT / "nbs" / "special").glob("*.ipynb"))


def test_the_wing_has_its_pages():
    names = {p.name for p in PAGES}
    assert {"index.ipynb", "60_rolls.ipynb", "61_vehicles.ipynb", "61_vehicles_ui.ipynb", "68_morale.ipynb"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_prose_is_in_our_own_words(page):
    assert prose_pasted(page, SEED) == []


def test_the_check_sees_a_pasted_sentence():
    assert pasted_runs("Humans normally fly in a horizontal position (so they can see the ground)", SEED)  # the check sees a pasted sentence
