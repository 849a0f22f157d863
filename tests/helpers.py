"""What the tests share beyond fixtures: the project root, the source texts beside it, and locating dashboard fields."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"  # the source texts sit beside the project, never inside it


def seed_text(name: str) -> str:
    "The text of one source file, or skip the test where the sources are not beside the project."
    path = SEEDS / name
    if not path.is_file(): pytest.skip(f"the source text {name} is not beside the project ({SEEDS})")
    return path.read_text(encoding="utf-8")


def field(pg, name):
    "A calculator's input, by the parameter it feeds."
    return pg.locator(f".besm-field-{name} input").first


def assert_beside(control, message, within: int = 80):
    "A message sits beside its control: on its row or right under it, not somewhere else on the page."
    c, m = control.bounding_box(), message.bounding_box()
    assert c and m, "both must be visible"
    gap = max(m["y"] - (c["y"] + c["height"]), c["y"] - (m["y"] + m["height"]), 0)
    assert gap <= within, f"the message is {gap:.0f} px away from its control"
