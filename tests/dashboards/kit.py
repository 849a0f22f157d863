"""What every tracker dashboard must do in a real browser: survive a reload, undo across rounds, save through the
browser and by name (inside the saves folder only), and refuse a corrupt upload without losing the game."""
from __future__ import annotations

import json
import re
from typing import Callable

from playwright.sync_api import expect

from tests.a11y import still
from tests.helpers import assert_beside


def settled(page, t, marker: Callable[[object], str], want: str, seconds: float = 20) -> bool:
    "Whether the tracker's state shows `want` within `seconds` (looked at every 100 ms: widget updates arrive one by one)."
    for _ in range(int(seconds * 10)):
        if marker(t) == want: return True
        page.wait_for_timeout(100)
    return marker(t) == want


def drawn(page) -> None:
    "Wait until the latest change is laid out and drawn: two animation frames (Lumino lays out its tabs and folds in the first)."
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def resize(page, width: int, height: int) -> None:
    "The page at `width` x `height`, once the window has that size and its new layout is drawn."
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height], timeout=30_000)
    drawn(page)


# still being drawn: a widget Voila has not yet handed to the widget manager (its output still a script), a widget
# loading, or a tab still being made (a tab given as a function shows 'Opening…' until then)
OPENING = """e => [...document.querySelectorAll('script[type="application/vnd.voila.cell-output+json"]')]
    .some(s => s.textContent.includes('application/vnd.jupyter.widget-view+json'))
  || e.innerText.includes('Loading widget')
  || [...e.querySelectorAll('.widget-html-content')].some(h => h.offsetWidth > 0 && h.innerText.trim() === 'Opening…')"""
QUIET = """root => { const e = document.querySelector(root); if (!e) return false;
  if ((""" + OPENING + """)(e)) { window.besmQuiet = null; return false; }
  const r = e.getBoundingClientRect();  // what a widget drawn, or laid out again by Lumino, changes
  const now = [e.getElementsByTagName('*').length, e.innerText.length, r.width, r.height, document.documentElement.scrollWidth].join(':');
  const same = now === window.besmQuiet; window.besmQuiet = now; return same; }"""


def quiet(page, root: str = "body", timeout: float = 60_000) -> None:
    """Wait until the part at `root` is drawn in full: every widget handed to the widget manager, none loading, no tab
    opening, and the same elements, words and size in two animation frames running (Lumino lays out in the next frame)."""
    page.evaluate("() => { window.besmQuiet = null; }")
    page.wait_for_function(QUIET, arg=root, polling="raf", timeout=timeout)


def answered(t) -> None:
    """Wait until every update of the actions played on the tracker so far has arrived: a refused save name is sent after
    them, and the kernel answers one message at a time, so once its refusal shows, they have all come. The refusal is
    cleared on the page first (only a fresh answer counts); it changes nothing in the game. The tracker has one Saves row
    (the roster part in its set-up has its own controls and messages, named besm-roster-…): its box, button and message."""
    for part in (".besm-save-name input", "button.besm-save", ".besm-save-message"):
        expect(t.locator(part)).to_have_count(1)
    said = t.locator(".besm-save-message .widget-html-content")
    said.evaluate("e => { e.textContent = ''; }")
    settle(t.page)  # the page follows the last action first: it scrolls, and a click could land beside the Save button
    t.locator(".besm-save-name input").fill("../answered")
    t.locator("button.besm-save").click()
    expect(said).to_contain_text("File name: use letters", timeout=30_000)


def fresh(t) -> None:
    """Start the tracker afresh with its New button, waited for (the history line says 'New …' once the blank game is
    drawn): the checks never build on what another test left on the shared server. A page behind another screen is
    refused and caught up first; New is then pressed again."""
    said = t.locator(".besm-history-message .widget-html-content").first
    for _ in range(3):
        said.evaluate("e => { e.textContent = ''; }")  # only a fresh answer counts
        t.locator("button.besm-new").first.click()
        expect(said).to_contain_text(re.compile(r"New \w+\.|Not done"), timeout=30_000)
        if said.inner_text().strip().startswith("New "): return
    raise AssertionError(f"New was refused three times: {said.inner_text()}")


