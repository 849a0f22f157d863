"""A page follows the autosave from the kernel's event loop: it looks about every second while the widget lives, stops
when the widget is closed, and never runs where no loop runs; the players' view is asked for with `?view=players`."""
import asyncio
from concurrent.futures import ThreadPoolExecutor

from besm_nb.ui import tracker
from besm_nb.ui.calc import html_text


def run_loop(coro):
    "Run a coroutine on a loop of its own, in a thread of its own: a browser test's Playwright may hold this thread's loop."
    with ThreadPoolExecutor(1) as pool: return pool.submit(asyncio.run, coro).result()


async def until(holds, most_s: float = 10) -> None:
    "Wait until `holds()` (looked at every 10 ms, `most_s` at most): a busy machine runs the loop late, never wrong."
    for _ in range(int(most_s * 100)):
        if holds(): return
        await asyncio.sleep(0.01)


def test_follow_runs_on_the_loop_and_stops_when_closed():
    async def main():
        seen, w = [], html_text()
        task = tracker.follow(w, lambda: seen.append(1), every=0.01)
        await until(lambda: len(seen) >= 3)
        looked = len(seen)
        w.close()
        await until(task.done)
        return task.done(), looked, len(seen)
    done, looked, after = run_loop(main())
    assert done and looked >= 3 and after <= looked + 1


def test_follow_keeps_looking_after_a_failed_look():
    async def main():
        seen, w = [], html_text()
        def look():
            seen.append(1)
            if len(seen) == 1: raise ValueError("a file mid-change")
        tracker.follow(w, look, every=0.01)
        await until(lambda: len(seen) >= 3)
        w.close()
        return len(seen)
    assert run_loop(main()) >= 3


def test_no_loop_no_polling():
    with ThreadPoolExecutor(1) as pool:  # a thread where no loop runs
        assert pool.submit(tracker.follow, html_text(), lambda: None).result() is None


def test_page_view_reads_the_query_string(monkeypatch):
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    for query, want in (("view=players", "players"), ("a=1&view=players", "players"), ("view=playersx", "gm"), ("", "gm")):
        monkeypatch.setenv("QUERY_STRING", query)
        assert tracker.page_view() == want, query
