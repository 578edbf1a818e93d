"""`grade`, `report`, `compare`, `export` and `import-run` (workbench/cli/grading.py): exit codes
and --json on good input and on bad, on a private copy of a two-case suite."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import files_under, printed_json, refused
from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run


@pytest.fixture
def suite(work):
    return suite_copy(work)


@pytest.fixture
def runs(suite):
    """Two runs over TOTAL: one answers the key, the other falls for the trap."""
    case = load(suite, TOTAL)
    right = write_run(suite / "runs" / "right.jsonl", [record(case, case.expected_answer, reader="t:right")])
    trap = write_run(suite / "runs" / "trap.jsonl", [record(case, case.forbidden_answers[0], reader="t:trap")])
    return right, trap


def test_grade_exit_code_is_the_verdict_and_json_says_why(command, suite):
    case = load(suite, TOTAL)
    path = suite / f"{TOTAL}.json"
    assert printed_json(command("grade", path, "--answer", case.expected_answer, "--json"))["correct"] is True
    wrong = printed_json(command("grade", path, "--answer", case.forbidden_answers[0], "--json"), code=1)
    assert wrong["correct"] is False and wrong["outcome"] == "trap"


def test_grade_batch_prints_one_line_per_answer(command, suite, work):
    case = load(suite, TOTAL)
    (work / "answers.jsonl").write_text(
        json.dumps({"case": TOTAL, "answer": case.expected_answer}) + "\n"
        + json.dumps({"case": TOTAL, "answer": "nothing"}) + "\n")
    code, out, err = command("grade", "--batch", "answers.jsonl", "--suite", suite)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code in (0, 1) and [line["correct"] for line in lines] == [True, False], err


def test_grade_refuses_bad_input_in_one_line(command, suite):
    refused(command("grade", "missing.json", "--answer", "x", "--json"), "missing.json: no such file")
    refused(command("grade", suite / f"{TOTAL}.json", "--json"), "--answer")
    refused(command("grade", suite / f"{TOTAL}.json", "--answer", "x", "--gold", "v9", "--json"), "v9")


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


def test_compare_json_and_its_bad_input(command, runs):
    right, trap = runs
    compared = printed_json(command("compare", right, trap, "--json"))
    assert compared["format"] == "pdfworkbench-compare/1" and compared["paired"] == 1
    refused(command("compare", right, "missing.jsonl", "--json"), "missing.jsonl: no such file")


def test_export_json_and_its_bad_input(command, suite, work):
    written = printed_json(command("export", suite, "--to", "jsonl", "--out", "exported", "--json"))
    assert written and (work / "exported").is_dir()
    refused(command("export", "missing", "--to", "jsonl", "--out", "x", "--json"), "not a folder")
    refused(command("export", suite, "--to", "excel", "--out", "x", "--json"), "--to")
    refused(command("export", suite, "--to", "jsonl", "--out", "x", "--gold", "v9", "--json"), "v9")
    assert files_under(work / "x") == []


def test_import_run_json_and_its_bad_input(command, suite, work):
    case = load(suite, TOTAL)
    (work / "predictions.jsonl").write_text(json.dumps({"id": TOTAL, "prediction": case.expected_answer}) + "\n")
    imported = printed_json(command("import-run", "predictions.jsonl", "--suite", suite, "--reader", "x:y",
                                    "--out", "run.jsonl", "--json"))
    assert imported and [json.loads(line)["answer"] for line in (work / "run.jsonl").read_text().splitlines()] \
        == [case.expected_answer]
    refused(command("import-run", "missing.json", "--json"), "missing.json: no such file")
    (work / "case.json").write_text(json.dumps({"id": "x"}))
    refused(command("import-run", "case.json", "--out", "other.jsonl", "--json"), "case.json")
    assert not (work / "other.jsonl").exists()
