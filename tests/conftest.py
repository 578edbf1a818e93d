"""Shared fixtures. Tests are offline: the only server they talk to is the fake provider on 127.0.0.1."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_SUITE = ROOT / "sample_cases" / "mini"

# The TUI must never read the developer's own config or remember things between tests.
os.environ.setdefault("PDFWORKBENCH_CONFIG_DIR", str(ROOT / ".pytest_cache" / "pdfworkbench-config"))
os.environ.setdefault("PDFWORKBENCH_DATA_DIR", str(ROOT / ".pytest_cache" / "pdfworkbench-data"))


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""
    from workbench.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def run_cli_subprocess():
    """Run the real console entry point in a new interpreter."""
    import subprocess

    def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "workbench", *map(str, argv)],
                              capture_output=True, text=True, cwd=cwd, timeout=120)

    return run
