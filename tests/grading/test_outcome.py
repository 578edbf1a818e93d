"""One outcome word per record (workbench/grading/outcome.py), the four states behind it, and
which count in the metric: a call that never finished is never a wrong answer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.fixtures import TOTAL, load, record, suite_copy
from workbench.grading.outcome import NOT_SCORED, OUTCOMES, SCORED, outcome_of


@pytest.fixture(scope="module")
def case(tmp_path_factory):
    return load(suite_copy(tmp_path_factory.mktemp("outcome")), TOTAL)


@pytest.mark.parametrize("how, kind, scored", [
    ("right", "pass", True), ("wrong", "fail", True), ("trap", "trap", True),
    ("refusal", "refused", True), ("cut off", "truncated", False),
    ("error", "errored", False), ("timeout", "timed_out", False), ("blocked", "blocked", False),
    ("agent out of time", "deadline", True), ("agent out of turns", "turn_limit", True),
])
def test_each_record_comes_to_one_outcome(case, how, kind, scored):
    answer = {"right": case.expected_answer, "trap": case.forbidden_answers[0],
              "refusal": "I cannot read the document."}.get(how, "$1.00")
    rec = record(case, answer)
    if how == "cut off":
        rec = replace(rec, finish_reason="length")
    elif how in ("error", "timeout", "blocked"):
        rec = record(case, None, status=how)
    elif how.startswith("agent"):
        rec = replace(record(case, None, reader="agent:openai:gpt-4o"),
                      status="timeout" if how.endswith("time") else "turn_limit", error=None)
    got = outcome_of(rec, case)
    assert got.kind == kind and got.kind in OUTCOMES
    assert got.scored is scored and (kind in SCORED) is (kind not in NOT_SCORED)
    assert got.failed is (scored and kind != "pass")
    assert got.reason


def test_a_call_that_did_not_finish_is_never_a_wrong_answer(case):
    got = outcome_of(record(case, None, status="error"), case)
    assert got.verdict is None and not got.failed and "HTTP 500" in got.reason


def test_without_a_key_or_with_the_authors_own_question_there_is_nothing_to_grade(case):
    assert outcome_of(record(case, case.expected_answer), None).kind == "no_key"
    own = record(case, case.expected_answer)
    own = replace(own, extra={**own.extra, "question": "What is the vendor's name?"})
    got = outcome_of(own, case)
    assert got.kind == "no_key" and "your own question" in got.reason
