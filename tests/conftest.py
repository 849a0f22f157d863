"""Shared fixtures: a Voila dashboards server and a headless Chromium, both local only."""
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import settings

# speed is measured in `make bench`, never by a test's clock: a busy machine must not fail a property test
settings.register_profile("besm", deadline=None)
settings.load_profile("besm")


def _patient_expect() -> None:
    "A page's answer may take more than Playwright's 5 s on a busy 2-core machine: every `expect` waits up to 30 s."
    try: from playwright.sync_api import expect
    except ImportError: return
    expect.set_options(timeout=30_000)


_patient_expect()


def _settle_before_acting() -> None:
    """Every tap, tick, choice and keystroke a test makes waits first until the page has settled (`SETTLED_JS`), as a person
    waits for the screen to stop moving: an action's later updates (a fold, the page following play, a line that grows) moved
    the next target under a click that was then lost. 10 s at most, then it acts anyway (a kernel busy for good)."""
    try: from playwright.sync_api import Browser, Locator, TimeoutError as Timeout
    except ImportError: return
    from tests.helpers import SETTLED_JS
    def settled(page) -> None:
        try: page.wait_for_function("() => !window.besmSettled || window.besmSettled()", timeout=10_000)
        except Timeout:  # said in the failing test's output, if it fails
            print(f"the page at {page.url} was still changing after 10 s: acting anyway", file=sys.stderr)
    for name in ("click", "dblclick", "check", "uncheck", "set_checked", "fill", "press", "press_sequentially", "type",
                 "select_option", "tap", "set_input_files", "clear"):
        def acting(self, *args, __act=getattr(Locator, name), **kwargs):
            settled(self.page)
            return __act(self, *args, **kwargs)
        setattr(Locator, name, acting)
    new_context = Browser.new_context
    def with_settled(self, *args, **kwargs):
        ctx = new_context(self, *args, **kwargs)
        ctx.add_init_script(SETTLED_JS)
        return ctx
    Browser.new_context = with_settled
    new_page = Browser.new_page
    def page_settled(self, *args, **kwargs):
        page = new_page(self, *args, **kwargs)
        page.context.add_init_script(SETTLED_JS)  # before the page's first address
        return page
    Browser.new_page = page_settled


_settle_before_acting()

LOCAL = {"127.0.0.1", "localhost"}
from tests.helpers import ROOT
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _log_tail(log_path: Path, lines: int = 30) -> str:
    try: return "\n".join(log_path.read_text(errors="replace").splitlines()[-lines:])
    except OSError: return "(no log)"


def wait_until_served(url: str, proc, log_path: Path, within: float = 200) -> None:
    """Return once the home page renders in full; else RuntimeError with the server's last log lines.
    Each try has its own deadline: while a kernel starts, Voila keeps the response open with a heartbeat every 10 s, and
    a kernel that never starts (a 2-core machine starting many at once) leaves it open for ever. A later try gets a
    kernel from a filled pool."""
    deadline = time.time() + within
    tried = []
    while time.time() < deadline:
        if proc.poll() is not None: break
        t0 = time.time()
        try:
            with urllib.request.urlopen(url + "/voila/render/index.ipynb", timeout=30) as answer:
                body = b""
                while chunk := answer.read(65536):
                    body += chunk
                    if time.time() - t0 > 90: raise TimeoutError("the page was still rendering after 90 s")
            if b"</html>" in body.lower(): return
            tried.append(f"an incomplete page ({len(body)} bytes)")
        except OSError as e:  # not listening yet, or the try's own deadline
            if not isinstance(e, ConnectionRefusedError) and not isinstance(getattr(e, "reason", None), ConnectionRefusedError):
                tried.append(f"{type(e).__name__}: {e} after {time.time() - t0:.0f} s")
            time.sleep(0.5)
    raise RuntimeError(f"the dashboards server did not serve its home page within {within:.0f} s (exit {proc.poll()}); "
                       f"tries: {tried[-5:]}\nits log ends:\n{_log_tail(log_path)}")


_LOGGED: list[Path] = []  # the server logs this process has written: the first keeps the plain name


