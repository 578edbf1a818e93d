"""A truth table of foreign cases: PDFs made the way others make them, each with the lint's
verdict and the attribution's source a person gives after looking at the page.

The peer's published mechanisms are re-implemented here (pdfhell's mirror_image_glyphs with its
render-mode-3 copy, its white and invisible decoys, a stamp drawn as pixels, decoys printed in
another form or nowhere, render mode 3 left on for what follows), beside PDFs written by pypdf,
by pymupdf directly, by reportlab's platypus, and words placed by position without space glyphs
(as TeX does). No case has a contract: the lint judges them as it judges an imported suite."""

from __future__ import annotations

import io

import pytest

from workbench.checks.attribution import attribute
from workbench.checks.lint import lint_case
from workbench.core.case import Case

pytestmark = pytest.mark.slow   # PDFs other software wrote, each read by every extractor: 50 s for 21 at load 10 (`make test-fast` leaves them out)

TOTAL, DECOY = "$41,693.80", "$16,374.78"


def _canvas():
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792), invariant=True)
    c.setFont("Helvetica-Bold", 22)
    c.drawString(72, 720, "INVOICE")
    c.setFont("Helvetica", 10)
    c.drawString(72, 690, "Invoice INV-707588 from Sunwell Marine Services LLC. Terms: net 30 days.")
    return c, buf


def _done(c, buf) -> bytes:
    c.showPage()
    c.save()
    return buf.getvalue()


def _hidden_line(c, text: str, y: float, how: str) -> None:
    if how == "mode3":
        t = c.beginText(72, y)
        t.setFont("Helvetica", 10)
        t.setTextRenderMode(3)
        t.textLine(text)
        c.drawText(t)
    elif how == "white":
        c.setFillColorRGB(1, 1, 1)
        c.setFont("Helvetica", 10)
        c.drawString(72, y, text)
        c.setFillColorRGB(0, 0, 0)


def _mirrored(leak: str = "") -> bytes:
    """pdfhell's mirror_image_glyphs: an upright preliminary decoy, the binding total mirrored
    left-right (a negative x scale), and (as pdfhell draws it) the total again in hidden text."""
    c, buf = _canvas()
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, 600, f"PRELIMINARY TOTAL: {DECOY}")
    c.saveState()
    c.translate(610, 0)
    c.scale(-1, 1)
    c.setFont("Helvetica-Bold", 22)
    c.drawString(250, 450, TOTAL)
    c.restoreState()
    if leak:
        _hidden_line(c, f"Binding amount due (machine-readable): {TOTAL}.", 300, leak)
    return _done(c, buf)


def _mirrored_ocg_leak() -> bytes:
    """The same leak in a layer that is switched off (an optional content group)."""
    import pymupdf

    doc = pymupdf.open(stream=_mirrored(), filetype="pdf")
    ocg = doc.add_ocg("machine-readable", on=False)
    doc[0].insert_text((72, 492), f"Binding amount due: {TOTAL}", fontsize=10, oc=ocg)
    return doc.tobytes()


def _mirrored_leak_by(how: str) -> bytes:
    """The same leak hidden otherwise: under a white box, clipped away, moved off the page, or in
    an annotation flagged hidden."""
    import pymupdf

    doc = pymupdf.open(stream=_mirrored(), filetype="pdf")
    page = doc[0]
    line = f"Binding amount due: {TOTAL}"
    if how == "annotation":
        annot = page.add_freetext_annot(pymupdf.Rect(72, 480, 300, 496), line, fontsize=10)
        annot.set_flags(pymupdf.PDF_ANNOT_IS_HIDDEN)
        annot.update()
        return doc.tobytes()
    page.insert_text((72, 492), line, fontsize=10)
    if how == "covered":
        page.draw_rect(pymupdf.Rect(68, 480, 300, 496), color=(1, 1, 1), fill=(1, 1, 1))
    else:
        xref = page.get_contents()[-1]
        wrap = b"q 0 0 10 10 re W n " if how == "clipped" else b"q 1 0 0 1 0 900 cm "
        doc.update_stream(xref, wrap + doc.xref_stream(xref) + b" Q")
    return doc.tobytes()


def _hidden_decoy(how: str) -> bytes:
    """pdfhell's hidden_ocr_mismatch: the printed total, and the decoy total in hidden text."""
    c, buf = _canvas()
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 600, f"TOTAL DUE: {TOTAL}")
    _hidden_line(c, f"TOTAL DUE: {DECOY}", 560, how)
    return _done(c, buf)


def _pixel_stamp() -> bytes:
    """pdfhell's stamp drawn as pixels: the binding total is an image, in no text layer."""
    from PIL import Image, ImageDraw, ImageFont
    from reportlab.lib.utils import ImageReader

    img = Image.new("RGB", (700, 110), "white")
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 72)
    except OSError:
        font = ImageFont.load_default(size=72)
    draw.text((20, 10), TOTAL, fill=(170, 20, 30), font=font)
    c, buf = _canvas()
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 600, f"PRELIMINARY TOTAL: {DECOY}")
    c.drawString(72, 560, "Adjusted amount due (stamp):")
    c.drawImage(ImageReader(img), 300, 540, width=210, height=33)
    return _done(c, buf)


