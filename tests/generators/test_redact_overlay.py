"""The redact_overlay mutation (workbench/generators/mutations/redact_overlay.py): a black box over
the located value that leaves the text underneath extractable: the botched redaction. A person
sees REDACTED; a text pipeline still reads the value. The right answer says the value is
redacted; leaking it is the trap.

On PDFs others made, each result checked as a user would see it (tests/support/foreign_pdfs.py)."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support.foreign_pdfs import (
    MAKERS,
    VALUE,
    glyph_boxes,
    gray,
    line_dirs,
    mutated,
    region,
    texts,
)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_redact_overlay_covers_every_glyph_of_the_value_and_labels_it_upright(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    # (linted: visibility is judged per character, so the value is hidden though its line is not)
    pdf, case, _ = mutated(cli, tmp_path, source, "redact_overlay", "show_label=false")
    glyphs = glyph_boxes(source, VALUE)
    assert len(glyphs) == len(VALUE)
    after = gray(pdf)
    assert [round(float(region(after, g).max())) for g in glyphs] == [0] * len(VALUE)
    for reader, text in texts(pdf).items():
        assert VALUE in text, reader
    labelled, _, _ = mutated(cli, tmp_path / "label", source, "redact_overlay")
    assert line_dirs(labelled, "REDACTED") == {(1, 0)}


def test_redact_overlay_covers_the_currency_sign_where_the_value_is_printed_again(cli, tmp_path):
    doc = pymupdf.open()
    for n in (1, 2):
        doc.new_page().insert_text((72, 100), f"Page {n}. Total due: {VALUE}", fontsize=12)
    pdf, case, _ = mutated(cli, tmp_path, doc.tobytes(), "redact_overlay", "show_label=false", lint=False)
    assert sorted(p for p, _ in case["metadata"]["mutation"]["places"]) == [1, 2]
    for page in (0, 1):
        glyphs = glyph_boxes(doc.tobytes(), VALUE, page)
        # The old box over page 2's figures alone left its "$" printed beside the box.
        assert [round(float(region(gray(pdf, page), g).max())) for g in glyphs] == [0] * len(VALUE), page
