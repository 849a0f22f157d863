"""The package itself: a light core import, and a wheel whose core needs only the exact-maths libraries."""
import ast
import importlib
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


WINGS = ("tristat", "anime_d20", "besm_d20", "special", "encounters")
DISPLAY = ("ipywidgets", "IPython", "matplotlib", "voila")


def modules() -> dict[str, Path]:
    "Every module of the package by dotted name (private ones like _modidx left out)."
    out = {}
    for p in sorted((ROOT / "besm_nb").rglob("*.py")):
        parts = p.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__": parts = parts[:-1]
        elif parts[-1].startswith("_"): continue
        out[".".join(parts)] = p
    return out


def imported(name: str, path: Path) -> set[str]:
    "The absolute names a module imports (relative imports resolved against its package)."
    pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import): names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(pkg[:len(pkg) - node.level + 1] + ([node.module] if node.module else [])) if node.level else node.module
            names.add(base)
            names |= {f"{base}.{a.name}" for a in node.names}
    return names


def test_the_wings_are_laid_out():
    "The core at the root, one subpackage per rule system, each with a docstring naming its source; the UI mirrors them."
    mods = modules()
    assert {"besm_nb.dice", "besm_nb.checks", "besm_nb.render", "besm_nb.store"} <= set(mods)
    for wing in ("tristat", "anime_d20", "besm_d20", "special", "encounters"):
        init = importlib.import_module(f"besm_nb.{wing}")
        assert init.__doc__ and init.SOURCE in init.__doc__ and init.DICE, wing
        assert any(m.startswith(f"besm_nb.ui.{wing}.") for m in mods), wing
    assert not [m for m in mods if m.count(".") == 1 and m.split(".")[1] not in ("dice", "checks", "render", "store", "roster", "cli", "ui", *WINGS)]


def test_only_the_ui_layer_imports_display_code():
    "Nothing outside besm_nb.ui imports ipywidgets, IPython, matplotlib or voila; no wing's UI imports another wing's UI."
    for name, path in modules().items():
        names = imported(name, path)
        if not name.startswith("besm_nb.ui"):
            allowed = {"besm_nb.ui.serve", "besm_nb.ui.serve.main"} if name == "besm_nb.cli" else set()  # `besm-nb dashboards`, lazily
            assert not [n for n in names if (n.split(".")[0] in DISPLAY or n.startswith("besm_nb.ui")) and n not in allowed], name
        parts = name.split(".")
        if len(parts) >= 3 and parts[1] == "ui" and parts[2] in WINGS:
            others = [n for n in names if n.startswith("besm_nb.ui.") and n.split(".")[2] in WINGS and n.split(".")[2] != parts[2]]
            assert not others, (name, others)


def test_the_layering_check_sees_a_violation(tmp_path):
    "The check above is not vacuous: a rule module importing display code, or a wing UI importing another's, is caught."
    bad = tmp_path / "combat.py"
    bad.write_text("from IPython.display import HTML\nfrom ...ui.anime_d20 import checks\n")
    names = imported("besm_nb.ui.tristat.combat", bad)
    assert "IPython.display" in names and "besm_nb.ui.anime_d20.checks" in names


