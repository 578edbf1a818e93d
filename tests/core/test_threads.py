"""Threads no exit waits for (workbench/core/threads.py): `DaemonExecutor` runs work on at most its
number of daemon threads, hands back results and errors, and its shutdown never waits."""

from __future__ import annotations

import threading

import pytest

from workbench.core.threads import DaemonExecutor


def test_work_runs_on_daemon_threads_no_more_than_asked_and_errors_reach_the_caller():
    pool = DaemonExecutor(workers=2, name="t")
    gate = threading.Event()
    names: set[str] = set()

    def job(i: int) -> int:
        names.add(threading.current_thread().name)
        assert threading.current_thread().daemon
        gate.wait(10)
        return i * i

    futures = [pool.submit(job, i) for i in range(6)]
    gate.set()
    assert [f.result(timeout=10) for f in futures] == [0, 1, 4, 9, 16, 25]
    assert names <= {"t-0", "t-1"} and names
    failed = pool.submit(lambda: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        failed.result(timeout=10)
    pool.shutdown()


def test_shutdown_never_waits_cancels_what_is_queued_and_takes_no_more():
    pool = DaemonExecutor(workers=1)
    gate, started = threading.Event(), threading.Event()

    def job() -> bool:
        started.set()
        return gate.wait(10)

    running = pool.submit(job)
    assert started.wait(10)   # taken off the queue: what shutdown cancels is the next one only
    queued = pool.submit(lambda: "never")
    pool.shutdown(wait=True, cancel_futures=True)   # returns although `running` still waits
    assert not running.done() and queued.cancelled()
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(lambda: None)
    gate.set()
    assert running.result(timeout=10) is True


END = """
import atexit, sys, threading, time
from workbench.core.threads import DaemonExecutor, end_process
atexit.register(lambda: open(sys.argv[1], "w").write("exit handlers ran"))
pool = DaemonExecutor(workers=1)
started = threading.Event()
if sys.argv[2] == "busy":
    pool.submit(lambda: (started.set(), time.sleep(30)))
    started.wait(10)
else:
    pool.submit(lambda: None).result(10)
print("the work's output")   # a pipe: block-buffered, still in the buffer
end_process(3, pool)
print("returned")
"""


@pytest.mark.parametrize("state", ["busy", "idle"])
def test_end_process_ends_at_once_only_while_a_worker_is_busy_and_loses_no_output(state, tmp_path):
    """A worker still busy at the end (OCR inside onnxruntime, at the workbench's quit) ends the
    process at once with the code given, its output flushed and its exit handlers run; an idle
    one lets the process end as usual."""
    import subprocess
    import sys

    ran = tmp_path / "atexit.txt"
    proc = subprocess.run([sys.executable, "-c", END, str(ran), state], capture_output=True, text=True,
                          timeout=60)
    if state == "busy":
        assert (proc.returncode, proc.stdout) == (3, "the work's output\n"), proc.stderr
    else:
        assert (proc.returncode, proc.stdout) == (0, "the work's output\nreturned\n"), proc.stderr
    assert ran.read_text() == "exit handlers ran"
