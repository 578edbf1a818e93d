"""A case's resolved parameters (core/params.py): names to numbers, texts or true/false, and a
case file holding anything else refused in one line naming the field."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import ONE_CASE
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.params import parse_params


def test_numbers_texts_and_booleans_are_kept_as_they_are():
    raw = {"visible_total": 13144.73, "seed_rows": 3, "vendor": "Umbrella", "hidden": True}
    assert parse_params(raw) == raw and parse_params({}) == {}
    assert type(parse_params({"n": 3})["n"]) is int   # an integer stays one


@pytest.mark.parametrize("raw, message", [
    ([1, 2], r"^parameters are an object of name = value; got \[1, 2\]$"),
    ({"rows": [1, 2]}, r"^'rows' must be a number, a text or true/false; got \[1, 2\]$"),
    ({"rows": None}, r"^'rows' must be a number, a text or true/false; got None$"),
    ({"total": float("nan")}, r"^'total' must be a number, a text or true/false; got nan$"),
    ({"total": float("-inf")}, r"^'total' must be a number, a text or true/false; got -inf$"),
])
def test_anything_else_is_refused_naming_the_parameter(raw, message):
    with pytest.raises(UserError, match=message):
        parse_params(raw)


def test_a_case_file_with_a_nested_parameter_names_the_file_and_the_field(tmp_path):
    path = tmp_path / "case.json"
    path.write_text(json.dumps({**json.loads(ONE_CASE.read_text()), "params": {"vendor": {"name": "x"}}}))
    with pytest.raises(UserError, match=r"case\.json: params: 'vendor' must be a number, a text or true/false"):
        load_case(path)
    assert load_case(ONE_CASE).params["hidden_direction"] == "higher"
