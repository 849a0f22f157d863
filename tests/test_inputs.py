"""Every public entry point of every rule wing refuses bad input with a ValueError, never anything else.

The wings are discovered (every subpackage of `besm_nb` but the core and the UI), so a chapter that lands later
is walked too. For each public function, engine class and engine method, a valid base call is built from the
signature (defaults first; for the rest, values of the annotated type, names taken from the module's own
tables, instances of the annotated classes built the same way), then one argument at a time is replaced by a
value out of range or of the wrong type. (Frozen dataclasses that do not check their fields in `__post_init__` are
answers or table rows, not entry points: an input record checks its fields and is probed like any constructor.) A call may answer (when the value is of a type the annotation admits)
or raise `ValueError`; anything else (TypeError, AttributeError, OverflowError, RecursionError, a silent answer
to a value of the wrong type, NaN or infinity) is a failure.
"""
from __future__ import annotations

import collections.abc as abc
import dataclasses
import importlib
import inspect
import itertools
import math
import pkgutil
import random
import re
import signal
import sys
import types
import typing
from fractions import Fraction

import pytest

import besm_nb

CORE = {"dice", "checks", "render", "store", "ui"}
TIME_LIMIT = 20  # seconds for one call: an entry point that runs longer on a probe is a failure too
NAN, INF = float("nan"), float("inf")
HUGE = 10 ** 400
# the wrong-type values every argument is given, and the out-of-range ones of its own type
WRONG = (None, NAN, INF, "False", 1.5, [], {}, HUGE)
OUT_OF_RANGE = {int: (-10 ** 9, 10 ** 9), float: (-1e300, 1e300, -INF), str: ("no such name",)}
# a few texts the rules use everywhere: dice expressions first, for parameters such as `expr` or `damage`
COMMON_TEXT = ("2d6", "1d20", "6d8", "A", "B")


def wings() -> list[str]:
    "The rule wings: every subpackage of besm_nb except the core and the UI."
    return sorted(m.name for m in pkgutil.iter_modules(besm_nb.__path__) if m.ispkg and m.name not in CORE)


def wing_modules(wing: str) -> list[types.ModuleType]:
    pkg = importlib.import_module(f"besm_nb.{wing}")
    mods = [pkg]
    for m in pkgutil.iter_modules(pkg.__path__):
        if not m.name.startswith("_"): mods.append(importlib.import_module(f"besm_nb.{wing}.{m.name}"))
    return mods


def is_record(cls) -> bool:
    "A frozen dataclass that does not check its fields: an answer (odds, a log line) or a table row, not an entry point."
    params = getattr(cls, "__dataclass_params__", None)
    return bool(params and params.frozen and "__post_init__" not in vars(cls))


def entry_points(mod: types.ModuleType) -> list[tuple[str, object]]:
    "(name, function or class) for every public callable the module defines: functions, engines, trackers, inputs."
    out = []
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name)
        if getattr(obj, "__module__", None) != mod.__name__: continue  # re-exported or a constant
        if inspect.isfunction(obj) or (inspect.isclass(obj) and not issubclass(obj, BaseException) and not is_record(obj)):
            out.append((name, obj))
    return out


# --- types --------------------------------------------------------------------------------------------------------

def hints(fn, mod) -> dict:
    "The evaluated annotations of a callable's parameters (an annotation that cannot be evaluated admits anything)."
    target = fn.__init__ if inspect.isclass(fn) else fn
    ns = dict(vars(mod)); ns.update(vars(typing)); ns["random"] = random; ns["Fraction"] = Fraction
    out = {}
    for name, ann in getattr(target, "__annotations__", {}).items():
        try: out[name] = eval(ann, ns) if isinstance(ann, str) else ann
        except Exception: out[name] = typing.Any
    return out


def _args(h) -> tuple: return typing.get_args(h)


def _origin(h): return typing.get_origin(h)


def is_union(h) -> bool: return _origin(h) in (typing.Union, types.UnionType)


SEQS = (list, tuple, abc.Sequence, abc.Iterable, abc.Collection)
MAPS = (dict, abc.Mapping)


