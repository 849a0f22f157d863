"""Every dashboard as first drawn, audited by axe-core (WCAG 2.2 AA) at 1280 x 900: no critical and no serious violation.
Every dashboard at a phone's width (400 px): the page never scrolls sideways, nothing runs off the edge, every button and
tab title shows its whole label; tabbed dashboards are checked tab by tab. Every dropdown, at 1366 and 400 px, shows its
chosen option whole. Each dashboard is opened once for all three (the audit first, on the page as it opens), and each
check made once the page is drawn (a lazily made tab too: a fixed pause could look at its 'Opening…' and see nothing)."""
import pytest

from tests.a11y import audit, describe, settle, skipped_levels
from tests.dashboards.kit import OPENING, quiet, resize
from tests.helpers import ROOT

pytestmark = pytest.mark.browser
DASHBOARDS = sorted(p.name for p in (ROOT / "nbs" / "dashboards").glob("*.ipynb"))

OVERFLOW = """() => {
  const W = document.documentElement.clientWidth, bad = [];
  const root = document.querySelector('#rendered_cells');
  // a box of its own that scrolls (a wide table) is fine; the page or its cells container scrolling sideways is not
  const inScroller = el => { for (let p = el.parentElement; p && p !== root; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  for (const el of document.querySelectorAll('#rendered_cells *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest('.lm-TabBar, .p-TabBar')) continue;
    if ((r.right > W + 1 || r.left < -1) && !inScroller(el)) bad.push(`${el.tagName}.${el.className}: ${(el.innerText || el.value || '').slice(0, 40)}`);
  }
  const cut = [...document.querySelectorAll('#rendered_cells button, #rendered_cells a.jupyter-button, #rendered_cells .lm-TabBar-tabLabel')]
      .filter(b => b.offsetParent && (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 2 && getComputedStyle(b).overflow === 'hidden'))
      .map(b => b.innerText);
  const page = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, root.scrollWidth - root.clientWidth + W);
  return {page, bad: bad.slice(0, 8), cut};
}"""


# the check once it reads the same in two animation frames running, with no widget loading and no tab still being made
STEADY = """() => { if ((""" + OPENING + """)(document.body)) { window.besmLast = null; return false; }
  const found = (""" + OVERFLOW + """)(), key = JSON.stringify(found);
  const same = key === window.besmLast; window.besmLast = key; return same && found; }"""


def measured(page) -> dict:
    "The check once the page is drawn and two readings a frame apart agree: a tab just opened lays its widgets out over several frames."
    page.evaluate("() => { window.besmLast = null; }")
    return page.wait_for_function(STEADY, polling="raf", timeout=60_000).json_value()


@pytest.fixture(scope="module")
def narrow(browser):
    "One browser context for the module's pages."
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture(scope="module", params=DASHBOARDS)
def dashboard(request, narrow, dashboards_url):
    """Each dashboard opened once, for every check made on it here: its audit, its fit at 400 px, then its dropdowns at 1366
    and 400 px (pytest runs the tests of one dashboard together, in this file's order, then closes its page)."""
    page = narrow.new_page()
    page.name, page.errors = request.param, []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{dashboards_url}/voila/render/{request.param}", timeout=180_000)
    quiet(page, "#rendered_cells", timeout=120_000)
    yield page
    page.close()


def test_dashboard_has_no_critical_or_serious_violation(dashboard):
    "The page as it opens (no tab or fold touched yet), at a laptop's size."
    page = dashboard
    resize(page, 1280, 900)
    settle(page, quiet_ms=1500)
    found = audit(page)
    assert not found["critical"] and not found["serious"], describe(found)
    assert not skipped_levels(found), skipped_levels(found)


def test_dashboard_fits_400_px(dashboard):
    page, name = dashboard, dashboard.name
    resize(page, 400, 900)
    tabs = page.get_by_role("tab")
    for i in range(max(1, tabs.count())):
        if tabs.count(): tabs.nth(i).click()
        found = measured(page)
        where = f"{name}" + (f", tab {tabs.nth(i).inner_text()!r}" if tabs.count() else "")
        assert found["page"] <= 400, f"{where}: the page is {found['page']} px wide"
        assert found["bad"] == [], f"{where}: runs off the edge: {found['bad']}"
        assert found["cut"] == [], f"{where}: buttons cut short: {found['cut']}"
    assert page.errors == [], page.errors


def test_the_check_sees_overflow_and_cut_labels(browser, dashboards_url):
    "Not vacuous: a row that runs off the edge and a button too narrow for its label are both reported; so are faults the audit looks for."
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{dashboards_url}/voila/render/index.ipynb", timeout=120_000)
        page.locator("#rendered_cells").wait_for(state="visible", timeout=120_000)
        page.evaluate("""() => { const c = document.querySelector('#rendered_cells');
            c.insertAdjacentHTML('beforeend', '<div style="width:700px;height:10px">wide</div>' +
              '<button style="width:40px;overflow:hidden;white-space:nowrap">Next round</button>'); }""")
        found = page.evaluate(OVERFLOW)
        assert any("wide" in b for b in found["bad"]) and found["cut"] == ["Next round"], found
        # the audit too: a box with no name (critical) and grey on grey (serious) are found
        page.evaluate("""() => document.querySelector('#rendered_cells').insertAdjacentHTML('afterbegin',
            '<input type="text"><p style="color:#777;background:#888">grey on grey</p>')""")  # in view: axe reads colours there
        found = audit(page)
        assert "label" in {v["id"] for v in found["critical"]} and "color-contrast" in {v["id"] for v in found["serious"]}, describe(found)
    finally:
        ctx.close()