def _reworded() -> bytes:
    """Decoys printed in another form than the key writes them: "twelve (12) months" for
    "12 months", "1200" for "$1,200"."""
    c, buf = _canvas()
    c.setFont("Helvetica", 10)
    c.drawString(72, 600, "14.1 Liability is capped at twelve (12) months of fees paid.")
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, 580, "Footnote: liability arising from Sections 6.2 and 7.1 is uncapped.")
    c.setFont("Helvetica", 10)
    c.drawString(72, 560, "Deposit held: 1200")
    return _done(c, buf)


def _converted() -> bytes:
    """pdfhell's currency_mismatch_conversion: the total in EUR, a rate, and a question in USD
    (the answer is computed; the decoy is the printed total given a dollar sign)."""
    c, buf = _canvas()
    c.setFont("Helvetica", 11)
    c.drawString(72, 620, "Services rendered: EUR 12,000.00")
    c.drawString(72, 600, "Materials: EUR 8,794.00")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 570, "TOTAL DUE: EUR 20,794.00")
    c.setFont("Helvetica", 10)
    c.drawString(72, 540, "Settlement note: pay in USD at the stated rate of 1.18 USD per EUR.")
    return _done(c, buf)


def _render_mode_left_on() -> bytes:
    """pdfhell's boldface_binding_rule as drawn: the bold binding figure, then a "[bold]" tag in
    render mode 3, which stays on, so the regular-weight decoy after it is drawn invisibly."""
    c, buf = _canvas()
    c.setFont("Helvetica-Bold", 13)
    c.drawString(72, 600, f"TOTAL DUE: {TOTAL}")
    t = c.beginText(300, 600)
    t.setFont("Helvetica", 11)
    t.setTextRenderMode(3)
    t.textOut(" [bold]")
    c.drawText(t)
    c.setFont("Helvetica", 16)
    c.drawString(72, 570, f"TOTAL DUE: {DECOY}")
    return _done(c, buf)


def _pypdf_written() -> bytes:
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    page = writer.add_blank_page(612, 792)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
        {NameObject("/F1"): writer._add_object(font)})})
    stream = DecodedStreamObject()
    stream.set_data(f"BT /F1 12 Tf 72 700 Td (Invoice total: {TOTAL}) Tj ET "
                    f"BT /F1 12 Tf 72 680 Td (Previous balance: {DECOY}) Tj ET".encode())
    page[NameObject("/Contents")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _pymupdf_written() -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), f"Invoice total: {TOTAL}", fontsize=12)
    page.insert_text((72, 120), f"Previous balance: {DECOY}", fontsize=12)
    return doc.tobytes()


def _platypus_written() -> bytes:
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

    buf = io.BytesIO()
    styles = getSampleStyleSheet()
    doc = SimpleDocTemplate(buf, pagesize=letter, invariant=True)
    doc.build([Paragraph("Invoice INV-707588", styles["Title"]),
               Paragraph("Payment is due on net 30 days terms.", styles["BodyText"]),
               Table([["Description", "Amount"], ["Previous balance", DECOY], ["Total due", TOTAL]])])
    return buf.getvalue()


def _tex_like() -> bytes:
    """Each word placed by its own text matrix, with no space glyph between words (as TeX sets
    them): the reader joins them by the gaps."""
    words = ["Payment", "is", "due", "on", "net", "30", "days", "terms;", "the", "total", "is", TOTAL]
    ops, x = ["BT /F1 11 Tf"], 72.0
    for w in words:
        ops.append(f"1 0 0 1 {x:.2f} 700 Tm ({w}) Tj")
        x += 6.1 * len(w) + 3.2
    ops.append(f"1 0 0 1 72 680 Tm (Previous) Tj 1 0 0 1 124 680 Tm (balance) Tj 1 0 0 1 170 680 Tm ({DECOY}) Tj ET")
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((0, -50), " ", fontname="helv")  # gives the page a Helvetica resource
    font = [f for f in page.get_fonts()][0][4]
    xref = page.get_contents()[0]
    doc.update_stream(xref, " ".join(ops).replace("/F1", f"/{font}").encode())
    return doc.tobytes()