@contextlib.contextmanager
def serve_dashboards(*extra: str,  # more command-line settings for the server
                     log_path: Path | None = None,  # its log (default: _build/test-logs/voila-<worker>.log)
                     folder: Path = ROOT / "nbs" / "dashboards",  # the dashboards served
                     env: dict | None = None,  # more environment for the server and its kernels
                    ):
    "Start `besm-dashboards` on a free port with a fresh saves folder; yield (base URL, process) once the home page answers."
    port = free_port()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # each worker of a parallel run has its own servers, and logs
    if log_path is None:  # kept after the run, to read when a page failed: the session's server, then any a test starts
        (ROOT / "_build" / "test-logs").mkdir(parents=True, exist_ok=True)
        log_path = ROOT / "_build" / "test-logs" / f"voila{'-' + worker if worker else ''}{'-' + str(port) if _LOGGED else ''}.log"
        _LOGGED.append(log_path)
    log = open(log_path, "w")
    saves = tempfile.mkdtemp(prefix="besm-saves-")  # trackers autosave here, never into the project
    env = os.environ | {"BESM_NB_SAVES": saves} | (env or {})
    # a closed page's kernel goes a minute after its page has gone (not the dashboards' quarter of an hour): a session
    # opens hundreds of pages, and each page's kernel keeps watching its tracker's saves while it lives
    cull = [c for c in ("--MappingKernelManager.cull_idle_timeout=60", "--MappingKernelManager.cull_interval=10")
            if not any(e.startswith(c.split("=")[0]) for e in extra)]  # a setting given twice stops the server
    proc = subprocess.Popen([str(Path(sys.executable).parent / "besm-dashboards"), str(folder),
                             "--port", str(port), *cull, *extra], stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_served(url, proc, log_path)
        proc.saves = Path(saves)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(saves, ignore_errors=True)


@pytest.fixture(scope="session")
def dashboards_server():
    "One dashboards server for the whole test session: (base URL, process)."
    with serve_dashboards() as served:
        yield served


@pytest.fixture(scope="session")
def slow_follow_server():
    """A second server, for the whole session, whose pages look for other screens' actions only every 60 s: a page is sure
    to be behind when it acts (on the main server a page catches up within a second, before a test could act on it)."""
    with serve_dashboards("--VoilaConfiguration.preheat_kernel=False", env={"BESM_NB_FOLLOW_SECONDS": "60"}) as served:
        yield served


@pytest.fixture(scope="session")
def dashboards_url(dashboards_server):
    return dashboards_server[0]


@pytest.fixture(scope="session")
def playwright_session():
    "The one Playwright of the test session: its sync API allows only one at a time in a thread."
    if chromium_path() is None:
        pytest.fail("Chromium is not installed: `.ci/run` installs Debian's chromium; or `apt-get install -y chromium`")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_session):
    b = playwright_session.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def page(browser, dashboards_url):
    "A fresh page that records every request and blocks any that would leave this machine."
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.set_default_navigation_timeout(180_000)  # a first page while the server's kernels start, on a busy 2-core machine
    pg.outside = []
    def route(r):
        url = r.request.url
        if urlparse(url).scheme in ("http", "https", "ws", "wss") and urlparse(url).hostname not in LOCAL:
            pg.outside.append(url)
            return r.abort()
        return r.continue_()
    pg.route("**/*", route)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()



# a parallel run's balance, printed with the slowest tests: each worker's busy time and when it finished its last test
# (a worker done long before the other is time the split wastes)
_WORKERS: dict[str, list[float]] = {}
_STARTED = [0.0]
_SPENT: dict[str, list] = {}  # test -> [seconds in set-up, call and tear-down, worker]: all of them, in _build/test-logs/durations.tsv


def pytest_sessionstart(session):
    _STARTED[0] = time.time()


def pytest_runtest_logreport(report):
    node = getattr(report, "node", None)  # a report a worker of pytest-xdist sent to the controller
    spent = _SPENT.setdefault(report.nodeid, [0.0, getattr(getattr(node, "gateway", None), "id", "-")])
    spent[0] += report.duration
    if node is None or not hasattr(node, "gateway"): return
    busy = _WORKERS.setdefault(node.gateway.id, [0.0, 0.0])
    busy[0] += report.duration
    busy[1] = time.time() - _STARTED[0]


def pytest_terminal_summary(terminalreporter):
    if _SPENT and not os.environ.get("PYTEST_XDIST_WORKER"):  # every test's time, slowest first: where the next saving is
        (ROOT / "_build" / "test-logs").mkdir(parents=True, exist_ok=True)
        rows = sorted(_SPENT.items(), key=lambda kv: -kv[1][0])
        (ROOT / "_build" / "test-logs" / "durations.tsv").write_text("".join(f"{s:.2f}\t{w}\t{n}\n" for n, (s, w) in rows))
    if _WORKERS:
        terminalreporter.write_line("workers: " + "; ".join(f"{w} busy {b:.0f} s, its last test done at {end:.0f} s"
                                                           for w, (b, end) in sorted(_WORKERS.items())))
