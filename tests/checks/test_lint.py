"""Lint: contracts and the default contract checked on real PDFs, through the API and the CLI."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from tests.support import pdfs_forensics as F
from workbench.build.make import generate_case, write_case
from workbench.checks.lint import lint_case, lint_path
from workbench.core.case import PDFHELL_FIELDS, Case, sha256_hex
from workbench.core.contract import parse_contract
from workbench.core.errors import UserError


def _invoice(total: str, hidden: str, total_mode: int = 0) -> bytes:
    """A one-line invoice: the total in render mode `total_mode`, and an invisible decoy."""
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    c.setFont("Helvetica", 12)
    c.drawString(72, 700, "INVOICE 42")
    t = c.beginText(72, 660)
    t.setFont("Helvetica", 12)
    t.textOut("TOTAL DUE ")
    t.setTextRenderMode(total_mode)
    t.textOut(total)
    t.setTextRenderMode(3)
    t.textOut("   " + hidden)
    t.setTextRenderMode(0)
    c.drawText(t)
    c.save()
    return buf.getvalue()


def _case(cid: str = "inv-1", expected: str = "$4,711.00", forbidden=("$9,999.00",), **kw) -> Case:
    return Case(id=cid, trap_family="handmade", seed=1, question="What is the total due?",
                expected_answer=expected, forbidden_answers=list(forbidden),
                **{k: parse_contract(v) if k == "contract" else v for k, v in kw.items()})


def _codes(findings, severity=None):
    return sorted(f.code for f in findings if severity is None or f.severity == severity)


def test_an_armed_case_has_no_error_and_reports_the_hidden_trap():
    findings = lint_case(_case(), _invoice("$4,711.00", "$9,999.00"))
    assert _codes(findings) == ["forbidden-hidden-only"]
    assert findings[0].severity == "info" and "page 1" in findings[0].message


def test_an_answer_drawn_in_invisible_text_is_an_error():
    findings = lint_case(_case(), _invoice("$4,711.00", "$9,999.00", total_mode=3))
    (err,) = [f for f in findings if f.severity == "error"]
    assert err.code == "expected-not-visible" and "invisible-render-mode" in err.message


def test_answer_key_mistakes_are_errors():
    pdf = _invoice("$4,711.00", "$9,999.00")
    assert "expected-is-forbidden" in _codes(lint_case(_case(forbidden=["4711.00"]), pdf), "error")
    assert "expected-empty" in _codes(lint_case(_case(expected=""), pdf), "error")
    assert "forbidden-empty" in _codes(lint_case(_case(forbidden=[" "]), pdf), "error")


def test_tokens_are_checked_instead_of_a_prose_answer():
    pdf = _invoice("$4,711.00", "$9,999.00")
    ok = _case(expected="The total due on invoice 42 is 4,711 dollars.", expected_tokens=["$4,711.00", "42"])
    assert _codes(lint_case(ok, pdf), "error") == []
    # A token printed nowhere may be computed from the page, or wrong: the lint cannot tell.
    bad = _case(expected="x", expected_tokens=["$4,711.00", "INVOICE 43"])
    findings = lint_case(bad, pdf)
    assert _codes(findings, "error") == [] and "tokens-not-printed" in _codes(findings, "warning")
    assert "answer not printed: cannot verify; declare it derived" in findings[0].message


def test_prose_answer_whose_figures_are_visible_is_a_warning():
    pdf = _invoice("$4,711.00", "$9,999.00")
    case = _case(expected="The invoice number 42 shows a total due of $4,711.00 in full.")
    assert _codes(lint_case(case, pdf)) == ["expected-paraphrase", "forbidden-hidden-only"]


@pytest.mark.parametrize("clause, code", [
    ({"target": "forbidden", "where": "visible"}, "forbidden-not-visible"),
    ({"target": "expected", "where": "hidden"}, "expected-not-hidden"),
    ({"target": "expected", "where": "not_text_layer"}, "expected-in-text-layer"),
    ({"target": "forbidden:0", "where": "pixels_only"}, "forbidden-in-text-layer"),
    ({"target": "expected", "where": "not_visible"}, "expected-visible"),
    ({"target": "meta:invoice", "where": "text_layer"}, "meta-not-in-text-layer"),
    ({"target": "meta:nope", "where": "visible"}, "meta-missing"),
    ({"target": "answer", "where": "visible"}, "contract-invalid"),
])
def test_each_contract_clause_can_fail(clause, code):
    pdf = _invoice("$4,711.00", "$9,999.00")
    case = _case(contract=[clause], metadata={"invoice": "INV-43"})
    assert _codes(lint_case(case, pdf), "error") == [code]


def test_a_kept_contract_passes():
    pdf = _invoice("$4,711.00", "$9,999.00")
    contract = [{"target": "expected", "where": "visible"}, {"target": "expected", "where": "text_layer"},
                {"target": "forbidden", "where": "hidden"}, {"target": "forbidden", "where": "not_visible"}]
    assert lint_case(_case(contract=contract), pdf) == []


def test_a_changed_pdf_is_a_warning():
    case = _case(sha256="0" * 64)
    assert "pdf-changed" in _codes(lint_case(case, _invoice("$4,711.00", "$9,999.00")), "warning")


def test_hidden_ocr_mismatch_seeds_1_to_50_have_no_error():
    problems = []
    for seed in range(1, 51):
        try:
            case, pdf = generate_case("hidden_ocr_mismatch", seed)
        except UserError:
            continue  # a seed whose drawn parameters the family rejects: reported elsewhere
        problems += [f"{f.case_id} {f.code}: {f.message}" for f in lint_case(case, pdf) if f.severity == "error"]
    assert problems == []


def test_the_white_text_over_the_printed_total_construction_is_caught():
    """hidden_ocr_mismatch once drew a white hidden total over the printed one, cutting it."""
    case = _case(expected="$13,144.73", forbidden=["$61,271.52"],
                 contract=[{"target": "forbidden", "where": "not_visible"}])
    findings = lint_case(case, F.white_over_image())
    assert "forbidden-visible" in _codes(findings, "error")


# ---- paths and the command line --------------------------------------------------------------

def _write_pdfhell_case(folder: Path, case: Case, pdf: bytes) -> None:
    raw = {k: v for k, v in case.to_json().items() if k in PDFHELL_FIELDS}
    (folder / f"{case.id}.pdf").write_bytes(pdf)
    (folder / f"{case.id}.json").write_text(json.dumps(raw), encoding="utf-8")


def test_lint_a_pdfhell_folder_and_a_broken_case(cli, tmp_path):
    good = _case("good-1")
    _write_pdfhell_case(tmp_path, good, _invoice("$4,711.00", "$9,999.00"))
    made, pdf = generate_case("hidden_ocr_mismatch", 3, {"visible_total_layer": "text"})
    _write_pdfhell_case(tmp_path, made, pdf)
    code, out, err = cli("lint", tmp_path, "--json")
    assert code == 0, out + err
    findings = json.loads(out)
    assert {f["severity"] for f in findings} <= {"info", "warning"}
    assert {f["case_id"] for f in findings if f["code"] == "forbidden-hidden-only"} == {"good-1", made.id}

    _write_pdfhell_case(tmp_path, _case("broken-1"), _invoice("$4,711.00", "$9,999.00", total_mode=3))
    code, out, _ = cli("lint", tmp_path, "--json")
    assert code == 1
    errors = [f for f in json.loads(out) if f["severity"] == "error"]
    assert [(f["case_id"], f["code"]) for f in errors] == [("broken-1", "expected-not-visible")]
    assert set(errors[0]) == {"case_id", "severity", "code", "message"}

    code, out, _ = cli("lint", tmp_path)
    assert code == 1 and "ERROR   broken-1  expected-not-visible" in out and "1 error(s)" in out


def test_lint_our_suite_a_case_json_and_a_missing_pdf(cli, tmp_path):
    from workbench.build.saving import add_case

    for seed in (1, 2):
        case, pdf = generate_case("white_text_injection", seed)
        add_case(tmp_path, case, pdf)
    code, out, err = cli("lint", tmp_path, "--json")
    assert code == 0, out + err
    assert [f for f in json.loads(out) if f["severity"] == "error"] == []
    one = next(tmp_path.glob("white_text_injection-0001.json"))
    assert cli("lint", one)[0] == 0
    (tmp_path / "white_text_injection-0001.pdf").unlink()
    code, out, _ = cli("lint", one, "--json")
    assert code == 1 and [f["code"] for f in json.loads(out)] == ["pdf-missing"]


def test_lint_a_bare_pdf_with_and_without_a_key(cli, tmp_path):
    pdf = tmp_path / "invoice.pdf"
    pdf.write_bytes(_invoice("$4,711.00", "$9,999.00", total_mode=3))
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
