"""What the command tests (tests/cli) check of a command as a user runs it: the exit code, the
JSON it prints, and on bad input one line on stderr and nothing else."""

from __future__ import annotations

import json
from pathlib import Path


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
