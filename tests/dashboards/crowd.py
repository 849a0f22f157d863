"""Many sessions at once against one dashboards server: page-load times, errors, the server's memory and each kernel's
(shared by the load test and `make bench`)."""
from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence


@dataclass
class Crowd:
    loads: list[float]  # seconds from page request to first widget, one per session
    errors: list[str]  # page errors and failed sessions
    rss_mb: float  # the server and its kernels, resident memory, with every session open
    kernels: list[float] = field(default_factory=list)  # each kernel's resident memory (MB), with every session open
    load: float = 0.0  # the machine's load average (1 minute) when the sessions were opened

    @property
    def p50(self) -> float: return statistics.median(self.loads)

    @property
    def p95(self) -> float: return sorted(self.loads)[max(0, round(0.95 * len(self.loads)) - 1)]

    @property
    def kernel_mb(self) -> float: return statistics.mean(self.kernels) if self.kernels else 0.0


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parts = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(parts[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return children


def _rss(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"): return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def tree_rss_mb(pid: int) -> float:
    "Resident memory of a process and all its descendants (Linux /proc), in MB."
    children, total, todo = _children(), 0.0, [pid]
    while todo:
        p = todo.pop()
        total += _rss(p)
        todo += children.get(p, [])
    return total


def kernels_rss_mb(pid: int) -> list[float]:
    "Each kernel's resident memory (the server's child processes), in MB."
    return [_rss(p) for p in _children().get(pid, [])]


# in each page: the wall-clock time (ms) its first calculator, tracker or players' view appeared
FIRST_WIDGET = """(() => {
  const seen = () => document.querySelector('.besm-calculator, .besm-tracker, .besm-players');
  const mark = () => { if (!window.besmFirstWidget && seen()) window.besmFirstWidget = performance.timeOrigin + performance.now(); };
  new MutationObserver(mark).observe(document, {childList: true, subtree: true, attributes: true});
})();"""


def settle(server_pid: int, quiet: float = 0.3, most_s: float = 600) -> float:
    "Wait until the server and its kernels use under `quiet` of a core (the kernel pools filled); the seconds it took."
    def cpu() -> float:
        children, total, todo = _children(), 0, [server_pid]
        while todo:
            p = todo.pop()
            try: total += sum(int(x) for x in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[11:13])
            except (OSError, ValueError): pass
            todo += children.get(p, [])
        return total / os.sysconf("SC_CLK_TCK")
    start, last = time.perf_counter(), cpu()
    while time.perf_counter() - start < most_s:
        time.sleep(5)
        now = cpu()
        if (now - last) / 5 < quiet: break
        last = now
    return time.perf_counter() - start


def crowd(browser, url: str, server_pid: int, sessions: int = 20, path: str | Sequence[str] = "/voila/render/dice_and_checks.ipynb",
          timeout_s: float = 240) -> Crowd:
    "Open `sessions` pages at once (each its own browser context, as separate people are); wait for each one's first widget. `path` may list a page per session."
    paths = [path] * sessions if isinstance(path, str) else list(path)[:sessions]
    contexts, pages, errors = [], [], []
    load = os.getloadavg()[0]
    start = time.perf_counter()
    for i, p in enumerate(paths):
        ctx = browser.new_context()
        ctx.add_init_script(FIRST_WIDGET)
        pg = ctx.new_page()
        pg.on("pageerror", lambda e, i=i: errors.append(f"session {i}: {e}"))
        contexts.append(ctx)
        t0 = time.time()  # as the person asks for the page: a server slow to answer counts too
        pg.goto(url + p, wait_until="commit")
        pages.append((pg, t0))
    loads = []
    for i, (pg, t0) in enumerate(pages):  # each page timed by itself (in the page), not when this loop gets to it
        left = max(1.0, timeout_s - (time.perf_counter() - start))
        try:
            pg.wait_for_function("() => window.besmFirstWidget", timeout=left * 1000, polling=200)
            loads.append(pg.evaluate("() => window.besmFirstWidget") / 1000 - t0)
        except Exception as e:  # a session that never showed its widget is a failure, counted, not a hang
            errors.append(f"session {i}: no widget within {timeout_s:.0f} s ({type(e).__name__})")
    rss, kernels = tree_rss_mb(server_pid), kernels_rss_mb(server_pid)
    for ctx in contexts: ctx.close()
    return Crowd(loads, errors, rss, kernels, load)


# -- devices with processors of their own: what each asks of the server, without a browser on the server's cores ----------
def _kernel_msg(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> str:
    import json, uuid
    return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "username": "", "session": session, "msg_type": msg_type,
                                  "version": "5.3", "date": ""},
                       "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell", "buffers": []})


async def visit(url: str, path: str, timeout_s: float = 240) -> float:
    """One device opening a Voila page, as the server sees it: the page, then what its widget manager asks over the kernel's
    websocket (the widgets' states). Seconds until the server has sent every state the page draws its first widget from."""
    from tornado.httpclient import AsyncHTTPClient
    t0 = time.perf_counter()
    page = (await AsyncHTTPClient(force_instance=True).fetch(url + path, request_timeout=timeout_s)).body.decode()
    return await states(url, kernel_of(page), t0, timeout_s)


def kernel_of(page: str) -> str:
    "The id of the kernel a Voila page was drawn by (from its HTML)."
    import re
    return re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)


