"""The annotation_only_text family (workbench/generators/annotation_only_text.py): an invoice whose
competing total exists only in an annotation that is never drawn on the page.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

import pymupdf
import pytest

from tests.support.families import found_in as _in
from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


@pytest.mark.parametrize("kind", ["hidden_freetext", "noview_freetext", "sticky_note"])
def test_annotation_text_is_in_the_file_but_on_no_page_layer(kind):
    case, pdf = generate_case("annotation_only_text", 2, {"kind": kind})
    doc = pymupdf.open(stream=pdf)
    (annot,) = list(doc[0].annots())
    assert case.forbidden_answers[0] in annot.info["content"]
    for text in (text_pymupdf(pdf)[0], text_pypdf(pdf)[0]):
        assert _in(case.expected_answer, text) and not _in(case.forbidden_answers[0], text)
    assert _errors(case, pdf) == []
