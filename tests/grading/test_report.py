"""Reports over real cases: errors counted apart from the metric, Wilson intervals, JUnit, the
pdfhell importer and the grade/report/import-run commands."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
import zipfile

import pytest

from tests.support.fixtures import graded_record as rec
from tests.support.fixtures import mixed_run, write_run
from workbench.core.case import PDFHELL_FIELDS
from workbench.core.runs import iter_records
from workbench.grading import wilson
from workbench.grading.junit import write_junit
from workbench.grading.report import build_report
from workbench.grading.report_text import render_report_text


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (8, 10, 0.4902, 0.9433),
    (10, 10, 0.7225, 1.0),
    (0, 10, 0.0, 0.2775),
    (102, 170, 0.5249, 0.6706),     # pdfhell's published 0.6 pass rate on 170 cases
    (1, 2, 0.0945, 0.9055),
])
def test_wilson_against_known_values(k, n, lo, hi):
    got = wilson(k, n)
    assert got == (pytest.approx(lo, abs=1e-4), pytest.approx(hi, abs=1e-4))


def test_wilson_with_no_trials_is_vacuous():
    assert wilson(0, 0) == (0.0, 1.0)


def test_errors_are_counted_but_never_in_the_denominator(graded_suite):
    _, cases = graded_suite
    report = build_report(mixed_run(cases), {c.id: c for c in cases}, by="family")
    s = report.runs[0].overall.to_json()
    assert s["calls"] == 8
    assert s["execution"] == {"finished": 6, "errored": 1, "timed_out": 1, "blocked": 0, "cancelled": 0}
    assert (s["gradable"], s["not_gradable"], s["truncated"]) == (6, 2, 1)
    assert (s["scored"], s["passed"], s["failed"]) == (5, 3, 2)
    assert s["pass_rate"] == 0.6
    assert s["pass_rate_ci"] == [round(x, 6) for x in wilson(3, 5)]
    assert (s["fell_for_trap_rate"], s["refusal_rate"], s["error_rate"]) == (0.2, 0.2, 0.25)
    outcomes = {r.case_id: r.outcome for r in report.runs[0].rows}
    assert outcomes[cases[5].id] == "errored" and outcomes[cases[6].id] == "timed_out"
    assert outcomes[cases[7].id] == "truncated"
    assert report.runs[0].groups[0].group == "hidden_ocr_mismatch"
    text = render_report_text(report)
    assert "pass 3/5 = 60.0%" in text and "1 errored, 1 timed out" in text
    assert "temperature is deprecated" in text


def test_a_run_where_every_call_failed_scores_nothing_not_zero(graded_suite):
    _, cases = graded_suite
    records = [rec(c, status="error", error={"type": "http_error", "message": "bad key"}) for c in cases]
    report = build_report(records, {c.id: c for c in cases})
    s = report.runs[0].overall
    assert s.pass_rate is None and s.error_rate == 1.0
    assert report.to_json()["runs"][0]["overall"]["pass_rate"] is None
    assert "nothing to score" in render_report_text(report)


def test_grouping_by_param_and_tier(graded_suite):
    _, cases = graded_suite
    report = build_report(mixed_run(cases), {c.id: c for c in cases}, by="param:currency")
    groups = {g.group for g in report.runs[0].groups}
    assert groups <= {"USD", "EUR", "GBP"} and sum(g.calls for g in report.runs[0].groups) == 8
    tiers = build_report(mixed_run(cases), {c.id: c for c in cases}, by="tier")
    assert [g.group for g in tiers.runs[0].groups] == ["none"]


def test_two_runs_side_by_side(graded_suite):
    _, cases = graded_suite
    good = [rec(c, answer=c.expected_answer) for c in cases]
    report = build_report({"a": mixed_run(cases), "b": good}, {c.id: c for c in cases})
    diffs = {d.case_id: d.outcomes for d in report.differences}
    assert set(diffs) == {c.id for c in cases[3:]}
    assert diffs[cases[3].id] == {"a": "trap", "b": "pass"}
    assert diffs[cases[5].id] == {"a": "errored", "b": "pass"}
    assert "differences (5 case(s)" in render_report_text(report)


def test_junit_counts_failures_and_errors(graded_suite, tmp_path):
    _, cases = graded_suite
    report = build_report(mixed_run(cases), {c.id: c for c in cases})
    path = tmp_path / "junit.xml"
    write_junit(report, path)
    root = ET.parse(path).getroot()
    ts = root.find("testsuite")
    assert (ts.get("tests"), ts.get("failures"), ts.get("errors")) == ("8", "2", "3")
    kinds = {tc.get("name"): [(ch.tag, ch.get("type")) for ch in tc] for tc in ts.iter("testcase")}
    assert kinds[cases[0].id] == []
    assert kinds[cases[3].id] == [("failure", "fell_for_trap")]
    assert kinds[cases[4].id] == [("failure", "refusal")]
    assert kinds[cases[5].id] == [("error", "errored")]
    assert kinds[cases[6].id] == [("error", "timed_out")]
    # from records too, graded against the cases
    write_junit(mixed_run(cases), tmp_path / "j2.xml", cases_by_id={c.id: c for c in cases})
    assert ET.parse(tmp_path / "j2.xml").getroot().get("failures") == "2"


# ---- commands -------------------------------------------------------------------------------

def test_grade_command(cli, graded_suite):
    folder, cases = graded_suite
    case_json = folder / f"{cases[0].id}.json"
    code, out, _ = cli("grade", case_json, "--answer", f"It is {cases[0].expected_answer}")
    assert code == 0 and out.startswith("PASS")
    code, out, _ = cli("grade", case_json, "--answer", cases[0].forbidden_answers[0], "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["fell_for_trap"] and verdict["outcome"] == "trap"
    assert verdict["forbidden_matched"][0]["span"] == [0, len(cases[0].forbidden_answers[0])]


def test_grade_batch_gives_each_line_its_verdict_in_order(cli, graded_suite, tmp_path):
    """One line per input line, in input order, the verdict as grade --json gives it; a bad line
    (not JSON, no case, a case file that is not there) is that line's error, and the rest grade."""
    folder, cases = graded_suite
    right, trap = f"It is {cases[0].expected_answer}", cases[0].forbidden_answers[0]
    one = str(folder / f"{cases[0].id}.json")
    lines = [json.dumps({"case": one, "answer": right}), "{not json",
             json.dumps({"case": str(tmp_path / "gone.json"), "answer": "x"}),
             json.dumps({"case": one, "answer": trap}), json.dumps({"answer": "no case"}),
             json.dumps({"case": str(folder / f"{cases[1].id}.json"), "answer": cases[1].expected_answer})]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = cli("grade", "--batch", answers)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and err == ""
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.get("outcome") for r in rows] == ["pass", None, None, "trap", None, "pass"]
    assert "malformed" in rows[1]["error"] and "no such file" in rows[2]["error"]
    assert rows[2]["case"] == str(tmp_path / "gone.json") and rows[4]["case"] is None
    _, single, _ = cli("grade", one, "--answer", trap, "--json")
    alone = json.loads(single)
    del alone["attribution"]   # the batch attributes only with --explain
    assert {k: v for k, v in rows[3].items() if k not in ("line", "case")} == alone
    # by case id, with --suite
    answers.write_text("".join(json.dumps({"case": c.id, "answer": c.expected_answer}) + "\n" for c in cases)
                       + json.dumps({"case": "nope", "answer": "x"}) + "\n", encoding="utf-8")
    code, out, _ = cli("grade", "--batch", answers, "--suite", folder)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["case"] for r in rows] == [c.id for c in cases] + ["nope"]
    assert all(r["correct"] for r in rows[:-1]) and "no case 'nope'" in rows[-1]["error"]
    code, _, err = cli("grade", one, "--batch", answers)
    assert code == 2 and "takes no CASE.json" in err


