"""The merged_table_cells family (workbench/generators/merged_table_cells.py): a price schedule
whose region cells are merged across several plan rows.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, page_texts, words_at


def test_merged_region_label_is_printed_once_over_plans_that_repeat():
    for seed in SEEDS:
        params, g = make("merged_table_cells", seed)
        text = page_texts(g.pdf)[0]
        meta = g.key.metadata
        assert text.count(meta["region"]) == 1
        assert text.count(f" {meta['plan']} ") >= params["groups"]
        label_y = words_at(g.pdf, 0, meta["region"])[0][1]
        fee_y = words_at(g.pdf, 0, g.key.expected_answer)[0][1]
        cell = meta["row_height"] * params["span"]
        assert abs(fee_y - label_y) < cell
        for wrong in g.key.forbidden_answers:
            wrong_y = words_at(g.pdf, 0, wrong)[0][1]
            assert abs(wrong_y - fee_y) >= cell - 1
