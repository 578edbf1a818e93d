"""Foreign PDFs for the mutations' tests (tests/generators): PDFs others make (written by pymupdf,
pypdf and reportlab platypus, pages turned by /Rotate, a crop box off the media box's corner,
encrypted by qpdf, a font dict written inline), adopted and mutated through the CLI, and what a
person sees of the result (the displayed page's pixels, glyph boxes, line directions)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from pypdf import PdfReader

from tests.support.hostile_corpus import hand_written

VALUE = "$1,234.56"

QUESTION = "What is the total due?"


def inline_font_pdf(text: bytes = b"Total due: $1,234.56") -> bytes:
    """A one-page PDF written by hand whose font dict is inline in the page's resources (no xref)."""
    content = b"BT /F1 12 Tf 72 700 Td (" + text + b") Tj ET"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font "
        b"<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    return hand_written(objs)


LINES = (("ACME Supplies - Invoice 2291", 16), ("Item: paper, 12 boxes", 11), ("Subtotal: $1,028.80", 11),
         (f"Total due: {VALUE}", 11), ("Thank you for your business.", 11))


def pymupdf_turned(rotation: int) -> bytes:
    """A landscape invoice stored the way scanners and 'rotate page' tools store it: a portrait
    page whose text is drawn turned, and /Rotate `rotation` turning it upright on screen; a table
    rule under the subtotal. Written with pymupdf directly."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.set_rotation(rotation)
    to_own = page.derotation_matrix
    for (text, size), y in zip(LINES, (90, 150, 180, 210, 260), strict=True):
        page.insert_text(pymupdf.Point(72, y) * to_own, text, fontsize=size, rotate=rotation)
    page.draw_line(pymupdf.Point(72, 186) * to_own, pymupdf.Point(400, 186) * to_own, width=0.5)
    return doc.tobytes()


def pymupdf_upright_then_rotated(rotation: int) -> bytes:
    """An upright portrait page that someone turned with /Rotate afterwards: its text shows turned."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for (text, size), y in zip(LINES, (90, 150, 180, 210, 260), strict=True):
        page.insert_text((72, y), text, fontsize=size)
    page.set_rotation(rotation)
    return doc.tobytes()


def platypus_table(rotation: int = 0) -> bytes:
    """A reportlab platypus invoice: a paragraph, then a ruled table whose last row is the total
    (rules above and below every row, a box around it), turned upright by pypdf: the content is
    rotated into the page and /Rotate `rotation` shows it upright (pypdf's transformations)."""
    from pypdf import PdfWriter, Transformation
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buf = io.BytesIO()
    styles = getSampleStyleSheet()
    rows = [["Item", "Qty", "Amount"], ["Paper, A4", "12", "$640.00"], ["Toner", "2", "$388.80"],
            ["Total due", "", VALUE]]
    table = Table(rows, colWidths=[200, 60, 100])
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                               ("BOX", (0, 0), (-1, -1), 1.0, colors.black)]))
    story = [Paragraph("ACME Supplies - Invoice 2291", styles["Title"]),
             Paragraph("Payment within 30 days of the invoice date.", styles["Normal"]), Spacer(1, 12), table]
    SimpleDocTemplate(buf, pagesize=letter, invariant=True).build(story)
    if not rotation:
        return buf.getvalue()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(buf.getvalue())))
    page = writer.pages[0]
    w, h = float(page.mediabox.width), float(page.mediabox.height)
    # Turn the content counter-clockwise by `rotation` about the origin, back into the positive
    # quadrant; /Rotate turns it clockwise on screen, so it reads upright there.
    shift = {90: (h, 0), 180: (w, h), 270: (0, w)}[rotation]
    page.add_transformation(Transformation().rotate(rotation).translate(*shift))
    if rotation in (90, 270):
        page.mediabox.upper_right = (h, w)
    page.rotation = rotation
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def platypus_statement() -> bytes:
    """A statement of profit or loss as reportlab platypus typesets one: two year columns, the
    negatives in brackets (`(12,806.40)`, `($1,234.56)`), as accountants print them."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buf = io.BytesIO()
    styles = getSampleStyleSheet()
    rows = [["", "2024", "2023"], ["Revenue", "$18,240.00", "$15,930.00"],
            ["Cost of sales", "(12,806.40)", "(11,020.75)"], ["Operating expenses", "(6,668.16)", "(4,102.10)"],
            ["Net income (loss)", "($1,234.56)", "$807.15"]]
    table = Table(rows, colWidths=[200, 100, 100])
    table.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                               ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black)]))
    story = [Paragraph("Harbour Lane Cafe Ltd - Statement of profit or loss", styles["Title"]),
             Paragraph("For the year ended 31 December 2024. Amounts in brackets are negative.", styles["Normal"]),
             Spacer(1, 12), table]
    SimpleDocTemplate(buf, pagesize=letter, invariant=True).build(story)
    return buf.getvalue()


def cropped(data: bytes) -> bytes:
    """`data` with a crop box that does not start at the media box's corner (30 pt in from the
    left, 20 from the bottom, 10 from the right, 40 from the top), as pypdf writes it."""
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    page = writer.pages[0]
    box = page.mediabox
    page.cropbox.lower_left = (float(box.left) + 30, float(box.bottom) + 20)
    page.cropbox.upper_right = (float(box.right) - 10, float(box.top) - 40)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def qpdf_encrypted(tmp_path: Path, data: bytes, user: str, owner: str = "owner-pw") -> bytes:
    """`data` encrypted by qpdf with AES-256 (R6); `user` "" for an owner-password-only PDF."""
    if shutil.which("qpdf") is None:
        pytest.skip("qpdf is not installed (apt-get install qpdf; .ci/run installs it)")
    src, out = tmp_path / "plain-for-qpdf.pdf", tmp_path / "qpdf-out.pdf"
    src.write_bytes(data)
    subprocess.run(["qpdf", "--encrypt", user, owner, "256", "--", str(src), str(out)], check=True)
    return out.read_bytes()


def texts(data: bytes, page: int = 0) -> dict[str, str]:
    """What each extractor we have reads on `page`."""
    with pymupdf.open(stream=data) as doc:
        fitz = doc[page].get_text()
    return {"pymupdf": fitz, "pypdf": PdfReader(io.BytesIO(data)).pages[page].extract_text()}


def adopt(cli, tmp_path: Path, data: bytes, name: str, *extra: str, expected: str = VALUE):
    tmp_path.mkdir(parents=True, exist_ok=True)
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(data)
    return cli("adopt", pdf, "--into", tmp_path / "suite", "--question", QUESTION, "--expected", expected,
               *extra)

DPI = 100

MAKERS = {"pymupdf": pymupdf_turned, "platypus": platypus_table,
          # (MuPDF draws off by the crop box's offset on such a page when it is turned)
          "pymupdf-cropped": lambda rotation: cropped(pymupdf_turned(rotation))}


def gray(data: bytes, page: int = 0):
    """The displayed page's pixels (grey, at DPI), as a person sees it."""
    import numpy as np

    with pymupdf.open(stream=data) as doc:
        pix = doc[page].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, :pix.width]


