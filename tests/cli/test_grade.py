"""`grade` (workbench/cli/grade.py): the exit code is the verdict, --json says why, --batch one
line an answer; bad input is one line."""

from __future__ import annotations

import json

from tests.support.cli import printed_json, refused
from tests.support.fixtures import TOTAL, load


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
