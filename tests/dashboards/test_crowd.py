"""A table of devices at once (a GM and a party), and twenty people: every session shows its first widget with no error; idle kernels are culled."""
import time

import pytest

from tests.conftest import serve_dashboards
from tests.bench import PLAYERS
from tests.dashboards.crowd import crowd, kernel_of, off_loop, states, until

pytestmark = pytest.mark.browser


@pytest.mark.timeout(600)
def test_twenty_sessions_at_once(browser, dashboards_server):
    url, proc = dashboards_server
    result = crowd(browser, url, proc.pid, sessions=20, timeout_s=300)
    assert result.errors == [], result.errors
    assert len(result.loads) == 20
    print(f"20 sessions: p50 {result.p50:.1f} s, p95 {result.p95:.1f} s, server and kernels {result.rss_mb:.0f} MB")


@pytest.mark.timeout(600)
def test_a_table_at_once(browser, dashboards_server):
    "A GM's tracker and seven players' views opened together: every page shows, with no error (their times are in make bench)."
    url, proc = dashboards_server
    table = ["/voila/render/tristat_combat.ipynb"] + [PLAYERS] * 7  # the players' view the tracker links to
    result = crowd(browser, url, proc.pid, sessions=8, path=table, timeout_s=300)
    assert result.errors == [] and len(result.loads) == 8, result.errors
    print(f"8 pages (load {result.load:.1f}): p50 {result.p50:.1f} s, p95 {result.p95:.1f} s, one kernel {result.kernel_mb:.0f} MB")


@pytest.mark.timeout(300)
def test_idle_kernels_are_culled_and_a_page_still_loading_keeps_its_kernel(browser, tmp_path):
    """A page closed has its kernel shut down after the cull timeout; a page whose script has not connected yet (a slow
    device) keeps its kernel past that timeout, and draws from it once it connects, even when the kernel it was given
    is a spare preheated before the grace began (a page's own new kernel gets the same grace: the notebook's proof)."""
    import re, urllib.request
    from besm_nb.ui.serve import OPENED_FILE
    log, saves, grace = tmp_path / "voila.log", tmp_path / "saves", 8
    saves.mkdir()
    (saves / OPENED_FILE).write_text("dice_and_checks.ipynb\n")  # its spare is preheated from the start
    with serve_dashboards("--MappingKernelManager.cull_idle_timeout=4", "--MappingKernelManager.cull_interval=2",
                          f"--PatientKernelManager.page_grace={grace}", log_path=log, env={"BESM_NB_SAVES": str(saves)}) as (url, proc):
        page = url + "/voila/render/dice_and_checks.ipynb"
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.goto(page)
        pg.locator(".besm-calculator").first.wait_for(timeout=120_000)
        closed = kernel_of(pg.content())
        ctx.close()  # the tablet went to sleep: the connection is gone, nobody shut the kernel down
        culled, filled = f"Culling 'idle' kernel 'python3' ({closed})", "Kernel pool of dice_and_checks.ipynb is filled"
        refilled = until(lambda: log.read_text().count(filled) >= 2 and time.time(), 120)  # the spare the next page takes
        until(lambda: culled in log.read_text(), 60)
        until(lambda: time.time() > refilled + grace, grace + 1)  # that spare is older than the grace, and long idle
        slow = kernel_of(urllib.request.urlopen(page, timeout=120).read().decode())  # drawn, its script not yet run
        assert until(lambda: f"Using pre-heated kernel: {slow}" in log.read_text(), 10)  # the spare, not a kernel of its own
        kept = f"Kernel {slow} kept"
        def told():  # spared in two cull rounds (past the timeout), or culled
            text = log.read_text()
            return text if text.count(kept) >= 2 or f"({slow})" in text else ""
        text = until(told, 60)
        assert text.count(kept) >= 2 and f"({slow})" not in text, log.read_text()[-2000:]
        assert off_loop(lambda: states(url, slow, time.perf_counter(), 60)) < 60  # the slow device's script runs at last: its widgets are there