def steps_are(t, undo: int, redo: int | None = None) -> None:
    "Wait until the tracker's history line counts `undo` steps to undo (and `redo` to redo)."
    want = rf"(^|\D){undo} steps to undo" + (f", {redo} to redo" if redo is not None else "")
    expect(t.locator(".besm-history").first).to_contain_text(re.compile(want), timeout=30_000)


def undo(t, times: int = 1) -> int:
    """Undo `times` actions, each one waited for (its message counts the steps left: set after the tracker has redrawn);
    the steps left to undo."""
    said = t.locator(".besm-history-message").first
    left = None
    for _ in range(times):
        t.locator("button.besm-undo").first.click()
        if left is None:  # the first: no Undone message shows before it (every action clears the messages)
            expect(said).to_contain_text("Undone (", timeout=30_000)
            left = int(re.search(r"Undone \((\d+) more", said.inner_text()).group(1))
        else:
            left -= 1
            expect(said).to_contain_text(f"Undone ({left} more steps to undo)", timeout=30_000)
    return left


def draft_kept(saves, want: Callable[[dict], bool], seconds: float = 60) -> None:
    "Wait until a half-made declaration kept in the saves folder satisfies `want` (given the draft's data): a reload before it is written would lose it."
    import time
    from pathlib import Path
    end, seen = time.time() + seconds, {}
    while True:
        for f in Path(saves).glob("autosave-*-draft.json"):
            try: data = json.loads(f.read_text(encoding="utf-8"))["data"]
            except (OSError, ValueError, KeyError): continue  # mid-write: looked at again
            if want(data): return
            seen[f.name] = data
        if time.time() > end: raise AssertionError(f"no draft in {saves} came to hold the declaration on screen; they hold {seen}")
        time.sleep(0.2)


FOLLOWED = """() => [...document.querySelectorAll('.besm-play-box')].every(b => {
  const s = b.querySelector('.besm-follow-step'); return !s || +(b.dataset.followed || 0) >= +s.dataset.step; })"""


def settle(page, quiet_ms: int = 0) -> None:
    """Wait until the page has followed play to the card: it scrolls, and moves the focus there; a click meanwhile could land
    elsewhere. With `quiet_ms`, first until the play area has been still that long (2 s at most): the step that tells the page
    to follow comes last of an action's updates, and a test that saw an earlier one could act before it arrives."""
    if quiet_ms: still(page, ".besm-play-box", quiet_ms, 2_000)
    try: page.wait_for_function(FOLLOWED, timeout=5_000)
    except Exception: pass  # a page that never followed (opened on a game already under way) has nothing pending
    page.wait_for_function(FOLLOWING, timeout=30_000)


FOLLOWING = "() => !document.querySelector('.besm-play-box[data-following]')"  # none about to move the page


