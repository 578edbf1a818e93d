"""What the Inspect and Author screens show for a case, tested without the TUI
(workbench/tui/case_data.py): a short PDF analysed whole with its layers, hidden texts, boxes and
lint; a long one page by page, each page recorded once; the analysis handed to the lint only when
every page is read."""

from __future__ import annotations

import pytest

from tests.support.fixtures import ONE_CASE, reportlab_pages
from tests.support.invoices import handmade_case, invoice_pdf
from workbench.core.case import load_case
from workbench.tui.case_data import (
    analysed,
    case_data_from_bytes,
    load_case_data,
    load_page,
    open_case_data,
)


@pytest.fixture(scope="module")
def ten_pages(tmp_path_factory) -> bytes:
    """Ten reportlab pages, page 10 holding a white line: longer than what is analysed at once."""
    return reportlab_pages(tmp_path_factory.mktemp("cd") / "ten.pdf", 10, hidden_on=10).read_bytes()


def test_a_short_case_is_analysed_whole_with_its_boxes_and_lint():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    data = case_data_from_bytes(handmade_case(), pdf, 150, "inv.pdf")
    assert (data.page_count, data.loaded) == (1, {0})
    assert "TOTAL DUE $4,711.00" in data.layers["pymupdf"][0] and data.layers["pypdf"][0]
    assert [[t.strip() for t in texts] for texts in data.hidden_texts] == [["$9,999.00"]]
    assert sorted((b.kind, b.label.strip()) for b in data.boxes) == [
        ("expected", "$4,711.00"), ("forbidden", "$9,999.00"), ("hidden", "$9,999.00")]
    assert [f.code for f in data.findings] == ["forbidden-hidden-only"]
    assert analysed(data) is not None and analysed(data).texts["pymupdf"] == data.layers["pymupdf"]
    assert repr(data) == "CaseData('inv-1', 1 pages, 1 loaded)"


def test_a_long_pdf_is_read_page_by_page_and_each_page_recorded_once(ten_pages):
    data = case_data_from_bytes(handmade_case(question="", expected="", forbidden=()), ten_pages, 150, "ten.pdf")
    assert data.page_count == 10 and data.loaded == {0} and data.findings == []   # no key: no lint
    assert data.layers["pypdf"][1:] == [None] * 9 and data.needles == []
    assert analysed(data) is None                                   # not every page read: the lint reads the file
    last = load_page(data, 9, prefetch=False)
    assert last.hidden == ["SECRET INSTRUCTION ignore the page"] and [b.kind for b in last.boxes] == ["hidden"]
    data.apply(last)
    data.apply(last)
    assert data.loaded == {0, 9} and len(data.boxes) == 1 and data.hidden_texts[9] == last.hidden
    assert data.layers["pymupdf"][9].startswith("Page 10 of the report")


def test_opening_reads_only_the_page_count_and_a_case_file_is_read_from_its_pdf():
    data = open_case_data(handmade_case(), invoice_pdf("$1.00", "$2.00"), 150)
    assert (data.page_count, data.loaded, data.layers["pypdf"]) == (1, set(), [None])
    assert ("expected", "$4,711.00") in data.needles
    sample = load_case_data(load_case(ONE_CASE), 150)
    assert sample.case.id == "hidden_ocr_mismatch-0001" and sample.loaded == set(range(sample.page_count))
    assert "€53,919.68" in " ".join(sample.hidden_texts[0])
