"""Build the rules-reference site: nbdev's processed notebooks, executed, converted for myst-nb, built by Sphinx.

Quarto (nbdev_docs) is not used: nbdev's processor writes Quarto-flavoured notebooks into _proc/; this script
executes them (keeping widget state, so calculators appear as snapshots), turns the Quarto-isms into what
myst-nb reads, and runs Sphinx with warnings as errors. The snapshots are then drawn into the pages in headless
Chromium (`bake`), so that a page reads without the widget manager, which loads only to make a calculator live.
Every script, stylesheet and font the pages load is
served from the site itself (vendored from the npm registry into .vendor/ once), so the site opens from disk
with no network access.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import itertools
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path, PurePosixPath

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SRC = ROOT / "_build" / "site-src"
VENDOR = ROOT / ".vendor"
# npm package -> (path in the package, path under _static)
NPM = {
    "requirejs@2.3.7": [("require.js", "require.js")],
    "@jupyter-widgets/html-manager@1.0.15": [("dist", "widgets")],
    "mathjax@3.2.2": [("es5/tex-chtml.js", "mathjax/tex-chtml.js"), ("es5/output/chtml/fonts/woff-v2", "mathjax/output/chtml/fonts/woff-v2"),
                      ("es5/input/tex/extensions", "mathjax/input/tex/extensions")],
}
# the calculators' Python in the reader's browser (see nbs/core/07_live.ipynb): the Pyodide runtime from npm, and the
# pure-Python wheels the calculators import, from PyPI at the versions the dashboards run (pip download, once)
PYODIDE = "314.0.7"
NPM[f"pyodide@{PYODIDE}"] = [(f, f"pyodide-{PYODIDE}/{f}") for f in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")]
WHEELS = ("icepool", "ipywidgets", "traitlets", "comm")
WHEEL_DIR = "/lib/besm-wheels"  # where the page's Python finds the wheels (the snapshot remembers this place)
DOC_HOST = "http://127.0.0.1:8000/"  # settings.ini doc_host + doc_baseurl: nbdev writes absolute links with it
_DOC_LINK = re.compile(r"\]\(" + re.escape(DOC_HOST) + r"([\w/-]+)\.html(#[\w-]+)?\)")
_SOURCE_LINK = re.compile(r"\[source\]\([^)]*\)")  # links to a repository host: not part of an offline site
_LINK_ATTRS = re.compile(r'\{(?:target="_blank"|style=)[^}]*\}')


# the tests' and the bench's own tools from npm, never part of the site: axe-core (the browser tests' accessibility audit)
# and Lighthouse (`make bench`), installed once with what they depend on into .vendor/tools
TOOLS = ("axe-core@4.10.3", "lighthouse@12.8.2")


def tools() -> Path:
    "Install the pinned test tools once (npm install into .vendor/tools); returns their node_modules folder."
    folder = VENDOR / "tools"
    stamp = folder / ("stamp-" + "-".join(TOOLS).replace("/", "_").replace("@", ""))
    if stamp.exists(): return folder / "node_modules"
    if shutil.which("npm") is None:
        raise SystemExit("tests: npm is needed once to fetch axe-core and Lighthouse into .vendor/tools (e.g. `apt-get install -y npm`)")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--no-package-lock", "--prefix", str(folder), *TOOLS],
                   cwd=folder, check=True, capture_output=True)
    stamp.touch()
    return folder / "node_modules"


def vendor() -> Path:
    "Fetch the pinned npm packages once (npm pack), unpack what the site needs into .vendor/static."
    static = VENDOR / "static"
    stamp = VENDOR / ("stamp-" + "-".join(sorted(NPM)).replace("/", "_").replace("@", ""))
    if stamp.exists(): return static
    if shutil.which("npm") is None:
        raise SystemExit("docs: npm is needed once to fetch the site's scripts and fonts into .vendor/ "
                         "(install Node.js and npm, e.g. `apt-get install -y npm`), then run `make docs` again")
    for old in (VENDOR.iterdir() if VENDOR.is_dir() else ()):  # the test tools (see `tools`) are kept
        if old.name != "tools": shutil.rmtree(old) if old.is_dir() else old.unlink()
    (VENDOR / "npm").mkdir(parents=True)
    for spec, items in NPM.items():
        out = subprocess.run(["npm", "pack", "--silent", spec], cwd=VENDOR / "npm", check=True, capture_output=True, text=True)
        tgz = VENDOR / "npm" / out.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as tar:
            tar.extractall(VENDOR / "npm" / spec.replace("/", "_"), filter="data")
        for inner, dest in items:
            src = VENDOR / "npm" / spec.replace("/", "_") / "package" / inner
            target = static / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, target, ignore=shutil.ignore_patterns("embed.js", "*.map"))
            else:
                shutil.copy(src, target)
    stamp.touch()
    return static


def wheels() -> list[Path]:
    "The pure-Python wheels the live calculators import, at the versions installed here: fetched once into .vendor/wheels."
    from importlib.metadata import version
    folder = VENDOR / "wheels"
    out = []
    for name in WHEELS:
        pattern = f"{name}-{version(name)}-py3-none-any.whl"
        if not list(folder.glob(pattern)):
            r = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                                "--only-binary=:all:", "-d", str(folder), f"{name}=={version(name)}"], capture_output=True, text=True)
            if r.returncode: raise SystemExit(f"docs: pip could not fetch {name}=={version(name)} for the live calculators:\n{r.stderr}")
        found = sorted(folder.glob(pattern))
        if not found: raise SystemExit(f"docs: no pure-Python wheel {pattern} for the live calculators")
        out.append(found[0])
    return out


def live_python(static: Path) -> tuple[dict, subprocess.Popen]:
    """Put the live calculators' Python into the site's static folder: the wheels, this project's own wheel, the page
    scripts, and (in the background: wait on the returned process) the saved state of a Python that imported them all.
    Returns what a page needs to find them, and the process saving that state."""
    if shutil.which("node") is None:
        raise SystemExit("docs: Node.js is needed to save the live calculators' Python (install Node.js, e.g. `apt-get install -y nodejs`)")
    folder = static / "python"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    made = [shutil.copy(w, folder) for w in wheels()]
    with tempfile.TemporaryDirectory() as tmp:  # built from a clean copy: never a stale build/ folder's files
        src = Path(tmp) / "src"
        shutil.copytree(ROOT / "besm_nb", src / "besm_nb", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for f in ("setup.py", "settings.ini", "pyproject.toml", "README.md"): shutil.copy(ROOT / f, src / f)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
                        "--no-build-isolation", "-w", str(folder), str(src)], check=True, capture_output=True)
    made = sorted(Path(w) for w in made) + sorted(folder.glob("besm_nb-*.whl"))
    for js in ("live.js", "live-worker.js"): shutil.copy(DOCS / "live" / js, static / js)
    # a page's files change together: one version for all, from what they are made of
    key = hashlib.sha256(PYODIDE.encode())
    for f in [*(p.name for p in made[:-1]), *sorted((ROOT / "besm_nb").rglob("*.py")), DOCS / "live" / "live.js", DOCS / "live" / "live-worker.js"]:
        key.update(f.read_bytes() if isinstance(f, Path) else f.encode())
    v = key.hexdigest()[:12]
    pyodide = VENDOR / "npm" / f"pyodide@{PYODIDE}" / "package"
    saving = subprocess.Popen(["node", str(DOCS / "live" / "snapshot.mjs"), str(pyodide), str(folder / "python.snapshot"), WHEEL_DIR,
                               *map(str, made)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    spec = {"worker": f"live-worker.js?v={v}", "pyodide": f"pyodide-{PYODIDE}/", "snapshot": f"python/python.snapshot?v={v}",
            "wheels": [[w.name, f"python/{w.name}?v={v}"] for w in made], "wheel_dir": WHEEL_DIR,
            "lock": json.loads((pyodide / "pyodide-lock.json").read_text())["info"], "script": f"live.js?v={v}"}
    return spec, saving


def nav() -> list[tuple[str | None, list[str]]]:
    "The site's sections in the order of nbs/sidebar.yml: (caption or None for the top pages, notebooks)."
    side = yaml.safe_load((ROOT / "nbs" / "sidebar.yml").read_text())
    out: list[tuple[str | None, list[str]]] = []
    for item in side["website"]["sidebar"]["contents"]:
        if isinstance(item, str):
            if out and out[-1][0] is None: out[-1][1].append(item)
            else: out.append((None, [item]))
        else: out.append((item["section"], list(item["contents"])))
    return out


def chapters() -> list[str]:
    "Every notebook of the site, in navigation order."
    return [nb for _, nbs in nav() for nb in nbs]


def page_of(fname: str) -> str:
    "A notebook's page on the site, as nbdev names it: its folder, then its name without the number ('tristat/combat')."
    p = PurePosixPath(fname)
    return str(p.parent / re.sub(r"^\d+_", "", p.stem)) if str(p.parent) != "." else re.sub(r"^\d+_", "", p.stem)


def relative(target: str, frm: str) -> str:
    "The link from page `frm` to page `target`, both site paths without suffix."
    return posixpath.relpath(target, posixpath.dirname(frm) or ".")


_NB_LINK = re.compile(r"\]\((?!https?:|#)([^)#\s]+\.ipynb)(#[^)\s]*)?\)")


def convert(nb: nbformat.NotebookNode, meta: dict, fname: str, pages: dict[str, str]) -> None:
    "Make nbdev's Quarto-flavoured notebook readable by myst-nb (before execution); point links at the site's pages."
    nb.metadata.pop("has_sd", None)
    nb.metadata.pop("widgets", None)
    here = pages[fname]
    def nb_link(m):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(fname), m.group(1)))
        if target not in pages: raise SystemExit(f"docs: {fname} links to {m.group(1)}, which is not a page of the site")
        return f"]({relative(pages[target], here)}.ipynb{m.group(2) or ''})"
    def doc_link(m):
        return f"]({relative(m.group(1), here)}.ipynb{m.group(2) or ''})"
    cells = [c for c in nb.cells if not (c.cell_type == "markdown" and "AUTOGENERATED! DO NOT EDIT" in c.source)]
    if meta.get("title"):
        head = f"# {meta['title']}" + (f"\n\n*{meta['description']}*" if meta.get("description") else "")
        cells.insert(0, nbformat.v4.new_markdown_cell(head))
    for c in cells:
        c.pop("has_sd", None)
        if c.cell_type == "markdown":
            c.source = _DOC_LINK.sub(doc_link, _NB_LINK.sub(nb_link, c.source))
        if c.cell_type == "code" and re.search(r"^#\|\s*echo:\s*false", c.source, re.M):
            c.metadata["tags"] = sorted(set(c.metadata.get("tags", [])) | {"remove-input"})
    nb.cells = cells


def clean_outputs(nb: nbformat.NotebookNode, here: str) -> None:
    "Strip Quarto link attributes and rules from show_doc's markdown (after execution)."
    for c in nb.cells:
        for o in c.get("outputs", []):
            md = o.get("data", {}).get("text/markdown")
            if md is not None:
                md = _SOURCE_LINK.sub("", _LINK_ATTRS.sub("", md))
                md = _DOC_LINK.sub(lambda m: f"]({relative(m.group(1), here)}.html{m.group(2) or ''})", md).replace(DOC_HOST, "")
                o["data"]["text/markdown"] = re.sub(r"^\s*---\s*\n", "", md)


PROOF = re.compile(r"\b(?:test_eq|test_fail|test_close|test_ne|assert)\b")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
INPUT_MODELS = {"IntTextModel", "BoundedIntTextModel", "FloatTextModel", "BoundedFloatTextModel", "TextModel", "TextareaModel",
                "DropdownModel", "SelectModel", "SelectMultipleModel", "CheckboxModel", "ButtonModel", "ToggleButtonModel",
                "ToggleButtonsModel", "RadioButtonsModel", "IntSliderModel", "FloatSliderModel", "IntRangeSliderModel",
                "ComboboxModel", "FileUploadModel", "TagsInputModel", "SelectionSliderModel"}


def _fold(c: nbformat.NotebookNode, tag: str, show: str, hide: str) -> None:
    c.metadata["tags"] = sorted(set(c.metadata.get("tags", [])) | {tag})
    c.metadata["mystnb"] = {"code_prompt_show": show, "code_prompt_hide": hide}


def fold(nb: nbformat.NotebookNode) -> None:
    "Fold what a player need not read: proof cells, plumbing and function signatures; keep what cells show in view."
    for c in nb.cells:
        if c.cell_type != "code" or "remove-cell" in c.metadata.get("tags", []): continue
        shows = any(o.get("output_type") in ("display_data", "execute_result", "stream") for o in c.get("outputs", []))
        if "show_doc(" in c.source:
            name = re.search(r"show_doc\(([\w.]+)", c.source)
            what = f"the function {name.group(1)}" if name else "the function"
            _fold(c, "hide-output", f"Show {what}", f"Hide {what}")
        elif "remove-input" in c.metadata.get("tags", []):
            continue
        elif PROOF.search(c.source) and not shows:
            _fold(c, "hide-input", "Show the proof", "Hide the proof")
        else:
            _fold(c, "hide-input", "Show code", "Hide code")


_TABLE = re.compile(r"\bTables? ((?:\d+|A)-\d+)(?:(?:,| and| to) ((?:\d+|A)-\d+))?")


def tables_named(text: str) -> list[str]:
    "The tables a line names: 'Table 12-5', and for 'Tables 12-4 to 12-7' every table between."
    out: list[str] = []
    for m in _TABLE.finditer(text):
        first, last = m.group(1), m.group(2)
        names = [first]
        if last and first.split("-")[0] == last.split("-")[0]:
            pre = first.split("-")[0]
            names = [f"{pre}-{n}" for n in range(int(first.split("-")[1]), int(last.split("-")[1]) + 1)]
        elif last: names.append(last)
        out += [f"Table {n}" for n in names if f"Table {n}" not in out]
    return out


def _row_label(row: str) -> str | None:
    "The name a markdown table row gives in its first cell ('Gun It' of '| Gun It | any | +10 |'), if it is a name."
    cell = row.strip().strip("|").split("|")[0]
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)  # a link's text
    cell = re.sub(r"[*`_]", "", cell)
    cell = re.sub(r"\s*\([^)]*\)\s*$", "", cell).strip().rstrip(".:,")  # "Box In (finishing)": Box In
    if not (2 < len(cell) <= 40) or not cell[0].isalpha() or sum(ch.isalpha() for ch in cell) < 3 or ";" in cell: return None
    return cell


def _is_table_start(lines: list[str], i: int) -> bool:
    return lines[i].lstrip().startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|?\s*:?-{3,}", lines[i + 1]) is not None \
        and (i == 0 or not lines[i - 1].lstrip().startswith("|"))


def _entry(term: str) -> str:
    return f"```{{index}} !single: {term}\n```"


def place_index_entries(nb: nbformat.NotebookNode, fname: str) -> list[str]:
    """Put an index entry where the page states each term, so that search ranks this page first for it and opens it
    there: a table's name at the heading or caption that titles it, a row's name (a manoeuvre, a situation) at its
    table. What the page states only in its code (a table laid out as data, an exported name) goes at the top.
    Returns the terms placed, in page order."""
    source = nbformat.read(ROOT / "nbs" / fname, as_version=4)
    exported = [c.source for c in source.cells if c.cell_type == "code" and re.match(r"#\|\s*export\b", c.source)]
    calculator = PurePosixPath(fname).stem.endswith("_ui")  # a calculator page names tables, it does not state them
    placed: set[str] = set()
    order: list[str] = []
    def take(terms):
        new = [t for t in terms if t.lower() not in placed]
        placed.update(t.lower() for t in new); order.extend(new)
        return new
    for c in nb.cells:
        if c.cell_type != "markdown" or calculator or c.source.startswith("```{raw}"): continue
        lines, out, fence = c.source.splitlines(), [], False
        for i, line in enumerate(lines):
            if line.lstrip().startswith(("```", "~~~")): fence = not fence
            terms = []
            if not fence and line.startswith(("#", "**Table")):
                terms = tables_named(line)
            elif not fence and _is_table_start(lines, i):
                rows = list(itertools.takewhile(lambda r: r.lstrip().startswith("|"), lines[i + 2:]))
                terms = [t for t in (_row_label(r) for r in rows) if t]
            new = take(terms)
            if new:  # at the line's own indent, so that a table in a list stays in it
                pad = line[:len(line) - len(line.lstrip())]
                out += [pad + l for t in new for l in _entry(t).splitlines()] + [""]
            out.append(line)
        c.source = "\n".join(out)
    top: list[str] = []
    if not calculator:
        comments = [l for src in exported for l in src.splitlines() if l.lstrip().startswith("# ")]  # where a table's data is laid out
        top += [t for l in comments for t in tables_named(l)]
    names = sorted({n for src in exported for n in re.findall(r"^(?:def|class) ([A-Za-z]\w*)", src, re.M)})
    top += [v for n in names for v in dict.fromkeys((n.replace("_", " "), n))]
    top = take(top)
    if top:  # search ranks an index entry far above a word in the text
        nb.cells.insert(1, nbformat.v4.new_markdown_cell("\n\n".join(_entry(t) for t in top)))
    return order


def dashboards() -> dict[str, str]:
    "Which dashboard each calculator module is live on: besm_nb.ui module -> the dashboard's title."
    out = {}
    for path in sorted((ROOT / "nbs" / "dashboards").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        title = next((c.source.splitlines()[0].lstrip("# ").strip() for c in nb.cells if c.cell_type == "markdown"), path.stem)
        for c in nb.cells:
            for mod in re.findall(r"besm_nb\.(ui\.[\w.]+)", c.source):
                if mod != "ui.calc": out.setdefault(mod, title)  # the kit (tabs, fields) is not a calculator
    return out


def _imports(cells: list) -> str:
    "The import statements of these code cells, in order: what a calculator cell may rely on besides the page's module."
    out = []
    for c in cells:
        if c.cell_type != "code" or "remove-cell" in c.metadata.get("tags", []): continue
        try: tree = ast.parse(c.source)
        except SyntaxError: continue  # a cell with IPython magics
        out += [ast.get_source_segment(c.source, n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return "\n".join(out)


def _raw_html(html: str) -> nbformat.NotebookNode:
    "A markdown cell holding raw HTML (fenced longer than any run of backticks inside)."
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", html)), default=0))
    return nbformat.v4.new_markdown_cell(f"{fence}{{raw}} html\n{html}\n{fence}")


def snapshot(nb: nbformat.NotebookNode, module: str | None, live: dict[str, str], page: str = "",
             live_ids: set[str] = frozenset(), python: dict | None = None, trackers: dict[str, str] | None = None) -> int:
    """Mark each calculator on the page as a snapshot naming its dashboard, and disable its inputs; a stateless
    calculator (its model in `live_ids`) is also made live in the reader's browser (`python`: see `live_python`), and so
    is a tracker (its model in `trackers`: see `live_tracker`). Returns how many."""
    cells, found, spec = [], 0, []
    trackers, made = dict(trackers or {}), set()
    for i, c in enumerate(nb.cells):
        views = [o["data"][WIDGET_VIEW]["model_id"] for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
        if c.cell_type == "code" and views:
            mods = re.findall(r"besm_nb\.(ui\.[\w.]+)", c.source) + ([module] if module and module.startswith("ui.") else [])
            where = next((live[m] for m in mods if m in live), None)
            if python and len(views) == 1 and views[0] in live_ids:
                board = f"<strong>{where}</strong> dashboard" if where else "dashboards"
                cells.append(_raw_html(
                    f'<div class="admonition note besm-live-note" data-cell="{len(spec)}"><p class="admonition-title">Note</p>'
                    f'<p class="besm-live-text">A snapshot until Python starts in your browser (a recent browser, the site served '
                    f'over http): then this calculator computes here, live. It is also live on the {board} (<code>make run</code>).</p></div>'))
                spec.append({"n": len(spec), "model": views[0], "setup": _imports(nb.cells[:i]), "code": c.source})
            elif python and len(views) == 1 and trackers.get(views[0]) not in (None, *made):
                made.add(trackers[views[0]])  # one live tracker of a kind per page: a second shows the same game
                cells.append(live_tracker(len(spec), where))
                spec.append({"n": len(spec), "model": views[0], "tracker": trackers[views[0]]})
            else:
                board = f"the **{where}** dashboard" if where else "the dashboards"
                cells.append(nbformat.v4.new_markdown_cell(
                    f"```{{note}}\n:class: besm-snapshot-note\nA snapshot: its inputs are disabled here. The live calculator is on {board} (`make run`).\n```"))
            found += 1
        cells.append(c)
    nb.cells = cells
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    for model in state.values():  # a snapshot's inputs stay disabled until (and unless) its calculator is live
        if model.get("model_name") in INPUT_MODELS: model.setdefault("state", {})["disabled"] = True
    if spec:  # what the page's Python runs, and the script that runs it: near the top, so that Python starts early
        data = {"python": {k: v for k, v in python.items() if k != "script"},
                "module": f"besm_nb.{module.removesuffix('.__init__')}" if module else None, "cells": spec}
        text = json.dumps(data).replace("</", "<\\/")
        script = posixpath.relpath(f"_static/{python['script']}", posixpath.dirname(page) or ".")
        title = next((k + 1 for k, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.startswith("# ")), 0)
        nb.cells.insert(title, _raw_html(f'<script type="application/json" id="besm-live-spec">{text}</script>\n'
                                         f'<script type="module" async src="{script}"></script>'))
    return found


def _holds(state: object, path: list) -> bool:
    "Whether a model's state has a place for a binary buffer at `path` (its parent exists)."
    for key in path[:-1]:
        if isinstance(state, dict) and key in state: state = state[key]
        elif isinstance(state, list) and isinstance(key, int) and 0 <= key < len(state): state = state[key]
        else: return False
    return isinstance(state, (dict, list))


def clean_widget_state(nb: nbformat.NotebookNode) -> int:
    """Drop the binary buffers a saved widget state keeps for values no longer there (a file upload, then cleared): the
    widget manager would put each back where its path points, fail on the missing place, and draw none of the page's
    widgets. Returns how many were dropped."""
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
    dropped = 0
    for model in state.values():
        if "buffers" not in model: continue
        kept = [b for b in model["buffers"] if _holds(model.get("state", {}), b.get("path", []))]
        dropped += len(model["buffers"]) - len(kept)
        if kept: model["buffers"] = kept
        else: del model["buffers"]
    return dropped


def live_tracker(n: int, where: str | None) -> nbformat.NotebookNode:
    "The note above a tracker that goes live in the reader's browser, its saves kept on the device (see live.js)."
    board = f"<strong>{where}</strong> dashboard" if where else "dashboards"
    return _raw_html(
        f'<div class="admonition note besm-live-note" data-cell="{n}" data-kind="tracker"><p class="admonition-title">Note</p>'
        f'<p class="besm-live-text">A snapshot of an example until Python starts in your browser (a recent browser, the site '
        f'served over http or https): then this tracker runs here, live, with your own game, saved on this device. It is also '
        f'live on the {board} (<code>make run</code>).</p></div>')


def prune_widgets(nb: nbformat.NotebookNode) -> int:
    """Keep in a page's saved widget state only what its outputs show (the widgets shown, and the models they refer to,
    e.g. layouts): the widgets a chapter's proof cells made and never showed only weigh the page down. Returns how many went."""
    saved = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    state = saved.get("state", {})
    todo = [o["data"][WIDGET_VIEW]["model_id"] for c in nb.cells for o in c.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]
    keep: set[str] = set()
    while todo:
        m = todo.pop()
        if m in keep or m not in state: continue
        keep.add(m)
        todo += re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(state[m]))
    for m, model in state.items():  # a link between widgets shown (jslink) is shown too
        refs = re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(model))
        if model.get("model_name", "").endswith("LinkModel") and refs and set(refs) <= keep: keep.add(m)
    if state: saved["state"] = {m: model for m, model in state.items() if m in keep}
    return len(state) - len(keep)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def anchor_page(html: str) -> tuple[str, dict[str, str], list[str]]:
    """Give every table of a built page an anchor, and find where each index entry's result should open. Returns the
    page with its tables' ids added, {index target id: the id of the table or section it marks}, and the tables the
    page's reader text names (not its folded code)."""
    from bs4 import BeautifulSoup
    soup = BeautifulSoup(html, "html.parser")
    main = soup.select_one("[role=main]") or soup.body
    if main is None: return html, {}, []
    used = {t["id"] for t in soup.find_all(id=True)}
    marker = re.compile(r"^index-\d+$")  # an index entry's place: Sphinx may give it to the table that follows
    inserts: list[tuple[int, int, str, str | None]] = []  # (line, column of the tag, the id given, the marker it had)
    for table in main.find_all("table"):
        if table.get("id") and not marker.match(table["id"]): continue
        section = table.find_parent("section")
        caption = table.find_previous(["p", "h1", "h2", "h3", "h4"])  # a caption, or the heading, that titles it
        heading = section.find(["h1", "h2", "h3", "h4"]) if section is not None else None
        named = [t for el in (caption, heading) if el is not None and el.find_parent("section") is section
                 and el.get_text(" ").strip().startswith("Table") for t in tables_named(el.get_text(" ")[:40])][:1]
        base = _slug(named[0]) if named else f"{section['id']}-table" if section is not None and section.get("id") else "table"
        tid, n = base, 1
        while tid in used: n += 1; tid = f"{base}-{n}"
        used.add(tid)
        inserts.append((table.sourceline, table.sourcepos, tid, table.get("id")))
        table["id"] = tid
    targets = {}
    for span in main.find_all(id=marker):
        # an entry placed at a table or a heading sits right before it; one placed at the top opens the page's section
        at = span.find_next(lambda t: not marker.match(t.get("id") or ""))
        if at is not None and at.name == "div" and at.find(True) is not None and at.find(True).name == "table": at = at.find(True)
        if at is None or at.name not in ("table", "section") or not at.get("id"): at = span.find_parent("section")
        if at is not None and at.get("id"): targets[span["id"]] = at["id"]
    top = main.find("section", id=True)  # where an entry whose marker the page lost (before a raw block) opens
    if top is not None: targets[""] = top["id"]
    for hidden in main.select(".no-search, details.hide, script, style"): hidden.decompose()
    mentions = tables_named(" ".join(main.get_text(" ").split()))
    lines = html.split("\n")  # as the parser counts them
    for line, col, tid, had in sorted(inserts, reverse=True):
        text = lines[line - 1]
        tag_end = text.index(">", col)
        tag = text[col:tag_end].replace(f' id="{had}"', "") if had else text[col:tag_end]
        keep = f'<span id="{had}"></span>' if had else ""  # the index page's link to the marker still lands here
        lines[line - 1] = text[:col] + keep + tag[:len("<table")] + f' id="{tid}"' + tag[len("<table"):] + text[tag_end:]
    return "\n".join(lines), targets, mentions


