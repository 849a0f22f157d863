"""What the tests share beyond fixtures: the project root, the source texts beside it, and locating dashboard fields."""
import ast
import functools
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"  # the source texts sit beside the project, never inside it


def seed_text(name: str) -> str:
    "The text of one source file, or skip the test where the sources are not beside the project."
    path = SEEDS / name
    if not path.is_file(): pytest.skip(f"the source text {name} is not beside the project ({SEEDS})")
    return path.read_text(encoding="utf-8")


def words(text: str) -> list[str]:
    "The words of a text, lower case, curly apostrophes straightened."
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


RUN = 7  # seven words in a row of a source text is a copy
SMALL_WORDS = {"a", "an", "and", "or", "of", "the", "to", "in", "on", "at", "for", "with", "by", "per", "vs"}


@functools.lru_cache(maxsize=None)
def _seed_runs(seed: str, run: int) -> frozenset:
    "Every run of `run` words in a source text (read once per test session)."
    sw = words(seed_text(seed))
    return frozenset(tuple(sw[i:i + run]) for i in range(len(sw) - run + 1))


def carried_over(run: list[str]) -> bool:
    """Whether a run of words (as written) is what carries over from a source rather than its wording: numbers and table
    rows (two numbers or more in the run), or names (of tables, columns, rules, classes, formulas' terms: every word
    capitalised, a number, or a small word such as 'and' or 'of', as in "Table A-10: Epic Save and Epic Attack Bonuses")."""
    if sum(w[0].isdigit() for w in run) >= 2: return True  # a number, with or without its unit: 16, 66mm, 21st
    return all(w[0].isupper() or w[0].isdigit() or w.lower() in SMALL_WORDS for w in run) and any(w[0].isupper() for w in run)


TITLE_WORDS = 15  # a title or a table's label is a short line; a longer one is a sentence


def _caps(token: str) -> bool:
    "Whether a word is printed in capitals (a title's word in a text that sets its titles in capitals)."
    t = token.strip("()[],;\"'")
    return any(c.isalpha() for c in t) and not any(c.islower() for c in t)


@functools.lru_cache(maxsize=None)
def seed_titles(seed: str) -> frozenset:
    """The titles of a source text and its tables' labels, each as its words: a short line standing alone (a section's
    or a table's title, a column's heading, a row's label: a cell of a table printed with tabs or bars counts as a line,
    with the cell it runs on into) that does not end as a sentence, a list item or a lead-in does, nor is a piece of a sentence wrapped over lines
    (it, or the line after it, starts in lower case); and every run of two words or more printed in
    capitals (a text printed as one paragraph sets its titles so: "WEAPON FIRE FROM A MOVING VEHICLE OR HOWDAH - Apply")."""
    lines = seed_text(seed).replace("\xa0", " ").splitlines()
    goes_on = lambda cell: cell.lstrip("([\"'")[:1].islower()  # a wrapped sentence's next line starts in lower case
    cells = []
    for line in lines:
        row = []
        for c in (c.strip() for c in re.split(r"[\t|]", line)):
            if c and row and goes_on(c): row[-1] += " " + c  # a label run on into the next column: "...in a<tab>single round"
            elif c: row.append(c)
        cells += row
    titles = set()
    for cell, after in zip(cells, cells[1:] + [""]):
        w = words(cell)
        if (0 < len(w) <= TITLE_WORDS and not cell.endswith((".", ":", ";", ",", "?")) and not cell.startswith(("•", "-", "*", "("))
                and not goes_on(cell) and not goes_on(after)):
            titles.add(tuple(w))
    for line in lines:
        caps = []
        for token in line.split() + [""]:  # the empty word closes the last run
            if _caps(token): caps.append(token); continue
            if 2 <= len(caps) <= TITLE_WORDS: titles.add(tuple(words(" ".join(caps))))
            caps = []
    return frozenset(titles)


def _in_a_title(low: list[str], seed: str, run: int) -> set[int]:
    "Where a run of `run` words starts inside one of the source's titles, cited whole (all its words, in order)."
    inside = set()
    for title in seed_titles(seed):
        n = len(title)
        if n < run: continue
        for s in range(len(low) - n + 1):
            if tuple(low[s:s + n]) == title: inside.update(range(s, s + n - run + 1))
    return inside


