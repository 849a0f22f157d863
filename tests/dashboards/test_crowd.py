"""A table of devices at once (a GM and a party), and twenty people: every session shows its first widget with no error; idle kernels are culled."""
import time

import pytest

from tests.conftest import serve_dashboards
from tests.bench import PLAYERS
from tests.dashboards.crowd import crowd, kernel_of, off_loop, states

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
    """A page closed (or left idle and unconnected) has its kernel shut down after the cull timeout; a page whose script
    has not connected yet (a slow device) keeps its kernel past that timeout, and draws from it once it connects."""
    import urllib.request
    log = tmp_path / "voila.log"
    with serve_dashboards("--MappingKernelManager.cull_idle_timeout=4", "--MappingKernelManager.cull_interval=2",
                          "--VoilaConfiguration.preheat_kernel=False", log_path=log) as (url, proc):
        page = url + "/voila/render/dice_and_checks.ipynb"
        slow = kernel_of(urllib.request.urlopen(page, timeout=120).read().decode())  # drawn, its script not yet run
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.goto(page)
        pg.locator(".besm-calculator").first.wait_for(timeout=120_000)
        closed = kernel_of(pg.content())
        ctx.close()  # the tablet went to sleep: the connection is gone, nobody shut the kernel down
        culled, kept = f"Culling 'idle' kernel 'python3' ({closed})", f"Kernel {slow} kept"
        text, deadline = "", time.time() + 60
        while time.time() < deadline:
            text = log.read_text()
            if culled in text and kept in text.split(culled, 1)[1]: break  # spared again after the other was culled
            time.sleep(0.2)  # looked at again until the server says so
        assert culled in text and kept in text.split(culled, 1)[1], text[-2000:]
        assert f"({slow})" not in text, text[-2000:]
        assert off_loop(lambda: states(url, slow, time.perf_counter(), 60)) < 60  # the slow device's script runs at last: its widgets are there
