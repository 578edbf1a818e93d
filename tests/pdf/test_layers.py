"""Layer differences (workbench/pdf/layers.py, `layer_diff`): what each reader of a page gets, the
text hidden from the eye, and where the readers part ways (words missing, their order, similarity)."""

from __future__ import annotations

from tests.support import pdfs_forensics as F
from workbench.pdf.textlayer import layer_diff


def test_layer_diff_reports_hidden_text_and_extractor_disagreement():
    diff = layer_diff(F.clipped())
    assert [s.text for s in diff.hidden] == ["HIDE 701"]
    # pymupdf honours the clip, pypdf does not: they disagree on the hidden words.
    assert diff.only_in["pypdf"] == ["hide", "701"] and diff.only_in["pymupdf"] == []
    assert diff.missing == {"pypdf": [], "pymupdf": []}
    assert diff.to_json()["hidden"][0]["reasons"] == ["clipped"]


def test_layer_diff_of_layers_that_read_otherwise_counts_words_order_and_similarity():
    from workbench.pdf.layers import diff_page
    from workbench.pdf.spans import Span

    def span(text: str, visible: bool = True) -> Span:
        return Span(0, 0, text, (0.0, 0.0, 10.0, 10.0), "Helvetica", 10.0, (0.0, 0.0, 0.0), 0, 1.0,
                    visible=visible)

    spans = [span("Total: $12.00 due"), span("now, please."), span("SECRET", visible=False)]
    same = diff_page(spans, {"pypdf": "Total: $12.00\ndue now, please.", "pymupdf": "total $12.00 due now please"}, 0)
    assert same.missing == {"pypdf": [], "pymupdf": []} and same.only_in == {"pypdf": [], "pymupdf": []}
    assert same.same_order and same.similarity == 1.0 and [s.text for s in same.hidden] == ["SECRET"]
    other = diff_page(spans, {"pypdf": "due now Total: $12.00 SECRET", "pymupdf": "Total $12.00 due"}, 0)
    assert other.missing == {"pypdf": ["please"], "pymupdf": ["now", "please"]}
    assert other.only_in == {"pypdf": ["now", "secret"], "pymupdf": []}
    assert not other.same_order and other.similarity == 0.5