# every shown dropdown: the chosen option's words fit its closed box, and the box stays inside its boxes and the screen
DROPDOWNS = """() => {
  const W = document.documentElement.clientWidth, root = document.querySelector('#rendered_cells'), bad = [];
  const ctx = document.createElement('canvas').getContext('2d');
  for (const d of root.querySelectorAll('.widget-dropdown')) {
    const s = d.querySelector('select');
    if (!s || !s.getClientRects().length || s.selectedIndex < 0) continue;
    const cs = getComputedStyle(s), text = s.options[s.selectedIndex].text;
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const pad = Math.max(24, parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth));
    const need = Math.ceil(ctx.measureText(text).width + pad), have = s.offsetWidth;
    const label = (d.querySelector('.widget-label')?.innerText || '').trim(), r = d.getBoundingClientRect();
    let past = null;
    if (r.right > W + 1) past = 'the screen';
    for (let p = d.parentElement; !past && p && p !== root; p = p.parentElement)
      if (p.getBoundingClientRect().right < r.right - 1) past = `its box ${p.className.split(' ').filter(c => c.startsWith('besm')).join('.') || p.tagName}`;
    if (need > have || past) bad.push({label, text, need, have, past, right: Math.round(r.right)});
  }
  return bad;
}"""
FOLDS = ".lm-AccordionPanel-title, .jupyter-widget-Collapse-header"
OPEN = "e => e.classList.contains('lm-mod-expanded') || e.parentElement.classList.contains('jupyter-widget-Collapse-open')"


SEEN: dict[str, int] = {}  # dropdowns looked at, by dashboard: the sweep is not vacuous (see the last test)


def test_the_dropdown_check_sees_cut_options(browser, dashboards_url):
    "Not vacuous: a box too narrow for its option, and one running off the screen, are both reported."
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{dashboards_url}/voila/render/index.ipynb", timeout=180_000)
        page.locator("#rendered_cells").wait_for(state="visible", timeout=120_000)
        page.evaluate("""() => document.querySelector('#rendered_cells').insertAdjacentHTML('beforeend',
            '<div class="widget-dropdown" style="width:90px"><select style="width:90px"><option>a long option, cut short</option></select></div>' +
            '<div class="widget-dropdown" style="margin-left:1500px"><select><option>x</option></select></div>')""")
        assert [(b["text"], b["past"]) for b in page.evaluate(DROPDOWNS)] == [("a long option, cut short", None), ("x", "the screen")]
    finally:
        ctx.close()


def test_every_dropdown_shows_its_chosen_option(dashboard):
    "At 1366 and 400 px, on every tab with its folds opened one by one, no dropdown's chosen option is cut short."
    page, name = dashboard, dashboard.name
    offenders, seen = [], 0
    def look(where):
        nonlocal seen
        quiet(page, "#rendered_cells")  # a tab or fold just opened is drawn
        found = page.evaluate(DROPDOWNS)
        seen += page.locator("#rendered_cells .widget-dropdown select:visible").count()
        for b in found:
            line = (f"{where}: {b['label']!r} shows {b['text']!r}: needs {b['need']} px, has {b['have']}"
                    + (f"; reaches past {b['past']} (right edge {b['right']})" if b["past"] else ""))
            if not any(line.split(": needs")[0] == o.split(": needs")[0] for o in offenders): offenders.append(line)
    for width, height in ((1366, 900), (400, 800)):
        resize(page, width, height)
        tabs = page.get_by_role("tab")
        for i in range(max(1, tabs.count())):
            tab = ""
            if tabs.count():
                if not tabs.nth(i).is_visible(): continue
                tabs.nth(i).click(); tab = f", tab {tabs.nth(i).inner_text()!r}"
            where = f"{name}{tab} at {width} px"
            look(where)
            folds, j = page.locator(FOLDS), -1
            while (j := j + 1) < folds.count():  # an accordion shows one fold at a time: each is opened in turn (a fold may hold more)
                f = folds.nth(j)
                if not f.is_visible() or f.evaluate(OPEN): continue
                f.click()
                look(where)
    SEEN[name] = seen
    print(f"{name}: {seen} dropdowns looked at; cut short or running past their box: {len(offenders)}", *offenders, sep="\n")
    assert offenders == [], "\n".join(offenders)


def test_the_dropdown_sweep_looked_at_dropdowns():
    "Not vacuous: over every dashboard, the sweep looked at more than 50 dropdowns (it runs after them; alone it has nothing to count)."
    if set(SEEN) != set(DASHBOARDS): pytest.skip("the dropdown sweep did not run on every dashboard in this session")
    assert sum(SEEN.values()) > 50, SEEN
