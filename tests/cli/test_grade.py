"""`grade` (workbench/cli/grade.py): the exit code is the verdict, --json says why, --batch one
line an answer; bad input is one line."""

from __future__ import annotations

import json

from tests.support.cli import printed_json, refused
from tests.support.fixtures import INVOICE, TOTAL, load


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


def _batch_rows(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_grade_batch_lines_are_grade_json_in_input_order(command, suite, work):
    """Each line is the verdict `grade --json` prints (less the attribution, which --explain adds),
    with the line's number and the case id, in the order the answers came; exit 1: one was wrong."""
    total, invoice = load(suite, TOTAL), load(suite, INVOICE)
    answers = [(TOTAL, total.expected_answer), (INVOICE, invoice.expected_answer), (TOTAL, total.forbidden_answers[0])]
    (work / "answers.jsonl").write_text("".join(
        json.dumps({"case": str(suite / f"{case}.json"), "answer": answer}) + "\n" for case, answer in answers))
    code, out, err = command("grade", "--batch", "answers.jsonl")
    assert code == 1, err
    rows = _batch_rows(out)
    assert [(r["line"], r["case"]) for r in rows] == [(1, TOTAL), (2, INVOICE), (3, TOTAL)]
    for row, (case, answer) in zip(rows, answers, strict=True):
        alone = printed_json(command("grade", suite / f"{case}.json", "--answer", answer, "--json"),
                             code=0 if row["correct"] else 1)
        for key in ("attribution", "attribution_skipped"):
            alone.pop(key, None)
        assert {k: v for k, v in row.items() if k not in ("line", "case")} == alone
    assert [r["correct"] for r in rows] == [True, True, False] and rows[2]["outcome"] == "trap"


def test_grade_batch_all_right_exits_0_and_reads_stdin(command, suite, work, monkeypatch):
    import io

    case = load(suite, TOTAL)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"case": TOTAL, "answer": case.expected_answer}) + "\n"))
    code, out, err = command("grade", "--batch", "-", "--suite", suite)
    assert (code, [r["correct"] for r in _batch_rows(out)]) == (0, [True]), err


def test_grade_batch_bad_line_is_that_lines_error_not_the_end(command, suite, work):
    """A line that is not JSON, lacks a field or names no case is an error object in its place;
    the lines after it are graded; exit 2 (a line was bad) over 1 (an answer was wrong)."""
    case = load(suite, TOTAL)
    right = json.dumps({"case": TOTAL, "answer": case.expected_answer})
    (work / "answers.jsonl").write_text("\n".join([
        right, "{not json", json.dumps({"case": TOTAL}), json.dumps({"case": "no-such-case", "answer": "x"}),
        "", json.dumps({"case": TOTAL, "answer": "nothing"}), right]) + "\n")
    code, out, err = command("grade", "--batch", "answers.jsonl", "--suite", suite)
    rows = _batch_rows(out)
    assert code == 2 and err == "", err
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 6, 7]     # the blank line 5 is no answer
    assert [r.get("correct") for r in rows] == [True, None, None, None, False, True]
    errors = [r for r in rows if "error" in r]
    assert [set(r) for r in errors] == [{"line", "case", "error"}] * 3
    assert "line 2" in errors[0]["error"] and '"answer"' in errors[1]["error"]
    assert errors[2]["case"] == "no-such-case" and "no case 'no-such-case'" in errors[2]["error"]


def test_grade_batch_refuses_what_is_no_batch_in_one_line(command, suite, work):
    refused(command("grade", "--batch", "missing.jsonl"), "missing.jsonl")
    refused(command("grade", suite / f"{TOTAL}.json", "--batch", "missing.jsonl"), "--batch")
    refused(command("grade", suite / f"{TOTAL}.json", "--answer", "x", "--suite", suite), "--suite")


def test_grade_explain_says_a_library_warning_once(command, suite, monkeypatch):
    """grade is a light command (no logging set-up to start); --explain, which loads the PDF
    libraries, sets it up: a library's warnings are one line at the end with their count."""
    import logging

    from workbench.cli import explain

    def noisy(case, answer):
        for _ in range(3):
            logging.getLogger("pypdf._page").warning("odd font %s", "F1")
        return "  where from: (read)"

    monkeypatch.setattr(explain, "where_from", noisy)
    case = load(suite, TOTAL)
    code, out, err = command("grade", suite / f"{TOTAL}.json", "--answer", case.expected_answer, "--explain")
    assert code == 0 and out.rstrip().endswith("where from: (read)")
    assert err.splitlines() == ["pdfworkbench: warning: pypdf: odd font F1 (3 times)"]


