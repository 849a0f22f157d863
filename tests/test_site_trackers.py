"""Every tracker live on the site, saved on the device, and the whole site working offline: _site/ served by a plain
static server on 127.0.0.1, Chromium resolving no other host and every other request blocked. Two steps played on each
tracker page, then a reload, then the browser closed and opened again on the same profile: the same game each time.
Two tabs on one tracker; Download then Upload; a corrupt upload refused; storage refused; then the server taken down:
calculators and trackers still work, and a new version of the site replaces the old copy."""
import base64
import functools
import http.server
import json
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import CHROMIUM_ARGS, chromium_path
from tests.dashboards.kit import FOLLOWING, resize
from tests.helpers import ROOT, SLOW_REPLIES
from tests.test_site_pages import visit

SITE = ROOT / "_site"
pytestmark = [pytest.mark.docs, pytest.mark.browser]
ONLY_HERE = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"  # no other host can even be looked up
LIVE = 180_000  # ms: Python may take this long to start on a busy machine

# each tracker page -> two steps of play: (the button's class, the text typed first into a box labelled so, or None)
TRACKERS = {
    "tristat/round_ui.html": [("besm-add", ("Name", "Aiko")), ("besm-add", ("Name", "Ben"))],
    "besm_d20/chase_ui.html": [("besm-start", None), ("besm-resolve", None)],
    "anime_d20/damage_ui.html": [("besm-damage", None), ("besm-damage", None)],
    "anime_d20/fight_ui.html": [("besm-add", ("Name", "Aiko")), ("besm-add", ("Name", "Ben"))],
    "besm_d20/damage_saves_ui.html": [("besm-roll-save", None), ("besm-roll-save", None)],
    "besm_d20/fate_points_ui.html": [("besm-fp-spend", None), ("besm-fp-gain", None)],
    "besm_d20/classless_ui.html": [("besm-cl-buy", None), ("besm-cl-session", None)],
    "besm_d20/battles_ui.html": [("besm-start", None), ("besm-play-turn", None)],
    "besm_d20/units_ui.html": [("besm-start", None), ("besm-initiative", None)],
    "encounters/exertion_ui.html": [("besm-add", ("Name", "Garth")), ("besm-act", None)],
    "special/car_chase_ui.html": [("besm-add-vehicle", ("Name", "Roadster")), ("besm-add-vehicle", ("Name", "Van"))],
}


class Server:
    "A plain static server for _site/ on one port that can be taken down and brought back (the site's origin stays the same)."
    def __init__(self, folder: Path = SITE, overrides: dict[str, bytes] | None = None):
        self.folder, self.overrides, self.hits, self.port, self.httpd = folder, overrides or {}, [], 0, None

    def start(self) -> "Server":
        server = self
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args): pass
            def send_head(self):
                path = self.path.split("?")[0].lstrip("/")
                server.hits.append(path)
                if path in server.overrides:  # a file of another version of the site
                    body = server.overrides[path]
                    self.send_response(200)
                    self.send_header("Content-Type", self.guess_type(path))
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    import io
                    return io.BytesIO(body)
                return super().send_head()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), functools.partial(Handler, directory=str(self.folder)))
        self.httpd.handle_error = lambda *a: None
        self.port = self.httpd.server_port
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self) -> str: return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="module")
def pw(playwright_session):
    if not (SITE / "sw.js").exists():
        pytest.fail("the site is not built: run `make docs` (make test builds it before pytest)")
    return playwright_session


def open_profile(pw, profile: Path):
    "Chromium on a profile kept on disk (IndexedDB and the offline cache live there), every request off this machine blocked and recorded."
    ctx = pw.chromium.launch_persistent_context(str(profile), executable_path=chromium_path(), args=[*CHROMIUM_ARGS, ONLY_HERE],
                                                accept_downloads=True)
    ctx.set_default_navigation_timeout(LIVE)
    ctx.outside, ctx.errors = [], []
    def route(r):
        if r.request.url.startswith(("http://127.0.0.1", "data:", "blob:", "file:")): return r.continue_()
        ctx.outside.append(r.request.url)
        return r.abort()
    ctx.route("**/*", route)
    ctx.on("page", lambda pg: pg.on("pageerror", lambda e: ctx.errors.append(str(e))))
    for pg in ctx.pages: pg.on("pageerror", lambda e: ctx.errors.append(str(e)))
    return ctx


