"""A run records the suite it was made on by path and hash, so `report RUN.jsonl` and `regrade`
find it wherever the run file went; a suite gone or changed since is one line."""

from __future__ import annotations

import json
import shutil

from tests.support.fixtures import suite_copy


def _run_elsewhere(cli, tmp_path):
    suite = suite_copy(tmp_path)
    out = tmp_path / "elsewhere" / "probe.jsonl"
    out.parent.mkdir()
    code, _, err = cli("run", suite, "--reader", "probe:pymupdf", "--modality", "text", "--out", out, "-q")
    assert code in (0, 1), err
    return suite, out


def test_report_and_regrade_find_the_suite_the_run_records(cli, tmp_path):
    suite, run = _run_elsewhere(cli, tmp_path)
    first = json.loads(run.read_text().splitlines()[0])
    assert first["extra"]["suite_path"] == str(suite.resolve())
    assert first["extra"]["suite_hash"] == json.loads((suite / "suite.json").read_text())["suite_hash"]
    code, out, err = cli("report", run, "--json")
    assert code in (0, 1), err
    assert json.loads(out)["suite"]["folder"] == str(suite.resolve())
    code, out, err = cli("regrade", run)
    assert code == 0 and "0 of 2 verdict(s) flip" in out, err


def test_a_suite_gone_or_changed_since_the_run_is_one_line(cli, tmp_path):
    suite, run = _run_elsewhere(cli, tmp_path)
    moved = tmp_path / "moved"
    shutil.move(suite, moved)
    code, out, err = cli("report", run)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"made on suite 'gold-test' at {suite.resolve()}, which is not there any more" in err
    shutil.move(moved, suite)
    manifest = json.loads((suite / "suite.json").read_text())
    manifest["suite_hash"] = "0" * 64   # as a rebuild with other cases would leave it
    (suite / "suite.json").write_text(json.dumps(manifest))
    code, _, err = cli("report", run)
    assert code == 2 and err.count("\n") == 1 and "has changed since the run" in err and "--suite" in err
    assert cli("report", run, "--suite", suite)[0] in (0, 1)      # naming it grades against it as it is


def test_an_older_run_without_the_path_still_works_with_suite(cli, tmp_path):
    suite, run = _run_elsewhere(cli, tmp_path)
    lines = [json.loads(line) for line in run.read_text().splitlines()]
    for rec in lines:
        rec["extra"].pop("suite_path"), rec["extra"].pop("suite_hash")
    run.write_text("".join(json.dumps(r) + "\n" for r in lines))
    code, _, err = cli("report", run)
    assert code == 2 and "give --suite DIR" in err
    code, out, err = cli("report", run, "--suite", suite, "--json")
    assert code in (0, 1) and json.loads(out)["suite"]["name"] == "gold-test"
