"""Local work across every core: one process pool helper for lint, verify, build, inspect and run.

`map_ordered(fn, items, jobs)` yields `fn(item)` for each item in the order of `items`, whatever
order the workers finish in, so a command's output (and a suite hash) does not depend on `jobs`.
With `jobs` 1, or a single item, everything runs in this process (no pool, no pickling).
`fn` must be a module-level function (it is pickled by name) and its results picklable.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, TypeVar

from workbench.core import collector
from workbench.core.errors import UserError
from workbench.core.process import only_thread

# Chunks in flight per worker (see map_ordered): enough that one slow chunk does not idle the
# others, few enough that results waiting their turn stay small (PDFs from build are the largest).
AHEAD_PER_JOB = 8
# How often a worker checks that the process that started it is still there.
ORPHAN_POLL_S = 0.5
# How long a closed helper process (or an agent run's documents process) may take to finish the
# item it was running before it is killed (`end_within`).
CLOSE_GRACE_S = 3.0

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int | None) -> int:
    """`--jobs N`: None or 0 means every core; a negative number is a user error; more than twice
    the cores is that many, said once (each worker loads the PDF libraries, 100-150 MB: `--jobs
    500` on a 1,276-case suite started 500 of them on 2 cores; the work is CPU-bound, so past the
    cores they only add memory)."""
    if jobs is None or jobs == 0:
        return cores()
    if jobs < 0:
        raise UserError(f"--jobs {jobs}: give a number of processes (1 or more), or 0 for every core")
    most = 2 * cores()
    if jobs > most:
        logging.getLogger(__name__).warning(
            "pdfworkbench: warning: --jobs %d: this process may run on %d core(s); %d processes are used "
            "(more would only add memory, 100-150 MB each)", jobs, cores(), most)
        return most
    return jobs


def start_context():
    """How this process starts worker processes now: fork or spawn (see the comment)."""
    # fork starts a worker in milliseconds with every module already imported; it is safe only
    # while this process runs one thread (the CLI). A process with threads (the TUI) spawns.
    if sys.platform.startswith("linux") and only_thread():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _orphan_watch(parent: int, initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    """A worker's first step: it ends itself once its parent is gone (a parent killed with
    SIGKILL cannot stop its pool, and its workers would otherwise wait for work for ever); and it
    works through a batch to its end (`collector.settle`)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()
    collector.settle()
    if initializer is not None:
        initializer(*initargs)


def process_pool(jobs: int, initializer: Callable[..., Any] | None = None,
                 initargs: tuple = ()) -> Executor:
    return ProcessPoolExecutor(max_workers=jobs, mp_context=start_context(), initializer=_orphan_watch,
                               initargs=(os.getpid(), initializer, initargs))


def map_ordered(fn: Callable[[T], R], items: Iterable[T], jobs: int | None = None, *,
                chunksize: int = 1, initializer: Callable[..., Any] | None = None,
                initargs: tuple = ()) -> Iterator[R]:
    """`fn(item)` for every item, in order, on `jobs` processes (see the module docstring).

    Results are produced as the workers finish and handed out in order; at most `AHEAD_PER_JOB`
    chunks per worker run ahead of the consumer, so memory stays bounded on long inputs.
    """
    items = list(items)
    jobs = min(resolve_jobs(jobs), max(1, len(items)))
    if jobs <= 1:
        if initializer is not None:
            initializer(*initargs)
        yield from map(fn, items)
        return
    chunks = [items[i:i + chunksize] for i in range(0, len(items), chunksize)]
    # Chunks in flight, counted from the oldest one not yet handed out. Results are handed out in
    # order, so a slow chunk holds back those after it: with only two per worker, a suite's
    # slower family (a multi-page case is 5x a one-page one) left the other worker idle.
    ahead = AHEAD_PER_JOB * jobs
    pool = process_pool(jobs, initializer, initargs)
    try:
        pending = []
        it = iter(chunks)
        for chunk in it:
            pending.append(pool.submit(_run_chunk, fn, chunk))
            if len(pending) >= ahead:
                break
        while pending:
            done = pending.pop(0)
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.submit(_run_chunk, fn, nxt))
            results, records = done.result()
            for record in records:  # a worker's log lines (and library warnings), logged here
                logging.getLogger(record.name).handle(record)
            yield from results
    finally:  # also when the consumer stops early: queued chunks are dropped, not run
        pool.shutdown(wait=True, cancel_futures=True)


