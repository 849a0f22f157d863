"""The wing's pages state the rules in their own words: no run of 7 words of the source in their prose, outside quotation marks."""
import json
import re

import pytest

from tests.helpers import ROOT, seed_text

SEED = "003_f3673ce212f5243c.txt"
PAGES = sorted((ROOT / "nbs" / "special").glob("*.ipynb"))


def words(t: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", t.lower().replace("\u2019", "'"))


def test_the_wing_has_its_pages():
    names = {p.name for p in PAGES}
    assert {"index.ipynb", "60_rolls.ipynb", "61_vehicles.ipynb", "61_vehicles_ui.ipynb", "68_morale.ipynb"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_prose_is_in_our_own_words(page):
    sw = words(seed_text(SEED))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    for c in json.loads(page.read_text())["cells"]:
        if c["cell_type"] != "markdown": continue
        w = words(re.sub(r'"[^"]*"', " ", "".join(c["source"])))
        pasted = [" ".join(w[j:j + 7]) for j in range(len(w) - 6) if tuple(w[j:j + 7]) in grams]
        assert not pasted, pasted


def test_the_check_sees_a_pasted_sentence():
    sw = words(seed_text(SEED))
    grams = {tuple(sw[i:i + 7]) for i in range(len(sw) - 6)}
    pasted = words("Humans normally fly in a horizontal position (so they can see the ground)")
    assert any(tuple(pasted[j:j + 7]) in grams for j in range(len(pasted) - 6))
