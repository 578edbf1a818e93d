"""The six structural families: a trap in the file's structure (layers, form fields, annotations,
revisions, font maps, ActualText), armed as their contracts say, deterministic, and each a lint
error once its mechanism is taken away (each mechanism as the extractors meet it is
tests/generators/test_<family>.py's)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys

import pymupdf
import pytest

from tests.support.families import lint_errors as _errors
from workbench.build.make import generate_case
from workbench.checks.findings import has_errors
from workbench.checks.lint import lint_case
from workbench.generators.registry import registry
from workbench.pdf.textlayer import text_pypdf

FAMILIES = ("optional_content_layer", "form_field_appearance", "annotation_only_text",
            "incremental_update_shadow", "tounicode_remap", "actualtext_override")


@pytest.mark.parametrize("family", FAMILIES)
def test_in_the_catalogue_with_typed_seeded_params_and_a_contract(family):
    fam = registry().get(family)
    assert fam.version >= 1 and fam.contract and fam.description
    assert any(p.seeded for p in fam.params)
    assert fam.resolve({}, 1) == fam.resolve({}, 1) != fam.resolve({}, 2)


@pytest.mark.parametrize("family", FAMILIES)
def test_same_params_and_seed_give_the_same_bytes_in_another_process(family):
    here = [hashlib.sha256(generate_case(family, s)[1]).hexdigest() for s in (1, 2, 3)]
    code = ("import hashlib, json; from workbench.build.make import generate_case; "
            f"print(json.dumps([hashlib.sha256(generate_case({family!r}, s)[1]).hexdigest() for s in (1, 2, 3)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == here
    assert len(set(here)) == 3


# ---- each mechanism, as the extractors meet it -----------------------------------------------------


def test_the_pypdf_probe_reads_a_filled_form_as_pypdf_s_form_api_gives_it(tmp_path):
    """A form written by pymupdf directly (not by a family): the pypdf probe, which reads no
    appearance streams, answers with the page text and the text fields' values; checkboxes and
    empty fields add nothing; a page without fields reads as before."""
    from workbench.providers.probes import probe_answer

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Claim form", fontsize=12)
    for name, kind, value, y in (("claimant", pymupdf.PDF_WIDGET_TYPE_TEXT, "Ada Lovelace", 100),
                                 ("notes", pymupdf.PDF_WIDGET_TYPE_TEXT, "", 140),
                                 ("urgent", pymupdf.PDF_WIDGET_TYPE_CHECKBOX, True, 180)):
        w = pymupdf.Widget()
        w.field_type, w.field_name, w.field_value = kind, name, value
        w.rect = pymupdf.Rect(72, y, 300, y + 20)
        page.add_widget(w)
    doc.new_page().insert_text((72, 72), "Page two", fontsize=12)
    pdf = doc.tobytes()
    assert "Ada Lovelace" not in text_pypdf(pdf)[0]           # pypdf's page text has no field
    first, second = probe_answer("pypdf", pdf, None).split("\f")
    assert first.splitlines() == ["Claim form", "claimant: Ada Lovelace"]
    assert second == "Page two"


def test_a_probe_falls_outright_for_four_of_the_six_sample_cases():
    """The shipped probe runs (sample_cases/rebuild.py): graded `trap`, not "gave both"."""
    from tests.support.fixtures import SAMPLE
    from workbench.core.runs import iter_records
    from workbench.core.suite import load_suite
    from workbench.grading.outcome import outcome_of

    cases = {c.id: c for c in load_suite(SAMPLE).cases}
    fell = {}
    for probe in ("pypdf", "pymupdf"):
        for rec in iter_records(SAMPLE / "runs" / f"probe-{probe}.jsonl"):
            case = cases[rec.case_id]
            if case.trap_family in FAMILIES and outcome_of(rec, case).kind == "trap":
                fell.setdefault(case.trap_family, []).append(probe)
    assert fell == {"form_field_appearance": ["pypdf"], "incremental_update_shadow": ["pypdf", "pymupdf"],
                    "tounicode_remap": ["pypdf", "pymupdf"], "actualtext_override": ["pymupdf"]}, fell


# ---- disarmed: the same key on a PDF whose mechanism is gone is a lint error -----------------------

def _rewrite(pdf: bytes, edit) -> bytes:
    doc = pymupdf.open(stream=pdf)
    edit(doc)
    return doc.tobytes()


def _layer_on(doc):
    doc.xref_set_key(doc.pdf_catalog(), "OCProperties", "null")


def _appearance_from_value(doc):
    page = doc[0]
    widget = next(page.widgets())
    widget.field_value = widget.field_value  # regenerates the appearance from the value
    widget.update()


def _annotation_shown(doc):
    page = doc[0]
    annot = next(page.annots())
    annot.set_flags(pymupdf.PDF_ANNOT_IS_PRINT)
    annot.update()


def _honest_map(doc):
    for xref in range(1, doc.xref_length()):
        kind, value = doc.xref_get_key(xref, "ToUnicode")
        if kind == "xref":
            cmap_xref = int(value.split()[0])
            cmap = doc.xref_stream(cmap_xref).decode("latin-1")
            honest = re.sub(r"<(3[0-9])> <003[0-9]>", lambda m: f"<{m.group(1)}> <00{m.group(1)}>", cmap)
            doc.update_stream(cmap_xref, honest.encode("latin-1"))


def _no_actualtext(doc):
    page = doc[0]
    for xref in page.get_contents():
        stream = doc.xref_stream(xref)
        doc.update_stream(xref, re.sub(rb"/Span <</ActualText [^>]*>>> BDC|/Span <</ActualText \([^)]*\)>> BDC",
                                       b"/Span BMC", stream))


# family -> (pinned params, the PDF with its mechanism taken away, the error that must say so)
DISARM = {
    "optional_content_layer": ({}, lambda pdf: _rewrite(pdf, _layer_on), "forbidden-visible"),
    "form_field_appearance": ({}, lambda pdf: _rewrite(pdf, _appearance_from_value), "expected-not-visible"),
    "annotation_only_text": ({"kind": "hidden_freetext"}, lambda pdf: _rewrite(pdf, _annotation_shown),
                             "forbidden-visible"),
    "incremental_update_shadow": ({"edit": "overlay"}, lambda pdf: pdf[: pdf.index(b"%%EOF") + 6],
                                  "expected-not-visible"),
    "tounicode_remap": ({}, lambda pdf: _rewrite(pdf, _honest_map), "expected-in-text-layer"),
    # Without its ActualText the decoy is nowhere in the case as written: the trap is disarmed.
    "actualtext_override": ({}, lambda pdf: _rewrite(pdf, _no_actualtext), "trap-disarmed"),
}


@pytest.mark.parametrize("family", FAMILIES)
def test_the_disarmed_variant_is_a_lint_error(family):
    pinned, disarm, code = DISARM[family]
    case, pdf = generate_case(family, 4, pinned)
    assert _errors(case, pdf) == []
    broken = disarm(pdf)
    assert broken != pdf
    findings = lint_case(case, broken)
    assert has_errors(findings)
    assert code in {f.code for f in findings if f.severity == "error"}, [f.to_json() for f in findings]


@pytest.mark.parametrize("family, words", [
    ("optional_content_layer", "optional content off"),
    ("form_field_appearance", "its appearance shows"),
    ("annotation_only_text", "annotation, not drawn"),
    ("incremental_update_shadow", "superseded by a later revision"),
    ("tounicode_remap", "ToUnicode differs from the drawn glyphs"),
    ("actualtext_override", "ActualText replaces the drawn text"),
])
def test_the_lint_of_a_case_names_its_mechanism(family, words):
    case, pdf = generate_case(family, 1)
    infos = [f.message for f in lint_case(case, pdf) if f.severity == "info"]
    assert any(words in m for m in infos), infos
