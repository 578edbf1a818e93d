"""Shared fixtures. Tests are offline: the only server they talk to is the fake provider on 127.0.0.1.

Where a test goes: the tests of workbench/<layer>/.../<module>.py are tests/<layer>/test_<module>.py,
one folder per layer, also for a module of a subpackage (workbench/tui/screens/inspect.py:
tests/tui/test_inspect.py; workbench/providers/agent/tools.py: tests/providers/test_tools.py). A
test of a behaviour that crosses modules (a hostile input through every command, a whole screen at
a small size) keeps its own name in the layer of its entry point. Helpers and fixtures shared by
several test modules live in tests/support (and in a layer's conftest.py)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Nothing reads the developer's own config, even at import time; each test then gets its own.
os.environ.setdefault("PDFWORKBENCH_CONFIG_DIR", str(ROOT / ".pytest_cache" / "pdfworkbench-config"))
os.environ.setdefault("PDFWORKBENCH_DATA_DIR", str(ROOT / ".pytest_cache" / "pdfworkbench-data"))

# The tests run as from a terminal, where Ctrl-C (SIGINT) ends a process: a shell's background
# job starts with SIGINT ignored, and every process it starts inherits that, so the commands the
# tests interrupt (`fake-server`, a run) went on and their tests waited out a minute and failed.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN and threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    """Settings, cache and keys of this test only: nothing is remembered from one test to the next
    (subprocesses inherit the same environment). The lint cache can be shared: `shared_lint`."""
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PDFWORKBENCH_DATA_DIR", str(tmp_path / "data"))
    from workbench.core import limits

    # A --limit given to an in-process command ends with the test (a screen run by Pilot next
    # would otherwise see it: only a command's start resets them).
    monkeypatch.setattr(limits, "_overrides", {})
    monkeypatch.setattr(limits, "_env_loaded", False)
    monkeypatch.delenv(limits.LIMIT_ENV, raising=False)
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
                "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "OLLAMA_HOST"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("PDFWORKBENCH_LIMITS", raising=False)
    yield
    from workbench.core import limits

    limits.for_command({})  # a --limit of the test's last in-process command ends with the test


def _run_folder(tmp_path_factory) -> Path:
    """The folder of this whole test run, shared by its xdist workers (each has its own below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def made_once(tmp_path_factory, name: str, make) -> Path:
    """`run folder/name`, made by `make(folder)` by the first worker of the run that asks (the
    others wait for it, then use it): a session fixture that costs seconds of CPU is not made again
    in each worker. Nothing may write into what it makes: copy it first."""
    import fcntl
    import shutil

    folder = _run_folder(tmp_path_factory) / name
    with open(folder.with_name(name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = folder.with_name(name + ".made")
        if not made.exists():
            shutil.rmtree(folder, ignore_errors=True)   # (a worker's attempt that failed)
            folder.mkdir()
            make(folder)
            made.touch()
    return folder


@pytest.fixture(scope="session")
def _shared_lint_cache(tmp_path_factory) -> Path:
    folder = _run_folder(tmp_path_factory) / "lint-cache"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def shared_lint(private_settings, _shared_lint_cache) -> Path:
    """This test's lint cache (`lint/` in its cache folder) is a link to one folder for the whole
    run, shared by the xdist workers (entries are written atomically): a suite's case list is
    linted once per run, not in every screen test that opens it (the sample suite's lint is 5 s
    of CPU, 4 of them a scan read by OCR). Findings from the cache are the ones a fresh lint makes
    (tests/checks/test_lint.py); the cache's own tests use a folder of their own."""
    from workbench.checks.lint import lint_cache

    folder = lint_cache()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(_shared_lint_cache, target_is_directory=True)
    return folder


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


@pytest.fixture(scope="session")
def hostile_corpus(tmp_path_factory):
    """The hostile corpus (tests/support/hostile_corpus.py), built once per test run."""
    from tests.support.hostile_corpus import build_corpus

    root = tmp_path_factory.mktemp("hostile")
    return root, build_corpus(root)


@pytest.fixture(scope="session")
def _agent_suite(tmp_path_factory) -> Path:
    """The sample suite with a run of each scripted agent: made once per test run (two runs of the
    whole suite in processes of their own, 4 s of CPU)."""
    from tests.support.fixtures import agent_runs

    return made_once(tmp_path_factory, "agents", agent_runs) / "mini"


@pytest.fixture
def agent_suite(tmp_path, _agent_suite) -> Path:
    """A private copy of the sample suite with a run of each scripted agent (tests.support.fixtures.agent_runs)."""
    import shutil

    dest = tmp_path / "mini"
    shutil.copytree(_agent_suite, dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


def _shipped_files() -> dict[str, tuple[int, int]]:
    """Every file of the shipped sample suites, with its size and modification time."""
    folder = ROOT / "sample_cases"
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


_SHIPPED = pytest.StashKey[dict]()


def pytest_sessionstart(session) -> None:
    if not hasattr(session.config, "workerinput"):   # once, in the process that reports
        session.config.stash[_SHIPPED] = _shipped_files()


def pytest_sessionfinish(session, exitstatus) -> None:
    """The shipped sample suites are read in place by many tests (they are what a user opens
    first): a test that wrote into them (an answer asked, a lock, a case saved) fails the run."""
    before = session.config.stash.get(_SHIPPED, None)
    if before is None:
        return
    after = _shipped_files()
    changed = sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        reporter.write_line("")
        reporter.write_line(
            f"a test wrote into sample_cases/ (copy the suite into tmp_path first): {', '.join(changed[:10])}",
            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED



def pytest_collection_modifyitems(items) -> None:
    """The slow tests first, each group in its own order: pytest-xdist hands tests out in this
    order, so the long ones start while the short ones can still fill the other workers' time,
    and no worker is left with a long test at the end while the rest stand idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session) -> None:
    """What collection imported (every package the tests use: pymupdf, textual, pydantic's
    models) lives to the end: moved out of the collector's sight, so no garbage collection while
    the tests run, and none of the end's five full ones pytest makes to find unraisable errors,
    walks those objects again (the end's alone was a fifth of `--collect-only`). What the tests
    themselves make is collected as a batch's are (`core.collector.settle`): a screen test holds a
    whole app's objects while it runs, and Python's threshold (700) walked them about 50 times a
    worker in full, a sixth of the screen and generator tests' CPU time."""
    import gc

    from workbench.core import collector

    gc.collect()
    collector.settle()