def region(pixels, box):
    s = DPI / 72
    return pixels[int(box[1] * s):int(box[3] * s) + 1, int(box[0] * s):int(box[2] * s) + 1]


def ink_centre(pixels):
    """Where the ink of a region is, on average: (column, row) in pixels; and how it spreads."""
    import numpy as np

    ink = 255.0 - pixels.astype(float)
    rows, cols = np.indices(pixels.shape)
    total = ink.sum()
    cx, cy = (ink * cols).sum() / total, (ink * rows).sum() / total
    sx = np.sqrt((ink * (cols - cx) ** 2).sum() / total)
    sy = np.sqrt((ink * (rows - cy) ** 2).sum() / total)
    return np.array([cx, cy, sx, sy])


def glyph_boxes(data: bytes, text: str, page: int = 0) -> list[tuple[float, ...]]:
    """The displayed box of every glyph of each place `text` is printed on `page`."""
    out = []
    with pymupdf.open(stream=data) as doc:
        pg = doc[page]
        for span in pg.get_texttrace():
            chars = "".join(chr(ch[0]) for ch in span["chars"])
            start = chars.find(text)
            while start >= 0:
                for ch in span["chars"][start:start + len(text)]:
                    out.append(tuple(pymupdf.Rect(ch[3]) * pg.rotation_matrix))
                start = chars.find(text, start + 1)
    return out


def line_dirs(data: bytes, needle: str, page: int = 0) -> set[tuple[int, int]]:
    """Which way (pymupdf's line direction on the displayed page) each line holding `needle` reads."""
    with pymupdf.open(stream=data) as doc:
        pg = doc[page]
        out = set()
        for block in pg.get_text("dict")["blocks"]:
            for line in block.get("lines", ()):
                if needle in "".join(s["text"] for s in line["spans"]):
                    d = pymupdf.Point(line["dir"]) * pymupdf.Matrix(pg.rotation)
                    out.add((round(d.x), round(d.y)))
    return out


def mutated(cli, tmp_path: Path, data: bytes, trap: str, *params: str, lint: bool = True):
    """`trap` armed in `data` adopted as it is: (its PDF, its case JSON, the target's displayed
    box, or None for a mutation without one)."""
    code, _, err = adopt(cli, tmp_path, data, "doc")
    assert code == 0, err
    code, out, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", trap, "--id", "m",
                         *(a for p in params for a in ("--param", p)), *([] if lint else ["--allow-lint-errors"]))
    assert code == 0, err
    case = json.loads((tmp_path / "suite" / "m.json").read_text())
    target = case["mutations"][-1]["target"]
    return (tmp_path / "suite" / "m.pdf").read_bytes(), case, target and target["box"]
