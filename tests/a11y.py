"""The accessibility audit the browser tests share: axe-core (pinned, from npm into .vendor/tools by docs/build.py's
`tools`, never part of the site) run in a Playwright page, its violations grouped by impact."""
import functools
import importlib.util
import json

from tests.helpers import ROOT


@functools.lru_cache(maxsize=1)
def build_module():
    "docs/build.py, imported as a module (it pins and installs the test tools)."
    spec = importlib.util.spec_from_file_location("besm_site_build", ROOT / "docs" / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=1)
def axe_source() -> str:
    """axe-core's script, wrapped so that it sets `window.axe` even on a page with an AMD loader (the site's require.js
    would otherwise take its anonymous `define` calls, and complain)."""
    js = (build_module().tools() / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    return f"(function (define, module, exports) {{\n{js}\n}})();"


# axe leaves WCAG 2.2's target size (24 px, or room around) off by default: AA asks for it
WCAG22 = {"target-size": {"enabled": True}}
IMPACTS = ("critical", "serious", "moderate", "minor")


def axe_violations(pg,  # a Playwright page, loaded and settled
                   rules: dict | None = None,  # axe rules turned on or off by id, besides WCAG 2.2's target size (see WCAG22)
                  ) -> dict[str, list[dict]]:
    """axe-core's violations on the page as it stands, by impact (critical, serious, moderate, minor): each as its rule,
    what it asks, and up to five of the elements at fault (their selectors and axe's summary)."""
    rules = WCAG22 | (rules or {})
    if not pg.evaluate("typeof window.axe !== 'undefined'"):
        pg.add_script_tag(content=axe_source())
    found = pg.evaluate("""async (rules) => {
        const r = await axe.run(document, {resultTypes: ['violations'], rules});
        return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
            nodes: v.nodes.slice(0, 5).map((n) => ({target: n.target.join(' '), summary: (n.failureSummary || '').slice(0, 300),
                                                    html: n.html.slice(0, 200)}))}));
    }""", rules)
    out = {k: [] for k in IMPACTS}
    for v in found: out.setdefault(v["impact"] or "minor", []).append(v)
    return out


def counts(violations: dict[str, list[dict]]) -> dict[str, int]:
    "How many elements fail, by impact (the audit table's figures)."
    return {k: sum(v["count"] for v in vs) for k, vs in violations.items()}


def describe(violations: dict[str, list[dict]], impacts=("critical", "serious")) -> str:
    "The violations of these impacts, one rule a line with its elements: what a failing test prints."
    lines = []
    for k in impacts:
        for v in violations.get(k, []):
            lines.append(f"{k}: {v['id']} ({v['count']}): {v['help']}")
            lines += [f"    {n['target']}: {n['summary'][:200]!r} {n['html'][:120]!r}" for n in v["nodes"]]
    return "\n".join(lines)


def summary(violations: dict[str, list[dict]]) -> str:
    "Rule ids and element counts by impact, on one line (the audit table)."
    return json.dumps({k: {v["id"]: v["count"] for v in vs} for k, vs in violations.items() if vs})


QUIET = """([selector, quiet, most]) => new Promise((done) => {
  const start = performance.now(); let last = start;
  const seen = new MutationObserver(() => { last = performance.now(); });
  document.querySelectorAll(selector).forEach((e) => seen.observe(e, {subtree: true, childList: true, characterData: true, attributes: true}));
  const tick = () => { const t = performance.now();
    if (t - last >= quiet || t - start >= most) { seen.disconnect(); done(); } else setTimeout(tick, 25); };
  tick(); })"""


def still(pg, selector: str, quiet_ms: int, most_ms: int) -> None:
    "Wait until what `selector` finds has not changed for `quiet_ms` (`most_ms` at most): a page's widgets arrive one update at a time."
    pg.evaluate(QUIET, [selector, quiet_ms, most_ms])


def settle(pg, quiet_ms: int = 800, within_ms: int = 60_000) -> None:
    "Wait until the page's elements stop changing for `quiet_ms` (a dashboard draws its cells as its kernel runs them)."
    still(pg, "body", quiet_ms, within_ms)


def skipped_levels(found: dict) -> list[str]:
    "Headings that go down two levels at once (axe's heading-order, a moderate fault Lighthouse counts): a widget's H4 under an H2."
    return [n["html"] for vs in found.values() for v in vs if v["id"] == "heading-order" for n in v["nodes"]]


def audit(pg) -> dict:
    found = axe_violations(pg)
    print(f"{pg.url}: {summary(found)}")
    return found
