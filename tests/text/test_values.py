"""The values an answer states (workbench/text/values.py), what attribution traces one by one."""

from __future__ import annotations

import itertools

import pytest

from workbench.text.values import HEAD_CHARS, answer_values, first_values


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


@pytest.mark.parametrize("answer, expected", [
    ("[" * 5_000 + "]" * 5_000 + " total $1,234.56", ["$1,234.56"]),
    ('{"rows": ' + "[" * 5_000 + " total $1,234.56", ["rows", "$1,234.56"]),   # (a quoted phrase)
], ids=["closed", "cut-short"])
def test_an_answer_nesting_json_past_the_decoders_depth_states_its_other_values(answer, expected):
    """A provider's answer is any text: JSON nested thousands deep raised RecursionError out of
    the values (`grade --explain`, `report --by source`: a traceback, the batch ended)."""
    assert values(answer) == expected


def test_a_json_answer_is_read_as_the_grader_reads_it_after_a_bracket_that_is_none():
    """The fields' JSON is the grader's (`answer_json.parse_answer_json`): a bracket before it that
    starts no JSON ([see page 2]) does not hide it; a ```json block wins over the text around it."""
    assert values('Totals [see page 2]: {"total": "$1,234.56", "vendor": "Acme Ltd"}') == ["$1,234.56", "Acme Ltd"]
    assert values('{"x": "no"} ```json\n{"total": "$9.00"}\n```') == ["$9.00"]


def test_an_answer_of_thousands_of_numbers_states_each_once_in_order():
    """Values are kept apart by bisection (an answer of 20,000 numbers took 46 s to read when
    each new value was compared with every one kept)."""
    found = answer_values("1 234 " * 20_000)
    assert len(found) == 40_000 and [t for _, _, t in found[:4]] == ["1", "234", "1", "234"]
    assert all(b <= a2 for (_, b, _), (a2, _, _) in itertools.pairwise(found))


def test_a_long_answers_first_values_are_read_from_a_part_of_it_and_are_its_first_values():
    # Each part read ends inside a value (an amount, a quoted phrase, a date, a labelled field, an
    # accounting negative: the unit is 104 characters), which is read whole as in the whole
    # answer; the count is "more than" the limit, as the answer was not read to its end. (Read
    # whole, a probe's 2.5 MB answer took 1.6 s for its first thousand values; now 0.02 s.)
    unit = 'Invoice INV-4471 dated 2024-03-15: "net of returns" $1,234.56 (567.00) EUR 13 537,01 a=uncapped | x\n'
    answer = unit * 4000
    assert len(answer) > 4 * HEAD_CHARS
    whole = answer_values(answer)
    for limit in (10, 1000, 5000):
        assert first_values(answer, limit) == (whole[:limit], None)
    assert first_values(answer, len(whole)) == (whole, len(whole))   # (read to its end: counted)
    short = unit * 3
    assert first_values(short, 1000) == (answer_values(short), len(answer_values(short)))