_RUN_IN = re.compile(r"<p><strong>([^<]{2,80}?)[.:]</strong>")


def label_paragraphs(html: str) -> str:
    """An id for each paragraph that opens with a bold run-in heading ("**Shield walls.** Men with..."), from its words:
    a rule stated so, deep in a long section, is a place search can open at."""
    used = set(re.findall(r'\sid="([^"]+)"', html))
    def give(m):
        base = _slug(m.group(1)) or "rule"
        tid, n = base, 1
        while tid in used: n += 1; tid = f"{base}-{n}"
        used.add(tid)
        return f'<p id="{tid}"><strong>{m.group(1)}' + m.group(0)[len("<p><strong>") + len(m.group(1)):]
    return _RUN_IN.sub(give, html)


def anchor_site(out: Path) -> int:
    """Anchors for search: every table of every page gets an id; each index entry's result opens at the table or
    section it marks (not at an empty marker, which has no text to quote); and the index learns which pages name which
    table, since its words leave out the numbers of "Table 12-5". Returns how many tables were given an id."""
    prefix = "Search.setIndex("
    index_js = (out / "searchindex.js").read_text()
    index = json.loads(index_js[len(prefix):index_js.rstrip().rindex(")")])
    docnames = index["docnames"]
    given, targets, tables = 0, {}, {}
    for i, doc in enumerate(docnames):
        path = out / f"{doc}.html"
        html = path.read_text()
        new, found, mentions = anchor_page(html)
        given += new.count(' id="') - html.count(' id="')
        new = label_paragraphs(new)
        if new != html: path.write_text(new)
        targets[i] = found
        for t in mentions: tables.setdefault(t.removeprefix("Table ").upper(), []).append(i)
    for entries in index["indexentries"].values():
        for e in entries: e[1] = targets.get(e[0], {}).get(e[1], targets.get(e[0], {}).get("", e[1]))
    index["besm_tables"] = tables  # read by _static/besm-search.js
    (out / "searchindex.js").write_text(prefix + json.dumps(index, separators=(",", ":"), ensure_ascii=False) + ")")
    return given


