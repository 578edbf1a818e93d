"""A financial statement prints a loss in brackets, `($1,234.56)`: a key written either way is
found on the page where it is printed so, and an answer either way is graded against it
(workbench/text/money.py reads an amount in brackets as negative)."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import printed_json
from tests.support.foreign_pdfs import platypus_statement

QUESTION = "What was the net income (loss) for 2024?"


@pytest.mark.parametrize("key", ["-$1,234.56", "($1,234.56)", "-1234.56"])
def test_a_loss_printed_in_brackets_is_found_and_graded_however_the_key_writes_it(command, work, key):
    (work / "pl.pdf").write_bytes(platypus_statement())
    code, out, err = command("adopt", "pl.pdf", "--into", "suite", "--question", QUESTION, "--expected", key)
    assert code == 0, err   # (it was "'-$1,234.56' is nowhere on the pages", and nothing saved)
    assert "located '($1,234.56)' on page 1" in out
    code, out, err = command("lint", "suite")
    assert code == 0 and "0 warning(s)" in out, out + err   # (it was "expected-not-printed")

    def verdict(answer: str) -> tuple[str, list]:
        code, out, err = command("grade", "suite/pl.json", "--answer", answer, "--json")
        got = json.loads(out)
        assert code == (0 if got["correct"] else 1), err
        return got["outcome"], [p["found"] for p in got["parts"]]

    assert verdict("($1,234.56)")[0] == "pass"
    assert verdict("The net loss was (1,234.56).") == ("pass", ["(1,234.56)"])
    # the answer's value traced to where the page prints it
    got = printed_json(command("grade", "suite/pl.json", "--answer", "($1,234.56)", "--json"))
    assert [(a["value"], a["source"], a["page"]) for a in got["attribution"]] == [("($1,234.56)", "visible", 1)]
    assert verdict("-$1,234.56")[0] == "pass"
    assert verdict("$1,234.56")[0] != "pass"   # the loss read as a profit


def test_a_key_in_brackets_grades_a_profit_of_the_same_figure_wrong(command, work):
    (work / "pl.pdf").write_bytes(platypus_statement())
    printed_json(command("adopt", "pl.pdf", "--into", "suite", "--question", QUESTION, "--expected",
                         "($1,234.56)", "--json"))
    case = json.loads((work / "suite" / "pl.json").read_text())
    assert case["expected_answer"] == "($1,234.56)"
    code, out, _ = command("grade", "suite/pl.json", "--answer", "1,234.56")
    assert code == 1 and out.startswith("FAIL")


def test_a_credit_printed_with_its_minus_after_it_as_erp_systems_print_it(command, work):
    """A credit note as an ERP system prints it, written by pymupdf directly: `1.234,56-`."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    for y, line in ((72, "Gutschrift Nr. 4471"), (100, "Rechnung 2291 vom 03.02.2025   1.480,00"),
                    (120, "Gutschriftsbetrag   1.234,56- EUR"), (140, "Restbetrag   245,44 EUR")):
        page.insert_text((72, y), line, fontname="helv", fontsize=10)
    doc.save(work / "gs.pdf")
    code, out, err = command("adopt", "gs.pdf", "--into", "suite", "--question", "Wie hoch ist die Gutschrift?",
                             "--expected", "-1.234,56 EUR")
    assert code == 0 and "located '1.234,56-' on page 1" in out, out + err
    for answer, correct in (("1.234,56-", True), ("-1.234,56 EUR", True), ("EUR 1.234,56", False)):
        code, out, _ = command("grade", "suite/gs.json", "--answer", answer)
        assert (code == 0) is correct, (answer, out)
