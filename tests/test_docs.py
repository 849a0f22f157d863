"""The rules-reference site (built by `make docs` into _site/): complete, offline, searchable."""
import functools
import http.server
import re
import threading
from pathlib import Path

import pytest

SITE = Path(__file__).resolve().parents[1] / "_site"
PAGES = ["index", "dice", "dice_ui", "checks", "checks_ui", "render", "calculators", "serve", "store", "tristat_combat", "tristat_combat_ui", "tristat_round", "tristat_round_ui", "d20_checks", "d20_checks_ui", "d20_combat", "d20_combat_ui", "d20_situations", "d20_modifiers", "d20_damage", "d20_damage_ui", "d20_mind", "d20_mind_ui", "chase", "chase_odds", "chase_ui"]
pytestmark = pytest.mark.docs


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    return SITE


def test_every_chapter_has_a_page(site):
    for page in PAGES:
        assert (site / f"{page}.html").exists(), page
    assert (site / "searchindex.js").exists()


def test_pages_load_nothing_from_outside(site):
    remote = re.compile(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(?:https?:)?//', re.I)
    for html in site.glob("*.html"):
        assert not remote.search(html.read_text()), f"{html.name} loads a remote resource"
    for css in (site / "_static").rglob("*.css"):
        assert not re.search(r"(?:@import|url\()\s*['\"]?(?:https?:)?//", css.read_text(errors="ignore")), css


def test_rules_content_is_on_the_pages(site):
    checks = (site / "checks.html").read_text()
    for text in ["Reading used here", "Overwhelming Failure", "Marginal Success", "tristat_check_odds", "Ami"]:
        assert text in checks, text
    assert "widget-state+json" in (site / "dice_ui.html").read_text()  # calculators are shown as snapshots


@pytest.fixture
def offline_page(browser):
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.outside = []
    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:", "http://127.0.0.1")):
            return r.continue_()
        pg.outside.append(url)
        return r.abort()
    pg.route("**/*", route)
    yield pg
    ctx.close()


def test_math_and_widgets_render_from_disk_with_no_network(site, offline_page):
    offline_page.goto((site / "dice.html").as_uri())
    offline_page.locator("mjx-container").first.wait_for(timeout=20_000)  # MathJax, vendored
    offline_page.goto((site / "dice_ui.html").as_uri())
    offline_page.locator(".widget-html").first.wait_for(timeout=20_000)  # the widget manager, vendored
    assert "3d6: 3 to 18" in offline_page.locator("body").inner_text()
    assert offline_page.outside == [], offline_page.outside


def test_search_finds_rules(site, offline_page):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        offline_page.goto(f"http://127.0.0.1:{server.server_port}/search.html?q=roll-under")
        offline_page.locator("#search-results a", has_text="Checks").first.wait_for(timeout=20_000)
        offline_page.goto(f"http://127.0.0.1:{server.server_port}/search.html?q=Overwhelming")
        offline_page.locator("#search-results a", has_text="Checks").first.wait_for(timeout=20_000)
    finally:
        server.shutdown()
    assert offline_page.outside == [], offline_page.outside


def test_quarto_config_is_valid_and_lists_every_notebook():
    "nbs/_quarto.yml stays usable for nbdev_docs where Quarto exists; the sidebar (also the site's order) misses no chapter."
    import yaml
    nbs = Path(__file__).resolve().parents[1] / "nbs"
    quarto = yaml.safe_load((nbs / "_quarto.yml").read_text())
    assert quarto["project"]["type"] == "website" and "sidebar.yml" in quarto["metadata-files"]
    assert yaml.safe_load((nbs / "nbdev.yml").read_text())["project"]["output-dir"] == "_docs"
    listed = yaml.safe_load((nbs / "sidebar.yml").read_text())["website"]["sidebar"]["contents"]
    assert sorted(listed) == sorted(p.name for p in nbs.glob("*.ipynb"))