_VIEWPORT = re.compile(r'\s*<meta name="viewport"[^>]*>')


def describe_page(html: str) -> str:
    "A page's description for search engines and link previews: its lead line (the chapter's description), else its first paragraph."
    from bs4 import BeautifulSoup
    main = BeautifulSoup(html, "html.parser").select_one("[role=main]")
    if main is None: return ""
    for hidden in main.select(".no-search, details, script, style, .admonition, .headerlink"): hidden.decompose()
    first = next((" ".join(p.get_text(" ").split()) for p in main.find_all("p") if p.get_text().strip()), "")
    return first if len(first) <= 160 else first[:157].rsplit(" ", 1)[0] + "…"


def accessible(out: Path) -> int:
    """What the theme and myst-nb leave to fix on every built page: the sidebar's captions are headings with a level
    (below the page's title), a fold is named by what it says ("Show the proof"), not "Toggle hidden content", one
    viewport tag, and a description. Returns how many pages."""
    import html as html_lib
    n = 0
    for page in out.rglob("*.html"):
        if page.relative_to(out).parts[0] in ("_static", "_sources"): continue
        text = page.read_text(encoding="utf-8")
        new = text.replace('<p class="caption" role="heading">', '<p class="caption" role="heading" aria-level="2">')
        new = new.replace('<summary aria-label="Toggle hidden content">', "<summary>")
        for m in reversed(list(_VIEWPORT.finditer(new))[1:]): new = new[:m.start()] + new[m.end():]  # the theme's and Sphinx's
        if '<meta name="description"' not in new:  # a page with no text of its own (search, the index) says what the site is
            line = describe_page(new) or DESCRIPTION
            new = new.replace("</head>", f'<meta name="description" content="{html_lib.escape(line)}">\n</head>', 1)
        if new != text: page.write_text(new, encoding="utf-8")
        n += 1
    return n


