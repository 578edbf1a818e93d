"""`report` (workbench/cli/report.py): the report as JSON and its gate; bad input is one line."""

from __future__ import annotations

from tests.support.cli import printed_json, refused


def test_report_json_and_its_gate(command, runs):
    right, trap = runs
    report = printed_json(command("report", right, trap, "--json"))
    assert report["format"] == "pdfworkbench-report/1" and len(report["runs"]) == 2
    # --fail-threshold: a run under it fails the gate (exit 1), its report still printed
    gated = printed_json(command("report", trap, "--json", "--fail-threshold", "0.5"), code=1)
    assert gated["runs"]


def test_report_refuses_bad_input_in_one_line(command, runs, work):
    right, _ = runs
    refused(command("report", "missing.jsonl", "--json"), "missing.jsonl: no such file")
    (work / "garbage.jsonl").write_text("not json\n")
    refused(command("report", "garbage.jsonl", "--json"), "garbage.jsonl")
    refused(command("report", right, "--json", "--by", "colour"), "--by")
