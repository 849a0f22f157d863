"""Links that reopen a calculator: every calculator's inputs written into a link and read back give the same inputs and
the same answer; a link's bad values are refused field by field, naming the field, while the good ones apply."""
from __future__ import annotations

import asyncio
import importlib
import os
import inspect
import pkgutil
from functools import lru_cache
from html import escape, unescape
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import besm_nb.ui
from besm_nb.dice import InputError
from besm_nb.ui.calc import (LINK_TEXT_MAX, Calculator, _choices, _token, link_html, link_key, link_kind, link_values,
                             parse_link, read_link, tabs, text_field, int_field)

TRACKERS = ("tracker", "ledger", "page", "panel_of")  # makers of stateful boxes: not what links reopen


def calculators_in(w) -> list[Calculator]:
    found, todo = [], [w]
    while todo:
        x = todo.pop(0)
        if isinstance(x, Calculator): found.append(x)
        todo += list(getattr(x, "children", ()))
    return found


@lru_cache(maxsize=None)
def makers() -> dict[str, tuple]:
    "Every calculator the package makes, by key: (module, function, index of the calculator in what it makes)."
    out: dict[str, tuple] = {}
    for m in pkgutil.walk_packages(besm_nb.ui.__path__, "besm_nb.ui."):
        if m.name.endswith((".serve", ".live", ".tracker")): continue
        mod = importlib.import_module(m.name)
        for name, fn in sorted(vars(mod).items()):
            if name.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != mod.__name__ or any(t in name for t in TRACKERS): continue
            sig = inspect.signature(fn)
            if any(p.default is p.empty and p.kind is not p.VAR_KEYWORD and p.kind is not p.VAR_POSITIONAL for p in sig.parameters.values()): continue
            if "Calculator" not in str(sig.return_annotation) and not name.endswith(("_box", "calculator", "builder", "planner", "panel")): continue
            try: made = fn()
            except Exception: continue
            for i, c in enumerate(calculators_in(made)):
                out.setdefault(c.key, (m.name, name, i))
                TITLES.setdefault(c.key, set()).add(c.children[0].value)
    return out


TITLES: dict[str, set] = {}  # each key's calculators' titles, as found


def make(key: str) -> Calculator:
    mod, name, i = makers()[key]
    return calculators_in(getattr(importlib.import_module(mod), name)())[i]


def test_every_calculator_is_found_and_named_apart():
    keys = makers()
    assert len(keys) >= 45, sorted(keys)  # every stateless calculator of every wing
    for key in ("dice-box", "hit-dodge", "attack-resolver", "vehicle-damage-resolver", "action-planner", "damage-save-odds"):
        assert key in keys
    assert {k: len(t) for k, t in TITLES.items() if len(t) > 1} == {}  # two calculators with one key could share a page and mix their links
    for key in keys:
        c = make(key)
        for f in c.fields:
            kind = link_kind(f.widget)  # every input can be written in a link
            if kind in ("choice", "ticks"):
                tokens = [_token(v) for v in _choices(f.widget)]
                assert len(set(tokens)) == len(tokens), (key, f.name, tokens)  # each choice written apart
                assert kind == "choice" or "" not in tokens, (key, f.name)  # a tick field's '' means none ticked


def test_link_keys():
    assert link_key("Hit and dodge (Tri-Stat)") == "hit-dodge"
    assert link_key("Sheltering behind a comrade's shield") == "sheltering-behind-comrades"
    assert link_key("Experience award (Anime d20, Table 12-10)") == "experience-award"
    assert link_key("2d6 roll-under (Tri-Stat)") == "2d6-roll-under"
    assert link_key("(only brackets)") == "calculator"