def check_tracker_kit(page, url: str,  # the dashboard's address
                      tracker_selector: str,  # the tracker on the page (several widgets may be there)
                      step: Callable[[object], None],  # plays one action on the tracker
                      next_round: Callable[[object], None] | None,  # ends the round (undo must reach across it), if it has rounds
                      marker: Callable[[object], str],  # the text that shows the tracker's state
                      kind: str,  # the save document's kind
                      open_tab: Callable[[object], None] = lambda page: None,  # brings the tracker into view
                     ) -> None:
    page.goto(url, timeout=120_000)
    open_tab(page)
    t = page.locator(tracker_selector).first
    t.wait_for(timeout=60_000)
    message = lambda cls: t.locator(f".{cls}").first

    fresh(t)
    quiet(page, tracker_selector)  # the blank game drawn in full (its set-up unfolded): a fold clicked before would shut again
    step(t)
    if next_round: next_round(t)
    answered(t)
    after = marker(t)

    # a reload carries on where it was
    page.reload(timeout=120_000)
    open_tab(page)
    t = page.locator(tracker_selector).first
    t.wait_for(timeout=60_000)
    t.locator(".besm-history", has_text="steps to undo").first.wait_for(timeout=30_000)
    assert settled(page, t, marker, after), (marker(t), after)
    expect(message("besm-history-message")).to_contain_text("Resumed", timeout=30_000)

    # undo reaches back across the round, and redo comes forward again
    back = 2 if next_round else 1
    left = undo(t, back)
    steps_are(t, left, back)
    assert settled(page, t, lambda t: str(marker(t) != after), "True"), "undo changed nothing"
    for i in range(back):
        t.locator("button.besm-redo").click()
        steps_are(t, left + i + 1, back - i - 1)  # each redo waited for: counted on the history line
    t.locator(".besm-history-message", has_text="Redone").first.wait_for(timeout=30_000)
    settle(page)  # redo moved play on: the page follows it before anything else is clicked
    assert settled(page, t, marker, after)

    # Download, then a corrupt upload (refused beside the control, the game kept), then the download uploaded back
    answered(t)  # the redo's updates all in, the download link among them: a click is never on a link being replaced
    with page.expect_download() as dl:
        t.locator("a.besm-download-link").click()
    saved = json.loads(open(dl.value.path(), encoding="utf-8").read())
    assert (saved["format"], saved["kind"]) == ("besm_nb", kind)
    def upload(name: str, content: bytes) -> None:
        with page.expect_file_chooser() as chooser:
            t.locator(".besm-upload").first.click()
        chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": content}])
    upload("broken.json", b"{not json")
    err = t.locator(".besm-file-message", has_text="not a readable save file").first
    err.wait_for(timeout=30_000)
    assert_beside(t.locator(".besm-upload").first, err)
    assert marker(t) == after
    t.locator("button.besm-undo").click()  # something else on screen, so the upload visibly brings the save back
    t.locator(".besm-history-message", has_text="Undone").first.wait_for(timeout=30_000)
    settle(page)  # undo moved play back: the page follows it before the upload is clicked
    upload("mine.json", json.dumps(saved).encode())
    t.locator(".besm-file-message", has_text="Loaded mine.json").first.wait_for(timeout=30_000)
    assert settled(page, t, marker, after)  # the message and the redrawn state are separate updates
    settle(page)  # the upload moved play on: the page follows it before the name is typed

    # saves by name stay inside the saves folder
    name = t.locator(".besm-save-name input").first
    name.fill("../x")
    t.locator("button.besm-save").click()
    err = t.locator(".besm-save-message", has_text="File name: use letters").first
    err.wait_for(timeout=30_000)
    assert_beside(name, err)
    name.fill("table one")
    t.locator("button.besm-save").click()
    t.locator(".besm-save-message", has_text="Saved as").first.wait_for(timeout=30_000)
    offered = lambda t: [o.replace("\xa0", " ").strip() for o in t.locator(".besm-saved select option").all_inner_texts()]
    assert settled(page, t, lambda t: str("table one" in offered(t)), "True"), offered(t)  # the list shows names, not files
    assert all(not o.endswith(".json") and len(o) < 40 for o in offered(t)), offered(t)  # backups by when they were kept
    assert page.errors == [], page.errors


# -- the play layout: shared checks for every tracker laid out with `Tracker.play_layout` ----------------------------------
TOP = "() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; window.scrollTo(0, 0); }"
BOX = """s => { const e = [...document.querySelectorAll(s)].find(e => e.getClientRects().length);
  if (!e) return null; const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"""
PLAY_PARTS = {"order of play": ".besm-order", "odds": ".besm-odds-panel", "Resolve": "button.besm-resolve"}


