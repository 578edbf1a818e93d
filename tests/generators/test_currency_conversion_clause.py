"""The currency_conversion_clause family (workbench/generators/currency_conversion_clause.py): an
invoice totalled in one currency whose payment clause requires settlement in another at a stated
rate.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

import re

import pytest

from tests.support.families import SEEDS, make, page_texts


def test_currency_answer_is_the_converted_total_at_the_printed_rate():
    for seed in SEEDS:
        _, g = make("currency_conversion_clause", seed)
        text = page_texts(g.pdf)[0]
        meta = g.key.metadata
        m = re.search(r"rate of 1 ([A-Z]{3}) = ([\d.]+) ([A-Z]{3})", text)
        assert m, text
        rate = float(m.group(2))
        total = meta["invoice_total"]
        settle = total * rate if m.group(1) == meta["invoice_currency"] else total / rate
        assert meta["settlement_amount"] == pytest.approx(settle, abs=0.006)
        assert g.key.expected_answer.endswith(f"{meta['settlement_amount']:,.2f}")
        assert g.key.expected_answer not in text
        assert g.key.forbidden_answers[0] in text
        assert f"payable in {meta['settlement_currency']} only" in text