def api_page(order: list[str]) -> nbformat.NotebookNode:
    "The API: every public name of every module, with its one-line description, by module in site order."
    import importlib
    mods = []
    for fname in order:
        m = default_exp(fname)
        if m and m not in mods: mods.append(m)
    # "Package API", not "API": search orders equal scores by title, and a module name in a heading (special.rolls) must not put
    # this list above the rule page that ties with it (Checks for "roll-under")
    lines = ["# Package API", "", "*Every public name of the package, module by module, with its one-line description. Each module's "
             "page states the rules and shows the full signatures.*", ""]
    for m in mods:
        mod = importlib.import_module("besm_nb." + m.removesuffix(".__init__"))
        name = "besm_nb." + m.removesuffix(".__init__")
        lines += [f"## `{name}`", "", (mod.__doc__ or "").strip(), "", "| name | what it is |", "|---|---|"]
        for sym in getattr(mod, "__all__", []):
            obj = getattr(mod, sym, None)
            doc = (getattr(obj, "__doc__", None) or "").strip().splitlines()
            own = callable(obj) and doc and getattr(obj, "__module__", None) == name
            line = doc[0].replace("|", "\\|") if own else ""
            lines.append(f"| `{sym}` | {line} |")
        lines.append("")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("\n".join(lines))]
    return nb