@pytest.fixture
def profile():
    folder = Path(tempfile.mkdtemp(prefix="besm-profile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def page_of(ctx):
    return ctx.pages[0] if ctx.pages else ctx.new_page()


def wait_live(pg):
    pg.wait_for_function("window.besmLive && window.besmLive.state !== 'loading'", timeout=LIVE)
    state = pg.evaluate("window.besmLive")
    assert state["state"] == "live", state["errors"]
    return state


def game(pg) -> dict:
    "The tracker's whole state, as its Download save link holds it."
    href = pg.locator(".besm-live .besm-download-link").first.get_attribute("href")
    return json.loads(base64.b64decode(href.split(",", 1)[1]))["data"]


def wait_game(pg, want: dict, timeout=30):
    "Wait until the tracker on this page shows `want`."
    deadline = time.time() + timeout
    while game(pg) != want:
        assert time.time() < deadline, (game(pg), want)
        pg.wait_for_timeout(100)  # looked at again until it does


def step(pg, button: str, typed=None):
    "One action on the live tracker: type into a box (by its label), then press a button (by its class); wait for the state to change."
    link = pg.locator(".besm-live .besm-download-link").first
    before, href = game(pg), link.get_attribute("href")
    pg.wait_for_function(FOLLOWING, timeout=30_000)  # the page done following the last step: it scrolls, and moves the focus
    if typed:
        label, value = typed
        box = pg.locator(f".besm-live .widget-text:has(label:text-is('{label}')) input").first
        box.fill(value)
        box.press("Tab")
    pg.locator(f".besm-live button.{button}").first.click()
    pg.wait_for_function("""before => { const a = document.querySelector('.besm-live .besm-download-link');
        return a && a.href !== before; }""", arg=href, timeout=30_000)
    assert game(pg) != before


def undo_steps(pg) -> str:
    return pg.locator(".besm-live .besm-history").first.inner_text()


PAST_THE_EDGE = """() => [...document.querySelectorAll('.besm-live :is(.widget-text, .widget-dropdown, .widget-checkbox, button)')]
    .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.right > window.innerWidth + 1; })
    .map((el) => (el.querySelector('label')?.innerText || el.innerText || el.className).trim().slice(0, 40))"""

# a closed drop-down whose chosen option does not fit in it (its text, its padding and its arrow), and the Upload button's label
CUT_SHORT = """() => [...document.querySelectorAll('.besm-live select')].filter((s) => s.getClientRects().length && s.selectedIndex >= 0)
    .filter((s) => { const cs = getComputedStyle(s), probe = document.createElement('span');
        Object.assign(probe.style, { font: cs.font, whiteSpace: 'pre', position: 'absolute', visibility: 'hidden' });
        probe.textContent = s.options[s.selectedIndex].text;
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
        probe.remove();
        return need > s.clientWidth + 1; })
    .map((s) => s.options[s.selectedIndex].text)"""
UPLOAD_LABELS = "() => [...document.querySelectorAll('.besm-live .besm-upload')].map((b) => getComputedStyle(b, '::after').content + '|' + getComputedStyle(b).fontSize)"


def fits_a_phone(pg, path: str) -> None:
    "At 400 px wide, every input and button of the live tracker is on the screen: rows wrap, nothing stands past the edge, no choice is cut short."
    assert pg.evaluate(PAST_THE_EDGE) == [], path
    assert pg.evaluate("document.documentElement.scrollWidth") <= 400, path
    assert pg.evaluate(CUT_SHORT) == [], path  # a closed drop-down shows its choice whole
    assert set(pg.evaluate(UPLOAD_LABELS)) == {'"Upload save"|0px'}, path  # not ipywidgets' "Upload save (0)"


def test_every_tracker_is_live_fits_a_phone_saved_on_the_device_and_resumed(pw, profile):
    """Each tracker page fresh at 400 px: every input and button on the screen; then two steps, a reload: the same game;
    the browser closed and opened on the same profile: the same game. (The phone check was a test of its own, opening
    every page again in a browser of its own: `test_the_phone_check_can_fail` keeps the proof that it can fail.) The first
    visit is also the site walk's for these pages (test_site_pages: no console or page error, snapshots drawn, formulas
    typeset), which they left out: each page starts its Python once fewer."""
    server = Server().start()
    played = {}
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.problems = []
        pg.on("console", lambda m: pg.problems.append(f"console {m.type}: {m.text[:300]}") if m.type == "error" else None)
        pg.on("pageerror", lambda e: pg.problems.append(f"page error: {str(e)[:300]}"))
        for path, steps in TRACKERS.items():
            assert visit(pg, f"{server.url}/{path}", path) == [], path  # the site walk's check of this page
            state = wait_live(pg)
            note = pg.locator(".besm-live-note[data-kind='tracker']").first
            assert note.get_attribute("data-state") == "live", path
            assert "saved on this device" in note.inner_text(), path
            pg.locator(".besm-storage[data-state='device']").first.wait_for(timeout=10_000)
            assert state["storage"]["state"] == "device", (path, state["storage"])
            desk = pg.viewport_size
            resize(pg, 400, 900)  # as a phone shows it, fresh
            fits_a_phone(pg, path)
            resize(pg, desk["width"], desk["height"])
            for button, typed in steps: step(pg, button, typed)
            played[path] = game(pg)
            assert "2 steps to undo" in undo_steps(pg), (path, undo_steps(pg))
            pg.reload()
            wait_live(pg)
            assert game(pg) == played[path], path
            assert "2 steps to undo" in undo_steps(pg), path
        assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
        ctx.close()
        ctx = open_profile(pw, profile)  # a later visit: the same browser profile, nothing kept in memory
        pg = page_of(ctx)
        for path in TRACKERS:
            pg.goto(f"{server.url}/{path}")
            wait_live(pg)
            assert game(pg) == played[path], path
        ctx.close()
    finally:
        server.stop()


def test_the_phone_check_can_fail(pw, profile):
    "Not vacuous: without the site's rules for widgets, the Tri-Stat set-up form stands past the edge at 400 px, and a drop-down's choice is cut short."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.set_viewport_size({"width": 400, "height": 900})
        pg.goto(f"{server.url}/tristat/round_ui.html")
        wait_live(pg)
        fits_a_phone(pg, "tristat/round_ui.html")  # with them, it fits
        pg.evaluate("""() => { for (const sheet of document.styleSheets) { if (!(sheet.href || '').includes('besm.css')) continue;
            for (let i = sheet.cssRules.length - 1; i >= 0; i--) if ((sheet.cssRules[i].selectorText || '').includes('.widget-hbox')) sheet.deleteRule(i); } }""")
        assert "ACV" in pg.evaluate(PAST_THE_EDGE)
        pg.evaluate("""() => { for (const sheet of document.styleSheets) { if (!(sheet.href || '').includes('besm.css')) continue;
            for (let i = sheet.cssRules.length - 1; i >= 0; i--) if ((sheet.cssRules[i].cssText || '').includes('widget-dropdown')) sheet.deleteRule(i); } }""")
        assert pg.evaluate(CUT_SHORT), "without the rules for drop-downs, a choice is cut short"
        ctx.close()
    finally:
        server.stop()


def _kit_follows_other_screens() -> bool:
    from besm_nb.ui.tracker import Tracker
    return callable(getattr(Tracker, "catch_up", None))


@pytest.mark.skipif(not _kit_follows_other_screens(), reason="the tracker kit does not yet follow other screens (Tracker.catch_up)")
def test_two_tabs_on_one_tracker_show_the_same_game(pw, profile):
    "An action in one tab shows in the other; actions from both tabs are all kept (undo reaches each)."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        a = page_of(ctx)
        a.goto(f"{server.url}/anime_d20/damage_ui.html")
        wait_live(a)
        b = ctx.new_page()
        b.goto(f"{server.url}/anime_d20/damage_ui.html")
        wait_live(b)
        step(a, "besm-damage")
        wait_game(b, game(a))
        step(b, "besm-heal")
        wait_game(a, game(b))
        step(a, "besm-damage")
        wait_game(b, game(a))
        assert game(a)["log"][-3:] == game(b)["log"][-3:] and len(game(a)["log"]) == 3
        assert "3 steps to undo" in undo_steps(a) and "3 steps to undo" in undo_steps(b)
        assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
        ctx.close()
    finally:
        server.stop()


def test_download_then_upload_and_a_corrupt_upload_is_refused(pw, profile, tmp_path):
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/besm_d20/fate_points_ui.html")
        wait_live(pg)
        step(pg, "besm-fp-spend")
        with pg.expect_download() as got:
            pg.locator(".besm-live .besm-download-link").first.click()
        saved = tmp_path / "ledger.json"
        got.value.save_as(saved)
        kept = json.loads(saved.read_text())
        assert kept["kind"] == "besm-d20-fate-ledger" and kept["data"] == game(pg)
        step(pg, "besm-fp-gain")
        assert game(pg) != kept["data"]
        def upload(path):  # the Upload save button opens the browser's file chooser
            with pg.expect_file_chooser() as chooser:
                pg.locator(".besm-live .besm-upload").first.click()
            chooser.value.set_files(str(path))
        upload(saved)
        wait_game(pg, kept["data"])
        pg.locator(".besm-live", has_text="Loaded ledger.json").first.wait_for(timeout=10_000)
        now = game(pg)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(kept | {"data": {**kept["data"], "entries": "not a list"}}))
        upload(bad)
        pg.locator(".besm-live .besm-file-message", has_text="⚠").first.wait_for(timeout=15_000)
        assert game(pg) == now  # the corrupt save changed nothing
        torn = tmp_path / "torn.json"
        torn.write_text(saved.read_text()[:40])
        upload(torn)
        pg.locator(".besm-live .besm-file-message", has_text="not a readable save file").first.wait_for(timeout=15_000)
        assert game(pg) == now
        pg.reload()
        wait_live(pg)
        assert game(pg) == now  # and the upload was saved on the device like any action
        assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
        ctx.close()
    finally:
        server.stop()


# what a browser does when it refuses storage (a private window) or has no room left, played into the page's worker
REFUSED = ("IDBFactory.prototype.open = function () { throw new DOMException("
           "'A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError'); };")
FULL = "IDBObjectStore.prototype.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };"


@pytest.mark.parametrize("browser_says, line", [(REFUSED, "⚠ Not saved on this device: the browser refuses storage here"),
                                                (FULL, "⚠ Not saved on this device just now: storage is full or refused")])
def test_storage_refused_or_full_is_said_beside_the_tracker_and_play_goes_on(pw, profile, browser_says, line):
    "Storage refused from the start, or full when the first action is stored: one line beside the tracker says so, and play goes on."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        def worker(route):
            got = route.fetch()
            route.fulfill(response=got, body=browser_says + "\n" + got.text())
        ctx.route("**/live-worker.js*", worker)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/anime_d20/damage_ui.html")
        wait_live(pg)
        step(pg, "besm-damage")
        step(pg, "besm-damage")
        said = pg.locator(".besm-live-note[data-kind='tracker'] .besm-storage", has_text=line)
        said.wait_for(timeout=15_000)
        assert "Download save" in said.inner_text() and pg.locator(".besm-storage").count() == 1
        assert game(pg)["wounds"]["hp"] < 40 and "2 steps to undo" in undo_steps(pg)
        assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
        ctx.unroute_all(behavior="ignoreErrors")  # a worker fetched as the context closes: its handler's error is no news (it surfaced in the next test)
        ctx.close()
    finally:
        server.stop()


def test_after_one_visit_the_site_works_with_the_server_gone(pw, profile):
    "One visit to a calculator page; the server taken down; then that page, a tracker page never opened, and the home page all work."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/core/dice_ui.html")
        wait_live(pg)
        pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=LIVE)
        version = pg.evaluate("window.besmOffline.version")
        assert version and version in (SITE / "sw.js").read_text()
    finally:
        server.stop()
    pg.reload()
    wait_live(pg)
    expr = pg.locator(".besm-live[data-cell='0'] .besm-field-expr input").first
    expr.fill("4d6")
    pg.locator(".besm-live[data-cell='0'] .besm-output", has_text="4d6: 4 to 24").first.wait_for(timeout=20_000)
    pg.goto(f"{server.url}/besm_d20/fate_points_ui.html")  # a tracker page never opened before
    wait_live(pg)
    step(pg, "besm-fp-spend")
    pg.reload()
    wait_live(pg)
    assert "1 steps to undo" in undo_steps(pg) or "1 step to undo" in undo_steps(pg)
    pg.goto(f"{server.url}/")
    assert "besm_nb" in pg.title()
    pg.goto(f"{server.url}/tristat/no_such_page.html")  # offline, a page the site does not have is not "not kept"
    assert pg.title() == "No such page" and "no page at this address" in pg.inner_text("body"), pg.inner_text("body")
    pg.goto(f"{server.url}/_sources/index.ipynb.txt")  # one the site has but does not keep
    assert "Not kept offline" in pg.inner_text("body")
    assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
    ctx.close()


