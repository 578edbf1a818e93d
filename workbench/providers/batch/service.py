"""The provider batch services' one gate: `Service` alone talks to them (OpenAI Batch API,
Anthropic Message Batches, Gemini batch mode; each one's protocol is beside its adapter:
`providers/openai_batch.py`, `anthropic_batch.py`, `google_batch.py`).

What comes back is untrusted, as a live answer is, and `Service` is its one gate:
- every request ends by a deadline (`exchange.exchange`) and every body is cut at a cap: a JSON
  answer at `provider_batch_reply_bytes`, a result or error file, streamed to a temporary file,
  at `provider_batch_file_bytes`, each of its lines at `provider_answer_bytes`;
- every string of every answer and line is redacted against every key in the process before
  anything else sees it (ids, statuses, counts, messages, results);
- an answer of the wrong shape is one line (a UserError); a result line of the wrong shape is
  that one call's `malformed_response` error, never a traceback (`batch.replies`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import httpx

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.providers import config
from workbench.providers.adapters import adapter
from workbench.providers.base import ReaderSpec, ReadRequest
from workbench.providers.exchange import BodyTooLarge, Reply, body_value, exchange
from workbench.providers.retry import RetryPolicy, decide

_CUSTOM_ID = re.compile(rb'"custom_id"\s*:\s*"([A-Za-z0-9_-]{1,64})"')


class Service:
    """One provider's batch endpoints over httpx, retried like a live call; a refusal is one line.
    Synchronous (each request runs its own event loop): call it where no loop is running, as
    the CLI does, or from a worker thread."""

    def __init__(self, spec: ReaderSpec, url: str, key: str | None, policy: RetryPolicy | None = None) -> None:
        self.spec, self.url, self.key = spec, url.rstrip("/"), key
        self.mod = adapter(spec.provider)
        self.policy = policy or RetryPolicy.from_env()
        # The adapter's own headers (auth, API version): the same as a live call's.
        self.headers = dict(self.mod.build(ReadRequest("", []), spec.model, url, key).headers)
        self.keys = config.process_keys(key)

    def close(self) -> None:
        """Nothing stays open between requests (each has its own client and deadline)."""

    def redact(self, value: Any) -> Any:
        return config.redact_all(value, self.keys)

    def refuse(self, what: str, problem: str, status: int | None = None) -> Refused:
        line = " ".join(f"{self.spec.provider} batch service: {what}: {problem}".split())
        return Refused(self.redact(line if len(line) <= 600 else line[:597] + "..."), status)

    def call(self, method: str, path: str, what: str, *, body: Any = None, files: Any = None,
             data: Any = None, content: bytes | None = None, once: bool = False) -> Any:
        """`method path` against the base URL; its JSON answer, redacted. `content` is a JSON
        body already serialised (the prepared request lines, sent as built). `once`: the request
        is not idempotent (a create): it is tried again only when the service surely did not act
        on it (a 429); after anything else that may have reached it, the next step looks for what
        it made before it asks again."""
        reply = self._request(method, path, what, body=body, files=files, data=data, content=content, once=once)
        try:
            value = json.loads(reply.body)
        except RecursionError:
            raise self.refuse(what, "the answer is nested too deeply to read") from None
        except ValueError:
            raise self.refuse(what, f"the answer is not JSON (it begins {_head(reply.body)})") from None
        return self.redact(value)

    @contextlib.contextmanager
    def download(self, path: str, what: str) -> Iterator[IO[bytes]]:
        """A result or error file, streamed to a temporary file (deleted after) and open at its start."""
        with tempfile.TemporaryFile(prefix="pdfworkbench-batch-") as sink:
            self._request("GET", path, what, sink=sink)
            sink.seek(0)
            yield sink

    def _request(self, method: str, path: str, what: str, *, sink: IO[bytes] | None = None,
                 once: bool = False, **request: Any) -> Reply:
        headers = dict(self.headers)
        if request.get("files") is not None:
            headers.pop("content-type", None)
        elif request.get("content") is not None:
            headers["content-type"] = "application/json"
        request = {k: v for k, v in request.items() if v is not None}
        if "body" in request:
            request["json"] = request.pop("body")
        # A download has its own deadline (a big file is slow to come, not stuck); anything else
        # has the live calls' two.
        if sink is not None:
            per_attempt = deadline = limits.get("provider_batch_download_seconds")
            cap, limit_name = limits.get("provider_batch_file_bytes"), "provider_batch_file_bytes"
        else:
            per_attempt, deadline = self.policy.timeout_s, self.policy.deadline_s
            cap, limit_name = limits.get("provider_batch_reply_bytes"), "provider_batch_reply_bytes"
        started = time.monotonic()
        attempt = 0
        problem = ""
        while True:
            attempt += 1
            status, rheaders, hint, no_retry = None, {}, None, False
            budget = min(per_attempt, deadline - (time.monotonic() - started))
            if budget <= 0:
                raise self.refuse(what, problem if sink is not None else
                                  f"{problem + '; ' if problem else ''}no answer within the step's "
                                  f"deadline of {deadline:g} s")
            if sink is not None:
                sink.seek(0)
                sink.truncate()
            try:
                reply = asyncio.run(self._attempt(method, path, budget, cap, sink, headers, request))
            except (TimeoutError, httpx.TimeoutException):
                problem = f"no complete answer within {budget:.3g} s"
                if sink is not None:
                    problem = limits.exceeded("provider_batch_download_seconds", problem)
            except BodyTooLarge as big:
                # With a sink, an error answer is read into memory: it has the answer cap.
                name = limit_name if sink is None or big.size > cap else "provider_answer_bytes"
                raise self.refuse(what, limits.exceeded(name, f"the answer has {big.size:,} bytes or more")) from None
            except httpx.ConnectError as exc:
                raise self.refuse(what, f"cannot connect to {self.url} ({exc}); is it running? "
                                        "Check --base-url") from None
            except httpx.TransportError as exc:
                problem = f"{exc.__class__.__name__}: {exc}"
            else:
                status, rheaders = reply.status, reply.headers
                if 200 <= status < 300:
                    return reply
                perr = self.mod.parse_error(status, body_value(reply.body))
                hint, no_retry = perr.retry_delay_s, perr.no_retry
                page = _html_title(reply.body)
                problem = f"HTTP {status}: {page or perr.message or reply.reason}"
            if once and status != 429:
                wait = None
            else:
                wait = decide(status, rheaders, hint, no_retry, attempt, self.policy, time.monotonic() - started)
            if wait is None:
                raise self.refuse(what, problem, status)
            time.sleep(wait)

    async def _attempt(self, method: str, path: str, budget: float, cap: int, sink: IO[bytes] | None,
                       headers: dict[str, str], request: dict[str, Any]) -> Reply:
        # `request`: httpx's keyword arguments (json, files, data, content: not all of them JSON)
        # An error body is read into memory, so it has the answer cap, whatever the file's.
        small = min(cap, limits.get("provider_answer_bytes")) if sink is not None else cap
        async with httpx.AsyncClient(verify=not self.url.startswith("http://")) as client:
            return await exchange(client, method, self.url + path, budget, small, sink=sink, sink_cap=cap,
                                  headers=headers, **request)

    def lines(self, file: IO[bytes], what: str) -> Iterator[tuple[int, Any]]:
        """Each line of a downloaded JSON Lines file: (number, its value, redacted), or (number,
        a `BadLine`). A file that is not JSON Lines at all (an HTML page served as the file) is
        refused whole: nothing of it is collected, so the next try starts afresh."""
        cap = limits.get("provider_answer_bytes")
        n = 0
        first = True
        while True:
            line = file.readline(cap + 1)
            if not line:
                return
            n += 1
            if len(line) > cap and not line.endswith(b"\n"):
                head = line[:4096]
                while line and not line.endswith(b"\n"):   # skip the rest of it, in bounded pieces
                    line = file.readline(cap + 1)
                yield n, BadLine(_sniff_custom_id(head), limits.exceeded(
                    "provider_answer_bytes", f"line {n} of the {what} has more than {cap:,} bytes"))
                first = False
                continue
            if not line.strip():
                continue
            if first and not line.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
                raise self.refuse(what, f"the file is not JSON Lines (it begins {_head(line)}); "
                                        "nothing of it was collected: try again later")
            first = False
            try:
                value = json.loads(line.decode("utf-8", "replace"))
            except RecursionError:
                yield n, BadLine(_sniff_custom_id(line[:4096]), f"line {n} of the {what} is nested too deeply")
                continue
            except ValueError as exc:
                yield n, BadLine(_sniff_custom_id(line[:4096]), f"line {n} of the {what} is not JSON ({exc})")
                continue
            if not isinstance(value, dict):
                yield n, BadLine(None, f"line {n} of the {what} is not a JSON object")
                continue
            yield n, self.redact(value)


class Refused(UserError):
    """The service did not do what was asked; `status` is its HTTP status, None when there was
    no answer (a timeout, a broken connection, an answer past its cap or of the wrong shape)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status

    @property
    def surely_not_done(self) -> bool:
        """The service said no (a 4xx other than a timeout or a conflict): nothing was made."""
        return self.status is not None and 400 <= self.status < 500 and self.status not in (408, 409)


@dataclass
class BadLine:
    custom_id: str | None    # the call it belongs to, when its text still says
    problem: str


def _html_title(raw: bytes) -> str | None:
    """"an HTML page (its title)" for a proxy's or a gateway's error page, else None."""
    head = raw[:2048].lstrip().lower()
    if not head.startswith((b"<!doctype html", b"<html")):
        return None
    m = re.search(rb"<title[^>]*>([^<]{0,120})", raw[:8192], re.IGNORECASE)
    title = " ".join(m.group(1).decode("utf-8", "replace").split()) if m else ""
    return f"an HTML page ({title})" if title else "an HTML page"


def _head(raw: bytes) -> str:
    text = raw[:60].decode("utf-8", "replace")
    return repr(" ".join(text.split()) or "(empty)")


def _sniff_custom_id(raw: bytes) -> str | None:
    m = _CUSTOM_ID.search(raw)
    return m.group(1).decode() if m else None
