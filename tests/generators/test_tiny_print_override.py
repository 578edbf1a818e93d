"""The tiny_print_override family (workbench/generators/tiny_print_override.py): an invoice whose
printed total is overridden by a footnote in very small print.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

import pytest

from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen


def test_tiny_print_size_is_the_parameter():
    for size in (4.0, 5.5):
        _, g = _gen("tiny_print_override", 2, font_size=size)
        span, _ = _find_span(g.pdf, g.key.expected_answer)
        assert span["size"] == pytest.approx(size, abs=0.01)
        total, _ = _find_span(g.pdf, g.key.forbidden_answers[0])
        assert total["size"] > 2 * size