def test_rule_modules_import_light():
    "Every rule module (everything outside besm_nb.ui) imports without the heavy libraries."
    rules = sorted(m for m in modules() if not m.startswith("besm_nb.ui") and m != "besm_nb")
    assert {"besm_nb.dice", "besm_nb.besm_d20.chase", "besm_nb.anime_d20.combat", "besm_nb.tristat.round"} <= set(rules)
    code = (f"import sys, importlib; [importlib.import_module(m) for m in {rules!r}]; "
            "print(sorted(m for m in ('sympy', 'ipywidgets', 'matplotlib', 'voila', 'IPython') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()
    assert out == "[]"


def test_wheel_declares_core_and_extras(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next(tmp_path.glob("besm_nb-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith("METADATA"))).decode()
    requires = [l.split(":", 1)[1].strip() for l in meta.splitlines() if l.startswith("Requires-Dist:")]
    core = sorted(r.split(">")[0].split("<")[0].split("=")[0] for r in requires if "extra ==" not in r)
    assert core == ["icepool", "sympy"]
    extras = {l.split(":", 1)[1].strip() for l in meta.splitlines() if l.startswith("Provides-Extra:")}
    assert extras >= {"dashboards", "docs", "dev"}
    assert any(r.startswith("voila") and 'extra == "dashboards"' in r for r in requires)
    assert {"besm_nb/dice.py", "besm_nb/checks.py", "besm_nb/ui/calc.py", "besm_nb/ui/serve.py", "besm_nb/tristat/__init__.py",
            "besm_nb/anime_d20/combat.py", "besm_nb/besm_d20/chase.py", "besm_nb/ui/tristat/round.py"} <= set(names)


def _undefined_names(source: str) -> list[str]:
    "Global names a module reads but never defines or imports (a crude check: any binding anywhere counts)."
    import ast
    import builtins
    tree = ast.parse(source)
    defined = set(dir(builtins)) | {"__file__", "__name__", "__all__"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): defined.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)): defined |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)): defined.add(node.id)
        elif isinstance(node, ast.arg): defined.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name: defined.add(node.name)
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return sorted(used - defined)


def test_every_exported_module_defines_what_it_uses():
    "A name a notebook's test cells import but its exported cells do not works in nbdev_test and fails in the package."
    found = {str(p.relative_to(ROOT)): _undefined_names(p.read_text()) for p in sorted((ROOT / "besm_nb").rglob("*.py"))}
    assert {p: names for p, names in found.items() if names} == {}
    assert _undefined_names("def f():\n    return roll_success(1)\n") == ["roll_success"]  # the check catches one


# ---- issue 31 item 39: the licence and the source distribution ----

def test_the_licence_the_package_names_is_in_the_repository_and_shipped():
    "setup.py says Apache-2.0: the licence's text is beside it, and the sdist (and so the wheel) carries it."
    text = (ROOT / "LICENSE").read_text()
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"] and "TERMS AND CONDITIONS FOR USE" in text
    assert 'license="Apache-2.0"' in (ROOT / "setup.py").read_text()
    assert "include LICENSE" in (ROOT / "MANIFEST.in").read_text().splitlines()


def test_the_sdist_ships_no_tests():
    "The tests need the whole project (notebooks, sources, a browser): MANIFEST.in leaves them all out, whatever a setuptools "
    "release adds by default (newer ones add tests/test*.py: seven top-level files, without the folders they import)."
    from setuptools._distutils.filelist import FileList
    files = FileList()
    files.set_allfiles([str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts and ".git" not in p.parts])
    files.files = ["setup.py", *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").glob("test*.py")))]  # such a default
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        if line.strip() and not line.startswith("#"): files.process_template_line(line)
    assert not [f for f in files.files if f.split("/")[0] == "tests"]
    assert "LICENSE" in files.files and "nbs/dashboards/voila.json" in files.files


def test_no_page_says_the_trackers_stay_snapshots_on_the_site():
    "Issue 31 item 40: every tracker is live on the site (tests/test_site_trackers.py plays each): no page says otherwise."
    import json
    import re
    stale = re.compile(r"trackers? (?:stay|stays|remain|remains) (?:a )?snapshots?\b(?!\s+there)|on the site it shows as a\s+snapshot|"
                       r"stateless calculators? (?:then )?(?:goes|go|compute) live", re.I)
    texts = {"README.md": (ROOT / "README.md").read_text()}
    for nb in (ROOT / "nbs").rglob("*.ipynb"):
        cells = json.loads(nb.read_text())["cells"]
        texts[str(nb.relative_to(ROOT))] = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert [name for name, text in texts.items() if stale.search(text)] == []