def default_exp(fname: str) -> str | None:
    "The module a source notebook exports to."
    for c in nbformat.read(ROOT / "nbs" / fname, as_version=4).cells:
        m = re.search(r"^#\|\s*default_exp\s+(\S+)", c.source, re.M)
        if c.cell_type == "code" and m: return m.group(1)
    return None


def run(nb: nbformat.NotebookNode, where: Path, **kwargs) -> None:
    """Run a notebook; on Linux its kernel talks over local sockets in a folder of its own. Two kernels started at once
    on free TCP ports can collide: one could not bind its port, and the build waited 60 s for it and failed. The manager
    is the asynchronous one nbclient expects: a blocking one's client waits on the kernel's output with no time limit
    (a build hung there for 20 minutes), and the 300 s limit of a cell never came."""
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from besm_nb.ui.serve import keep_kernel_output, write_kernel_spec
    keep_kernel_output()  # a notebook of many widgets, run while the machine is busy, loses none of its output
    folder, km = Path(tempfile.mkdtemp(prefix="besm-kernel-")), None
    if sys.platform.startswith("linux"):
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager
        write_kernel_spec(folder)  # nor does the kernel's end (a snapshot missing widgets never drew on its page)
        km = AsyncKernelManager(kernel_name="python3", transport="ipc", ip=str(folder / "kernel"),
                                kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(folder / "kernels")]))
    try: NotebookClient(nb, km=km, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(where)}}, **kwargs).execute()
    finally:
        if km is not None and km.has_kernel: run_sync(km.shutdown_kernel)(now=True)  # a client given its manager leaves the kernel running
        shutil.rmtree(folder, ignore_errors=True)


def execute(nb: nbformat.NotebookNode, where: Path, module: str | None) -> tuple[set[str], dict[str, str]]:
    """Run the notebook; nbdev has dropped the exported cells, so their module is imported first, hidden. Returns the
    model ids of the widgets that the site makes live, asked of the kernel at the end: the stateless calculators, and
    the trackers (model id -> the tracker's 'module:Class')."""
    pre = "from nbdev.showdoc import show_doc\n"
    if module:
        pre += f"import besm_nb.{module.removesuffix('.__init__')} as _m\nglobals().update({{k: v for k, v in vars(_m).items() if not k.startswith('__')}})\n"
    nb.cells.insert(0, nbformat.v4.new_code_cell(pre, metadata={"tags": ["remove-cell"]}))
    # the answer goes to a file: printed, it could land in a widget's Output that a tracker's thread holds open
    fd, answer = tempfile.mkstemp(prefix="besm-live-ids-", suffix=".json"); os.close(fd)
    nb.cells.append(nbformat.v4.new_code_cell("import json as _json\nfrom besm_nb.ui.live import live_ids as _live_ids, tracker_ids as _trackers\n"
                                              f"open({answer!r}, 'w').write(_json.dumps([_live_ids(), _trackers()]))"))
    try:
        run(nb, where, store_widget_state=True)
        nb.cells.pop()
        calculators, trackers = json.loads(Path(answer).read_text())
    finally: os.unlink(answer)
    return set(calculators), trackers


def build_page(fname: str, pages: dict[str, str], live: dict[str, str], python: dict) -> tuple[str, nbformat.NotebookNode, float]:
    "One page of the site from its notebook processed by nbdev: converted, run (its test), cleaned, folded and made live."
    t = time.time()
    nb = nbformat.read(ROOT / "_proc" / fname, as_version=4)
    meta = front_matter(nb)
    convert(nb, meta, fname, pages)
    place_index_entries(nb, fname)
    module = default_exp(fname)
    live_ids, trackers = execute(nb, (ROOT / "nbs" / fname).parent, module)
    clean_outputs(nb, pages[fname])
    clean_widget_state(nb)
    prune_widgets(nb)
    fold(nb)
    snapshot(nb, module, live, pages[fname], live_ids, python, trackers)
    return fname, nb, time.time() - t


def run_only(fname: str, *_) -> tuple[str, None, float]:
    "Run a notebook the site does not show (a dashboard), as its test: any error fails the build."
    t = time.time()
    nb = nbformat.read(ROOT / "nbs" / fname, as_version=4)
    os.environ.setdefault("BESM_NB_SAVES", tempfile.mkdtemp(prefix="besm-docs-saves-"))  # a tracker's saves: never into the project
    run(nb, (ROOT / "nbs" / fname).parent)
    return fname, None, time.time() - t


def front_matter(nb: nbformat.NotebookNode) -> dict:
    "Take nbdev's front matter cell off the notebook and return its title and description."
    first = nb.cells[0] if nb.cells else None
    if first is not None and first.cell_type == "raw" and first.source.startswith("---"):
        nb.cells.pop(0)
        return yaml.safe_load(first.source.strip().strip("-")) or {}
    return {}


def toctrees(sections: list[tuple[str | None, list[str]]], pages: dict[str, str]) -> str:
    "The navigation: one hidden toctree per section, captioned, in sidebar order."
    out = []
    for caption, nbs in sections:
        entries = [pages[n] for n in nbs if pages[n] != "index"]
        if not entries: continue
        head = f":caption: {caption}\n" if caption else ""
        out.append(f"```{{toctree}}\n:hidden:\n:maxdepth: 1\n{head}\n" + "\n".join(entries) + "\n```")
    return "\n\n".join(out)


# -- the widget snapshots drawn into the pages: the widget runtime (3.6 MB) is no longer needed to read them ------------
RUNTIME = ("mathjax-hub.js", "require.js", "widgets/embed-amd.js")  # what myst-nb puts in a widget page's head (conf.py)
_RUNTIME_TAG = re.compile(r'\s*<script(?: data-jupyter-widgets-cdn="[^"]*")? src="((?:\.\./)*_static/(?:'
                          + "|".join(map(re.escape, RUNTIME)) + r')\?v=[0-9a-f]+)"></script>')
