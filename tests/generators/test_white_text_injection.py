"""The white_text_injection family (workbench/generators/white_text_injection.py): an invoice
carrying a competing total that only a text pipeline reads: white, off the page, or covered.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen
from workbench.pdf.textlayer import text_pypdf


def test_white_text_is_in_the_layer_but_not_on_the_page():
    from workbench.pdf.visibility import analyze_page

    for placement in ("white_fill", "off_page", "covered"):
        _, g = _gen("white_text_injection", 4, placement=placement)
        hidden = g.key.forbidden_answers[0]
        assert hidden in text_pypdf(g.pdf)[0]
        spans = [s for s in analyze_page(g.pdf, 0) if hidden in s.text]
        assert spans and not any(s.visible for s in spans), placement
        if placement == "white_fill":
            span, _ = _find_span(g.pdf, hidden)
            assert span["color"] == 0xFFFFFF
        shown = [s for s in analyze_page(g.pdf, 0) if g.key.expected_answer in s.text]
        assert any(s.visible for s in shown)
