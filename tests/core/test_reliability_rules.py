"""The smaller reliability rules, each as a user meets it: the gate, two writers of one run file,
--retry-errors, file modes under the umask, malformed specs and run files, make's arguments, and a
suite folder holding cases its suite.json does not list. Runs, lint and verify take --jobs 1: none
of these rules is about processes (tests/core/test_pool.py's), and under pytest-xdist each spawned
worker's imports were most of a test's time."""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from tests.support.hostile_corpus import hostile_run_lines, hostile_specs
from workbench.providers.fakeserver import FakeServer


def _one_line(code: int, err: str, *needles: str, exit_code: int = 2) -> str:
    assert code == exit_code, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def suite(tmp_path) -> Path:
    dest = tmp_path / "suite"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs", ".*"))
    return dest


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key-for-the-fake-server")
    for name, value in {"PDFWORKBENCH_RETRY_BASE": "0.001", "PDFWORKBENCH_RETRY_CAP": "0.005",
                        "PDFWORKBENCH_RETRY_ATTEMPTS": "1"}.items():
        monkeypatch.setenv(name, value)
    return tmp_path


# ---- the gate ------------------------------------------------------------------------------

def test_the_gate_fails_when_too_few_calls_were_scored():
    from workbench.grading.stats import gate_failure

    # 2 of 6 calls finished, both right: a 100% pass rate over scored calls, but 2/6 < 0.9.
    why = gate_failure(passed=2, scored=2, calls=6, threshold=0.9)
    assert why and "only 2 of 6 calls were scored" in why
    assert "pass rate 0.500" in gate_failure(passed=2, scored=4, calls=4, threshold=0.9)
    assert gate_failure(passed=6, scored=6, calls=6, threshold=0.9) is None
    assert gate_failure(passed=0, scored=0, calls=6, threshold=None).startswith("nothing could be scored")
    assert gate_failure(passed=1, scored=2, calls=6, threshold=None) is None


@pytest.mark.slow   # a whole run of the suite over the fake server (page images rendered), then report: 3.3 s CPU in `make test-fast` at load 5 (2 cores)
def test_four_of_six_calls_errored_fails_a_090_gate_in_run_and_report(env, cli, suite, tmp_path):
    with FakeServer() as server:
        code, out, err = cli("run", suite, "--jobs", "1", "--reader", "openai:gpt-4o", "--base-url", server.base_url("openai"),
                             "--out", tmp_path / "g.jsonl")
    assert code in (0, 1), err
    # Six calls: two right answers, four provider errors (as a flaky endpoint gives).
    records = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()][:6]
    for r in records[:2]:
        r["answer"] = json.loads((suite / f"{r['case_id']}.json").read_text())["expected_answer"]
        r["status"] = "ok"
    for r in records[2:]:
        r.update(status="error", answer=None, error={"type": "http_500", "message": "x", "http_status": 500})
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = cli("report", mixed, "--suite", suite, "--fail-threshold", "0.9")
    assert code == 1 and "only 2 of 6 calls were scored" in err, err
    code, out, err = cli("report", mixed, "--suite", suite)
    assert code == 0, err                                # scored something, no threshold: passes
    with FakeServer() as server:
        code, out, err = cli("run", suite, "--jobs", "1", "--reader", "openai:fake+400xall", "--base-url",
                             server.base_url("openai"), "--out", tmp_path / "e.jsonl")
    assert code == 1 and "gate failed: nothing could be scored" in err


# ---- two writers, --retry-errors -------------------------------------------------------------

def test_a_second_run_into_the_same_file_is_refused_at_once(env, cli, suite, tmp_path):
    from workbench.core import atomic

    out = tmp_path / "r.jsonl"
    with atomic.file_lock(atomic.lock_path_for(out), "test"):   # as a first `run` holds it
        code, _, err = cli("run", suite, "--jobs", "1", "--reader", "probe:pymupdf", "--out", out, "--resume")
    _one_line(code, err, "being written by another process")
    assert not out.exists()
    code, _, err = cli("run", suite, "--jobs", "1", "--reader", "probe:pymupdf", "--out", out)
    assert code == 0, err


@pytest.mark.slow   # three runs of the suite over the fake server: 2.9 s CPU in `make test-fast` at load 5 (2 cores)
def test_resume_with_retry_errors_asks_the_failed_cases_again_once(env, cli, suite, tmp_path):
    out = tmp_path / "r.jsonl"
    with FakeServer() as server:
        url = server.base_url("openai")
        code, _, err = cli("run", suite, "--jobs", "1", "--reader", "openai:fake+500xall", "--base-url", url, "--out", out)
        assert code == 1
        failed = [json.loads(line) for line in out.read_text().splitlines()]
        assert failed and all(r["status"] == "error" for r in failed)
        code, _, err = cli("run", suite, "--jobs", "1", "--reader", "openai:fake+500xall", "--base-url", url, "--out", out,
                           "--resume")
        assert "0 new calls" in err                     # plain --resume keeps the errors
        code, _, err = cli("run", suite, "--jobs", "1", "--reader", "openai:fake+500xall", "--base-url", url, "--out", out,
                           "--resume", "--retry-errors")
        assert f"{len(failed)} new calls" in err
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(again) == len(failed)                    # one record per case, not two
    assert len({r["case_id"] for r in again}) == len(again)
    code, _, err = cli("run", suite, "--jobs", "1", "--reader", "probe:pymupdf", "--out", tmp_path / "x.jsonl", "--retry-errors")
    _one_line(code, err, "--retry-errors goes with --resume")


