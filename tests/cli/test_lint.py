"""`lint` (workbench/cli/lint.py): exit codes and --json on good input and on bad."""

from __future__ import annotations

import json
import shutil

from tests.support.cli import printed_json, refused
from tests.support.fixtures import ONE_CASE


def test_lint_json_of_an_armed_case_and_of_a_disarmed_one(command, work):
    assert printed_json(command("lint", ONE_CASE, "--json")) == []
    # The key's expected answer changed to a value the page does not hold: an error finding, exit 1.
    shutil.copy(ONE_CASE.with_suffix(".pdf"), work / ONE_CASE.with_suffix(".pdf").name)
    case = json.loads(ONE_CASE.read_text())
    case["expected_answer"] = "€1.00"
    (work / ONE_CASE.name).write_text(json.dumps(case))
    findings = printed_json(command("lint", work / ONE_CASE.name, "--json"), code=1)
    assert any(f["severity"] == "error" for f in findings)


def test_lint_refuses_bad_input_in_one_line(command, work):
    refused(command("lint", "missing", "--json"), "missing: no such file or folder")
    refused(command("lint", ONE_CASE.with_suffix(".pdf"), "--key", "missing.json", "--json"), "missing.json")
    refused(command("lint", ONE_CASE, "--json", "--dpi", "many"), "--dpi")
