"""Every public entry point of every rule wing refuses bad input with a ValueError, never anything else.

The wings are discovered (every subpackage of `besm_nb` but the core and the UI), so a chapter that lands later
is walked too. For each public function, engine class and engine method, a valid base call is built from the
signature (defaults first; for the rest, values of the annotated type, names taken from the module's own
tables, instances of the annotated classes built the same way), then one argument at a time is replaced by a
value out of range or of the wrong type. (Frozen dataclasses that do not check their fields in `__post_init__` are
answers or table rows, not entry points: an input record checks its fields and is probed like any constructor.) A call may answer (when the value is of a type the annotation admits)
or raise `ValueError`; anything else (TypeError, AttributeError, OverflowError, RecursionError, a silent answer
to a value of the wrong type, NaN or infinity) is a failure.

For the newer wings (BESM d20 beyond the chase, special situations, encounters) the walk goes further: records passed
back in with one field wrong (one level deep too), the methods of records and the classes' own loaders; and every
tracker's save, blank and played, damaged one field at a time, must be refused with a ValueError within 2 s.
"""
from __future__ import annotations

import collections.abc as abc
import dataclasses
import importlib
import inspect
import itertools
import json
import math
import pkgutil
import random
import re
import signal
import sys
import time
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
            pool = value.keys() if isinstance(value, dict) else value if isinstance(value, (tuple, list)) else \
                sorted(value, key=repr) if isinstance(value, (set, frozenset)) else ()  # a set's order changes from run to run
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

    def default_first(self, ann) -> bool: return True  # whether a parameter's default is tried before the candidates

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
            if not self.default_first(ann) and len(options[p.name]) > 1: options[p.name] = options[p.name][1:] + options[p.name][:1]
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
    b = Player(mod) if mod.__name__ in sys.modules and mod.__name__.split(".")[1] in wings() else Builder(mod)
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


# --- the newer wings: records built by hand, record methods and loaders, and every tracker's saves ------------------------
#
# BESM d20 beyond the chase, special situations and encounters pass records back and forth: a unit combat's state, a
# battle's fights, a damage record's events. A record built by hand (or a save) may hold anything: each field is given a
# wrong value in turn, one level into the records it holds too, and the entry point must refuse it with a ValueError or
# answer only where the value is of the field's own type. Methods of records (not walked above) and the classes' own
# loaders (`from_dict`) are walked as entry points. Then every tracker's save, blank and played, is damaged one field at
# a time, and loading it must raise ValueError, never anything else, within 2 s.
#
# Where another wing's defect makes a case fail today, the case is marked xfail(strict=True) naming the defect (KNOWN
# below): when the wing is fixed the mark must go, or the case fails as "passed unexpectedly".

def newer(mod: types.ModuleType) -> bool:
    "Whether a module belongs to the newer wings: BESM d20 beyond the chase, special situations, encounters."
    parts = mod.__name__.split(".")
    return parts[1] in ("special", "encounters") or (parts[1] == "besm_d20" and parts[-1] not in ("chase", "chase_odds"))


NEWER = [m for m in MODULES if newer(m)]
FIELD_WRONG = (None, "False", 1.5, [], HUGE)  # each field of a record is given these, and out-of-range values of its type
TRACKER_LIMIT = 2.0  # seconds of CPU a tracker's loader may spend on any save
KNOWN: dict[str, str] = {}  # case id -> the defect that makes it fail today (none known now)


def wing_class(cls) -> bool:
    "A dataclass of a newer wing's module: what a record built by hand is made of."
    mod = sys.modules.get(getattr(cls, "__module__", ""))
    return inspect.isclass(cls) and dataclasses.is_dataclass(cls) and mod is not None and newer(mod)


def record_types(h) -> list[type]:
    "The newer wings' dataclasses an annotation names (directly, in a union, or as the items of a sequence)."
    out = []
    for a in (_args(h) if is_union(h) else (h,)):
        o = _origin(a) or a
        if o in SEQS: out += [x for inner in _args(a)[:1] for x in record_types(inner)]
        elif wing_class(o): out.append(o)
    return out


def field_hints(cls) -> dict:
    return hints(cls, sys.modules[cls.__module__])


