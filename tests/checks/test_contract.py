"""The lint's checks of an answer key against its PDF (workbench/checks/contract.py): each clause
of a contract can fail and a kept one passes; without a contract, the default questions (the
answer visible, a decoy a hidden-layer trap, tokens for a prose answer)."""

from __future__ import annotations

import pytest

from tests.support.invoices import codes, handmade_case, invoice_pdf
from workbench.checks.lint import lint_case


def test_an_armed_case_has_no_error_and_reports_the_hidden_trap():
    findings = lint_case(handmade_case(), invoice_pdf("$4,711.00", "$9,999.00"))
    assert codes(findings) == ["forbidden-hidden-only"]
    assert findings[0].severity == "info" and "page 1" in findings[0].message


def test_an_answer_drawn_in_invisible_text_is_an_error():
    findings = lint_case(handmade_case(), invoice_pdf("$4,711.00", "$9,999.00", total_mode=3))
    (err,) = [f for f in findings if f.severity == "error"]
    assert err.code == "expected-not-visible" and "invisible-render-mode" in err.message


def test_tokens_are_checked_instead_of_a_prose_answer():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    ok = handmade_case(expected="The total due on invoice 42 is 4,711 dollars.", expected_tokens=["$4,711.00", "42"])
    assert codes(lint_case(ok, pdf), "error") == []
    # A token printed nowhere may be computed from the page, or wrong: the lint cannot tell.
    bad = handmade_case(expected="x", expected_tokens=["$4,711.00", "INVOICE 43"])
    findings = lint_case(bad, pdf)
    assert codes(findings, "error") == [] and "tokens-not-printed" in codes(findings, "warning")
    assert "answer not printed: cannot verify; declare it derived" in findings[0].message


def test_prose_answer_whose_figures_are_visible_is_a_warning():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    case = handmade_case(expected="The invoice number 42 shows a total due of $4,711.00 in full.")
    assert codes(lint_case(case, pdf)) == ["expected-paraphrase", "forbidden-hidden-only"]


@pytest.mark.parametrize("clause, code", [
    ({"target": "forbidden", "where": "visible"}, "forbidden-not-visible"),
    ({"target": "expected", "where": "hidden"}, "expected-not-hidden"),
    ({"target": "expected", "where": "not_text_layer"}, "expected-in-text-layer"),
    ({"target": "forbidden:0", "where": "pixels_only"}, "forbidden-in-text-layer"),
    ({"target": "expected", "where": "not_visible"}, "expected-visible"),
    ({"target": "meta:invoice", "where": "text_layer"}, "meta-not-in-text-layer"),
    ({"target": "meta:nope", "where": "visible"}, "meta-missing"),
    ({"target": "answer", "where": "visible"}, "contract-invalid"),
])
def test_each_contract_clause_can_fail(clause, code):
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    case = handmade_case(contract=[clause], metadata={"invoice": "INV-43"})
    assert codes(lint_case(case, pdf), "error") == [code]


def test_a_kept_contract_passes():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    contract = [{"target": "expected", "where": "visible"}, {"target": "expected", "where": "text_layer"},
                {"target": "forbidden", "where": "hidden"}, {"target": "forbidden", "where": "not_visible"}]
    assert lint_case(handmade_case(contract=contract), pdf) == []


def test_a_derived_value_needs_visible_parts_and_records_how():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    derived = {"target": "expected", "where": "derived", "parts": ["INVOICE 42", "$4,711.00"], "how": "copied"}
    (info,) = lint_case(handmade_case(forbidden=(), contract=[derived]), pdf)
    assert (info.severity, info.code) == ("info", "expected-derived")
    assert info.message == "expected '$4,711.00' is derived as copied from visible 'INVOICE 42' (page 1), '$4,711.00' (page 1)"
    hidden_part = {**derived, "parts": ["$9,999.00"]}
    assert codes(lint_case(handmade_case(forbidden=(), contract=[hidden_part]), pdf)) == ["part-not-visible"]
    no_parts = {"target": "expected", "where": "derived"}
    assert codes(lint_case(handmade_case(forbidden=(), contract=[no_parts]), pdf)) == ["contract-invalid"]
    unknown = {**derived, "parts": ["meta:nope"]}
    (bad,) = lint_case(handmade_case(forbidden=(), contract=[unknown]), pdf)
    assert bad.code == "contract-invalid" and "part 'meta:nope' names no value of the case" in bad.message


def test_a_decoy_the_contract_puts_in_hidden_text_that_is_printed_nowhere_disarms_the_trap():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    contract = [{"target": "forbidden", "where": "hidden", "why": "the hidden total"}]
    (err,) = lint_case(handmade_case(forbidden=["$5,555.00"], contract=contract), pdf)
    assert (err.code, err.message) == ("trap-disarmed", "forbidden '$5,555.00': it is nowhere on the pages or in "
                                       "any text layer (contract: the hidden total)")


def test_without_a_contract_a_decoy_named_only_in_the_metadata_is_asked_to_be_listed():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    findings = lint_case(handmade_case(forbidden=(), metadata={"decoy_total": "$9,999.00", "decoy_note": "x"}), pdf)
    (warn,) = findings
    assert warn.code == "forbidden-unlisted" and "decoy_total '$9,999.00', only in hidden text on page 1" in warn.message
    nowhere = lint_case(handmade_case(forbidden=["$5,555.00"]), pdf)
    assert codes(nowhere) == ["forbidden-nowhere"]
