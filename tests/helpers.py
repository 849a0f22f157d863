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