def first_screen(page, parts: dict[str, str] = PLAY_PARTS) -> dict[str, dict]:
    "Where each part sits on the page scrolled to its top: its box in the first screen's coordinates (None if not shown)."
    page.evaluate(TOP)
    return {name: page.evaluate(BOX, sel) for name, sel in parts.items()}


def check_first_screen(page, parts: dict[str, str] = PLAY_PARTS, height: int = 900) -> dict[str, tuple[int, int]]:
    "Every part ends within the first screen (`height` px); returns (top, bottom) of each, for the report."
    boxes = first_screen(page, parts)
    for name, b in boxes.items():
        assert b is not None, f"{name} is not on the page"
        assert b["bottom"] <= height, f"{name} ends at {b['bottom']:.0f} px, below the first {height} px"
    return {name: (round(b["top"]), round(b["bottom"])) for name, b in boxes.items()}


def current(page, root: str = ".besm-order") -> str | None:
    "The side whose turn it is, as the order of play (or the players' view) marks it."
    return page.evaluate("r => document.querySelector(`${r} .besm-current`)?.dataset.name ?? null", root)


# -- numbers at arm's length: shared checks for any dashboard, at any width -------------------------------------------------
CHART_CHECK = """() => {
  const bad = [], small = [];
  for (const chart of document.querySelectorAll('.besm-chart')) {
    if (!chart.getClientRects().length) continue;
    const c = chart.getBoundingClientRect();
    const labels = [...chart.querySelectorAll('span')].filter(s => s.childElementCount === 0 && s.innerText.trim());
    const boxes = labels.map(s => [s, s.getBoundingClientRect()]);
    for (const [s, r] of boxes) {
      if (parseFloat(getComputedStyle(s).fontSize) < 12) small.push(s.innerText);
      if (r.left < c.left - 16 || r.right > c.right + 16) bad.push('outside: ' + s.innerText);
      if (s.scrollWidth > s.clientWidth + 1 && getComputedStyle(s).overflow === 'hidden') bad.push('clipped: ' + s.innerText);
    }
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, ra] = boxes[i], [b, rb] = boxes[j];
      if (ra.left < rb.right - 1 && rb.left < ra.right - 1 && ra.top < rb.bottom - 1 && rb.top < ra.bottom - 1)
        bad.push(`overlap: ${a.innerText} / ${b.innerText}`);
    }
  }
  return {charts: document.querySelectorAll('.besm-chart').length, bad: bad.slice(0, 6), small: small.slice(0, 6)};
}"""
WIDE_CHECK = """() => [...document.querySelectorAll('.widget-html-content table')]
  .filter(t => t.getClientRects().length && t.scrollWidth > t.clientWidth + 1)
  .map(t => ({first: t.rows[0]?.cells[0]?.innerText ?? '', cue: getComputedStyle(t).backgroundAttachment}))"""


def check_readable(page) -> dict:
    "Every chart's labels at least 12 px, none overlapping or clipped; every table wider than its box shows the shadow saying more scrolls in."
    charts = page.evaluate(CHART_CHECK)
    assert charts["bad"] == [] and charts["small"] == [], charts
    wide = page.evaluate(WIDE_CHECK)
    assert all(t["cue"] == "local, local, scroll, scroll" for t in wide), wide
    return {"charts": charts["charts"], "wide tables": len(wide)}


# -- foes on the players' view: one check for every tracker that marks foes ---------------------------------------------------
HIDDEN, BARS = "foes' names only (and who is out)", "foes as bars, without numbers"  # the set-up's words
SETUP_TITLE = ".besm-setup .lm-AccordionPanel-title, .besm-setup .jupyter-widget-Collapse-header"
SETUP_PANELS = ".besm-setup .lm-AccordionPanel, .besm-setup .widget-accordion-content"
FOLDED = "s => ![...document.querySelectorAll(s)].some(e => e.getClientRects().length)"


def setup_folds(page, when: str) -> None:
    "Wait for the set-up to fold away as play starts: among an action's last updates, after the order of play's."
    try: page.wait_for_function(FOLDED, arg=SETUP_PANELS, timeout=30_000)
    except Exception: raise AssertionError(f"the set-up should fold away once {when}") from None


