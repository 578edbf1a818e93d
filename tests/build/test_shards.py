"""Sharded builds into one folder: n processes at once leave one whole suite.json; a missing or
interrupted shard is named by verify; a bad spec writes nothing; cases stream to disk."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SPEC = """
name = "shards"
version = "1"

[[families]]
name = "tiny_print_override"
seeds = "1..6"

[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..4"

[[families]]
name = "footnote_override"
seeds = "1..2"
"""


def _wb(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "workbench", *map(str, argv)], capture_output=True,
                          text=True, timeout=300, **kw)


def _spec(tmp_path: Path, text: str = SPEC) -> Path:
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    return spec


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "suite.json").read_text())


@pytest.mark.slow   # four builds in processes: 9 s at load 15
def test_four_shard_builds_at_once_leave_one_suite_that_verifies_whole(tmp_path):
    spec = _spec(tmp_path)
    whole = tmp_path / "whole"
    assert _wb("build", spec, "--out", whole, "--jobs", "1").returncode == 0
    out = tmp_path / "sharded"
    procs = [subprocess.Popen([sys.executable, "-m", "workbench", "build", str(spec), "--out", str(out),
                               "--shard", f"{i}/4", "--jobs", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(1, 5)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    manifest = _manifest(out)
    assert len(manifest["cases"]) == 12
    assert manifest["build"]["complete"] == [1, 2, 3, 4] and manifest["build"]["missing"] == []
    # the same suite as one unsharded build: same cases, same hash
    assert manifest["suite_hash"] == _manifest(whole)["suite_hash"]
    assert [e["id"] for e in manifest["cases"]] == [e["id"] for e in _manifest(whole)["cases"]]
    done = _wb("verify", out)
    assert done.returncode == 0, done.stdout
    assert "12 of 12 match" in done.stdout
    assert not (whole / ".build").exists()  # an unsharded build leaves no shard manifests


def test_a_missing_shard_is_named_by_verify_and_merge_suite(tmp_path, cli):
    spec = _spec(tmp_path)
    out = tmp_path / "suite"
    for i in (1, 3):
        assert cli("build", spec, "--out", out, "--shard", f"{i}/3", "--jobs", "1")[0] == 0
    code, stdout, _ = cli("verify", out, "--jobs", "1")
    assert code == 1
    assert "shard 2/3 of this build is missing" in stdout
    assert "8 of 9 match" in stdout     # the 8 cases of shards 1 and 3 match; suite.json does not
    code, stdout, err = cli("merge-suite", out)
    assert code == 1 and "merged 8 of 12 cases from 2 of 3 shard(s)" in stdout
    assert "shard 2/3" in err
    assert cli("build", spec, "--out", out, "--shard", "2/3", "--jobs", "1")[0] == 0
    code, stdout, _ = cli("verify", out, "--jobs", "1")
    assert code == 0 and "12 of 12 match" in stdout


def test_merge_suite_on_a_folder_without_shard_manifests_is_one_line(tmp_path, cli):
    (tmp_path / "empty").mkdir()
    code, out, err = cli("merge-suite", tmp_path / "empty")
    assert code == 2 and "no shard manifests" in err and err.count("\n") == 1
    assert not (tmp_path / "empty" / "suite.json").exists()


def test_a_rebuild_with_another_spec_drops_the_stale_shards(tmp_path, cli):
    out = tmp_path / "suite"
    for i in (1, 2):
        cli("build", _spec(tmp_path), "--out", out, "--shard", f"{i}/2", "--jobs", "1")
    other = _spec(tmp_path, SPEC.replace('"1..6"', '"1..3"'))
    assert cli("build", other, "--out", out, "--shard", "1/2", "--jobs", "1")[0] == 0
    build = _manifest(out)["build"]
    assert build["complete"] == [1] and build["missing"] == [2] and build["cases"] == 9
    assert sorted(p.name for p in (out / ".build").iterdir()) == ["shard-1of2.jsonl"]


def test_bad_spec_is_one_line_and_writes_nothing(tmp_path, cli):
    cases = {
        "unknown family in the second table": SPEC.replace('name = "hidden_ocr_mismatch"', 'name = "nope"'),
        "a parameter out of its range": SPEC.replace('seeds = "1..2"', 'seeds = "1..2"\nparams = { nope = 1 }'),
        "the same case twice": SPEC + '\n[[families]]\nname = "footnote_override"\nseeds = [2]\n',
    }
    for why, text in cases.items():
        out = tmp_path / why.replace(" ", "_")
        code, stdout, err = cli("build", _spec(tmp_path, text), "--out", out)
        assert code == 2, why
        assert err.count("\n") == 1 and "Traceback" not in err, (why, err)
        assert not out.exists(), why
    assert "#2" in cli("build", _spec(tmp_path, cases["unknown family in the second table"]),
                       "--out", tmp_path / "x")[2]
    err = cli("build", _spec(tmp_path, cases["the same case twice"]), "--out", tmp_path / "y")[2]
    assert "same case twice" in err and "footnote_override seed 2 (#3 and #4)" in err


@pytest.mark.slow   # a build killed mid-write: 16 s at load 15
def test_a_killed_build_leaves_a_suite_json_of_complete_cases_only(tmp_path):
    spec = _spec(tmp_path, 'name = "big"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = "1..400"\n'
                           'tier = "mild"\n')
    out = tmp_path / "suite"
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "build", str(spec), "--out", str(out),
                             "--jobs", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shard_file = out / ".build" / "shard-1of1.jsonl"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:  # kill it once a few cases are on disk
            if shard_file.exists() and shard_file.read_text().count("\n") >= 6:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    listed = _manifest(out)["cases"]
    for e in listed:  # everything suite.json lists is whole: both files, hashes as recorded
        assert (out / e["pdf"]).exists() and json.loads((out / e["json"]).read_text())["id"] == e["id"]
    merged = _wb("merge-suite", out)
    assert merged.returncode == 1 and "shard 1/1 is incomplete" in merged.stderr
    after = _manifest(out)["cases"]
    assert len(after) >= 5 and {e["id"] for e in listed} <= {e["id"] for e in after}
    checked = _wb("verify", out, "--jobs", "1")
    assert checked.returncode == 1 and "shard 1/1 is incomplete" in checked.stdout
    assert f"{len(after)} of {len(after) + 1} match" in checked.stdout


def test_adding_a_case_to_a_sharded_suite_keeps_its_shard_record(tmp_path, cli):
    spec = _spec(tmp_path)
    out = tmp_path / "suite"
    cli("build", spec, "--out", out, "--shard", "1/2", "--jobs", "1")
    assert cli("make", "footnote_override", "--seed", "9", "--into", out)[0] == 0
    code, stdout, _ = cli("verify", out, "--jobs", "1")
    assert code == 1 and "shard 2/2 of this build is missing" in stdout
