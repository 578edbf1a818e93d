"""The checksum_rule family (workbench/generators/checksum_rule.py): an accounts-payable review
sheet with several versions of one invoice; a printed check-digit rule picks the genuine one.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, page_texts, words_at


def test_checksum_exactly_one_printed_reference_passes_the_printed_rule():
    from workbench.generators.checksum_rule import check_digit, is_valid

    for seed in SEEDS:
        params, g = make("checksum_rule", seed)
        meta = g.key.metadata
        text = page_texts(g.pdf)[0]
        refs = meta["references"]
        assert len(refs) == params["candidates"]
        assert all(r in text and len(r) == params["digits"] for r in refs)
        assert [r for r in refs if is_valid(params["rule"], r)] == [meta["valid_reference"]]
        if params["near_miss"]:
            for r in refs:
                if r != meta["valid_reference"]:
                    assert (int(r[-1]) - check_digit(params["rule"], r[:-1])) % 10 in (1, 9)
        ref_y = words_at(g.pdf, 0, meta["valid_reference"])[0][1]
        amount_boxes = words_at(g.pdf, 0, g.key.expected_answer)
        assert any(0 < b[1] - ref_y < 60 for b in amount_boxes)


def test_checksum_luhn_matches_the_textbook_example():
    from workbench.generators.checksum_rule import is_valid

    assert is_valid("luhn", "79927398713")
    assert not is_valid("luhn", "79927398710")
