"""The fields matcher on hand-checked examples: reordered, missing, extra and fuzzy rows."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from workbench.core.case import Case
from workbench.core.extraction import ExtractionGold
from workbench.core.matcher import MatcherSpec
from workbench.grading import grade
from workbench.grading.fields import greedy_pairs, hungarian, to_iso_date

ROWS = [
    {"name": "Alice Smith", "date": "2025-03-12", "phone": "(555) 123-4567"},
    {"name": "Bob Jones", "date": "2025-04-01", "phone": "555-987-6543"},
    {"name": "Carol White", "date": "2025-05-20", "phone": "555 222 3333"},
]
FIELDS = {
    "name": {"normalizer": "text", "threshold": 0.85},
    "date": {"normalizer": "date"},
    "phone": {"normalizer": "phone"},
}


def case(expected=ROWS, fields=FIELDS, **gold) -> Case:
    return Case(id="f-1", trap_family="test", seed=1, question="Extract the contacts as JSON.",
                expected_answer="", matcher=MatcherSpec("fields"),
                gold=ExtractionGold.parse({"expected": expected, "fields": fields, **gold}))


def answer(rows) -> str:
    return "Here are the contacts:\n```json\n" + json.dumps(rows, indent=1) + "\n```"


def test_reordered_rows_in_other_formats_score_full_marks():
    given = [
        {"name": "CAROL WHITE", "date": "May 20, 2025", "phone": "555.222.3333"},
        {"name": "alice smith", "date": "12 March 2025", "phone": "555-123-4567"},
        {"name": "Bob  Jones", "date": "04/01/2025", "phone": "(555) 987 6543"},
    ]
    v = grade(case(), answer(given))
    assert v.correct, v.reason
    assert (v.precision, v.recall, v.f1) == (1.0, 1.0, 1.0)
    assert sorted(v.details["pairs"]) == [[0, 1], [1, 2], [2, 0]]


def test_missing_row_costs_recall():
    v = grade(case(), answer(ROWS[:2]))
    # 6 of 9 expected values given, none wrong: P = 1, R = 6/9, F1 = 0.8
    assert (v.precision, round(v.recall, 4), round(v.f1, 4)) == (1.0, 0.6667, 0.8)
    assert not v.correct and "1 row missing" in v.reason


def test_extra_row_costs_precision():
    extra = {"name": "Dan Brown", "date": "2025-06-01", "phone": "555"}
    v = grade(case(), answer([*ROWS, extra]))
    # 9 true positives, 3 false positives (the extra row's values): P = 0.75, R = 1, F1 = 6/7
    assert (v.precision, v.recall, round(v.f1, 4)) == (0.75, 1.0, 0.8571)
    assert "1 extra row" in v.reason


def test_fuzzy_threshold_per_field():
    near = [dict(ROWS[0], name="Alice Smyth"), ROWS[1], ROWS[2]]   # ratio 0.91 >= 0.85
    assert grade(case(), answer(near)).correct
    far = [dict(ROWS[0], name="A. Smith"), ROWS[1], ROWS[2]]       # ratio 0.74 < 0.85
    v = grade(case(), answer(far))
    # 8 right, 1 wrong (a false negative and a false positive): P = R = 8/9
    assert round(v.precision, 4) == round(v.recall, 4) == 0.8889
    assert "wrong or missing name" in v.reason
    strict = grade(case(fields={**FIELDS, "name": {"normalizer": "text"}}), answer(near))
    assert not strict.correct


def test_missing_key_counts_as_null():
    expected = [{"name": "Alice Smith", "phone": None}]
    fields = {"name": {}, "phone": {"normalizer": "phone"}}
    assert grade(case(expected, fields), answer([{"name": "Alice Smith"}])).f1 == 1.0
    assert grade(case(expected, fields), answer([{"name": "Alice Smith", "phone": ""}])).f1 == 1.0
    v = grade(case(expected, fields), answer([{"name": "Alice Smith", "phone": "555"}]))
    assert (v.precision, v.recall) == (0.5, 1.0)     # a value where the gold has none is a false positive


def test_single_record_and_nested_fields_and_spans():
    gold = {"invoice": "INV-1001", "total": "$1,234.56", "vendor": {"name": "ACME Corp."}}
    fields = {"invoice": {"normalizer": "punctuation"}, "total": {"normalizer": "money"},
              "vendor.name": {"normalizer": "punctuation"}}
    text = 'Result: {"invoice": "inv 1001", "total": "1234.56 USD", "vendor": {"name": "acme corp"}}'
    v = grade(case(gold, fields), text)
    assert v.correct, v.reason
    span = next(p.span for p in v.parts if p.expected.startswith("total"))
    assert text[span[0]:span[1]] == "1234.56 USD"
    wrong = grade(case(gold, fields), text.replace("1234.56 USD", "EUR 1,234.56"))
    assert not wrong.correct and round(wrong.f1, 4) == 0.6667


def test_rows_inside_an_object_and_no_json_at_all():
    v = grade(case(), json.dumps({"contacts": ROWS, "count": 3}))
    assert v.correct
    none = grade(case(), "I cannot read this document.")
    assert not none.correct and none.refused and none.f1 == 0.0
    assert "no JSON" in none.reason


def test_forbidden_value_in_a_field_is_the_trap():
    c = case([{"total": "$1,234.56"}], {"total": {"normalizer": "money"}})
    c.forbidden_answers = ["$11,234.56"]
    v = grade(c, '{"total": "$11,234.56"}')
    assert v.fell_for_trap and not v.correct


@pytest.mark.parametrize(("given", "ok"), [("13 537,01 €", True), ("€13,537.01", True), ("13 537,10 €", False)])
def test_a_money_field_typed_with_plain_spaces_between_its_groups(given, ok):
    c = case([{"total": "€13,537.01"}], {"total": {"normalizer": "money"}})
    assert grade(c, json.dumps({"total": given})).correct is ok


@pytest.mark.parametrize(("given", "ok"), [("25 %", True), ("25.0%", True), ("25 percent", True), ("25", False),
                                           ("2.5%", False)])
def test_a_rate_field_written_with_its_percent_sign_as_a_document_writes_it(given, ok):
    c = case([{"vat_rate": "25%"}], {"vat_rate": {"normalizer": "number"}})
    assert grade(c, json.dumps({"vat_rate": given})).correct is ok


@pytest.mark.parametrize(("text", "dayfirst", "iso"), [
    ("2025-03-12", False, "2025-03-12"),
    ("12 March 2025", False, "2025-03-12"),
    ("March 12th, 2025", False, "2025-03-12"),
    ("12-Mar-25", False, "2025-03-12"),
    ("03/12/2025", False, "2025-03-12"),
    ("03/12/2025", True, "2025-12-03"),
    ("25/12/2025", False, "2025-12-25"),
    ("31 February 2025", False, None),
    ("next Tuesday", False, None),
    # as a foreign document (and a model reading it) writes the month
    ("12 mars 2025", False, "2025-03-12"), ("1er août 2025", False, "2025-08-01"),
    ("12. März 2025", False, "2025-03-12"), ("12 de marzo de 2025", False, "2025-03-12"),
    ("3 janv. 2025", False, "2025-01-03"), ("5 de outubro de 2025", False, "2025-10-05"),
    ("12 dicembre 2025", False, "2025-12-12"), ("12 mrt 2025", False, "2025-03-12"),
    ("31 fevereiro 2025", False, None), ("12 foo 2025", False, None),
    # with the weekday, or "the ... of", as models write a date out
    ("Wednesday, March 12, 2025", False, "2025-03-12"), ("Tue, 12 March 2025", False, "2025-03-12"),
    ("the 12th of March, 2025", False, "2025-03-12"), ("Mittwoch, 12. März 2025", False, "2025-03-12"),
    ("quarta-feira, 12 de março de 2025", False, "2025-03-12"), ("Tuesday", False, None),
])
def test_dates_to_iso(text, dayfirst, iso):
    assert to_iso_date(text, dayfirst) == iso


def test_a_date_field_answered_in_the_documents_language():
    c = case([{"issued": "2025-03-12"}], {"issued": {"normalizer": "date"}})
    assert grade(c, json.dumps({"issued": "12 mars 2025"})).correct
    assert not grade(c, json.dumps({"issued": "12 mai 2025"})).correct


def _brute(score):
    n, m = len(score), len(score[0])
    best = -1.0
    if n <= m:
        for perm in itertools.permutations(range(m), n):
            best = max(best, sum(score[i][perm[i]] for i in range(n)))
    else:
        for perm in itertools.permutations(range(n), m):
            best = max(best, sum(score[perm[j]][j] for j in range(m)))
    return best


def test_hungarian_finds_the_optimal_assignment():
    rng = random.Random(6)
    for _ in range(200):
        n, m = rng.randint(1, 6), rng.randint(1, 6)
        score = [[rng.choice([0, 0.5, 1, 2, 3.25]) for _ in range(m)] for _ in range(n)]
        pairs = hungarian(score)
        assert len(pairs) == min(n, m)
        assert len({i for i, _ in pairs}) == len({j for _, j in pairs}) == len(pairs)
        assert sum(score[i][j] for i, j in pairs) == pytest.approx(_brute(score))
    # greedy is the fallback for huge tables: valid, though not always optimal
    score = [[3, 2], [2, 0]]
    assert greedy_pairs(score) == [(0, 0), (1, 1)] and hungarian(score) == [(0, 1), (1, 0)]


@pytest.mark.parametrize("text", [
    "[" * 5_000 + "]" * 5_000,                       # closed, past the decoder's depth
    "```json\n" + "[" * 5_000 + "\n```",             # in a fenced block, never closed
    '{"rows": ' + "[" * 5_000,                       # cut short
], ids=["closed", "fenced", "cut-short"])
def test_an_answer_nesting_past_the_decoders_depth_is_no_json_not_a_traceback(text):
    """A model's answer is any text: a JSON value nesting thousands deep raised RecursionError out
    of the grader (`grade`, `report` and the workbench on that answer ended in a traceback)."""
    verdict = grade(case(), text)
    assert verdict.outcome == "unparsable", verdict