def admits(h, v) -> bool:
    "Whether `v` is of a type the annotation `h` admits (text is not a list, True is not a number)."
    if h is typing.Any or h is object or h is inspect.Parameter.empty or isinstance(h, (str, typing.TypeVar)): return True
    if is_union(h): return any(admits(a, v) for a in _args(h))
    if h is type(None) or h is None: return v is None
    if h is bool: return isinstance(v, bool)
    if h is int: return isinstance(v, int) and not isinstance(v, bool)
    if h is float: return isinstance(v, (int, float)) and not isinstance(v, bool)
    if h is Fraction: return isinstance(v, (int, Fraction)) and not isinstance(v, bool)
    if h is str: return isinstance(v, str)
    o = _origin(h) or h
    if o in SEQS:
        if isinstance(v, (str, dict, set, frozenset)) or not isinstance(v, (list, tuple)): return False
        a = _args(h)
        if o is tuple and a and (len(a) != 2 or a[1] is not Ellipsis):
            return len(v) == len(a) and all(admits(x, y) for x, y in zip(a, v))
        return not a or all(admits(a[0], y) for y in v)
    if o in MAPS:
        if not isinstance(v, dict): return False
        a = _args(h)
        return not a or all(admits(a[0], k) and admits(a[1], x) for k, x in v.items())
    if o in (abc.Callable, typing.Callable): return callable(v)
    if inspect.isclass(o):
        try: return isinstance(v, o)
        except TypeError: return True
    return True


def finite(v) -> bool:
    "False for NaN and infinity anywhere in `v`."
    if isinstance(v, float): return math.isfinite(v)
    if isinstance(v, (list, tuple)): return all(finite(x) for x in v)
    if isinstance(v, dict): return all(finite(x) for x in itertools.chain(v, v.values()))
    return True


# --- building valid calls -------------------------------------------------------------------------------------------

def texts(mod) -> list[tuple[str, str]]:
    "(name of the table, text) for every name in the public tables of the module and of its wing."
    try: others = [x for x in wing_modules(mod.__name__.split(".")[1]) if x is not mod]
    except Exception: others = []  # a module outside the wings (an annotation's class from the core)
    out = []
    for m in [mod] + others:
        for name, value in vars(m).items():
            if name.startswith("_") or not name.isupper(): continue
            pool = value.keys() if isinstance(value, dict) else value if isinstance(value, (tuple, list, set, frozenset)) else ()
            for x in pool:
                if isinstance(x, str): out.append((name, x))
    return out


def _tokens(name: str) -> set[str]:
    return {t.rstrip("s") for t in name.lower().split("_") if t}


