"""Regrade saved answers against gold versions (no model call): exactly the verdicts that flip.
The triage queue built on it is tests/gold/test_triage.py's."""

from __future__ import annotations

from tests.support.fixtures import (
    INVOICE,
    TOTAL,
    load,
    suite_copy,
)
from tests.support.fixtures import model_runs as _runs
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.regrade import regrade


def test_regrade_lists_exactly_the_verdicts_that_flip(tmp_path):
    suite = suite_copy(tmp_path)
    runs = _runs(suite)
    inv = load(suite, INVOICE)
    d1 = add_dispute(suite, INVOICE, "invoice.total", 1.0, "the total is printed as 1.00", who="ann")
    d2 = add_dispute(suite, TOTAL, "expected_answer", load(suite, TOTAL).forbidden_answers[0],
                     "the text layer says so", who="ann")
    d3 = add_dispute(suite, INVOICE, "invoice.vendor_phone", inv.metadata["direct_line"], "call this", who="ann")
    decide(suite, d1.id, "accept", "checked the page", who="bob")
    decide(suite, d2.id, "reject", "the printed total is the answer", who="bob")

    same = regrade(runs, suite, gold="v1", against="v1")
    assert same.flips == [] and same.records == 6
    assert same.tallies["v1"] == {"pass": 2, "trap": 2, "fail": 1, "errored": 1}

    result = regrade(runs, suite, gold="latest", against="v1")
    assert (result.gold, result.against) == ("v2", "v1")
    flipped = {(f.run.rsplit("/", 1)[-1], f.line, f.before, f.after) for f in result.flips}
    # The accepted total dispute flips the two invoice answers that differ on the total; the
    # rejected and the open dispute change nothing; the error stays ungraded.
    assert flipped == {("model-a.jsonl", 1, "pass", "fail"), ("model-b.jsonl", 2, "fail", "pass")}
    assert result.tallies["v2"] == {"pass": 2, "trap": 2, "fail": 1, "errored": 1}
    assert d3.id not in str(result.to_json())

    back = regrade(runs, suite, gold="v1", against="v2")
    assert {(f.line, f.before, f.after) for f in back.flips} == {(1, "fail", "pass"), (2, "pass", "fail")}