def value_for(data, w):
    kind = link_kind(w)
    if kind == "flag": return data.draw(st.booleans())
    if kind == "whole": return data.draw(st.integers(-5, 60) | st.sampled_from([w.value, 0, 1, 10**9]))
    if kind == "number": return data.draw(st.floats(-1e7, 1e7, allow_nan=False) | st.just(w.value))
    if kind == "text": return data.draw(st.text(max_size=20) | st.sampled_from([w.value, "2d6+3", "a&b=c #1 +2%"]))
    opts = _choices(w)
    if kind == "choice": return data.draw(st.sampled_from(opts))
    picked = data.draw(st.sets(st.sampled_from(opts), max_size=4)) if opts else set()
    return tuple(v for v in opts if v in picked)


@pytest.mark.parametrize("key", sorted(makers()))
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_a_link_reopens_the_same_inputs_and_answer(key, data):
    c = make(key)
    with c.setting():
        for f in c.fields:  # in order, as a person would: a choice may change what a later input offers
            if data.draw(st.booleans()): f.widget.value = value_for(data, f.widget)
    query = c.link_query()
    again = make(key)
    assert again.open_link(query) == {}, query
    assert again.values == c.values, query
    assert (again.output.value, again.message.value) == (c.output.value, c.message.value)
    assert again.link_query() == query  # the reopened calculator links to itself
    for k in parse_link(query): assert k == "tab" or k.startswith(key + "."), k  # never another calculator's parameters


def test_only_inputs_changed_are_written():
    c = make("hit-dodge")
    assert c.link_query() == ""
    c.fields[0].widget.value = 9
    assert c.link_query() == "hit-dodge.acv=9"
    c.fields[0].widget.value = c._defaults["acv"][0][0] and int(c._defaults["acv"][0][0])
    assert c.link_query() == ""


BAD = {"flag": "yes", "whole": "1.5", "number": "1e999", "choice": "no such choice", "ticks": "no such choice"}


@pytest.mark.parametrize("key", sorted(makers()))
def test_a_tampered_link_is_refused_field_by_field(key):
    c = make(key)
    labels = {f.name: f.title for f in c.fields}
    for f in c.fields:
        kind = link_kind(f.widget)
        bad = BAD.get(kind, "x" * (LINK_TEXT_MAX + 1))
        with pytest.raises(InputError) as e:
            read_link(f, [bad])
        assert e.value.param == f.name and str(e.value).startswith(f.name + ": ")  # a ValueError naming the field
        if kind != "ticks":
            with pytest.raises(InputError): read_link(f, link_values(f.widget) * 2)  # given twice
    # on screen: each bad value beside its own input, in the calculator's words; the good values still apply
    good, bad_fields = (c.fields[0], c.fields[1:4]) if len(c.fields) > 1 else (None, c.fields)
    parts = [f"{key}.{f.name}={BAD.get(link_kind(f.widget), 'x' * 600)}".replace(" ", "+") for f in bad_fields]
    if good is not None:
        scratch = make(key)
        want = another(scratch.fields[0].widget)
        scratch.fields[0].widget.value = want
        parts += [urlencode([(f"{key}.{good.name}", v)]) for v in parse_link(scratch.link_query())[f"{key}.{good.name}"]]
    fresh = make(key)
    refused = fresh.open_link("&".join(parts + [f"{key}.no_such_input=1", "other-calculator.x=1"]))
    assert set(refused) == {f.name for f in bad_fields} | {""}, refused
    if good is not None: assert fresh.values[good.name] == want
    for f in bad_fields:
        shown = next(g for g in fresh.fields if g.name == f.name).error.value
        assert "⚠ " in shown and escape(labels[f.name]) in shown, (f.name, shown)
    assert "no_such_input" in fresh.message.value and "other-calculator" not in fresh.message.value
    changed = next(g for g in fresh.fields if g.name == bad_fields[0].name)
    changed.widget.value = another(changed.widget)
    assert "the link" not in changed.error.value  # the input changed since: its refusal goes


def another(w):
    "A value of the widget other than its own."
    kind = link_kind(w)
    if kind == "flag": return not w.value
    if kind == "whole": return w.value + 1
    if kind == "number": return w.value + 1.0
    if kind == "text": return w.value + "1"
    opts = _choices(w)
    if kind == "choice": return next(v for v in opts if v != w.value)
    return () if w.value else (opts[0],)


