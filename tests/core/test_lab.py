"""The kit in JupyterLab (`make lab`): at 1366 px with the file browser open (JupyterLab's default), the Tri-Stat tracker of
nbs/tristat/11_round_ui.ipynb (its cells run down to the one showing it, after the source's round) fits its notebook's column and a click at the centre of each of its buttons, fields and toggles (the
play screen's targets, modifiers and answers, one tap each) lands on it. The widget rules of the dashboards and the site
(WIDGET_CSS) reach JupyterLab through the kit (`besm_nb.ui.calc.lab_style`)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.helpers import ROOT

pytestmark = pytest.mark.browser

SHOWN_BY = "9e016e57"  # the notebook's cell that shows the tracker, after the source's round played through its buttons

# what a GM clicks or types in: the buttons, the fields, and the tick boxes and choices drawn as toggles (their label is what is tapped)
CONTROLS = ("button, select, input[type=text], input[type=number], textarea, .besm-chips .widget-checkbox label, "
            ".besm-segmented .widget-radio-box label")

MEASURE = """(sel) => {
  const t = document.querySelector('.jp-NotebookPanel .besm-tracker'), nb = t.closest('.jp-NotebookPanel-notebook');
  const col = nb.getBoundingClientRect(), buttons = [...t.querySelectorAll(sel)].filter(b => b.offsetParent);
  const name = b => b.innerText.trim() || b.title || b.className;
  return {tracker: Math.round(t.getBoundingClientRect().width), column: nb.clientWidth, overflow: nb.scrollWidth - nb.clientWidth,
          past: buttons.filter(b => b.getBoundingClientRect().right > col.left + nb.clientWidth + 1).map(name),
          cut: buttons.filter(b => b.scrollWidth > b.clientWidth + 1).map(name), controls: buttons.length,
          toggles: buttons.filter(b => b.matches('label')).length, fields: buttons.filter(b => !b.matches('button, label')).length,
          styles: document.querySelectorAll('style.besm-lab-style').length};
}"""

CLICKABLE = """(sel) => {
  const missed = [];
  for (const b of [...document.querySelector('.jp-NotebookPanel .besm-tracker').querySelectorAll(sel)].filter(b => b.offsetParent)) {
    b.scrollIntoView({block: 'center', inline: 'nearest'});
    const r = b.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === b || b.contains(hit)) || r.right > window.innerWidth) missed.push(b.innerText.trim() || b.className);
  }
  return missed;
}"""


def lab_tracker(browser, style: bool = True) -> tuple[dict, list]:
    "Open a copy of the Tri-Stat tracker's notebook in a fresh JupyterLab (a server of its own: JupyterLab is what is checked), run it, and measure its tracker (and click each button), in the session's browser."
    home = Path(tempfile.mkdtemp(prefix="besm-lab-"))
    (home / "work").mkdir()
    shutil.copy(ROOT / "nbs" / "tristat" / "11_round_ui.ipynb", home / "work" / "round_ui.ipynb")  # autosave never touches nbs/
    cells = json.loads((home / "work" / "round_ui.ipynb").read_text())["cells"]
    shown_at = next((i for i, c in enumerate(cells) if c.get("id") == SHOWN_BY), None)
    assert shown_at is not None, f"the cell {SHOWN_BY} that shows the tracker is no longer in the notebook: name the one that does"
    env = os.environ | {k: str(home / v) for k, v in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTERLAB_WORKSPACES_DIR", "ws"),
                                                       ("JUPYTERLAB_SETTINGS_DIR", "settings"), ("JUPYTER_RUNTIME_DIR", "rt"))}
    if not style: env["BESM_NB_LAB_STYLE"] = "off"
    (home / "config" / "labconfig").mkdir(parents=True)  # no question about JupyterLab's news over the notebook
    (home / "config" / "labconfig" / "page_config.json").write_text('{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}')
    port = free_port()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "jupyter"), "lab", "--no-browser", f"--port={port}", "--ServerApp.token=",
                             "--ServerApp.password=", f"--ServerApp.root_dir={home / 'work'}", "--LabApp.expose_app_in_browser=True",
                             "--allow-root"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.time() + 300
        while time.time() < deadline:  # up once it answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/lab", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        ctx = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            pg = ctx.new_page()
            pg.goto(f"http://127.0.0.1:{port}/lab/tree/round_ui.ipynb")
            pg.wait_for_function("window.jupyterapp && document.querySelector('.jp-NotebookPanel')", timeout=120_000)
            # which kernel: JupyterLab either asks (Python 3, offered first, is accepted) or starts one by itself
            pg.wait_for_function("""() => document.querySelector('.jp-Dialog .jp-mod-accept')
                || window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel""", timeout=120_000)
            if pg.locator(".jp-Dialog .jp-mod-accept").count(): pg.locator(".jp-Dialog .jp-mod-accept").click()
            assert pg.locator(".jp-FileBrowser").first.is_visible()  # the file browser open, as JupyterLab starts
            # the cells down to the one showing the tracker, as a GM opening it does (not awaited: it waits for every cell). Not
            # run-all: in about one run in three, JupyterLab's widget manager stops taking the kernel's messages during the last
            # proofs ("widget model not found"), with the kernel idle and every cell run, and the notebook shows busy for ever
            pg.evaluate("""k => { const nb = window.jupyterapp.shell.currentWidget.content; nb.activeCellIndex = k + 1;
                                  window.jupyterapp.commands.execute('notebook:run-all-above'); }""", shown_at)
            pg.locator(".jp-NotebookPanel .besm-tracker").first.wait_for(timeout=300_000)
            pg.wait_for_function("document.querySelector('.jp-Notebook-ExecutionIndicator[data-status=\"idle\"]')", timeout=300_000)
            measured = pg.evaluate(MEASURE, CONTROLS)
            missed = pg.evaluate(CLICKABLE, CONTROLS)
        finally: ctx.close()
        return measured, missed
    finally:
        proc.terminate()
        try: proc.wait(20)
        except subprocess.TimeoutExpired: proc.kill()
        shutil.rmtree(home, ignore_errors=True)


def test_the_tristat_tracker_fits_its_column_in_jupyterlab(browser):
    measured, missed = lab_tracker(browser)
    assert measured["styles"] >= 1  # the kit's rules, shown before the tracker
    assert measured["tracker"] <= measured["column"] and measured["overflow"] <= 0, measured
    assert measured["past"] == [] and measured["cut"] == [], measured
    assert missed == [] and measured["controls"] >= 10 and measured["fields"] >= 1, (missed, measured)
