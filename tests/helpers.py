"""What the tests share beyond fixtures: the project root, the source texts beside it, and locating dashboard fields."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"  # the source texts sit beside the project, never inside it


def seed_text(name: str) -> str:
    "The text of one source file, or skip the test where the sources are not beside the project."
    path = SEEDS / name
    if not path.is_file(): pytest.skip(f"the source text {name} is not beside the project ({SEEDS})")
    return path.read_text(encoding="utf-8")


def words(text: str) -> list[str]:
    "The words of a text, lower case, curly apostrophes straightened."
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


def pasted_runs(text: str, seed: str, run: int = 7) -> list[str]:
    "Every run of `run` words of `text` (outside quotation marks) that also stands in the source `seed`."
    sw = words(seed_text(seed))
    grams = {tuple(sw[i:i + run]) for i in range(len(sw) - run + 1)}
    w = words(re.sub(r'"[^"]*"', " ", text))
    return [" ".join(w[j:j + run]) for j in range(len(w) - run + 1) if tuple(w[j:j + run]) in grams]


def prose_pasted(page: Path, seed: str) -> list[str]:
    "The runs of a notebook's prose (its markdown cells) pasted from the source."
    import json
    return [r for c in json.loads(page.read_text())["cells"] if c["cell_type"] == "markdown"
            for r in pasted_runs("".join(c["source"]), seed)]


def field(pg, name):
    "A calculator's input, by the parameter it feeds."
    return pg.locator(f".besm-field-{name} input").first


def assert_beside(control, message, within: int = 80):
    "A message sits beside its control: on its row or right under it, not somewhere else on the page."
    c, m = control.bounding_box(), message.bounding_box()
    assert c and m, "both must be visible"
    gap = max(m["y"] - (c["y"] + c["height"]), c["y"] - (m["y"] + m["height"]), 0)
    assert gap <= within, f"the message is {gap:.0f} px away from its control"
