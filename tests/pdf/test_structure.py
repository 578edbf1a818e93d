"""Structure forensics on PDFs the tests write themselves (pymupdf, pypdf, reportlab, by hand),
not through the family code: each mechanism is found, named and shown beside what is drawn."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pymupdf
import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from workbench.checks.lint import lint_path
from workbench.pdf import spans as reasons
from workbench.pdf.structure import REPAIRED, structure_report
from workbench.pdf.textlayer import layer_diff
from workbench.pdf.visibility import analyze_page


def _hidden(pdf: bytes) -> dict[str, list[str]]:
    return {s.text: s.reasons for s in analyze_page(pdf) if not s.visible}


def _plain_page(text: str = "Amount due: 1,250.00") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), text, fontsize=12)
    return doc.tobytes()


def test_text_in_a_layer_that_is_off_is_hidden_as_optional_content_off(tmp_path):
    doc = pymupdf.open(stream=_plain_page())
    ocg = doc.add_ocg("Old figures", on=False)
    doc[0].insert_text((72, 140), "Amount due: 9,870.00", fontsize=12, oc=ocg)
    pdf = doc.tobytes()
    assert _hidden(pdf) == {"Amount due: 9,870.00": [reasons.OCG_OFF]}
    path = tmp_path / "layer.pdf"
    path.write_bytes(pdf)
    msgs = [f.message for f in lint_path(path) if f.code == "hidden-text"]
    assert msgs == ["page 1: 'Amount due: 9,870.00' is hidden (optional content off)"]


def test_a_layer_that_is_on_hides_nothing():
    doc = pymupdf.open(stream=_plain_page())
    ocg = doc.add_ocg("Shown", on=True)
    doc[0].insert_text((72, 140), "Amount due: 9,870.00", fontsize=12, oc=ocg)
    assert _hidden(doc.tobytes()) == {}


def test_hidden_and_note_annotations_are_annotation_not_drawn():
    doc = pymupdf.open(stream=_plain_page())
    page = doc[0]
    free = page.add_freetext_annot(pymupdf.Rect(72, 200, 300, 220), "Pay 4,400.00 instead", fontsize=10)
    free.set_flags(pymupdf.PDF_ANNOT_IS_HIDDEN)
    free.update()
    page.add_text_annot((400, 300), "Reviewer: the real total is 7,000.00")
    shown = page.add_freetext_annot(pymupdf.Rect(72, 400, 300, 420), "Approved by D. W.", fontsize=10)
    shown.update()
    pdf = doc.tobytes()
    hidden = _hidden(pdf)
    assert hidden == {"Pay 4,400.00 instead": [reasons.ANNOTATION],
                      "Reviewer: the real total is 7,000.00": [reasons.ANNOTATION]}
    visible = [s.text for s in analyze_page(pdf) if s.visible]
    assert "Approved by D. W." in visible  # a FreeText that draws its text is ordinary text


def test_a_form_field_value_is_shown_beside_its_appearance():
    doc = pymupdf.open(stream=_plain_page())
    for name, value in (("total", "512.00"), ("note", "paid")):
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        w.field_name, w.field_value = name, value
        w.rect = pymupdf.Rect(72, 200 + 40 * len(name), 250, 220 + 40 * len(name))
        annot = doc[0].add_widget(w)
        if name == "total":
            doc.xref_set_key(annot.xref, "V", "(815.00)")
    pdf = doc.tobytes()
    fields = {f.name: f for f in structure_report(pdf).fields}
    assert (fields["total"].value, fields["total"].appearance, fields["total"].differs) == ("815.00", "512.00", True)
    assert (fields["note"].value, fields["note"].appearance, fields["note"].differs) == ("paid", "paid", False)
    assert _hidden(pdf) == {"815.00": [reasons.FIELD_VALUE]}
    assert "512.00" in [s.text for s in analyze_page(pdf) if s.visible]


def test_an_incremental_save_by_pymupdf_lists_revisions_and_supersedes_the_old_text(tmp_path):
    path = tmp_path / "edited.pdf"
    path.write_bytes(_plain_page("Amount due: 1,250.00"))
    doc = pymupdf.open(path)
    page = doc[0]
    page.add_redact_annot(pymupdf.Rect(60, 85, 300, 105))
    page.apply_redactions()
    page.insert_text((72, 100), "Amount due: 1,520.00", fontsize=12)
    doc.save(path, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
    doc.close()
    pdf = path.read_bytes()
    revs = structure_report(pdf).revisions
    assert [r.number for r in revs] == [1, 2]
    assert revs[1].pages_changed == [0]
    assert revs[1].removed == ["Amount due: 1,250.00"] and revs[1].added == ["Amount due: 1,520.00"]
    assert _hidden(pdf) == {"Amount due: 1,250.00": [reasons.SUPERSEDED]}
    out = subprocess.run([sys.executable, "-m", "workbench", "inspect", str(path), "--json"],
                         capture_output=True, text=True, check=True)
    report = json.loads(out.stdout)
    assert [r["number"] for r in report["structure"]["revisions"]] == [1, 2]


def test_an_update_of_one_run_among_a_thousand_of_one_text_supersedes_that_one(tmp_path):
    """A page of 1,000 runs of one text (pymupdf, one call each), updated once to change one of
    them: that one is superseded, the others are as drawn (each old run was compared with every
    span: a minute for 6,000). A thousand, not more: each insert_text call costs pymupdf more than
    the last (3,000 took 4 s to write, 0.26 s to analyse)."""
    path = tmp_path / "many-updated.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=1000, height=800)
    for i in range(1000):
        page.insert_text((10 + (i % 100) * 9.5, 20 + (i // 100) * 25), "7", fontsize=8)
    doc.save(path)
    doc.close()
    doc = pymupdf.open(path)
    page = doc[0]
    page.add_redact_annot(pymupdf.Rect(484, 188, 490, 197))   # the 7 at (485, 195), alone
    page.apply_redactions()
    page.insert_text((485, 195), "8", fontsize=8)
    doc.save(path, incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
    doc.close()
    spans = analyze_page(path.read_bytes())
    old = [s for s in spans if reasons.SUPERSEDED in s.reasons]
    assert [(s.text, round(s.bbox[0])) for s in old] == [("7", 485)] and not old[0].visible
    assert sum(s.visible and s.text == "7" for s in spans) == 999 and "8" in [s.text for s in spans if s.visible]


def test_a_file_written_once_has_no_revisions():
    assert structure_report(_plain_page()).revisions == []


def test_a_file_cut_short_is_said_damaged_by_lint_and_inspect_and_whole_files_are_not(tmp_path):
    """A download that stopped part way: MuPDF rebuilds the cross-reference table and reads the
    page, pypdf cannot read its stream. The bare lint said nothing of it (0 findings, exit 0)."""
    from pypdf import PdfReader, PdfWriter

    from tests.support.cli import run_command
    from tests.support.foreign_pdfs import platypus_statement, pymupdf_turned

    whole = platypus_statement()
    rewritten = io.BytesIO()
    PdfWriter(clone_from=PdfReader(io.BytesIO(whole))).write(rewritten)
    for name, data in (("platypus", whole), ("pypdf", rewritten.getvalue()), ("turned", pymupdf_turned(90)),
                       ("once", _plain_page())):
        (tmp_path / f"{name}.pdf").write_bytes(data)
        assert structure_report(data).repaired is False, name
        assert "pdf-repaired" not in [f.code for f in lint_path(tmp_path / f"{name}.pdf")], name
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(whole[: len(whole) * 2 // 3])
    assert structure_report(cut.read_bytes()).repaired is True
    damaged = [f for f in lint_path(cut) if f.code == "pdf-repaired"]
    assert [(f.severity, f.message) for f in damaged] == [("warning", REPAIRED)]
    shown = run_command("inspect", cut)
    assert f"({REPAIRED})" in shown.stdout and "Traceback" not in shown.stderr
    got = run_command("inspect", cut, "--json")
    assert json.loads(got.stdout)["structure"]["repaired"] is True


def _vera_pdf(text: str) -> bytes:
    if "TestVera" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("TestVera", os.path.join(os.path.dirname(reportlab.__file__),
                                                                "fonts", "Vera.ttf")))
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("TestVera", 14)
    c.drawString(72, 700, text)
    c.save()
    return buf.getvalue()


def _remap_with_pypdf(pdf: bytes, table: dict[str, str]) -> bytes:
    """The font's ToUnicode rewritten by pypdf (a different tool than the families use)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    fonts = writer.pages[0]["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        if "/ToUnicode" in font:
            cmap = font["/ToUnicode"].get_object()
            data = cmap.get_data().decode("latin-1")
            data = re.sub(r"<(3[0-9])> <003([0-9])>", lambda m: f"<{m.group(1)}> <003{table[m.group(2)]}>", data)
            cmap.set_data(data.encode("latin-1"))
            font[NameObject("/ToUnicode")] = cmap.indirect_reference or font["/ToUnicode"]
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_tounicode_remap_is_found_by_the_glyphs_shape_not_the_map():
    table = dict(zip("0123456789", "5827160934", strict=True))
    pdf = _remap_with_pypdf(_vera_pdf("Total 4,812.07"), table)
    spans = analyze_page(pdf)
    hidden = [s for s in spans if not s.visible]
    assert [(s.text, s.reasons) for s in hidden] == [("Total 1,382.59", [reasons.TOUNICODE])]
    assert "Total 4,812.07" in [s.text for s in spans if s.visible]  # what the glyphs read
    diff = layer_diff(pdf)
    assert "4,812.07" in diff.missing["pypdf"] and "4,812.07" in diff.missing["pymupdf"]


