"""The fake provider's batch services: OpenAI Batch, Anthropic Message Batches and Gemini batch mode,
each in its own wire format, for tests and CI dry runs (served by `fakeserver.FakeServer`;
the endpoints of each are in `fakebatchwire.py`).

OpenAI: `POST /v1/files` (multipart, purpose=batch, a JSONL of {custom_id, method, url, body}),
`POST /v1/batches`, `GET /v1/batches[/{id}]`, `POST /v1/batches/{id}/cancel`,
`GET /v1/files/{id}/content`. Anthropic: `POST /v1/messages/batches`, `GET
/v1/messages/batches[/{id}]`, `POST .../{id}/cancel`, `GET .../{id}/results` (JSONL). Gemini:
`POST /v1beta/models/{m}:batchGenerateContent` (inlined requests), `GET /v1beta/batches[/{id}]`
(an Operation whose `response` holds the inlined responses), `POST /v1beta/batches/{id}:cancel`.

A batch stays in progress for `polls` status checks (or `seconds`), then ends as `end`: completed
(every request answered as a live call would be, the model name's faults and `faults` applying
per request), expired or failed. Expired and cancelled batches answer their first half of the
requests and leave the rest expired or cancelled, each in the provider's own terms.

`tamper` lets a test serve anything instead of a step's answer (the batch fuzzer serves truncated,
mistyped, huge, non-UTF-8, HTML, lying-length and dripping answers this way).
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers.fakewire import contents

# Status, body, headers, content type. The body may be an iterator of chunks (a huge file made as
# it is sent); a `content-length` in the headers is sent as it is, true or not, and an
# `x-fake-drip` header has the body sent one byte every 0.2 s (fakeserver's handler does both).
Reply = tuple[int, Any, dict[str, str], str]
# What a test serves instead of a step's own answer: `tamper(step, reply)` returns the reply to
# send (None: the service's own). Steps: upload, create, list, status, cancel, results
# (Anthropic), output and errors (OpenAI's files).
Tamper = Callable[[str, Reply], Reply | None]

ENDS = ("completed", "expired", "failed")


@dataclass
class FakeResult:
    """What became of one request of an ended batch: answered (`status`, `body`), or not run (`end`)."""

    id: str                       # its custom id (Gemini: its metadata key)
    status: int | None = None     # the HTTP status of its answer
    body: Any = None              # the answer or error body a live call would get
    end: str | None = None        # expired | cancelled: the batch ended before it ran

    @property
    def ran(self) -> bool:
        return self.status is not None


@dataclass
class FakeFile:
    """A file of the OpenAI batch service: an uploaded input file, or a batch's output or errors."""

    filename: str | None
    purpose: str                  # batch | batch_output
    data: bytes
    step: str = "file"            # its download's step for `tamper`: file, output or errors


@dataclass
class FakeBatch:
    id: str
    fmt: str                                  # openai | anthropic | google
    model: str
    requests: list[tuple[str, JSONObject]]    # (custom id or key, request body)
    created: float = field(default_factory=time.time)
    metadata: JSONObject = field(default_factory=dict)
    display_name: str = ""
    input_file_id: str | None = None
    key: str | None = None                    # the key it was created with (the 401 fault echoes it)
    polls: int = 0
    state: str = "in_progress"                # in_progress | cancelling | completed | expired | failed | cancelled
    errors: list[JSONObject] = field(default_factory=list)
    results: list[FakeResult] | None = None   # one per request, once the batch has ended
    output_file_id: str | None = None
    error_file_id: str | None = None


def ok(obj: Any) -> Reply:
    return 200, json.dumps(obj).encode(), {}, "application/json"


