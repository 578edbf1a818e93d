"""Pages as PNG (`pdf.render.png_bytes`, what an agent's page_image returns): lossless, gray when
the page has no colour, RGB when it has; any PNG reader reads it back to the rendered pixels."""

from __future__ import annotations

import io

import pymupdf
import pytest
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from workbench.pdf.render import png_bytes, render_png


def _page(colour: str | None) -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=A4, invariant=True)
    for i in range(40):
        c.drawString(60, 800 - i * 14, f"Line {i}: TOTAL AMOUNT DUE $19,679.70")
    if colour:   # one small mark in colour, at the foot of the page: the last band of rows
        c.setFillColor(colour)
        c.rect(500, 20, 4, 4, fill=1, stroke=0)
    c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize("colour, mode", [(None, "L"), ("#ff0000", "RGB"), ("#707080", "RGB")])
def test_png_is_the_rendered_pixels_gray_only_without_colour(colour, mode):
    pix = pymupdf.open(stream=_page(colour), filetype="pdf")[0].get_pixmap(dpi=100, alpha=False)
    png = png_bytes(pix)
    img = Image.open(io.BytesIO(png))
    img.verify()   # chunks and CRCs
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.mode == mode and img.size == (pix.width, pix.height)
    assert img.convert("RGB").tobytes() == pix.samples
    assert pymupdf.Pixmap(png).width == pix.width   # MuPDF reads it too


def test_a_gray_pixmap_and_render_png():
    doc = pymupdf.open(stream=_page(None), filetype="pdf")
    gray = doc[0].get_pixmap(dpi=72, colorspace=pymupdf.csGRAY, alpha=False)
    img = Image.open(io.BytesIO(png_bytes(gray)))
    assert img.mode == "L" and img.tobytes() == gray.samples
    img = Image.open(io.BytesIO(render_png(_page("#0000ff"), 0, 72)))
    assert img.mode == "RGB" and img.size == (gray.width, gray.height)
