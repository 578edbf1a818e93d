"""The form_field_appearance family (workbench/generators/form_field_appearance.py): an invoice
whose TOTAL DUE is a form field: the appearance shows one amount, the value another.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.support.families import found_in as _in
from workbench.build.make import generate_case
from workbench.pdf.structure import structure_report
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def test_form_field_value_differs_from_what_its_appearance_draws():
    case, pdf = generate_case("form_field_appearance", 1)
    fields = PdfReader(io.BytesIO(pdf)).get_fields()
    (field,) = fields.values()
    assert field["/V"] == case.forbidden_answers[0]
    assert _in(case.expected_answer, text_pymupdf(pdf)[0])
    assert not _in(case.forbidden_answers[0], text_pymupdf(pdf)[0] + text_pypdf(pdf)[0])
    (f,) = structure_report(pdf).fields
    assert f.value == case.forbidden_answers[0] and f.appearance == case.expected_answer and f.differs
