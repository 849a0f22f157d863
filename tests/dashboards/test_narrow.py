"""Every dashboard at a phone's width (400 px): the page never scrolls sideways, nothing runs off the edge, every
button and tab title shows its whole label; tabbed dashboards are checked tab by tab."""
import pytest

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


def measured(page) -> dict:
    "The check once two readings 300 ms apart agree: a tab just opened lays its widgets out over several frames."
    found = page.evaluate(OVERFLOW)
    for _ in range(20):
        page.wait_for_timeout(300)
        again = page.evaluate(OVERFLOW)
        if again == found: return found
        found = again
    return found


@pytest.mark.parametrize("name", DASHBOARDS)
def test_dashboard_fits_400_px(browser, dashboards_url, name):
    ctx = browser.new_context(viewport={"width": 400, "height": 900})
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{dashboards_url}/voila/render/{name}", timeout=120_000)
        page.wait_for_function("!document.body.innerText.includes('Loading widget') && "
                               "(document.querySelectorAll('.jupyter-widgets').length > 0 || !document.querySelector('#rendered_cells .jp-OutputArea-output'))",
                               timeout=120_000)
        tabs = page.get_by_role("tab")
        for i in range(max(1, tabs.count())):
            if tabs.count(): tabs.nth(i).click(); page.wait_for_timeout(400)
            found = measured(page)
            where = f"{name}" + (f", tab {tabs.nth(i).inner_text()!r}" if tabs.count() else "")
            assert found["page"] <= 400, f"{where}: the page is {found['page']} px wide"
            assert found["bad"] == [], f"{where}: runs off the edge: {found['bad']}"
            assert found["cut"] == [], f"{where}: buttons cut short: {found['cut']}"
        assert errors == [], errors
    finally:
        ctx.close()


def test_the_check_sees_overflow_and_cut_labels(browser, dashboards_url):
    "Not vacuous: a row that runs off the edge and a button too narrow for its label are both reported."
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
# the page's widgets all drawn: none still loading, and as many as a second ago
SETTLED = """() => { const n = document.querySelectorAll('#rendered_cells .jupyter-widgets').length + ':' + document.body.innerText.length;
  const ok = n === window._besmSeen && n !== '0:0' && !document.body.innerText.includes('Loading widget');
  if (n !== window._besmSeen) { window._besmSeen = n; window._besmSince = Date.now(); }
  return ok && Date.now() - window._besmSince > 1500; }"""
FOLDS = ".lm-AccordionPanel-title, .jupyter-widget-Collapse-header"
OPEN = "e => e.classList.contains('lm-mod-expanded') || e.parentElement.classList.contains('jupyter-widget-Collapse-open')"


@pytest.mark.timeout(900)  # every dashboard, tab and fold at two widths: minutes on a busy 2-core machine
def test_every_dropdown_shows_its_chosen_option(browser, dashboards_url):
    "At 1366 and 400 px, on every dashboard and tab with its folds opened one by one, no dropdown's chosen option is cut short."
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    offenders, seen = [], 0
    def look(where):
        nonlocal seen
        found = page.evaluate(DROPDOWNS)
        seen += page.locator("#rendered_cells .widget-dropdown select:visible").count()
        for b in found:
            line = (f"{where}: {b['label']!r} shows {b['text']!r}: needs {b['need']} px, has {b['have']}"
                    + (f"; reaches past {b['past']} (right edge {b['right']})" if b["past"] else ""))
            if not any(line.split(": needs")[0] == o.split(": needs")[0] for o in offenders): offenders.append(line)
    try:
        # not vacuous: a box too narrow for its option, and one running off the screen, are both reported
        page.goto(f"{dashboards_url}/voila/render/index.ipynb", timeout=180_000)
        page.locator("#rendered_cells").wait_for(state="visible", timeout=120_000)
        page.evaluate("""() => document.querySelector('#rendered_cells').insertAdjacentHTML('beforeend',
            '<div class="widget-dropdown" style="width:90px"><select style="width:90px"><option>a long option, cut short</option></select></div>' +
            '<div class="widget-dropdown" style="margin-left:1500px"><select><option>x</option></select></div>')""")
        assert [(b["text"], b["past"]) for b in page.evaluate(DROPDOWNS)] == [("a long option, cut short", None), ("x", "the screen")]
        for name in DASHBOARDS:
            page.set_viewport_size({"width": 1366, "height": 900})
            page.goto(f"{dashboards_url}/voila/render/{name}", timeout=180_000)
            page.wait_for_function(SETTLED, timeout=120_000, polling=250)
            for width, height in ((1366, 900), (400, 800)):
                page.set_viewport_size({"width": width, "height": height})
                tabs = page.get_by_role("tab")
                for i in range(max(1, tabs.count())):
                    tab = ""
                    if tabs.count():
                        if not tabs.nth(i).is_visible(): continue
                        tabs.nth(i).click(); page.wait_for_timeout(300); tab = f", tab {tabs.nth(i).inner_text()!r}"
                    where = f"{name}{tab} at {width} px"
                    look(where)
                    folds, j = page.locator(FOLDS), -1
                    while (j := j + 1) < folds.count():  # an accordion shows one fold at a time: each is opened in turn (a fold may hold more)
                        f = folds.nth(j)
                        if not f.is_visible() or f.evaluate(OPEN): continue
                        f.click(); page.wait_for_timeout(300)
                        look(where)
        print(f"{seen} dropdowns looked at; cut short or running past their box: {len(offenders)}", *offenders, sep="\n")
        assert seen > 50 and offenders == [], "\n".join(offenders)
    finally:
        ctx.close()
