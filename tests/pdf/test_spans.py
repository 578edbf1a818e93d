"""Span visibility on purpose-built PDFs: each way of hiding text, beside a visible twin."""

from __future__ import annotations

import json

import pytest

from tests.support import pdfs_forensics as F
from workbench.checks.search import find_evidence
from workbench.pdf.visibility import analyze_page


def _spans(data: bytes, dpi: int = 150):
    return {s.text: s for s in analyze_page(data, 0, dpi)}


@pytest.mark.parametrize("builder, hidden, reason, shown", [
    (F.render_mode, "HIDE 101", "invisible-render-mode", "SHOW 102"),
    (F.white_on_white, "HIDE 201", "no-contrast", "SHOW 202"),
    (F.grey_on_grey, "HIDE 301", "no-contrast", "SHOW 302"),
    (F.tiny_text, "HIDE 401", "too-small", "SHOW 402"),
    (F.off_page, "HIDE 501", "off-page", "SHOW 502"),
    (F.covered, "HIDE 601", "covered", "SHOW 602"),
    (F.clipped, "HIDE 701", "clipped", "SHOW 702"),
    (F.white_over_image, "HIDE $61,271.53", "covered", "SHOW $61,271.52"),
])
def test_each_hidden_reason_beside_a_visible_twin(builder, hidden, reason, shown):
    spans = _spans(builder())
    assert spans[hidden].visible is False
    assert reason in spans[hidden].reasons
    assert spans[hidden].verdict == "hidden"
    assert spans[shown].visible is True, spans[shown].reasons
    assert spans[shown].reasons == []
    assert spans["Forensics fixture: an ordinary visible line."].visible


def test_text_beyond_the_top_of_the_page_is_off_page():
    assert "off-page" in _spans(F.off_page())["HIDE 503"].reasons


def test_a_leaked_render_mode_hides_later_text():
    spans = _spans(F.leaked_state())
    assert spans["SHOW 801"].visible
    leaked = spans["HIDE 803 meant to be visible"]
    assert not leaked.visible and leaked.render_mode == 3
    assert leaked.reasons == ["invisible-render-mode"]


def test_small_text_is_legible_at_a_higher_dpi():
    assert "too-small" in _spans(F.tiny_text(), dpi=150)["HIDE 401"].reasons
    assert _spans(F.tiny_text(), dpi=400)["HIDE 401"].visible


def test_span_records_font_size_colour_and_box():
    span = _spans(F.white_on_white())["SHOW 202"]
    assert span.font == "Helvetica" and span.size == pytest.approx(12)
    assert span.color == pytest.approx((1, 1, 1))
    x0, y0, x1, y1 = span.bbox
    assert 71 < x0 < 73 and x1 > x0 and 792 - 560 - 12 < y1 < 792 - 556 + 4
    assert span.to_json()["color"] == "#ffffff"


def test_zero_width_and_look_alike_characters_make_the_layer_differ():
    if not F.DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed; the look-alike glyphs need it")
    spans = _spans(F.zero_width_and_confusable())
    zw = spans["Total 12\u200b345.67"]
    assert zw.visible and zw.layer_issues == ["zero-width"] and zw.verdict == "differs"
    assert zw.seen == "Total 12345.67"
    cyr = spans["\u0422\u041e\u0422\u0410L DUE 999.10"]
    assert cyr.visible and "confusable" in cyr.layer_issues and cyr.seen == "TOTAL DUE 999.10"
    for honest in ("Total 12345.68", "TOTAL DUE 999.11", "Итого 500"):
        assert spans[honest].layer_issues == [] and spans[honest].verdict == "visible"


def test_inspect_json_lists_spans_with_visibility(cli, tmp_path):
    pdf = tmp_path / "covered.pdf"
    pdf.write_bytes(F.covered())
    code, out, err = cli("inspect", pdf, "--json")
    assert code == 0, err
    page = json.loads(out)["pages"][0]
    by_text = {s["text"]: s for s in page["spans"]}
    assert by_text["HIDE 601"]["visible"] is False and by_text["HIDE 601"]["reasons"] == ["covered"]
    assert by_text["SHOW 602"]["verdict"] == "visible"
    assert page["hidden_spans"] == 1
    assert "HIDE 601" in page["text"]["pymupdf"]  # the text layer still holds it


def test_word_spaces_are_rebuilt_from_glyph_positions():
    """pdfLaTeX separates words by moving the pen; the spans read the spaces the way extractors do."""
    from workbench.pdf.textlayer import page_texts

    data = F.words_by_position()
    texts = [s.text for s in analyze_page(data)]
    assert "12 months of fees: $1,234.56" in texts          # one TJ array, -333 between words
    assert "Kerning" in texts                                 # 0.10 em between letters: one word
    assert ["Hello,", "here", "is"] == texts[1:4]             # one text object per word
    for layer in page_texts(data).values():                   # what the extractors read, for reference
        assert "12 months of fees: $1,234.56" in layer[0] and "Kerning" in layer[0]
    (hit,) = find_evidence(data, "here is some text without")
    assert hit.visible and len(hit.boxes) == 5
    (hit,) = find_evidence(data, "months of fees")
    assert hit.visible and hit.text == "months of fees"
