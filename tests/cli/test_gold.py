"""The gold commands, end to end on a copy of the shipped extraction sample (real probe runs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import load
from workbench.core.runs import iter_records

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "extraction"


@pytest.fixture
def sample(tmp_path):
    dest = tmp_path / "extraction"
    shutil.copytree(SAMPLE, dest)
    return dest


def test_the_shipped_sample_has_structured_gold_probe_runs_and_open_disputes(cli):
    code, out, _ = cli("dispute", "list", SAMPLE, "--status", "open", "--json")
    assert code == 0
    listed = json.loads(out)
    assert listed["progress"]["open"] == listed["progress"]["total"] >= 3
    assert listed["disputes"][0]["impact"] >= 1          # the most consequential one comes first
    readers = {r.reader for p in sorted((SAMPLE / "runs").glob("*.jsonl")) for r in iter_records(p)}
    assert {"probe:pymupdf", "probe:pypdf"} <= readers
    assert all(r.provenance == "observed" for p in (SAMPLE / "runs").glob("*.jsonl") for r in iter_records(p))
    case = json.loads(next(SAMPLE.glob("invoice_extraction-*.json")).read_text())
    assert case["matcher"]["type"] == "fields" and {"schema", "expected", "evidence"} <= set(case["gold"])
    assert (SAMPLE / "spec.toml").exists()
    code, out, _ = cli("audit-hints", SAMPLE)
    assert code == 0 and "0 hint(s)" in out


def test_a_triage_session_from_the_command_line(cli, sample, tmp_path):
    code, out, _ = cli("dispute", "list", sample, "--json")
    # The first whose accepting leaves a key that does not forbid its own answer (see
    # test_accepting_a_forbidden_answer_is_refused for the others).
    first = next(d for d in json.loads(out)["disputes"] if d["proposed"] not in load(sample, d["case_id"]).forbidden_answers
                 and d["proposed"] not in json.dumps(load(sample, d["case_id"]).forbidden_answers))
    code, out, _ = cli("dispute", "show", sample, first["id"], "--json")
    shown = json.loads(out)
    assert code == 0 and shown["impact"] == len(shown["flips"]) == first["impact"]
    assert shown["highlight"]["page"] == 1 and shown["highlight"]["hits"]

    code, out, err = cli("dispute", "decide", sample, first["id"], "--accept", "--rationale", "")
    assert code == 2 and "rationale" in err and out == ""
    code, out, _ = cli("dispute", "decide", sample, first["id"], "--accept", "--rationale", "checked", "--who", "ann")
    assert code == 0 and "gold is now v2" in out and "1 of" in out

    code, out, _ = cli("regrade", sample / "runs" / "probe-pymupdf.jsonl", sample / "runs" / "probe-pypdf.jsonl",
                       "--gold", "v2", "--against", "v1", "--json")
    result = json.loads(out)
    flipped = {(f["case_id"], f["reader"], f["before"], f["after"]) for f in result["flips"]}
    assert flipped == {(f["case_id"], f["reader"], f["before"], f["after"]) for f in shown["flips"]}
    # The suite is found from the runs/ folder the run sits in.
    code, out, _ = cli("regrade", sample / "runs" / "probe-pymupdf.jsonl")
    assert code == 0 and "from v1 to v2" in out

    code, out, _ = cli("gold", "export", sample, "--version", "v1", "--out", tmp_path / "v1.json")
    assert code == 0
    v1 = json.loads((tmp_path / "v1.json").read_text())
    code, out, _ = cli("gold", "export", sample)
    latest = json.loads(out)
    assert (v1["version"], latest["version"]) == ("v1", "v2")
    assert latest["applied"] == [first["id"]]
    changed = [cid for cid in v1["keys"] if v1["keys"][cid] != latest["keys"][cid]]
    assert changed == [first["case_id"]]


def test_dispute_add_and_its_errors(cli, sample, capsys):
    case = next(sample.glob("invoice_extraction-*.json")).stem
    code, out, _ = cli("dispute", "add", sample, "--case", case, "--field", "invoice.total", "--proposed", "1.5",
                       "--page", "1", "--box", "10,10,50,20", "--quote", "TOTAL", "--rationale", "why", "--json")
    d = json.loads(out)
    assert code == 0 and d["proposed"] == 1.5 and d["status"] == "open"      # a number stays a number
    code, _, err = cli("dispute", "add", sample, "--case", case, "--field", "invoice.nope[2]", "--proposed", "x",
                       "--rationale", "why")
    assert code == 2 and err.count("\n") == 1 and "invoice.nope" in err
    code, _, err = cli("dispute", "show", sample, "d9999")
    assert code == 2 and "no dispute 'd9999'" in err
    code, _, err = cli("regrade", sample / "runs" / "probe-pymupdf.jsonl", "--gold", "v9")
    assert code == 2 and "does not exist" in err
    with pytest.raises(SystemExit) as exit_info:       # argparse: a decision is required
        cli("dispute", "decide", sample, d["id"], "--rationale", "x")
    assert exit_info.value.code == 2
    assert "one of the arguments --accept --reject --defer is required" in capsys.readouterr().err


# ---- each command of workbench/cli/gold.py: exit code and --json on good input and on bad ----


def test_dispute_add_list_show_decide_json_on_a_fresh_suite(command, work):
    from tests.support.cli import printed_json
    from tests.support.fixtures import TOTAL, suite_copy

    suite = suite_copy(work)
    added = printed_json(command("dispute", "add", suite, "--case", TOTAL, "--field", "expected_answer",
                                 "--proposed", "€1.00", "--rationale", "the page says so", "--json"))
    listed = printed_json(command("dispute", "list", suite, "--json"))
    assert [d["id"] for d in listed["disputes"]] == [added["id"]] and listed["progress"]["open"] == 1
    shown = printed_json(command("dispute", "show", suite, added["id"], "--json"))
    assert shown["proposed"] == "€1.00"
    decided = printed_json(command("dispute", "decide", suite, added["id"], "--reject", "--rationale", "no",
                                   "--json"))
    assert decided["status"] == "rejected"
    versions = printed_json(command("gold", "versions", suite, "--json"))
    assert [v["version"] for v in versions] == ["v1"]      # a rejected dispute makes no new gold


def test_gold_export_regrade_and_audit_hints_on_a_fresh_suite(command, work):
    from tests.support.cli import printed_json
    from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run

    suite = suite_copy(work)
    exported = printed_json(command("gold", "export", suite))        # gold export prints JSON as it is
    assert exported["version"] == "v1" and TOTAL in exported["keys"]
    case = load(suite, TOTAL)
    run = write_run(suite / "runs" / "r.jsonl", [record(case, case.expected_answer)])
    regraded = printed_json(command("regrade", run, "--json"))
    assert regraded["records"] == 1 and regraded["flips"] == []
    assert printed_json(command("audit-hints", suite, "--json")) == []


def test_gold_commands_refuse_bad_input_in_one_line(command, work):
    from tests.support.cli import refused
    from tests.support.fixtures import TOTAL, suite_copy

    suite = suite_copy(work)
    refused(command("dispute", "add", suite, "--case", "nosuch", "--field", "expected_answer", "--proposed", "x",
                    "--rationale", "r", "--json"), "no case 'nosuch'")
    refused(command("dispute", "add", suite, "--case", TOTAL, "--field", "expected_answer", "--proposed", "x",
                    "--json"), "--rationale")
    refused(command("dispute", "show", suite, "d1", "--json"), "no dispute 'd1'")
    refused(command("dispute", "decide", suite, "d1", "--accept", "--rationale", "r", "--json"), "no dispute 'd1'")
    refused(command("dispute", "list", suite, "--status", "lost", "--json"), "--status")
    refused(command("gold", "export", "missing"), "not a folder")
    refused(command("gold", "export", suite, "--version", "v7"), "v7")
    refused(command("regrade", "missing.jsonl", "--json"), "missing.jsonl: no such file")
    refused(command("audit-hints", "missing", "--json"), "not a folder")
    assert not (suite / "disputes.jsonl").exists()


@pytest.mark.parametrize("argv", [("dispute", "list"), ("gold", "versions")], ids=" ".join)
def test_dispute_list_and_gold_versions_refuse_a_missing_suite(command, work, argv):
    from tests.support.cli import refused

    refused(command(*argv, "missing", "--json"), "not a folder")
