"""Every wing states its source in its own words, in prose and in code: no run of seven words of the wing's source text
(quoted or not) in its pages' prose, the code left on its pages, or its modules' and screens' docstrings,
docments, comments and messages (every string literal, an f-string's literal parts one by one)."""
import pytest

from tests.helpers import (ROOT, WING_SEEDS, carried_over, code_pasted, code_texts, notebook_pasted, pasted_runs, wing_files,
                           wing_pasted)


@pytest.mark.parametrize("wing", sorted(WING_SEEDS))
def test_wing_is_in_its_own_words(wing):
    found = wing_pasted(wing)
    assert found == [], f"{len(found)} run(s) of seven words copied from {WING_SEEDS[wing]}:\n" + "\n".join(found)


@pytest.mark.parametrize("wing", sorted(WING_SEEDS))
def test_every_wing_has_pages_and_modules(wing):
    files = wing_files(wing)
    kinds = {(p.suffix, "ui" in p.relative_to(ROOT).parts) for p in files}
    assert {(".ipynb", False), (".py", False), (".py", True)} <= kinds, wing  # pages, rule modules and screens
    assert (ROOT / "besm_nb" / wing / "__init__.py") in files


def test_code_texts_reads_what_a_reader_meets():
    src = ('"""The module\'s docstring."""\n'
           'def f(x: int,  # a docments comment\n'
           '     ) -> str:\n'
           '    "A function\'s docstring."\n'
           '    return f"a message {x} with a literal part"  # a comment\n'
           'class C:\n'
           '    "A class docstring."\n')
    texts = [t for _, t, _ in code_texts(src)]
    for part in ("The module's docstring.", " a docments comment", "A function's docstring.", "a message ",
                 " with a literal part", " a comment", "A class docstring."):
        assert part in texts, part
    assert [line for line, t, _ in code_texts(src) if t == "A class docstring."] == [7]


def test_a_table_cell_carries_over_whole_but_not_a_sentence():
    seed = WING_SEEDS["encounters"]
    row = "Standing from a prone position"  # a row of the chapter's list of movement actions, as printed
    assert [c for _, t, c in code_texts(f'MOVES = ("{row}", "leaping")\nx = "{row}"\n') if t == row] == [True, False]
    sentence = "Conflict is handled by dividing time and space into discrete units."
    assert code_pasted(f'TABLE = {{"a": "{sentence}"}}\n', seed) == []  # a cell taken whole
    assert code_pasted(f'TABLE = {{"a": "In short: {sentence}"}}\n', seed)  # not a cell of the source: a sentence in a table
    assert code_pasted(f'TABLE = (f"{{1}} {sentence}",)\n', seed)  # a message built in a table is a message


def test_the_check_sees_a_pasted_docstring_and_message():
    seed = WING_SEEDS["encounters"]
    sentence = "Conflict is handled by dividing time and space into discrete units."
    assert pasted_runs(sentence, seed)
    assert code_pasted(f'def f():\n    "{sentence}"\n', seed, "m.py") == ["m.py:2: " + r for r in pasted_runs(sentence, seed)]
    assert code_pasted(f'raise ValueError(f"x: {{n}} {sentence}")\n', seed, "m.py")  # an f-string's literal part
    assert code_pasted(f'x = 1  # {sentence}\n', seed, "m.py")  # a comment
    assert code_pasted(f"x = '\"{sentence}\"'\n", seed, "m.py")  # in quotation marks it is still seven words of the source


def test_the_check_reads_a_page_and_leaves_exported_cells_to_their_modules(tmp_path):
    import json
    seed = WING_SEEDS["encounters"]
    sentence = "Conflict is handled by dividing time and space into discrete units."
    cell = lambda kind, src: {"cell_type": kind, "source": src, "metadata": {}, **({"outputs": []} if kind == "code" else {})}
    page = tmp_path / "p.ipynb"
    page.write_text(json.dumps({"cells": [cell("markdown", sentence), cell("code", f'%matplotlib inline\nprint("{sentence}")'),
                                          cell("code", f'#| export\nx = "{sentence}"')]}))
    import tests.helpers as h
    old, h.ROOT = h.ROOT, tmp_path
    try: found = notebook_pasted(page, seed)
    finally: h.ROOT = old
    assert {f.split(":")[0] for f in found} == {"p.ipynb cell 0 (None)", "p.ipynb cell 1 (None) line"}


def test_numbers_tables_and_names_carry_over_but_wording_does_not():
    split = str.split
    assert carried_over(split("Sailor Moon ACV 6 DCV 5 attack"))  # a worked example's statistics
    assert carried_over(split("1 2 left leg 3 4 right"))  # a table's rows
    assert carried_over(split("Table A 10 Epic Save and Epic"))  # a table's name
    assert carried_over(split("Concussion Grenade Tear Gas Grenade 66mm LAW"))  # names, with a number and its unit
    assert not carried_over(split("must concentrate on one or the other"))
    assert not carried_over(split("even 1 point of Stamina or Health"))  # one number in a sentence is still wording
    assert not carried_over(split("and a the of to in"))  # small words alone are not a name
