"""The ToUnicode check (workbench/pdf/glyphs.py): a digit's ink read by its shape, and the spans
of a page whose font map names other digits than the glyphs draw (the tounicode_remap family),
while an honest page and a turned one give none."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support.families import make
from workbench.pdf import glyphs
from workbench.pdf.trace import trace_spans


def digit_ink(digit: str, font: str):
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), digit, fontsize=48, fontname=font)
    pix = page.get_pixmap(clip=pymupdf.Rect(66, 50, 110, 112), dpi=72, colorspace=pymupdf.csGRAY, alpha=False)
    return glyphs._ink(pix)


@pytest.mark.parametrize("font", ["helv", "tiro", "cour"])
def test_each_digit_is_read_as_itself(font):
    for digit in "0123456789":
        seen, scores = glyphs.read_digit(digit_ink(digit, font))
        assert seen == digit and max(scores, key=scores.get) == digit


def test_no_ink_is_no_digit():
    doc = pymupdf.open()
    page = doc.new_page()
    pix = page.get_pixmap(clip=pymupdf.Rect(0, 0, 40, 40), dpi=72, colorspace=pymupdf.csGRAY, alpha=False)
    assert glyphs.read_digit(glyphs._ink(pix)) == (None, {})


@pytest.fixture(scope="module")
def remapped():
    params, made = make("tounicode_remap", 1)
    return params, made.pdf


def test_a_remapped_total_reads_as_its_glyphs_show(remapped):
    params, pdf = remapped
    doc = pymupdf.open(stream=pdf)
    page = doc[0]
    ((span, read),) = glyphs.glyph_readings(doc, page, trace_spans(page, 0))
    assert read == "£40,613.80" and f"{params['visible_total']:,.2f}" == "40,613.80"
    assert span.text != read and span.text.startswith("£")   # what the text layer says instead


def test_an_honest_page_in_a_font_with_a_map_has_no_readings():
    """reportlab embeds Vera with a ToUnicode map that tells the truth: its digits are judged,
    and none is read as another."""
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    if "Vera" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("Vera", "Vera.ttf"))
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("Vera", 12)
    c.drawString(72, 700, "Total 1,234.56 and 7,890.00")
    c.showPage()
    c.save()
    doc = pymupdf.open(stream=buf.getvalue())
    assert glyphs._fonts_with_tounicode(doc, doc[0]) == {"BitstreamVeraSans-Roman"}
    assert glyphs.glyph_readings(doc, doc[0], trace_spans(doc[0], 0)) == []
