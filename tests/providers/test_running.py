"""`pdfworkbench run`, `ask`, `readers` and `fake-server` from the command line, and the probes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.cli import ctrl_c
from tests.support.fixtures import built_suite
from workbench.providers.fakeserver import FakeServer

PLANTED = "sk-test-PLANTED-c0ffee1234567890deadbeef5678abcd"
SPEC = """name = "mini"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..6"
params = { hidden_change_pct = 40.0 }
"""


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("suite"), SPEC, "mini")


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_CAP", "0.02")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    return tmp_path


@pytest.fixture
def scripted(cases):
    """The fake provider answering each PDF with its case's expected answer."""
    with FakeServer(script={c.sha256: c.expected_answer for c in cases}) as server:
        yield server

# The runs here take --jobs 1 (a pool spawns under pytest-xdist: ~0.5 s CPU of imports a worker):
# they are about records, resume, caches, shards and gates; a run's local work on two processes is
# tests/core/test_pool.py's, and the planted key's runs keep every core's default.


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_run_writes_a_record_per_case_and_the_report(env, cli, suite_dir, scripted, cases):
    out = env / "run.jsonl"
    code, stdout, err = cli("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--workers", "3",
                            "--base-url", scripted.base_url("openai"), "--out", out,
                            "--junit", env / "junit.xml", "--fail-threshold", "0")
    assert code == 0, err
    recs = records(out)
    assert sorted(r["case_id"] for r in recs) == sorted(c.id for c in cases)
    assert {r["status"] for r in recs} == {"ok"} and len({r["run_id"] for r in recs}) == 1
    assert all(r["suite"] == "mini" and r["reader"] == "openai:gpt-4o" for r in recs)
    assert "pass 6/6" in stdout
    assert "6/6 done" in err and "0 errors" in err and "tokens" in err
    junit = (env / "junit.xml").read_text()
    assert junit.count("<testcase") == 6 and "<failure" not in junit


def test_fail_threshold_fails_the_build(env, cli, suite_dir, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with FakeServer() as server:  # answers with the text layer: the hidden, wrong total
        args = ("run", suite_dir, "--jobs", "1", "--reader", "anthropic:claude", "--modality", "text",
                "--base-url", server.url, "--fail-threshold", "0.5")
        code, stdout, err = cli(*args)
        assert code == 2 and "set ANTHROPIC_API_KEY" in err and not list(env.rglob("*.jsonl"))
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-" + "b" * 30)
        code, stdout, err = cli(*args)
    assert code == 1 and "fell for the trap" in stdout and "--fail-threshold" in err


def test_errors_are_counted_apart_not_as_wrong_answers(env, cli, suite_dir):
    with FakeServer() as server:
        code, stdout, err = cli("run", suite_dir, "--jobs", "1", "--reader", "openai:fake+400xall", "--json",
                                "--base-url", server.base_url("openai"), "--out", env / "r.jsonl")
    assert code == 1 and "gate failed: nothing could be scored" in err  # scored nothing: never green
    report = json.loads(stdout)
    overall = report["runs"][0]["overall"]
    assert overall["execution"]["errored"] == 6 and overall["scored"] == 0 and overall["failed"] == 0
    assert "6 errors" in err
    assert {r["error"]["http_status"] for r in records(env / "r.jsonl")} == {400}


def test_shards_cover_each_case_exactly_once(env, cli, suite_dir, scripted, cases):
    seen = []
    for i in (1, 2, 3, 4):
        out = env / f"shard{i}.jsonl"
        code, _, err = cli("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--shard", f"{i}/4",
                           "--base-url", scripted.base_url("openai"), "--out", out)
        assert code == 0, err
        seen += [r["case_id"] for r in records(out)]
    assert sorted(seen) == sorted(c.id for c in cases)
    assert len(scripted.requests) == len(cases)


def test_an_existing_run_file_needs_resume(env, cli, suite_dir, scripted):
    out = env / "run.jsonl"
    args = ("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--base-url", scripted.base_url("openai"),
            "--out", out)
    assert cli(*args)[0] == 0
    code, _, err = cli(*args)
    assert code == 2 and "--resume" in err
    code, _, err = cli(*args, "--resume")
    assert code == 0 and "0 new calls, 6 from before" in err
    assert len(records(out)) == 6


def test_ctrl_c_leaves_a_run_that_resume_completes(env, cli, suite_dir, cases):
    out = env / "run.jsonl"
    child_env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with FakeServer(latency_s=0.25, script={c.sha256: c.expected_answer for c in cases}) as server:
        proc = subprocess.Popen(
            [sys.executable, "-m", "workbench", "run", str(suite_dir), "--reader", "openai:gpt-4o",
             "--workers", "1", "--base-url", server.base_url("openai"), "--out", str(out)],
            env=child_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or len(records(out)) < 2):
            time.sleep(0.02)
        code, err = ctrl_c(proc)
        assert code == 130, err
        assert "--resume" in err and "Traceback" not in err
        before = records(out)  # every line is a whole record
        assert 2 <= len(before) < len(cases)
        served = len(server.requests)

        code, stdout, err = cli("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--resume",
                                "--base-url", server.base_url("openai"), "--out", out)
        assert code == 0, err
        after = records(out)
        assert sorted(r["case_id"] for r in after) == sorted(c.id for c in cases)  # each exactly once
        assert len(server.requests) - served == len(cases) - len(before)  # no finished call repeated
        assert f"{len(cases) - len(before)} new calls, {len(before)} from before" in err
        assert "pass 6/6" in stdout


def test_resume_after_a_crash_mid_write(env, cli, suite_dir, scripted, cases):
    out = env / "run.jsonl"
    args = ("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--base-url", scripted.base_url("openai"),
            "--out", out, "--no-cache")
    assert cli(*args)[0] == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])  # two records and a torn third
    scripted.requests.clear()
    code, stdout, err = cli(*args, "--resume")
    assert code == 0, err
    assert sorted(r["case_id"] for r in records(out)) == sorted(c.id for c in cases)
    assert len(scripted.requests) == len(cases) - 2