def pasted_runs(text: str, seed: str, run: int = RUN) -> list[str]:
    """Every run of `run` words of `text` that also stands in the source `seed`, leaving out what carries over from a
    source: numbers, tables and names (`carried_over`), and a title or a table's label cited whole, in any case
    (`seed_titles`: the guide cites a source by its section). A run that reaches past the title into the words around
    it counts. Quotation marks do not make a run our own: a reading note names the words it reads with fewer than
    seven of them, or in its own."""
    grams = _seed_runs(seed, run)
    w = re.findall(r"[A-Za-z0-9']+", text.replace("\u2019", "'"))
    low = [x.lower() for x in w]
    hits = [j for j in range(len(w) - run + 1) if tuple(low[j:j + run]) in grams and not carried_over(w[j:j + run])]
    titled = _in_a_title(low, seed, run) if hits else set()
    return [" ".join(low[j:j + run]) for j in hits if j not in titled]


def prose_pasted(page: Path, seed: str) -> list[str]:
    "The runs of a notebook's prose (its markdown cells) pasted from the source."
    return [r for c in json.loads(page.read_text())["cells"] if c["cell_type"] == "markdown"
            for r in pasted_runs("".join(c["source"]), seed)]


# -- the own-words check, for code as well as prose ------------------------------------------------------------
WING_SEEDS = {  # each wing of the package and the source text it states in its own words
    "besm_d20": "000_f9e715c2d04899ab.txt", "tristat": "001_063e398a02278088.txt", "anime_d20": "002_33214d3f36acad19.txt",
    "special": "003_f3673ce212f5243c.txt", "encounters": "004_f60d15258c3531be.txt",
}


