"""Sharded runs: records carry the shard and one run id; `report` of the shards' files is one run,
names the shards missing, and never counts a case twice. The reader is the offline pypdf probe
(a real reader: its answer is the text layer), so no server is needed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.fixtures import SAMPLE

READER = ("--reader", "probe:pypdf", "--jobs", "1")


def _suite(tmp_path: Path) -> Path:
    dest = tmp_path / "suite"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs"))
    return dest


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _shard_runs(cli, suite: Path, n: int, *extra: str) -> list[Path]:
    files = []
    for i in range(1, n + 1):
        code, _, err = cli("run", suite, *READER, "--shard", f"{i}/{n}", *extra)
        assert code in (0, 1), err
        files.append(next(suite.glob(f"runs/*shard{i}of{n}.jsonl")))
    return files


def test_shard_records_carry_the_shard_and_one_run_id(tmp_path, cli):
    suite = _suite(tmp_path)
    files = _shard_runs(cli, suite, 3)
    recs = [r for f in files for r in _records(f)]
    cases = {p.stem for p in suite.glob("*.json") if p.name != "suite.json"}
    assert sorted(r["case_id"] for r in recs) == sorted(cases)  # each case once
    assert {r["shard"] for r in _records(files[1])} == {"2/3"}
    assert len({r["run_id"] for r in recs}) == 1


def test_report_of_the_shards_is_one_run_and_names_a_missing_shard(tmp_path, cli):
    suite = _suite(tmp_path)
    files = _shard_runs(cli, suite, 3)
    total = sum(len(_records(f)) for f in files)
    code, out, err = cli("report", *files, "--json")
    report = json.loads(out)
    assert len(report["runs"]) == 1
    run = report["runs"][0]
    assert run["overall"]["calls"] == total and run["shards"]["missing"] == []
    assert run["label"].endswith("-text") and "shard" not in run["label"]
    code, out, err = cli("report", files[0], files[2])
    assert code == 1
    assert "missing 2/3 (this run is not whole)" in out
    assert "shard 2/3 missing" in err


def test_a_shard_file_given_twice_is_counted_once(tmp_path, cli):
    suite = _suite(tmp_path)
    files = _shard_runs(cli, suite, 2)
    copy = tmp_path / "elsewhere" / files[0].name
    copy.parent.mkdir()
    shutil.copy(files[0], copy)
    code, out, _ = cli("report", *files, copy, "--suite", suite, "--json")
    run = json.loads(out)["runs"][0]
    assert run["overall"]["calls"] == sum(len(_records(f)) for f in files)
    assert run["shards"]["duplicates"] == len(_records(files[0]))
    assert len({c["case_id"] for c in run["cases"]}) == len(run["cases"])
    text = cli("report", *files, copy, "--suite", suite)[1]
    assert f"{len(_records(files[0]))} record(s) of cases already counted" in text


def test_the_next_full_run_gets_a_new_id_and_an_unfinished_one_is_joined(tmp_path, cli):
    suite = _suite(tmp_path)
    first = {r["run_id"] for f in _shard_runs(cli, suite, 2) for r in _records(f)}
    assert len(first) == 1 and first.pop().endswith("-1")
    for f in suite.glob("runs/*.jsonl"):  # keep the first run's files under other names
        f.rename(f.with_name("first-" + f.name))
    # shard 1 of the second run, then (later, another process) shard 2: they agree on "-2"
    code, _, _ = cli("run", suite, *READER, "--shard", "1/2")
    one = next(suite.glob("runs/mini-*shard1of2.jsonl"))
    code, _, _ = cli("run", suite, *READER, "--shard", "2/2")
    two = next(suite.glob("runs/mini-*shard2of2.jsonl"))
    ids = {r["run_id"] for f in (one, two) for r in _records(f)}
    assert len(ids) == 1 and ids.pop().endswith("-2")
    # another reader option is another run
    code, _, _ = cli("run", suite, *READER, "--prompt", "What is asked? Answer briefly.",
                     "--out", suite / "runs" / "other.jsonl")
    assert {r["run_id"] for r in _records(suite / "runs" / "other.jsonl")}.pop().endswith("-1")


def test_run_id_given_to_every_shard(tmp_path, cli):
    suite = _suite(tmp_path)
    files = _shard_runs(cli, suite, 2, "--run-id", "gha-1234")
    assert {r["run_id"] for f in files for r in _records(f)} == {"gha-1234"}
    code, out, err = cli("run", suite, *READER, "--run-id", "../x", "--out", tmp_path / "x.jsonl")
    assert code == 2 and err.count("\n") == 1 and "--run-id" in err
    assert not (tmp_path / "x.jsonl").exists()
    code, _, err = cli("run", suite, *READER, "--shard", "1/2", "--run-id", "other", "--resume")
    assert code == 2 and "holds run gha-1234" in err
