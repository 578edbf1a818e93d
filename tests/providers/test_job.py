"""`run --batch`, `batch status` and `batch cancel` against the fake server's three batch services
(real HTTP through httpx, real run and state files, real processes killed mid-step)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import ctrl_c
from tests.support.fixtures import built_suite
from workbench.providers.fakeserver import FakeServer

KEYS = {"OPENAI_API_KEY": "sk-test-PLANTED-batch-0123456789abcdef",
        "ANTHROPIC_API_KEY": "sk-ant-PLANTED-batch-0123456789abcdef",
        "GOOGLE_API_KEY": "AIzaPLANTEDbatch0123456789abcdef"}
MODELS = {"openai": "openai:gpt-4o", "anthropic": "anthropic:claude-sonnet-4-5", "google": "google:gemini-2.5-flash"}
SPEC = """name = "batchmini"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..5"
[[families]]
name = "invoice_extraction"
seeds = [1]
params = { trap = "direct_line" }
"""
BIG_SPEC = """name = "batch200"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..200"
"""


def _build(tmp_path_factory, spec: str, name: str) -> Path:
    return built_suite(tmp_path_factory.mktemp(name), spec)


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory) -> Path:
    return _build(tmp_path_factory, SPEC, "batchmini")


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for k, v in KEYS.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_CAP", "0.02")
    return tmp_path


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def state_of(out: Path) -> dict:
    return json.loads(out.with_name(out.stem + ".batch.json").read_text())


def script(cases) -> dict[str, str]:
    return {c.sha256: c.expected_answer for c in cases}


def child(*argv: str) -> list[str]:
    return [sys.executable, "-m", "workbench", *map(str, argv)]


def wait_for(check, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def assert_no_key_anywhere(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for key in KEYS.values():
                assert key.encode() not in data, f"{path} holds an API key"


# ---- submit, poll, collect --------------------------------------------------------------------

@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_submit_then_collect_gives_the_records_a_live_run_writes(env, cli, suite_dir, cases, provider):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_polls=2) as server:
        args = ["run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                server.base_url(provider), "--out", out]
        code, stdout, err = cli(*args)
        assert code == 0, err
        assert "submitted batch" in err and not out.exists()   # submitted; nothing answered yet
        state = state_of(out)
        [entry] = state["entries"]
        assert entry["batch_id"] and len(entry["requests"]) == len(cases)
        assert server.batch.creates == 1 and not server.requests   # no live call was made

        code, _, err = cli("batch", "status", out)
        assert code == 0 and "in_progress" in err and not out.exists()
        code, stdout, err = cli(*args)   # the same command again collects
        assert code == 0, err
        assert f"pass {len(cases)}/{len(cases)}" in stdout   # graded like any run
        assert server.batch.creates == 1

    recs = records(out)
    assert sorted(r["case_id"] for r in recs) == sorted(c.id for c in cases)
    assert {r["status"] for r in recs} == {"ok"}
    assert {r["run_id"] for r in recs} == {state["run_id"]}
    for r in recs:
        assert r["usage"]["input_tokens"] > 0 and r["usage"]["output_tokens"] > 0
        assert r["extra"]["batch"]["id"] == entry["batch_id"]
    invoice = next(r for r in recs if r["trap_family"] == "invoice_extraction")
    assert invoice["extra"]["structured_output"]
    assert state_of(out)["entries"][0]["collected"] is True
    # Reported like any run, from the file alone: it records where the suite is.
    assert {r["extra"]["suite_path"] for r in recs} == {str(Path(suite_dir).resolve())}
    code, stdout, _ = cli("report", out)
    assert code == 0 and f"pass {len(cases)}/{len(cases)}" in stdout
    assert_no_key_anywhere(env)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_a_batch_request_body_is_the_live_request_body(env, cli, suite_dir, cases, provider):
    invoice = next(c for c in cases if c.trap_family == "invoice_extraction")
    with FakeServer(script=script(cases), batch_polls=1) as server:
        code, _, err = cli("ask", invoice.json_path, "--reader", MODELS[provider], "--no-cache",
                           "--base-url", server.base_url(provider), "--out", env / "asked.jsonl")
        assert code == 0, err
        live = server.requests[-1]["body"]
        code, _, err = cli("run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                           server.base_url(provider), "--out", env / "run.jsonl")
        assert code == 0, err
        [batch] = server.batch.batches.values()
    bodies = [body for _cid, body in batch.requests]
    assert live in bodies   # byte for byte the request a live call sends, schema included
    assert any(k in json.dumps(live) for k in ("response_format", "tool_choice", "responseSchema"))


@pytest.mark.slow   # three processes killed mid-poll: 28 s at load 13
def test_three_process_lifetimes_200_cases_killed_mid_poll(env, tmp_path_factory):
    """Submit, a poll killed with SIGKILL while it waits, then a third process collects: 200
    records, every one terminal, each case once, one batch created."""
    from workbench.core.suite import load_suite

    suite = _build(tmp_path_factory, BIG_SPEC, "batch200")
    cases = load_suite(suite).cases
    out = env / "big.jsonl"
    with FakeServer(script=script(cases), batch_polls=10**9) as server:
        url = server.base_url("openai")
        first = subprocess.run(child("run", suite, "--reader", "openai:gpt-4o", "--batch", "--base-url", url,
                                     "--out", out), capture_output=True, text=True, timeout=300)
        assert first.returncode == 0, first.stderr
        assert server.batch.creates == 1 and not out.exists()

        second = subprocess.Popen(child("batch", "status", out, "--wait", "--every", "0.05"),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        [batch] = server.batch.batches.values()
        wait_for(lambda: batch.polls >= 3)
        second.send_signal(signal.SIGKILL)
        second.communicate(timeout=60)
        assert second.returncode == -signal.SIGKILL
        assert not out.exists() and state_of(out)["entries"][0]["status"] == "in_progress"

        server.batch.polls = 0   # the provider finishes the batch
        third = subprocess.run(child("batch", "status", out), capture_output=True, text=True, timeout=300)
        assert third.returncode == 0, third.stderr
        assert "pass 200/200" in third.stdout
        assert server.batch.creates == 1
    recs = records(out)
    assert len(recs) == 200 and len({r["case_id"] for r in recs}) == 200
    assert {r["status"] for r in recs} == {"ok"}
    assert state_of(out)["entries"][0]["collected"] is True
    assert_no_key_anywhere(env)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_killed_between_create_and_state_write_never_submits_twice(env, cli, suite_dir, cases, provider):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_polls=1, batch_create_delay_s=30) as server:
        url = server.base_url(provider)
        proc = subprocess.Popen(child("run", suite_dir, "--reader", MODELS[provider], "--batch",
                                      "--base-url", url, "--out", out),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(lambda: server.batch.creates == 1)   # the provider made it; the client has no id yet
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        entry = state_of(out)["entries"][0]
        assert entry["create_started_at"] and entry["batch_id"] is None

        server.batch.create_delay_s = 0
        code, _, err = cli("run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url", url,
                           "--out", out)
        assert code == 0, err
        assert "submitted before the interruption" in err
        assert server.batch.creates == 1   # found, not made again
        [made] = server.batch.batches
        assert state_of(out)["entries"][0]["batch_id"] == made
        code, stdout, err = cli("batch", "status", out)
        assert code == 0, err
        assert len(records(out)) == len(cases)


# ---- what a batch can end as --------------------------------------------------------------------

@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_per_request_errors_are_kept_apart(env, cli, suite_dir, cases, provider):
    bad, worse = cases[0], cases[1]
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_faults={bad.sha256: "400", worse.sha256: "500"}) as server:
        args = ["run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                server.base_url(provider), "--out", out]
        assert cli(*args)[0] == 0
        code, stdout, err = cli(*args)
        assert code == 0, err
    by_case = {r["case_id"]: r for r in records(out)}
    assert by_case[bad.id]["status"] == "error" and by_case[worse.id]["status"] == "error"
    said = {cid: (r["error"]["http_status"], r["error"]["type"], r["error"]["code"]) for cid, r in by_case.items()
            if r["error"]}
    # Each service in its own terms: OpenAI keeps the HTTP status, Anthropic the error type,
    # Gemini the google.rpc code.
    assert said[bad.id] == {"openai": (400, "invalid_request_error", None),
                            "anthropic": (None, "invalid_request_error", "invalid_request_error"),
                            "google": (None, "request_failed", "3")}[provider]
    assert said[worse.id][0] == (500 if provider == "openai" else None)
    assert by_case[bad.id]["error"]["message"]
    assert {r["status"] for cid, r in by_case.items() if cid not in (bad.id, worse.id)} == {"ok"}
    assert "2 of 6 calls did not finish" in stdout   # errors counted apart, never as wrong answers
    assert f"pass {len(cases) - 2}/{len(cases) - 2}" in stdout


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_an_expired_batch_keeps_what_ran_and_retry_errors_asks_the_rest_again(env, cli, suite_dir, cases, provider):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_end="expired") as server:
        args = ["run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                server.base_url(provider), "--out", out]
        assert cli(*args)[0] == 0
        code, stdout, err = cli("batch", "status", out)
        assert code == 0, err
        recs = records(out)
        assert len(recs) == len(cases)
        expired = [r for r in recs if r["status"] == "timeout"]
        ok = [r for r in recs if r["status"] == "ok"]
        assert len(ok) == len(cases) // 2   # the fake runs the first half before it expires
        assert len(expired) == len(cases) - len(ok)
        assert {r["error"]["type"] for r in expired} == {"batch_expired"}
        assert {r["attempts"] for r in expired} == {0}

        server.batch.end = "completed"
        assert cli(*args, "--retry-errors")[0] == 0   # a second batch with only the expired calls
        code, stdout, err = cli("batch", "status", out)
        assert code == 0, err
        assert server.batch.creates == 2
        second = list(server.batch.batches.values())[-1]
        assert len(second.requests) == len(expired)
    recs = records(out)
    assert len(recs) == len(cases) and {r["status"] for r in recs} == {"ok"}
    assert f"pass {len(cases)}/{len(cases)}" in stdout


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_cancel_collects_what_finished_and_marks_the_rest_cancelled(env, cli, suite_dir, cases, provider):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_polls=10**9) as server:
        assert cli("run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                   server.base_url(provider), "--out", out)[0] == 0
        code, stdout, err = cli("batch", "cancel", out)
        assert code == 0, err
        assert "asked to cancel" in err
    recs = records(out)
    assert len(recs) == len(cases)
    cancelled = [r for r in recs if r["status"] == "cancelled"]
    assert len(cancelled) == len(cases) - len(cases) // 2
    assert {r["error"]["type"] for r in cancelled} == {"batch_cancelled"}
    assert {r["status"] for r in recs} == {"ok", "cancelled"}


# ---- bad input: one line, exit 2, nothing lost --------------------------------------------------

def test_a_provider_without_a_batch_service_is_named(env, cli, suite_dir):
    code, _, err = cli("run", suite_dir, "--reader", "ollama:llama3.2-vision", "--batch")
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert "ollama has no batch service" in line and "openai" in line and "anthropic" in line and "google" in line
    code, _, err = cli("run", suite_dir, "--reader", "probe:pymupdf", "--batch")
    assert code == 2 and "no batch service" in err


def test_unknown_batch_id_and_damaged_state_are_one_line(env, cli, suite_dir, cases):
    out = env / "run.jsonl"
    state_file = out.with_name("run.batch.json")
    with FakeServer(script=script(cases), batch_polls=5) as server:
        assert cli("run", suite_dir, "--reader", "openai:gpt-4o", "--batch", "--base-url",
                   server.base_url("openai"), "--out", out)[0] == 0
        good = state_file.read_text()
        state = json.loads(good)
        state["entries"][0]["batch_id"] = "batch_nobodyknows"
        state_file.write_text(json.dumps(state))
        before = state_file.read_bytes()
        code, _, err = cli("batch", "status", out)
        assert code == 2 and "Traceback" not in err
        assert "404" in err and "batch_nobodyknows" in err and len(err.strip().splitlines()) == 1
        assert state_file.read_bytes() == before   # nothing changed

        state_file.write_text(good[: len(good) // 2])   # torn by hand
        before = state_file.read_bytes()
        code, _, err = cli("batch", "status", out)
        assert code == 2 and "damaged" in err and len(err.strip().splitlines()) == 1
        assert state_file.read_bytes() == before
        code, _, err = cli("run", suite_dir, "--reader", "openai:gpt-4o", "--batch", "--out", out)
        assert code == 2 and "damaged" in err   # and no second batch either
        assert server.batch.creates == 1

    code, _, err = cli("batch", "status", env / "nothing.jsonl")
    assert code == 2 and "no batch was submitted" in err


def test_a_refused_create_loses_nothing_and_a_rerun_submits(env, cli, suite_dir, cases):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_polls=1) as server:
        code, _, err = cli("run", suite_dir, "--reader", "anthropic:claude-sonnet-4-5", "--batch",
                           "--base-url", server.url + "/nowhere", "--out", out)
        assert code == 2 and "HTTP 404" in err and len(err.strip().splitlines()) == 1
        assert server.batch.creates == 0 and not out.exists()
        code, _, err = cli("run", suite_dir, "--reader", "anthropic:claude-sonnet-4-5", "--batch",
                           "--base-url", server.url, "--out", out)
        assert code == 0 and server.batch.creates == 1, err
        assert cli("batch", "status", out)[0] == 0
    assert len(records(out)) == len(cases)


def test_batch_status_never_writes_a_key_even_when_the_server_echoes_one(env, cli, suite_dir, cases):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases)) as server:
        assert cli("run", suite_dir, "--reader", "openai:fake+401", "--batch", "--base-url",
                   server.base_url("openai"), "--out", out)[0] == 0
        code, stdout, err = cli("batch", "status", out, "--json")
        assert code == 1 or code == 0
    recs = records(out)
    assert {r["status"] for r in recs} == {"error"}
    assert all(r["error"]["http_status"] == 401 for r in recs)
    assert KEYS["OPENAI_API_KEY"] not in stdout + err
    assert_no_key_anywhere(env)


def test_fake_server_command_takes_batch_settings(env, tmp_path):
    proc = subprocess.Popen(child("fake-server", "--port", "0", "--batch-polls", "3", "--batch-end", "expired"),
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "fake provider on http://127.0.0.1:" in line
    finally:
        ctrl_c(proc, timeout=30)


@pytest.mark.parametrize("provider", ["openai", "google"])
def test_a_failed_batch_records_each_call_as_an_error(env, cli, suite_dir, cases, provider):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases), batch_end="failed") as server:
        assert cli("run", suite_dir, "--reader", MODELS[provider], "--batch", "--base-url",
                   server.base_url(provider), "--out", out)[0] == 0
        code, stdout, err = cli("batch", "status", out)
    assert code == 1, err   # nothing could be scored: the gate says so
    recs = records(out)
    assert len(recs) == len(cases) and {r["status"] for r in recs} == {"error"}
    assert {r["error"]["type"] for r in recs} == {"batch_failed"}
    assert "did not finish" in stdout


def test_a_large_run_is_split_by_the_service_limits(env, cli, suite_dir, cases, monkeypatch):
    from workbench.providers.batch import submit

    monkeypatch.setitem(submit.LIMITS, "anthropic", (2, 10**9))
    out = env / "run.jsonl"
    with FakeServer(script=script(cases)) as server:
        assert cli("run", suite_dir, "--reader", MODELS["anthropic"], "--batch", "--base-url",
                   server.base_url("anthropic"), "--out", out)[0] == 0
        assert server.batch.creates == 3
        assert [len(e["requests"]) for e in state_of(out)["entries"]] == [2, 2, 2]
        code, stdout, err = cli("batch", "status", out)
        assert code == 0, err
    assert sorted(r["case_id"] for r in records(out)) == sorted(c.id for c in cases)
    assert len({r["extra"]["batch"]["id"] for r in records(out)}) == 3


def test_a_collection_killed_mid_write_resumes_without_doubles(env, cli, suite_dir, cases):
    out = env / "run.jsonl"
    with FakeServer(script=script(cases)) as server:
        args = ["run", suite_dir, "--reader", MODELS["openai"], "--batch", "--base-url",
                server.base_url("openai"), "--out", out]
        assert cli(*args)[0] == 0
        assert cli(*args)[0] == 0
        # As a kill mid-collection leaves it: three records, a torn fourth, the batch not marked.
        lines = out.read_text().splitlines(keepends=True)
        out.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])
        state_file = out.with_name("run.batch.json")
        state = json.loads(state_file.read_text())
        state["entries"][0]["collected"] = False
        state_file.write_text(json.dumps(state))
        code, stdout, err = cli("batch", "status", out)
        assert code == 0, err
        assert server.batch.creates == 1
    recs = records(out)
    assert sorted(r["case_id"] for r in recs) == sorted(c.id for c in cases)   # each once
    assert f"pass {len(cases)}/{len(cases)}" in stdout


def test_the_answer_cache_works_for_batches_as_for_live_runs(env, cli, suite_dir, cases):
    asked = cases[0]
    with FakeServer(script=script(cases)) as server:
        url = server.base_url("openai")
        assert cli("ask", asked.json_path, "--reader", MODELS["openai"], "--base-url", url,
                   "--out", env / "asked.jsonl")[0] == 0   # answered live, and cached
        out = env / "run.jsonl"
        code, _, err = cli("run", suite_dir, "--reader", MODELS["openai"], "--batch", "--base-url", url, "--out", out)
        assert code == 0 and "1 case(s) answered from the answer cache" in err
        [batch] = server.batch.batches.values()
        assert len(batch.requests) == len(cases) - 1   # the cached case is not sent again
        assert cli("batch", "status", out)[0] == 0
        by_case = {r["case_id"]: r for r in records(out)}
        assert len(by_case) == len(cases) and by_case[asked.id]["extra"]["cached"] is True
        # What the batch answered is cached too: a live run of the same suite calls nothing.
        served = len(server.requests)
        code, stdout, err = cli("run", suite_dir, "--reader", MODELS["openai"], "--base-url", url,
                                "--out", env / "live.jsonl")
        assert code == 0, err
        assert len(server.requests) == served
        assert f"pass {len(cases)}/{len(cases)}" in stdout
        # --no-cache sends every case.
        code, _, err = cli("run", suite_dir, "--reader", MODELS["openai"], "--batch", "--no-cache",
                           "--base-url", url, "--out", env / "again.jsonl")
        assert code == 0 and server.batch.creates == 2
        assert len(list(server.batch.batches.values())[-1].requests) == len(cases)


def test_sharded_batch_runs_carry_the_shard_and_one_run_id(env, cli, suite_dir, cases):
    (env / "runs").mkdir()
    files = [env / "runs" / f"b-shard{i}of2.jsonl" for i in (1, 2)]
    with FakeServer(script=script(cases), batch_polls=1) as server:
        for i, out in enumerate(files, 1):
            args = ["run", suite_dir, "--reader", MODELS["openai"], "--batch", "--shard", f"{i}/2",
                    "--base-url", server.base_url("openai"), "--out", out]
            for _ in range(4):   # submit, then poll until collected
                code, _, err = cli(*args)
                assert code in (0, 1), err
                if out.exists():
                    break
    recs = [records(f) for f in files]
    assert {r["shard"] for r in recs[0]} == {"1/2"} and {r["shard"] for r in recs[1]} == {"2/2"}
    ids = {r["run_id"] for rs in recs for r in rs}
    assert len(ids) == 1 and ids.pop().endswith("-1")   # both shards derived the same id
    code, out, _ = cli("report", *files, "--suite", suite_dir, "--json")
    (run,) = json.loads(out)["runs"]
    assert run["shards"]["missing"] == [] and run["overall"]["calls"] == len(cases)
