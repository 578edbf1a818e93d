"""A provider that echoes the API key in every field it can (the fake server's `echo_key`): in each
error's message, type, code and param, the reason phrase, request-id headers, answers' text, ids
and finish reasons, batch result and error lines, status messages and counts. Through the real CLI
(`ask`, `run`, `run --batch`, `batch status --wait`, all at -vv), no 16 characters of any key
reach a file under the suite, the runs, the cache or the config, nor stdout or stderr."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import INVOICE, TOTAL, suite_copy
from workbench.providers.fakeserver import FakeServer

KEYS = {
    "OPENAI_API_KEY": "sk-proj-LEAKTEST" + "a1B2c3D4e5" * 4,
    "ANTHROPIC_API_KEY": "sk-ant-api03-LEAKTEST" + "f6G7h8I9j0" * 4,
    "GOOGLE_API_KEY": "AIzaLEAKTEST" + "k1L2m3N4o5" * 3,
    "OPENAI_COMPATIBLE_API_KEY": "ocomp-LEAKTEST" + "p6Q7r8S9t0" * 3,
}
KEY_OF = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "google": "GOOGLE_API_KEY",
          "openai-compatible": "OPENAI_COMPATIBLE_API_KEY"}
WINDOW = 16   # config.redact's promise for a long key: no run of 16 of its characters survives


@pytest.fixture
def env(monkeypatch, tmp_path):
    for var in ("GEMINI_API_KEY", *KEYS):
        monkeypatch.delenv(var, raising=False)
    for var, value in KEYS.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_CAP", "0.02")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pieces() -> set[str]:
    return {key[i:i + WINDOW] for key in KEYS.values() for i in range(len(key) - WINDOW + 1)}


def leaks_in(text: str) -> list[str]:
    return sorted({p for p in pieces() if p in text})


def assert_no_key(root: Path, *texts: str) -> None:
    for text in texts:
        assert not leaks_in(text), f"a key reached the terminal: {leaks_in(text)[:2]}"
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes().decode("utf-8", "replace")
            assert not leaks_in(data), f"a key was written to {path}: {leaks_in(data)[:2]}"


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def the_server_got_the_key(server: FakeServer, provider: str) -> bool:
    key = KEYS[KEY_OF[provider]]
    seen = [r["headers"] for r in server.requests] or [{}]
    return any(key in " ".join(h.values()) for h in seen) or bool(server.batch.calls)


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google", "openai-compatible"])
def test_a_key_echoed_in_every_field_of_live_answers_and_errors_is_nowhere(env, cli, provider):
    suite = suite_copy(env)
    with FakeServer(echo_key=True) as server:
        url = server.base_url(provider)
        # An error (401): the key in the message, type, code, param, reason phrase and headers.
        code, out_ask, err_ask = cli("-vv", "ask", suite / f"{TOTAL}.json", "--reader", f"{provider}:fake+401xall",
                                     "--base-url", url, "--no-cache", "--json")
        assert code == 1, err_ask
        # Answers: the key in the text, the ids, the model and the finish reasons.
        code, out_run, err_run = cli("-vv", "run", suite, "--reader", f"{provider}:fake", "--base-url", url,
                                     "--out", suite / "runs" / "live.jsonl")
        assert code in (0, 1), err_run
        assert any(KEYS[KEY_OF[provider]] in " ".join(r["headers"].values()) for r in server.requests)

    [asked] = records(suite / "runs" / "asked.jsonl")
    assert asked["status"] == "error"
    assert "[redacted]" in asked["error"]["message"] and "[redacted]" in asked["error"]["type"]
    if provider != "anthropic":   # Anthropic's errors carry no code beside their type
        assert "[redacted]" in asked["error"]["code"]
    live = records(suite / "runs" / "live.jsonl")
    assert len(live) == 2 and all("[redacted]" in r["answer"] for r in live)
    assert all("[redacted]" in r["finish_reason"] for r in live)
    assert any((env / "cache").rglob("*.json"))
    assert_no_key(env, out_ask, err_ask, out_run, err_run)


@pytest.mark.parametrize("end", ["completed", "expired"])
@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_a_key_echoed_in_every_field_of_a_batch_is_nowhere(env, cli, provider, end):
    from workbench.core.suite import load_suite

    suite = suite_copy(env)
    invoice = load_suite(suite).case(INVOICE)
    out = suite / "runs" / "batch.jsonl"
    # One call fails (401, the key in every field of its error), the other answers (the key in
    # its text and ids); with "expired", the second is not run (the key in its error line).
    with FakeServer(echo_key=True, batch_polls=1, batch_end=end, batch_faults={invoice.sha256: "401"}) as server:
        url = server.base_url(provider)
        code, out_submit, err_submit = cli("-vv", "run", suite, "--reader", f"{provider}:fake", "--batch",
                                           "--base-url", url, "--out", out)
        assert code == 0, err_submit
        code, out_wait, err_wait = cli("-vv", "batch", "status", out, "--wait", "--every", "0")
        assert code in (0, 1), err_wait
        assert server.batch.batches and next(iter(server.batch.batches.values())).key == KEYS[KEY_OF[provider]]

    recs = records(out)
    assert sorted(r["case_id"] for r in recs) == sorted([INVOICE, TOTAL])
    if end == "completed":
        failed = next(r for r in recs if r["case_id"] == INVOICE)
        assert failed["status"] == "error" and "[redacted]" in failed["error"]["message"]
        if provider != "google":   # Gemini's inlined error is a google.rpc.Status: code and message only
            assert "[redacted]" in failed["error"]["type"]
        [answered] = [r for r in recs if r["status"] == "ok"]
        assert "[redacted]" in answered["answer"]
    else:
        assert sorted(r["status"] for r in recs) in (["error", "timeout"], ["ok", "timeout"])
        assert "[redacted]" in json.dumps(recs)
    assert_no_key(env, out_submit, err_submit, out_wait, err_wait)
