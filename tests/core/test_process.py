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
