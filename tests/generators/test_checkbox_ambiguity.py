"""The checkbox_ambiguity family (workbench/generators/checkbox_ambiguity.py): a filled-in returns
form where one box is marked and another carries a lighter, erased mark.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

import pytest

from tests.support.families import SEEDS, make
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def _darkness(img, box, dpi: int) -> float:
    """Peak ink darkness (0 white .. 1 black) inside a box given in points, top-left origin."""
    s = dpi / 72
    x0, y0, x1, y1 = box
    crop = img.crop((int(x0 * s) + 3, int(y0 * s) + 3, int(x1 * s) - 3, int(y1 * s) - 3)).convert("L")
    values = sorted(crop.tobytes())
    return 1 - values[len(values) // 50] / 255  # 2nd percentile: the darkest ink, not one stray pixel


def test_checkbox_marks_differ_by_the_declared_margin_and_only_in_pixels():
    from workbench.pdf.render import render_page

    for seed in SEEDS:
        params, g = make("checkbox_ambiguity", seed)
        img = render_page(g.pdf, 0, dpi=150).to_pil()
        meta = g.key.metadata
        selected = _darkness(img, meta["selected_box"], 150)
        decoy = _darkness(img, meta["decoy_box"], 150)
        assert selected > decoy
        assert selected - decoy == pytest.approx(params["margin"], abs=0.06)
        for layer in (text_pymupdf(g.pdf), text_pypdf(g.pdf)):
            text = "\n".join(layer)
            for leak in ("[x]", "[X]", "\u2612", "\u2611", "\u2713", "\u2714", "\u25a0"):
                assert leak not in text
            assert g.key.expected_answer in text and g.key.forbidden_answers[0] in text