def check_foes(browser, url: str,  # the dashboard's address
               prepare: Callable[[object], object],  # opens a fresh tracker on the page and sets it up; returns the tracker
               tick: str,  # the words of the foe's tick box
               foe: str, friend: str,  # the foe's and a friend's names in the order of play
               play: Callable[[object, object], None],  # (page, tracker): plays on into the fight
               shots: str | None = None,  # a folder for screenshots of both pages at both widths
               name: str = "tracker",  # the screenshots' names start with it
              ) -> None:
    "The GM ticks a foe and hides foes' numbers, then plays: the GM's order of play marks the foe with its bars; the players' view shows it without bars while the friend keeps its numbers; switched to bars, the foe's bars come back without numbers."
    from pathlib import Path
    ctx, ctx_p = browser.new_context(viewport={"width": 1366, "height": 900}), browser.new_context(viewport={"width": 400, "height": 800})
    errors = []
    try:
        page, p = ctx.new_page(), ctx_p.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        t = prepare(page)
        t.locator(".besm-foe-pick label", has_text=tick).locator("input").check()
        t.locator(".besm-foes-message", has_text="follows this setting").wait_for(timeout=30_000)
        t.locator(".besm-show-foes select").select_option(label=HIDDEN)
        play(page, t)
        gm = t.locator(f".besm-order .besm-side[data-name='{foe}']")
        expect(gm.locator(".besm-foe-mark")).to_have_text("foe", timeout=30_000)
        expect(gm.locator(".besm-bar").first).to_contain_text(" / ")  # the GM sees every number
        p.goto(url + "?view=players", timeout=180_000)
        them, us = (p.locator(f".besm-players .besm-side[data-name='{n}']") for n in (foe, friend))
        us.wait_for(timeout=120_000)
        expect(us.locator(".besm-bar").first).to_contain_text(" / ", timeout=30_000)
        expect(them).to_be_visible()
        expect(them.locator(".besm-foe-mark")).to_have_count(0)  # the players' page is theirs: no marks of the GM's
        expect(them.locator(".besm-bar")).to_have_count(0, timeout=30_000)
        if shots:
            page.screenshot(path=str(Path(shots) / f"{name}-gm-1366.png"))
            p.screenshot(path=str(Path(shots) / f"{name}-players-400.png"), full_page=True)
            resize(page, 400, 800)
            t.locator(".besm-order").first.scroll_into_view_if_needed()
            page.screenshot(path=str(Path(shots) / f"{name}-gm-400.png"))
            resize(page, 1366, 900)
        t.locator(SETUP_TITLE).first.click()  # the set-up folded away as play began: reopened, its choices are there still
        choice = t.locator(".besm-show-foes select")
        choice.scroll_into_view_if_needed(timeout=30_000)
        choice.select_option(label=BARS)
        expect(them.locator(".besm-bar")).not_to_have_count(0, timeout=30_000)
        expect(them.locator(".besm-bar").first).not_to_contain_text(" / ")
        if shots:
            t.locator(".besm-foe-pick").scroll_into_view_if_needed()
            page.screenshot(path=str(Path(shots) / f"{name}-gm-setup-1366.png"))
            resize(p, 1366, 900)
            p.screenshot(path=str(Path(shots) / f"{name}-players-bars-1366.png"))
        assert errors == [], errors
    finally:
        ctx.close(); ctx_p.close()


# -- every control can be clicked: nothing lies over it ----------------------------------------------------------------------
CONTROLS = ("button, input:not([type=hidden]):not([type=file]), select, textarea, .widget-toggle-button, "
            ".widget-checkbox input, .jupyter-widgets [role=button], [contenteditable=true]")