def mutants(value, depth: int = 0):
    "(what was changed, the changed record, whether the new value is of the field's own type) for each field of a record."
    cls = type(value)
    h = field_hints(cls)
    for f in dataclasses.fields(value):
        if not f.init: continue
        ann = h.get(f.name, typing.Any)
        for bad in FIELD_WRONG + tuple(x for k in (_args(ann) if is_union(ann) else (ann,)) for x in OUT_OF_RANGE.get(k, ())):
            try: changed = dataclasses.replace(value, **{f.name: bad})
            except ValueError: continue  # the record itself refuses it: nothing built
            except Exception: continue  # a constructor's own crash is the walk above's to report
            yield f"{cls.__name__}.{f.name}={bad!r:.30}", changed, admits(ann, bad) and finite(bad)
        inner = getattr(value, f.name)
        first = inner[0] if isinstance(inner, (tuple, list)) and inner else inner
        if depth < 1 and dataclasses.is_dataclass(first) and wing_class(type(first)):
            for what, m, ok in mutants(first, depth + 1):
                new = m if first is inner else type(inner)([m, *inner[1:]])
                try: changed = dataclasses.replace(value, **{f.name: new})
                except ValueError: continue
                except Exception: continue
                yield f"{cls.__name__}.{f.name}{'[0]' if first is not inner else ''}.{what}", changed, ok


# --- every tracker, blank and played (their engines' states also serve the record walk: a combat in play) --------------

def press(t, button, seed: int = 7) -> None:
    "Press a tracker's button with the dice seed set first: a tracker picks each next seed at random, the test the same one."
    for box in ("seed", "dice_seed"):  # a tracker's own seed box, or the kit's
        if hasattr(t, box): getattr(t, box).value = seed
    button.click()


def _car_chase(t):
    for name, kind, driver in (("Roadster", "car", "Vic"), ("Bike", "motorcycle", "Anna")):
        t.f_name.value, t.f_kind.value, t.f_driver.value = name, kind, driver; t.b_add.click()
    t.foe_pick.value = ("Bike",)
    t.pick.value = "Roadster"; t.damage.value = "6d6"
    for i, b in enumerate((t.b_hit, t.b_control, t.b_end)): press(t, b, 9 + i)


def _melee(t):
    t.example_button.click()  # two sides and five fighters, as the set-up's buttons add them
    t.foe_pick.value = ("Raiders",)
    t.faces.value = ("Ulf", "Bo"); press(t, t.contest_button, 5)
    press(t, t.resolve_button, 6)
    for i in range(4): press(t, t.resolve_button, 7 + i)  # Hild, Ulf, Sten and Bo, each with his common choice
    assert t.melee.turn == 2 and len(t.melee.steps) > 6, "the melee tracker was not played (a renamed control?)"


def _tristat(t):
    for name, acv, dcv, attack, power in [("Jadeite", 8, 6, "Dark Energy", 60), ("Moon", 6, 5, "Moon Tiara", 30)]:
        t.f_name.value, t.f_acv.value, t.f_dcv.value, t.f_attack.value, t.f_power.value = name, acv, dcv, attack, power
        t.f_health.value, t.f_energy.value = 40, 50
        press(t, t.add_button)
    t.dice_typed.value = "6 1"; press(t, t.roll_init_button)
    t.targets.value = ("Moon",); t.energy.value = 5
    t.dice_typed.value = "8"; press(t, t.resolve_button)  # the attack roll (Moon does not answer)
    assert len(t.fight.actions) == 1, "the Tri-Stat tracker was not played (a renamed control?)"


def _anime_fight(t):
    for name, side, foe, weapon, damage in (("Aiko", "heroes", False, "katana", "1d10+2"), ("Oni", "foes", True, "club", "1d8+3")):
        t.edit.value = ""; t._fill_form()  # a new fighter in the set-up form
        t.form["name"].value, t.form["side"].value, t.form["foe"].value = name, side, foe
        t.wform["name"].value, t.wform["damage"].value = weapon, damage
        press(t, t.add_button)
    t.dice_typed.value = "15 3"; press(t, t.init_button)
    t.targets.value = ("Oni",); t.dice_typed.value = "14 7"; press(t, t.resolve_button)
    assert len(t.fight.played) == 2, "the Anime d20 fight tracker was not played (a renamed control?)"


def _wounds(t):
    t.fields["amount"].widget.value = 12; t.buttons["Damage"].click(); t.buttons["Second wind"].click()
    t.fields["amount"].widget.value = 5; t.buttons["Damage"].click()