def test_the_service_worker_holds_the_compiled_runtime_for_the_next_page(pw, profile):
    "After a visit, the service worker holds the runtime's compiled WebAssembly (Chromium shares it with the next page's worker); an open page's word keeps it held."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/anime_d20/damage_ui.html")
        wait_live(pg)
        pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=LIVE)
        pg.reload()
        wait_live(pg)
        sw = ctx.service_workers[0]
        held = "runtime ? runtime.then((m) => (m instanceof WebAssembly.Module ? WebAssembly.Module.exports(m).length : String(m))) : 'none'"
        assert sw.evaluate(held) > 100  # the runtime's exports: the module itself, not a stand-in
        sw.evaluate("runtime = null")  # as if it had not been held yet: the page's word holds it again
        assert sw.evaluate(held) == "none"
        pg.evaluate("navigator.serviceWorker.controller.postMessage('besm-hold')")
        deadline = time.time() + 10
        while sw.evaluate("runtime === null") and time.time() < deadline: pg.wait_for_timeout(100)
        assert sw.evaluate(held) > 100
        assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
        ctx.close()
    finally:
        server.stop()


def test_a_new_version_of_the_site_replaces_the_old_copy(pw, profile):
    "A rebuilt site (a changed page, a new sw.js): the new copy is filled, taking unchanged files from the old, and the old is deleted."
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/start.html")
        pg.wait_for_function("window.besmOffline && window.besmOffline.state === 'ready'", timeout=LIVE)
        old = pg.evaluate("window.besmOffline.version")
        sw = (SITE / "sw.js").read_text()
        page = (SITE / "start.html").read_bytes().replace(b"</body>", b"<p id='besm-new-version'>new</p></body>")
        files = json.loads(re.search(r"const FILES = (\{.*?\});", sw, re.S).group(1))
        files["start.html"] = "0" * 16
        server.overrides = {"sw.js": sw.replace(json.dumps(old), '"new-version"').replace(
            re.search(r"const FILES = (\{.*?\});", sw, re.S).group(1), json.dumps(files)).encode(), "start.html": page}
        server.hits.clear()
        pg.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        pg.wait_for_function("window.besmOffline.version === 'new-version'", timeout=LIVE)
        assert pg.evaluate("caches.keys()") == ["besm-site-new-version"] or sorted(
            k for k in pg.evaluate("caches.keys()") if k.startswith("besm-site-")) == ["besm-site-new-version"]
        assert sorted(set(server.hits)) == ["start.html", "sw.js"], sorted(set(server.hits))[:10]  # nothing else fetched again
    finally:
        server.stop()
    pg.goto(f"{server.url}/start.html")
    assert pg.locator("#besm-new-version").count() == 1
    ctx.close()