def test_whole_links_refused_and_rule_messages():
    c = make("hit-dodge")
    assert c.open_link("hit-dodge.acv=" + "9" * 9000) == {"": "Link: over 8000 characters; nothing was taken from it"}
    assert "over 8000 characters" in c.message.value
    c = make("hit-dodge")
    assert c.open_link("hit-dodge.acv=99") == {}  # a number the link carries; the rule's own limit speaks beside the field
    assert c.values["acv"] == 99 and "⚠ " in c.fields[0].error.value and "link" not in c.fields[0].error.value
    with pytest.raises(ValueError): parse_link("&".join(["a=1"] * 500))


def test_ticks_and_choices_read_back():
    c = make("attack-resolver")
    rows = next(f for f in c.fields if f.name == "rows")
    assert read_link(rows, [""]) == ()
    offered = _choices(rows.widget)
    assert read_link(rows, [_token(offered[2]), _token(offered[0])]) == (offered[0], offered[2])  # in the order offered
    tiny = Calculator("Tiny", [int_field("n", "N", 1, 0, 5), text_field("s", "S", "")], lambda n, s: None.x)
    assert read_link(tiny.fields[0], ["-3"]) == -3 and read_link(tiny.fields[1], ["a&b"]) == "a&b"
    html = link_html("k.s=a%26b")
    assert 'href="?k.s=a%26b"' in html and "Copy link" in html


def test_tabs_open_the_tab_a_link_names(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "tab=second&hit-dodge.acv=9")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    t = tabs({"First": make("dice-box"), "Second": lambda: make("hit-dodge")})
    assert t.selected_index == 1
    c = calculators_in(t.children[1])[0]
    assert c.values["acv"] == 9 and c.link_query() == "tab=second&hit-dodge.acv=9"
    assert calculators_in(t.children[0])[0].link_query() == "tab=first"


def test_a_tracker_link_opens_the_named_save_inside_the_saves_folder_only(tmp_path, monkeypatch):
    from besm_nb.ui.anime_d20.damage import wounds_tracker
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    t = wounds_tracker(saves=tmp_path)
    t.fields["amount"].widget.value = 12; t.buttons["Damage"].click()
    t.save_as.value = "table one"; t.save_button.click()
    saved = t.state()
    assert 'href="?save=table+one"' in t.save_link.value and "Copy link" in t.save_link.value  # beside the Saved list
    t.fields["amount"].widget.value = 5; t.buttons["Damage"].click()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path.parent / "outside.json").write_text((tmp_path / "table one.json").read_text())
    monkeypatch.setenv("QUERY_STRING", "save=table+one")
    other = wounds_tracker(saves=tmp_path)  # another screen opens the link: the save, which Undo takes back
    assert other.state() == saved
    assert "Opened 'table one' from its link" in unescape(other.load_button._besm_message.value)
    assert "history.replaceState" in other.load_button._besm_message.value  # a reload then carries on the game
    other.undo_button.click()
    assert other.state() != saved
    for bad in ("../outside", "/etc/passwd", "elsewhere", "nope", "table+one&save=x", "autosave-wounds", "a" * 100):
        monkeypatch.setenv("QUERY_STRING", "save=" + bad)
        before = t.state()
        w = wounds_tracker(saves=tmp_path)
        message = w.load_button._besm_message.value
        assert "⚠ Link: " in message and "nothing was opened" in message, (bad, message)
        assert w.state() == before  # the game on screen is kept
    assert t.open_linked_save("view=players") is False  # a link naming no save changes nothing


