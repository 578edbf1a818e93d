"""The answer-hint audit finds gold values planted in the question or schema, and nothing else."""

from __future__ import annotations

import json

from tests.support.fixtures import INVOICE, TOTAL, load, suite_copy
from workbench.core.case import Case
from workbench.gold.hints import audit_case, audit_suite


def _edit(suite, case_id, change):
    path = suite / f"{case_id}.json"
    raw = json.loads(path.read_text())
    change(raw)
    path.write_text(json.dumps(raw, indent=2))


def test_generated_cases_have_no_hints(tmp_path):
    suite = suite_copy(tmp_path)
    assert audit_suite(suite) == []


def test_planted_hints_are_found_and_nothing_else(tmp_path):
    suite = suite_copy(tmp_path)
    inv = load(suite, INVOICE)
    phone = inv.gold.expected["invoice"]["vendor_phone"]
    vendor = inv.gold.expected["invoice"]["vendor_name"]
    total = load(suite, TOTAL).expected_answer

    def plant_invoice(raw):
        props = raw["gold"]["schema"]["properties"]["invoice"]["properties"]
        props["vendor_phone"]["examples"] = [phone]
        props["customer_name"]["description"] += f" (not {vendor.upper()})"   # case differs: still a hint
        raw["question"] += " Amounts are in 2012 prices."    # '12' of a date is not a hint

    def plant_total(raw):
        raw["question"] = raw["question"].replace("What is", f"Is it {total}? What is")

    _edit(suite, INVOICE, plant_invoice)
    _edit(suite, TOTAL, plant_total)
    hints = audit_suite(suite)
    found = {(h.case_id, h.field, h.where) for h in hints}
    assert found == {
        (INVOICE, "invoice.vendor_phone", "schema:properties.invoice.properties.vendor_phone.examples[0]"),
        (INVOICE, "invoice.vendor_name", "schema:properties.invoice.properties.customer_name.description"),
        (TOTAL, "expected_answer", "question"),
    }


def test_defaults_and_word_boundaries():
    key = {
        "question": "Report the value for account 41200 in the ledger.",
        "expected_answer": "", "expected_tokens": [], "forbidden_answers": ["1200"],
        "gold": {
            "expected": {"code": "1200", "city": "Leeds", "flag": True, "n": 7, "amount": 1234.5},
            "schema": {"properties": {
                "city": {"type": "string", "default": "Leeds"},
                "description": {"type": "string", "title": "A property named description"},
                "amount": {"type": "number", "examples": [1234.5]},
            }},
        },
    }
    found = {(h.field, h.where) for h in audit_case(Case.from_json({"id": "k", **key}))}
    # 1200 inside 41200 is no hint; a forbidden answer is no hint; short values are skipped.
    assert found == {("city", "schema:properties.city.default"),
                     ("amount", "schema:properties.amount.examples[0]")}
