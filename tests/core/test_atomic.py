"""What the file system refuses (issue 33, items 7 and 9): a full disk or a file-size limit, a
read-only folder, a name over 255 bytes, a build killed mid-write, a run stopped because nothing
listens. Each ends in one line and exit 2, and loses or half-writes nothing; each hostile thing
is made in the test (a real file-size limit in a real process, a read-only mount, a real SIGKILL)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT, SAMPLE

pytestmark = pytest.mark.slow   # a full disk, a file-size limit, in child processes: 32 s for 7 at load 10 (`make test-fast` leaves them out)

CASES = ("actualtext_override-0001", "annotation_only_text-0001", "chart_axis_inversion-0001")
GUARD_S = 120


def _suite(tmp_path: Path, name: str = "s") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for cid in CASES:
        for ext in (".json", ".pdf"):
            shutil.copy(SAMPLE / f"{cid}{ext}", folder)
    return folder


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip() and not line[0].isdigit()]
    assert len(lines) == 1, err
    return lines[0]


def _env(tmp_path: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PDFWORKBENCH_CONFIG_DIR": str(tmp_path / "config"),
            "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")}


def _limited(tmp_path: Path, fsize: int, *argv) -> subprocess.CompletedProcess:
    """The CLI in a process whose files may not grow past `fsize` bytes (RLIMIT_FSIZE: what a
    full disk does to a write, without needing one). SIGXFSZ is ignored, as a shell's ulimit
    does, so the write fails with EFBIG instead of killing the process."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    # No bytecode written under the limit: CPython writes a module's .pyc with one unchecked raw
    # write, so a short write would leave a truncated .pyc in the checkout for every later import.
    env = {**_env(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "workbench", *map(str, argv)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=GUARD_S, preexec_fn=limit)


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ---- a full disk ----------------------------------------------------------------------------------

def test_a_write_over_the_file_size_limit_keeps_the_run_file_whole_and_resumes(tmp_path, cli):
    folder = _suite(tmp_path)
    out = folder / "runs" / "r.jsonl"
    # (--jobs 1 here and below: these runs are about their file, and a spawned worker's imports
    # were most of the test's time)
    code, _, err = cli("run", folder, "--jobs", "1", "--reader", "probe:pymupdf", "--out", out)
    assert code == 0, err
    before = out.read_bytes()
    # Another reader into the same file: its first record would pass the limit.
    done = _limited(tmp_path, len(before) + 100, "run", folder, "--reader", "probe:pypdf", "--out", out, "--resume")
    assert done.returncode == 2
    assert _one_line(done.stderr).endswith(f"{out}: file too large for this file system or process limit; "
                                           "write elsewhere (nothing half-written was kept)")
    assert out.read_bytes() == before           # no half record (the old code left ~100 bytes of one)
    code, _, err = cli("run", folder, "--jobs", "1", "--reader", "probe:pypdf", "--out", out, "--resume")
    assert code == 0, err
    recs = _records(out)
    assert sorted((r["reader"], r["case_id"]) for r in recs) == sorted(
        (reader, cid) for reader in ("probe:pymupdf", "probe:pypdf") for cid in CASES)


def test_ask_and_export_on_a_full_disk_say_so_and_leave_nothing(tmp_path):
    folder = _suite(tmp_path)
    done = _limited(tmp_path, 200, "ask", folder / f"{CASES[0]}.json", "--reader", "probe:pymupdf")
    assert done.returncode == 2
    asked = folder / "runs" / "asked.jsonl"
    assert _one_line(done.stderr).endswith(f"{asked}: file too large for this file system or process "
                                           "limit; write elsewhere (nothing half-written was kept)")
    assert asked.read_bytes() == b""
    done = _limited(tmp_path, 1000, "export", folder, "--to", "inspect", "--out", tmp_path / "e")
    assert done.returncode == 2
    assert _one_line(done.stderr).endswith("e: file too large for this file system or process limit; "
                                           "write elsewhere (nothing was written)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]   # no half export, no temporary folder


def _mount_tmpfs(where: Path, size: str, ro: bool = False) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    opts = f"size={size}" + (",ro" if ro else "")
    try:
        return subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.fixture
def small_disk(tmp_path):
    """A real file system of 256 KB (tmpfs), or a skip where mounting is not allowed."""
    where = tmp_path / "disk"
    if not _mount_tmpfs(where, "256k"):
        pytest.skip("cannot mount a tmpfs here (needs root and a mount namespace)")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def test_run_ask_dispute_and_make_on_a_real_full_disk(small_disk, cli):
    folder = _suite(small_disk)
    code, _, err = cli("run", folder, "--reader", "probe:pymupdf", "--out", folder / "runs" / "r.jsonl")
    assert code == 0, err
    with open(small_disk / "fill", "wb", buffering=0) as fh:   # fill every block it has left
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError:
            pass
    snapshot = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    big = "x" * 8000  # a record bigger than any slack left in a page
    for argv in (("run", folder, "--reader", "probe:pypdf", "--out", folder / "runs" / "r2.jsonl",
                  "--prompt", big),
                 ("ask", folder / f"{CASES[0]}.json", "--reader", "probe:pymupdf", "--prompt", big),
                 ("make", "hidden_ocr_mismatch", "--seed", "3", "--into", folder)):
        code, _, err = cli(*argv)
        assert code == 2, argv
        assert "no space left on the device; free some space, or write elsewhere" in _one_line(err)
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file() and p in snapshot}
    assert after == snapshot
    assert not [p for p in folder.rglob("*") if p.is_file() and p not in snapshot and p.stat().st_size]


@pytest.fixture
def read_only(tmp_path):
    """A suite on a read-only file system (tests run as root, whom chmod does not stop): a tmpfs
    mounted, filled, then remounted read-only; or a skip where mounting is not allowed."""
    where = tmp_path / "ro"
    if not _mount_tmpfs(where, "4m"):
        pytest.skip("cannot mount a tmpfs here (needs root and a mount namespace)")
    folder = _suite(where)
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True, timeout=30)
    yield folder
    subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def test_commands_that_write_into_a_read_only_folder_say_so(read_only, cli, tmp_path):
    folder = read_only
    for argv, named in (
        (("run", folder, "--reader", "probe:pymupdf", "--out", folder / "runs" / "r.jsonl"), "runs"),
        (("ask", folder / f"{CASES[0]}.json", "--reader", "probe:pymupdf"), "runs"),
        (("dispute", "add", folder, "--case", CASES[0], "--field", "expected_answer", "--proposed", "1",
          "--rationale", "x"), ".suite.lock"),
        (("make", "hidden_ocr_mismatch", "--seed", "3", "--into", folder), ".suite.lock"),
        (("export", folder, "--to", "inspect", "--out", folder / "e"), "e"),
    ):
        code, _, err = cli(*argv)
        assert code == 2, argv
        line = _one_line(err)
        assert named in line and ("read-only file system" in line.lower()), line