def test_honest_embedded_digits_are_not_flagged():
    spans = analyze_page(_vera_pdf("Invoice 1234567890 total 48,120.95"))
    assert [s.text for s in spans if not s.visible] == []
    assert [s.text for s in spans] == ["Invoice 1234567890 total 48,120.95"]


def _hand_written_pdf(content: bytes) -> bytes:
    """A one-page PDF written byte by byte, Helvetica as /F1, with a correct xref table."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    from tests.support.hostile_corpus import hand_written

    return hand_written(objects)


def test_actualtext_written_by_hand_is_found():
    pdf = _hand_written_pdf(b"BT /F1 12 Tf 72 700 Td (Amount due ) Tj ET\n"
                            b"/Span <</ActualText (3,300.00)>> BDC\n"
                            b"BT /F1 12 Tf 300 700 Td (2,200.00) Tj ET\nEMC\n")
    assert _hidden(pdf) == {"3,300.00": [reasons.ACTUALTEXT]}
    assert "2,200.00" in [s.text for s in analyze_page(pdf) if s.visible]


def test_actualtext_that_spells_the_glyphs_hides_nothing():
    pdf = _hand_written_pdf(b"/Span <</ActualText (2,200.00)>> BDC\n"
                            b"BT /F1 12 Tf 300 700 Td (2,200.00) Tj ET\nEMC\n")
    assert _hidden(pdf) == {}


@pytest.mark.parametrize("face", ["DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed.ttf"])
def test_tounicode_check_reads_faces_it_has_no_reference_for(face):
    path = f"/usr/share/fonts/truetype/dejavu/{face}"
    if not os.path.exists(path):
        pytest.skip("fonts-dejavu not installed")
    name = "Test" + face.replace(".ttf", "").replace("-", "")
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, path))
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont(name, 12)
    c.drawString(72, 700, "Total 4,812.07 and 3,965.10")
    c.save()
    honest = buf.getvalue()
    assert [(s.text, s.visible) for s in analyze_page(honest)] == [("Total 4,812.07 and 3,965.10", True)]
    remapped = _remap_with_pypdf(honest, dict(zip("0123456789", "5827160934", strict=True)))
    assert [(s.text, s.visible) for s in analyze_page(remapped)] == [
        ("Total 1,382.59 and 7,406.85", False), ("Total 4,812.07 and 3,965.10", True)]


def test_a_linearized_file_is_one_revision_not_two(tmp_path):
    import shutil

    if shutil.which("qpdf") is None:
        pytest.skip("qpdf not installed")
    src, out = tmp_path / "plain.pdf", tmp_path / "linear.pdf"
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 100), f"Page {n + 1}: amount due 1,250.00", fontsize=12)
    src.write_bytes(doc.tobytes())
    subprocess.run(["qpdf", "--linearize", str(src), str(out)], check=True)
    pdf = out.read_bytes()
    assert pdf.count(b"%%EOF") == 2  # the first-page section has its own
    assert structure_report(pdf).revisions == []
    assert _hidden(pdf) == {}
