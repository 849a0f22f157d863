"""The Encounters pages state the source's rules in our own words: no run of seven words from seed 004 outside quotation marks."""
import pytest

from tests.helpers import ROOT, pasted_runs, prose_pasted

SEED_NAME = "004_f60d15258c3531be.txt"
PAGES = sorted((ROOT / "nbs" / "encounters").glob("*.ipynb"))


def test_every_page_is_checked():
    assert len(PAGES) >= 10 and {p.name for p in PAGES} >= {"index.ipynb", "70_actions.ipynb", "74_planner_ui.ipynb"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_seven_words_pasted_from_the_source(page):
    assert prose_pasted(page, SEED_NAME) == []


def test_the_check_catches_a_pasted_sentence():
    assert pasted_runs("Conflict is handled by dividing time and space into discrete units.", SEED_NAME)  # the check sees a pasted sentence
