"""The tounicode_remap family (workbench/generators/tounicode_remap.py): an invoice whose total is
set in a font whose ToUnicode map sends each drawn digit to another.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

from tests.support.families import found_in as _in
from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def test_tounicode_remap_every_extractor_reads_other_digits():
    case, pdf = generate_case("tounicode_remap", 1)
    for text in (text_pymupdf(pdf)[0], text_pypdf(pdf)[0]):
        assert _in(case.forbidden_answers[0], text) and not _in(case.expected_answer, text)
    assert sorted(case.metadata["digit_map"]) == list("0123456789")
    assert _errors(case, pdf) == []
