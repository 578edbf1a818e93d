"""JUnit XML for CI dashboards (workbench/grading/junit.py): a testcase per record, a wrong answer a
failure (a trap its own type), a call that never finished an error, no key skipped; the same bytes
from the same records."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from tests.support.fixtures import INVOICE, TOTAL, load, record, suite_copy
from workbench.grading.junit import write_junit


def test_each_record_is_a_testcase_of_its_kind_and_the_bytes_repeat(tmp_path):
    suite = suite_copy(tmp_path)
    total, invoice = load(suite, TOTAL), load(suite, INVOICE)
    records = [record(total, total.expected_answer), record(total, total.forbidden_answers[0]),
               record(total, "$1.00"), record(total, None, status="error"),
               replace(record(total, total.expected_answer), finish_reason="length"),
               record(invoice, "{}", status="timeout")]
    write_junit(records, tmp_path / "a.xml", {TOTAL: total, INVOICE: invoice})
    write_junit(records, tmp_path / "b.xml", {TOTAL: total, INVOICE: invoice})
    assert (tmp_path / "a.xml").read_bytes() == (tmp_path / "b.xml").read_bytes()
    root = ET.parse(tmp_path / "a.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "2", "3", "0")
    kinds = []
    for case in root.iter("testcase"):
        child = next(iter(case), None)
        kinds.append("pass" if child is None else f"{child.tag}:{child.get('type')}")
    assert kinds == ["pass", "failure:fell_for_trap", "failure:wrong", "error:errored", "error:truncated",
                     "error:timed_out"]
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["modality"] == "pdf" and float(props["pass_rate"]) == 1 / 3


def test_a_record_without_a_key_is_skipped(tmp_path):
    suite = suite_copy(tmp_path)
    total = load(suite, TOTAL)
    write_junit([record(total, "x")], tmp_path / "j.xml", {})
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.get("skipped") == "1" and root.find(".//skipped") is not None
