"""How the lint words what it found (workbench/checks/findings.py): a finding's JSON, whether
findings hold an error, a value cut short, pages counted from 1 once each, reasons once each."""

from __future__ import annotations

from workbench.checks.evidence import Hit
from workbench.checks.findings import Finding, has_errors, page_list, reasons_of, short


def test_a_finding_as_json_and_errors_among_findings():
    warn = Finding("inv-1", "warning", "pdf-changed", "the PDF changed")
    assert warn.to_json() == {"case_id": "inv-1", "severity": "warning", "code": "pdf-changed",
                              "message": "the PDF changed"}
    assert not has_errors([warn, Finding("inv-1", "info", "x", "y")]) and not has_errors([])
    assert has_errors([warn, Finding("inv-1", "error", "expected-not-visible", "z")])


def test_a_value_is_one_line_and_cut_with_an_ellipsis():
    assert short("Total\n  due:\t$1.00") == "Total due: $1.00"
    assert short("x" * 60) == "x" * 60
    assert short("x" * 61) == "x" * 59 + "…" and len(short("abcdefghij", 5)) == 5
    assert short(1234.5) == "1234.5"


def test_pages_are_counted_from_one_in_order_once_each():
    assert page_list([0]) == "page 1"
    assert page_list([3, 0, 3, 1]) == "pages 1, 2, 4"
    assert page_list(h for h in (2, 2)) == "page 3"


def test_reasons_are_named_once_each_in_the_order_found():
    hits = [Hit(0, [], False, "a", reasons=["covered", "clipped"]), Hit(1, [], False, "b", reasons=["clipped"]),
            Hit(2, [], False, "c", reasons=["no-contrast"])]
    assert reasons_of(hits) == "covered, clipped, no-contrast"
    assert reasons_of([Hit(0, [], False, "a")]) == "hidden" and reasons_of([]) == "hidden"