def test_a_kernel_voila_preheated_sets_the_inputs_once_the_page_is_asked_for(monkeypatch):
    from besm_nb.ui import calc
    monkeypatch.setenv("VOILA_PREHEAT", "True")  # made before anyone asked for the page: its address is not known yet
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.setattr(calc, "await_page", lambda: None)  # Voila's own wait: the test hands the address over itself
    async def main():
        c = make("hit-dodge")
        t = tabs({"First": make("dice-box"), "Second": lambda: make("what-defence-is")})
        await asyncio.sleep(0.2)
        before = (c.values["acv"], t.selected_index)
        os.environ["QUERY_STRING"] = "tab=second&hit-dodge.acv=11&what-defence-is.acv=3"  # as Voila does once the page is asked for
        os.environ["VOILA_PREHEAT"] = "False"
        await asyncio.sleep(0.3)
        return before, c.values["acv"], t.selected_index, calculators_in(t.children[1])[0].values["acv"]
    assert asyncio.run(main()) == ((8, 0), 11, 1, 3)
    assert calc._waiting == []


def test_the_site_hands_the_page_address_to_the_calculators_it_makes(monkeypatch):
    "What the site's worker does (live-worker.js): the page's `location.search` first, then each calculator cell."
    from besm_nb.ui import calc, live
    monkeypatch.setitem(calc._page, "query", None)
    monkeypatch.setenv("VOILA_PREHEAT", "True")  # never read on the site: the page's own address is
    calc.set_page_query("?hit-dodge.acv=12&hit-dodge.dcv=x")
    w = live.run_cell("besm_nb.ui.tristat.combat", "", "attack_calculator()")
    assert live.is_live(w) and w.values["acv"] == 12 and w.values["dcv"] == 5
    assert "the link gives &#x27;x&#x27;, not a whole number" in w.fields[2].error.value


def test_a_link_to_the_second_check_calculator_shows_it(monkeypatch):
    from besm_nb.ui.checks import LINK_KEYS, checks_box, d20_calculator, tristat_calculator
    assert (tristat_calculator().key, d20_calculator().key) == LINK_KEYS
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("QUERY_STRING", "d20-against-dc.dc=20")
    box = checks_box()
    assert box.children[1].key == "d20-against-dc" and box.children[1].values["dc"] == 20
    monkeypatch.setenv("QUERY_STRING", "2d6-roll-under.target=9")
    box = checks_box()
    assert box.children[1].key == "2d6-roll-under" and box.children[1].values["target"] == 9


def test_a_save_link_from_a_tab_opens_that_tab_and_the_save(tmp_path, monkeypatch):
    from besm_nb.ui.anime_d20.damage import wounds_tracker
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.delenv("QUERY_STRING", raising=False)
    t = tabs({"Skill check": make("dice-box"), "Wounds": lambda: wounds_tracker(saves=tmp_path)})
    t.selected_index = 1
    w = t.children[1].children[0]
    w.fields["amount"].widget.value = 12; w.buttons["Damage"].click()
    w.save_as.value = "castle"; w.save_button.click()
    saved = w.state()
    assert 'href="?tab=wounds&amp;save=castle"' in w.save_link.value
    monkeypatch.setenv("QUERY_STRING", "tab=wounds&save=castle")
    again = tabs({"Skill check": make("dice-box"), "Wounds": lambda: wounds_tracker(saves=tmp_path)})
    assert again.selected_index == 1 and again.children[1].children[0].state() == saved


def test_one_wait_for_the_page_whoever_asks_first(monkeypatch):
    "Voila answers one wait per kernel (a second never ends): a calculator's wait and a tracker's share it."
    import threading
    from besm_nb.ui import calc, tracker
    calls, gate = [], threading.Event()
    monkeypatch.setattr(calc, "_wait_for_request", lambda: (calls.append(1), gate.wait(5)))
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("QUERY_STRING", "view=players")
    first = threading.Thread(target=calc.await_page); first.start()  # a calculator's thread, waiting
    views = []
    second = threading.Thread(target=lambda: views.append(tracker.page_view())); second.start()  # a tracker, waiting its turn
    gate.set(); first.join(5); second.join(5)
    assert calls == [1] and views == ["players"] and os.environ["VOILA_PREHEAT"] == "False"
    monkeypatch.setenv("QUERY_STRING", "view=" + "x" * 9000)
    assert tracker.page_view() == "gm"  # a link too long for anything is the GM's page