_STATE_TAG = re.compile(r'\s*<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>', re.S)
_NOT_AT_BAKE = re.compile(r".*/(?:live\.js|besm-offline\.js|sw\.js|tex-chtml\.js)(?:\?.*)?$")  # no Python, no offline copy, no MathJax
_FONT_URL = re.compile(r"""url\(["']?[^"')]*?/([0-9a-f]{20}\.(?:woff2|woff|ttf|eot|svg))((?:\?|#)[^"')]*)?["']?\)""")
# the page's widgets, once the widget manager has drawn every view: each view's drawing with its inputs' values written
# into the markup, and the rules of the stylesheets the widget manager added that match something drawn (a rule's
# states and pseudo-elements are left out of the test: :hover, ::before)
BAKE_JS = r"""() => {
  const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')].map((s) => {
    const box = s.previousElementSibling;
    for (const el of box.querySelectorAll('input')) {
      if (el.type === 'checkbox' || el.type === 'radio') el.toggleAttribute('checked', el.checked); else el.setAttribute('value', el.value);
    }
    for (const el of box.querySelectorAll('textarea')) el.textContent = el.value;
    for (const el of box.querySelectorAll('select')) for (const o of el.options) o.toggleAttribute('selected', o.selected);
    return box.outerHTML;
  });
  const used = (selector) => {
    const bare = selector.replace(/::?[a-zA-Z-]+(\((?:[^()]|\([^()]*\))*\))?/g, '').trim();
    if (!bare || /(^|,)\s*(,|$)/.test(bare)) return true;
    try { return !!document.querySelector(bare); } catch { return true; }
  };
  const keep = (rule) => {
    if (rule instanceof CSSStyleRule) return used(rule.selectorText) ? rule.cssText : '';
    if (rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule) {
      const inner = [...rule.cssRules].map(keep).filter(Boolean);
      return inner.length ? `@${rule instanceof CSSMediaRule ? 'media' : 'supports'} ${rule.conditionText} {\n${inner.join('\n')}\n}` : '';
    }
    return rule.cssText;  // @font-face (a font loads only if used), @keyframes
  };
  const sheets = [...document.head.querySelectorAll('style:not([data-besm-page])')].map((s) => s.textContent);
  const rules = [...document.head.querySelectorAll('style:not([data-besm-page])')].map((s) => [...s.sheet.cssRules].map(keep));
  return { views, sheets: sheets.map((t) => t.length + ':' + t.slice(0, 200) + t.slice(-200)), rules };
}"""


LIVE_MODULES = ("base", "controls", "html-manager")  # what a live page's widget manager is made of (ipywidgets 8: not base7, controls7)


def split_manager(folder: Path) -> list[str]:
    """The widget manager's bundle (libembed-amd.js, 3.6 MB) is six AMD modules, one after another: write the three a live
    page needs (`LIVE_MODULES`, 2.4 MB) as a file each, so that the browser compiles and runs them as separate tasks.
    Returns their paths from _static, in load order."""
    text = (folder / "libembed-amd.js").read_text(encoding="utf-8")
    parts = re.split(r"\n\n(?=(?:/\*![^\n]*\*/\n)?define\(\")", text)
    found = {}
    for part in parts:
        m = re.search(r'^(?:/\*![^\n]*\*/\n)?define\("@jupyter-widgets/([\w-]+)",', part)
        if m and m.group(1) in LIVE_MODULES: found[m.group(1)] = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", part)
    if set(found) != set(LIVE_MODULES): raise SystemExit(f"docs: the widget manager's bundle has changed: found {sorted(found)} of {LIVE_MODULES}")
    for name in LIVE_MODULES: (folder / f"manager-{name}.js").write_text(found[name], encoding="utf-8")
    return [f"widgets/manager-{name}.js" for name in LIVE_MODULES]


def bake(out: Path) -> dict:
    """Draw each page's widget snapshots into the page itself, in headless Chromium (the widget manager draws them as it
    would in the reader's browser), with the widget stylesheet rules they use in _static/widgets/snapshot.css: a page
    with widgets is read at once, and the widget runtime (require.js, the 3.6 MB widget manager) is loaded by live.js
    after the page has loaded, and only for a live calculator or tracker. Without Chromium the pages keep the runtime
    in their head and draw their snapshots as before. Returns how many pages and views were drawn."""
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    try: from playwright.sync_api import sync_playwright
    except ImportError: chromium = None
    if not chromium:
        print("docs: no Chromium (or no Playwright): the widget snapshots are drawn by the widget manager in the reader's browser", flush=True)
        return {"pages": 0, "views": 0}
    import functools, http.server, threading
    pages = [p for p in sorted(out.rglob("*.html")) if p.relative_to(out).parts[0] not in ("_static", "_sources")
             and WIDGET_VIEW in p.read_text(encoding="utf-8")]
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    runtime = {name: f"{name}?v={hashlib.sha256((out / '_static' / name).read_bytes()).hexdigest()[:8]}"
               for name in ("mathjax-hub.js", "require.js", *split_manager(out / "_static" / "widgets"))}
    drawn = ("() => [...document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]')]"
             ".every((s) => s.previousElementSibling?.classList.contains('widget-subarea') && s.previousElementSibling.childElementCount)")
    got_by_page: dict[Path, dict] = {}

    def draw(share: list[Path]) -> None:  # in a thread of its own, with its own Playwright and browser (Playwright's rule)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"])
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            ctx.route(_NOT_AT_BAKE, lambda r: r.abort())
            ctx.add_init_script("document.addEventListener('DOMContentLoaded', () => "
                                "document.querySelectorAll('style').forEach((s) => { s.dataset.besmPage = '1'; }))")
            pg = ctx.new_page()
            for page in share:
                pg.goto(f"http://127.0.0.1:{server.server_port}/{page.relative_to(out).as_posix()}", wait_until="load")
                pg.wait_for_function(drawn, timeout=180_000)
                pg.wait_for_timeout(300)  # a view's last children, drawn a moment later
                got_by_page[page] = pg.evaluate(BAKE_JS)
            browser.close()

    order, kept, views = {}, {}, 0
    try:
        # two browsers, each drawing every other page: the pages are drawn at twice the pace on two cores
        workers = [threading.Thread(target=draw, args=(pages[i::2],)) for i in range(2)]
        for w in workers: w.start()
        for w in workers: w.join()
        missing = [p.relative_to(out).as_posix() for p in pages if p not in got_by_page]
        if missing: raise SystemExit(f"docs: the widget snapshots of {len(missing)} pages were not drawn (first: {missing[0]})")
        for page in pages:  # in page order, as one browser drew them: the stylesheet comes out the same every build
            rel, got = page.relative_to(out).as_posix(), got_by_page[page]
            for sheet, rules in zip(got["sheets"], got["rules"]):
                at = order.setdefault(sheet, len(order))
                for i, text in enumerate(rules):
                    if text: kept.setdefault((at, i), text)
            html = page.read_text(encoding="utf-8")
            tags = list(re.finditer(r'<script type="application/vnd\.jupyter\.widget-view\+json">', html))
            if len(tags) != len(got["views"]): raise SystemExit(f"docs: {rel}: {len(tags)} widget views, {len(got['views'])} drawn")
            for m, drawn_html in reversed(list(zip(tags, got["views"]))):
                html = html[:m.start()] + drawn_html + html[m.start():]
            up = "../" * (len(page.relative_to(out).parts) - 1)
            html = _RUNTIME_TAG.sub("", html)
            html = _STATE_TAG.sub("", html)  # the widgets' saved state: drawn now, read by nothing (a live page's Python makes its own)
            spec = json.dumps([f"{up}_static/{v}" for v in runtime.values()])
            html = html.replace("</head>", f'<link rel="stylesheet" type="text/css" href="{up}_static/widgets/snapshot.css?v=@CSS@" />\n'
                                f'<script type="application/json" id="besm-widget-runtime">{spec}</script>\n</head>', 1)
            page.write_text(html, encoding="utf-8")
            views += len(got["views"])
    finally:
        server.shutdown()
    css = "\n".join(_FONT_URL.sub(lambda m: f'url("../../@jupyter-widgets/{m.group(1)}{m.group(2) or ""}")', kept[k]) for k in sorted(kept))
    css = "/* The widget manager's stylesheet rules that the pages' widget snapshots use (docs/build.py bake) */\n" + css
    (out / "_static" / "widgets" / "snapshot.css").write_text(css, encoding="utf-8")
    v = hashlib.sha256(css.encode()).hexdigest()[:8]
    for page in pages: page.write_text(page.read_text(encoding="utf-8").replace("snapshot.css?v=@CSS@", f"snapshot.css?v={v}"), encoding="utf-8")
    return {"pages": len(pages), "views": views, "css": len(css)}


