"""What `inspect` reports of a PDF (workbench/checks/inspect.py): a page's size, layers, spans and
boxes; every page streamed in order, encoded where it was computed, with a line for each layer
that could not be read; and the whole document with its structure."""

from __future__ import annotations

import json

from tests.support import pdfs_forensics as F
from tests.support.hostile_corpus import second_page_pypdf_refuses_pdf
from workbench.checks.inspect import inspect_document, inspect_stream, page_report
from workbench.pdf.pages import PdfPages


def test_a_pages_report_has_its_size_layers_spans_and_boxes():
    with PdfPages(F.covered(), "covered.pdf") as pages:
        report = page_report(pages.page(0), [("expected", "SHOW 602")])
    assert (report["number"], report["width_pt"], report["height_pt"], report["rotation"]) == (1, 612, 792, 0)
    assert "HIDE 601" in report["text"]["pypdf"] and "HIDE 601" in report["text"]["pymupdf"]
    assert [(s["text"], s["visible"]) for s in report["spans"]][1:] == [("HIDE 601", False), ("SHOW 602", True)]
    assert report["hidden_spans"] == 1
    assert "hidden" not in report["layers"] and "page_number" not in report["layers"]   # the spans say it
    assert sorted((b["kind"], b["text"]) for b in report["boxes"]) == [("expected", "SHOW 602"), ("hidden", "HIDE 601")]
    assert "skipped" not in report and "unread" not in report


def test_pages_stream_in_order_encoded_where_computed_and_unread_layers_said_once():
    data = second_page_pypdf_refuses_pdf()
    said: list[str] = []
    texts = list(inspect_stream(data, [1, 0], "two.pdf", encode=json.dumps, warn=said.append))
    assert [json.loads(t)["number"] for t in texts] == [2, 1]
    assert json.loads(texts[0])["unread"]["pypdf"].endswith("pypdf cannot read page 2 (Non-Ascii85 digit found: ä)")
    assert len(said) == 1 and said[0].startswith("two.pdf") and "its pypdf layer is left empty" in said[0]


def test_a_whole_document_has_its_count_dpi_pages_and_structure():
    report = inspect_document(F.render_mode(), "mode.pdf", dpi=100)
    assert (report["page_count"], report["dpi"], [p["number"] for p in report["pages"]]) == (1, 100, [1])
    assert report["pages"][0]["hidden_spans"] == 1
    assert report["structure"]["revisions"] == [] and "fields" in report["structure"]
