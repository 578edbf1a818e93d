"""The split_table_across_pages family (workbench/generators/split_table_across_pages.py): a report
table whose header row ends page 1 while its rows continue on page 2.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, page_texts, words_at
from workbench.pdf.textlayer import text_pymupdf


def test_split_table_header_is_on_page_one_and_the_asked_row_on_page_two():
    for seed in SEEDS:
        params, g = make("split_table_across_pages", seed)
        p1, p2 = page_texts(g.pdf)
        meta = g.key.metadata
        assert len(text_pymupdf(g.pdf)) == 2
        assert "Branch January" in p1 and meta["column_label"] in p1
        assert meta["row_label"] in p2 and g.key.expected_answer in p2
        assert g.key.expected_answer not in p1
        assert ("Branch January" in p2) == params["repeat_header"]
        # the header row is the last thing on page 1 above its footer, apart from the rows before the break
        header_y = max(b[1] for b in words_at(g.pdf, 0, "Branch"))
        assert header_y > 792 - 64 - 17 * (params["rows_before_break"] + 2)