def code_texts(source: str) -> list[tuple[int, str, bool]]:
    """What a reader meets in Python code, each with its line and whether it is a cell of a table: docstrings and every
    other string literal (a message on screen is one; an f-string's literal parts are read one by one, its placeholders
    break a run) and comments (docments). A table cell is a plain literal inside a tuple, list, set or dict display."""
    tree = ast.parse(source)
    cells = {id(n) for t in ast.walk(tree) if isinstance(t, (ast.Tuple, ast.List, ast.Set, ast.Dict)) for n in ast.walk(t)}
    parts = {id(n) for j in ast.walk(tree) if isinstance(j, ast.JoinedStr) for n in ast.walk(j)}
    out = [(n.lineno, n.value, id(n) in cells and id(n) not in parts) for n in ast.walk(tree)
           if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    out += [(t.start[0], t.string.lstrip("#|"), False) for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type == tokenize.COMMENT]
    return sorted(out)


def table_cell(text: str, seed: str) -> bool:
    """Whether a text is a source table's cell carried over whole: one of the source's titles or labels (`seed_titles`),
    or, in a table printed as running text, a row's words right after its number ("-2 a horse or mule at a walk -3"),
    up to the next number or comma. A sentence of the source's prose put in a table is still a copy."""
    w = words(text)
    if not 0 < len(w) <= 15: return False
    if tuple(w) in seed_titles(seed): return True
    row = r"[^a-z0-9']+".join(map(re.escape, w))  # the words as printed, whatever stands between them
    after_a_number = r"(?:^|\s)[-+\u2212]?\d[\w./]*\s+" + row + r"(?=\s*(?:,|\s[-+\u2212]?\d|$))"
    return re.search(after_a_number, _seed_raw(seed), re.I | re.M) is not None


@functools.lru_cache(maxsize=None)
def _seed_raw(seed: str) -> str:
    return seed_text(seed).replace("\xa0", " ").replace("\u2019", "'")


def code_pasted(source: str, seed: str, where: str = "") -> list[str]:
    """The runs of a piece of Python's docstrings, literals and comments pasted from the source, as 'where:line: run'.
    A table's cell taken whole from the source (a row's label, a column's heading) carries over, as tables do."""
    out = []
    for line, text, cell in code_texts(source):
        runs = pasted_runs(text, seed)
        if runs and not (cell and table_cell(text, seed)): out += [f"{where}:{line}: {r}" for r in runs]
    return out


def _exported(cell: dict) -> bool:
    "Whether a notebook cell goes into the package (then its module is checked instead, with the module's lines)."
    return bool(re.search(r"^#\|\s*export", "".join(cell["source"]), re.M))


def notebook_pasted(page: Path, seed: str) -> list[str]:
    "The runs of a notebook pasted from the source: its prose, and the code cells that stay on the page (strings, comments)."
    out = []
    for i, c in enumerate(json.loads(page.read_text())["cells"]):
        text, where = "".join(c["source"]), f"{page.relative_to(ROOT)} cell {i} ({c.get('id')})"
        if c["cell_type"] == "markdown": out += [f"{where}: {r}" for r in pasted_runs(text, seed)]
        elif c["cell_type"] == "code" and not _exported(c):
            code = "\n".join("" if l.lstrip().startswith(("%", "!")) else l for l in text.splitlines())  # magics
            try: out += code_pasted(code, seed, f"{where} line")
            except SyntaxError: out += [f"{where}: {r}" for r in pasted_runs(text, seed)]  # read as plain text
    return out


def wing_files(wing: str) -> list[Path]:
    "A wing's notebooks and the modules made from them (the rules and their screens)."
    nbs = sorted((ROOT / "nbs" / wing).glob("*.ipynb"))
    mods = sorted((ROOT / "besm_nb" / wing).glob("*.py")) + sorted((ROOT / "besm_nb" / "ui" / wing).glob("*.py"))
    return nbs + mods


def wing_pasted(wing: str) -> list[str]:
    """Every run of seven words of a wing's source found in the wing's pages (prose, code on the page) and modules
    (docstrings, docments, comments, messages and every other string), each as 'file:line: run'."""
    seed = WING_SEEDS[wing]
    out = []
    for path in wing_files(wing):
        if path.suffix == ".ipynb": out += notebook_pasted(path, seed)
        else: out += code_pasted(path.read_text(encoding="utf-8"), seed, str(path.relative_to(ROOT)))
    return out


def field(pg, name):
    "A calculator's input, by the parameter it feeds."
    return pg.locator(f".besm-field-{name} input").first


def assert_beside(control, message, within: int = 80):
    "A message sits beside its control: on its row or right under it, not somewhere else on the page."
    # both measured in one moment: between two separate measurements the page may scroll (it follows play)
    gap = control.evaluate("""(c, m) => { if (!c.getClientRects().length || !m.getClientRects().length) return null;
        const a = c.getBoundingClientRect(), b = m.getBoundingClientRect(); return Math.max(b.top - a.bottom, a.top - b.bottom, 0); }""",
                           message.element_handle())
    assert gap is not None, "both must be visible"
    assert gap <= within, f"the message is {gap:.0f} px away from its control"


# in a page: with window.besmSlow set (ms), every message from Python (the dashboards' kernel, the site's worker) reaches
# the page that much later, in order, as from a busy Python
SLOW_REPLIES = """(() => {
  for (const kind of [WebSocket, Worker]) {
    const d = Object.getOwnPropertyDescriptor(kind.prototype, 'onmessage');
    Object.defineProperty(kind.prototype, 'onmessage', {configurable: true, get() { return d.get.call(this); },
      set(f) { d.set.call(this, f && ((e) => { const ms = window.besmSlow || 0; if (ms) setTimeout(() => f.call(this, e), ms); else f.call(this, e); })); }});
  }
})();"""


# in a page: `besmSettled()` is true once the screen has stopped changing as a person would wait for before a tap: every
# kernel's last word was "idle" (an action's updates all come before it), nothing came from Python for 50 ms, and no
# play area is about to follow play (it scrolls 120 ms after its step arrives). Pages slowed on purpose (`besmSlow`,
# above) are never waited for: those tests act while Python is busy by design.
SETTLED_JS = r"""(() => {
  const said = new Map();  // a kernel's socket -> its last execution state
  window.besmBusySeen = 0;  // how many times a kernel said it was busy (a test proves the waiting sees them)
  let last = 0;
  const utf8 = new TextDecoder();
  const state = (raw) => {  // a status message's execution state (the kernel protocol's JSON text, or its binary form, v1)
    try {
      let m;
      if (typeof raw === 'string') m = JSON.parse(raw);
      else {
        const view = new DataView(raw), at = (i) => Number(view.getBigUint64(8 * i, true));
        const part = (i) => JSON.parse(utf8.decode(raw.slice(at(i + 1), at(i + 2))));
        m = {header: part(1), content: part(4)};
      }
      return m?.header?.msg_type === 'status' ? m.content?.execution_state : null;
    } catch (e) { return null; }
  };
  const d = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {configurable: true, get() { return d.get.call(this); },
    set(f) { d.set.call(this, f && ((e) => { last = performance.now(); const s = state(e.data); if (s) said.set(this, s); if (s === 'busy') window.besmBusySeen++; return f.call(this, e); })); }});
  window.besmSettled = () => !!window.besmSlow || (![...said].some(([ws, s]) => s === 'busy' && ws.readyState === 1)
    && performance.now() - last > 50 && !document.querySelector('.besm-play-box[data-following]'));
})();"""
