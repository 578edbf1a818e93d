"""This process: whether it runs one thread (`only_thread`), its end without the interpreter's
finalization (`end_now`), and the threads its libraries may start (`cap_library_threads`).
Light: the standard library's atexit, os and sys only, so `grade` can end with it, and the pools
and the first page's process can ask before they fork.
"""

from __future__ import annotations

import atexit
import os
import sys

# Math libraries that start a thread per core when they load (OpenBLAS under numpy and OpenCV;
# OpenMP; MKL): the workbench's parallel work is processes, and it never asks them for threads.
LIBRARY_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def cap_library_threads() -> None:
    """One thread for each of `LIBRARY_THREADS`, unless the user set its variable: at the program's
    entry, before any such library loads, so the worker processes (forked or spawned: they inherit
    the environment) start none either. numpy's import on 2 cores: 130 -> 65 ms CPU."""
    for name in LIBRARY_THREADS:
        os.environ.setdefault(name, "1")


def only_thread() -> bool:
    """Whether this process runs one Python thread, so that a fork is safe (a child gets only the
    forking thread, and a lock another thread held stays held in it for ever) and an end without
    finalization leaves no thread's work behind. Every thread with a Python frame counts, also
    one started with `_thread` as pytest-xdist's does, which `threading.active_count` leaves
    out: forked there, a pool's workers waited for work that never came and the tests hung."""
    return len(sys._current_frames()) == 1


def end_now(code: int, strict: bool = False) -> None:
    """End the process at once with `code`: its exit handlers run (logs flushed, temporary files
    removed) and stdout and stderr are flushed, then `os._exit` skips the finalization that tears
    every module and library down. `strict`: when a flush fails (a closed pipe), return instead,
    so the caller's usual end reports it as before (the exit handlers have run and are not run
    twice)."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            if strict:
                return
    os._exit(code)
