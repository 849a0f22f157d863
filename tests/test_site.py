"""The rules-reference site (built by `make docs` into _site/): complete, offline, searchable, read by players first."""
import functools
import http.server
import json
import re
import threading

import pytest
import yaml

from tests.helpers import ROOT

SITE = ROOT / "_site"
NBS = ROOT / "nbs"
pytestmark = pytest.mark.docs


def sidebar() -> list:
    return yaml.safe_load((NBS / "sidebar.yml").read_text())["website"]["sidebar"]["contents"]


def listed() -> list[str]:
    return [n for item in sidebar() for n in ([item] if isinstance(item, str) else item["contents"])]


def page(nb: str) -> str:
    "The site page of a notebook: its folder and its name without the number."
    parts = nb.removesuffix(".ipynb").split("/")
    return "/".join(parts[:-1] + [re.sub(r"^\d+_", "", parts[-1])])


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    return SITE


@pytest.fixture(scope="module")
def served(site):
    "The site over a static http server on 127.0.0.1 (search needs http, not file:)."
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_every_notebook_has_a_page_in_its_wing(site):
    for nb in listed():
        assert (site / f"{page(nb)}.html").exists(), nb
    for p in ["tristat/combat", "tristat/round_ui", "anime_d20/modifiers", "besm_d20/chase", "core/dice", "api", "start"]:
        assert (site / f"{p}.html").exists(), p
    assert (site / "searchindex.js").exists()


def test_navigation_is_home_start_systems_core_contributors(site):
    "The sidebar: Home, Start here, one section per system (landing first, chapters, then calculators), Core, For contributors."
    items = sidebar()
    assert items[:2] == ["index.ipynb", "start.ipynb"]
    sections = [i["section"] for i in items[2:]]
    assert sections == ["Tri-Stat", "Anime d20", "BESM d20", "Special situations", "Encounters", "Core (dice and checks)", "For contributors"]
    for item in items[2:-2]:  # every rule system's section
        nbs = item["contents"]
        assert nbs[0].endswith("/index.ipynb")
        ui = [n.endswith("_ui.ipynb") for n in nbs[1:]]
        assert ui == sorted(ui), f"{item['section']}: calculator pages come after the chapters"
    html = (site / "index.html").read_text()
    captions = re.findall(r'<p class="caption" role="heading"><span class="caption-text">([^<]+)</span>', html)
    assert captions == sections
    contributors = html[html.index("For contributors"):]
    for p in ["core/render.html", "core/calculators.html", "core/serve.html", "core/store.html", "api.html"]:
        assert p in contributors, p


def test_quarto_config_is_valid_and_lists_every_notebook():
    "nbs/_quarto.yml stays usable for nbdev_docs where Quarto exists; the sidebar (also the site's order) misses no chapter."
    quarto = yaml.safe_load((NBS / "_quarto.yml").read_text())
    assert quarto["project"]["type"] == "website" and "sidebar.yml" in quarto["metadata-files"]
    assert yaml.safe_load((NBS / "nbdev.yml").read_text())["project"]["output-dir"] == "_docs"
    on_disk = sorted(str(p.relative_to(NBS)) for p in NBS.rglob("*.ipynb")
                     if "dashboards" not in p.parts and ".ipynb_checkpoints" not in p.parts)
    assert sorted(listed()) == on_disk


def test_every_wing_folder_opens_with_a_landing_page():
    for wing in ["core", "tristat", "anime_d20", "besm_d20", "special", "encounters"]:
        assert (NBS / wing / "index.ipynb").exists(), wing
        assert f"{wing}/index.ipynb" in listed()


