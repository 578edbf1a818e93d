"""Mutations on PDFs others made: written by pymupdf, pypdf and reportlab platypus, pages turned by
/Rotate 90, 180 and 270, encrypted by qpdf (AES-256, R6), a font dict written inline. Each input is
made here; each result is checked as a user would see it: the text every extractor reads and the
pixels of the page as displayed."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path

import pymupdf
import pytest
from pypdf import PdfReader

from workbench.core.contract import Arming

VALUE = "$1,234.56"
QUESTION = "What is the total due?"


# ---- foreign inputs ------------------------------------------------------------------------

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
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, obj in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


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


# ---- 12: encrypted input, one rule -------------------------------------------------------------

def test_an_r6_owner_password_pdf_with_an_inline_font_adopts_lints_and_mutates(cli, tmp_path):
    locked = qpdf_encrypted(tmp_path, inline_font_pdf(), user="")
    code, out, err = adopt(cli, tmp_path, locked, "inline")
    assert code == 0, err
    assert "Traceback" not in err and "owner password only): kept as it is" in out
    suite = tmp_path / "suite"
    case = json.loads((suite / "inline.json").read_text())
    assert case["source"]["encryption"] == {"method": "Standard V5 R6 256-bit AES",
                                            "password": "owner only", "kept": "as it is"}
    assert (suite / "inline.pdf").read_bytes() == locked  # the user's file, byte for byte
    for command in ("inspect", "lint"):
        code, _, err = cli(command, tmp_path / "inline.pdf")
        assert code == 0 and "Traceback" not in err, err
    code, out, err = cli("mutate", suite / "inline.json", "--trap", "hidden_layer")
    assert code == 0, err
    assert "is written without encryption" in out
    made = suite / "inline-hidden_layer-0001.pdf"
    with pymupdf.open(made) as doc:
        assert not (doc.metadata or {}).get("encryption")
    decoy = json.loads(made.with_suffix(".json").read_text())["forbidden_answers"][-1]
    assert all(decoy in t for t in texts(made.read_bytes()).values())
    code, out, err = cli("verify", suite)
    assert code == 0 and "2 of 2 match" in out, out + err


def test_a_user_password_pdf_asks_for_it_in_one_line_and_is_kept_decrypted(cli, tmp_path):
    locked = qpdf_encrypted(tmp_path, inline_font_pdf(), user="user-pw")
    code, out, err = adopt(cli, tmp_path, locked, "locked")
    assert code == 2 and err.count("\n") == 1 and "give --password" in err and "Traceback" not in err
    for command in ("inspect", "lint"):
        code, _, err = cli(command, tmp_path / "locked.pdf")
        assert code == 2 and err.count("\n") == 1 and "give --password" in err, err
    code, _, err = cli("inspect", tmp_path / "locked.pdf", "--password", "wrong")
    assert code == 2 and "check --password" in err
    code, out, err = adopt(cli, tmp_path, locked, "locked", "--password", "user-pw")
    assert code == 0, err
    assert "user password): kept decrypted" in out
    suite = tmp_path / "suite"
    kept = (suite / "locked.pdf").read_bytes()
    with pymupdf.open(stream=kept) as doc:
        assert not doc.needs_pass and not (doc.metadata or {}).get("encryption")
    assert "user-pw" not in (suite / "locked.json").read_text()  # no password is written down
    assert json.loads((suite / "locked.json").read_text())["source"]["encryption"]["password"] == "user"
    code, out, err = cli("mutate", suite / "locked.json", "--trap", "hidden_layer")
    assert code == 0 and "without encryption" not in out, err
    assert cli("verify", suite)[0] == 0


def test_mutate_of_a_source_that_needs_a_password_takes_the_same_password(cli, tmp_path):
    from workbench.core.case import sha256_hex

    plain = inline_font_pdf()
    assert adopt(cli, tmp_path, plain, "doc")[0] == 0
    suite = tmp_path / "suite"
    # A suite whose adopted copy still needs its password (adopted by an older version, or by hand).
    locked = qpdf_encrypted(tmp_path, plain, user="user-pw")
    (suite / "doc.pdf").write_bytes(locked)
    raw = json.loads((suite / "doc.json").read_text())
    raw["sha256"] = raw["source"]["sha256"] = sha256_hex(locked)
    (suite / "doc.json").write_text(json.dumps(raw))
    code, _, err = cli("mutate", suite / "doc.json", "--trap", "white_text")
    assert code == 2 and err.count("\n") == 1 and "give --password" in err and "Traceback" not in err
    code, out, err = cli("mutate", suite / "doc.json", "--trap", "white_text", "--password", "user-pw")
    assert code == 0, err
    made = (suite / "doc-white_text-0001.pdf").read_bytes()
    with pymupdf.open(stream=made) as doc:
        assert not doc.needs_pass and "Total due" in doc[0].get_text()
    # The mutated case keeps a decrypted copy of its source, so verify replays it with no password.
    kept = json.loads((suite / "doc-white_text-0001.json").read_text())["source"]
    assert kept["encryption"]["kept"] == "decrypted" and kept["sha256"] != sha256_hex(locked)
    with pymupdf.open(suite / kept["path"]) as doc:
        assert not doc.needs_pass
    code, out, err = cli("verify", suite)
    assert code == 0 and "2 of 2 match" in out, out + err


# ---- 9, 10: pages turned by /Rotate, free space, every glyph covered ---------------------------

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


@pytest.mark.parametrize("rotation", [90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_hidden_layer_on_a_turned_page_keeps_the_printed_value_where_it_was(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "hidden_layer")
    before, after = region(gray(source), box), region(gray(pdf), box)
    # The value's pixels are still there (the old code erased them: mean 255, or failed outright).
    assert before.mean() < 230 and abs(float(after.mean()) - float(before.mean())) < 12
    assert abs(ink_centre(after) - ink_centre(before)).max() < 1.0   # pixels: not moved, not turned
    decoy = case["forbidden_answers"][-1]
    for reader, text in texts(pdf).items():
        assert decoy in text and VALUE not in text, reader
    assert line_dirs(pdf, decoy) == line_dirs(source, VALUE) == {(1, 0)}  # reads upright, as the value


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_tiny_print_reads_upright_under_its_line_in_blank_space(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "tiny_print")
    [[page, clause]] = case["metadata"]["mutation"]["places"]
    assert page == 1
    # Below the value's line on the page as displayed, close to it, where the page was blank
    # (the platypus table's rules included: the old code drew over them, and sideways).
    assert box[3] <= clause[1] <= box[3] + 60, (box, clause)
    assert int(region(gray(source), clause).min()) >= 245
    assert line_dirs(pdf, "Amended") == {(1, 0)}
    for reader, text in texts(pdf).items():
        assert case["expected_answer"] in " ".join(text.split()), reader


def test_tiny_print_follows_text_that_is_itself_turned_on_screen(cli, tmp_path):
    """A page turned after it was written shows its text sideways: the clause reads along it."""
    source = pymupdf_upright_then_rotated(90)
    pdf, case, box = mutated(cli, tmp_path, source, "tiny_print")
    assert line_dirs(pdf, "Amended") == line_dirs(source, VALUE) == {(0, 1)}
    [[_, clause]] = case["metadata"]["mutation"]["places"]
    assert clause[2] <= box[0] and int(region(gray(source), clause).min()) >= 245  # left of it: below the line


def test_tiny_print_refuses_in_one_line_when_the_page_has_no_blank_space(cli, tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 100), f"Total due: {VALUE}", fontsize=11)
    for y in range(4, 200, 3):   # a ruled page: no band 7 pt high is blank anywhere
        page.draw_line((0, y), (300, y), width=0.3)
    code, _, err = adopt(cli, tmp_path, doc.tobytes(), "ruled")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "ruled.json", "--trap", "tiny_print")
    assert code == 2 and err.count("\n") == 1 and "no blank space" in err, err


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_redact_overlay_covers_every_glyph_of_the_value_and_labels_it_upright(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    # (linted: visibility is judged per character, so the value is hidden though its line is not)
    pdf, case, _ = mutated(cli, tmp_path, source, "redact_overlay", "show_label=false")
    glyphs = glyph_boxes(source, VALUE)
    assert len(glyphs) == len(VALUE)
    after = gray(pdf)
    assert [round(float(region(after, g).max())) for g in glyphs] == [0] * len(VALUE)
    for reader, text in texts(pdf).items():
        assert VALUE in text, reader
    labelled, _, _ = mutated(cli, tmp_path / "label", source, "redact_overlay")
    assert line_dirs(labelled, "REDACTED") == {(1, 0)}


def test_redact_overlay_covers_the_currency_sign_where_the_value_is_printed_again(cli, tmp_path):
    doc = pymupdf.open()
    for n in (1, 2):
        doc.new_page().insert_text((72, 100), f"Page {n}. Total due: {VALUE}", fontsize=12)
    pdf, case, _ = mutated(cli, tmp_path, doc.tobytes(), "redact_overlay", "show_label=false", lint=False)
    assert sorted(p for p, _ in case["metadata"]["mutation"]["places"]) == [1, 2]
    for page in (0, 1):
        glyphs = glyph_boxes(doc.tobytes(), VALUE, page)
        # The old box over page 2's figures alone left its "$" printed beside the box.
        assert [round(float(region(gray(pdf, page), g).max())) for g in glyphs] == [0] * len(VALUE), page


@pytest.mark.parametrize("rotation", [90, 270])
def test_white_text_and_scan_on_a_turned_page(cli, tmp_path, rotation):
    source = pymupdf_turned(rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "white_text", "method=white")
    decoy = case["forbidden_answers"][-1]
    assert all(decoy in t for t in texts(pdf).values())
    assert line_dirs(pdf, decoy) == {(1, 0)}
    assert (gray(pdf) == gray(source)).all()   # nothing a person sees changed
    scan, _, _ = mutated(cli, tmp_path / "scan", source, "scan")
    with pymupdf.open(stream=scan) as doc:
        assert doc[0].rect.width > doc[0].rect.height   # the page as displayed: landscape
    assert float(region(gray(scan), box).mean()) < 235  # the value is where it was shown
    assert all(VALUE in t for t in texts(scan).values())   # its faithful text layer, upright


def test_at_takes_a_box_of_the_displayed_page(cli, tmp_path):
    source = pymupdf_turned(90)
    code, _, err = adopt(cli, tmp_path, source, "doc")
    assert code == 0, err
    [*_, (x0, y0, x1, y1)] = [g for g in glyph_boxes(source, VALUE)]
    first = glyph_boxes(source, VALUE)[0]
    at = f"1:{first[0] - 1:.1f},{first[1] - 1:.1f},{x1 + 1:.1f},{y1 + 1:.1f}"
    code, out, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "hidden_layer", "--at", at)
    assert code == 0 and f"('{VALUE}')" in out, err


# ---- 11: the lint checks what each extractor reads ----------------------------------------------

@pytest.mark.parametrize(("x", "errors"), [
    (72, []),                                                    # on the page: both extractors read it
    (700, ["forbidden-not-in-every-text-layer"]),                # past the edge: pypdf alone reads it
])
def test_the_lint_says_which_extractor_misses_a_decoy_meant_for_every_text_layer(x, errors):
    from workbench.checks.lint import lint_case
    from workbench.core.case import Case

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), f"Total due: {VALUE}", fontsize=12)
    page.insert_text((x, 300), "Corrected figure: $999.00", fontsize=8, render_mode=3)
    data = doc.tobytes()
    case = Case(id="c", trap_family="adopted", seed=0, pdf_path="c.pdf", question=QUESTION,
                expected_answer=VALUE, forbidden_answers=["$999.00"],
                contract=(Arming("expected", "visible"), Arming("forbidden", "hidden"),
                          Arming("forbidden", "every_text_layer")))
    found = [f for f in lint_case(case, data) if f.severity == "error"]
    assert [f.code for f in found] == errors
    if errors:
        assert "as pymupdf extracts it; only pypdf reads it" in found[0].message


@pytest.mark.parametrize("seed", range(1, 9))
def test_white_text_seeded_default_is_on_the_page_and_read_by_every_extractor(cli, tmp_path, seed):
    source = platypus_table()
    code, _, err = adopt(cli, tmp_path, source, "doc")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "white_text", "--seed", seed,
                       "--id", "m")
    assert code == 0, err   # the lint passed: each extractor reads the decoy
    case = json.loads((tmp_path / "suite" / "m.json").read_text())
    pdf = (tmp_path / "suite" / "m.pdf").read_bytes()
    decoy = case["forbidden_answers"][-1]
    assert case["params"]["method"] != "off_page"
    for reader, text in texts(pdf).items():
        assert decoy in text, reader
    [[_, box]] = case["metadata"]["mutation"]["places"]
    assert 0 <= box[0] and box[2] <= 612 and 0 <= box[1] and box[3] <= 792


def test_white_text_off_page_is_pinned_only_and_the_lint_says_pypdf_alone_reads_it(cli, tmp_path):
    from workbench.checks.lint import lint_case
    from workbench.core.suite import load_suite

    code, _, err = adopt(cli, tmp_path, platypus_table(), "doc")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "doc.json", "--trap", "white_text",
                       "--param", "method=off_page", "--id", "m")
    assert code == 0, err
    case = load_suite(tmp_path / "suite").case("m")
    pdf = case.pdf_file.read_bytes()
    decoy = case.forbidden_answers[-1]
    read = texts(pdf)
    assert decoy in read["pypdf"] and decoy not in read["pymupdf"]
    assert Arming(f"forbidden:{len(case.forbidden_answers) - 1}", "text_layer",
                  "an extractor that reads past the page's edge (pypdf) reads it") in case.contract
    assert [f for f in lint_case(case, pdf) if f.severity == "error"] == []
