"""A page with several trackers in a kernel Voila preheated: only the first waits for the page (a second wait never ends)."""
import os

import pytest

voila_utils = pytest.importorskip("voila.utils")

from besm_nb.ui import tracker


def test_only_the_first_tracker_waits_for_the_page(monkeypatch):
    calls = []
    monkeypatch.setattr(voila_utils, "wait_for_request", lambda: calls.append(1))
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    tracker._await_page()
    tracker._await_page()  # a second tracker on the page, or one made when its tab opens
    assert calls == [1] and os.environ["VOILA_PREHEAT"] == "False"
