"""Field paths into an answer key (workbench/gold/keys.py): what a dispute can name, read and
change, on a key shaped as a plain case's and as an extraction case's."""

from __future__ import annotations

import json

import pytest

from workbench.core.errors import UserError
from workbench.gold.keys import (
    apply_change,
    can_add_field,
    get_field,
    key_conflicts,
    key_fields,
    value_problem,
)


def _extraction_key() -> dict:
    expected = {"invoice": {"total": 1234.5, "vendor_phone": "555-0100"}, "line_items": [{"amount": 10.0}]}
    return {"question": "Extract the invoice.", "expected_answer": json.dumps(expected, separators=(", ", ": ")),
            "forbidden_answers": ["555-0199"], "gold": {"expected": expected}}


def test_a_structured_key_lists_its_leaves_and_a_change_keeps_expected_answer_in_step():
    key = _extraction_key()
    assert key_fields(key) == [("forbidden_answers[0]", "555-0199"), ("invoice.total", 1234.5),
                               ("invoice.vendor_phone", "555-0100"), ("line_items[0].amount", 10.0)]
    assert get_field(key, "line_items[0].amount") == get_field(key, "gold.expected.line_items[0].amount") == 10.0
    apply_change(key, "invoice.total", 1.0)
    assert key["gold"]["expected"]["invoice"]["total"] == 1.0
    assert json.loads(key["expected_answer"])["invoice"]["total"] == 1.0
    assert can_add_field(key, "invoice.currency") and not can_add_field(key, "invoice.total")


def test_a_plain_key_names_its_conflicts_and_refuses_values_that_cannot_stand():
    key = {"question": "What is due?", "expected_answer": "$10.00", "expected_tokens": ["$10.00", "June"],
           "forbidden_answers": ["$99.00"]}
    assert key_conflicts(key) == []
    apply_change(key, "expected_tokens[1]", "$99.00")
    assert key_conflicts(key) == ["expected_tokens[1] is '$99.00', which is also a forbidden answer"]
    assert value_problem("question", ["a", "list"]) == "a question must be text"
    assert value_problem("forbidden_answers", "one") == "forbidden_answers must be a list of texts"
    assert value_problem("expected_answer", float("nan")) == "a number must be finite"
    assert value_problem("expected_answer", "$12.00") is None


@pytest.mark.parametrize(("path", "needle"), [
    ("", "empty field path"),
    ("invoice..total", "is malformed"),
    ("matcher", "the matcher is not gold"),
    ("gold.pass_f1", "only structured gold's expected values are disputable"),
    ("forbidden_answers[3]", "forbidden_answers has 1 item(s), no [3]"),
    ("invoice.total", "this case has no structured gold"),
])
def test_a_path_that_names_nothing_disputable_is_one_line(path, needle):
    key = {"question": "What is due?", "expected_answer": "$10.00", "forbidden_answers": ["$99.00"]}
    with pytest.raises(UserError) as err:
        get_field(key, path)
    assert needle in str(err.value) and "\n" not in str(err.value)