def iso(t: float) -> str:
    """A time as the services write it (RFC 3339, microseconds, UTC)."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1e6):06d}Z"


class BatchStore:
    """The batches and files of the three fake services, and the life of a batch: created, polled
    until it ends, its requests answered as live calls are."""

    def __init__(self, fake: Any, polls: int = 1, seconds: float | None = None,
                 end: str = "completed", faults: dict[str, str] | None = None,
                 create_delay_s: float = 0.0, tamper: Tamper | None = None) -> None:
        if end not in ENDS:
            raise ValueError(f"batch end {end!r}: choose one of {', '.join(ENDS)}")
        self.fake = fake   # the FakeServer: its lock, its answers, its echo of the key
        self.polls = polls
        self.seconds = seconds
        self.end = end
        self.faults = dict(faults or {})
        self.create_delay_s = create_delay_s
        self.tamper = tamper
        self.batches: dict[str, FakeBatch] = {}
        self.files: dict[str, FakeFile] = {}
        self.creates = 0          # batch creations asked for (a test's "never submits twice")
        self.calls: list[tuple[str, str]] = []   # (method, path) of every batch-service request
        self.key: str | None = None               # the key of the request being answered

    # ---- the life of a batch ------------------------------------------------------------------
    def new_id(self, prefix: str) -> str:
        return prefix + uuid.uuid4().hex[:20]

    def created(self, batch: FakeBatch) -> None:
        batch.key = self.key
        self.batches[batch.id] = batch
        self.creates += 1
        if self.create_delay_s:
            # The batch exists before its creator hears of it: a client killed in this window
            # has submitted a batch whose id it never recorded.
            self.fake._lock.release()
            try:
                time.sleep(self.create_delay_s)
            finally:
                self.fake._lock.acquire()

    def advance(self, batch: FakeBatch, poll: bool = True) -> None:
        if poll:
            batch.polls += 1
        if batch.state == "cancelling":
            self._finish(batch, "cancelled")
        elif batch.state == "in_progress":
            due = batch.polls >= self.polls if self.seconds is None else time.time() - batch.created >= self.seconds
            if due:
                self._finish(batch, self.end)

    def _finish(self, batch: FakeBatch, state: str) -> None:
        batch.state = state
        if state == "failed":
            batch.errors = batch.errors or [{"code": "fake_failure", "message": "The batch failed.", "line": None}]
            batch.results = []
            return
        partial = state in ("expired", "cancelled")
        keep = len(batch.requests) // 2 if partial else len(batch.requests)
        results = []
        for i, (cid, body) in enumerate(batch.requests):
            if i >= keep:
                results.append(FakeResult(cid, end=state))
                continue
            status, _, obj = self._answer(batch, body, i)
            results.append(FakeResult(cid, status, obj))
        batch.results = results

    def _answer(self, batch: FakeBatch, body: JSONObject, i: int) -> tuple[int, dict[str, str], Any]:
        model = batch.model
        faults = self.fake.model_faults(model)
        kind = faults[0][0] if faults else None
        pdfs, texts, _ = contents(batch.fmt, body)
        shas = {hashlib.sha256(pdf).hexdigest() for pdf in pdfs}
        joined = "\n".join(texts)
        for key, fault in self.faults.items():
            if key in shas or key in joined:
                kind = fault
        if kind in ("drop", "timeout", "malformed", "endless", "drip"):
            kind = "500"  # a connection fault has no meaning inside a batch: the request failed
        with_len = len(json.dumps(body))
        return self.fake.reply(batch.fmt, model, body, with_len, kind, batch.key, 10_000 + i)

    def counts(self, batch: FakeBatch) -> dict[str, int]:
        done = [r for r in batch.results or [] if r.ran]
        return {"total": len(batch.requests), "ok": sum(r.status == 200 for r in done),
                "failed": sum(r.status != 200 for r in done),
                "expired": sum(r.end == "expired" for r in batch.results or []),
                "cancelled": sum(r.end == "cancelled" for r in batch.results or [])}

    def get(self, batch_id: str, fmt: str) -> FakeBatch | None:
        batch = self.batches.get(batch_id)
        return batch if batch and batch.fmt == fmt else None