def test_pages_load_nothing_from_outside(site):
    remote = re.compile(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="(?:https?:)?//', re.I)
    for html in site.rglob("*.html"):
        assert not remote.search(html.read_text()), f"{html.name} loads a remote resource"
    for css in (site / "_static").rglob("*.css"):
        assert not re.search(r"(?:@import|url\()\s*['\"]?(?:https?:)?//", css.read_text(errors="ignore")), css


def test_rules_content_is_on_the_pages(site):
    checks = (site / "core" / "checks.html").read_text()
    for text in ["Reading used here", "Overwhelming Failure", "Marginal Success", "tristat_check_odds", "Ami"]:
        assert text in checks, text
    assert "widget-state+json" in (site / "core" / "dice_ui.html").read_text()  # calculators are shown as snapshots


def test_proof_cells_and_code_are_folded(site):
    "A player reads prose, tables and results: every code cell is inside a fold, and proof cells say so."
    html = (site / "tristat" / "combat.html").read_text()
    assert "Show the proof" in html and "Show code" in html and "Show the function counterattack" in html
    assert "test_eq" in html  # still there, folded
    blocks = re.findall(r'<div class="cell_input docutils container">', html)
    folded = re.findall(r'<details class="admonition hide above-input">\s*<summary[^>]*>.*?</summary>\s*<div class="cell_input docutils container">', html, re.S)
    assert blocks and len(folded) == len(blocks), f"{len(blocks) - len(folded)} code cells are not folded"


def test_calculator_snapshots_are_marked_and_disabled(site):
    "Each calculator shows first as a snapshot, saying so and naming its dashboard, its inputs disabled (live in the browser: tests/test_site_live.py)."
    for p, board in [("core/dice_ui", "Dice and checks"), ("tristat/round_ui", "Tri-Stat combat tracker"),
                     ("encounters/planner_ui", "Encounters: round planner, ranges, charges and Stamina"),
                     ("encounters/exertion_ui", "Encounters: round planner, ranges, charges and Stamina"),
                     ("anime_d20/combat_ui", "Anime d20: attack resolver"), ("besm_d20/chase_ui", "BESM d20 chase tracker"),
                     ("special/vehicles_ui", "Vehicle damage"), ("special/morale_ui", "Special situations: rolls, flight, groups and morale")]:
        html = (site / f"{p}.html").read_text()
        assert "A snapshot" in html and f"<strong>{board}</strong> dashboard" in html, p
        state = json.loads(re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>', html, re.S).group(1))
        inputs = [m for m in state["state"].values() if m["model_name"] in ("TextModel", "IntTextModel", "DropdownModel", "ButtonModel", "CheckboxModel")]
        assert inputs and all(m["state"].get("disabled") is True for m in inputs), p


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
    offline_page.goto((site / "core" / "dice.html").as_uri())
    offline_page.locator("mjx-container").first.wait_for(timeout=20_000)  # MathJax, vendored
    offline_page.goto((site / "core" / "dice_ui.html").as_uri())
    offline_page.locator(".widget-html").first.wait_for(timeout=20_000)  # the widget manager, vendored
    assert "3d6: 3 to 18" in offline_page.locator("body").inner_text()
    assert offline_page.locator(".widget-text input").first.is_disabled()
    note = offline_page.locator(".besm-live-note").first  # from disk the browser runs no Python: the snapshot stays, saying so
    assert "A snapshot until Python starts" in note.inner_text() and note.get_attribute("data-state") != "live"
    assert offline_page.outside == [], offline_page.outside


@pytest.mark.parametrize("query, first", [
    ("Table 12-5", "anime_d20/modifiers.html"), ("Table 12-8", "anime_d20/damage.html"), ("Table A-1", "besm_d20/chase.html"),
    ("counterattack", "tristat/combat.html"), ("roll-under", "core/checks.html"), ("Table 12-1", "core/checks.html"),
])
def test_search_ranks_the_page_that_states_it_first(served, offline_page, query, first):
    offline_page.goto(f"{served}/search.html?q={query}")
    offline_page.locator("#search-results li").first.wait_for(timeout=20_000)
    hrefs = [a.get_attribute("href") for a in offline_page.locator("#search-results li > a").all()]
    assert hrefs and hrefs[0].split("#")[0].endswith(first), hrefs[:5]
    assert offline_page.outside == [], offline_page.outside