def test_the_program_ends_grade_with_mains_output_and_code(command, suite):
    """The program (`python -m workbench`, the script: `workbench.cli.run`) ends a light command's
    process without the interpreter's finalization: stdout (a pipe) is whole, the exit code the
    verdict, and an exit handler still runs."""
    import subprocess
    import sys

    case = load(suite, TOTAL)
    path = suite / f"{TOTAL}.json"
    probe = "import atexit, runpy; atexit.register(print, 'exit handler ran'); " \
            "runpy.run_module('workbench', run_name='__main__')"
    right, wrong = case.expected_answer, case.forbidden_answers[0]
    for answer, extra, expected in ((right, (), 0), (wrong, ("--json",), 1), (wrong, ("--explain",), 1)):
        argv = ("grade", str(path), "--answer", answer, *extra)
        proc = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120)
        code, out, _ = command(*argv)
        assert (proc.returncode, proc.stdout) == (expected, out + "exit handler ran\n"), proc.stderr
        assert code == expected


def test_stdin_that_is_not_utf8_is_one_line_not_a_traceback(tmp_path):
    """`--answer -` and `grade --batch -` read stdin as bytes: where it is not UTF-8 the answer
    is one line (exit 2), a batch line that line's error, as a file's would be (with a strict
    stdin, PYTHONIOENCODING=utf-8, it was a UnicodeDecodeError traceback)."""
    import os
    import subprocess
    import sys

    from tests.support.fixtures import ONE_CASE, ROOT

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}

    def grade(*argv: str, stdin: bytes):
        return subprocess.run([sys.executable, "-m", "workbench", "grade", *argv], input=stdin,
                              capture_output=True, env=env, cwd=ROOT, timeout=120)

    one = grade(str(ONE_CASE), "--answer", "-", stdin=b"total \xff 13,144.73")
    assert one.returncode == 2 and b"Traceback" not in one.stderr
    assert one.stderr.decode().strip() == ("pdfworkbench: error: stdin: --answer - is not UTF-8 text (byte 6); "
                                           "save it as UTF-8")
    lines = (json.dumps({"case": str(ONE_CASE), "answer": "x"}).encode()[:-2] + b'\xff"}\n'
             + json.dumps({"case": str(ONE_CASE), "answer": "\u20ac13,144.73"}).encode() + b"\n")
    batch = grade("--batch", "-", stdin=lines)
    first, second = (json.loads(line) for line in batch.stdout.decode().splitlines())
    assert first["error"].startswith("stdin line 1: answer line is not UTF-8 text") and second["outcome"] == "pass"
    assert batch.returncode == 2 and b"Traceback" not in batch.stderr


def test_an_answer_of_thousands_of_numbers_is_traced_to_the_limit_and_says_so(command, suite):
    """A provider's answer may be anything: 1,500 numbers are 1,500 values. `--explain` traces the
    first `traced_values` (one line each) and says in one line what was left and how to raise it;
    the verdict is the answer's whole. (The numbers are printed on the page: one the page does not
    print is looked for by OCR of the scan, seconds that test nothing here.)"""
    case = load(suite, TOTAL)
    answer = "1 " * 1500 + f"and the total is {case.expected_answer}."
    code, out, err = command("grade", suite / f"{TOTAL}.json", "--answer", answer, "--explain",
                             "--limit", "traced_values=40")
    traced = out.split("where from:\n", 1)[1].splitlines()
    assert code == 0 and out.startswith("PASS") and len(traced) == 40
    assert err.splitlines() == [f"pdfworkbench: {TOTAL}: an answer states 1,501 values; the first 40 are traced "
                                "(over the traced_values limit of 40; raise it with --limit traced_values=N)"]
    code, out, err = command("grade", suite / f"{TOTAL}.json", "--answer", "1 " * 60, "--explain")
    assert code == 1 and len(out.split("where from:\n", 1)[1].splitlines()) == 60 and err == ""
    # a long answer is read for its first values only: it states "more than" the limit
    code, out, err = command("grade", suite / f"{TOTAL}.json", "--answer", "1 " * 30_000 + case.expected_answer,
                             "--explain", "--limit", "traced_values=40")
    assert code == 0 and len(out.split("where from:\n", 1)[1].splitlines()) == 40
    assert err.splitlines() == [f"pdfworkbench: {TOTAL}: an answer states more than 40 values; the first 40 are "
                                "traced (over the traced_values limit of 40; raise it with --limit traced_values=N)"]