class Builder:
    "Builds valid values and calls for a module's entry points, learning from the errors it meets."
    def __init__(self, mod):
        self.mod = mod
        self.tables = texts(mod)
        self.made: dict[type, tuple] = {}  # class -> (its base kwargs) once a valid one is found
        self.failed: set = set()
        self.unbuilt: list[str] = []  # entry points probed without a valid base call

    def candidates(self, name: str, h, depth: int) -> list:
        "Values to try for a parameter, most likely first."
        if is_union(h):
            out = []
            for a in _args(h):
                if a is not type(None): out += self.candidates(name, a, depth)
            return out + ([None] if type(None) in _args(h) else [])
        if h is bool: return [False, True]
        if h is int: return [0, 1, 2, 5, 10, 20, 3, 40, 100, -1]
        if h is float: return [1.0, 10.0, 0.0, 100.0]
        if h is Fraction: return [Fraction(1), Fraction(1, 2)]
        if h is str:
            want = _tokens(name)
            ranked = sorted(self.tables, key=lambda t: -len(want & _tokens(t[0])))
            named = [x for t, x in ranked if want & _tokens(t)]
            return list(dict.fromkeys(([COMMON_TEXT[0]] if want & {"expr", "damage"} else []) + named + list(COMMON_TEXT)
                                      + [x for _, x in ranked]))[:40]
        if h is random.Random: return [random.Random(0)]
        o = _origin(h) or h
        if o in SEQS:
            a = _args(h)
            if o is tuple and a and (len(a) != 2 or a[1] is not Ellipsis):
                firsts = [self.candidates(name, x, depth)[:3] for x in a]
                return [tuple(c) for c in itertools.islice(itertools.product(*firsts), 6)]
            inner = self.candidates(name, a[0], depth)[:4] if a else [0]
            return [()] + [(x,) for x in inner] + [(x, y) for x, y in zip(inner, inner[1:])]
        if o in MAPS:
            a = _args(h)
            if not a: return [{}]
            ks, vs = self.candidates(name, a[0], depth)[:3], self.candidates(name, a[1], depth)[:3]
            two = [dict(zip(ks[:2], vs[i:i + 2])) for i in range(2)] if len(ks) > 1 and len(vs) > 2 else []
            return [{}] + [{k: v} for k in ks for v in vs] + two
        if inspect.isclass(o) and depth < 4:
            made = self.instance(o, depth + 1)
            return [made] if made is not None else []
        return []

    def instance(self, cls, depth: int = 0, variant: int = 0):
        "A fresh valid instance of an engine class (variant n: another valid one, where its text fields allow), or None."
        if cls in self.failed: return None
        if cls not in self.made:
            mod = sys.modules.get(cls.__module__, self.mod)
            kwargs = (Builder(mod) if mod is not self.mod else self).base_call(cls, depth)
            if kwargs is None: self.failed.add(cls); return None
            variants = [kwargs]
            for k, v in kwargs.items():  # other valid instances: one text field changed
                if isinstance(v, str):
                    for other in ("B", "C", "Other"):
                        try: cls(**(kwargs | {k: other})); variants.append(kwargs | {k: other})
                        except Exception: pass
            self.made[cls] = variants
        variants = self.made[cls]
        try: return cls(**variants[variant % len(variants)])
        except Exception: return None

    def first_call(self, fn) -> dict:
        "Defaults, and the first candidate for every other parameter."
        sig = inspect.signature(fn)
        h = hints(fn, sys.modules.get(getattr(fn, "__module__", ""), self.mod))
        out = {}
        for p in sig.parameters.values():
            if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.name == "self": continue
            c = self.candidates(p.name, h.get(p.name, typing.Any), 0)
            out[p.name] = p.default if p.default is not p.empty else (c[0] if c else None)
        return out

    def base_call(self, fn, depth: int = 0) -> dict | None:
        "Keyword arguments for a call of `fn` that answers without error, or None."
        try: sig = inspect.signature(fn)
        except (TypeError, ValueError): return None
        h = hints(fn, sys.modules.get(getattr(fn, "__module__", ""), self.mod))
        params = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
        options = {}
        for p in params:
            ann = h.get(p.name, typing.Any)
            c = self.candidates(p.name, ann, depth)
            if inspect.isclass(_origin(ann) or ann) and not _args(ann) and c and depth < 4:  # a second instance, for pairs
                more = self.instance(_origin(ann) or ann, depth + 1, 1)
                if more is not None: c = c + [more]
            options[p.name] = ([p.default] if p.default is not p.empty else []) + [x for x in c if p.default is p.empty or x is not p.default]
            if not options[p.name]: options[p.name] = [None]
        texts_ = [n for n, p in options.items() if any(isinstance(x, str) for x in p)]
        pick = {n: 0 for n in options}
        rng = random.Random(0)
        for _ in range(300):
            kwargs = {n: options[n][i] for n, i in pick.items()}
            try:
                with limit(TIME_LIMIT):
                    fn(**kwargs)
                return kwargs
            except ValueError as err:
                msg = str(err)
                param = getattr(err, "param", None) or msg.split(":")[0]
                at = [n for n in options if n == param or param.split("[")[0].split(".")[0] == n]
                quoted = [q for q in re.findall(r"'([^']{1,40})'", msg) if q != kwargs.get(at[0] if at else "", None)]
                for n in (at or texts_):  # names the error lists are worth trying first
                    new = [q for q in quoted if q not in options[n]]
                    if new and any(isinstance(x, str) for x in options[n]):
                        options[n][pick[n] + 1:pick[n] + 1] = new
                if at and pick[at[0]] + 1 < len(options[at[0]]):
                    pick[at[0]] += 1
                    continue
            except Exception:
                pass
            if not options: return None
            n = rng.choice(list(options))
            pick[n] = rng.randrange(len(options[n]))
        return None


class Slow(Exception):
    pass


class limit:
    "Raise Slow if the block runs longer than `seconds`."
    def __init__(self, seconds): self.seconds = seconds

    def __enter__(self):
        def ring(*_): raise Slow()
        self.old = signal.signal(signal.SIGALRM, ring)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.old)
        return False


# --- probing ---------------------------------------------------------------------------------------------------------

def probes(h) -> list:
    "The values an argument of annotation `h` is tried with."
    out = list(WRONG)
    kinds = [a for a in (_args(h) if is_union(h) else (h,)) if a is not type(None)]
    for k in kinds:
        out += OUT_OF_RANGE.get(k, ())
        o = _origin(k) or k
        if o in SEQS:
            a = _args(k)
            inner = a[0] if a else int
            out += [[x] for x in OUT_OF_RANGE.get(inner, (10 ** 9,))] + [["False"], [None]]
        if o in MAPS: out += [{"no such name": 10 ** 9}, {"A": None}]
    return out


def check(fn, kwargs: dict, name: str, value, h, label: str, make=None) -> str | None:
    "Call with one argument replaced; a message if the answer breaks the contract, else None."
    args = dict(kwargs); args[name] = value
    target = fn if make is None else getattr(make(), fn)
    try:
        with limit(TIME_LIMIT):
            target(**args)
    except ValueError:
        return None
    except Slow:
        return f"{label}({name}={value!r:.40}): still running after {TIME_LIMIT} s"
    except Exception as err:
        return f"{label}({name}={value!r:.40}): {type(err).__name__}: {str(err)[:120]}"
    if not admits(h, value) or not finite(value):
        return f"{label}({name}={value!r:.40}): answered instead of refusing a value of the wrong type"
    return None


