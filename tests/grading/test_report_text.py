"""The text `pdfworkbench report` prints (grading/report_text.py), line by line as a user reads it:
a run's four states and its metric, the answers that did not pass, the differences between runs."""

from __future__ import annotations

from tests.support.fixtures import graded_record, mixed_run
from workbench.grading.report import build_report
from workbench.grading.report_text import render_report_text


def report_of(cases, **runs):
    return build_report(runs, {c.id: c for c in cases})


def test_a_run_s_four_states_metric_and_what_did_not_pass(graded_suite):
    _, c = graded_suite
    text = render_report_text(report_of(c, mixed=mixed_run(c)))
    assert text.splitlines() == [
        "run mixed  (pixels; 150 dpi; 8 calls; observed)",
        "  execution   6 finished, 1 errored, 1 timed out",
        "  grading     6 gradable, 2 not gradable",
        "  complete    5 complete, 1 truncated",
        "  metric      pass 3/5 = 60.0% [95% CI 23.1-88.2%]   fell for trap 1/5   refused 1/5",
        "  error rate  25.0% (2 of 8 calls did not finish; counted apart, never as wrong answers)",
        "",
        "  not passed:",
        f"    {c[3].id}  trap        fell for the trap: answered {c[3].forbidden_answers[0]} instead of the "
        f"expected {c[3].expected_answer}",
        f"    {c[4].id}  refused     refused ('i cannot'): 'I cannot read the document.'",
        f"    {c[5].id}  errored     http_error (HTTP 400): temperature is deprecated",
        f"    {c[6].id}  timed_out   timeout: no answer in 60 s",
        f"    {c[7].id}  truncated   expected {c[7].expected_answer} not found in 'The TOTAL' [answer truncated]",
    ]
    assert text.endswith("\n") and not text.startswith("\n")


def test_the_rows_not_passed_are_capped_and_the_rest_counted(graded_suite):
    _, c = graded_suite
    lines = render_report_text(report_of(c, mixed=mixed_run(c)), max_rows=2).splitlines()
    assert lines[-3:] == [f"    {c[3].id}  trap        fell for the trap: answered {c[3].forbidden_answers[0]} "
                          f"instead of the expected {c[3].expected_answer}",
                          f"    {c[4].id}  refused     refused ('i cannot'): 'I cannot read the document.'",
                          "    … 3 more (use --json)"]


def test_two_runs_show_each_case_whose_verdict_differs_with_what_each_said(graded_suite):
    _, c = graded_suite
    right = [graded_record(x, answer=x.expected_answer, reader="fake:other") for x in c]
    text = render_report_text(report_of(c, mixed=mixed_run(c), other=right))
    diff = text[text.index("differences"):].splitlines()
    assert diff[:5] == ["differences (5 case(s) whose verdict differs):",
                        f"  case{' ' * (len(c[0].id) - 2)}mixed      other    ",
                        f"  {c[3].id}  trap       pass     ",
                        f"                              mixed: {c[3].forbidden_answers[0]!r}",
                        f"                              other: {c[3].expected_answer!r}"]
    assert "                              mixed: (timeout: no answer in 60 s)" in diff   # no answer: why


def test_a_long_answer_is_one_line_cut_with_an_ellipsis_and_nothing_to_score_is_said(graded_suite):
    _, c = graded_suite
    long = "The total\n\n   is " + "very " * 40 + "large."
    report = report_of(c, long=[graded_record(c[0], answer=long)], right=[graded_record(c[0], answer=c[0].expected_answer)])
    said = [line.strip() for line in render_report_text(report).splitlines() if line.strip().startswith("long: ")]
    assert said == [f"long: {('The total is ' + 'very ' * 40)[:69] + '…'!r}"]   # one line of 70 characters
    errored = [graded_record(x, status="error", error={"type": "network", "message": "refused"}) for x in c[:2]]
    assert "  metric      nothing to score: no call finished with a gradable, complete answer" in \
        render_report_text(report_of(c, down=errored)).splitlines()