# (name, builder, expected, forbidden, metadata, errors, warnings, info, [(answer, source), ...])
TABLE = [
    ("mirrored glyphs + render-mode-3 leak", lambda: _mirrored("mode3"), TOTAL, [DECOY], {},
     {"expected-leaked"}, set(), set(), [(TOTAL, "rotated"), (DECOY, "visible")]),
    ("mirrored glyphs + white-on-white leak", lambda: _mirrored("white"), TOTAL, [DECOY], {},
     {"expected-leaked"}, set(), set(), [(TOTAL, "rotated")]),
    ("mirrored glyphs + a layer switched off", _mirrored_ocg_leak, TOTAL, [DECOY], {},
     {"expected-leaked"}, set(), set(), [(TOTAL, "rotated")]),
    *[(f"mirrored glyphs + a copy {how}", lambda how=how: _mirrored_leak_by(how), TOTAL, [DECOY], {},
       {"expected-leaked"}, set(), set(), [(TOTAL, "rotated")])
      for how in ("covered", "clipped", "off the page", "annotation")],
    ("mirrored glyphs, no copy", _mirrored, TOTAL, [DECOY], {},
     set(), set(), set(), [(TOTAL, "rotated"), (DECOY, "visible")]),
    ("decoy in render mode 3", lambda: _hidden_decoy("mode3"), TOTAL, [DECOY], {},
     set(), set(), {"forbidden-hidden-only"}, [(TOTAL, "visible"), (DECOY, "hidden")]),
    ("decoy white on white", lambda: _hidden_decoy("white"), TOTAL, [DECOY], {},
     set(), set(), {"forbidden-hidden-only"}, [(TOTAL, "visible"), (DECOY, "hidden")]),
    ("stamp drawn as pixels", _pixel_stamp, TOTAL, [DECOY], {},
     set(), {"expected-visible-unverified"}, set(), [(DECOY, "visible"), ("$12,345.67", "absent")]),
    ("decoys printed in another form", _reworded, "Liability is capped at 12 months, except Sections 6.2 and 7.1",
     ["Liability is capped at 12 months of fees paid.", "$1,200"], {},
     set(), {"expected-paraphrase"}, {"forbidden-reworded"}, [("12", "visible"), ("$1,200", "visible")]),
    ("converted total, decoy in the other currency", _converted, "$24,536.92", ["$20,794.00"], {},
     set(), {"expected-not-printed", "forbidden-nowhere"}, set(), [("$24,536.92", "computed"), ("$20,794.00", "visible")]),
    ("decoy printed nowhere", lambda: _hidden_decoy("none"), TOTAL, ["$99,999.01"], {},
     set(), {"forbidden-nowhere"}, set(), [("$99,999.01", "absent")]),
    ("render mode 3 left on hides the unlisted decoy", _render_mode_left_on, TOTAL, [],
     {"decoy_amount": 16374.78}, set(), {"forbidden-unlisted"}, set(), [(TOTAL, "visible"), (DECOY, "hidden")]),
    ("written by pypdf", _pypdf_written, TOTAL, [DECOY], {},
     set(), set(), set(), [(TOTAL, "visible"), (DECOY, "visible")]),
    ("written by pymupdf", _pymupdf_written, TOTAL, [DECOY], {},
     set(), set(), set(), [(TOTAL, "visible"), (DECOY, "visible")]),
    ("written by reportlab platypus", _platypus_written, TOTAL, [DECOY], {},
     set(), set(), set(), [(TOTAL, "visible"), (DECOY, "visible"), ("net 30 days", "visible")]),
    ("words placed without space glyphs", _tex_like, TOTAL, [DECOY], {},
     set(), set(), set(), [(TOTAL, "visible"), (DECOY, "visible"), ("net 30 days", "visible")]),
]


def _case(name: str, expected: str, forbidden: list[str], metadata: dict) -> Case:
    return Case(id=name.replace(" ", "_"), trap_family="(foreign)", seed=0,
                question="What is the binding amount due on invoice INV-707588?",
                expected_answer=expected, forbidden_answers=forbidden, metadata=metadata,
                pdf_path="case.pdf")


@pytest.mark.parametrize(("name", "build", "expected", "forbidden", "metadata", "errors", "warnings", "infos",
                          "sources"), TABLE, ids=[row[0] for row in TABLE])
def test_foreign_case_lint_verdict_and_attribution(name, build, expected, forbidden, metadata, errors, warnings,
                                                   infos, sources):
    pdf = build()
    case = _case(name, expected, forbidden, metadata)
    findings = lint_case(case, pdf)
    got = {sev: {f.code for f in findings if f.severity == sev} for sev in ("error", "warning", "info")}
    # every error is one the row expects (no false error), and every expected one is there (no
    # missed leak); warnings and infos named by the row are there
    assert got["error"] == errors, [f.message for f in findings if f.severity == "error"]
    assert warnings <= got["warning"], [f.message for f in findings]
    assert infos <= got["info"], [f.message for f in findings]
    for answer, source in sources:
        if name == "stamp drawn as pixels" and answer == TOTAL:
            continue
        assert attribute(case, pdf, answer)[0].source == source, (answer, attribute(case, pdf, answer)[0].detail)


def test_a_stamp_drawn_as_pixels_is_attributed_to_the_image_by_ocr():
    from workbench.pdf import ocr

    if not ocr.available():
        pytest.skip("the OCR extra is not installed")
    case = _case("pixel stamp", TOTAL, [DECOY], {})
    got = attribute(case, _pixel_stamp(), TOTAL)[0]
    assert (got.source, got.page) == ("visible", 0) and "in an image (OCR)" in got.detail


def test_the_leak_message_names_the_hiding_and_the_readers():
    case = _case("leak", TOTAL, [DECOY], {})
    leak = [f for f in lint_case(case, _mirrored("mode3")) if f.code == "expected-leaked"]
    assert len(leak) == 1
    assert "mirrored left-right" in leak[0].message and "invisible-render-mode" in leak[0].message
    assert "pymupdf" in leak[0].message
