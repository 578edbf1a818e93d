"""`import-run` (workbench/cli/import_run.py): predictions as run records, said as JSON; bad input
is one line and writes nothing."""

from __future__ import annotations

import json

from tests.support.cli import printed_json, refused
from tests.support.fixtures import TOTAL, load


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
