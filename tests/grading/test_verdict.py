"""A verdict (grading/verdict.py): the one outcome word a person reads for an answer, what
`grade --json` prints of it, and the states of a call kept apart from the metric."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import ONE_CASE
from workbench.core.case import load_case
from workbench.grading.matchers import grade
from workbench.grading.verdict import EXECUTION_STATES, Verdict, execution_state, is_truncated

CASE = load_case(ONE_CASE)   # expected €13,144.73; the hidden layer's €53,919.68 is the trap


@pytest.mark.parametrize("answer, outcome", [
    ("The total due is €13,144.73.", "pass"),
    ("€53,919.68", "trap"),
    ("I cannot read this document.", "refused"),
    ("€1.00", "fail"),
])
def test_each_answer_s_outcome_word(answer, outcome):
    assert grade(CASE, answer).outcome == outcome


def test_the_outcome_words_rank_pass_then_unparsable_then_trap_then_refused():
    v = Verdict("c", "contains", correct=False, fell_for_trap=True, refused=True, unparsable=True)
    assert v.outcome == "unparsable"   # an answer that could not be read is never a trap
    v.unparsable = False
    assert v.outcome == "trap"
    v.fell_for_trap = False
    assert v.outcome == "refused"
    v.correct = True
    assert v.outcome == "pass"


def test_the_json_of_a_trap_names_what_matched_and_why():
    out = json.loads(json.dumps(grade(CASE, "It is €53,919.68").to_json()))
    assert (out["outcome"], out["correct"], out["fell_for_trap"], out["matched_expected"]) == ("trap", False, True, False)
    assert out["forbidden_matched"] and "€53,919.68" in json.dumps(out["forbidden_matched"], ensure_ascii=False)
    assert "precision" not in out and "details" not in out and out["reason"].startswith("fell for the trap")
    assert Verdict("c", "fields", True, f1=1.0, precision=1.0, recall=1.0).to_json()["f1"] == 1.0


def test_no_expected_part_is_no_match():
    assert not Verdict("c", "contains", False).matched_expected


@pytest.mark.parametrize("status, state", [
    ("ok", "finished"), ("truncated", "finished"), ("refused", "finished"), ("error", "errored"),
    ("timeout", "timed_out"), ("blocked", "blocked"), ("cancelled", "cancelled"), ("nonsense", "errored"),
])
def test_a_call_s_status_is_its_execution_state(status, state):
    assert execution_state(status) == state in EXECUTION_STATES


def test_an_answer_cut_off_by_any_provider_s_words_is_truncated():
    assert is_truncated("truncated", None)
    assert all(is_truncated("ok", r) for r in ("length", "max_tokens", "max_output_tokens", "MAX_TOKENS"))
    assert not is_truncated("ok", "stop") and not is_truncated("ok", None)
