"""The text a page draws (workbench/pdf/trace.py): spans with the word spaces their glyph
positions show, boxes in the rendered page's coordinates (a turned page too), colour, mirroring
and layer issues, before any verdict."""

from __future__ import annotations

import io

import pymupdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.support import pdfs_forensics as F
from tests.support.foreign_pdfs import inline_font_pdf, platypus_table, pymupdf_turned
from workbench.pdf.trace import WORD_GAP_EM, box_mapper, text_runs, trace_and_list, trace_spans


def first_page(data: bytes):
    return pymupdf.open(stream=data)[0]


def drawn(*raw: str) -> bytes:
    """One A4 reportlab page: a red line and a black one, then `raw` content operators (F1 is
    Helvetica)."""
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("Helvetica", 12)
    c.setFillColorRGB(1, 0, 0)
    c.drawString(72, 700, "RED 1")
    c.setFillColorRGB(0, 0, 0)
    c.drawString(72, 680, "BLACK 2")
    c._code.extend(raw)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_words_the_pen_moves_apart_are_spaced_letters_moved_a_little_are_not():
    spans = {s.text: s for s in trace_spans(first_page(F.words_by_position()), 0)}
    tj = spans["12 months of fees: $1,234.56"]              # one TJ array, -333 between words
    assert len(tj.char_boxes) == len(tj.text)
    space = tj.char_boxes[2]                                # the space rebuilt after "12"
    assert tj.char_boxes[1][2] == space[0] and space[2] == tj.char_boxes[3][0]
    assert "Kerning" in spans and 0.10 < WORD_GAP_EM        # 0.10 em between letters: one word
    assert {"Hello,", "here", "is", "meaning."} <= set(spans)   # one text object a word


def test_a_span_has_its_page_order_font_size_colour_and_box():
    red, black = trace_spans(first_page(drawn()), 4)
    assert (red.page, red.seqno, red.text, red.font, red.size) == (4, 0, "RED 1", "Helvetica", 12.0)
    assert red.color == pytest.approx((1, 0, 0)) and black.color == pytest.approx((0, 0, 0))
    x0, y0, x1, y1 = red.bbox            # top-left origin: 700 pt up an 842 pt page
    assert x0 == 72 and 842 - 700 - 12 < y0 < y1 < 842 - 700 + 4
    assert red.visible and red.render_mode == 0 and red.opacity == 1.0 and red.direction == (1.0, 0.0)


def test_mirrored_text_is_told_apart_and_only_when_checks_are_asked():
    data = drawn("BT /F1 12 Tf -1 0 0 1 300 600 Tm (MIRROR 3) Tj ET",
                 "BT /F1 12 Tf 0 1 -1 0 300 400 Tm (TURNED 4) Tj ET")
    spans = {s.text: s for s in trace_spans(first_page(data), 0)}
    assert spans["MIRROR 3"].mirrored and spans["MIRROR 3"].direction == (-1.0, 0.0)
    assert not spans["TURNED 4"].mirrored and not spans["BLACK 2"].mirrored   # a rotation is not a mirror
    assert not any(s.mirrored for s in trace_spans(first_page(data), 0, checks=False))


def test_look_alike_and_zero_width_characters_are_layer_issues():
    if not F.DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed; the look-alike glyphs need it")
    page = first_page(F.zero_width_and_confusable())
    issues = {s.text: s.layer_issues for s in trace_spans(page, 0)}
    assert issues["Total 12\u200b345.67"] == ["zero-width"] and issues["Total 12345.68"] == []
    assert "confusable" in issues["\u0422\u041e\u0422\u0410L DUE 999.10"]
    assert all(s.layer_issues == [] for s in trace_spans(page, 0, checks=False))


def test_a_turned_page_gives_boxes_as_it_is_shown():
    page = first_page(pymupdf_turned(90))
    assert (page.rect.width, page.rect.height) == (792, 612)
    total = next(s for s in trace_spans(page, 0) if s.text.startswith("Total due"))
    x0, y0, x1, y1 = total.bbox
    assert (x0, round(y0)) == (72, 201) and x1 - x0 > 5 * (y1 - y0)    # a line across, not down
    assert total.char_boxes[0][:2] == total.bbox[:2]
    runs = {text: box for text, box, _size, _font in text_runs(page)}
    assert runs["Total due: $1,234.56"] == total.bbox
    assert box_mapper(first_page(drawn()))((1, 2, 3, 4)) == (1, 2, 3, 4)


def test_text_runs_are_every_drawn_run_with_its_size_and_font():
    runs = text_runs(first_page(drawn("BT /F1 7 Tf 72 500 Td (   ) Tj ET", "BT /F1 7 Tf 72 480 Td (small) Tj ET")))
    assert [(t, size, font) for t, _box, size, font in runs] == [
        ("RED 1", 12.0, "Helvetica"), ("BLACK 2", 12.0, "Helvetica"), ("small", 7.0, "Helvetica")]


@pytest.mark.parametrize("make", [F.words_by_position, F.clipped, F.covered, F.white_over_image, F.leaked_state,
                                  F.zero_width_and_confusable, inline_font_pdf, platypus_table,
                                  lambda: pymupdf_turned(90)])
def test_the_trace_read_off_the_display_list_is_pymupdfs_own_and_the_list_renders_the_page(make):
    """The report's crops read a page once (`trace_and_list`): the trace must be what
    `get_texttrace` gives (reportlab, platypus, pymupdf, an inline font; a turned page keeps
    pymupdf's own reading and has no list), and the list must draw the page's pixels."""
    page = first_page(make())
    trace, listed = trace_and_list(page)
    assert trace == page.get_texttrace() and trace
    if page.rotation:
        assert listed is None
        return
    clip = pymupdf.Rect(0, 0, page.rect.width, page.rect.height / 2)
    own = page.get_pixmap(dpi=72, clip=clip, colorspace=pymupdf.csGRAY, alpha=False)
    off = listed.get_pixmap(matrix=pymupdf.Matrix(1, 1), clip=clip, colorspace=pymupdf.csGRAY, alpha=False)
    assert off.samples == own.samples and min(off.samples) < 128   # the same ink, and some


def test_a_long_documents_analysis_keeps_its_character_boxes_compactly():
    """The analysis of every page is kept (attribution, the lint, the screens read it again), and
    with it a box per character: as tuples of four floats, about 190 bytes a character were held (a
    300-page text PDF: 405 MB); as one array of floats per span, under a third of that. The
    boxes read back are the trace's own."""
    import gc
    import tracemalloc

    from workbench.pdf.visibility import analyze_document

    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    for p in range(8):
        for i in range(50):
            c.drawString(72, 740 - i * 13.5, f"Page {p + 1} line {i + 1}: the total due is $12,345.67 on 2024-03-01")
        c.showPage()
    c.save()
    data = buf.getvalue()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        doc = analyze_document(data, 150, "long")
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    spans = [s for pa in doc.pages for s in pa.spans]
    chars = sum(len(s.text) for s in spans)
    assert chars > 20_000 and held / chars < 80, f"{held / chars:.0f} bytes a character"
    traced = pymupdf.open(stream=data)[3].get_texttrace()
    first = next(s for s in doc.pages[3].spans if s.text.startswith("Page 4 line 1:"))
    raw = next(t for t in traced if "".join(chr(ch[0]) for ch in t["chars"]).startswith("Page 4 line 1:"))
    assert list(first.char_boxes) == [tuple(ch[3]) for ch in raw["chars"]]
    assert first.char_boxes[2] == tuple(raw["chars"][2][3]) and len(first.char_boxes[3:7]) == 4