def probe(fn, mod, label: str, builder: Builder, make=None) -> list[str]:
    "Every failure of one entry point (a function or class, or a method name with `make` building its instance)."
    target = fn if make is None else getattr(make(), fn)
    kwargs = builder.base_call(target)
    if kwargs is None:  # a call that needs a state the builder cannot make (undo with nothing done): probe around defaults
        builder.unbuilt.append(label)
        kwargs = builder.first_call(target)
    h = hints(target, sys.modules.get(getattr(target, "__module__", mod.__name__), mod))
    out = []
    for name in kwargs:
        for value in probes(h.get(name, typing.Any)):
            msg = check(fn, kwargs, name, value, h.get(name, typing.Any), label, make)
            if msg: out.append(msg)
    return out


def methods(cls) -> list[str]:
    "The public methods a class defines (not properties, not inherited from object)."
    return [n for n, v in vars(cls).items() if not n.startswith("_") and inspect.isfunction(v)]


def failures(mod, unbuilt: list | None = None) -> list[str]:
    "Every contract failure in one module (the entry points probed without a valid base call go to `unbuilt`)."
    b = Builder(mod)
    b.unbuilt = unbuilt if unbuilt is not None else []
    out = []
    for name, obj in entry_points(mod):
        label = f"{mod.__name__}.{name}"
        out += probe(obj, mod, label, b)
        if inspect.isclass(obj):
            for m in methods(obj):
                if b.instance(obj) is None: break
                out += probe(m, mod, f"{label}.{m}", b, make=lambda obj=obj: b.instance(obj))
    return out


MODULES = [m for w in wings() for m in wing_modules(w)]


@pytest.fixture(autouse=True)
def elsewhere(tmp_path, monkeypatch):
    "Entry points that write files (save_chase) write them in a scratch folder, never in the project."
    monkeypatch.chdir(tmp_path)


def test_the_wings_are_found():
    "The walk finds every rule wing that exists (today's three at least) and their chapters."
    assert {"tristat", "anime_d20", "besm_d20"} <= set(wings())
    assert {"besm_nb.tristat.round", "besm_nb.anime_d20.modifiers", "besm_nb.besm_d20.chase"} <= {m.__name__ for m in MODULES}


UNBUILT: dict[str, list[str]] = {}


@pytest.mark.parametrize("mod", MODULES, ids=lambda m: m.__name__)
def test_every_entry_point_refuses_bad_input(mod):
    found = failures(mod, UNBUILT.setdefault(mod.__name__, []))
    assert not found, f"{len(found)} failures:\n" + "\n".join(found[:60])


def test_most_entry_points_get_a_valid_base_call():
    "The probe is not vacuous: nearly every entry point is probed from a call that answers (not from one refused anyway)."
    total = sum(len(entry_points(m)) for m in MODULES)
    for m in MODULES:
        if m.__name__ not in UNBUILT: failures(m, UNBUILT.setdefault(m.__name__, []))  # run alone: walk it here
    unbuilt = [u for m in MODULES for u in UNBUILT[m.__name__]]
    assert len(unbuilt) <= total // 8, f"{len(unbuilt)} of {total} entry points had no valid base call: {unbuilt}"


# --- the guard is not vacuous -----------------------------------------------------------------------------------------

def test_the_probe_catches_broken_functions():
    "Functions that take the text 'False' as a switch, pass NaN through, or fail with a TypeError are caught."
    from besm_nb.dice import require_bool, require_int
    fake = types.ModuleType("besm_nb.fake.rules")
    src = '''
from besm_nb.dice import require_bool, require_int
__all__ = ["lenient_switch", "nan_passes", "type_error", "good"]

def lenient_switch(n: int = 1, ranged: bool = True) -> int:
    return require_int(n, "n", 0, 10) + (1 if ranged else 0)

def nan_passes(x: float = 1.0) -> bool:
    return x < 100

def type_error(names: list[str] = ()) -> int:
    return sum(len(n) for n in names)

def good(n: int = 1, ranged: bool = True) -> int:
    return require_int(n, "n", 0, 10) + require_bool(ranged, "ranged")
'''
    exec(compile(src, "<fake>", "exec"), fake.__dict__)
    fake.__dict__["__name__"] = "besm_nb.fake.rules"
    for f in (fake.lenient_switch, fake.nan_passes, fake.type_error, fake.good): f.__module__ = "besm_nb.fake.rules"
    sys.modules["besm_nb.fake.rules"] = fake
    try:
        found = failures(fake)
    finally:
        del sys.modules["besm_nb.fake.rules"]
    assert any("lenient_switch(ranged='False')" in f and "wrong type" in f for f in found), found
    assert any("nan_passes(x=nan)" in f for f in found), found
    assert any("type_error(names=" in f and "TypeError" in f for f in found), found
    assert not [f for f in found if ".good" in f], found