def test_the_cache_makes_a_rerun_free_and_no_cache_bypasses_it(env, cli, suite_dir, scripted):
    base = ("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o", "--base-url", scripted.base_url("openai"))
    assert cli(*base, "--out", env / "a.jsonl")[0] == 0
    assert cli(*base, "--out", env / "b.jsonl")[0] == 0
    assert len(scripted.requests) == 6
    assert all(r["extra"].get("cached") for r in records(env / "b.jsonl"))
    assert cli(*base, "--out", env / "c.jsonl", "--no-cache")[0] == 0
    assert len(scripted.requests) == 12


@pytest.mark.slow
def test_a_planted_key_appears_nowhere(env, cli, suite_dir, cases, run_cli_subprocess):
    with FakeServer(faults="") as server:
        outputs = [
            cli("run", suite_dir, "--reader", "openai:fake+401xall", "--base-url", server.base_url("openai"),
                "--out", env / "bad.jsonl", "--junit", env / "bad.xml"),
            cli("run", suite_dir, "--reader", "openai:gpt-4o", "--modality", "pixels", "--dpi", "50",
                "--base-url", server.base_url("openai"), "--out", env / "good.jsonl"),
            cli("ask", cases[0].json_path, "--reader", "openai:fake+401", "--json",
                "--base-url", server.base_url("openai")),
            cli("ask", cases[0].json_path, "--reader", "openai:gpt-4o", "--modality", "text",
                "--base-url", server.base_url("openai")),
        ]
        child = run_cli_subprocess("ask", cases[1].json_path, "--reader", "openai:fake+401",
                                   "--base-url", server.base_url("openai"))
        assert any(r["headers"].get("authorization") == f"Bearer {PLANTED}" for r in server.requests)
    assert "[redacted]" in outputs[2][1] and child.returncode == 1 and "401" in child.stderr
    texts = [o for code, out, err in outputs for o in (out, err)] + [child.stdout, child.stderr]
    files = [p for p in env.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in files) and any("cache" in p.parts for p in files)
    texts += [p.read_bytes().decode("utf-8", "replace") for p in files]
    for fragment in (PLANTED, PLANTED[:16], PLANTED[-12:]):
        assert not any(fragment in t for t in texts), fragment


def test_ask_records_one_call(env, cli, cases, scripted):
    code, out, err = cli("ask", cases[0].json_path, "--reader", "openai:gpt-4o",
                         "--base-url", scripted.base_url("openai"), "--out", env / "asks.jsonl")
    assert code == 0 and out.strip() == cases[0].expected_answer and "ok in" in err
    code, out, err = cli("ask", cases[0].json_path, "--reader", "openai:gpt-4o", "--json",
                         "--base-url", scripted.base_url("openai"), "--out", env / "asks.jsonl")
    assert code == 0 and json.loads(out)["extra"]["cached"] is True and "(cached)" in err
    assert len(records(env / "asks.jsonl")) == 2 and len(scripted.requests) == 1
    code, out, err = cli("ask", cases[0].json_path, "--reader", "openai:fake+truncated",
                         "--base-url", scripted.base_url("openai"), "--out", env / "asks.jsonl")
    assert code == 1 and "truncated" in err


# ---- probes -------------------------------------------------------------------------------------

