"""Saves read defensively: huge numbers, NaN, deep nesting and wrong types refused with a ValueError, never a crash."""
import json

import pytest
from hypothesis import given, strategies as st

from besm_nb.store import fields, flag, items, load_json, parse_json, save_json, text, whole


@pytest.mark.parametrize("doc, message", [
    ('{"a": 1e400}', "too large"), ('{"a": -1e400}', "too large"), ('{"a": NaN}', "NaN is not a number"),
    ('{"a": Infinity}', "Infinity is not a number"), ('{"a": ' + "9" * 5000 + "}", "too large"),
    ("[" * 50_000 + "]" * 50_000, "nests its data deeper"), ("{" + '"a": {' * 40 + "}" * 41, "nests its data deeper"),
    ("{ nope", "not valid JSON")])
def test_bad_documents_are_refused(doc, message):
    with pytest.raises(ValueError, match=message): parse_json(doc)


def test_load_refuses_a_deep_file_cleanly(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text('{"format": "besm_nb", "kind": "k", "version": 1, "data": {"x": ' + "[" * 20_000 + "]" * 20_000 + "}}")
    with pytest.raises(ValueError, match="nests its data deeper"): load_json(p, "k", 1)
    save_json(tmp_path / "ok.json", "k", 1, {"round": 2})
    assert load_json(tmp_path / "ok.json", "k", 1) == {"round": 2}


def test_fields_are_checked_not_coerced():
    assert whole(12, "dice[0]", 1, 20) == 12
    for bad in (12.9, "12", True, None):
        with pytest.raises(ValueError, match=r"dice\[0\]"): whole(bad, "dice[0]", 1, 20)
    with pytest.raises(ValueError, match="switch: must be True or False"): flag("False", "switch")
    with pytest.raises(ValueError, match="history: must be a list"): items("abc", "history")
    with pytest.raises(ValueError, match="outcome: must be one of"): text("banana", "outcome", ("", "caught"))
    with pytest.raises(ValueError, match="has fields this tracker does not save: zzz"): fields({"zzz": 1}, "start", ("lead",))


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=30))
def test_any_json_reads_or_is_refused_with_a_value_error(value):
    try: doc = json.dumps(value)
    except ValueError: return
    try: parse_json(doc)
    except ValueError: pass
