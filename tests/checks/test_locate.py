"""Locating the value a mutation attacks (workbench/checks/locate.py): the expected answer's box
by evidence search (visible first), a box the user gives with `--at` and the text under it, a
page's spans to pick from, and one line where nothing can be located."""

from __future__ import annotations

import pytest

from tests.support.fixtures import reportlab_pages
from tests.support.hostile_corpus import plain_pdf
from tests.support.invoices import handmade_case, invoice_pdf
from workbench.checks.locate import (
    locate_all,
    locate_box,
    locate_for,
    locate_value,
    located_answer,
    page_spans,
    parse_at,
)
from workbench.core.errors import UserError


@pytest.fixture(scope="module")
def invoice() -> bytes:
    """INVOICE 42, TOTAL DUE $4,711.00 printed, $9,999.00 in invisible text on the same line."""
    return invoice_pdf("$4,711.00", "$9,999.00")


def image_only() -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    pix.clear_with(0)
    page.insert_image(pymupdf.Rect(72, 72, 144, 144), pixmap=pix)
    return doc.tobytes()


def test_at_is_a_page_and_a_box_or_one_line_saying_how_to_write_it():
    assert parse_at("2:72,140,180,156") == (1, (72.0, 140.0, 180.0, 156.0))
    assert parse_at(" 1 : 0.5, 1 ,2,3 ") == (0, (0.5, 1.0, 2.0, 3.0))
    with pytest.raises(UserError, match=r"--at '2:72,140': write it as PAGE:x0,y0,x1,y1"):
        parse_at("2:72,140")
    with pytest.raises(UserError, match="x1 must exceed x0 and y1 exceed y0"):
        parse_at("1:100,10,50,20")


def test_the_value_printed_is_located_before_a_hidden_copy(invoice):
    shown = locate_value(invoice, "$4,711.00")
    assert (shown.page, shown.text, shown.visible) == (0, "$4,711.00", True)
    x0, y0, x1, y1 = shown.box
    assert x1 > x0 > 72 and 842 - 660 - 14 < y0 < y1 < 842 - 660 + 4   # on the TOTAL DUE line (A4)
    hidden = locate_value(invoice, "$9,999.00")
    assert hidden.visible is False and hidden.box[0] > x1                # further along, unseen
    assert [(loc.text, loc.visible) for loc in locate_all(invoice, "$4,711.00")] == [("$4,711.00", True)]


def test_a_value_hidden_on_page_one_and_printed_on_page_two_is_located_on_page_two(tmp_path):
    pdf = reportlab_pages(tmp_path / "two.pdf", 2, hidden_on=1, hidden="Page 2 of the report").read_bytes()
    assert (locate_value(pdf, "Page 2 of the report").page, locate_value(pdf, "Page 2 of the report").visible) == (1, True)
    assert [(loc.page, loc.visible) for loc in locate_all(pdf, "Page 2 of the report")] == [(1, True), (0, False)]


def test_a_value_printed_nowhere_or_on_an_image_only_page_is_one_line(invoice, tmp_path):
    with pytest.raises(UserError, match=r"^inv\.pdf: '\$1\.00' is nowhere on the pages$"):
        locate_value(invoice, "$1.00", "inv.pdf")
    with pytest.raises(UserError, match=r"is nowhere on page 2"):
        locate_value(reportlab_pages(tmp_path / "two.pdf", 2).read_bytes(), "Page 1 of the report", page=1)
    with pytest.raises(UserError, match="no expected answer to locate"):
        locate_value(invoice, " ")
    with pytest.raises(UserError, match="an image-only PDF"):
        locate_value(image_only(), "$1.00")


def test_the_text_under_a_box_and_a_box_over_nothing(invoice):
    total = locate_value(invoice, "$4,711.00")
    under = locate_box(invoice, 0, total.box)
    assert (under.page, under.box, under.text) == (0, total.box, "$4,711.00")
    with pytest.raises(UserError, match=r"^--at: page 1 has no text at 10,10,20,20; move the box"):
        locate_box(invoice, 0, (10, 10, 20, 20))
    with pytest.raises(UserError, match=r"^--at: inv\.pdf has no page 3 \(it has 1\)$"):
        locate_box(invoice, 2, total.box, "inv.pdf")


def test_a_pages_spans_in_reading_order(invoice):
    assert [(loc.text, loc.visible) for loc in page_spans(invoice, 0)] == [
        ("INVOICE 42", True), ("TOTAL DUE $4,711.00", True), ("$9,999.00", False)]


def test_a_keys_answer_located_or_a_line_per_token_that_is_not(invoice):
    found, problems = located_answer(handmade_case(), invoice)
    assert found.text == "$4,711.00" and problems == []
    found, problems = located_answer(handmade_case(expected="", expected_tokens=["INVOICE 43", "42"]), invoice)
    assert found.text == "42" and problems == ["expected-not-located: inv-1: 'INVOICE 43' is nowhere on the pages"]
    found, problems = located_answer(handmade_case(expected="", expected_tokens=["42", "$4,711.00"]), invoice)
    assert (found.text, problems) == ("42", [])


def test_what_a_mutation_attacks_at_a_box_or_the_answer_or_says_to_give_a_box(invoice):
    assert locate_for(handmade_case(), invoice).text == "$4,711.00"
    total = locate_value(invoice, "$4,711.00")
    at = "1:" + ",".join(f"{v:g}" for v in total.box)
    assert locate_for(handmade_case(expected="$1.00"), invoice, at=at).text == "$4,711.00"
    with pytest.raises(UserError, match=r"is nowhere on the pages; give the value's box with --at PAGE:x0,y0,x1,y1$"):
        locate_for(handmade_case(expected="$2.00"), plain_pdf())   # (it prints $1.00)
    # `mutate --page 9` of a one-page PDF: the page it does not have, not a value not found
    with pytest.raises(UserError, match=r"^inv-1 has no page 9 \(it has 1\)$"):
        locate_for(handmade_case(), invoice, page=9)
