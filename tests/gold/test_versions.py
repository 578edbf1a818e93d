"""Gold versions: disputes apply in order, only accepted ones change gold, versions never change."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.fixtures import INVOICE, TOTAL, load, suite_copy
from workbench.core.errors import UserError
from workbench.gold import versions as gold
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.journal import get_dispute, load_disputes
from workbench.gold.triage import progress


def test_v1_is_the_answer_keys_as_generated(tmp_path):
    suite = suite_copy(tmp_path)
    keys = gold.gold_keys(suite, "latest")
    assert keys.version.name == "v1"
    assert keys.keys[TOTAL] == load(suite, TOTAL).answer_key()
    assert keys.keys[INVOICE] == load(suite, INVOICE).answer_key()


def test_only_accepted_disputes_change_gold_in_the_order_they_were_accepted(tmp_path):
    suite = suite_copy(tmp_path)
    case = load(suite, INVOICE)
    # Not the case's direct line: that is a forbidden answer, and accepting it is refused.
    main, direct = case.gold.expected["invoice"]["vendor_phone"], "+44 20 1111 2222"
    d1 = add_dispute(suite, INVOICE, "invoice.vendor_phone", direct, "the contact box number", who="ann")
    d2 = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "typo in gold", who="ann")
    d3 = add_dispute(suite, INVOICE, "invoice.total", 1.0, "rounding", who="ann")
    d4 = add_dispute(suite, INVOICE, "invoice.vendor_phone", "+44 20 0000 0000", "a later reading", who="bob")
    assert d1.original == main and d3.original == case.gold.expected["invoice"]["total"]

    decide(suite, d3.id, "accept", "the printed total is 1.00", who="cat")
    decide(suite, d2.id, "reject", "the printed total is right", who="cat")
    decide(suite, d1.id, "defer", "ask the vendor", who="cat")
    decide(suite, d4.id, "accept", "confirmed", who="cat")
    decide(suite, d1.id, "accept", "the vendor says so", who="cat")

    names = [v.name for v in gold.versions(suite)]
    assert names == ["v1", "v2", "v3", "v4"]          # one per accepted decision; reject/defer make none
    v2, v3, v4 = (gold.gold_keys(suite, n).keys for n in ("v2", "v3", "v4"))
    assert v2[INVOICE]["gold"]["expected"]["invoice"]["total"] == 1.0
    assert v2[INVOICE]["gold"]["expected"]["invoice"]["vendor_phone"] == main
    assert v3[INVOICE]["gold"]["expected"]["invoice"]["vendor_phone"] == "+44 20 0000 0000"
    # d1 was accepted after d4, so it is applied after it and wins the shared field.
    assert gold.resolve_version(suite, "v4").applied == [d3.id, d4.id, d1.id]
    assert v4[INVOICE]["gold"]["expected"]["invoice"]["vendor_phone"] == direct
    # The rejected dispute never touched its case.
    for keys in (v2, v3, v4):
        assert keys[TOTAL] == load(suite, TOTAL).answer_key()
    # Structured cases keep their JSON expected answer in step with the gold.
    assert json.loads(v4[INVOICE]["expected_answer"]) == v4[INVOICE]["gold"]["expected"]
    # The case files on disk are v1 still.
    assert load(suite, INVOICE).answer_key() == gold.gold_keys(suite, "v1").keys[INVOICE]
    assert str(progress(suite)) == "4 of 4 decided"


def test_reversing_an_accepted_dispute_makes_a_new_version_and_leaves_old_ones(tmp_path):
    suite = suite_copy(tmp_path)
    d = add_dispute(suite, TOTAL, "expected_answer", "€13,144.74", "off by a cent", who="ann")
    decide(suite, d.id, "accept", "looks right", who="ann")
    before = gold.gold_keys(suite, "v2").keys[TOTAL]["expected_answer"]
    decide(suite, d.id, "reject", "the scan shows .73", who="bob", redecide=True)
    assert [v.name for v in gold.versions(suite)] == ["v1", "v2", "v3"]
    assert gold.gold_keys(suite, "v2").keys[TOTAL]["expected_answer"] == before == "€13,144.74"
    assert gold.gold_keys(suite, "latest").keys[TOTAL] == load(suite, TOTAL).answer_key()
    history = get_dispute(suite, d.id).history
    assert [(h.decision, h.who) for h in history] == [("accepted", "ann"), ("rejected", "bob")]


def test_an_empty_forbidden_answer_drops_it_from_the_list(tmp_path):
    suite = suite_copy(tmp_path)
    d = add_dispute(suite, TOTAL, "forbidden_answers[0]", "", "not a trap after all", who="ann")
    decide(suite, d.id, "accept", "agreed", who="ann")
    assert gold.gold_keys(suite, "latest").keys[TOTAL]["forbidden_answers"] == []


@pytest.mark.parametrize("field, proposed, message", [
    ("invoice.vendor_phone", "x", "no structured gold"),
    ("forbidden_answers[3]", "x", "has 1 item(s), no [3]"),
    ("matcher", "x", "the matcher is not gold"),
    ("expected_answer..x", "x", "malformed"),
])
def test_disputes_on_fields_a_key_lacks_are_refused(tmp_path, field, proposed, message):
    suite = suite_copy(tmp_path)
    with pytest.raises(UserError, match=re.escape(message)):
        add_dispute(suite, TOTAL, field, proposed, "because")
    assert load_disputes(suite) == []


def test_user_errors_for_missing_rationale_unknown_ids_and_versions(tmp_path):
    suite = suite_copy(tmp_path)
    with pytest.raises(UserError, match="rationale"):
        add_dispute(suite, TOTAL, "expected_answer", "€1.00", "  ")
    with pytest.raises(UserError, match="no case"):
        add_dispute(suite, "nope", "expected_answer", "€1.00", "why")
    with pytest.raises(UserError, match="already"):
        add_dispute(suite, TOTAL, "expected_answer", load(suite, TOTAL).expected_answer, "why")
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why")
    with pytest.raises(UserError, match="rationale"):
        decide(suite, d.id, "accept", "")
    with pytest.raises(UserError, match="accept, reject or defer"):
        decide(suite, d.id, "maybe", "why")
    with pytest.raises(UserError, match="no dispute"):
        decide(suite, "d9999", "accept", "why")
    with pytest.raises(UserError, match=r"v1\.\.v1"):
        gold.gold_keys(suite, "v7")
    assert get_dispute(suite, d.id).status == "open"


def test_evidence_is_checked_against_the_pdf(tmp_path):
    suite = suite_copy(tmp_path)
    with pytest.raises(UserError, match="has 1 page"):
        add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why", page=2, quote="x")
    with pytest.raises(UserError, match="x0,y0,x1,y1"):
        add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why", page=1, box="10,10,5,20")
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why", page=1, box="10,20,30,40", quote="TOTAL")
    assert d.evidence.to_json() == {"page": 1, "box": [10.0, 20.0, 30.0, 40.0], "quote": "TOTAL"}


def test_a_quote_that_is_not_on_its_page_is_refused_with_the_nearest_text(tmp_path):
    suite = suite_copy(tmp_path)
    with pytest.raises(UserError, match=r"the quote 'TOTL DUE' is not on page 1; the nearest text there is 'TOTAL DUE"):
        add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why", page=1, quote="TOTL DUE")
    assert load_disputes(suite) == []  # nothing written
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "why", page=1, quote="total   due")
    assert d.evidence.quote == "total   due"  # case and spacing aside, it is on the page
