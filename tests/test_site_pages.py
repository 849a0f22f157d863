"""Every page of the built site (`make docs` into _site/) opens in a browser with no console error and no page error:
its snapshots drawn by the widget manager, its live calculators started, nothing asked of another machine. The tracker
pages are checked so on their first visit in test_site_trackers, which plays them: the walk leaves them out."""
import functools
import http.server
import re
import threading
import time

import pytest

from tests.helpers import ROOT

SITE = ROOT / "_site"
pytestmark = [pytest.mark.docs, pytest.mark.browser]


def pages() -> list[str]:
    "Every HTML page of the site, by its path under _site/."
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.html") if "_static" not in p.parts) if SITE.is_dir() else []


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


class StaticServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address): pass  # a browser dropping a connection is not news


@pytest.fixture(scope="module")
def site_url():
    if not (SITE / "index.html").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    server = StaticServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def visitor(browser):
    "One reader's tab for the whole walk (the live calculators' Python is cached after the first page, as for a reader)."
    ctx = browser.new_context()
    ctx.set_default_timeout(90_000)
    pg = ctx.new_page()
    pg.problems = []
    def route(r):
        if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:")): return r.continue_()
        pg.problems.append(f"asked another machine for {r.request.url}")
        return r.abort()
    ctx.route("**/*", route)
    pg.on("console", lambda m: pg.problems.append(f"console {m.type}: {m.text[:300]}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: pg.problems.append(f"page error: {str(e)[:300]}"))
    yield pg
    ctx.close()


# what a page with widgets shows once the widget manager has drawn them: every view it holds, rendered
DRAWN = """() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')]
    .every((s) => s.closest('.cell_output')?.querySelector('.jupyter-widgets, .widget-html, .besm-live'))"""


# what a page starts after its load event: MathJax typesets (and fetches its fonts) once the page has loaded
TYPESET = """async () => { if (window.MathJax?.startup?.promise) await window.MathJax.startup.promise; await document.fonts.ready; }"""


def visit(pg, url: str, page: str) -> list[str]:
    "Open one page, wait until its widgets are drawn and its live calculators have started (or failed); what went wrong."
    pg.problems.clear()
    pg.goto(url, wait_until="load")
    html = (SITE / page).read_text()
    if "application/vnd.jupyter.widget-view+json" in html:
        try: pg.wait_for_function(DRAWN, timeout=30_000)
        except Exception: pg.problems.append("its widget snapshots were not drawn within 30 s")
    if 'id="besm-live-spec"' in html:
        pg.wait_for_function("window.besmLive && window.besmLive.state !== 'loading'", timeout=120_000)
        live = pg.evaluate("window.besmLive")
        if live["state"] != "live": pg.problems.append(f"its calculators did not go live: {live['errors']}")
    pg.evaluate(TYPESET)  # its formulas typeset and their fonts loaded: a font it cannot get is an error too
    return list(pg.problems)


def test_the_walk_sees_the_whole_site():
    from tests.test_site_trackers import TRACKERS
    found = pages()
    assert len(found) >= 60 and {"index.html", "search.html", "tristat/round_ui.html", "besm_d20/units_ui.html"} <= set(found), found
    assert set(TRACKERS) <= set(found) and len(walked()) == len(found) - len(TRACKERS)  # the tracker pages' first visits are walked there


@pytest.mark.timeout(900)  # some 80 pages, half of them starting Python: a few minutes on a busy 2-core machine
def walked() -> list[str]:
    "The pages the walk opens: all but the tracker pages, whose first visit in test_site_trackers makes the same check."
    from tests.test_site_trackers import TRACKERS
    return [p for p in pages() if p not in TRACKERS]


def test_every_page_opens_with_no_console_error(site_url, visitor):
    "Each page in turn, in one tab; all failures are reported together, page by page."
    failed, t0 = {}, time.time()
    for page in walked():
        problems = visit(visitor, f"{site_url}/{page}", page)
        if problems: failed[page] = sorted(set(problems), key=problems.index)[:5] + ([f"... {len(problems)} in all"] if len(problems) > 5 else [])
    assert not failed, "\n".join(f"{p}:\n  " + "\n  ".join(v) for p, v in failed.items())
    print(f"{len(walked())} pages in {time.time() - t0:.0f} s")


def test_the_walk_catches_a_page_that_errs(site_url, visitor):
    "The check is not vacuous: a page whose script fails, or that logs an error, is caught."
    bad = "<!doctype html><title>bad</title><script>console.error('broken on purpose'); null.x = 1;</script>"
    # on the context, which also sees what the site's service worker (registered by the walk) asks for
    visitor.context.route(re.compile(r".*/__broken__\.html$"), lambda r: r.fulfill(status=200, content_type="text/html", body=bad))
    try:
        visitor.problems.clear()
        with visitor.expect_event("pageerror"):  # the script's second line: its first, the console error, came before
            visitor.goto(f"{site_url}/__broken__.html", wait_until="load")
        assert any("broken on purpose" in p for p in visitor.problems) and any(p.startswith("page error") for p in visitor.problems), visitor.problems
    finally:
        visitor.context.unroute(re.compile(r".*/__broken__\.html$"))
