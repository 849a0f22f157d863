"""Many sessions at once against one dashboards server: page-load times, errors, and the server's memory (shared by the load test and `make bench`)."""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Crowd:
    loads: list[float]  # seconds from page request to first widget, one per session
    errors: list[str]  # page errors and failed sessions
    rss_mb: float  # the server and its kernels, resident memory, with every session open

    @property
    def p50(self) -> float: return statistics.median(self.loads)

    @property
    def p95(self) -> float: return sorted(self.loads)[max(0, round(0.95 * len(self.loads)) - 1)]


def tree_rss_mb(pid: int) -> float:
    "Resident memory of a process and all its descendants (Linux /proc), in MB."
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parts = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(parts[1]), []).append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"): total += int(line.split()[1])
        except OSError:
            pass
        todo += children.get(p, [])
    return total / 1024


def crowd(browser, url: str, server_pid: int, sessions: int = 20, path: str = "/voila/render/dice_and_checks.ipynb",
          timeout_s: float = 240) -> Crowd:
    "Open `sessions` pages at once (each its own browser context, as separate people are); wait for each one's first widget."
    contexts, pages, errors = [], [], []
    start = time.perf_counter()
    for i in range(sessions):
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.on("pageerror", lambda e, i=i: errors.append(f"session {i}: {e}"))
        contexts.append(ctx)
        pg.goto(url + path, wait_until="commit")
        pages.append((pg, time.perf_counter()))
    loads = []
    for i, (pg, t0) in enumerate(pages):
        left = max(1.0, timeout_s - (time.perf_counter() - start))
        try:
            pg.locator(".besm-calculator, .besm-tracker").first.wait_for(timeout=left * 1000)
            loads.append(time.perf_counter() - t0)
        except Exception as e:  # a session that never showed its widget is a failure, counted, not a hang
            errors.append(f"session {i}: no widget within {timeout_s:.0f} s ({type(e).__name__})")
    rss = tree_rss_mb(server_pid)
    for ctx in contexts: ctx.close()
    return Crowd(loads, errors, rss)
