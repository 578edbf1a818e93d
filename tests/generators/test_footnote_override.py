"""The footnote_override family (workbench/generators/footnote_override.py): a contract whose small-
print footnote overrides the figure stated in the body of a clause.

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

import re

from tests.support.families import SEEDS, make, page_texts, words_at


def test_footnote_is_printed_at_its_declared_size_and_overrides_the_body():
    import pymupdf

    for seed in SEEDS:
        params, g = make("footnote_override", seed)
        doc = pymupdf.open(stream=g.pdf, filetype="pdf")
        sizes: dict[str, set[float]] = {}
        for block in doc[0].get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    for money in re.findall(r"\$[\d,]+\.\d\d", span["text"]):
                        sizes.setdefault(money, set()).add(round(span["size"], 2))
        doc.close()
        assert sizes[g.key.expected_answer] == {params["footnote_size"]}
        assert sizes[g.key.forbidden_answers[0]] == {10.0}
        # the footnote sits below every clause
        note_y = words_at(g.pdf, 0, g.key.expected_answer)[0][1]
        body_y = words_at(g.pdf, 0, g.key.forbidden_answers[0])[0][1]
        assert note_y > body_y + 100


def test_footnote_carve_outs_become_required_tokens():
    params, g = make("footnote_override", 7, carve_outs="3", ask_carve_outs="true")
    assert g.key.matcher.to_json() == {"type": "tokens_all"}
    assert g.key.expected_tokens[0] == g.key.expected_answer
    assert len(g.key.expected_tokens) == 4
    text = page_texts(g.pdf)[0].lower()
    for token in g.key.expected_tokens[1:]:
        assert token in text
