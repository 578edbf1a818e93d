"""The tiny_print mutation (workbench/generators/mutations/tiny_print.py): an override clause in
small print near the located value: the printed figure is superseded by the one in the fine
print, so the right answer is the amended value, and the big figure is the trap. A reader that
skims (or a vision model at low DPI) answers the printed value.

On PDFs others made, each result checked as a user would see it (tests/support/foreign_pdfs.py)."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support.foreign_pdfs import (
    MAKERS,
    VALUE,
    adopt,
    gray,
    line_dirs,
    mutated,
    pymupdf_upright_then_rotated,
    region,
    texts,
)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("maker", sorted(MAKERS))
def test_tiny_print_reads_upright_under_its_line_in_blank_space(cli, tmp_path, maker, rotation):
    source = MAKERS[maker](rotation)
    pdf, case, box = mutated(cli, tmp_path, source, "tiny_print")
    [[page, clause]] = case["metadata"]["mutation"]["places"]
    assert page == 1
    # Below the value's line on the page as displayed, close to it, where the page was blank
    # (the platypus table's rules included: the old code drew over them, and sideways).
    assert box[3] <= clause[1] <= box[3] + 60, (box, clause)
    assert int(region(gray(source), clause).min()) >= 245
    assert line_dirs(pdf, "Amended") == {(1, 0)}
    for reader, text in texts(pdf).items():
        assert case["expected_answer"] in " ".join(text.split()), reader


def test_tiny_print_follows_text_that_is_itself_turned_on_screen(cli, tmp_path):
    """A page turned after it was written shows its text sideways: the clause reads along it."""
    source = pymupdf_upright_then_rotated(90)
    pdf, case, box = mutated(cli, tmp_path, source, "tiny_print")
    assert line_dirs(pdf, "Amended") == line_dirs(source, VALUE) == {(0, 1)}
    [[_, clause]] = case["metadata"]["mutation"]["places"]
    assert clause[2] <= box[0] and int(region(gray(source), clause).min()) >= 245  # left of it: below the line


def test_tiny_print_refuses_in_one_line_when_the_page_has_no_blank_space(cli, tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 100), f"Total due: {VALUE}", fontsize=11)
    for y in range(4, 200, 3):   # a ruled page: no band 7 pt high is blank anywhere
        page.draw_line((0, y), (300, y), width=0.3)
    code, _, err = adopt(cli, tmp_path, doc.tobytes(), "ruled")
    assert code == 0, err
    code, _, err = cli("mutate", tmp_path / "suite" / "ruled.json", "--trap", "tiny_print")
    assert code == 2 and err.count("\n") == 1 and "no blank space" in err, err
