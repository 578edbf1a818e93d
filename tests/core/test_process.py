"""This process's state and its end (`workbench.core.process`): a thread `threading` does not see
still makes a fork unsafe; `end_now` ends at once with its output and exit handlers, or returns
when a flush fails and `strict` asks for the usual end."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

END_NOW = """
import atexit, sys
from workbench.core.process import end_now
atexit.register(lambda: open(sys.argv[1], "a").write("ran;"))
print("output")   # a pipe: block-buffered, still in the buffer
if sys.argv[2] == "broken":
    class Broken:
        def write(self, s): return len(s)
        def flush(self): raise OSError("closed pipe")
    sys.stdout = Broken()
    end_now(4, strict=True)
    sys.stderr.write("returned")
    sys.exit(6)
end_now(4, strict=sys.argv[2] == "strict")
print("not reached")
"""


@pytest.mark.parametrize("how", ["plain", "strict", "broken"])
def test_end_now_ends_with_its_code_output_and_exit_handlers_or_returns_on_a_failed_flush(how, tmp_path):
    ran = tmp_path / "atexit.txt"
    proc = subprocess.run([sys.executable, "-c", END_NOW, str(ran), how], capture_output=True, text=True,
                          timeout=60)
    if how == "broken":   # end_now returned; the usual end then reports the failed flush (120)
        assert proc.stderr.startswith("returned") and "closed pipe" in proc.stderr
        assert proc.returncode == 120
    else:
        assert (proc.returncode, proc.stdout) == (4, "output\n"), proc.stderr
    assert ran.read_text() == "ran;"   # the exit handlers ran, once


def test_a_thread_started_without_threading_makes_a_fork_unsafe():
    """pytest-xdist starts its thread with `_thread`, which `threading.active_count` does not see:
    a process pool forked beside it hung the tests (its workers waited for work that never came).
    `only_thread` sees every Python thread, and the pools spawn then."""
    import _thread
    import sys
    import time

    from workbench.core import pool
    from workbench.core.process import only_thread

    started, stop = threading.Event(), threading.Event()

    def hidden() -> None:
        started.set()
        while not stop.is_set():
            time.sleep(0.01)

    _thread.start_new_thread(hidden, ())
    try:
        assert started.wait(10)
        assert not only_thread()
        if sys.platform.startswith("linux"):
            assert pool.start_context().get_start_method() == "spawn"
    finally:
        stop.set()


CAPPED = """
import atexit, os, sys
sys.argv = ["pdfworkbench", "--version"]
def said():
    import numpy   # loaded after the entry: its BLAS starts no thread of its own
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
    print(os.environ["OPENBLAS_NUM_THREADS"], os.environ["OMP_NUM_THREADS"], threads)
atexit.register(said)
from workbench.cli import run
run()
"""


def test_the_program_caps_the_math_libraries_threads_unless_the_user_set_them():
    """One thread for OpenBLAS and OpenMP from the program's entry on (its worker processes
    inherit it); a variable the user set stands."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    env["OMP_NUM_THREADS"] = "3"
    proc = subprocess.run([sys.executable, "-c", CAPPED], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    version, capped = proc.stdout.splitlines()
    assert version.startswith("pdfworkbench ")
    blas, omp, threads = capped.split()
    assert (blas, omp) == ("1", "3")
    if sys.platform.startswith("linux"):
        assert threads == "1"
