"""One home per concept: one outcome for a record everywhere, one rule for the suite a run
belongs to, one way to ask a reader."""

from __future__ import annotations

import json
import shutil

from tests.fixtures import TOTAL, load, record, suite_copy, write_run
from workbench.core.layout import ASK_RUN, RUNS_DIR, suite_of_run
from workbench.core.runs import RunRecord
from workbench.core.source import open_source
from workbench.gold.regrade import regrade
from workbench.grading import build_report
from workbench.grading.junit import junit_xml
from workbench.grading.outcome import OUTCOMES, outcome_of


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
    # Elsewhere, the records name the suite (as import-run --suite writes them).
    named = record(case, case.expected_answer)
    named.extra["suite_dir"] = str(suite)
    outside = write_run(tmp_path / "elsewhere" / "b.jsonl", [named])
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


def test_resolved_params_arrive_typed_however_they_were_given():
    from workbench.core.make import family_registry

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
