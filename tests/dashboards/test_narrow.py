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
            found = page.evaluate(OVERFLOW)
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
