"""Lint: the key's own mistakes, a changed PDF, whole families and folders, through the API and
the CLI (each contract clause and the default contract: test_contract.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import pdfs_forensics as F
from tests.support.invoices import codes, handmade_case, invoice_pdf
from workbench.build.make import generate_case, write_case
from workbench.checks.lint import lint_case, lint_path
from workbench.core.case import PDFHELL_FIELDS, Case, sha256_hex


def test_answer_key_mistakes_are_errors():
    pdf = invoice_pdf("$4,711.00", "$9,999.00")
    assert "expected-is-forbidden" in codes(lint_case(handmade_case(forbidden=["4711.00"]), pdf), "error")
    assert "expected-empty" in codes(lint_case(handmade_case(expected=""), pdf), "error")
    assert "forbidden-empty" in codes(lint_case(handmade_case(forbidden=[" "]), pdf), "error")


def test_a_changed_pdf_is_a_warning():
    case = handmade_case(sha256="0" * 64)
    assert "pdf-changed" in codes(lint_case(case, invoice_pdf("$4,711.00", "$9,999.00")), "warning")


def test_the_white_text_over_the_printed_total_construction_is_caught():
    """hidden_ocr_mismatch once drew a white hidden total over the printed one, cutting it."""
    case = handmade_case(expected="$13,144.73", forbidden=["$61,271.52"],
                 contract=[{"target": "forbidden", "where": "not_visible"}])
    findings = lint_case(case, F.white_over_image())
    assert "forbidden-visible" in codes(findings, "error")


# ---- paths and the command line --------------------------------------------------------------

def _write_pdfhell_case(folder: Path, case: Case, pdf: bytes) -> None:
    raw = {k: v for k, v in case.to_json().items() if k in PDFHELL_FIELDS}
    (folder / f"{case.id}.pdf").write_bytes(pdf)
    (folder / f"{case.id}.json").write_text(json.dumps(raw), encoding="utf-8")


def test_lint_a_pdfhell_folder_and_a_broken_case(cli, tmp_path):
    good = handmade_case("good-1")
    _write_pdfhell_case(tmp_path, good, invoice_pdf("$4,711.00", "$9,999.00"))
    made, pdf = generate_case("hidden_ocr_mismatch", 3, {"visible_total_layer": "text"})
    _write_pdfhell_case(tmp_path, made, pdf)
    # (one process: the lint on several is tests/core/test_pool.py's)
    code, out, err = cli("lint", tmp_path, "--json", "--jobs", "1")
    assert code == 0, out + err
    findings = json.loads(out)
    assert {f["severity"] for f in findings} <= {"info", "warning"}
    assert {f["case_id"] for f in findings if f["code"] == "forbidden-hidden-only"} == {"good-1", made.id}

    _write_pdfhell_case(tmp_path, handmade_case("broken-1"), invoice_pdf("$4,711.00", "$9,999.00", total_mode=3))
    code, out, _ = cli("lint", tmp_path, "--json", "--jobs", "1")
    assert code == 1
    errors = [f for f in json.loads(out) if f["severity"] == "error"]
    assert [(f["case_id"], f["code"]) for f in errors] == [("broken-1", "expected-not-visible")]
    assert set(errors[0]) == {"case_id", "severity", "code", "message"}

    code, out, _ = cli("lint", tmp_path, "--jobs", "1")
    assert code == 1 and "ERROR   broken-1  expected-not-visible" in out and "1 error(s)" in out


def test_lint_our_suite_a_case_json_and_a_missing_pdf(cli, tmp_path):
    from workbench.build.saving import add_case

    for seed in (1, 2):
        case, pdf = generate_case("white_text_injection", seed)
        add_case(tmp_path, case, pdf)
    # (one process: the lint on several is tests/core/test_pool.py's)
    code, out, err = cli("lint", tmp_path, "--json", "--jobs", "1")
    assert code == 0, out + err
    assert [f for f in json.loads(out) if f["severity"] == "error"] == []
    one = next(tmp_path.glob("white_text_injection-0001.json"))
    assert cli("lint", one, "--jobs", "1")[0] == 0
    (tmp_path / "white_text_injection-0001.pdf").unlink()
    code, out, _ = cli("lint", one, "--json", "--jobs", "1")
    assert code == 1 and [f["code"] for f in json.loads(out)] == ["pdf-missing"]


def test_lint_a_bare_pdf_with_and_without_a_key(cli, tmp_path):
    pdf = tmp_path / "invoice.pdf"
    pdf.write_bytes(invoice_pdf("$4,711.00", "$9,999.00", total_mode=3))
    code, out, _ = cli("lint", pdf, "--json")
    assert code == 0
    assert {f["code"] for f in json.loads(out)} == {"hidden-text"}
    key = tmp_path / "key.json"
    key.write_text(json.dumps({"expected_answer": "$4,711.00"}), encoding="utf-8")
    code, out, _ = cli("lint", pdf, "--key", key, "--json")
    assert code == 1
    assert [(f["case_id"], f["code"]) for f in json.loads(out)] == [("invoice", "expected-not-visible")]
    code, _, err = cli("lint", tmp_path / "nope.pdf")
    assert code == 2 and "no such file" in err


def test_a_case_written_by_make_lints_clean_through_the_json(tmp_path):
    case, pdf = generate_case("hidden_ocr_mismatch", 5, {"visible_total_layer": "text"})
    path = write_case(case, pdf, tmp_path)
    assert lint_path(path) == []
    assert case.sha256 == sha256_hex(pdf)


def test_a_scan_made_by_another_version_of_its_family_is_one_warning_not_false_errors():
    """A suite built before its family changed: the lint drew the family's unscanned page anew
    (now a different page) and compared the scan with it, giving false errors."""
    import dataclasses

    from tests.support.fixtures import SAMPLE
    from workbench.core.case import load_case

    case = load_case(next(SAMPLE.glob("footnote_override-0003-*.json")))
    assert case.degrade and case.generator.version >= 1
    pdf = case.pdf_file.read_bytes()
    assert not [f for f in lint_case(case, pdf) if f.severity == "error"]
    older = dataclasses.replace(case, generator=dataclasses.replace(case.generator, version=case.generator.version - 1))
    found = lint_case(older, pdf)
    assert [(f.severity, f.code) for f in found if f.severity != "info"] == [("warning", "degraded-unchecked")]
    (said,) = [f.message for f in found if f.code == "degraded-unchecked"]
    assert said.startswith(f"made by footnote_override version {case.generator.version - 1}, installed "
                           f"version is {case.generator.version}") and "rebuild the suite" in said
