"""The character-option pages (chapters 40–45 and their calculator pages) state the rules in our own words."""
import pytest

from tests.helpers import ROOT, pasted_runs, prose_pasted

SEED_NAME = "000_f9e715c2d04899ab.txt"
PAGES = sorted((ROOT / "nbs" / "besm_d20").glob("4[0-5]_*.ipynb"))


def test_every_chapter_and_calculator_page_is_here():
    names = {p.stem for p in PAGES}
    for stem in ("40_damage_saves", "41_fate_points", "42_hit_locations", "43_school", "44_epic", "45_classless"):
        assert stem in names and f"{stem}_ui" in names, stem


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_no_run_of_seven_words_from_the_source(page):
    """No run of 7 words of the seed in the page's prose, outside quotation marks (table and section titles are code)."""
    assert prose_pasted(page, SEED_NAME) == []


def test_the_check_catches_a_pasted_sentence():
    assert pasted_runs("Any critical hit does not double damage as usual but instead grants a +5 Damage Bonus.", SEED_NAME)  # the check sees a pasted sentence
