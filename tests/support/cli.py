"""What the command tests (tests/cli) check of a command as a user runs it: the exit code, the
JSON it prints, and on bad input one line on stderr and nothing else."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

# A key planted where a provider key goes: no output and no file may hold it.
PLANTED = "sk-test-planted-key-0123456789abcdefXYZ"


def run_command(*argv, input=None, env=None, cwd=None, timeout=120) -> subprocess.CompletedProcess:
    """`pdfworkbench ARGV...` in a new interpreter, as a user runs it (`env` added to this one's)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "workbench", *map(str, argv)], capture_output=True,
                          text=True, input=input, env=full_env, cwd=cwd, timeout=timeout)


def ctrl_c(proc: subprocess.Popen, timeout: float = 60) -> tuple[int, str]:
    """Ctrl-C to a command started with `subprocess.Popen` (SIGINT, as a terminal sends it), then
    its exit code and the rest of its stderr. One still running after `timeout` is killed before
    the test fails: a failed test never leaves its command running (a fake server, a run)."""
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    return proc.returncode, err or ""


def printed_json(result: tuple[int, str, str], code: int = 0):
    """The JSON a command printed on stdout, once its exit code is `code`."""
    got, out, err = result
    assert got == code, f"exit {got}, expected {code}: {err[-500:]}"
    return json.loads(out)


def refused(result: tuple[int, str, str], needle: str = "") -> str:
    """Bad input: exit 2, nothing on stdout (no half-printed JSON), one line on stderr saying what
    went wrong (with `needle` in it) and no traceback. Returns that line."""
    code, out, err = result
    lines = err.strip().splitlines()
    assert code == 2, f"exit {code}: {err[-500:]}"
    assert out == "", out[:300]
    assert len(lines) == 1 and "error" in lines[0], err[-500:]
    assert needle in lines[0], lines[0]
    return lines[0]


def files_under(folder: Path) -> list[str]:
    """Every file below `folder` (a command refused must have written none)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    """Exit 2, no traceback, one line on stderr with every one of `needles` in it."""
    assert code == 2
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0]