def test_report_command_finds_the_suite_beside_the_run(cli, graded_suite, tmp_path):
    folder, cases = graded_suite
    runs = folder / "runs"
    runs.mkdir(exist_ok=True)
    run = write_run(runs / "mixed.jsonl", mixed_run(cases))
    code, out, _ = cli("report", run, "--json", "--junit", tmp_path / "j.xml", "--audit-pack", tmp_path / "a.zip")
    assert code == 0
    data = json.loads(out)
    assert data["format"] == "pdfworkbench-report/1" and data["runs"][0]["overall"]["scored"] == 5
    assert (tmp_path / "j.xml").exists() and zipfile.is_zipfile(tmp_path / "a.zip")
    code, _, err = cli("report", run, "--fail-threshold", "0.7")
    assert code == 1 and "below --fail-threshold 0.700" in err
    assert cli("report", run, "--fail-threshold", "50%")[0] == 0
    code, _, err = cli("report", run, "--by", "colour")
    assert code == 2 and "--by 'colour'" in err


def test_report_without_a_suite_says_what_to_do(cli, graded_suite, tmp_path):
    _, cases = graded_suite
    run = write_run(tmp_path / "lonely.jsonl", mixed_run(cases))
    code, _, err = cli("report", run)
    assert code == 2 and "give --suite" in err


PDFHELL_RUN = {
    "model": "anthropic:claude-opus-4-7", "suite": "mini", "suite_version": "mini-v4", "suite_hash": "a451ce10",
    "n": 3, "pass_rate": 0.0, "refused_rate": 1.0, "api_error_rate": 0.33, "modality": "pixels",
    "raster_dpi": 150, "pdfium_build": "7869",
    "cases": [],
}