COVERED = """async ([root, controls]) => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));  // the layout of the latest change drawn
  const bad = [], seen = [];
  const name = el => ((el.closest('.widget-inline-hbox, .widget-checkbox, .jupyter-widgets')?.innerText || el.innerText || el.value
                       || el.getAttribute('aria-label') || el.className || el.tagName) + '').trim().replace(/\\s+/g, ' ').slice(0, 50);
  const what = el => !el ? 'nothing (off the screen)' : `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')} `
                     + `"${(el.innerText || '').trim().replace(/\\s+/g, ' ').slice(0, 40)}"`;
  for (const area of document.querySelectorAll(root)) {
    if (!area.getClientRects().length) continue;
    for (const el of area.querySelectorAll(controls)) {
      if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      // a box that clips without scrolling can be scrolled by a script, never by a person: such a move is reported
      const clips = [], shut = o => o === 'hidden' || o === 'clip';
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (shut(s.overflowX) || shut(s.overflowY)) clips.push([p, p.scrollLeft, p.scrollTop, shut(s.overflowX), shut(s.overflowY)]);
      }
      el.scrollIntoView({block: 'center', inline: 'center'});
      const moved = clips.filter(([p, x, y, sx, sy]) => (sx && p.scrollLeft !== x) || (sy && p.scrollTop !== y));
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      seen.push(name(el));
      if (moved.length) bad.push(`${name(el)}: clipped by ${what(moved[0][0])}, a box that does not scroll`);
      else if (!(hit && (hit === el || el.contains(hit)))) bad.push(`${name(el)}: a click at its centre lands on ${what(hit)}`);
      for (const [p, x, y] of moved) { p.scrollLeft = x; p.scrollTop = y; }
    }
  }
  return {seen, bad};
}"""


def check_clickable(page,
                    root: str = ".besm-play",  # the play area(s) whose controls are checked (hidden ones are skipped)
                    controls: str = CONTROLS,  # what counts as a control
                   ) -> list[str]:
    "Every visible control in the play area receives a real click at its centre: scrolled into view, the element at that point is the control or inside it. Returns the controls looked at."
    found = page.evaluate(COVERED, [root, controls])
    assert found["seen"], f"no visible control in {root}: the check would be empty"
    assert found["bad"] == [], "\n".join(found["bad"])
    return found["seen"]


# -- the GM screen: what a GM needs in view at every step of a round ---------------------------------------------------------
SCREEN = """async ([w, h]) => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const shown = s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
  const box = e => { if (!e) return null; const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width}; };
  const bar = shown('.besm-gm-screen .besm-resolve-bar')[0];
  const small = [];
  if (w < 1000) for (const e of shown('.besm-gm-screen :is(.besm-card, .besm-resolve-bar, .besm-play-head) :is(button, select, input:not([type=checkbox]):not([type=radio])), '
                                     + '.besm-gm-screen :is(.besm-chips .widget-checkbox label, .besm-segmented .widget-radio-box label)')) {
    const r = e.getBoundingClientRect();
    if (r.height < 43.5 || (e.tagName !== 'INPUT' && e.tagName !== 'SELECT' && r.width < 43.5)) small.push(`${(e.innerText || e.value || e.tagName).trim().slice(0, 30)} ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return {acting: box(shown('.besm-gm-screen .besm-order .besm-current')[0]), card: box(shown('.besm-gm-screen .besm-card')[0]), bar: box(bar),
          barPosition: bar ? getComputedStyle(bar).position : null,
          buttons: shown('.besm-gm-screen .besm-resolve-bar button').filter(b => !b.disabled).map(b => [b.innerText.trim(), box(b)]),
          odds: box(shown('.besm-gm-screen .besm-resolve-bar .besm-odds-line')[0]), small,
          focus: document.activeElement && document.activeElement.closest('.besm-card, .besm-resolve-bar') ? 'card' : (document.activeElement?.tagName || '')};
}"""


