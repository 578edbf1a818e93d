"""The actualtext_override family (workbench/generators/actualtext_override.py): an invoice whose
printed total is wrapped in marked content with an /ActualText of another amount.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

from tests.support.families import found_in as _in
from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def test_actualtext_pymupdf_returns_the_replacement_pypdf_the_glyphs():
    case, pdf = generate_case("actualtext_override", 1)
    assert _in(case.forbidden_answers[0], text_pymupdf(pdf)[0])
    assert not _in(case.expected_answer, text_pymupdf(pdf)[0])
    assert _in(case.expected_answer, text_pypdf(pdf)[0])
    assert _errors(case, pdf) == []