@pytest.mark.parametrize("probe", ["pypdf", "pymupdf"])
def test_probes_read_the_hidden_text_layer(env, cli, suite_dir, cases, probe, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")  # probes need no key and no network
    out = env / f"{probe}.jsonl"
    code, stdout, err = cli("run", suite_dir, "--jobs", "1", "--reader", f"probe:{probe}", "--out", out)
    assert code == 0, err
    by_id = {r["case_id"]: r for r in records(out)}
    assert set(by_id) == {c.id for c in cases}
    for case in cases:
        rec = by_id[case.id]
        assert rec["provenance"] == "observed" and rec["modality"] == "text" and rec["status"] == "ok"
        # The printed total is pixels only; the text layer holds the hidden wrong total.
        assert case.forbidden_answers[0] in rec["answer"] and case.expected_answer not in rec["answer"]
    assert "fell for trap 6/6" in stdout


def test_ocr_probe_names_the_extra_when_missing(env, suite_dir):
    # As on a machine without the extra: the import fails, the run refuses before any call.
    out = env / "ocr.jsonl"
    code = ("import sys; sys.modules['rapidocr'] = None; from workbench.cli import main; "
            f"sys.exit(main(['run', {str(suite_dir)!r}, '--reader', 'probe:ocr', '--out', {str(out)!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "pdfworkbench[ocr]" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.slow   # OCR probe: 28 s at load 13
def test_ocr_probe_reads_the_pixels_not_the_text_layer(env, cli, cases):
    """rapidocr 3 with its bundled models (the `ocr` extra, which `make test` installs), offline."""
    pytest.importorskip("rapidocr")
    pytest.importorskip("onnxruntime")
    case = next(c for c in cases if c.trap_family == "hidden_ocr_mismatch")
    code, out, err = cli("ask", case.json_path, "--reader", "probe:ocr", "--dpi", "100",
                         "--out", env / "ocr.jsonl", "--json")
    assert code == 0, err
    rec = json.loads(out)
    assert rec["modality"] == "pixels" and rec["dpi"] == 100 and rec["status"] == "ok"
    # The printed total is on the page; the wrong total hides in the text layer only.
    amount = lambda s: s.replace(",", "").lstrip("$€£")  # noqa: E731
    assert amount(case.expected_answer) in amount(rec["answer"])
    assert amount(case.forbidden_answers[0]) not in amount(rec["answer"])


def test_readers_lists_probes_and_key_state(env, cli, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, out, _ = cli("readers", "--json")
    rows = {r["reader"]: r for r in json.loads(out)}
    assert rows["probe:pymupdf"]["ready"] and rows["openai:gpt-4o"]["ready"]
    assert not rows["anthropic:claude-sonnet-4-5"]["ready"]
    assert rows["anthropic:claude-sonnet-4-5"]["key_env"] == ["ANTHROPIC_API_KEY"]
    assert PLANTED not in out


def test_fake_server_command_serves_on_loopback(env, tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "fake-server", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        url = line.split(" on ", 1)[1].split()[0]
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "/health", timeout=10) as resp:
            assert json.loads(resp.read())["ok"] is True
    finally:
        code, _ = ctrl_c(proc, timeout=10)
    assert code == 0


def test_probes_on_the_shipped_sample_suite(env, cli, monkeypatch):
    sample = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
    if not (sample / "suite.json").exists():
        pytest.skip("no shipped sample suite")
    monkeypatch.delenv("OPENAI_API_KEY")
    for probe in ("pypdf", "pymupdf"):
        out = env / f"sample-{probe}.jsonl"
        code, stdout, err = cli("run", sample, "--jobs", "1", "--reader", f"probe:{probe}", "--out", out, "--json")
        assert code == 0, err
        recs = records(out)
        assert recs and all(r["status"] == "ok" and r["provenance"] == "observed" for r in recs)
        overall = json.loads(stdout)["runs"][0]["overall"]
        assert overall["calls"] == len(recs) and overall["fell_for_trap"] >= 1


def test_run_without_out_writes_into_the_suite_where_the_workbench_finds_it(env, cli, suite_dir):
    from workbench.core.layout import run_files

    code, _, err = cli("run", suite_dir, "--jobs", "1", "--reader", "probe:pypdf")
    assert code == 0, err
    [run] = [p for p in run_files(suite_dir) if "probe-pypdf" in p.name]
    assert run.parent == suite_dir / "runs"
    code, stdout, _ = cli("report", run)  # finds the suite on its own
    assert code == 0 and "run mini-probe-pypdf-text" in stdout and "6 finished" in stdout


def test_fail_threshold_never_counts_provider_errors_as_wrong(env, cli, suite_dir):
    with FakeServer() as server:
        code, _, err = cli("run", suite_dir, "--jobs", "1", "--reader", "openai:gpt-4o+500xall", "--modality", "text",
                           "--base-url", server.base_url("openai"), "--fail-threshold", "0.1")
    # Every call failed: nothing could be scored, which is below any threshold, and says so.
    assert code == 1 and "nothing could be scored" in err


def test_readers_says_what_is_missing_and_where_the_base_url_comes_from(env, cli, monkeypatch):
    monkeypatch.delenv("OPENAI_COMPATIBLE_BASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    code, out, _ = cli("readers")
    line = next(ln for ln in out.splitlines() if ln.startswith("openai-compatible:"))
    assert "missing: set OPENAI_COMPATIBLE_BASE_URL" in line and "readers.toml" in line
    assert "missing: set ANTHROPIC_API_KEY" in next(ln for ln in out.splitlines() if ln.startswith("anthropic:"))
    monkeypatch.setenv("OPENAI_COMPATIBLE_BASE_URL", "http://127.0.0.1:9999")
    code, out, _ = cli("readers", "--json")
    row = {r["reader"]: r for r in json.loads(out)}["openai-compatible:local-model"]
    assert row["ready"] and row["base_url"] == "http://127.0.0.1:9999"
    assert row["base_url_from"] == "OPENAI_COMPATIBLE_BASE_URL" and row["missing"] == []
