"""Every verdict names the gold version it used; the newest is the default; --gold vN picks
(grade, report, regrade)."""

from __future__ import annotations

import json

from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run
from workbench.gold.disputes import add_dispute, decide


def _suite_at_v2(tmp_path):
    suite = suite_copy(tmp_path)
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "the page prints €1.00", who="ann")
    decide(suite, d.id, "accept", "checked", who="bob")
    case = load(suite, TOTAL)
    run = write_run(suite / "runs" / "r.jsonl", [record(case, "The total is €1.00.")])
    return suite, run


def test_report_grades_against_the_newest_gold_and_says_so(cli, tmp_path):
    suite, run = _suite_at_v2(tmp_path)
    code, out, _ = cli("report", run, "--json")
    doc = json.loads(out)
    assert doc["gold"] == {"version": "v2", "newest": "v2"}
    row = doc["runs"][0]["cases"][0]
    assert (row["gold"], row["outcome"]) == ("v2", "pass")
    code, out, _ = cli("report", run)
    assert "gold v2 (the newest)" in out.splitlines()[1]
    code, out, _ = cli("report", run, "--gold", "v1", "--json")
    doc = json.loads(out)
    row = doc["runs"][0]["cases"][0]
    assert doc["gold"] == {"version": "v1", "newest": "v2"} and (row["gold"], row["outcome"]) == ("v1", "fail")
    code, out, _ = cli("report", run, "--gold", "v1")
    assert "gold v1 (the newest is v2; --gold vN picks)" in out
    code, out, err = cli("report", run, "--gold", "v9")
    assert code == 2 and err.count("\n") == 1 and "v1..v2" in err


def test_grade_uses_the_suites_newest_gold_and_names_it(cli, tmp_path):
    suite, _ = _suite_at_v2(tmp_path)
    case_file = suite / f"{TOTAL}.json"
    code, out, _ = cli("grade", case_file, "--answer", "€1.00")
    assert code == 0 and out.startswith("PASS") and "  gold v2 (the newest)" in out
    code, out, _ = cli("grade", case_file, "--answer", "€1.00", "--gold", "v1", "--json")
    assert code == 1 and json.loads(out)["gold"] == {"version": "v1", "newest": "v2"}


def test_regrade_names_both_versions(cli, tmp_path):
    suite, run = _suite_at_v2(tmp_path)
    code, out, _ = cli("regrade", run)
    assert "gold v1: fail 1" in out and "gold v2: pass 1" in out and "1 of 1 verdict(s) flip from v1 to v2" in out


def test_export_writes_the_newest_gold_keys_and_names_the_version(cli, tmp_path):
    from workbench.grading.export import JSONL_KEYS

    suite, _ = _suite_at_v2(tmp_path)
    code, out, _ = cli("export", suite, "--to", "jsonl", "--out", tmp_path / "hf", "--json")
    assert code == 0 and json.loads(out)["gold"] == {"version": "v2", "newest": "v2"}
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "hf" / JSONL_KEYS).read_text().splitlines())}
    assert rows[TOTAL]["expected_answer"] == "€1.00"
    code, out, _ = cli("export", suite, "--to", "inspect", "--out", tmp_path / "insp", "--gold", "v1")
    assert code == 0 and "keys at gold v1 (the newest is v2" in out
    case = json.loads((tmp_path / "insp" / "cases" / f"{TOTAL}.json").read_text())
    assert case["expected_answer"] == "€13,144.73"