async def states(url: str, kernel: str, t0: float, timeout_s: float = 240) -> float:
    "Connect to `kernel` as a page's widget manager does and ask for its widgets' states: the seconds from `t0` until they came."
    import asyncio, json, uuid
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect
    session, control = uuid.uuid4().hex, uuid.uuid4().hex
    ws = await websocket_connect(HTTPRequest(url.replace("http", "ws", 1) + f"/api/kernels/{kernel}/channels?session_id={session}",
                                             connect_timeout=timeout_s, request_timeout=timeout_s))
    ws.write_message(_kernel_msg("comm_info_request", {"target_name": "jupyter.widget"}, session))
    ws.write_message(_kernel_msg("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, session,
                                 {"version": "1.0.0"}))
    ws.write_message(_kernel_msg("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}, session))
    try:
        while True:
            m = await asyncio.wait_for(ws.read_message(), max(0.1, t0 + timeout_s - time.perf_counter()))
            if m is None: raise RuntimeError("the kernel's websocket closed")
            d = json.loads(m)
            if d.get("msg_type") == "comm_msg" and d["content"].get("data", {}).get("method") == "update_states":
                return time.perf_counter() - t0
    finally: ws.close()


def until(value, most_s: float):
    "`value()` once it is truthy, looked at again every 0.2 s; its last (falsy) answer after `most_s` seconds."
    deadline = time.time() + most_s
    while not (got := value()) and time.time() < deadline: time.sleep(0.2)
    return got


def off_loop(make):
    "The result of the coroutine `make()` gives, run in a thread of its own (a caller may run an event loop); its error raised here."
    import asyncio, threading
    out: list = []
    def run():
        try: out.append(asyncio.run(make()))
        except BaseException as err: out.append(err)
    t = threading.Thread(target=run); t.start(); t.join()
    if isinstance(out[0], BaseException): raise out[0]
    return out[0]


def visits(url: str, paths: Sequence[str]) -> list[float]:
    "`visit` each path at once (one device each): the seconds each took."
    import asyncio
    async def all_(): return await asyncio.gather(*(visit(url, p) for p in paths), return_exceptions=True)
    out = off_loop(all_)
    failed = [x for x in out if isinstance(x, BaseException)]
    if failed or len(out) != len(paths): raise RuntimeError(f"{len(failed)} of {len(paths)} visits failed: {failed[:1]!r}")
    return out


def phones(url: str, path: str, n: int, stop, out: list) -> None:
    "`n` players' phones on a light players' page: each asks for the page (its seconds go in `out`), then its data every second until `stop` is set, as a page behind (the whole answer)."
    import asyncio
    from tornado.httpclient import AsyncHTTPClient
    async def phone():
        c, t = AsyncHTTPClient(force_instance=True), time.perf_counter()
        await c.fetch(url + path, request_timeout=240)
        out.append(time.perf_counter() - t)
        while not stop.is_set():
            await asyncio.sleep(1)
            await c.fetch(url + path.replace("?", "/data?", 1) + "&since=behind", request_timeout=240)
    async def all_(): await asyncio.gather(*(phone() for _ in range(n)))
    asyncio.run(all_())