def _battle(t):
    t.foe_pick.value = ("B",)  # the raiders are foes: the players' view settings are walked too
    for i, b in enumerate((t.start_button, t.turn_button, t.turn_button, t.encounter_button)): press(t, b, 11 + i)  # the fight left on


def _chase(t):
    t.lead_in.value = "12"
    for i, b in enumerate((t.start_button, t.resolve_button, t.resolve_button)): press(t, b, 3 + i)


def _classless(t):
    t.pick.value = "Dexterity"; t.count.value = 4
    for b in (t.buy_button, t.session_button, t.session_button): b.click()


def _damage_saves(t):
    for i, b in enumerate((t.roll_button, t.round_button, t.roll_button)): press(t, b, 5 + i)


def _fate(t):
    t.use.value = "Raw Power"; t.level.value = 4; press(t, t.spend_button, 3)
    t.gain_points.value = 2; t.goal.value = "saved the school"; t.gain_button.click()


def _units(t):
    t.foe_pick.value = ("Goblin raiders",)
    for i, b in enumerate((t.start_button, t.init_button, t.act_button, t.act_button, t.morale_button, t.morale_button, t.round_button)):
        press(t, b, 4 + i)


def _stamina(t):
    t.f_name.value, t.f_strength.value, t.f_willpower.value, t.f_max.value = "Garth", 5, 3, 40; t.b_add.click()
    t.b_end.click(); t.b_end.click()


def tracker_kinds() -> dict[str, tuple]:
    "Every tracker of the dashboards: name -> (a new one with no files, what a short game at the table does with it)."
    from besm_nb.ui.anime_d20.damage import wounds_tracker
    from besm_nb.ui.anime_d20.fight import Tracker as D20FightTracker
    from besm_nb.ui.besm_d20.battles import BattleTracker
    from besm_nb.ui.besm_d20.chase import ChaseTracker
    from besm_nb.ui.besm_d20.classless import ClasslessPanel
    from besm_nb.ui.besm_d20.damage_saves import DamageSaveTracker
    from besm_nb.ui.besm_d20.fate_points import FateLedgerPanel
    from besm_nb.ui.besm_d20.units import UnitTracker
    from besm_nb.ui.encounters.exertion import StaminaTracker
    from besm_nb.ui.special.car_chase import CarChaseTracker
    from besm_nb.ui.special.melee_fight import MeleeTracker
    from besm_nb.ui.tristat.round import Tracker as FightTracker
    return {"tristat-fight": (lambda: FightTracker(seed=5, saves=None, autosave=False), _tristat),
            "anime-d20-wounds": (lambda: wounds_tracker(40, saves=None), _wounds),
            "anime-d20-fight": (lambda: D20FightTracker(seed=11, saves=None, autosave=False), _anime_fight),
            "besm-d20-battle": (lambda: BattleTracker(saves=None, autosave=False, seed=3), _battle),
            "besm-d20-chase": (lambda: ChaseTracker(seed=7, saves=None, autosave=False), _chase),
            "besm-d20-classless": (lambda: ClasslessPanel(saves=None), _classless),
            "besm-d20-damage-saves": (lambda: DamageSaveTracker(seed=5, saves=None), _damage_saves),
            "besm-d20-fate-points": (lambda: FateLedgerPanel(seed=3, saves=None), _fate),
            "besm-d20-units": (lambda: UnitTracker(saves=None, autosave=False, seed=4), _units),
            "encounters-stamina": (lambda: StaminaTracker(saves=None, autosave=False), _stamina),
            "special-car-chase": (lambda: CarChaseTracker(seed=9, saves=None, autosave=False), _car_chase),
            "special-melee": (lambda: MeleeTracker(seed=8, saves=None, autosave=False), _melee)}


TRACKERS = ["tristat-fight", "anime-d20-wounds", "anime-d20-fight", "besm-d20-battle", "besm-d20-chase", "besm-d20-classless",
            "besm-d20-damage-saves", "besm-d20-fate-points", "besm-d20-units", "encounters-stamina", "special-car-chase", "special-melee"]
_PLAYED: dict[str, object] = {}


