"""Fixtures of the command tests: a command run in-process as typed, exit code included (argparse's
own usage errors end in SystemExit), from an empty working folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def work(tmp_path, monkeypatch) -> Path:
    """An empty working folder, the current one: relative paths in a command land here."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def command(capsys):
    """Run `pdfworkbench ARGV...` in-process: (exit code, stdout, stderr)."""
    from workbench.cli import main

    def run(*argv) -> tuple[int, str, str]:
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:   # argparse: --help, or a usage error
            code = exc.code if isinstance(exc.code, int) else 2
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def suite(work):
    """A private copy of the two-case suite (tests/support/fixtures.py), in the working folder."""
    from tests.support.fixtures import suite_copy

    return suite_copy(work)


@pytest.fixture
def runs(suite):
    """Two runs over TOTAL: one answers the key, the other falls for the trap."""
    from tests.support.fixtures import TOTAL, load, record, write_run

    case = load(suite, TOTAL)
    right = write_run(suite / "runs" / "right.jsonl", [record(case, case.expected_answer, reader="t:right")])
    trap = write_run(suite / "runs" / "trap.jsonl", [record(case, case.forbidden_answers[0], reader="t:trap")])
    return right, trap


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A config folder and answer cache of our own, so no developer's settings leak in."""
    env = {"PDFWORKBENCH_CONFIG_DIR": str(tmp_path / "config"),
           "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "cache")}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return tmp_path
