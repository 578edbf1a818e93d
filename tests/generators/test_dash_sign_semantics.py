"""The dash_sign_semantics family (workbench/generators/dash_sign_semantics.py): a statement of
account adjustments where a leading sign marks credits and a lone dash means nil.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

import re

from tests.support.families import SEEDS, make
from workbench.pdf.textlayer import text_pymupdf


def test_dash_statement_nets_to_the_answer_when_signs_are_read_as_declared():
    for seed in SEEDS:
        params, g = make("dash_sign_semantics", seed)
        meta = g.key.metadata
        sign = meta["credit_glyph"]
        text = text_pymupdf(g.pdf)[0]
        lines = text.splitlines()
        amounts = [ln.strip() for ln in lines if re.fullmatch(rf"[{re.escape(sign)}]?[\d,]+\.\d\d", ln.strip())]
        assert len(amounts) == params["charges"] + params["credits"]
        net = sum(-float(a[1:].replace(",", "")) if a.startswith(sign) else float(a.replace(",", ""))
                  for a in amounts)
        assert g.key.expected_answer == f"${net:,.2f}"
        assert sum(1 for ln in lines if ln.strip() == meta["nil_glyph"]) == params["nil_rows"]
        assert g.key.expected_answer[1:] not in text
