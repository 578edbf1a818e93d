"""The upside_down_amount family (workbench/generators/upside_down_amount.py): an invoice whose
binding amount is an accounts stamp applied upside down; the printed total is upright.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen


def test_upside_down_stamp_runs_right_to_left():
    for seed in SEEDS:
        params, g = _gen("upside_down_amount", seed)
        _, direction = _find_span(g.pdf, g.key.expected_answer)
        assert direction[0] < -0.98  # baseline points left: turned (about) 180 degrees
        _, upright = _find_span(g.pdf, g.key.forbidden_answers[0])
        assert upright == (1.0, 0.0)
