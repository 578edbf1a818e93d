"""A hostile model server on 127.0.0.1: a body dripped a byte at a time, a body that never ends, a
huge valid body, a server that echoes the key, and nobody listening. Every call ends within its
deadline and memory bound, and no key reaches a file, the cache or the terminal."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.support.fixtures import SAMPLE
from workbench.providers.fakeserver import FakeServer

KEY = "sk-test-" + "k3y" * 12          # long enough to be redacted, fragments included
CASE = SAMPLE / "footnote_override-0001.json"
GUARD_S = 120                          # a hung call fails the test here, not CI's clock
OWN_PEAK = Path(__file__).resolve().parents[1] / "support" / "own_peak.py"


@pytest.fixture
def env(tmp_path):
    e = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    e.update({"OPENAI_API_KEY": KEY, "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache"),
              "PDFWORKBENCH_TIMEOUT": "2", "PDFWORKBENCH_RETRY_DEADLINE": "4",
              "PDFWORKBENCH_RETRY_BASE": "0.01", "PDFWORKBENCH_RETRY_CAP": "0.05",
              "PDFWORKBENCH_LIMITS": f"provider_answer_bytes={4 * 2**20}", "PDFWORKBENCH_CONFIG_DIR": str(tmp_path / "config")})
    return e


def _run(argv: list[str], env: dict, cwd: Path) -> tuple[int, str, str, float, int]:
    """Run the CLI; return (exit code, stdout, stderr, seconds, peak RSS in MB)."""
    t0 = time.monotonic()
    fd, name = tempfile.mkstemp(suffix=".peak-mb")
    os.close(fd)
    peak = Path(name)
    # Started through tests/support/own_peak.py, which writes the command's own peak memory: measured from
    # here, the peak would be this test process's (up to 1 GB), whatever the command used.
    p = subprocess.Popen([sys.executable, str(OWN_PEAK), str(peak), sys.executable, "-m", "workbench",
                          *map(str, argv)], env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)
    streams: dict[str, str] = {}
    readers = [threading.Thread(target=lambda n=n, f=f: streams.__setitem__(n, f.read()), daemon=True)
               for n, f in (("out", p.stdout), ("err", p.stderr))]
    for reader in readers:
        reader.start()
    killed: list[bool] = []
    guard = threading.Timer(GUARD_S, lambda: (killed.append(True), os.killpg(p.pid, 9)))
    guard.start()
    p.wait()
    guard.cancel()
    for reader in readers:
        reader.join()
    p.stdout.close()
    p.stderr.close()
    if killed:
        pytest.fail(f"{argv[:3]} hung for {GUARD_S} s")
    out, err = streams.get("out", ""), streams.get("err", "")
    rss_mb = int(peak.read_text(encoding="utf-8"))
    peak.unlink()
    return p.returncode, out, err, time.monotonic() - t0, rss_mb


def _nothing_secret(*places: Path, texts: tuple[str, ...] = ()) -> None:
    fragments = (KEY, KEY[:16], KEY[-12:])
    for text in texts:
        assert not any(f in text for f in fragments)
    for place in places:
        files = [place] if place.is_file() else [p for p in place.rglob("*") if p.is_file()]
        for f in files:
            data = f.read_text(encoding="utf-8", errors="replace")
            assert not any(frag in data for frag in fragments), f"key written to {f}"


def _ask(fault: str, server: FakeServer, env: dict, tmp_path: Path):
    out = tmp_path / f"{fault}.jsonl"
    result = _run(["ask", CASE, "--reader", f"openai:fake+{fault}xall", "--base-url",
                   server.base_url("openai"), "--out", out, "--no-cache", "--json"], env, tmp_path)
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return result, records


@pytest.fixture
def server():
    with FakeServer(hang_s=30, huge_mb=64) as s:
        yield s


def test_a_dripping_server_ends_at_the_call_deadline(server, env, tmp_path):
    env = {**env, "PDFWORKBENCH_TIMEOUT": "1", "PDFWORKBENCH_RETRY_DEADLINE": "2"}  # every call drips
    (code, _, err, seconds, _), records = _ask("drip", server, env, tmp_path)
    assert code == 1 and len(records) == 1
    assert records[0]["status"] == "timeout"
    assert "within" in records[0]["error"]["message"]
    # PDFWORKBENCH_RETRY_DEADLINE=2: nothing extends the call past it (the guard is generous for
    # a loaded machine; before the fix the same call took 75 s with a 5 s timeout).
    assert seconds < 2 + 20


def test_an_endless_body_is_cut_at_the_cap_and_recorded_as_an_error(server, env, tmp_path):
    # Deadlines far off: only the cap, counted as the body streams in, can end this call.
    env = {**env, "PDFWORKBENCH_TIMEOUT": "60", "PDFWORKBENCH_RETRY_DEADLINE": "60"}
    (code, _, err, _, rss_mb), records = _ask("endless", server, env, tmp_path)
    assert code == 1 and records[0]["status"] == "error"
    assert records[0]["error"]["type"] == "body_too_large"
    assert records[0]["error"]["message"].endswith(
        "(over the provider_answer_bytes limit of 4 MB; raise it with --limit provider_answer_bytes=N)")
    assert rss_mb < 300


def test_a_huge_valid_answer_is_refused_not_written_whole(server, env, tmp_path):
    env = {**env, "PDFWORKBENCH_TIMEOUT": "60", "PDFWORKBENCH_RETRY_DEADLINE": "60"}  # the cap, not the clock
    (code, stdout, err, _, rss_mb), records = _ask("huge", server, env, tmp_path)
    assert code == 1
    rec = records[0]
    assert rec["status"] == "error" and rec["error"]["type"] == "body_too_large"
    assert rec["answer"] is None
    assert (tmp_path / "huge.jsonl").stat().st_size < 100_000   # not the 64 MB answer
    assert rss_mb < 1024
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json"))


def test_a_key_echoed_in_an_answer_is_redacted_everywhere(server, env, tmp_path):
    out = tmp_path / "echo.jsonl"
    env = {**env, "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")}
    code, stdout, err, _, _ = _run(["ask", CASE, "--reader", "openai:fake+echo-keyxall", "--base-url",
                                    server.base_url("openai"), "--out", out, "--json"], env, tmp_path)
    assert code == 0, err
    rec = json.loads(out.read_text().splitlines()[0])
    assert "[redacted]" in rec["answer"] and "[redacted]" in rec["request_id"]
    # The server did get the key (so the test would catch an echo that slipped through).
    assert any(KEY in r["headers"].get("authorization", "") for r in server.requests)
    assert any((tmp_path / "cache").rglob("*.json"))
    _nothing_secret(out, tmp_path / "cache", texts=(stdout, err))


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]   # closed again when the block ends: nobody listens there


def test_a_refused_connection_fails_at_once_with_one_line(env, tmp_path):
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    env = {**env, "PDFWORKBENCH_TIMEOUT": "60", "PDFWORKBENCH_RETRY_DEADLINE": "300",
           "PDFWORKBENCH_RETRY_BASE": "4", "PDFWORKBENCH_RETRY_CAP": "8"}
    code, _, err, seconds, _ = _run(["ask", CASE, "--reader", "openai:gpt-4o", "--base-url", url,
                                     "--out", tmp_path / "a.jsonl", "--no-cache"], env, tmp_path)
    assert code == 1 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "cannot connect" in err
    code, _, err, seconds_run, _ = _run(["run", SAMPLE, "--reader", "openai:gpt-4o", "--base-url", url,
                                         "--out", tmp_path / "r.jsonl", "--no-cache"], env, tmp_path)
    assert code == 2 and "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if line.startswith("pdfworkbench:")]
    assert len(lines) == 1 and "cannot connect" in lines[0] and "--resume" in lines[0]
    # With a 4 s backoff base, one retry alone would take seconds; refused means no retry at all.
    assert seconds < 30 and seconds_run < 30


# ---- the batch services: the same limits as live calls ------------------------------------------

def _stream(size: int, head: bytes, filler: bytes):
    yield head
    for _ in range(max(0, size - len(head)) // len(filler)):
        yield filler


def _batch(env: dict, tmp_path: Path, tamper, *argv: str, hang_s: float = 30, status_env: dict | None = None):
    """Submit a two-case batch to a fake OpenAI whose steps `tamper` changes, then `batch status`
    (with `argv` before it, in `status_env` if given); return that command's (code, stdout, stderr,
    seconds, MB) and the run."""
    from tests.support.fixtures import suite_copy

    suite = suite_copy(tmp_path)
    out = tmp_path / "batch.jsonl"
    with FakeServer(batch_polls=1, batch_tamper=tamper, hang_s=hang_s) as server:
        url = server.base_url("openai")
        code, _, err, _, _ = _run(["run", suite, "--reader", "openai:gpt-4o", "--batch", "--no-cache",
                                   "--base-url", url, "--out", out], env, tmp_path)
        assert code == 0, err
        return _run([*argv, "batch", "status", out], status_env or env, tmp_path), out


def test_a_batch_result_file_past_its_cap_is_refused_in_one_line_with_bounded_memory(env, tmp_path):
    # 256 MB with no content-length, so only the streamed count can stop it (the was 2.9 GB).
    def huge(step, reply):
        if step == "output":
            return 200, _stream(256 * 2**20, reply[1], b'{"custom_id": "zz", "response": null}\n' * 1000), {}, reply[3]
        return None

    (code, _, err, _, rss_mb), out = _batch(env, tmp_path, huge, "--limit", f"provider_batch_file_bytes={32 * 2**20}")
    assert code == 2 and "Traceback" not in err
    [line] = [x for x in err.splitlines() if x.startswith("pdfworkbench:")]
    assert line.endswith("(over the provider_batch_file_bytes limit of 32 MB; raise it with "
                         "--limit provider_batch_file_bytes=N)")
    assert not out.exists() or not out.read_text()   # nothing collected; the next status tries again
    assert rss_mb < 300       # streamed to a temporary file, never held


def test_a_batch_result_line_past_the_answer_cap_is_that_call_s_error(env, tmp_path):
    def long_line(step, reply):
        if step == "output":
            first, *rest = reply[1].splitlines(keepends=True)
            return 200, first[:-2] + b', "pad": "' + b"z" * (2 * 2**20) + b'"}\n' + b"".join(rest), {}, reply[3]
        return None

    env = {**env, "PDFWORKBENCH_LIMITS": f"provider_answer_bytes={2**20}"}
    (code, _, err, _, _), out = _batch(env, tmp_path, long_line)
    assert code in (0, 1) and "Traceback" not in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 2
    [bad] = [r for r in records if r["status"] == "error"]
    assert bad["error"]["type"] == "malformed_response"
    assert bad["error"]["message"].endswith("(over the provider_answer_bytes limit of 1 MB; raise it with "
                                            "--limit provider_answer_bytes=N)")


@pytest.mark.parametrize("step", ["status", "output"])
def test_a_dripping_batch_service_ends_at_its_deadline(env, tmp_path, step):
    def drip(at, reply):
        return (*reply[:2], {**reply[2], "x-fake-drip": "1"}, reply[3]) if at == step else None

    # The server drips for 60 s; only the client's deadline can end the command sooner (short ones
    # for `batch status` alone: the submission before it does not drip).
    status_env = {**env, "PDFWORKBENCH_LIMITS": "provider_batch_download_seconds=1",
                  "PDFWORKBENCH_TIMEOUT": "1", "PDFWORKBENCH_RETRY_DEADLINE": "2"}
    (code, _, err, _, _), out = _batch(env, tmp_path, drip, hang_s=60, status_env=status_env)
    assert code == 2 and "Traceback" not in err
    [line] = [x for x in err.splitlines() if x.startswith("pdfworkbench:")]
    if step == "status":   # PDFWORKBENCH_TIMEOUT=1, PDFWORKBENCH_RETRY_DEADLINE=2
        assert "checking batch" in line and ("no complete answer within" in line or "deadline" in line)
    else:
        assert line.endswith("(over the provider_batch_download_seconds limit of 1 s; raise it with "
                             "--limit provider_batch_download_seconds=N)")
    assert not out.exists() or not out.read_text()
