"""The values an answer states (workbench/text/values.py), what attribution traces one by one."""

from __future__ import annotations

import pytest

from workbench.text.values import answer_values


def values(answer: str) -> list[str]:
    return [text for _, _, text in answer_values(answer)]


@pytest.mark.parametrize("answer, expected", [
    ("The total due is $1,234.56.", ["$1,234.56"]),
    ("Paid on 2024-03-01 under clause 4.2", ["2024-03-01", "clause 4.2"]),
    ("Invoice INV-2024-0042 for 12 units", ["INV-2024-0042", "12"]),
    ('The heading says "Net amount payable"', ["Net amount payable"]),
    ("a=$5 | b=capped | c=$7", ["$5", "capped", "$7"]),
    ("a 12-month term", ["12"]),
    ("Email", ["Email"]),                                  # a short answer with no value: one phrase
    ("I could not find any total anywhere on the whole page here", []),   # a long one: none
])
def test_each_value_of_an_answer_in_its_order(answer, expected):
    assert values(answer) == expected


def test_a_json_answer_states_its_fields_values_not_its_keys():
    answer = 'Here: {"vendor": "Acme Ltd", "total": 1234.5, "paid": true, "lines": [{"sku": "A-1"}]}'
    assert values(answer) == ["Acme Ltd", "1234.5", "A-1"]


def test_spans_point_into_the_answer():
    answer = "Owed: €13,144.73 (not €53,919.68)"
    assert [answer[a:b] for a, b, _ in answer_values(answer)] == ["€13,144.73", "€53,919.68"]