def test_opened_from_disk_the_pages_read_and_say_why_they_are_snapshots(pw, profile):
    ctx = open_profile(pw, profile)
    pg = page_of(ctx)
    pg.goto((SITE / "besm_d20" / "fate_points_ui.html").as_uri())
    note = pg.locator(".besm-live-note .besm-file-note").first
    note.wait_for(timeout=30_000)
    assert "Opened from a file" in note.inner_text() and "http.server" in note.inner_text()
    assert "Fate" in pg.locator("h1").first.inner_text()
    assert ctx.outside == [], ctx.outside
    ctx.close()


def test_a_party_kept_once_starts_both_fights_on_the_site_and_offline(pw, profile):
    """Issue 35 on the site: the party typed once into the Tri-Stat tracker and kept in the roster (another tab on the same
    page offers it at once), a Tri-Stat fight and an Anime d20 fight each started from it with Add from roster; then, with
    the server gone, a reload finds both fights and the roster on the device."""
    from tests.dashboards import test_home_dice_tristat as tristat
    from tests.dashboards.test_roster import D20_PARTY, PARTY, add_from_roster, d20_fight_from_roster, keep
    server = Server().start()
    try:
        ctx = open_profile(pw, profile)
        pg, other = page_of(ctx), ctx.new_page()
        for p in (pg, other):
            p.goto(f"{server.url}/tristat/round_ui.html")
            wait_live(p)
        t = pg.locator(".besm-live .besm-tracker").first
        tristat.add_fighters(pg, t, PARTY)
        for name, *_ in PARTY:  # the other tab has the game: what it shows next comes from the roster alone
            other.locator(".besm-live .besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
        for name, *_ in PARTY: keep(t, name)
        for name, *_ in PARTY:  # the other tab was told, and offers them without being touched
            expect(other.locator(".besm-live .besm-roster-pick").first.get_by_label(name, exact=True)).to_have_count(1, timeout=30_000)
        other.close()
        t.locator("button.besm-new").click()
        t.locator(".besm-combatants", has_text="No combatants yet").wait_for(timeout=30_000)
        add_from_roster(t, [name for name, *_ in PARTY], "Usagi, Naru are in the fight")
        pg.goto(f"{server.url}/anime_d20/fight_ui.html")
        wait_live(pg)
        f = pg.locator(".besm-live .besm-d20-fight").first
        d20_fight_from_roster(f)
    finally:
        server.stop()
    for path, tracker, party in (("anime_d20/fight_ui.html", ".besm-d20-fight", D20_PARTY), ("tristat/round_ui.html", ".besm-tracker", PARTY)):
        pg.goto(f"{server.url}/{path}") if path != "anime_d20/fight_ui.html" else pg.reload()
        wait_live(pg)
        t = pg.locator(f".besm-live {tracker}").first
        for name, *_ in party:
            t.locator(".besm-combatants td", has_text=name).first.wait_for(timeout=30_000)
            expect(t.locator(".besm-roster-pick").get_by_label(name, exact=True)).to_have_count(1)
    assert ctx.outside == [] and ctx.errors == [], (ctx.outside, ctx.errors)
    ctx.close()


def test_a_click_waits_for_the_dice_typed_just_before_it_on_the_site(pw, profile):
    """The site's Python is a worker: with its answers slow, the widget manager holds a box's later keystrokes back and
    sends a click at once. Typed "1 6" key by key, then Roll initiative at once: both dice are rolled, never "1" alone."""
    from tests.dashboards import test_home_dice_tristat as tristat
    server = Server().start()
    ctx = open_profile(pw, profile)
    try:
        ctx.add_init_script(SLOW_REPLIES)
        pg = page_of(ctx)
        pg.goto(f"{server.url}/tristat/round_ui.html")
        wait_live(pg)
        tristat.roll_typed_while_slow(pg, pg.locator(".besm-live .besm-tracker").first)
        pg.wait_for_function("() => JSON.stringify([...document.querySelectorAll('.besm-live .besm-order .besm-side')].map((e) => e.dataset.name))"
                             " === '[\"Youma\",\"Rei\"]' && document.querySelector('.besm-live .besm-order .besm-current')?.dataset.name === 'Youma'",
                             timeout=60_000)
        assert ctx.errors == [], ctx.errors
    finally:
        ctx.close()
        server.stop()

