"""The multi_column_reading_order family (workbench/generators/multi_column_reading_order.py): a
two-column newsletter where reading straight across the columns pairs a sentence with the wrong
amount.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, words_at
from workbench.pdf.textlayer import text_pypdf


def test_columns_put_the_decoy_level_with_the_broken_sentence():
    for seed in SEEDS:
        _, g = make("multi_column_reading_order", seed, draw_order="interleaved")
        right_box = words_at(g.pdf, 0, g.key.forbidden_answers[0])[0]
        left_box = words_at(g.pdf, 0, g.key.expected_answer)[0]
        broken = words_at(g.pdf, 0, "members will be")
        assert left_box[0] < 150 < right_box[0]
        assert any(abs(b[1] - right_box[1]) < 1 and b[0] < 300 for b in broken)
        assert left_box[1] > right_box[1]
        # an across-the-page reading runs the sentence into the decoy
        flat = " ".join(text_pypdf(g.pdf)[0].split())
        assert f"will be {g.key.forbidden_answers[0]}" in flat
        _, h = make("multi_column_reading_order", seed, draw_order="by_column")
        flat = " ".join(text_pypdf(h.pdf)[0].split())
        assert f"will be {h.key.expected_answer}" in flat
