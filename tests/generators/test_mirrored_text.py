"""The mirrored_text family (workbench/generators/mirrored_text.py): a payment authorisation form
whose approved amount is a mirrored stamp; the requested amount is upright.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen


def test_mirrored_stamp_glyphs_are_laid_out_in_reverse():
    for seed in SEEDS:
        _, g = _gen("mirrored_text", seed, mirror="left_right")
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        xs = [ch["origin"][0] for ch in span["chars"]]
        assert xs == sorted(xs, reverse=True)
        _, g = _gen("mirrored_text", seed, mirror="top_bottom")
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        xs = [ch["origin"][0] for ch in span["chars"]]
        assert xs == sorted(xs)  # order kept; letters flipped top to bottom instead
        bbox = span["bbox"]
        assert span["chars"][0]["origin"][1] < (bbox[1] + bbox[3]) / 2 + 0.5  # baseline above the glyphs
