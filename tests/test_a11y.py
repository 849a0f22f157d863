"""WCAG 2.2 AA, as axe-core checks it: every page type of the site (home, a chapter, a calculator page, a tracker page)
in light and dark colour schemes: no critical and no serious violation. One page load per page and scheme: the page is
audited once its calculators are live. The dashboards (home and each) are audited in tests/dashboards/test_narrow.py, on
the page opened there for every read-only check of a dashboard."""
import functools
import http.server
import threading

import pytest

from tests.a11y import audit, describe, settle, skipped_levels
from tests.helpers import ROOT

SITE = ROOT / "_site"
# a page of each type: the home page, a chapter (tables, folded proofs, maths, a live calculator), a calculator page
# and a tracker page
SITE_PAGES = {"home": "index.html", "chapter": "anime_d20/modifiers.html", "calculator": "core/dice_ui.html",
              "tracker": "tristat/round_ui.html"}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


@pytest.fixture(scope="module")
def site_url():
    if not (SITE / "index.html").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    server.daemon_threads = True
    server.handle_error = lambda *a: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.mark.browser
@pytest.mark.docs
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("kind", list(SITE_PAGES))
def test_site_page_has_no_critical_or_serious_violation(browser, site_url, kind, scheme):
    ctx = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(120_000)
    try:
        pg = ctx.new_page()
        pg.goto(f"{site_url}/{SITE_PAGES[kind]}", wait_until="load")
        if pg.evaluate("!!document.getElementById('besm-live-spec')"):  # audited live: the controls a reader uses
            pg.wait_for_function("window.besmLive && window.besmLive.state !== 'loading'", timeout=120_000)
            assert pg.evaluate("window.besmLive.state") == "live", pg.evaluate("window.besmLive.errors")
        settle(pg)
        found = audit(pg)
        assert not found["critical"] and not found["serious"], describe(found)
        assert not skipped_levels(found), skipped_levels(found)
    finally:
        ctx.close()