def played(name: str):
    "A tracker of this kind after a short game (made once per session)."
    if name not in _PLAYED:
        make, play = tracker_kinds()[name]
        random.seed(0)  # a tracker draws its next seeds from the global generator: the same game every run
        t = make()
        play(t)
        _PLAYED[name] = t
    return _PLAYED[name]


def _records_in(obj, out: dict, depth: int = 0) -> None:
    "Collect the newer wings' records held by an object, its engine and the records those hold."
    if depth > 4: return
    if isinstance(obj, (list, tuple)):
        for x in obj[:60]: _records_in(x, out, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        if wing_class(type(obj)) and all(obj is not y for y in out.get(type(obj), [])): out.setdefault(type(obj), []).insert(0, obj)
        for f in dataclasses.fields(obj): _records_in(getattr(obj, f.name), out, depth + 1)
    elif type(obj).__module__.startswith("besm_nb.") and hasattr(obj, "__dict__") and depth < 2:
        for k, v in vars(obj).items():
            if not k.startswith("_"): _records_in(v, out, depth + 1)


_FROM_PLAY: dict[type, list] = {}


def from_play() -> dict[type, list]:
    "The records the played trackers hold, newest first: a unit combat in play, a battle under way, a damage record's events."
    if not _FROM_PLAY:
        for name in TRACKERS: _records_in(played(name), _FROM_PLAY)
    return _FROM_PLAY


class Grower(Builder):
    """A builder that also keeps the records its module's own functions return (a unit combat begun, then with Initiative
    rolled), newest first, and offers them before records built from their constructors: an engine's state in play."""
    def __init__(self, mod, rounds: int = 2):
        super().__init__(mod)
        self.pool: dict[type, list] = {}
        _BUSY.add(mod.__name__)
        try: self._grow(mod, rounds)
        finally: _BUSY.discard(mod.__name__)

    def _grow(self, mod, rounds: int) -> None:
        random.seed(0)  # an engine left to roll its own dice rolls the same ones whatever ran before
        makers = [fn for _, fn in entry_points(mod) if inspect.isfunction(fn) and record_types(hints(fn, mod).get("return", None))
                  or any(record_types(a) for a in _args(hints(fn, mod).get("return", None)))]
        for _ in range(rounds):
            for fn in makers:
                kwargs = self.base_call(fn)
                if kwargs is None: continue
                try:
                    with limit(5):
                        out = fn(**kwargs)
                except Exception:
                    continue
                for x in (out if isinstance(out, tuple) else (out,)):
                    if wing_class(type(x)) and all(x != y for y in self.pool.get(type(x), [])):
                        self.pool.setdefault(type(x), []).insert(0, x)

    def default_first(self, ann) -> bool:
        "Dice left to the engine (the default, None) would be rolled afresh each run: seeded dice first."
        return not admits(ann, random.Random(0))

    def names(self) -> list[str]:
        "The names the records in play hold (a unit's, an army's): what `unit` or `target` asks for."
        if not hasattr(self, "_names"):
            def named(held): return [getattr(r, "name") for r in held if isinstance(getattr(r, "name", None), str)]
            held = [r for rs in list(from_play().values()) + list(self.pool.values()) for r in rs]
            own = [r for rs in in_play().values() for r in rs if type(r).__module__ == self.mod.__name__]  # a car chase's vehicles
            self._names = list(dict.fromkeys(list(dict.fromkeys(named(held)))[:8] + named(own)[:4]))
        return self._names

    def candidates(self, name: str, h, depth: int) -> list:
        o = _origin(h) or h
        if h is not typing.Any and admits(h, random.Random(0)) and not admits(h, "x"): return [random.Random(0)]  # seeded dice only
        if h is str: return list(dict.fromkeys(self.names() + super().candidates(name, h, depth)))
        grown = (from_play().get(o, [])[:3] + in_play().get(o, [])[:3] + self.pool.get(o, [])[:3] + grown_elsewhere(o)) if inspect.isclass(o) else []
        return grown + super().candidates(name, h, depth)


_BUSY: set[str] = set()  # the modules whose records are being grown now (a grower never waits on itself)


def grown_elsewhere(cls) -> list:
    "Records of a class another module defines, as its own functions return them (a success roll, a critical hit's entry)."
    m = sys.modules.get(getattr(cls, "__module__", ""))
    if m is None or m.__name__ in _BUSY or m.__name__ not in {x.__name__ for x in NEWER}: return []
    return grower(m).pool.get(cls, [])[:3]


_IN_PLAY: dict[type, list] = {}


def in_play() -> dict[type, list]:
    "Every object of a rule wing the played trackers hold (engines such as a unit combat or a car chase, and their records)."
    if not _IN_PLAY:
        names, seen = set(wings()), set()
        def walk(obj, depth):
            if depth > 5 or id(obj) in seen: return
            seen.add(id(obj))
            if isinstance(obj, (list, tuple)):
                for x in obj[:60]: walk(x, depth + 1)
            elif isinstance(obj, dict):
                for x in list(obj.values())[:60]: walk(x, depth + 1)
            elif type(obj).__module__.startswith("besm_nb.") and not isinstance(obj, type):
                parts = type(obj).__module__.split(".")
                if len(parts) > 2 and parts[1] in names: _IN_PLAY.setdefault(type(obj), []).append(obj)
                items = [getattr(obj, f.name) for f in dataclasses.fields(obj)] if dataclasses.is_dataclass(obj) else \
                    [v for k, v in vars(obj).items() if not k.startswith("_")] if hasattr(obj, "__dict__") else []
                for x in items: walk(x, depth + 1)
        for name in TRACKERS: walk(played(name), 0)
    return _IN_PLAY


class Player(Grower):
    "A grower whose engines are copies of those in play (a unit combat under way, a car chase with its vehicles): what a method is called on."
    def instance(self, cls, depth: int = 0, variant: int = 0):
        import copy
        held = in_play().get(cls) if not getattr(getattr(cls, "__dataclass_params__", None), "frozen", False) else None
        if held: return copy.deepcopy(held[variant % len(held)])  # an engine (frozen records come as before: grown or built)
        return super().instance(cls, depth, variant)


def record_cases() -> list[tuple[str, types.ModuleType, str, str | None, str]]:
    "(case id, module, entry point, method or None, parameter) for every parameter of the newer wings that takes a record."
    out = []
    for mod in NEWER:
        for name, obj in entry_points(mod):
            targets = [(None, obj)] + ([(m, getattr(obj, m)) for m in methods(obj)] if inspect.isclass(obj) else [])
            for meth, fn in targets:
                try: h = hints(fn, mod)
                except Exception: continue
                for p in inspect.signature(fn).parameters.values():
                    if p.name != "self" and record_types(h.get(p.name, typing.Any)):
                        label = f"{mod.__name__}.{name}" + (f".{meth}" if meth else "")
                        out.append((f"{label}({p.name})", mod, name, meth, p.name))
    return out


RECORD_CASES = record_cases()
_GROWN: dict[str, Player] = {}


def grower(mod) -> Player:
    "One Grower per module for the whole session: growing records is the costly part."
    if mod.__name__ not in _GROWN: _GROWN[mod.__name__] = Player(mod)
    return _GROWN[mod.__name__]


def case_param(case_id: str, *values):
    "A parametrize entry, marked xfail(strict=True) if a known defect of another wing makes it fail today."
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN[case_id])] if case_id in KNOWN else []
    return pytest.param(*values, id=case_id, marks=marks)


