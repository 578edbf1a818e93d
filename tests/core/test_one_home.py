"""One home per concept: one outcome for a record everywhere, one rule for the suite a run
belongs to, one way to ask a reader."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run
from workbench.core.errors import UserError
from workbench.core.layout import ASK_RUN, RUNS_DIR, suite_of_run
from workbench.core.runs import RunRecord, iter_records
from workbench.core.source import open_source
from workbench.gold.regrade import regrade
from workbench.grading.junit import junit_xml
from workbench.grading.outcome import OUTCOMES, outcome_of
from workbench.grading.report import build_report


def test_every_view_of_a_record_shows_the_one_outcome(tmp_path):
    suite = suite_copy(tmp_path)
    case = load(suite, TOTAL)
    recs = [record(case, case.expected_answer), record(case, case.forbidden_answers[0]),
            record(case, case.expected_answer, status="truncated", finish_reason="length"),
            record(case, None, status="error")]
    run = write_run(suite / RUNS_DIR / "mixed.jsonl", recs)
    kinds = [outcome_of(r, case).kind for r in recs]
    assert kinds == ["pass", "trap", "truncated", "errored"] and set(kinds) <= set(OUTCOMES)
    report = build_report(recs, {case.id: case})
    assert [row.outcome for row in report.runs[0].rows] == kinds
    # A truncated answer and an error are kept out of the score: only the trap failed.
    assert [outcome_of(r, case).failed for r in recs] == [False, True, False, False]
    assert report.runs[0].overall.scored == 2 and report.runs[0].overall.passed == 1
    # The error line reads the same in the report and wherever the outcome is shown.
    assert report.runs[0].rows[3].reason == outcome_of(recs[3], case).reason == "server_error (HTTP 500): HTTP 500"
    xml = junit_xml(report).decode()
    assert xml.count("<failure") == 1 and xml.count("<error") == 2
    tallies = regrade([run], suite, gold="v1", against="v1").tallies["v1"]
    assert tallies == {"pass": 1, "trap": 1, "truncated": 1, "errored": 1}
    assert outcome_of(recs[0], None).kind == "no_key"


def test_report_regrade_and_the_workbench_find_a_run_s_suite_by_one_rule(tmp_path, cli):
    suite = suite_copy(tmp_path)
    case = load(suite, TOTAL)
    inside = write_run(suite / RUNS_DIR / "a.jsonl", [record(case, case.expected_answer)])
    # Beside the suite, the records name it (as import-run --suite writes them, relative).
    named = record(case, case.expected_answer)
    named.extra["suite_dir"] = "suite"
    outside = write_run(tmp_path / "b.jsonl", [named])
    lost = write_run(tmp_path / "elsewhere" / "c.jsonl", [record(case, case.expected_answer)])
    assert suite_of_run(inside).resolve() == suite_of_run(outside).resolve() == suite.resolve()
    assert suite_of_run(lost) is None
    for run in (inside, outside):
        assert open_source(run).suite.folder.resolve() == suite.resolve()
        code, out, _ = cli("report", run, "--json")
        assert code == 0 and json.loads(out)["runs"][0]["overall"]["passed"] == 1
        code, out, _ = cli("regrade", run, "--json")
        assert code == 0 and json.loads(out)["records"] == 1
    code, _, err = cli("regrade", lost)
    assert code != 0 and "--suite" in err


def test_ask_records_the_suite_in_the_suite_s_ask_run(tmp_path, cli):
    suite = suite_copy(tmp_path)
    shutil.rmtree(suite / RUNS_DIR, ignore_errors=True)
    case = load(suite, TOTAL)
    code, out, err = cli("ask", case.json_path, "--reader", "probe:pymupdf")
    assert code == 0, err
    [line] = (suite / RUNS_DIR / ASK_RUN).read_text().splitlines()
    rec = RunRecord.from_json(json.loads(line))
    assert rec.suite == "gold-test" and rec.case_id == TOTAL
    # The pymupdf probe reads the hidden total of the text layer: the trap.
    assert outcome_of(rec, case).kind == "trap" and "trap" in err


def test_ask_takes_your_own_question_about_a_case_or_any_pdf(tmp_path, cli):
    suite = suite_copy(tmp_path)
    shutil.rmtree(suite / RUNS_DIR, ignore_errors=True)
    case = load(suite, TOTAL)
    # A question of your own (beginning with '-', as a question may): recorded, graded against no key.
    code, _, err = cli("ask", case.json_path, "--reader", "probe:pymupdf", "--question", "-Who sent it?")
    assert code == 0, err
    [line] = (suite / RUNS_DIR / ASK_RUN).read_text().splitlines()
    rec = RunRecord.from_json(json.loads(line))
    assert rec.extra["question"] == "-Who sent it?" and "Question: -Who sent it?" in rec.prompt
    assert outcome_of(rec, case).kind == "no_key" and "your own question" in err
    # Any PDF: it needs a question, and its answer goes into runs/ beside it.
    pdf = tmp_path / "theirs.pdf"
    shutil.copy(case.pdf_file, pdf)
    code, _, err = cli("ask", pdf, "--reader", "probe:pymupdf")
    assert code == 2 and "--question" in err and err.count("\n") == 1
    code, out, err = cli("ask", pdf, "--reader", "probe:pymupdf", "--question", "What is the total?")
    assert code == 0, err
    [line] = (tmp_path / RUNS_DIR / ASK_RUN).read_text().splitlines()
    assert json.loads(line)["extra"]["question"] == "What is the total?"
    assert "TOTAL" in out.upper()


def test_resolved_params_arrive_typed_however_they_were_given():
    from workbench.build.make import family_registry

    kinds = {"int": int, "float": float, "str": str, "bool": bool}
    for fam in family_registry().families.values():
        drawn = fam.resolve({}, 7)
        # As typed on a command line, and as read back from a case JSON: the same values, same types.
        for values in (drawn, fam.resolve({k: str(v).lower() if isinstance(v, bool) else str(v)
                                           for k, v in drawn.items()}, 7),
                       fam.resolve(json.loads(json.dumps(drawn)), 7)):
            for p in fam.params:
                want = kinds.get(p.type) or type(p.choices[0])
                assert type(values[p.name]) is want, (fam.name, p.name, values[p.name])
            assert values == drawn


def test_a_run_may_name_only_a_suite_inside_its_own_folder(tmp_path, cli):
    """A run file someone sent cannot point report, regrade or the workbench at a folder elsewhere
    (the rule case and suite files follow, `schema.contained`): one line naming the field."""
    suite = suite_copy(tmp_path / "mine")
    case = load(suite, TOTAL)
    sent = tmp_path / "sent"
    for name, named in (("absolute", str(suite)), ("climbing", "../mine/suite")):
        rec = record(case, case.expected_answer)
        rec.extra["suite_dir"] = named
        run = write_run(sent / f"{name}.jsonl", [rec])
        for command in (("report", run), ("regrade", run), ("open", run)):
            code, out, err = cli(*command)
            assert code == 2 and "Traceback" not in err, (command, err)
            [line] = [x for x in err.splitlines() if x.strip()]
            assert "suite_dir" in line and "points outside" in line and "--suite" in line, line
        with pytest.raises(UserError, match="suite_dir"):
            open_source(run)
        # Given explicitly, the suite is the user's choice.
        code, out, _ = cli("report", run, "--suite", suite, "--json")
        assert code == 0 and json.loads(out)["runs"][0]["overall"]["passed"] == 1
    # A `suite` field is a name: one that climbs out names nothing (the run is not found, not followed).
    rec = record(case, case.expected_answer)
    rec.suite = "../mine/suite"
    assert suite_of_run(write_run(sent / "by-name.jsonl", [rec])) is None
    # Inside the suite's runs/ folder, an absolute suite_dir naming the suite itself still works.
    rec = record(case, case.expected_answer)
    rec.extra["suite_dir"] = str(suite.resolve())
    assert suite_of_run(write_run(suite / RUNS_DIR / "old.jsonl", [rec])) == suite.resolve()


def test_import_run_names_the_suite_relative_to_the_run(tmp_path, cli):
    here = tmp_path / "here"
    suite = suite_copy(here)
    case = load(suite, TOTAL)
    src = here / "pdfhell.json"
    src.write_text(json.dumps({"model": "m", "cases": [{"case_id": case.id, "model_output": case.expected_answer}]}))
    assert cli("import-run", src, "--suite", suite)[0] == 0
    [rec] = list(iter_records(here / "pdfhell.jsonl"))
    assert rec.extra["suite_dir"] == "suite"
    # Moved together, the run still finds its suite.
    moved = tmp_path / "moved"
    shutil.move(here, moved)
    assert suite_of_run(moved / "pdfhell.jsonl") == (moved / "suite").resolve()
    # A suite outside the run's folder is not named; the warning says how to report it.
    code, _, err = cli("import-run", moved / "pdfhell.json", "--suite", moved / "suite",
                       "--out", moved / "elsewhere" / "r.jsonl")
    assert code == 0 and "give --suite" in err, err
    [rec] = list(iter_records(moved / "elsewhere" / "r.jsonl"))
    assert "suite_dir" not in rec.extra
