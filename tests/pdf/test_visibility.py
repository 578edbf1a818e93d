"""Visibility per character (issue 34 item 3): a span half under a box is judged glyph by glyph, so
the characters under the box are hidden (`covered`) and the rest of the line stays visible. The
PDFs are written here with reportlab (one drawString per line: one span) and with pymupdf."""

from __future__ import annotations

import io
import json

import pytest

from workbench.checks.search import find_evidence
from workbench.pdf.visibility import analyze_page, clear_cache

LINE = "Invoice 2291   Date: 2024-03-01   Total due: $1,234.56   Paid: $0.00"


def reportlab_line(fill=(0, 0, 0), alpha: float = 1.0, over: str = "$1,234.56") -> bytes:
    """One line of several values in one span, then a filled box over `over` (drawn after it)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    c.setFont("Helvetica", 11)
    c.drawString(72, 690, LINE)
    x0 = 72 + stringWidth(LINE[:LINE.index(over)], "Helvetica", 11)
    c.setFillColorRGB(*fill, alpha=alpha)
    c.rect(x0 - 1.5, 686, stringWidth(over, "Helvetica", 11) + 3, 14, stroke=0, fill=1)
    c.save()
    return buf.getvalue()


def pymupdf_half_line() -> bytes:
    """A line whose right half a black box drawn later covers (pymupdf's own drawing)."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "VISIBLE LEFT HIDDEN RIGHT", fontsize=12)
    left = pymupdf.get_text_length("VISIBLE LEFT ", fontsize=12)
    page.draw_rect(pymupdf.Rect(72 + left - 1, 85, 400, 105), color=None, fill=(0, 0, 0))
    return doc.tobytes()


def _verdicts(data: bytes) -> list[tuple[str, bool, list[str]]]:
    clear_cache()
    return [(s.text, s.visible, s.reasons) for s in analyze_page(data)]


def test_a_black_box_over_half_a_line_hides_those_characters_only():
    assert _verdicts(pymupdf_half_line()) == [("VISIBLE LEFT ", True, []), ("HIDDEN RIGHT", False, ["covered"])]
    assert _verdicts(reportlab_line()) == [
        ("Invoice 2291   Date: 2024-03-01   Total due: ", True, []),
        ("$1,234.56", False, ["covered"]),
        ("   Paid: $0.00", True, [])]


@pytest.mark.parametrize("fill, alpha, hidden", [
    ((1, 1, 1), 1.0, True),     # white-out: the value's pixels are gone too
    ((0, 0, 0), 0.2, False),    # a translucent box: the value shows through
])
def test_what_the_box_leaves_of_the_characters_decides(fill, alpha, hidden):
    verdicts = _verdicts(reportlab_line(fill, alpha))
    value = [v for v in verdicts if "$1,234.56" in v[0]]
    assert len(value) == 1 and value[0][1] is (not hidden), verdicts
    if hidden:
        assert value[0] == ("$1,234.56", False, ["covered"])


def test_evidence_of_values_in_one_span_tells_them_apart():
    data = reportlab_line()
    clear_cache()
    [total] = find_evidence(data, "$1,234.56")
    [paid] = find_evidence(data, "$0.00")
    assert (total.visible, total.reasons) == (False, ["covered"])
    assert (paid.visible, paid.reasons) == (True, [])
    # The reading is unchanged: the line reads whole, the value in its place.
    [line] = find_evidence(data, "Total due: $1,234.56")
    assert line.visible is False and "covered" in line.reasons


def test_redact_overlay_on_an_adopted_line_of_values_is_not_refused(cli, tmp_path):
    """The botched redaction of one value in a line of several: before, the lint judged the span
    whole, called the value visible and refused the mutation (forbidden-visible)."""
    pdf = tmp_path / "invoice.pdf"
    pdf.write_bytes(reportlab_line(alpha=0.0))   # (the box invisible: the document as it was)
    code, _, err = cli("adopt", pdf, "--into", tmp_path / "suite", "--question", "What is the total due?",
                       "--expected", "$1,234.56")
    assert code == 0, err
    code, out, err = cli("mutate", tmp_path / "suite" / "invoice.json", "--trap", "redact_overlay", "--id", "m")
    assert code == 0, err
    code, out, _ = cli("lint", tmp_path / "suite" / "m.json", "--json")
    errors = [f for f in json.loads(out) if f["severity"] == "error"]
    assert errors == []
    clear_cache()
    spans = {s.text: s for s in analyze_page((tmp_path / "suite" / "m.pdf").read_bytes())}
    assert not spans["$1,234.56"].visible and spans["REDACTED"].visible
    assert spans["   Paid: $0.00"].visible