_RECORD_RESULTS: dict[tuple, list[str] | None] = {}


def record_failures(mod, name: str, meth: str | None, param: str) -> list[str] | None:
    "Every way one entry point mishandles a record built by hand in one parameter (None: no valid call to start from)."
    key = (mod.__name__, name, meth, param)
    if key not in _RECORD_RESULTS: _RECORD_RESULTS[key] = _record_failures(mod, name, meth, param)
    return _RECORD_RESULTS[key]


def _record_failures(mod, name: str, meth: str | None, param: str) -> list[str] | None:
    b = grower(mod)
    random.seed(0)
    obj = getattr(mod, name)
    make = (lambda: b.instance(obj)) if meth else None
    if meth and make() is None: return None
    target = getattr(make(), meth) if meth else obj
    kwargs = b.base_call(target)
    base = (kwargs or {}).get(param)
    seq = isinstance(base, (tuple, list))
    record = (base[0] if base else None) if seq else base
    if kwargs is not None and not dataclasses.is_dataclass(record):  # a record left out (None, no events): put one in
        for value in b.candidates(param, hints(target, mod).get(param, typing.Any), 0)[:12]:
            first = (value[0] if value else None) if isinstance(value, (tuple, list)) else value
            if not dataclasses.is_dataclass(first): continue
            try:
                with limit(TIME_LIMIT):
                    (getattr(make(), meth) if meth else obj)(**dict(kwargs, **{param: value}))
            except Exception:
                continue
            base, seq, record = value, isinstance(value, (tuple, list)), first
            break
    if not dataclasses.is_dataclass(record):
        return None  # no valid call holding a record to change: counted in the test of the walk itself
    out = []
    for what, changed, ok in mutants(record):
        value = type(base)([changed, *base[1:]]) if seq else changed
        args = dict(kwargs, **{param: value})
        try:
            with limit(TIME_LIMIT):
                (getattr(make(), meth) if meth else obj)(**args)
        except ValueError:
            continue
        except Slow:
            out.append(f"{param} with {what}: still running after {TIME_LIMIT} s")
            continue
        except Exception as err:
            out.append(f"{param} with {what}: {type(err).__name__}: {str(err)[:100]}")
            continue
        if not ok: out.append(f"{param} with {what}: answered instead of refusing a value of the wrong type")
    return out


