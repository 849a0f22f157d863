"""Notebooks are committed without outputs: a contributor's saved notebook (its widget views reopen as "model not found")
is cleaned by `nbdev_clean` (so by `make export`), and the sync check fails on it until the cleaned copy is committed."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBDEV_CLEAN = Path(sys.executable).parent / "nbdev_clean"


def saved_in_lab() -> dict:
    "A notebook as JupyterLab saves it after a calculator was shown: outputs, counts, a widget view, the cell's own metadata."
    nb = json.loads((ROOT / "nbs" / "core" / "00_dice_ui.ipynb").read_text())
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
    cell["execution_count"] = 7
    cell["metadata"] = {"scrolled": True, "tags": []}
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["hello\n"]},
                       {"output_type": "display_data", "metadata": {},
                        "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "3f2a", "version_major": 2, "version_minor": 0},
                                 "text/plain": ["VBox(children=(...))"]}}]
    return nb


def test_nbdev_clean_removes_what_a_saved_notebook_keeps(tmp_path):
    path = tmp_path / "saved.ipynb"
    path.write_text(json.dumps(saved_in_lab()))
    subprocess.run([str(NBDEV_CLEAN), "--fname", str(path)], cwd=ROOT, check=True, capture_output=True, timeout=120)  # the project's settings
    cells = json.loads(path.read_text())["cells"]
    assert [c.get("outputs") for c in cells if c["cell_type"] == "code" and c.get("outputs")] == []
    assert {c.get("execution_count") for c in cells if c["cell_type"] == "code"} == {None}
    assert [c["metadata"] for c in cells if c["metadata"]] == []


def test_every_committed_notebook_is_clean():
    "What the site and the dashboards run is the source, never a saved output (the site executes each page itself)."
    for nb_path in sorted((ROOT / "nbs").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb_path.parts: continue
        nb = json.loads(nb_path.read_text())
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert not any(c.get("outputs") for c in code), f"{nb_path}: outputs saved (run make export)"
        assert not any(c.get("execution_count") for c in code), f"{nb_path}: execution counts saved (run make export)"
        assert "widgets" not in nb.get("metadata", {}), f"{nb_path}: widget state saved"


def heading_jumps(cells: list) -> list[str]:
    "Markdown headings that go down more than one level at once (H1 to H3): the site build refuses them, after minutes."
    out, last = [], 0
    for c in cells:
        if c["cell_type"] != "markdown": continue
        fenced = False
        for line in "".join(c["source"]).splitlines():
            if line.startswith("```"): fenced = not fenced
            level = len(line) - len(line.lstrip("#")) if not fenced and line.startswith("#") and line.lstrip("#").startswith(" ") else 0
            if level:
                if last and level > last + 1: out.append(f"H{last} to H{level}: {line[:60]}")
                last = level
    return out


def test_headings_go_down_one_level_at_a_time():
    assert heading_jumps([{"cell_type": "markdown", "source": ["# Title\n", "### Too deep"]}]) == ["H1 to H3: ### Too deep"]
    assert heading_jumps([{"cell_type": "markdown", "source": ["# Title\n", "```\n", "### in a fence\n", "```"]}]) == []
    found = {str(p.relative_to(ROOT)): j for p in sorted((ROOT / "nbs").rglob("*.ipynb"))
             if ".ipynb_checkpoints" not in str(p) and (j := heading_jumps(json.loads(p.read_text())["cells"]))}
    assert found == {}, found