# ---- names over 255 bytes ---------------------------------------------------------------------------

def test_a_name_over_255_bytes_is_one_line_everywhere(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = _suite(tmp_path)
    long = "é" * 150   # 300 bytes, 150 characters
    case = folder / f"{CASES[0]}.json"
    for argv in (("make", "hidden_ocr_mismatch", "--seed", "1", "--out", long),
                 ("open", long),
                 ("inspect", f"{long}.pdf"),
                 ("ask", case, "--reader", "probe:pymupdf", "--out", f"{long}.jsonl"),
                 ("run", folder, "--reader", "probe:pymupdf", "--out", folder / "runs" / f"{long}.jsonl"),
                 ("export", folder, "--to", "inspect", "--out", long),
                 ("import-run", f"{long}.json")):
        code, _, err = cli(*argv)
        assert code == 2, argv
        assert _one_line(err).endswith("name too long (a name may have at most 255 bytes); choose a shorter one"), argv
    code, _, err = cli("make", "hidden_ocr_mismatch", "--seed", "1", "--out", "o", "--id", "è" * 101)
    assert code == 2 and "at most 200 bytes" in _one_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]


# ---- a killed build, a stopped run ---------------------------------------------------------------------

SPEC = """name = "kb"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..3"
"""


def _temps(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.tmp")) if folder.is_dir() else []


def test_a_build_killed_inside_a_write_leaves_a_temporary_file_the_next_build_removes(tmp_path):
    """A real build process, its writes slowed (tests/support/slow_writer.py) so that it is surely inside
    one when it gets SIGKILL: it leaves `.<name>.<host>-<pid>.<x>.tmp`; the next build removes it
    (its process is dead) and leaves another live process's alone."""
    from workbench.build.suite import build_suite
    from workbench.core import atomic
    from workbench.core.suite import load_suite

    (tmp_path / "spec.toml").write_text(SPEC)
    out = tmp_path / "kb"
    env = {**_env(tmp_path), "SLOW_WRITE_S": "60"}
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "support" / "slow_writer.py"), "build",
                             tmp_path / "spec.toml", "--out", out, "--jobs", "1"],
                            env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + GUARD_S
    try:
        while not _temps(out):
            assert proc.poll() is None and time.monotonic() < deadline, "the build never wrote"
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    stray = _temps(out)
    assert stray and all(f"-{proc.pid}." in p.name for p in stray)
    alive = out / (atomic.temp_prefix("x.json") + "abcd1234.tmp")   # this process's: alive
    alive.write_bytes(b"being written")
    build_suite(tmp_path / "spec.toml", out)
    assert _temps(out) == [alive]
    suite = load_suite(out)
    assert len(suite.cases) == 3 and not suite.problems


def test_a_run_stopped_because_nothing_listens_says_why_and_resumes_every_case_once(tmp_path, cli, monkeypatch):
    """`run` gives up after the calls in flight when the server refuses connections (exit 2); the
    line says so and how to go on, and --resume asks those calls again: one record a case."""
    from workbench.providers.fakeserver import FakeServer

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-files-0000")
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_CAP", "0.02")
    folder = _suite(tmp_path)
    out = folder / "runs" / "r.jsonl"
    with socket.socket() as sock:   # a port bound, then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}/v1"
    code, _, err = cli("run", folder, "--jobs", "1", "--reader", "openai:gpt-4o", "--workers", "2", "--base-url", base,
                       "--out", out)
    assert code == 2
    line = _one_line(err)
    assert "is the server running?" in line and "run again with --resume" in line
    stopped = _records(out)
    assert 1 <= len(stopped) < len(CASES) + 1 and all(r["error"]["type"] == "connect" for r in stopped)
    with FakeServer(port=port) as again:
        code, _, err = cli("run", folder, "--jobs", "1", "--reader", "openai:gpt-4o", "--workers", "2", "--resume",
                           "--base-url", again.base_url("openai"), "--out", out)
    assert code == 0, err
    recs = _records(out)
    assert sorted(r["case_id"] for r in recs) == sorted(CASES)      # each once
    assert {r["status"] for r in recs} == {"ok"}                    # the unreached asked again
