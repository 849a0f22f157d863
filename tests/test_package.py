"""The package itself: a light core import, and a wheel whose core needs only the exact-maths libraries."""
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rule_modules_import_light():
    "Every rule module (everything outside besm_nb.ui) imports without the heavy libraries."
    rules = sorted(p.stem for p in (ROOT / "besm_nb").glob("*.py") if not p.stem.startswith("_"))
    assert {"dice", "checks", "render", "chase", "d20_combat"} <= set(rules)
    code = (f"import sys, importlib; [importlib.import_module('besm_nb.' + m) for m in {rules!r}]; "
            "print(sorted(m for m in ('sympy', 'ipywidgets', 'matplotlib', 'voila') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
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
    assert {"besm_nb/dice.py", "besm_nb/checks.py", "besm_nb/ui/calc.py", "besm_nb/ui/serve.py"} <= set(names)
