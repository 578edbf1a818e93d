"""The visual_emphasis_rule family (workbench/generators/visual_emphasis_rule.py): a quotation whose
printed rule says the emphasised figure (bold, shaded or red) is the contract price.

Every family's determinism, parameters and pinning are tests/generators/test_families_b.py's."""

from __future__ import annotations

from tests.support.families import SEEDS
from tests.support.families import find_span as _find_span
from tests.support.families import make as _gen
from tests.support.families import open_pdf as _doc
from workbench.pdf.textlayer import text_pypdf


def test_visual_emphasis_is_in_the_pixels_not_the_words():
    cue_words = {"bold": "bold", "shaded": "shaded", "red": "red"}
    for cue in cue_words:
        for seed in SEEDS[:3]:
            _, g = _gen("visual_emphasis_rule", seed, cue=cue)
            text = text_pypdf(g.pdf)[0]
            assert text.lower().split().count(cue_words[cue]) == 1  # the rule's own word, nothing else
            span, _ = _find_span(g.pdf, g.key.expected_answer)
            decoy, _ = _find_span(g.pdf, g.key.forbidden_answers[0])
            assert decoy["size"] > span["size"] * 1.3
            if cue == "bold":
                assert "Bold" in span["font"] and "Bold" not in decoy["font"]
            elif cue == "red":
                assert span["color"] != 0 and decoy["color"] == 0
            else:
                fills = [d for d in _doc(g.pdf)[0].get_drawings()
                         if d.get("fill") and all(abs(v - 0.8) < 0.01 for v in d["fill"])]
                box = span["bbox"]
                assert any(f["rect"].y0 <= box[1] and f["rect"].y1 >= box[3] for f in fills)
