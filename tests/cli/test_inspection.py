"""`inspect` (workbench/cli/inspection.py): page sizes and both text layers as JSON; a file that
is no PDF, a broken one or a malformed case JSON is one line, no traceback."""

from __future__ import annotations

import json

from tests.support.cli import one_line_error
from workbench.core.case import load_case

FAMILY = "hidden_ocr_mismatch"


def test_inspect_json_gives_pages_sizes_and_both_layers(cli, tmp_path):
    cli("make", FAMILY, "--seed", "1", "--out", tmp_path)
    code, out, _ = cli("inspect", tmp_path / f"{FAMILY}-0001.pdf", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["page_count"] == 1
    page = report["pages"][0]
    assert (page["width_pt"], page["height_pt"]) == (612, 792)
    case = load_case(tmp_path / f"{FAMILY}-0001.json")
    # The hidden total is in both text layers; the printed (pixel) total is in neither.
    for layer in ("pypdf", "pymupdf"):
        assert case.forbidden_answers[0] in page["text"][layer]
        assert case.expected_answer not in page["text"][layer]


def test_inspect_of_non_pdf_and_broken_pdf(cli, tmp_path):
    text = tmp_path / "notes.pdf"
    text.write_text("hello")
    one_line_error(*cli("inspect", text), "not a PDF")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj garbage\n")
    one_line_error(*cli("inspect", broken), "broken PDF")
    one_line_error(*cli("inspect", tmp_path / "missing.pdf"), "no such file")


def test_malformed_case_json(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x", ')
    one_line_error(*cli("inspect", bad), "malformed case JSON")
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"id": "x"}')
    one_line_error(*cli("inspect", wrong), "not a case", "question")


def test_broken_pdf_via_subprocess_has_no_traceback(tmp_path, run_cli_subprocess):
    broken = tmp_path / "x.pdf"
    broken.write_bytes(b"garbage")
    proc = run_cli_subprocess("inspect", broken)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("pdfworkbench: error:") and "Traceback" not in proc.stderr


def test_inspect_json_and_its_bad_input(command, work):
    from tests.support.cli import printed_json, refused
    from tests.support.fixtures import ONE_CASE

    report = printed_json(command("inspect", ONE_CASE.with_suffix(".pdf"), "--json", "--pages", "1"))
    assert report["page_count"] == 1 and report["pages"][0]["text"]["pypdf"]
    refused(command("inspect", "missing.pdf", "--json"), "missing.pdf: no such file")
    (work / "not.pdf").write_text("plain text")
    refused(command("inspect", "not.pdf", "--json"), "not a PDF")
    refused(command("inspect", ONE_CASE.with_suffix(".pdf"), "--json", "--pages", "0"), "page")
