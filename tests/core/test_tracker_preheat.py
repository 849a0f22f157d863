"""A page with several trackers in a kernel Voila preheated: only the first waits for the page (a second wait never ends)."""
import os

from besm_nb.ui import calc, tracker


def test_only_the_first_tracker_waits_for_the_page(monkeypatch):
    calls = []
    monkeypatch.setattr(calc, "_wait_for_request", lambda: calls.append(1))
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    tracker._await_page()
    tracker._await_page()  # a second tracker on the page, or one made when its tab opens
    assert calls == [1] and os.environ["VOILA_PREHEAT"] == "False"


def test_a_preheated_kernel_learns_its_page_from_voila_without_importing_it(monkeypatch):
    "The kernel asks Voila's query socket for the page's request, as voila.utils does, and sets what it says in the environment; Voila itself (and the Jupyter server under it, 3 s of work per kernel) is never imported."
    import asyncio, json, subprocess, sys, threading
    import websockets
    said = {"QUERY_STRING": "save=castle", "VOILA_REQUEST_URL": "http://127.0.0.1/voila/render/x.ipynb?save=castle"}
    ready, loop_box = threading.Event(), {}
    async def serve():
        async def answer(ws): await ws.send(json.dumps(said))
        async with websockets.serve(answer, "127.0.0.1", 0) as server:
            loop_box["port"] = server.sockets[0].getsockname()[1]; ready.set()
            await asyncio.Future()
    threading.Thread(target=lambda: asyncio.new_event_loop().run_until_complete(serve()), daemon=True).start()
    ready.wait(10)
    for k, v in {"VOILA_APP_PORT": str(loop_box["port"]), "VOILA_SERVER_URL": "/", "VOILA_KERNEL_ID": "k1"}.items(): monkeypatch.setenv(k, v)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    calc._wait_for_request()
    assert os.environ["QUERY_STRING"] == "save=castle" and os.environ["VOILA_REQUEST_URL"].endswith("?save=castle")
    # in a fresh interpreter, a tracker page's modules and the wait leave Voila and the Jupyter server unimported
    code = ("import sys; from besm_nb.ui import tracker; print(tracker.page_view(), "
            "sorted(m for m in ('voila', 'jupyter_server', 'jupyter_events') if m in sys.modules))")
    env = os.environ | {"VOILA_PREHEAT": "True"}
    said["QUERY_STRING"] = "view=players"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout.strip()
    assert out == "players []", out
