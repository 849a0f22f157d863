"""A pip user's route to the dashboards: build the wheel, install it with the dashboards extra in a fresh virtual
environment outside the project, start `besm-dashboards` with no folder named, open the home page and a tracker in
Chromium, save by name, and find the save in the per-user folder the server named on start.

Slow (it installs the Jupyter stack into a new environment: minutes): `pytest -m wheel` selects it, `-m "not wheel"`
leaves it out. It starts a Voila server, so run it under the browser lock like the dashboards' tests."""
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.dashboards.crowd import _children, settle, tree_rss_mb
from tests.helpers import ROOT

pytestmark = [pytest.mark.wheel, pytest.mark.browser]


def project_files() -> list[str]:
    "The project's files as a clone has them (tracked, plus new ones not ignored): what a wheel is built from."
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def sh(*cmd, **kw) -> str:
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


@pytest.mark.timeout(1800)
def test_a_pip_user_serves_the_installed_dashboards_and_saves_in_their_own_folder(browser):
    work = Path(tempfile.mkdtemp(prefix="besm-wheel-"))  # outside the project: nothing of the clone is in reach
    assert ROOT not in work.parents
    proc = None
    try:
        # the wheel, built from a copy of the project's files
        src = work / "src"
        for f in project_files():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, src / f)
        sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", work / "dist", ".", cwd=src)
        wheel = next((work / "dist").glob("besm_nb-*.whl"))
        names = set(zipfile.ZipFile(wheel).namelist())
        shipped = {f"besm_nb/dashboards/{p.name}" for p in (ROOT / "nbs" / "dashboards").glob("*.ipynb")} | {"besm_nb/dashboards/voila.json"}
        assert shipped <= names, sorted(shipped - names)
        assert "besm_nb/cli.py" in names and not any(n.startswith(("nbs/", "tests/")) for n in names)

        # a fresh environment with the dashboards extra
        venv = work / "venv"
        sh(sys.executable, "-m", "venv", venv)
        bin_ = venv / "bin"
        sh(bin_ / "python", "-m", "pip", "install", "-q", f"{wheel}[dashboards]", cwd=work)
        where = sh(bin_ / "python", "-c", "import besm_nb; print(besm_nb.__file__)", cwd=work).strip()
        assert Path(where).is_relative_to(venv), where  # the installed package, not the project
        assert sh(bin_ / "besm-nb", "roll", "4d6kh3", "--seed", "7", cwd=work).strip() == "seed 7: 4d6kh3 → 3+4+6 (dropped 2) = 13"

        # the server, with no folder named and no saves folder set: it names the per-user one
        data = work / "data"
        env = {k: v for k, v in os.environ.items() if k != "BESM_NB_SAVES"} | {"XDG_DATA_HOME": str(data)}
        port = free_port()
        proc = subprocess.Popen([str(bin_ / "besm-dashboards"), "--port", str(port), "--KernelManager.transport=ipc"], cwd=work,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        def read():
            for line in proc.stdout: lines.append(line)
        threading.Thread(target=read, daemon=True).start()
        url = f"http://127.0.0.1:{port}"
        deadline = time.time() + 180
        while True:  # up once `/` answers with its redirect to the home page (no page rendered, no kernel used)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10); conn.request("GET", "/")
                if conn.getresponse().status == 302: break
            except OSError:
                assert proc.poll() is None and time.time() < deadline, "the server did not start:\n" + "".join(lines[-40:])
                time.sleep(0.5)
        # a lean server: right after its start it preheats only the home page (a first start: no page opened before),
        # and it and its kernels hold at most 600 MB (two dozen kernels, one pair per dashboard, held about 2 GB)
        settle(proc.pid)
        assert len(_children().get(proc.pid, [])) <= 2, _children().get(proc.pid)
        assert tree_rss_mb(proc.pid) <= 600, tree_rss_mb(proc.pid)
        urllib.request.urlopen(url + "/voila/render/index.ipynb", timeout=120).read()
        saves = data / "besm_nb" / "saves"
        said = [l for l in lines if "tracker saves go to" in l]
        assert said and str(saves) in said[0], lines[:5]
        assert any(str(Path(where).parent / "dashboards") in l for l in lines if "serving the dashboards in" in l), lines[:5]

        page = browser.new_context().new_page()
        page.goto(url + "/", timeout=180_000)
        page.get_by_role("heading", name="besm_nb dashboards").wait_for(timeout=120_000)
        assert page.get_by_role("link", name="Dice and checks").count() == 1
        page.goto(url + "/voila/render/tristat_combat.ipynb", timeout=180_000)
        tracker = page.locator(".besm-tracker").first
        tracker.wait_for(timeout=180_000)
        tracker.locator(".besm-save-name input").first.fill("pip user")
        tracker.locator("button.besm-save").click()
        tracker.locator(".besm-save-message", has_text="Saved as 'pip user'").first.wait_for(timeout=60_000)
        saved = json.loads((saves / "pip user.json").read_text(encoding="utf-8"))
        assert (saved["format"], saved["kind"]) == ("besm_nb", "tristat-fight")
        assert not (Path(where).parent / "dashboards" / "saves").exists()  # nothing written into the package
        # the pages opened, newest first, kept for the next start's preheating
        assert (saves / ".besm-pages-opened").read_text().split() == ["tristat_combat.ipynb", "index.ipynb"]
        page.context.close()
    finally:
        if proc is not None:
            proc.terminate()
            try: proc.wait(20)
            except subprocess.TimeoutExpired: proc.kill()
        shutil.rmtree(work, ignore_errors=True)
