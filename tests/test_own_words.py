"""Every wing states its source in its own words, in prose and in code: no run of seven words of the wing's source text
(quoted or not) in its pages' prose, the code left on its pages, or its modules' and screens' docstrings,
docments, comments and messages (every string literal, an f-string's literal parts one by one)."""
import pytest

from tests.helpers import (ROOT, RUN, WING_SEEDS, _seed_runs, carried_over, code_pasted, code_texts, notebook_pasted, pasted_runs,
                           seed_titles, table_cell, wing_files, wing_pasted, words)


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
    assert table_cell(row, seed)
    sentence = "Conflict is handled by dividing time and space into discrete units."
    assert not table_cell(sentence, seed)  # a sentence of the prose, whole: not a cell of any table
    assert code_pasted(f'TABLE = {{"a": "{sentence}"}}\n', seed)  # put in a table, it is still a copy
    assert code_pasted(f'TABLE = {{"a": "In short: {sentence}"}}\n', seed)
    assert code_pasted(f'TABLE = (f"{{1}} {sentence}",)\n', seed)  # a message built in a table is a message


def test_a_table_printed_as_running_text_gives_its_rows_not_its_sentences():
    seed = WING_SEEDS["special"]  # one paragraph: "-2 a horse or mule at a walk -3 a car on a bad road, ..."
    for row in ("a horse or mule at a walk", "a car, tank or pick-up off-road", "on horseback or muleback at a gallop or canter"):
        assert pasted_runs(row, seed) and table_cell(row, seed), row  # seven words of the source, but a row's label
        assert code_pasted(f'ROUGH = (("{row}", -2),)\n', seed) == [], row
    sentence = "a gasoline powered vehicle will catch on fire"  # "...greater than 10, a gasoline powered vehicle will catch on fire."
    assert not table_cell(sentence, seed) and code_pasted(f'NOTES = ("{sentence}",)\n', seed)


def test_a_title_cited_whole_carries_over_but_the_prose_around_it_does_not():
    seed = WING_SEEDS["special"]  # its titles are set in capitals: "WEAPON FIRE FROM A MOVING VEHICLE OR HOWDAH - Apply all..."
    title = "Weapon fire from a moving vehicle or howdah"
    assert tuple(words(title)) in seed_titles(seed)
    assert not carried_over(title.split()[:RUN]) and tuple(words(title)[:RUN]) in _seed_runs(seed, RUN)  # seven words of it
    assert pasted_runs(f"Source: 003, {title}.", seed) == []  # cited by its section
    assert code_pasted(f'MOVING_RULE = "003 · {title}"\n', seed) == []  # on screen, a rule's name
    # the title and the sentence after it: every run reaching past the title counts, none inside it
    w = words(f"{title}: apply all range/speed and size modifiers.")
    assert pasted_runs(f"{title}: apply all range/speed and size modifiers.", seed) == [" ".join(w[j:j + RUN]) for j in range(2, 9)]
    assert pasted_runs("They fire from a moving vehicle or howdah", seed)  # a part of a title is not the title
    d20 = WING_SEEDS["besm_d20"]  # a title on a line of its own, and a table's label (a cell of Table A-2), in any case
    assert pasted_runs("The damage save bonus = constitution bonus + armour value + damn healthy! ranks.", d20) == []
    assert pasted_runs("| each check required in a round beyond the first | +2 |", d20) == []
    label = "Unit Size reduced to one third of current score in a single round"  # Table A-13's row, run on into a second column
    assert pasted_runs(f'"{label}": DC 10', d20) == [] and pasted_runs(f'"{label[10:]}": DC 10', d20)  # whole, not in part


def test_a_short_line_of_prose_is_no_title():
    for seed, line in (("encounters", "Shadowing is to Observation what Stealth is to Perception."),  # a sentence alone on its line
                       ("anime_d20", "• the action has been a weakness for the character in the past"),  # a list's item
                       ("besm_d20", "Crash checks should be made in three instances:"),  # a lead-in
                       ("tristat", "the NEXT round squeeze, strangle, or pin the victim; success is automatic"),  # a wrapped line
                       ("besm_d20", "Personal Gear Rank 1 (Long sword, partial")):  # a table's cell wrapped over lines
        assert tuple(words(line)) not in seed_titles(WING_SEEDS[seed]), line
    assert pasted_runs("Shadowing is to Observation what Stealth is to Perception.", WING_SEEDS["encounters"])
    assert pasted_runs("the next round squeeze, strangle, or pin the victim; success is automatic", WING_SEEDS["tristat"])


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
