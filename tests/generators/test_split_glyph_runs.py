"""The split_glyph_runs family (workbench/generators/split_glyph_runs.py): an invoice whose total is
drawn glyph by glyph (or group by group) in a scrambled order.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import make as _gen
from tests.support.families import spans as _spans
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def test_split_glyphs_break_extraction_but_line_up_on_the_page():
    for split in ("shuffled", "reversed", "groups"):
        for seed in SEEDS[:3]:
            _, g = _gen("split_glyph_runs", seed, split=split)
            figure = g.key.expected_answer
            assert figure not in text_pypdf(g.pdf)[0]
            assert figure not in text_pymupdf(g.pdf)[0]
            # Read by position, the glyphs on the total's baseline spell the figure whole.
            box = g.key.metadata["figure_box"]
            chars = []
            for _, span, _ in _spans(g.pdf):
                for ch in span["chars"]:
                    x, y = ch["origin"]
                    if ch["c"].strip() and box[0] - 1 <= x <= box[2] and box[1] <= y <= box[3] + 2:
                        chars.append((x, ch["c"]))
            assert "".join(c for _, c in sorted(chars)) == figure
