"""The incremental_update_shadow family (workbench/generators/incremental_update_shadow.py): an
invoice corrected by an incremental update: the old total stays in the file's first revision.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support.families import found_in as _in
from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.pdf.structure import structure_report
from workbench.pdf.textlayer import text_pymupdf, text_pypdf
from workbench.pdf.visibility import analyze_page


@pytest.mark.parametrize("edit", ["overlay", "replace", "stamp"])
def test_incremental_update_keeps_the_old_total_in_the_first_revision(edit):
    case, pdf = generate_case("incremental_update_shadow", 1, {"edit": edit})
    first = pdf[: pdf.index(b"%%EOF") + 6]
    assert _in(case.forbidden_answers[0], text_pymupdf(first)[0])
    for latest in (text_pymupdf(pdf)[0], text_pypdf(pdf)[0]):
        assert _in(case.expected_answer, latest) == (edit != "stamp")  # a stamp is pixels
        assert _in(case.forbidden_answers[0], latest) == (edit != "replace")
    revs = structure_report(pdf).revisions
    assert [r.number for r in revs] == [1, 2]
    assert revs[1].pages_changed == [0]
    assert any(_in(case.expected_answer, t) for t in revs[1].added) == (edit != "stamp")
    assert ("[1 image]" in revs[1].added) == (edit == "stamp")
    assert any(_in(case.forbidden_answers[0], t) for t in revs[1].removed) == (edit == "replace")
    assert _errors(case, pdf) == []


def test_the_stamped_correction_is_drawn_where_the_old_total_was():
    case, pdf = generate_case("incremental_update_shadow", 1, {"edit": "stamp"})
    page = pymupdf.open(stream=pdf)[0]
    (old,) = [s for s in analyze_page(pdf) if s.text == case.forbidden_answers[0]]
    assert old.reasons == ["covered", "superseded by a later revision"]
    (image,) = page.get_image_info()
    box = pymupdf.Rect(image["bbox"])
    assert box.intersects(pymupdf.Rect(old.bbox)) and box.width > 40
