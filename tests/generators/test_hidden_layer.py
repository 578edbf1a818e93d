"""The hidden_layer mutation (workbench/generators/mutations/hidden_layer.py): an invisible text
layer over the located value that says something else: the hidden-OCR trap on a real document. A
person (and a vision model) reads the printed value; a text pipeline reads the decoy. By default
the printed value becomes pixels, so the text layer holds only the decoy.

On PDFs others made, each result checked as a user would see it (tests/support/foreign_pdfs.py)."""

from __future__ import annotations

import pytest

from tests.support.foreign_pdfs import (
    MAKERS,
    VALUE,
    gray,
    ink_centre,
    line_dirs,
    mutated,
    region,
    texts,
)


@pytest.mark.parametrize("rotation", [90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_hidden_layer_on_a_turned_page_keeps_the_printed_value_where_it_was(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "hidden_layer")
    before, after = region(gray(source), box), region(gray(pdf), box)
    # The value's pixels are still there (the old code erased them: mean 255, or failed outright).
    assert before.mean() < 230 and abs(float(after.mean()) - float(before.mean())) < 12
    assert abs(ink_centre(after) - ink_centre(before)).max() < 1.0   # pixels: not moved, not turned
    decoy = case["forbidden_answers"][-1]
    for reader, text in texts(pdf).items():
        assert decoy in text and VALUE not in text, reader
    assert line_dirs(pdf, decoy) == line_dirs(source, VALUE) == {(1, 0)}  # reads upright, as the value