class _Capture(logging.Handler):
    """Keeps the log records a worker emits, made picklable, to hand back with its results."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        # Library objects in the arguments may not survive the trip (pypdf's do not): keep plain
        # values, so a message template still counts as one warning, and format anything else.
        plain = (str, int, float, bool, type(None))
        args = record.args
        if isinstance(args, tuple):
            args = tuple(a if type(a) in plain else str(a) for a in args)
        elif isinstance(args, dict):
            args = {k: v if type(v) in plain else str(v) for k, v in args.items()}
        try:
            str(record.msg) % args if args else None
            record.msg, record.args = str(record.msg), args
        except (TypeError, ValueError, KeyError):
            record.msg, record.args = record.getMessage(), None
        record.exc_info = record.exc_text = None
        self.records.append(record)


class WorkerError(Exception):
    """An error a worker process raised that could not be sent back as it was (an exception
    holding a library's own objects, MuPDF's among them, cannot be pickled: the pool would report
    that pickling failed instead): its message, and the module of its type as `origin`."""

    def __init__(self, message: str, origin: str = "") -> None:
        super().__init__(message, origin)
        self.origin = origin

    def __str__(self) -> str:
        return str(self.args[0])


def _sendable(exc: Exception) -> Exception:
    """`exc`, or a `WorkerError` of its text where it cannot be pickled."""
    import pickle

    try:
        pickle.dumps(exc)
        return exc
    except Exception:
        return WorkerError(str(exc) or type(exc).__name__, type(exc).__module__ or "")


def _run_chunk(fn: Callable[[T], R], chunk: list[T]) -> tuple[list[R], list[logging.LogRecord]]:
    capture = _Capture()
    loggers = [logging.getLogger()] + [logging.getLogger(n) for n in ("workbench",)]
    saved = [lg.handlers[:] for lg in loggers]
    for lg in loggers:
        lg.handlers = [capture]
    try:
        try:
            return [fn(x) for x in chunk], capture.records
        except Exception as exc:
            sent = _sendable(exc)
            if sent is exc:
                raise
            raise sent from exc   # (the remote traceback's text keeps where it came from)
    finally:
        for lg, handlers in zip(loggers, saved, strict=True):
            lg.handlers = handlers


def _nothing() -> None:
    return None


@contextlib.contextmanager
def _devnull_stderr() -> Iterator[None]:
    """sys.stderr as /dev/null while a pool starts: multiprocessing hands sys.stderr's file to the
    processes it starts (its resource tracker), and a Textual app's stderr has none (fileno -1,
    which fails the start); nor should anything they print land on the app's terminal."""
    saved = sys.stderr
    with open(os.devnull, "w") as null:
        sys.stderr = null
        try:
            yield
        finally:
            sys.stderr = saved


def _quiet() -> None:
    """A helper process's output goes nowhere: the terminal it shares belongs to the app."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def end_children() -> None:
    """Kill the worker processes this process started (pools and helpers) and reap them: at the
    workbench's quit, a worker busy with a page would otherwise keep the exit waiting for it."""
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError, ValueError, AttributeError):
            child.kill()
            child.join(1.0)


class HelperProcess:
    """One worker process kept for a screen's lifetime, for work a thread cannot do beside this
    process's own (pure Python holds the GIL): on a second core it runs while this process works.

    It starts in the background: `submit` returns None until the process is up and has run
    `warm` (its imports), and whenever it cannot take work (shut down, or its process died), so
    a caller does the work itself then and never waits for a start-up. Log records the work emits
    are logged here, as `map_ordered` does."""

    def __init__(self, warm: Callable[[], Any] | None = None) -> None:
        with _devnull_stderr():
            self._pool = process_pool(1, _quiet)
            try:
                self._ready = self._pool.submit(warm or _nothing)
            except Exception:
                self._pool.shutdown(wait=False, cancel_futures=True)
                raise

    @classmethod
    def start(cls, warm: Callable[[], Any] | None = None) -> HelperProcess | None:
        """A helper, or None when no process can be started here (a platform or a limit that
        refuses it, a main module that cannot be imported again): the caller works alone."""
        try:
            return cls(warm)
        except (OSError, RuntimeError, ValueError) as exc:
            logging.getLogger(__name__).info("no helper process: %s", exc)
            return None

    def ready(self) -> bool:
        return self._ready.done() and not self._ready.cancelled() and self._ready.exception() is None

    def submit(self, fn: Callable[..., R], *args: Any) -> Future | None:
        """`fn(*args)` in the process (a future of its result), or None (see the class docstring)."""
        if not self.ready():
            return None
        try:
            inner = self._pool.submit(_run_chunk, _Call(fn, args), [None])
        except RuntimeError:  # shut down, or the process died (BrokenProcessPool)
            return None
        outer: Future = Future()

        def done(f: Future) -> None:
            if outer.done():  # the caller cancelled it meanwhile
                return
            if f.cancelled():
                outer.cancel()
                outer.set_running_or_notify_cancel()
                return
            error = f.exception()
            if error is not None:
                outer.set_exception(error)
                return
            results, records = f.result()
            for record in records:
                logging.getLogger(record.name).handle(record)
            outer.set_result(results[0])

        inner.add_done_callback(done)
        return outer

    def close(self) -> None:
        """Stop the process; work not started yet is dropped (its futures are cancelled). The
        process ends once the item it runs is done; one still there after `CLOSE_GRACE_S` is
        killed (in a background thread: the caller does not wait), so no helper outlives its
        screen for long, whatever state the pool's own shutdown is in."""
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        if processes:
            threading.Thread(target=end_within, args=(processes,),
                             name="helper-end", daemon=True).start()


def piped_process(ctx: Any, serve: Callable[[Any, Any], None], name: str) -> tuple[Any, Any]:
    """(this end of a pipe, a started daemon process running `serve(its end, this end)`), from
    the multiprocessing context `ctx`. `serve` closes the second argument, its copy of this end,
    so it reads the end of its input once this process has gone; its own end is closed here."""
    here, child = ctx.Pipe()
    process = ctx.Process(target=serve, args=(child, here), name=name, daemon=True)
    try:
        process.start()
    finally:
        child.close()
    return here, process


def end_within(processes: list[Any], grace: float = CLOSE_GRACE_S) -> None:
    """Wait up to `grace` seconds in all for `processes` to end; kill and reap those still alive."""
    deadline = time.monotonic() + grace
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.kill()
                process.join(1.0)


class _Call:
    """`fn(*args)` as a picklable one-argument callable (for `_run_chunk`)."""

    def __init__(self, fn: Callable[..., Any], args: tuple) -> None:
        self.fn, self.args = fn, args

    def __call__(self, _item: Any) -> Any:
        return self.fn(*self.args)
