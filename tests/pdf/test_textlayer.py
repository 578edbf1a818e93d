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


def _inherited_pdf() -> bytes:
    """Two pages that take their font, size and turn from the /Pages node above them (written by
    hand: a writer may put shared resources there)."""
    from tests.support.hostile_corpus import hand_written

    def text(line: bytes) -> bytes:
        body = b"BT /F1 12 Tf 72 720 Td (" + line + b") Tj ET"
        return b"<< /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    return hand_written([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 /MediaBox [0 0 612 792] /Rotate 90"
        b" /Resources << /Font << /F1 3 0 R >> >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>",
        text(b"Inherited total $7.00"), text(b"Second page $8.00"),
    ])


@pytest.mark.parametrize("made", ["inherited", "reportlab", "miscounted"])
def test_a_page_of_the_usual_tree_is_read_without_pypdfs_page_list(made):
    """One page's pypdf text, read through the page MuPDF finds, is pypdf's own for that page; in
    the usual tree (one /Pages node over every page) pypdf's list of every page is not built (60 MB
    for 10,000 pages, in each worker), and a page's inherited resources and turn still apply; any
    other tree, or an object number that is not the kid's, reads through pypdf's list as before."""
    import io

    from pypdf import PdfReader

    from tests.support.fixtures import reportlab_pages
    from tests.support.hostile_corpus import miscounted_pages_pdf

    if made == "reportlab":
        import tempfile
        from pathlib import Path

        with tempfile.TemporaryDirectory() as tmp:
            data = reportlab_pages(Path(tmp) / "r.pdf", 3, hidden_on=1).read_bytes()
    else:
        data = _inherited_pdf() if made == "inherited" else miscounted_pages_pdf()
    doc = pymupdf.open(stream=data, filetype="pdf")
    expected = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    for index in range(len(expected)):
        reader = PdfReader(io.BytesIO(data))
        got = textlayer.read_pypdf_page(lambda reader=reader: reader, index, "x.pdf", doc.page_xref(index))
        assert got == expected[index]
        assert (reader.flattened_pages is None) == (made != "miscounted")
    if made == "inherited":
        assert "$7.00" in expected[0] and "$8.00" in expected[1]
        reader = PdfReader(io.BytesIO(data))
        page = textlayer.flat_tree_page(reader, 0, doc.page_xref(0))
        assert page is not None and page["/Rotate"] == 90 and "/F1" in page["/Resources"]["/Font"]
        assert textlayer.flat_tree_page(reader, 0, doc.page_xref(1)) is None   # not kid 0: the list decides