@pytest.mark.parametrize("mod, name, meth, param", [case_param(c, m, n, me, p) for c, m, n, me, p in RECORD_CASES])
def test_records_built_by_hand_are_refused(mod, name, meth, param):
    found = record_failures(mod, name, meth, param)
    if found is None:
        pytest.skip("no valid call holding such a record could be built to start from")
    assert not found, f"{len(found)} failures:\n" + "\n".join(found[:40])


def test_the_newer_wings_pass_records_to_be_walked():
    "The walk is not vacuous: the unit combat's state, a battle's state and a damage record's events are among the records,"
    "and nearly every case starts from a valid call (a unit combat in play, taken from a played tracker)."
    ids = {c[0] for c in RECORD_CASES}
    assert len(ids) >= 20
    for case in ("besm_nb.besm_d20.unit_rounds.attack(state)", "besm_nb.besm_d20.battles.resolve_turn(state)",
                 "besm_nb.besm_d20.damage_saves.DamageTrack(events)"):
        assert case in ids, case
    unbuilt = [c for c, m, n, me, p in RECORD_CASES if record_failures(m, n, me, p) is None]
    assert len(unbuilt) <= len(RECORD_CASES) // 6, unbuilt


def more_entry_points(mod) -> list[tuple[str, object, object]]:
    "(label, method name or callable, instance maker or None): the methods of records and the classes' own loaders."
    out = []
    b = Builder(mod)
    for name in getattr(mod, "__all__", ()):
        cls = getattr(mod, name)
        if not inspect.isclass(cls) or getattr(cls, "__module__", None) != mod.__name__ or issubclass(cls, BaseException): continue
        for m, v in vars(cls).items():
            if m.startswith("_"): continue
            if isinstance(v, (classmethod, staticmethod)): out.append((f"{mod.__name__}.{name}.{m}", getattr(cls, m), None))
            elif is_record(cls) and inspect.isfunction(v): out.append((f"{mod.__name__}.{name}.{m}", m, lambda cls=cls: b.instance(cls)))
    return out


MORE_CASES = [(label, mod) for mod in NEWER for label, _, _ in more_entry_points(mod)]


@pytest.mark.parametrize("label, mod", [case_param(label, label, mod) for label, mod in MORE_CASES])
def test_record_methods_and_loaders_refuse_bad_input(label, mod):
    b = Builder(mod)
    (_, fn, make), = [e for e in more_entry_points(mod) if e[0] == label]
    if make is not None and make() is None: pytest.fail(f"{label}: no valid instance to call it on")
    found = probe(fn, mod, label, b, make=make)
    assert not found, f"{len(found)} failures:\n" + "\n".join(found[:40])


def test_record_methods_and_loaders_are_found():
    labels = {c[0] for c in MORE_CASES}
    for label in ("besm_nb.besm_d20.damage_saves.DamageTrack.from_dict", "besm_nb.besm_d20.classless.ClasslessBuild.from_dict",
                  "besm_nb.encounters.exertion.StaminaRecord.from_dict", "besm_nb.besm_d20.unit_rounds.Combat.from_dict"):
        assert label in labels, label


# --- every tracker's saves, damaged one field at a time ------------------------------------------------------------------

