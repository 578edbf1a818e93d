"""The report a run prints when it ends, and its gate (workbench/cli/runreport.py): graded against
the suite's newest gold (named), as text or JSON, written as JUnit, and why the run fails the gate;
a suite that moved away is reported without keys."""

from __future__ import annotations

import json

from tests.support.fixtures import TOTAL, load, record, suite_copy
from workbench.cli.runreport import print_run_report, suite_cases


def test_a_run_is_graded_against_the_suites_gold_and_gated(tmp_path, capsys):
    suite = suite_copy(tmp_path)
    cases, gold = suite_cases(suite)
    case = load(suite, TOTAL)
    assert TOTAL in cases and gold is not None
    records = [record(case, case.expected_answer), record(case, case.forbidden_answers[0])]
    assert print_run_report(records, cases, json_out=False, junit=tmp_path / "j.xml", gold=gold) is None
    text = capsys.readouterr().out
    assert text.startswith("gold v1 (the newest)\n\nrun test:model  (pdf; 2 calls; imported)")
    assert "fell for the trap: answered €53,919.68 instead of the expected €13,144.73" in text
    assert (tmp_path / "j.xml").read_text().count("<failure") == 1
    why = print_run_report(records, cases, json_out=True, junit=None, threshold=0.9, gold=gold)
    assert why == "pass rate 0.500 (1 of 2 scored calls) is below --fail-threshold 0.900"
    report = json.loads(capsys.readouterr().out)
    assert report["runs"][0]["overall"]["passed"] == 1 and report["gold"] == {"version": "v1", "newest": "v1"}


def test_nothing_scored_fails_the_gate_and_a_moved_suite_has_no_keys(tmp_path, capsys):
    assert print_run_report([], {}, json_out=True, junit=None) == "nothing could be scored (0 call(s), none finished and gradable)"
    capsys.readouterr()
    assert suite_cases(tmp_path / "gone") == ({}, None)
