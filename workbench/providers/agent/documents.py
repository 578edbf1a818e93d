"""An agent run's documents, read in a process of their own that the run's event loop talks to
over a pipe, with no thread between them.

A run reads each agent case's PDF and page sizes there, then its texts (pypdf holds a process's
GIL about 5 ms a case). Through a ProcessPoolExecutor each trip woke two threads of the run's
process (its queue's feeder, its results' manager), each taking the GIL from the event loop that
eight cases' answers wait on, and cost the loop 0.25 ms; here the loop writes the request to the
pipe itself and reads the answers when the pipe has them (`loop.add_reader`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import os
import signal
from concurrent.futures import BrokenExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from workbench.core.errors import UserError
from workbench.core.pool import end_within, piped_process, start_context
from workbench.providers.agent.tools import DocumentFacts, read_document, read_texts

Texts = list[str] | UserError


class DocumentProcess:
    """The process, started (forked, from the run's one thread) when made. `read` gives a case's
    `DocumentFacts` and, in a second future, its texts; once the process is gone every read is a
    BrokenExecutor, and the caller reads the document itself."""

    def __init__(self) -> None:
        self._conn, self._process = piped_process(start_context(), _serve, "agent-documents")
        self._ids = itertools.count()
        self._waiting: dict[int, tuple[asyncio.Future[DocumentFacts], asyncio.Future[Texts]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._gone = False

    def read(self, path: Path, password: str | None,
             extractor: str) -> tuple[asyncio.Future[DocumentFacts], asyncio.Future[Texts]]:
        """The case's facts (`tools.read_document`: its error, a PdfError, when the PDF cannot be
        read) and then its texts (`tools.read_texts`), as futures of the running loop."""
        loop = asyncio.get_running_loop()
        if self._gone:
            raise BrokenExecutor("the process reading the documents is gone")
        if self._loop is None:
            loop.add_reader(self._conn.fileno(), self._answered)
            self._loop = loop
        n = next(self._ids)
        futures = (loop.create_future(), loop.create_future())
        try:
            self._conn.send((n, str(path), password, extractor))
        except (OSError, ValueError):
            self._stop()
            raise BrokenExecutor("the process reading the documents is gone") from None
        self._waiting[n] = futures
        return futures

    def _answered(self) -> None:
        try:
            n, part, value, failed = self._conn.recv()
        except (EOFError, OSError):
            self._stop()
            return
        futures = self._waiting.get(n)
        if futures is None:
            return
        if part == 1 or failed:   # the texts; or the PDF could not be read, and no texts follow
            del self._waiting[n]
        future = futures[part]
        if future.done():   # the case was cancelled
            return
        if failed:
            future.set_exception(value)
            futures[1].cancel()
        else:
            future.set_result(value)

    def _stop(self) -> None:
        """The process is gone (or being closed): whatever waits for it gets a BrokenExecutor."""
        self._gone = True
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self._conn.fileno())
        for futures in self._waiting.values():
            for future in futures:
                if not future.done():
                    future.set_exception(BrokenExecutor("the process reading the documents is gone"))
                    future.exception()   # retrieved: a case that no longer waits is not warned of
        self._waiting.clear()

    def close(self) -> None:
        """End the process: it stops at the end of its input, after the document it reads; one
        still there after `core.pool.CLOSE_GRACE_S` is killed."""
        self._stop()
        self._conn.close()
        end_within([self._process])


def _serve(conn: Connection, runs_end: Connection) -> None:
    """The process: answer each case asked for with its facts, then with its texts, until the run
    closes its end of the pipe (or is gone). Every case waiting has its facts read before the next
    texts are (a case makes its first call with its facts alone: pypdf's texts for the cases ahead
    of it would hold it back). Ctrl-C is the run's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    runs_end.close()   # its copy here would keep the pipe open once the run has gone
    texts: collections.deque[tuple[int, str, bytes]] = collections.deque()
    while True:
        while not texts or conn.poll(0):
            try:
                n, path, password, extractor = conn.recv()
            except (EOFError, OSError):
                conn.close()
                os._exit(0)
            try:
                facts = read_document(Path(path), password)
            except Exception as exc:  # noqa: BLE001 - said to the run, as a worker pool would
                _answer(conn, n, 0, exc, True)
                continue
            _answer(conn, n, 0, facts, False)
            texts.append((n, extractor, facts.pdf))
        n, extractor, pdf = texts.popleft()
        _answer(conn, n, 1, read_texts(extractor, pdf), False)


def _answer(conn: Connection, n: int, part: int, value: Any, failed: bool) -> None:
    try:
        conn.send((n, part, value, failed))
    except (EOFError, OSError):
        os._exit(0)   # the run is gone
    except Exception as exc:  # noqa: BLE001 - a value that cannot be pickled: its error instead
        conn.send((n, part, UserError(f"cannot read this PDF ({type(exc).__name__}: {str(exc)[:160]})"), True))