def paths(doc, at=(), out=None, limit_=60) -> list[tuple]:
    "Where a save holds something: every object's place and key, and a list's first and last items (at most `limit_`)."
    out = [] if out is None else out
    if len(out) >= limit_: return out
    out.append(at)
    if isinstance(doc, dict):
        for k, v in doc.items(): paths(v, at + (k,), out, limit_)
    elif isinstance(doc, list) and doc:
        for i in sorted({0, len(doc) - 1}): paths(doc[i], at + (i,), out, limit_)
    return out


def _get(doc, at):
    for k in at: doc = doc[k]
    return doc


def _set(doc, at, value):
    import copy
    doc = copy.deepcopy(doc)
    if not at: return value
    _get(doc, at[:-1])[at[-1]] = value
    return doc


def _drop(doc, at):
    import copy
    doc = copy.deepcopy(doc)
    del _get(doc, at[:-1])[at[-1]]
    return doc


DEEP = "[" * 100_000 + "]" * 100_000  # nesting no save holds (the parser's own recursion limit is far below it)


def save_mutants(state: dict):
    "(what was done, the save file's text) for each damage to a tracker's saved state, one at a time."
    def doc(data) -> str: return json.dumps({"format": "besm_nb", "kind": KIND, "version": VERSION, "data": data})
    for at in paths(state):
        here = _get(state, at)
        where = "/".join(map(str, at)) or "(top)"
        if isinstance(here, dict):
            yield f"{where}: an extra field", doc(_set(state, at + ("no such field",), 1))
            for k in list(here)[:None if len(at) < 3 else 1]:  # near the top every field, deeper the first
                yield f"{where}: missing {k}", doc(_drop(state, at + (k,)))
            if at: yield f"{where}: a list instead of an object", doc(_set(state, at, [here]))
        elif isinstance(here, list):
            yield f"{where}: an object instead of a list", doc(_set(state, at, {"0": here}))
            yield f"{where}: an item that is nothing", doc(_set(state, at, here + [None]))
        elif isinstance(here, bool):
            yield f"{where}: the text 'False' for a flag", doc(_set(state, at, "False"))
        elif isinstance(here, int):
            yield f"{where}: text for a number", doc(_set(state, at, str(here)))
            yield f"{where}: a fraction for a whole number", doc(_set(state, at, here + 0.5))
            yield f"{where}: out of range", doc(_set(state, at, -10 ** 9))
        elif isinstance(here, str):
            yield f"{where}: a list where a name belongs", doc(_set(state, at, [here]))
            yield f"{where}: a number for text", doc(_set(state, at, 7))
        elif here is None:
            yield f"{where}: text where nothing is", doc(_set(state, at, "x"))
    first_leaf = next((at for at in paths(state) if not isinstance(_get(state, at), (dict, list))), ())
    yield f"{'/'.join(map(str, first_leaf))}: a huge number", doc(_set(state, first_leaf, 0)).replace(":0", ":" + "9" * 5000, 1) \
        if first_leaf else doc(state)
    yield f"{'/'.join(map(str, first_leaf))}: deep nesting", doc(_set(state, first_leaf, 0)).replace(":0", ":" + DEEP, 1) \
        if first_leaf else doc(state)
    yield "nesting deeper than any save", doc(_set(state, first_leaf, 0)).replace(":0", ":" + "[" * 40 + "]" * 40, 1)


KIND, VERSION = "", 1  # set per tracker by `load_failures`


def load_failures(name: str, which: str, folder) -> list[str]:
    "Every damaged save of one tracker (blank or played) that its loader takes, mishandles or is slow on."
    t = played(name)
    return loader_failures(tracker_kinds()[name][0](), t.blank() if which == "blank" else t.state(), folder)


def loader_failures(fresh, state: dict, folder) -> list[str]:
    "Every damage to `state` that the tracker `fresh` loads, mishandles or is slow on (its loader: Load's and Upload's)."
    global KIND, VERSION
    from besm_nb.store import load_json
    KIND, VERSION = fresh.kind, fresh.version
    out, seen = [], set()
    path = folder / "save.json"
    for what, text in save_mutants(state):
        if text in seen: continue
        seen.add(text)
        path.write_text(text)
        t0 = time.process_time()
        try:
            with limit(TIME_LIMIT):
                fresh.restore(load_json(path, fresh.kind, fresh.version))
        except ValueError:
            pass
        except Slow:
            out.append(f"{what}: still loading after {TIME_LIMIT} s"); continue
        except Exception as err:
            out.append(f"{what}: {type(err).__name__}: {str(err)[:100]}"); continue
        else:
            if what.startswith("(top): missing ") and what[len("(top): missing "):] in getattr(fresh, "added_later", {}):
                continue  # a part added to the save later (its reason on the tracker): saves made before it still load
            out.append(f"{what}: loaded instead of refused")
        if time.process_time() - t0 > TRACKER_LIMIT: out.append(f"{what}: {time.process_time() - t0:.1f} s to refuse")
    return out