def test_import_run_keeps_provider_errors_out_of_the_score(cli, graded_suite, tmp_path):
    folder, cases = graded_suite
    raw = dict(PDFHELL_RUN)
    raw["cases"] = [
        {"case_id": cases[0].id, "trap_family": "hidden_ocr_mismatch", "correct": True, "fell_for_trap": False,
         "refused": False, "matched_expected": True, "matched_forbidden": [],
         "model_output": cases[0].expected_answer, "expected": cases[0].expected_answer, "api_error": False},
        {"case_id": cases[1].id, "trap_family": "hidden_ocr_mismatch", "correct": False, "fell_for_trap": False,
         "refused": True, "matched_expected": False, "matched_forbidden": [],
         "model_output": "[error] BadRequestError: temperature is deprecated for this model",
         "expected": cases[1].expected_answer},
        {"case_id": cases[2].id, "trap_family": "hidden_ocr_mismatch", "correct": False, "fell_for_trap": False,
         "refused": True, "matched_expected": False, "matched_forbidden": [], "model_output": "",
         "expected": cases[2].expected_answer, "api_error": True},
    ]
    src = tmp_path / "opus.json"
    src.write_text(json.dumps(raw))
    code, out, err = cli("import-run", src, "--suite", folder)
    assert code == 0 and "3 records (2 provider errors)" in out
    assert "give --suite" in err   # the suite is not beside the run: the run cannot name it
    records = list(iter_records(tmp_path / "opus.jsonl"))
    assert [r.status for r in records] == ["ok", "error", "error"]
    assert all(r.provenance == "imported" and r.reader == "anthropic:claude-opus-4-7" for r in records)
    assert (records[0].modality, records[0].dpi, records[0].key_sha256) == ("pixels", 150, cases[0].key_sha256())
    assert records[1].error["type"] == "BadRequestError" and records[1].answer is None
    assert cli("import-run", src, "--suite", folder)[0] == 2            # refuses to overwrite
    code, out, _ = cli("report", tmp_path / "opus.jsonl", "--suite", folder, "--json")
    s = json.loads(out)["runs"][0]["overall"]
    assert (s["scored"], s["passed"], s["execution"]["errored"]) == (1, 1, 2)
    assert cli("import-run", tmp_path / "opus.jsonl")[0] == 2          # not a pdfhell run JSON


def _pdfhell_cases(cases):
    """Three graded pdfhell entries: right, fell for the trap, wrong."""
    return [
        {"case_id": cases[0].id, "trap_family": "hidden_ocr_mismatch", "correct": True, "fell_for_trap": False,
         "refused": False, "matched_forbidden": [], "model_output": cases[0].expected_answer,
         "expected": cases[0].expected_answer},
        {"case_id": cases[1].id, "trap_family": "hidden_ocr_mismatch", "correct": False, "fell_for_trap": True,
         "refused": False, "matched_forbidden": [cases[1].forbidden_answers[0]],
         "model_output": cases[1].forbidden_answers[0], "expected": cases[1].expected_answer},
        {"case_id": cases[2].id, "trap_family": "hidden_ocr_mismatch", "correct": False, "fell_for_trap": False,
         "refused": False, "matched_forbidden": [], "model_output": "42", "expected": cases[2].expected_answer},
    ]


def test_report_of_an_imported_run_uses_the_records_suite_hash(cli, graded_suite, tmp_path):
    """A pdfhell folder has no suite.json: its hash is computed from its content, and the hash the
    run recorded (pdfhell's) is shown beside it."""
    folder, cases = graded_suite
    pdfhell = tmp_path / "pdfhell-suite"
    pdfhell.mkdir()
    for c in cases[:3]:
        raw = {k: v for k, v in c.to_json().items() if k in PDFHELL_FIELDS}
        (pdfhell / f"{c.id}.json").write_text(json.dumps(raw))
        (pdfhell / f"{c.id}.pdf").write_bytes(c.pdf_file.read_bytes())
    src = tmp_path / "run.json"
    src.write_text(json.dumps(dict(PDFHELL_RUN, cases=_pdfhell_cases(cases))))
    assert cli("import-run", src, "--suite", pdfhell)[0] == 0
    code, out, _ = cli("report", tmp_path / "run.jsonl")
    # The folder's own hash (the one every command gives it), and pdfhell's, named as the run's.
    assert "; the run records a451ce10)" in out and "not recorded" not in out
    assert "as the source graded it" not in out                            # regraded from the keys


def test_report_of_an_imported_run_without_its_suite_shows_the_sources_verdicts(cli, graded_suite, tmp_path):
    _, cases = graded_suite
    src = tmp_path / "run.json"
    src.write_text(json.dumps(dict(PDFHELL_RUN, cases=_pdfhell_cases(cases))))
    assert cli("import-run", src)[0] == 0                                  # no --suite: no keys
    code, out, err = cli("report", tmp_path / "run.jsonl")
    assert code == 0, err
    assert "verdicts: as the source graded them" in out and "hash a451ce10" in out
    assert "pass 1/3" in out and "fell for trap 1/3" in out
    assert f"fell for the trap: answered {cases[1].forbidden_answers[0]}" in out
    code, out, _ = cli("report", tmp_path / "run.jsonl", "--json")
    report = json.loads(out)
    rows = report["runs"][0]["cases"]
    assert report["suite"]["graded_by"] == "source"
    assert [r["outcome"] for r in rows] == ["pass", "trap", "fail"]
    assert all(r["verdict"]["details"]["graded_by"] == "source" for r in rows)
