"""The text layers as each extractor reads them (workbench/pdf/textlayer.py): pypdf and pymupdf
page by page, a form's filled fields, one line for a PDF pypdf cannot open, the cache of the last
PDFs read, and the layer differences of one page or of every page."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support import pdfs_forensics as F
from tests.support.hostile_corpus import encrypted_pdf, plain_pdf, truncated_pdf
from workbench.core.errors import UserError
from workbench.pdf import textlayer
from workbench.pdf.document import PdfError


def filled_form() -> bytes:
    """Two pages written by pymupdf: the first has a label, a filled text field and a checkbox."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Payee:", fontsize=12)
    for kind, name, value, rect in ((pymupdf.PDF_WIDGET_TYPE_TEXT, "payee", "ACME Ltd", (120, 60, 300, 80)),
                                    (pymupdf.PDF_WIDGET_TYPE_CHECKBOX, "paid", True, (120, 90, 140, 110))):
        widget = pymupdf.Widget()
        widget.field_type, widget.field_name, widget.field_value = kind, name, value
        widget.rect = pymupdf.Rect(*rect)
        page.add_widget(widget)
    doc.new_page()
    data = doc.tobytes()
    doc.close()
    return data


def test_each_extractor_reads_each_page_and_an_unknown_one_is_refused():
    data = filled_form()
    assert textlayer.extract(data, "pypdf") == textlayer.text_pypdf(data) == ["Payee:", ""]
    assert textlayer.extract(data, "pymupdf")[0].startswith("Payee: ACME Ltd")
    with pytest.raises(UserError, match="unknown extractor 'ocrmypdf'; choose one of pypdf, pymupdf"):
        textlayer.extract(data, "ocrmypdf")


def test_a_form_gives_its_filled_text_fields_page_by_page_not_its_checkboxes():
    assert textlayer.form_fields_pypdf(filled_form()) == [["payee: ACME Ltd"], []]
    assert textlayer.form_fields_pypdf(plain_pdf()) == [[]]


def test_page_info_has_each_pages_size_and_turn():
    doc = pymupdf.open()
    doc.new_page(width=300, height=400)
    doc.new_page(width=612, height=792).set_rotation(90)
    info = textlayer.page_info(doc.tobytes())
    assert [(p.number, p.width_pt, p.height_pt, p.rotation) for p in info] == [
        (1, 300, 400, 0), (2, 792, 612, 90)]


def test_a_pdf_pypdf_cannot_open_is_one_line_naming_it():
    with pytest.raises(PdfError, match=r"^cut\.pdf: pypdf cannot read this PDF \(Stream has ended unexpectedly\)$"):
        textlayer.open_pypdf(truncated_pdf(), "cut.pdf")
    with pytest.raises(PdfError, match=r"^locked\.pdf: encrypted PDF .*--password"):
        textlayer.open_pypdf(encrypted_pdf("u"), "locked.pdf")
    assert textlayer.open_pypdf(encrypted_pdf("u"), "locked.pdf", password="u").pages[0].extract_text() == "Total: $1.00"


def test_page_texts_are_read_once_for_the_same_bytes():
    textlayer.clear_cache()
    data = F.render_mode()
    first = textlayer.page_texts(data)
    assert "HIDE 101" in first["pypdf"][0] and "HIDE 101" in first["pymupdf"][0]
    assert textlayer.page_texts(bytes(data)) is first
    textlayer.clear_cache()
    assert textlayer.page_texts(data) is not first and textlayer.page_texts(data) == first


def test_layer_diff_of_a_page_out_of_range_says_how_many_there_are():
    with pytest.raises(UserError, match=r"^one\.pdf: no page 2 \(it has 1\)$"):
        textlayer.layer_diff(F.render_mode(), page=1, name="one.pdf")


def test_document_diffs_has_one_diff_a_page_with_its_hidden_words():
    doc = pymupdf.open()
    for p in (F.render_mode(), F.tiny_text()):
        doc.insert_pdf(pymupdf.open(stream=p))
    diffs = textlayer.document_diffs(doc.tobytes())
    assert [[s.text for s in d.hidden] for d in diffs] == [["HIDE 101"], ["HIDE 401"]]
