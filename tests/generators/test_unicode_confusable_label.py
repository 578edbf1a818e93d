"""The unicode_confusable_label family (workbench/generators/unicode_confusable_label.py): a two-
account statement whose asked account's "TOTAL DUE" is spelt with look-alike letters.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

import pytest

from tests.support.families import SEEDS
from tests.support.families import make as _gen
from workbench.pdf.textlayer import text_pymupdf


def test_confusable_label_hides_the_asked_row_from_a_text_search():
    pytest.importorskip("reportlab")
    for seed in SEEDS:
        _, g = _gen("unicode_confusable_label", seed)
        meta = g.key.metadata
        text = text_pymupdf(g.pdf)[0]
        assert meta["disguised_label"] != meta["plain_label"]
        assert text.count(meta["plain_label"]) == 1 + g.key.question.count(meta["plain_label"]) - 1
        assert meta["disguised_label"] in text
        # The only plain-label row is followed by the forbidden amount; the disguised one by the answer.
        after_plain = text.split(meta["plain_label"], 1)[1].split()[0]
        after_fake = text.split(meta["disguised_label"], 1)[1].split()[0]
        assert after_plain == g.key.forbidden_answers[0]
        assert after_fake == g.key.expected_answer
