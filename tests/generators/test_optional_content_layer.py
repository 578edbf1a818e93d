"""The optional_content_layer family (workbench/generators/optional_content_layer.py): an invoice
whose competing total lives in an optional content group (a layer) that is off.

The six structural families' catalogue entries, determinism and disarmed variants are
tests/generators/test_structural_families.py's."""

from __future__ import annotations

import re

import pymupdf

from tests.support.families import found_in as _in
from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.pdf.textlayer import text_pymupdf, text_pypdf


def test_optional_content_layer_pypdf_reads_the_layer_that_is_off():
    case, pdf = generate_case("optional_content_layer", 1, {"placement": "note"})
    right, wrong = case.expected_answer, case.forbidden_answers[0]
    assert _in(wrong, text_pypdf(pdf)[0]) and _in(right, text_pypdf(pdf)[0])
    assert not _in(wrong, text_pymupdf(pdf)[0])  # pymupdf honours the layer's state
    assert _errors(case, pdf) == []


def test_optional_content_print_only_is_off_on_screen():
    case, pdf = generate_case("optional_content_layer", 3, {"state": "print_only"})
    doc = pymupdf.open(stream=pdf)
    off = doc.xref_get_key(doc.pdf_catalog(), "OCProperties/D/OFF")[1]
    assert re.fullmatch(r"\[\d+ 0 R\]", off)
    assert not _in(case.forbidden_answers[0], text_pymupdf(pdf)[0])  # the screen does not show it
    assert _in(case.forbidden_answers[0], text_pypdf(pdf)[0])
    assert _errors(case, pdf) == []