@pytest.mark.parametrize("name, which", [case_param(f"{n}-{w}", n, w) for n in TRACKERS for w in ("blank", "played")])
def test_every_trackers_damaged_save_is_refused(name, which, tmp_path):
    found = load_failures(name, which, tmp_path)
    assert not found, f"{len(found)} failures:\n" + "\n".join(found[:40])


def test_the_played_trackers_have_played(tmp_path):
    "The saves walked are not vacuous: each played tracker differs from a new one, and loads back as it is."
    from besm_nb.store import load_json, save_json
    for name in TRACKERS:
        t = played(name)
        assert json.dumps(t.state(), sort_keys=True) != json.dumps(t.blank(), sort_keys=True), name
        save_json(tmp_path / "ok.json", t.kind, t.version, t.state())
        fresh = tracker_kinds()[name][0]()
        fresh.restore(load_json(tmp_path / "ok.json", t.kind, t.version))
        assert json.dumps(fresh.state(), sort_keys=True) == json.dumps(t.state(), sort_keys=True), name


def test_the_save_walk_catches_a_lenient_loader(tmp_path):
    "A loader that fills a missing field, takes an extra one, or crashes on a list where a name belongs is caught."
    from besm_nb.store import fields, text, whole

    class Lenient:
        kind, version = "fake", 1
        def restore(self, data):
            self.name = {"Ami": 1, "Rei": 2}.get(data.get("name", "Ami"), 0)  # a list here: TypeError (unhashable)
            self.hp = int(data.get("hp", 10))

    class Strict(Lenient):
        def restore(self, data):
            f = fields(data, "record", ("name", "hp"), ("name", "hp"))
            self.name, self.hp = text(f["name"], "record.name", ("Ami", "Rei")), whole(f["hp"], "record.hp", 0, 100)

    found = loader_failures(Lenient(), {"name": "Ami", "hp": 10}, tmp_path)
    for what in ("(top): an extra field", "(top): missing name", "name: a list where a name belongs: TypeError", "hp: text for a number"):
        assert any(f.startswith(what) for f in found), (what, found)
    assert loader_failures(Strict(), {"name": "Ami", "hp": 10}, tmp_path) == []


def test_the_record_walk_catches_a_record_taken_unchecked():
    "A function of a newer wing that reads a record passed back in without checking it is caught; one that checks is not."
    fake = types.ModuleType("besm_nb.special.fake_records")
    src = '''
from dataclasses import dataclass
from besm_nb.dice import require_int
__all__ = ["Row", "trusting", "checking"]

@dataclass(frozen=True)
class Row:
    lo: int = 1
    hi: int = 6

TABLE = (Row(1, 6), Row(7, 12))

def trusting(row: Row = TABLE[0], roll: int = 3) -> bool:
    return TABLE[row.lo // 7].hi >= roll

def checking(row: Row = TABLE[0], roll: int = 3) -> bool:
    require_int(row.lo, "row.lo", 1, 12); require_int(row.hi, "row.hi", 1, 12)
    return row.hi >= require_int(roll, "roll", 1, 12)
'''
    sys.modules[fake.__name__] = fake
    try:
        exec(compile(src, "<fake>", "exec"), fake.__dict__)
        for f in (fake.Row, fake.trusting, fake.checking): f.__module__ = fake.__name__
        found = record_failures(fake, "trusting", None, "row")
        assert any("Row.lo" in f and ("TypeError" in f or "IndexError" in f) for f in found), found
        assert any("Row.hi=" in f and "answered" in f for f in found), found
        assert record_failures(fake, "checking", None, "row") == []
    finally:
        del sys.modules[fake.__name__]
        _GROWN.pop(fake.__name__, None)
