"""Purpose-built one-page PDFs for the forensics tests: each hides a marked string one way, beside
a visible look-alike of the same construction, so a check that calls everything hidden fails.

Each builder returns PDF bytes. Hidden strings contain "HIDE", visible ones "SHOW", followed by a
number, so tests can find the span they mean.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen.canvas import Canvas

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _page(draw: Callable[[Canvas], None]) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica", 10)
    c.drawString(72, 740, "Forensics fixture: an ordinary visible line.")
    draw(c)
    c.showPage()
    c.save()
    return buf.getvalue()


def render_mode() -> bytes:
    def draw(c: Canvas) -> None:
        t = c.beginText(72, 600)
        t.setFont("Helvetica", 12)
        t.setTextRenderMode(3)
        t.textOut("HIDE 101")
        t.setTextRenderMode(0)
        c.drawText(t)
        t = c.beginText(72, 560)
        t.setFont("Helvetica", 12)
        t.setTextRenderMode(0)
        t.textOut("SHOW 102")
        c.drawText(t)
    return _page(draw)


def white_on_white() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFillColorRGB(1, 1, 1)
        c.setFont("Helvetica", 12)
        c.drawString(72, 600, "HIDE 201")
        c.setFillColorRGB(0, 0, 0)
        c.rect(66, 552, 120, 22, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        c.drawString(72, 558, "SHOW 202")
        c.setFillColorRGB(0, 0, 0)
    return _page(draw)


def grey_on_grey() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFillGray(0.6)
        c.rect(66, 594, 120, 22, stroke=0, fill=1)
        c.setFont("Helvetica", 12)
        c.drawString(72, 600, "HIDE 301")
        c.drawString(72, 558, "SHOW 302")
        c.setFillGray(0)
    return _page(draw)


def tiny_text() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 2)
        c.drawString(72, 600, "HIDE 401")
        c.setFont("Helvetica", 9)
        c.drawString(72, 560, "SHOW 402")
    return _page(draw)


def off_page() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 12)
        c.drawString(-400, 600, "HIDE 501")
        c.drawString(72, 900, "HIDE 503")
        c.drawString(72, 560, "SHOW 502")
    return _page(draw)


def covered() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 12)
        c.drawString(72, 600, "HIDE 601")
        c.setFillColorRGB(1, 1, 1)
        c.rect(66, 594, 120, 22, stroke=0, fill=1)   # drawn later, filled: hides the text
        c.setFillColorRGB(0, 0, 0)
        c.drawString(72, 558, "SHOW 602")
        c.setStrokeColorRGB(0, 0, 0)
        c.rect(66, 552, 120, 22, stroke=1, fill=0)   # drawn later, outline only
    return _page(draw)


def clipped() -> bytes:
    def draw(c: Canvas) -> None:
        c.saveState()
        p = c.beginPath()
        p.rect(66, 552, 120, 22)
        c.clipPath(p, stroke=0, fill=0)
        c.setFont("Helvetica", 12)
        c.drawString(72, 600, "HIDE 701")   # outside the clip
        c.drawString(72, 558, "SHOW 702")   # inside the clip
        c.restoreState()
    return _page(draw)


def leaked_state() -> bytes:
    """A generator that sets render mode 3 for a hidden label and forgets to reset it."""
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 12)
        c.drawString(72, 640, "SHOW 801")
        t = c.beginText(72, 600)
        t.setFont("Helvetica", 12)
        t.setTextRenderMode(3)
        t.textOut("HIDE 802")
        c.drawText(t)                         # no saveState/restoreState: the mode leaks
        c.drawString(72, 560, "HIDE 803 meant to be visible")
    return _page(draw)


def _dejavu(c: Canvas) -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("DejaVu", str(DEJAVU)))
    return "DejaVu"


def zero_width_and_confusable() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFont(_dejavu(c), 12)
        c.drawString(72, 600, "Total 12\u200b345.67")          # zero-width space inside the number
        c.drawString(72, 560, "Total 12345.68")                 # the honest twin
        c.drawString(72, 520, "Т\u041eТАL DUE 999.10")          # Cyrillic Т О Т А
        c.drawString(72, 480, "TOTAL DUE 999.11")
        c.drawString(72, 440, "Итого 500")                      # real Cyrillic: no look-alike trap
    return _page(draw)


def money_and_breaks() -> bytes:
    def draw(c: Canvas) -> None:
        c.setFont("Helvetica", 11)
        c.drawString(72, 640, "Amount due: USD 1,234.56 by 30 June.")
        c.drawString(72, 620, "Grand total:")
        c.drawString(140, 620, "$99")
        c.drawString(140 + c.stringWidth("$99", "Helvetica", 11), 620, ",051.90")  # two runs, one number
        c.drawString(72, 600, "The carve-out applies to the indemni-")
        c.drawString(72, 586, "fication obligations in Section 6.2.")
        c.drawString(72, 566, "Reference     number   A-77   (extra spaces)")
        c.drawString(72, 546, "Subtotal 41,234.56")
        c.setFillColorRGB(1, 1, 1)
        c.drawString(300, 546, "$7,777.00")                      # hidden money
        c.setFillColorRGB(0, 0, 0)
    return _page(draw)


def white_over_image() -> bytes:
    """White text over an image of black digits paints gaps into them (visible damage); under the
    image, the same white text is covered."""
    from workbench.generators.kit import draw_text_pixels

    def draw(c: Canvas) -> None:
        draw_text_pixels(c, "$13,144.73", 72, 600, 13)
        c.setFillColorRGB(1, 1, 1)
        c.setFont("Helvetica-Bold", 13)
        c.drawString(72, 600, "SHOW $61,271.52")        # drawn after the image: cuts into it
        c.drawString(72, 560, "HIDE $61,271.53")        # drawn before the image below
        c.setFillColorRGB(0, 0, 0)
        draw_text_pixels(c, "$13,144.74", 72, 560, 13)
    return _page(draw)


def words_by_position(sentence: str = "Hello, here is some text without a meaning.",
                      price: str = "12 months of fees: $1,234.56") -> bytes:
    """Words separated by pen moves, never by a space glyph, as pdfLaTeX writes them: the first
    line draws each word as its own text object, the second is one TJ array with -333 offsets
    between words, the third moves by 0.10 em between letters (tight kerning: no word break)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    def tj(words: list[str], offset: int) -> str:
        return f" -{offset} ".join("(" + w.replace("(", "\\(").replace(")", "\\)") + ")" for w in words)

    def draw(c: Canvas) -> None:
        x = 72.0
        for w in sentence.split():
            t = c.beginText(x, 640)
            t.setFont("Helvetica", 11)
            t.textOut(w)
            c.drawText(t)
            x += stringWidth(w, "Helvetica", 11) + 0.3 * 11
        c.setFont("Helvetica", 11)  # the font the raw TJ operators below name as /F1
        c._code.append(f"BT /F1 11 Tf 72 610 Td [{tj(price.split(), 333)}] TJ ET")
        c._code.append(f"BT /F1 11 Tf 72 580 Td [{tj(list('Kerning'), 100)}] TJ ET")
    return _page(draw)


ALL = {
    "render_mode": render_mode, "white_on_white": white_on_white, "grey_on_grey": grey_on_grey,
    "tiny_text": tiny_text, "off_page": off_page, "covered": covered, "clipped": clipped,
    "leaked_state": leaked_state, "white_over_image": white_over_image,
}
