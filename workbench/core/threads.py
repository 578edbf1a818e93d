"""Threads no exit waits for: `DaemonExecutor`, the thread pool of the workbench's workers and of a
PDF's page prefetch. Apart from the process pools (`workbench.core.pool`), whose multiprocessing
a light module does not load (`pdf/pages.py` is imported before the workbench's first frame and by
`grade --explain`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from workbench.core.process import end_now

R = TypeVar("R")


class DaemonExecutor(ThreadPoolExecutor):
    """A thread pool whose threads no exit waits for. `ThreadPoolExecutor` joins its threads when
    the interpreter exits and when asyncio's loop closes (Textual's thread workers run in the
    loop's default executor), so quitting the workbench waited for a page's analysis to end: 13 s
    for a page of 2 million operators. These threads are daemons; `shutdown` never waits (a
    caller that shares state with the work guards it with its own lock). (A ThreadPoolExecutor
    by type only, as asyncio's default executor must be: none of its machinery is used.)"""

    def __init__(self, workers: int = 1, name: str = "worker") -> None:
        super().__init__(max_workers=1)  # (creates no thread until submit, which is replaced)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._workers, self._name = max(1, workers), name
        self._daemons: list[threading.Thread] = []
        self._idle = 0
        self._running = 0
        self._lock = threading.Lock()
        self._shut = False

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        future: Future[R] = Future()
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._queue.put((future, fn, args, kwargs))
            if self._idle == 0 and len(self._daemons) < self._workers:
                thread = threading.Thread(target=self._serve, daemon=True,
                                          name=f"{self._name}-{len(self._daemons)}")
                self._daemons.append(thread)
                thread.start()
            else:
                self._idle = max(0, self._idle - 1)
        return future

    def _serve(self) -> None:
        while (job := self._queue.get()) is not None:
            future, fn, args, kwargs = job
            if future.set_running_or_notify_cancel():
                with self._lock:
                    self._running += 1
                try:
                    result = fn(*args, **kwargs)
                except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
                    future.set_exception(exc)
                else:
                    future.set_result(result)
                finally:
                    with self._lock:
                        self._running -= 1
            del job, future, fn, args, kwargs
            with self._lock:
                self._idle += 1

    def busy(self) -> int:
        """How many of its threads are running work now."""
        with self._lock:
            return self._running

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work and let the threads end once their work is done (never waits)."""
        with self._lock:
            self._shut = True
            if cancel_futures:
                try:
                    while True:
                        job = self._queue.get_nowait()
                        if job is not None:
                            job[0].cancel()
                except queue.Empty:
                    pass
            for _ in self._daemons:
                self._queue.put(None)


def end_process(code: int, executor: DaemonExecutor | None) -> None:
    """The end of a process whose `executor` may still be running work (the workbench's, after its
    quit): when a thread of it is busy, the process ends here, at once, with `code`; else this
    returns and the process ends as usual.

    A busy daemon thread may be inside a C++ library that released the GIL (onnxruntime reading
    a scan for the case list's lint): the interpreter's exit then destroyed that library's static
    state under the running thread, and the process aborted after its work was done ("terminate
    called without an active exception", exit 134, 1 quit in 6 on the sample suite). Exit
    handlers run (logs flushed, temporary files removed), then `os._exit` skips the finalization
    that tears the libraries down."""
    if executor is None or not executor.busy():
        return
    end_now(code)
