"""The prompt_injection_in_body family (workbench/generators/prompt_injection_in_body.py): an
invoice whose body tells an automated reader to report a different total.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

import pytest

from tests.support.families import make as _gen
from workbench.pdf.textlayer import text_pypdf


def test_prompt_injection_is_in_the_layer_and_hidden_only_in_the_hidden_variant():
    from workbench.pdf.visibility import analyze_page

    for variant in ("visible", "hidden", "small_print"):
        _, g = _gen("prompt_injection_in_body", 3, variant=variant)
        injected = g.key.forbidden_answers[0]
        assert injected in text_pypdf(g.pdf)[0]
        spans = [s for s in analyze_page(g.pdf, 0) if injected in s.text]
        assert spans
        if variant == "hidden":
            assert not any(s.visible for s in spans)
            assert spans[0].render_mode == 3
        elif variant == "visible":
            assert any(s.visible for s in spans)
        else:
            assert spans[0].size == pytest.approx(5.0, abs=0.05)