def check_play_screen(page, width: int, height: int,  # the viewport
                      step: str,  # what was just done, for the message
                      focus: bool = True,  # the page has just followed play: focus is on the card
                     ) -> dict:
    """The GM screen at one step of a round, as the page left it (no scrolling by the test): the acting side in the order of
    play (on a wide screen), the whole card with its choices, the odds and the bar's buttons lie within the viewport; on a
    phone the bar is fixed at the bottom, the card takes at most one screen and every target is 44 px or more; and every
    control of the play area receives a real click at its centre. Returns the boxes, for the report."""
    settle(page)  # a follow still to come (the step's update came with the others) would move the page after the check
    s = page.evaluate(SCREEN, [width, height])
    where = f"{step} at {width}x{height}"
    assert s["card"] is not None and s["bar"] is not None, f"{where}: no card or no bar on screen: {s}"
    inside = lambda b: b is not None and b["top"] >= -1 and b["bottom"] <= height + 1
    assert inside(s["bar"]), f"{where}: the bar is not within the screen: {s['bar']}"
    assert s["odds"] is None or inside(s["odds"]), f"{where}: the odds are off the screen: {s['odds']}"
    assert s["buttons"] and all(inside(b) for _, b in s["buttons"]), f"{where}: a button of the bar is off the screen: {s['buttons']}"
    if width >= 1000:
        assert s["acting"] is None or inside(s["acting"]), f"{where}: the acting side is off the screen: {s['acting']}"  # None: everyone has acted
        assert inside(s["card"]), f"{where}: the card is not all on the screen: {s['card']}"
    else:
        assert s["barPosition"] == "fixed", f"{where}: the bar is not fixed at the bottom: {s['barPosition']}"
        if focus: assert -1 <= s["card"]["top"] < height, f"{where}: the page did not follow to the card: {s['card']}"  # else a person may have scrolled
        assert s["card"]["height"] <= height, f"{where}: the card takes more than one screen: {s['card']}"
        assert s["small"] == [], f"{where}: targets under 44 px: {s['small']}"
    if focus: assert s["focus"] == "card", f"{where}: focus is not on the card ({s['focus']})"
    return {k: (round(v["top"]), round(v["bottom"])) for k, v in s.items() if isinstance(v, dict)}


def followed(page, width: int, height: int, step: str) -> dict:
    "After an action that moves play on: wait for the page to follow (focus into the card), then check the screen and every control."
    last = getattr(page, "besm_followed", 0)  # the step this page was last seen following: the next one is newer
    page.wait_for_function("last => [...document.querySelectorAll('.besm-gm-screen')].some(b => +(b.dataset.followed || 0) > last)",
                           arg=last, timeout=30_000)
    page.besm_followed = page.evaluate("() => Math.max(...[...document.querySelectorAll('.besm-gm-screen')].map(b => +(b.dataset.followed || 0)))")
    boxes = check_play_screen(page, width, height, step)
    clickable_in_place(page)
    return boxes


KEEP_SCROLL = "() => { window.__besmScroll = [...document.querySelectorAll('*')].filter(e => e.scrollTop || e.scrollLeft).map(e => [e, e.scrollTop, e.scrollLeft]); }"
PUT_SCROLL = "() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; for (const [e, t, l] of window.__besmScroll || []) { e.scrollTop = t; e.scrollLeft = l; } }"


def clickable_in_place(page, root: str = ".besm-gm-screen .besm-play") -> list[str]:
    "`check_clickable` on the play area, the page then scrolled back to where it was (the next step is looked at as the page left it)."
    page.evaluate(KEEP_SCROLL)
    try: return check_clickable(page, root)
    finally: page.evaluate(PUT_SCROLL)


# -- choices at one tap ----------------------------------------------------------------------------------------------------
def choose(root, label: str) -> None:
    "Tap one toggle of a row of one-tap choices (`segmented`) or of toggles (`TickPicker(chips=True)`), by its words; it is then on."
    choice = root.get_by_label(label, exact=True)
    choice.check()
    expect(choice).to_be_checked()