def test_files_made_by_make_and_build_follow_the_umask(tmp_path, run_cli_subprocess):
    spec = tmp_path / "s.toml"
    spec.write_text('[[families]]\nname = "footnote_override"\nseeds = 1\n')
    old = os.umask(0o022)
    try:
        r = run_cli_subprocess("build", spec, "--out", tmp_path / "b")
        assert r.returncode == 0, r.stderr
        r = run_cli_subprocess("make", "footnote_override", "--seed", "2", "--out", tmp_path / "m")
        assert r.returncode == 0, r.stderr
    finally:
        os.umask(old)
    made = [*(tmp_path / "b").glob("*.*"), *(tmp_path / "m").glob("*.*")]
    assert len(made) >= 5
    for p in made:
        assert stat.S_IMODE(p.stat().st_mode) == 0o644, p


# ---- malformed specs, run files and make arguments ------------------------------------------

SPEC_FIELD = {
    "spec-params-string": "'params'", "spec-degrade-list": "'degrade'", "spec-tiers-int": "'tiers'",
    "spec-seeds-huge-range": "limit", "spec-seeds-empty": "empty", "spec-seeds-negative": "between 0",
    "spec-unknown-key": "'seedz'", "spec-unknown-top-key": "'nmae'", "spec-families-string": "'families'",
    "spec-name-int": "'name'", "spec-dpi-zero": "dpi", "spec-non-utf8": "UTF-8",
}


@pytest.mark.parametrize("name", sorted(hostile_specs()))
def test_a_malformed_spec_is_one_line_naming_the_field(name, cli, tmp_path):
    spec = tmp_path / f"{name}.toml"
    spec.write_bytes(hostile_specs()[name].encode("utf-8", "surrogateescape"))
    code, _, err = cli("build", spec, "--out", tmp_path / "out")
    _one_line(code, err, SPEC_FIELD[name])
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", sorted(hostile_run_lines()))
def test_a_malformed_run_file_is_one_line(name, cli, tmp_path):
    run = tmp_path / f"{name}.jsonl"
    run.write_bytes(hostile_run_lines()[name])
    code, _, err = cli("report", run, "--suite", SAMPLE)
    _one_line(code, err, str(run))


@pytest.mark.parametrize("argv, needle", [
    (["--dpi", "0"], "dpi"),
    (["--seed", "-3"], "seed"),
    (["--id", "../../escaped"], "--id"),
    (["--id", ".hidden"], "--id"),
])
def test_make_refuses_bad_arguments_in_one_line(argv, needle, cli, tmp_path):
    code, _, err = cli("make", "footnote_override", *argv, "--out", tmp_path / "a" / "b")
    _one_line(code, err, needle)
    assert not any(tmp_path.rglob("*.pdf"))


def test_make_out_that_is_a_file_or_under_one_is_one_line(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = cli("make", "footnote_override", "--out", blocker)
    _one_line(code, err, "not a folder")
    code, _, err = cli("make", "footnote_override", "--out", blocker / "sub")
    _one_line(code, err, "--out")
    spec = tmp_path / "s.toml"
    spec.write_text('[[families]]\nname = "footnote_override"\nseeds = 1\n')
    code, _, err = cli("build", spec, "--out", blocker)
    _one_line(code, err, "not a folder")


@pytest.mark.slow
def test_cases_the_suite_json_does_not_list_are_named_by_lint_and_verify(cli, suite):
    manifest = json.loads((suite / "suite.json").read_text())
    dropped = manifest["cases"].pop()
    (suite / "suite.json").write_text(json.dumps(manifest))
    code, out, _ = cli("lint", suite, "--jobs", "1")   # (one process: a spawned worker's imports are most of it)
    assert code == 1 and f"{dropped['id']}.json is in the folder but not in suite.json" in out
    code, out, _ = cli("verify", suite, "--jobs", "1")
    assert code == 1 and f"{dropped['id']}.json is in the folder but not in suite.json" in out


def test_the_lock_module_imports_nothing_posix_only():
    import subprocess

    code = ("import sys; import workbench.core.atomic; "
            "print(sorted(m for m in ('fcntl', 'termios', 'pwd', 'grp') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_huge_answer_from_a_run_file_is_graded_on_its_first_megabyte(cli, tmp_path):
    from workbench.core.case import load_case
    from workbench.grading import grade

    case = load_case(SAMPLE / "footnote_override-0001.json")
    huge = case.expected_answer + " " + "x" * 50_000_000
    assert grade(case, huge).correct                     # no MemoryError, the answer is at the start
    from workbench.tui.widgets.answers import highlighted_answer

    shown = highlighted_answer(huge, None)
    assert len(shown.plain) < 30_000 and "more characters not shown" in shown.plain
