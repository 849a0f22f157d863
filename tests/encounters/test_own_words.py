"""The Encounters pages state the source's rules in our own words: no run of seven words from seed 004 outside quotation marks."""
import json
import re

import pytest

from tests.helpers import ROOT, seed_text

SEED_NAME = "004_f60d15258c3531be.txt"
PAGES = sorted((ROOT / "nbs" / "encounters").glob("*.ipynb"))


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


def test_every_page_is_checked():
    assert len(PAGES) >= 10 and {p.name for p in PAGES} >= {"index.ipynb", "70_actions.ipynb", "74_planner_ui.ipynb"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_seven_words_pasted_from_the_source(page):
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
    pasted = words("Conflict is handled by dividing time and space into discrete units.")
    assert any(tuple(pasted[j:j + 7]) in grams for j in range(len(pasted) - 6))
