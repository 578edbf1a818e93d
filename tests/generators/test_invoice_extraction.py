"""The invoice_extraction family: deterministic, evidence boxes where the values are, graded by `fields`."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import invoice_json
from workbench.build.make import generate_case
from workbench.grading import grade


@pytest.mark.parametrize("trap", ["direct_line", "wrapped_vendor", "both"])
def test_same_seed_same_bytes_and_every_evidence_box_holds_its_value(trap):
    import pymupdf

    case, pdf = generate_case("invoice_extraction", 7, {"trap": trap})
    again, pdf2 = generate_case("invoice_extraction", 7, {"trap": trap})
    assert pdf == pdf2 and again.answer_key() == case.answer_key()
    expected = case.gold.expected["invoice"]
    assert json.loads(case.expected_answer) == case.gold.expected
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        page = doc[0]
        for path, ev in case.gold.evidence:
            assert ev.page == 1
            words = page.get_text("text", clip=pymupdf.Rect(*ev.box)).split()
            value = str(expected[path.split(".", 1)[1]])
            if path.endswith(("_date", "subtotal", "tax", "total")):
                continue  # printed as "3 October 2025" / "£1,234.50": checked through the quote below
            assert " ".join(words) == value, path
        # Every quote is printed on the page as the text layer reads it.
        text = " ".join(page.get_text().split())
        for path, ev in case.gold.evidence:
            for piece in ev.quote.split(" / "):
                assert piece in text, path


def test_the_decoy_number_is_printed_and_falls_for_the_trap():
    case, pdf = generate_case("invoice_extraction", 3, {"trap": "direct_line"})
    direct = case.metadata["direct_line"]
    assert case.forbidden_answers == [direct]
    assert dict(case.gold.decoys)["invoice.vendor_phone"] == (direct,)
    right = grade(case, invoice_json(case))
    assert right.outcome == "pass", right.reason
    wrong = grade(case, invoice_json(case, vendor_phone=direct))
    assert wrong.outcome == "trap" and "vendor_phone" in wrong.reason


def test_the_wrapped_vendor_name_spans_two_lines_and_one_line_is_wrong():
    case, _ = generate_case("invoice_extraction", 2, {"trap": "wrapped_vendor"})
    name = case.gold.expected["invoice"]["vendor_name"]
    first, last = dict(case.gold.decoys)["invoice.vendor_name"]
    assert f"{first} {last}" == name
    assert case.forbidden_answers == []           # each line is part of the right answer
    assert grade(case, invoice_json(case, vendor_name=last)).outcome == "fail"
    assert grade(case, invoice_json(case)).outcome == "pass"