# -- the site kept for offline use: a service worker, a web app manifest and icons -------------------------------------
THEME = "#1565c0"
DESCRIPTION = "The rules, their exact odds, the calculators and the trackers, in the browser, with or without a network."
# not kept offline: the notebooks' sources, Sphinx's own files, source maps, the copy of the widget manager no page names
# (see `offline`), and the
# widget fonts other than woff2 (every browser with a service worker reads woff2) or copied beside each folder's pages
OFFLINE_SKIP = re.compile(r"^(?:_sources/|\.doctrees/|\.buildinfo$|objects\.inv$|sw\.js$|.*\.(?:ipynb|map)$"
                          r"|.*\.br$|(?!_static/python/python\.snapshot\.gz$).*\.gz$|_static/python/python\.snapshot$"  # a host's compressed copies
                          r"|.+/@jupyter-widgets/|@jupyter-widgets/html-manager/|(?:@jupyter-widgets|_static/widgets)/[^/]+\.(?:woff|ttf|eot|svg)$)")


def icon_png(size: int, die: float = 0.68) -> bytes:
    """The site's icon, drawn here from nothing outside: a white die showing five on the site's blue, as a PNG of `size`
    pixels, the die `die` of its width (a maskable icon keeps it inside the middle circle a launcher may crop to)."""
    import struct
    import zlib
    blue, white = bytes((21, 101, 192)), bytes((255, 255, 255))
    k = die / 0.68  # the first icon's proportions, scaled
    lo, hi, corner, pip = (0.5 - die / 2) * size, (0.5 + die / 2) * size, 0.12 * k * size, 0.075 * k * size
    pips = [((0.5 + a * k) * size, (0.5 + b * k) * size) for a, b in ((-0.17, -0.17), (0.17, -0.17), (0, 0), (-0.17, 0.17), (0.17, 0.17))]
    rows = []
    for y in range(size):
        row, py = bytearray(b"\0"), y + 0.5
        for x in range(size):
            px = x + 0.5
            dx, dy = max(lo + corner - px, 0, px - hi + corner), max(lo + corner - py, 0, py - hi + corner)
            die = lo <= px <= hi and lo <= py <= hi and dx * dx + dy * dy <= corner * corner
            row += white if die and all((px - cx) ** 2 + (py - cy) ** 2 > pip * pip for cx, cy in pips) else blue
        rows.append(bytes(row))
    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def offline(out: Path) -> dict:
    """Make the built site keep itself for offline use: a web app manifest and icons, a script on every page that
    registers the service worker (docs/live/sw.js, at the site's root) with the list of the files it keeps and a
    version made from what they hold. Returns the version and what is kept (files, bytes)."""
    static = out / "_static"
    shutil.copy(DOCS / "live" / "offline.js", static / "besm-offline.js")
    for size in (192, 512): (static / f"icon-{size}.png").write_bytes(icon_png(size))
    (static / "icon-maskable-512.png").write_bytes(icon_png(512, die=0.5))  # its corners within the safe circle (radius 40%)
    (out / "manifest.webmanifest").write_text(json.dumps({
        "name": "besm_nb: anime tabletop RPG combat rules and calculators", "short_name": "besm_nb",
        "description": DESCRIPTION,
        "id": "./index.html", "start_url": "./index.html", "scope": "./", "display": "standalone", "background_color": "#ffffff",
        "theme_color": THEME, "icons": [{"src": f"_static/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"} for n in (192, 512)]
        + [{"src": "_static/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}]}, indent=1))
    for page in out.rglob("*.html"):
        up = "../" * (len(page.relative_to(out).parts) - 1)
        head = (f'<link rel="manifest" href="{up}manifest.webmanifest"><meta name="theme-color" content="{THEME}">'
                f'<link rel="apple-touch-icon" href="{up}_static/icon-192.png"><script src="{up}_static/besm-offline.js" defer></script>')
        html = page.read_text(encoding="utf-8")
        if "besm-offline.js" not in html: page.write_text(html.replace("</head>", head + "</head>", 1), encoding="utf-8")
    # the widget manager comes in several copies: embed-amd.js draws a page's snapshots as it loads (a page whose
    # snapshots `bake` could not draw names it), libembed-amd.js only defines it, and its parts a live page loads
    # (`split_manager`): only what the pages name is kept
    named = {name for page in out.rglob("*.html") for name in re.findall(r"_static/widgets/([\w.-]+\.js)", page.read_text(encoding="utf-8"))}
    files = {}
    for f in sorted(p for p in out.rglob("*") if p.is_file()):
        path = f.relative_to(out).as_posix()
        unnamed = re.fullmatch(r"_static/widgets/[\w.-]+\.js", path) and path.rsplit("/", 1)[1] not in named
        if not OFFLINE_SKIP.match(path) and not unnamed: files[path] = hashlib.sha256(f.read_bytes()).hexdigest()[:16]
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:12]
    # the pages ask for many files with a "?v=" query: the worker asks for the same address, so the browser's cache answers
    # it ("not modified") instead of sending the file again
    asked = {}
    for page in out.rglob("*.html"):
        for m in re.finditer(r'([\w@.+-]+(?:/[\w@.+-]+)*)\?(v=[0-9a-f]{6,})', page.read_text(encoding="utf-8")):
            asked[re.sub(r"^(?:\.\.?/)+", "", m.group(1))] = m.group(2)
    queries = {path: q for path in files for rel, q in asked.items()  # the saved Python's gzipped copy: asked as its page names it
               if path.removesuffix(".gz") == rel or path.removesuffix(".gz").endswith("/" + rel)}
    sw = (DOCS / "live" / "sw.js").read_text().replace("'__VERSION__'", json.dumps(version)).replace("__FILES__", json.dumps(files, indent=0))
    sw = sw.replace("__QUERIES__", json.dumps(queries, indent=0))
    (out / "sw.js").write_text(sw)
    return {"version": version, "files": len(files), "bytes": sum((out / p).stat().st_size for p in files)}


PRECOMPRESS = re.compile(r"(?!.*@jupyter-widgets/).*\.(?:html|js|mjs|css|json|svg|wasm|txt|webmanifest)$")  # not the icon fonts' copies


def precompress(out: Path) -> dict:
    """Beside every text file and the WebAssembly runtime, the copies a static host sends when the browser takes them
    (nginx gzip_static and brotli_static, Caddy's precompressed, and the like): .gz and .br. The service worker keeps
    neither (OFFLINE_SKIP). Brotli at its best (quality 11) for the large files a first visit loads, quicker for the rest.
    Returns the bytes of the files and of their brotli copies."""
    import gzip
    files = [p for p in sorted(out.rglob("*")) if p.is_file() and PRECOMPRESS.match(p.name) and p.stat().st_size > 1024
             and p.relative_to(out).parts[0] not in ("_sources", ".doctrees")]
    js = ("const z=require('zlib'),fs=require('fs');for(const f of JSON.parse(fs.readFileSync(0,'utf8'))){const d=fs.readFileSync(f);"
          "fs.writeFileSync(f+'.br',z.brotliCompressSync(d,{params:{[z.constants.BROTLI_PARAM_QUALITY]:d.length>1048576?11:6,"
          "[z.constants.BROTLI_PARAM_LGWIN]:24,[z.constants.BROTLI_PARAM_SIZE_HINT]:d.length}}))}")
    # brotli at its best is the slow part: two node processes, the files shared out by size, while gzip runs here
    shares: list[list[str]] = [[], []]
    for p in sorted(files, key=lambda p: -p.stat().st_size): min(shares, key=lambda s: sum(Path(f).stat().st_size for f in s)).append(str(p))
    running = [subprocess.Popen(["node", "-e", js], stdin=subprocess.PIPE, text=True) for _ in shares]
    for proc, share in zip(running, shares): proc.stdin.write(json.dumps(share)); proc.stdin.close()
    for p in files: p.with_name(p.name + ".gz").write_bytes(gzip.compress(p.read_bytes(), 9, mtime=0))
    if any(proc.wait() for proc in running): raise SystemExit("docs: brotli compression failed")
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "brotli": sum(p.with_name(p.name + ".br").stat().st_size for p in files)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="_site", help="output folder (default _site)")
    args = ap.parse_args()
    t0 = time.time()
    # the chapters run once, for their snapshots: a tracker there must not follow its save file (with the kernel's event
    # loop running, a page "behind" in a proof would catch up on its own before the proof acts)
    os.environ["BESM_NB_FOLLOW_SECONDS"] = "off"
    static = vendor()
    shutil.rmtree(SRC, ignore_errors=True)
    SRC.mkdir(parents=True)
    python, saving = live_python(SRC / "_static")  # saving the Python state runs while the pages are executed
    from nbdev.serve import proc_nbs
    proc_nbs(n_workers=min(2, os.cpu_count() or 1))  # nbdev processes the notebooks in parallel too
    sections = nav()
    order = chapters()
    pages = {fname: page_of(fname) for fname in order} | {"api.ipynb": "api"}  # the API page is generated below
    live = dashboards()
    built = {}
    # every notebook runs once, here: a site page's run is also its test, and the notebooks the site does not show (the
    # dashboards) run as tests only. Any error fails the build, as nbdev_test would fail it.
    off_site = sorted(str(p.relative_to(ROOT / "nbs")) for p in (ROOT / "nbs").rglob("*.ipynb")
                      if not any(part.startswith((".", "_")) for part in p.relative_to(ROOT / "nbs").parts))
    off_site = [f for f in off_site if f not in pages]
    jobs = [(f, True) for f in order] + [(f, False) for f in off_site]
    workers = max(1, int(os.environ.get("BESM_DOCS_WORKERS") or min(2, os.cpu_count() or 1)))
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        import build as this  # the jobs named by module: running nbdev's processor has put IPython's own module in __main__'s place
        running = {pool.submit(this.build_page if on_site else this.run_only, fname, pages, live, python): fname for fname, on_site in jobs}
        for done in as_completed(running):
            try: fname, nb, seconds = done.result()  # a notebook's error comes here, with its cell and traceback
            except Exception:
                pool.shutdown(wait=False, cancel_futures=True)
                print(f"docs: {running[done]} failed (the cell and its error follow)", file=sys.stderr, flush=True)
                raise
            if nb is not None: built[pages[fname]] = nb
            made = f"{pages[fname]}.html" if nb is not None else "run, not a page"
            print(f"docs: {fname} -> {made} in {seconds:.1f} s ({time.time() - t0:.1f} s)", flush=True)
    built["api"] = api_page(order)
    sections = [(c, n + (["api.ipynb"] if c == "For contributors" else [])) for c, n in sections]
    built["index"].cells.append(nbformat.v4.new_markdown_cell(toctrees(sections, pages)))
    for name, nb in built.items():
        (SRC / name).parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, SRC / f"{name}.ipynb")
    out, err = saving.communicate()
    if saving.returncode != 0:
        raise SystemExit(f"docs: saving the live calculators' Python failed:\n{err[-3000:]}")
    print(f"docs: live calculators' Python saved: {out.strip()}", flush=True)
    shutil.copy(DOCS / "conf.py", SRC / "conf.py")
    shutil.copy(DOCS / "favicon.svg", SRC / "favicon.svg")
    shutil.copytree(static, SRC / "_static", dirs_exist_ok=True)
    shutil.copy(DOCS / "besm-search.js", SRC / "_static" / "besm-search.js")
    from besm_nb.ui.serve import FOLLOW_JS, WIDGET_CSS  # the calculators and trackers styled as on the dashboards: one stylesheet
    (SRC / "_static" / "besm-follow.js").write_text(FOLLOW_JS)  # and a tracker's page follows play there too
    (SRC / "_static" / "besm.css").write_text((DOCS / "besm.css").read_text() + "\n/* The kit's widgets, as on the dashboards "
                                               "(besm_nb.ui.serve.WIDGET_CSS) */" + WIDGET_CSS)
    from besm_nb.ui.serve import A11Y_JS  # the widgets named, their pressed states said: as on the dashboards
    (SRC / "_static" / "besm-a11y.js").write_text(A11Y_JS)
    from besm_nb.ui.serve import ORDER_JS  # a click waits for the value typed just before it: as on the dashboards
    (SRC / "_static" / "besm-order.js").write_text(ORDER_JS)
    shutil.copy(DOCS / "mathjax-hub.js", SRC / "_static" / "mathjax-hub.js")
    # the widget manager asks for its icon fonts relative to the page, in two places, from every folder's pages
    fonts = [f for f in (static / "widgets").iterdir() if f.suffix in {".woff2", ".woff", ".ttf", ".eot", ".svg"}]
    folders = sorted({str(PurePosixPath(p).parent) for p in built} - {"."})
    for base in ["", *[f + "/" for f in folders]]:
        for where in ("_extra/" + base + "@jupyter-widgets", "_extra/" + base + "@jupyter-widgets/html-manager/dist"):
            (SRC / where).mkdir(parents=True, exist_ok=True)
            for f in fonts: shutil.copy(f, SRC / where / f.name)
    out = (ROOT / args.out).resolve()
    shutil.rmtree(out, ignore_errors=True)
    t1 = time.time()
    print(f"docs: every notebook run in {t1 - t0:.0f} s", flush=True)
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(SRC), str(out)])
    t2 = time.time()
    print(f"docs: Sphinx in {t2 - t1:.0f} s", flush=True)
    if r.returncode == 0: print(f"docs: {anchor_site(out)} tables given an anchor", flush=True)
    if r.returncode == 0: print(f"docs: {accessible(out)} pages named and described", flush=True)
    if r.returncode == 0:
        t3 = time.time()
        drawn = bake(out)
        if drawn["pages"]: print(f"docs: {drawn['views']} widget snapshots drawn into {drawn['pages']} pages "
                                  f"(their stylesheet rules: {drawn['css'] / 1e3:.0f} kB) in {time.time() - t3:.0f} s", flush=True)
    shutil.rmtree(out.parent / "jupyter_execute", ignore_errors=True)  # myst-nb's scratch copies, beside the output
    if r.returncode == 0:
        t4 = time.time()
        kept = offline(out)
        print(f"docs: kept for offline use: {kept['files']} files, {kept['bytes'] / 1e6:.1f} MB (version {kept['version']}) in {time.time() - t4:.0f} s")
        t5 = time.time()
        packed = precompress(out)
        print(f"docs: {packed['files']} files precompressed for hosts that send .br/.gz copies: {packed['bytes'] / 1e6:.1f} -> "
              f"{packed['brotli'] / 1e6:.1f} MB in {time.time() - t5:.0f} s")
        print(f"docs: built {out}/index.html in {time.time() - t0:.1f} s")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
