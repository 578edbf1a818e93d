"""Lint: the key's own mistakes, a changed PDF, whole families and folders, through the API and
the CLI (each contract clause and the default contract: test_contract.py); the lint cache the
workbench's case list reads (findings the same as fresh ones, a key that covers what they depend on,
a hostile entry never trusted: tests/core/test_cache.py has the rest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


@pytest.mark.slow  # two lints of a scan, OCR and the family's page drawn anew: 3.7 s CPU
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


# ---- the lint cache (the workbench's case list: workbench/tui/screens/inspect_marks.py) ---------

def _entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def _sample_cases() -> list[Case]:
    from tests.support.fixtures import SAMPLE
    from workbench.core.suite import load_suite

    # (the sample's one scan is read by OCR, 4 s: the scans' keys are tested on their own below)
    return [c for c in load_suite(SAMPLE).cases if c.question and c.degrade is None]


def test_findings_from_the_lint_cache_are_the_ones_a_fresh_lint_makes(tmp_path):
    from workbench.checks.lint import lint_case_file

    # The sample suite, and a case whose total is drawn invisibly (an error) and whose PDF is not
    # the one it records (a warning).
    (tmp_path / "broken-1.pdf").write_bytes(invoice_pdf("$4,711.00", "$9,999.00", total_mode=3))
    cases = [*_sample_cases(), handmade_case("broken-1", json_path=tmp_path / "broken-1.json", sha256="0" * 64)]
    fresh = [lint_case_file(c) for c in cases]
    folder = tmp_path / "lint"
    made = [lint_case_file(c, cache=folder) for c in cases]
    assert len(_entries(folder)) == len(cases)          # one entry a case, by content
    kept = [lint_case_file(c, cache=folder) for c in cases]
    assert made == kept == fresh
    assert {f.severity for found in fresh for f in found} == {"error", "warning", "info"}
    assert len(_entries(folder)) == len(cases)


def test_the_cache_is_what_is_read_and_a_relint_makes_the_findings_afresh(tmp_path):
    from workbench.checks.findings import Finding
    from workbench.checks.lint import lint_case_file

    case = next(c for c in _sample_cases() if c.id == "annotation_only_text-0001")
    folder = tmp_path / "lint"
    fresh = lint_case_file(case, cache=folder)
    assert fresh
    (entry,) = _entries(folder)
    planted = json.loads(entry.read_text())
    planted["findings"] = [{"case_id": case.id, "severity": "error", "code": "planted", "message": "from the cache"}]
    entry.write_text(json.dumps(planted))
    assert lint_case_file(case, cache=folder) == [Finding(case.id, "error", "planted", "from the cache")]
    assert lint_case_file(case, cache=folder, fresh=True) == fresh     # made afresh, and kept
    assert lint_case_file(case, cache=folder) == fresh


@pytest.mark.parametrize("planted", [
    {"findings": [{"case_id": "annotation_only_text-0001", "severity": "fatal", "code": "x", "message": "m"}]},
    {"findings": [{"case_id": "annotation_only_text-0001", "severity": "error", "code": "x", "message": "m",
                   "extra": "field"}]},
    {"findings": [{"case_id": "another-case", "severity": "error", "code": "x", "message": "m"}]},
    {"findings": [["annotation_only_text-0001", "error", "x", "m"]]},
    {"findings": [{"case_id": "annotation_only_text-0001", "severity": "error", "code": 7, "message": "m"}]},
    {"findings": "none", "case_id": "annotation_only_text-0001"},
    {"findings": [], "case_id": "another-case"},
], ids=["severity", "extra-field", "other-case", "not-an-object", "not-text", "not-a-list", "other-case-entry"])
def test_an_entry_that_is_not_this_case_s_findings_is_linted_afresh_and_rewritten(tmp_path, planted):
    from workbench.checks.lint import lint_case_file

    case = next(c for c in _sample_cases() if c.id == "annotation_only_text-0001")
    folder = tmp_path / "lint"
    fresh = lint_case_file(case, cache=folder)
    (entry,) = _entries(folder)
    whole = json.loads(entry.read_text())
    entry.write_text(json.dumps({**whole, **planted}))
    assert lint_case_file(case, cache=folder) == fresh
    assert json.loads(entry.read_text()) == whole


def test_the_key_covers_the_pdf_the_case_the_dpi_and_the_limits(monkeypatch):
    from workbench.checks.lint import lint_key
    from workbench.core import limits

    case, pdf = generate_case("hidden_ocr_mismatch", 5, {"visible_total_layer": "text"})
    key = lint_key(case, pdf, 150)
    assert key is not None and key == lint_key(case, pdf, 150)
    changed = Case.from_json({**case.to_json(), "expected_answer": "$1.00"})
    others = [lint_key(case, pdf + b"\n", 150), lint_key(case, pdf, 100), lint_key(changed, pdf, 150)]
    monkeypatch.setattr(limits, "_overrides", {"page_operators": 10})
    others.append(lint_key(case, pdf, 150))
    assert len({key, *others}) == 5


def test_an_encrypted_pdf_is_kept_by_its_decrypted_bytes_never_its_password(tmp_path):
    import pymupdf

    from workbench.checks.lint import lint_case_file
    from workbench.pdf.document import read_pdf_bytes

    doc = pymupdf.open(stream=invoice_pdf("$4,711.00", "$9,999.00"), filetype="pdf")
    (tmp_path / "inv-1.pdf").write_bytes(doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret-pw",
                                                     owner_pw="owner-pw"))
    doc.close()
    case = handmade_case(json_path=tmp_path / "inv-1.json")
    folder = tmp_path / "lint"
    fresh = lint_case_file(case, password="s3cret-pw")
    assert lint_case_file(case, password="s3cret-pw", cache=folder) == fresh
    assert lint_case_file(case, password="s3cret-pw", cache=folder) == fresh
    (entry,) = _entries(folder)
    assert b"s3cret" not in entry.read_bytes()
    from workbench.checks.lint import lint_key

    assert entry.stem == lint_key(case, read_pdf_bytes(case.pdf_file, "s3cret-pw"), 150)
    assert [f.code for f in lint_case_file(case, password="wrong", cache=folder)] == ["pdf-unreadable"]
    assert _entries(folder) == [entry]


def test_a_scan_s_key_follows_the_code_of_the_family_that_draws_its_page_again(tmp_path):
    """Lint draws a scan's unscanned page again with its family's code: a user family edited
    (in the Author screen, within a session) keys its scans anew once loaded again, and none
    while the code loaded is not the file's."""
    from workbench.build.make import family_registry
    from workbench.checks.lint import lint_key
    from workbench.core.config import config_dir
    from workbench.generators import template

    family = config_dir() / "families" / "po_trap.py"
    family.parent.mkdir(parents=True)
    family.write_text(template.render("po_trap"))
    (disarm,) = family_registry().get("po_trap").disarmed
    case, pdf = generate_case("po_trap", 2, dict(disarm.params), dict(disarm.degrade))
    assert case.degrade is not None
    key = lint_key(case, pdf, 150)
    assert key is not None and key == lint_key(case, pdf, 150)
    family.write_text(template.render("po_trap") + "\n# edited\n")
    assert lint_key(case, pdf, 150) is None            # the code loaded is not the file's: not kept
    family_registry(refresh=True)
    assert lint_key(case, pdf, 150) not in (None, key)
    # A built-in family's code is in the lint's own fingerprint (the package's source).
    scanned, spdf = generate_case("hidden_ocr_mismatch", 1, None, {"tier": "mild", "text_layer": "none"})
    assert lint_key(scanned, spdf, 150) is not None


def test_findings_cut_short_by_a_page_s_time_limit_are_not_kept(tmp_path, monkeypatch):
    from workbench.checks.lint import lint_case_file
    from workbench.core import limits

    # (a PDF of its own: one analysed before in this process would come from the analysis' cache)
    (tmp_path / "inv-1.pdf").write_bytes(invoice_pdf("$5,120.77", "$9,999.00"))
    case = handmade_case(json_path=tmp_path / "inv-1.json")
    monkeypatch.setattr(limits, "_overrides", {"page_seconds": 0.0})
    found = lint_case_file(case, cache=tmp_path / "lint")
    assert any(f.code == "page-skipped" and "page_seconds" in f.message for f in found)
    assert _entries(tmp_path / "lint") == []
