"""Which text layer each extractor exposes (providers/exposure.py): a case's state for a text, and
the matrix `pdfworkbench exposure` prints."""

from __future__ import annotations

import json
import os

import pytest

from tests.support.fixtures import SAMPLE
from workbench.core.case import load_case
from workbench.core.errors import UserError
from workbench.core.suite import load_suite
from workbench.grading.needles import expected_needles
from workbench.providers import exposure, extractors, pagetexts


def test_an_extraction_case_is_exposed_by_the_values_its_page_shows():
    """An extraction's key is a JSON object, which no extractor's text holds: exposure looks for the
    values the page shows (the vendor's number and the total), as the olmOCR-bench export does."""

    case = load_suite(SAMPLE).case("invoice_extraction-0001")
    phone, total, decoy = (case.metadata[k] for k in ("vendor_phone", "total", "decoy"))
    assert expected_needles(case) == [phone, total]
    assert exposure.exposure_state(case, f"Tel {phone}\nTOTAL {total}") == "expected"
    assert exposure.exposure_state(case, f"Tel {decoy}\nTOTAL {total}") == "forbidden"
    text = pagetexts.page_text("pypdf", case.pdf_file.read_bytes(), 1)
    assert exposure.exposure_state(case, text) == "both"   # the decoy is printed too: a faithful text holds both


def test_what_each_text_layer_of_a_hidden_total_exposes_and_where_the_key_s_values_are(sample_cases):
    case = next(c for c in sample_cases if c.id == "hidden_ocr_mismatch-0001")
    visible, hidden = "€13,144.73", "€53,919.68"
    assert exposure.exposure_state(case, "TOTAL DUE 13144.73 EUR") == "expected"   # money compared as money
    assert exposure.exposure_state(case, f"TOTAL DUE {hidden}") == "forbidden"
    assert exposure.exposure_state(case, "no amounts here") == "neither"
    text = f"printed {visible}; hidden {hidden}"
    assert exposure.key_spans(case, text) == [(8, 18, "expected"), (27, 37, "forbidden")]
    assert [text[a:b] for a, b, _ in exposure.key_spans(case, text)] == [visible, hidden]


def test_a_suite_s_matrix_table_and_csv_with_an_unreadable_pdf_as_an_error_cell(sample_cases, tmp_path):
    hidden = next(c for c in sample_cases if c.id == "hidden_ocr_mismatch-0001")
    (tmp_path / "damaged.pdf").write_bytes(b"%PDF-1.7\nnot a PDF at all\n")
    (tmp_path / "damaged.json").write_text(json.dumps({**hidden.to_json(), "id": "damaged", "pdf_path": "damaged.pdf"}))
    damaged = load_case(tmp_path / "damaged.json")
    exp = exposure.suite_exposure([hidden, damaged], ["pypdf", "pymupdf"], jobs=1)
    assert [r.to_json()["extractors"] for r in exp.cases] == [{"pypdf": "forbidden", "pymupdf": "forbidden"},
                                                              {"pypdf": "error", "pymupdf": "error"}]
    assert "damaged" not in exp.cases[0].errors and exp.cases[1].errors["pymupdf"]   # why, in one line
    assert exp.matrix() == {"hidden_ocr_mismatch": {n: {"expected": 0, "forbidden": 1, "both": 0, "neither": 0,
                                                         "error": 1} for n in ("pypdf", "pymupdf")}}
    assert exposure.matrix_text(exp).splitlines() == [
        "family               pypdf      pymupdf  ",
        "hidden_ocr_mismatch  1F 1!      1F 1!    ",
        "falls for the trap   1/2 50%    1/2 50%  ",
        "expected is missing  1/2 50%    1/2 50%  "]
    assert exposure.csv_text(exp) == ("case_id,family,pypdf,pymupdf\n"
                                      "hidden_ocr_mismatch-0001,hidden_ocr_mismatch,forbidden,forbidden\n"
                                      "damaged,hidden_ocr_mismatch,error,error\n")


def test_an_extraction_is_cached_by_the_pdf_and_the_library_version(tmp_path):
    pdf = (SAMPLE / "hidden_ocr_mismatch-0001.pdf").read_bytes()
    text = exposure.extracted_text(pdf, "pypdf")
    assert "TOTAL DUE" in text
    (entry,) = (tmp_path / "cache" / "extracted").rglob("*.json")   # the test's own cache folder
    held = json.loads(entry.read_text())
    assert held["extractor"] == "pypdf" and held["version"] == extractors.version("pypdf") and held["text"] == text
    entry.write_text(json.dumps({**held, "text": "from the cache"}))
    assert exposure.extracted_text(pdf, "pypdf") == "from the cache"
    assert exposure.extracted_text(pdf, "pypdf", use_cache=False) == text   # --no-cache reads the PDF again
    entry.write_text("{damaged")
    assert exposure.extracted_text(pdf, "pypdf") == text   # a damaged entry is a miss
    entry.unlink()
    os.mkfifo(entry)   # (read with a plain open, a FIFO there made `exposure` wait for ever)
    assert exposure.extracted_text(pdf, "pypdf") == text and entry.is_file()


@pytest.mark.parametrize("names, message", [(["nosuch"], "unknown extractor 'nosuch'"),
                                            ([" ", ""], "--extractors: name one or more")])
def test_extractors_asked_for_are_checked_in_one_line(names, message):
    with pytest.raises(UserError, match=message):
        exposure.check_extractors(names)
    assert exposure.check_extractors(["pypdf", " pypdf", "pymupdf"]) == ["pypdf", "pymupdf"]



def test_a_changed_limit_reads_the_document_anew_rather_than_from_the_cache(tmp_path):
    """A page over a budget reaches an extractor emptied; once the user raised the limit to read
    it, the cached blank page came back. The limits are part of the entry's key: here the
    operators' budget is lowered under the page's, then put back."""
    from workbench.core import limits

    pdf = (SAMPLE / "hidden_ocr_mismatch-0001.pdf").read_bytes()
    limits.set_overrides({"page_operators": 1}, export=False)   # (the conftest resets them)
    assert exposure.extracted_text(pdf, "pdfminer" if extractors.version("pdfminer") else "pypdf").strip() == ""
    limits._overrides.clear()
    text = exposure.extracted_text(pdf, "pdfminer" if extractors.version("pdfminer") else "pypdf")
    assert "TOTAL DUE" in text
    assert len(list((tmp_path / "cache" / "extracted").rglob("*.json"))) == 2
