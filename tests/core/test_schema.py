"""The declared shape of every file the tool reads (core/schema.py): what it refuses, each time in
one line that names the file and the field, and the ids and seeds it takes."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import ONE_CASE
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.schema import (
    MAX_SEED,
    SPEC,
    check_case,
    check_record,
    check_shape,
    check_suite,
    parse_json,
    parse_seeds,
    plain_id,
)

CASE = json.loads(ONE_CASE.read_text())


@pytest.mark.parametrize("name", ["invoice-0001", "a_b.c", "Überweisung 1", "x" * 200])
def test_plain_names_are_ids(name):
    assert plain_id(name) == name


@pytest.mark.parametrize("value, why", [
    ("../escape", "is not a plain name"), ("a/b", "is not a plain name"), ("a\\b", "is not a plain name"),
    (".hidden", "is not a plain name"), ("tab\there", "is not a plain name"), ("x" * 201, "is not a plain name"),
    ("", "must be a non-empty string; got ''"), (7, "must be a non-empty string; got 7"),
])
def test_an_id_that_could_leave_its_folder_is_refused_naming_the_file_and_field(value, why):
    with pytest.raises(UserError, match=f"^suite.json: case 3 field 'id' .*{why}") as raised:
        plain_id(value, "case 3 field 'id'", "suite.json")
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("text, message", [
    ('{"id": ', r"^c\.json: malformed case at column 8: Expecting value$"),
    ('{\n"id": 1,\n}', r"^c\.json: malformed case at line 3, column 1: "),   # a file of many lines: which line
    ('\n{"id": 1,}', r"^c\.json: malformed case at line 2, column 10: "),   # (not the first line's column)
    ('{"id": "a\tb"}', r"^c\.json: malformed case at column 10: Invalid control character$"),
    ('{"x": NaN}', r"^c\.json: malformed case: NaN is not a JSON number$"),
    (b'{"x": "\xff"}', r"^c\.json: case is not UTF-8 text \(byte 7\); save it as UTF-8$"),
    # a PDF given where a case goes (`grade PDF --answer X`): named as one, with the way to a case
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", r"^c\.json: a PDF, not a case; give the case \(`pdfworkbench adopt PDF "),
    ("[" * 65 + "]" * 65, r"^c\.json: case nests deeper than 64 levels; not a case$"),
    ("[" * 5000 + "]" * 5000, r"^c\.json: case nests deeper than 64 levels; not a case$"),
])
def test_text_that_is_no_json_value_is_one_line_saying_where(text, message):
    with pytest.raises(UserError, match=message):
        parse_json(text, "c.json", "case")


def test_a_byte_order_mark_and_64_levels_are_fine():
    assert parse_json('\ufeff{"id": "x"}', "c.json", "case") == {"id": "x"}
    assert parse_json("[" * 64 + "]" * 64, "c.json", "case") is not None


@pytest.mark.parametrize("change, message", [
    ({"question": None}, "case field 'question' must be a string or an integer or a number; got null"),
    ({"seed": True}, "case field 'seed' must be an integer; got true/false"),
    ({"seed": -1}, f"case field 'seed' must be between 0 and {MAX_SEED}; got -1"),
    ({"expected_answer": float("inf")}, "malformed case JSON: Infinity is not a JSON number"),
    ({"forbidden_answers": ["a", ["b"]]}, "case field 'forbidden_answers' item 2 must be a string or an integer"),
    ({"expected_answer": "x" * 10_001}, "case field 'expected_answer' holds a text of 10,001 characters "
                                        "(over the key_text_chars limit of 10,000"),
    ({"id": "../x"}, "case field 'id' '../x' is not a plain name"),
])
def test_a_case_file_with_a_bad_field_is_one_line_naming_it(tmp_path, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**CASE, **change}))
    with pytest.raises(UserError) as raised:
        load_case(path)
    assert str(raised.value).startswith(f"{path}: ") and message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_what_a_case_a_suite_and_a_record_must_hold():
    with pytest.raises(UserError, match=r"^c: not a case: lacks 'question'$"):
        check_case({"id": "x"}, "c")
    with pytest.raises(UserError, match=r"^c: not a case: lacks 'expected_answer' \(or 'expected_tokens'\)$"):
        check_case({"id": "x", "question": "q"}, "c")
    assert check_case({"id": "x", "question": 12, "expected_tokens": ["a"]}, "c")   # pdfhell's numbers are text
    with pytest.raises(UserError, match=r"^s: case 2 field 'id' '\.x' is not a plain name"):
        check_suite({"cases": [{"id": "a"}, {"id": ".x"}]}, "s")
    with pytest.raises(UserError, match=r"^r:1: run record must be a JSON object; got a list$"):
        check_record([], "r:1")
    with pytest.raises(UserError, match=r"^r:1: run record field 'latency_ms' must be a finite number; got nan$"):
        check_record({"case_id": "a", "reader": "r", "status": "ok", "latency_ms": float("nan")}, "r:1")


def test_a_spec_refuses_a_key_it_does_not_know():
    with pytest.raises(UserError, match=r"^spec\.toml: unknown spec key 'familes'; known keys: name, version,"):
        check_shape({"familes": []}, SPEC, "spec.toml", "spec", unknown=False)
    assert check_shape({"familes": []}, SPEC, "x", "spec") == {"familes": []}   # files we read from others: kept


@pytest.mark.parametrize("raw, seeds", [(3, [3]), ([5, 1], [5, 1]), ("2..4", [2, 3, 4]), ("7..7", [7])])
def test_seeds_are_an_integer_a_list_or_a_range(raw, seeds):
    assert parse_seeds(raw, "families[1]") == seeds


@pytest.mark.parametrize("raw, why", [
    (True, "cannot be True"), ([], "is an empty list (no cases would be made)"), ([1, "2"], "must all be integers"),
    ("4..2", "'4..2' runs backwards"), ("a..b", "'a..b' is not a range of integers"),
    ("1..200000", "'1..200000' makes 200,000 cases, more than the limit of 100,000"),
    ([-1], f"must be between 0 and {MAX_SEED}; got -1"), ("seven", "cannot be 'seven'"),
])
def test_bad_seeds_say_what_to_give(raw, why):
    with pytest.raises(UserError) as raised:
        parse_seeds(raw, "families[1]")
    assert str(raised.value) == (f"families[1]: seeds {why}; give an integer, a list of integers "
                                 'or a range like "1..10"')
