"""The cross_page_citation family (workbench/generators/cross_page_citation.py): an agreement whose
payment clause cites a fee defined pages earlier, with a decoy amount beside it.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, page_texts


def test_cross_page_definition_is_far_from_its_citation_and_the_decoy_is_beside_it():
    for seed in SEEDS:
        params, g = make("cross_page_citation", seed)
        pages = page_texts(g.pdf)
        meta = g.key.metadata
        assert len(pages) == params["pages"]
        ref = meta["reference_page"] - 1
        assert ref >= 2
        assert g.key.expected_answer in pages[0]
        assert all(g.key.expected_answer not in t for t in pages[1:])
        assert "(as defined in clause 1.1)" in pages[ref]
        assert g.key.forbidden_answers[0] in pages[ref]
        assert f"{meta['reference_clause']}. CHARGES AND PAYMENT" in pages[ref]
