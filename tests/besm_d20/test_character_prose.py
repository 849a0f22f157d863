"""The character-option pages (chapters 40–45 and their calculator pages) state the rules in our own words."""
import json
import re

import pytest

from tests.helpers import ROOT, seed_text

SEED_NAME = "000_f9e715c2d04899ab.txt"
PAGES = sorted((ROOT / "nbs" / "besm_d20").glob("4[0-5]_*.ipynb"))


def words(t: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", t.lower().replace("\u2019", "'"))


def test_every_chapter_and_calculator_page_is_here():
    names = {p.stem for p in PAGES}
    for stem in ("40_damage_saves", "41_fate_points", "42_hit_locations", "43_school", "44_epic", "45_classless"):
        assert stem in names and f"{stem}_ui" in names, stem


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_no_run_of_seven_words_from_the_source(page):
    """No run of 7 words of the seed in the page's prose, outside quotation marks (table and section titles are code)."""
    sw = words(seed_text(SEED_NAME))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    for c in json.loads(page.read_text())["cells"]:
        if c["cell_type"] != "markdown": continue
        w = words(re.sub(r'"[^"]*"', " ", "".join(c["source"])))
        pasted = [" ".join(w[j:j + 7]) for j in range(len(w) - 6) if tuple(w[j:j + 7]) in grams]
        assert not pasted, pasted


def test_the_check_catches_a_pasted_sentence():
    sw = words(seed_text(SEED_NAME))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    w = words("Any critical hit does not double damage as usual but instead grants a +5 Damage Bonus.")
    assert any(tuple(w[j:j + 7]) in grams for j in range(len(w) - 6))
