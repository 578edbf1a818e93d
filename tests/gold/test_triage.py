"""The triage queue (workbench/gold/triage.py): open disputes first by how many verdicts they would
flip, and each one's page evidence with both values and the gold box."""

from __future__ import annotations

from tests.support.fixtures import (
    INVOICE,
    TOTAL,
    load,
    suite_copy,
)
from tests.support.fixtures import model_runs as _runs
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.triage import evidence_for, progress, triage_queue


def test_triage_queue_puts_open_disputes_first_by_impact(tmp_path):
    suite = suite_copy(tmp_path)
    _runs(suite)
    inv = load(suite, INVOICE)
    low = add_dispute(suite, INVOICE, "invoice.currency", "EUR", "the page says euro", who="ann")
    high = add_dispute(suite, TOTAL, "expected_answer", load(suite, TOTAL).forbidden_answers[0],
                       "text layer", who="ann")
    mid = add_dispute(suite, INVOICE, "invoice.total", 1.0, "rounding", who="ann")
    done = add_dispute(suite, INVOICE, "invoice.vendor_phone", inv.metadata["direct_line"], "call this", who="ann")
    later = add_dispute(suite, INVOICE, "invoice.tax", 0.0, "tax exempt", who="ann")
    decide(suite, done.id, "reject", "the schema asks for the main number", who="bob")
    decide(suite, later.id, "defer", "ask accounts", who="bob")

    queue = triage_queue(suite)
    order = [(it.dispute.id, it.dispute.status, it.impact) for it in queue]
    # high: the right total would fail and the hidden one stop counting as the trap (the error
    # record stays ungraded); mid: one invoice answer would fail, the one that said 1.00 pass;
    # low: only the right invoice answer flips (the others are wrong already).
    assert order == [
        (high.id, "open", 2), (mid.id, "open", 2), (low.id, "open", 1),
        (later.id, "deferred", 1), (done.id, "rejected", 1),
    ]
    assert {(f.before, f.after) for f in queue[0].flips} == {("pass", "fail"), ("trap", "fail")}
    p = progress(suite)
    assert (p.decided, p.total, p.deferred, p.open) == (1, 5, 1, 3)


def test_evidence_for_highlights_both_values_and_the_gold_box(tmp_path):
    suite = suite_copy(tmp_path)
    inv = load(suite, INVOICE)
    main, direct = inv.gold.expected["invoice"]["vendor_phone"], inv.metadata["direct_line"]
    d = add_dispute(suite, INVOICE, "invoice.vendor_phone", direct, "the bold number", who="ann")
    ev = evidence_for(suite, d.id)
    recorded = inv.gold.evidence_of("invoice.vendor_phone")
    assert ev.page == 1 and ev.box == list(recorded.box) and ev.quote == recorded.quote
    by_kind = {h.which: h for h in ev.hits}
    assert by_kind["original"].text == main and by_kind["proposed"].text == direct
    # The original value is found where the gold's evidence box says it is.
    x0, y0, x1, y1 = recorded.box
    hx0, hy0, hx1, hy1 = by_kind["original"].box
    assert x0 <= (hx0 + hx1) / 2 <= x1 and y0 <= (hy0 + hy1) / 2 <= y1
    assert abs(hx0 - x0) < 1 and abs(hx1 - x1) < 1
    # The decoy is printed elsewhere (the account manager's box, lower on the page).
    assert by_kind["proposed"].box[1] > y1
