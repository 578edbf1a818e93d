"""The three provider batch services on the wire (OpenAI Batch API, Anthropic Message Batches,
Gemini batch mode), behind one `Service` that alone talks to them.

What comes back is untrusted, as a live answer is, and `Service` is its one gate:
- every request ends by a deadline (`reading.exchange`) and every body is cut at a cap: a JSON
  answer at `provider_batch_reply_bytes`, a result or error file, streamed to a temporary file,
  at `provider_batch_file_bytes`, each of its lines at `provider_answer_bytes`;
- every string of every answer and line is redacted against every key in the process before
  anything else sees it (ids, statuses, counts, messages, results);
- an answer of the wrong shape is one line (a UserError); a result line of the wrong shape is
  that one call's `malformed_response` error, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from workbench.core import limits
from workbench.core.errors import UserError
from workbench.core.runs import CallError
from workbench.providers import config
from workbench.providers.base import ReaderSpec, ReadRequest, ReadResult

INTENT_PREFIX = "pdfworkbench-"
# How far back (seconds) a restart looks for an Anthropic batch it may have created: clocks differ.
CLOCK_SKEW_S = 300
ENDED = ("completed", "expired", "cancelled", "failed")
# What a provider's data may hold where it goes into a file or a URL path of ours: an id (OpenAI
# "batch_abc", Anthropic "msgbatch_abc", Gemini "batches/abc"), a status word, a count's name.
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,255}$")
_CUSTOM_ID = re.compile(rb'"custom_id"\s*:\s*"([A-Za-z0-9_-]{1,64})"')
# A batch answer of a shape we do not know: these are what reading it may raise.
MALFORMED = (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError)


@dataclass
class Poll:
    status: str                       # ours: in_progress | completed | expired | cancelled | failed
    provider_status: str
    counts: dict[str, Any]
    raw: dict[str, Any]
    message: str = ""                 # why a batch failed, when it says

    @property
    def ended(self) -> bool:
        return self.status in ENDED


class Service:
    """One provider's batch endpoints over httpx, retried like a live call; a refusal is one line.
    Synchronous (each request runs its own event loop): call it where no loop is running, as
    the CLI does, or from a worker thread."""

    def __init__(self, spec: ReaderSpec, url: str, key: str | None, policy: Any = None) -> None:
        from workbench.providers.reading import adapter
        from workbench.providers.retry import RetryPolicy

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
                 once: bool = False, **request: Any) -> Any:
        import httpx

        from workbench.providers.reading import BodyTooLarge, _body_value
        from workbench.providers.retry import decide

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
                perr = self.mod.parse_error(status, _body_value(reply.body))
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
                       headers: dict[str, str], request: dict[str, Any]) -> Any:
        import httpx

        from workbench.providers.reading import exchange

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


# ---- reading what a service says -------------------------------------------------------------

def obj(value: Any, what: str) -> dict[str, Any]:
    """`value` as a JSON object, or ValueError naming `what`."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not a JSON object")
    return value


def maybe_obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def ident(value: Any, what: str) -> str:
    """An id the service gave, checked before it goes into a state file or a URL path."""
    if isinstance(value, str) and _ID.match(value) and ".." not in value:
        return value
    raise ValueError(f"{what} is not an id ({_short(value)})")


def word(value: Any, n: int = 64) -> str:
    """A status word or short text from the service, cut to `n` characters."""
    return " ".join(str(value).split())[:n] if value is not None else ""


def counts(value: Any) -> dict[str, Any]:
    """Request counts (numbers, or numbers as strings as Gemini gives them), nothing else."""
    out: dict[str, Any] = {}
    for k, v in maybe_obj(value).items():
        if isinstance(v, bool) or not isinstance(k, str) or len(k) > 40:
            continue
        if isinstance(v, int) or (isinstance(v, str) and v.isdigit() and len(v) < 12):
            out[k] = v
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def shaped(service: Service, what: str, read: Callable[[], Any], after: str = "") -> Any:
    """`read()`, with an answer of the wrong shape turned into one line."""
    try:
        return read()
    except MALFORMED as exc:
        raise service.refuse(what, f"the answer is not what the service sends ({exc})"
                             + (f"; {after}" if after else "")) from None


def _error_result(mod: Any, status: int, body: Any, request_id: str | None = None) -> ReadResult:
    perr = mod.parse_error(status, body)
    return ReadResult("error", request_id=request_id, error=CallError(
        perr.type or (f"http_{status}" if status else "request_failed"), perr.message or f"HTTP {status}",
        status or None, perr.code))


def malformed(problem: str) -> ReadResult:
    return ReadResult("error", error=CallError("malformed_response", f"the provider's answer could not be read: "
                                                                     f"{problem}"))


def _parsed(mod: Any, body: Any, headers: dict[str, str]) -> ReadResult:
    try:
        return mod.parse(body, headers)
    except MALFORMED as exc:
        return malformed(str(exc))


def not_run(end: str) -> ReadResult:
    """A request the batch ended before running: expired (a timeout, asked again by
    --retry-errors), cancelled, or lost with a failed batch."""
    if end == "expired":
        return ReadResult("timeout", error=CallError("batch_expired", "the batch expired before this request ran"))
    if end == "cancelled":
        return ReadResult("cancelled", error=CallError("batch_cancelled", "the batch was cancelled before this request ran"))
    return ReadResult("error", error=CallError("batch_failed", f"the batch {end} without a result for this request"))


def per_call(cid: Any, parse: Callable[[], ReadResult], where: str) -> tuple[str | None, ReadResult]:
    """(the call's custom id, its result): a result of the wrong shape is that call's error."""
    cid = cid if isinstance(cid, str) else None
    try:
        return cid, parse()
    except MALFORMED as exc:
        return cid, malformed(f"{where}: {exc}")


def file_results(service: Service, path: str, what: str,
                 parse: Callable[[dict[str, Any]], ReadResult]) -> Iterator[tuple[str | None, ReadResult]]:
    """The results of a downloaded JSON Lines file, one per line; a line no call can be told
    from comes with custom id None (the caller counts it)."""
    with service.download(path, f"downloading the {what}") as file:
        for n, item in service.lines(file, what):
            if isinstance(item, BadLine):
                yield item.custom_id, malformed(item.problem)
            else:
                yield per_call(item.get("custom_id"), lambda item=item: parse(item), f"line {n} of the {what}")


# ---- the three protocols ----------------------------------------------------------------------

class OpenAIBatches:
    """OpenAI Batch API: a JSONL file (purpose batch) of /v1/chat/completions calls."""

    ENDPOINT = "/v1/chat/completions"
    STATUS = {"validating": "in_progress", "in_progress": "in_progress", "finalizing": "in_progress",
              "cancelling": "in_progress", "completed": "completed", "expired": "expired",
              "cancelled": "cancelled", "failed": "failed"}

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: Any) -> dict[str, Any]:
        return {"custom_id": custom_id, "method": "POST", "url": OpenAIBatches.ENDPOINT, "body": call.body}

    def upload(self, entry: Any, lines: list[bytes]) -> str:
        files = {"file": (f"{entry.intent}.jsonl", b"".join(lines), "application/jsonl")}
        what = "uploading the input file"
        answer = self.s.call("POST", "/files", what, files=files, data={"purpose": "batch"})
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the file's id"))

    def create(self, entry: Any) -> str:
        body = {"input_file_id": entry.file_id, "endpoint": self.ENDPOINT, "completion_window": "24h",
                "metadata": {"pdfworkbench_intent": entry.intent}}
        what = "creating the batch"
        answer = self.s.call("POST", "/batches", what, body=body, once=True)
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the batch's id"))

    def find(self, entry: Any) -> str | None:
        what = "listing batches"
        listing = self.s.call("GET", "/batches?limit=100", what)

        def read() -> str | None:
            for b in obj(listing, "the listing").get("data") or []:
                b = maybe_obj(b)
                if maybe_obj(b.get("metadata")).get("pdfworkbench_intent") == entry.intent:
                    return ident(b.get("id"), "the batch's id")
            return None

        return shaped(self.s, what, read)

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/batches/{batch_id}", what)

        def read() -> Poll:
            b = obj(answer, "the batch")
            raw_status = word(b.get("status"))
            errors = maybe_obj(b.get("errors")).get("data") or []
            message = "; ".join(word(maybe_obj(e).get("message"), 300) for e in list(errors)[:3])
            return Poll(self.STATUS.get(raw_status, "in_progress"), raw_status, counts(b.get("request_counts")),
                        b, message)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Any) -> Iterator[tuple[str | None, ReadResult]]:
        if poll.status == "completed" and not (poll.raw.get("output_file_id") or poll.raw.get("error_file_id")):
            raise self.s.refuse(f"reading batch {entry.batch_id}", "it is completed but names no output or "
                                "error file; nothing of it was collected: try again later")
        for key, what in (("output_file_id", "output file"), ("error_file_id", "error file")):
            file_id = poll.raw.get(key)
            if not file_id:
                continue
            file_id = shaped(self.s, f"downloading the {what}", lambda f=file_id, k=key: ident(f, k))
            yield from file_results(self.s, f"/files/{file_id}/content", what, self._result)

    def _result(self, item: dict[str, Any]) -> ReadResult:
        resp, err = item.get("response"), item.get("error")
        if isinstance(resp, dict) and resp.get("status_code") is not None:
            status = resp["status_code"]
            if isinstance(status, bool) or not isinstance(status, int):
                raise ValueError(f"response.status_code is not a number ({_short(status)})")
            rid = resp.get("request_id") if isinstance(resp.get("request_id"), str) else None
            if status == 200:
                return _parsed(self.s.mod, resp.get("body"), {"x-request-id": rid} if rid else {})
            return _error_result(self.s.mod, status, resp.get("body"), rid)
        if isinstance(err, dict):
            code = word(err.get("code") or "")
            return {"batch_expired": not_run("expired"), "batch_cancelled": not_run("cancelled")}.get(
                code, ReadResult("error", error=CallError(code or "batch_error", word(err.get("message") or "", 1000))))
        raise ValueError("the line has neither a response nor an error")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/batches/{batch_id}/cancel", f"cancelling batch {batch_id}")


class AnthropicBatches:
    """Anthropic Message Batches: {custom_id, params} requests; results as JSONL."""

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: Any) -> dict[str, Any]:
        return {"custom_id": custom_id, "params": call.body}

    def upload(self, entry: Any, lines: list[bytes]) -> None:
        self._lines = lines

    def create(self, entry: Any) -> str:
        body = b'{"requests": [' + b",".join(line.rstrip(b"\n") for line in self._lines) + b"]}"
        what = "creating the message batch"
        answer = self.s.call("POST", "/v1/messages/batches", what, content=body, once=True)
        return shaped(self.s, what, lambda: ident(obj(answer, "the answer").get("id"), "the batch's id"))

    def find(self, entry: Any) -> str | None:
        import datetime as dt

        since = dt.datetime.fromisoformat(str(entry.create_started_at).replace("Z", "+00:00"))
        what = "listing message batches"
        listing = self.s.call("GET", "/v1/messages/batches?limit=100", what)

        def read() -> list[str]:
            found = []
            for b in obj(listing, "the listing").get("data") or []:
                b = maybe_obj(b)
                try:
                    created = dt.datetime.fromisoformat(str(b.get("created_at")).replace("Z", "+00:00"))
                    late = (created - since).total_seconds() >= -CLOCK_SKEW_S
                except (ValueError, TypeError):   # no date, or one without a time zone
                    continue
                total = sum(v for v in counts(b.get("request_counts")).values() if isinstance(v, int))
                if late and total == len(entry.requests):
                    found.append(ident(b.get("id"), "the batch's id"))
            return found

        found = shaped(self.s, what, read)
        if len(found) > 1:
            raise UserError(f"cannot tell which of the message batches {', '.join(found)} this run created "
                            "(Anthropic batches carry no metadata); cancel the ones that are not, then run again")
        return found[0] if found else None

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/v1/messages/batches/{batch_id}", what)

        def read() -> Poll:
            b = obj(answer, "the batch")
            raw_status = word(b.get("processing_status"))
            n = counts(b.get("request_counts"))
            status = "in_progress"
            if raw_status == "ended":
                status = "cancelled" if b.get("cancel_initiated_at") else (
                    "expired" if n.get("expired") else "completed")
            return Poll(status, raw_status, n, b)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Any) -> Iterator[tuple[str | None, ReadResult]]:
        # Built from the id we polled, never from `results_url`: the key goes only where it is meant to.
        yield from file_results(self.s, f"/v1/messages/batches/{entry.batch_id}/results", "results",
                                self._result)

    def _result(self, item: dict[str, Any]) -> ReadResult:
        result = obj(item.get("result"), "result")
        kind = result.get("type")
        if kind == "succeeded":
            return _parsed(self.s.mod, result.get("message"), {})
        if kind == "errored":
            err = maybe_obj(result.get("error"))
            return _error_result(self.s.mod, 0, err if "error" in err else {"error": err})
        if kind == "canceled":
            return not_run("cancelled")
        if kind == "expired":
            return not_run("expired")
        raise ValueError(f"result.type {_short(kind)} is none of succeeded, errored, canceled, expired")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/v1/messages/batches/{batch_id}/cancel", f"cancelling batch {batch_id}")


class GeminiBatches:
    """Gemini batch mode: inlined GenerateContentRequests, each with a metadata key; an Operation."""

    STATUS = {"BATCH_STATE_PENDING": "in_progress", "BATCH_STATE_RUNNING": "in_progress",
              "BATCH_STATE_SUCCEEDED": "completed", "BATCH_STATE_FAILED": "failed",
              "BATCH_STATE_CANCELLED": "cancelled", "BATCH_STATE_EXPIRED": "expired"}

    def __init__(self, service: Service) -> None:
        self.s = service

    @staticmethod
    def line(custom_id: str, call: Any) -> dict[str, Any]:
        return {"request": call.body, "metadata": {"key": custom_id}}

    def upload(self, entry: Any, lines: list[bytes]) -> None:
        self._lines = lines

    def create(self, entry: Any) -> str:
        model = self.s.spec.model.removeprefix("models/")
        requests = b",".join(line.rstrip(b"\n") for line in self._lines)
        body = (b'{"batch": {"display_name": ' + json.dumps(INTENT_PREFIX + entry.intent).encode()
                + b', "input_config": {"requests": {"requests": [' + requests + b"]}}}}")
        what = "creating the batch"
        op = self.s.call("POST", f"/v1beta/models/{model}:batchGenerateContent", what, content=body, once=True)

        def read() -> str:
            answer = obj(op, "the answer")
            return ident(answer.get("name") or maybe_obj(answer.get("metadata")).get("name"), "the batch's name")

        return shaped(self.s, what, read)

    def find(self, entry: Any) -> str | None:
        what = "listing batches"
        listing = self.s.call("GET", "/v1beta/batches?pageSize=100", what)

        def read() -> str | None:
            answer = obj(listing, "the listing")
            for op in answer.get("operations") or answer.get("batches") or []:
                op = maybe_obj(op)
                meta = maybe_obj(op.get("metadata")) or op
                if meta.get("displayName", meta.get("display_name")) == INTENT_PREFIX + entry.intent:
                    return ident(op.get("name") or meta.get("name"), "the batch's name")
            return None

        return shaped(self.s, what, read)

    def poll(self, batch_id: str) -> Poll:
        what = f"checking batch {batch_id}"
        answer = self.s.call("GET", f"/v1beta/{batch_id}", what)

        def read() -> Poll:
            op = obj(answer, "the operation")
            meta = maybe_obj(op.get("metadata"))
            done = op.get("done") is True
            raw_status = word(meta.get("state") or ("BATCH_STATE_SUCCEEDED" if done else "BATCH_STATE_PENDING"))
            status = self.STATUS.get(raw_status, "in_progress")
            if done and status == "in_progress":
                status = "failed" if op.get("error") else "completed"
            message = word(maybe_obj(op.get("error")).get("message") or "", 300)
            return Poll(status, raw_status, counts(meta.get("batchStats")), op, message)

        return shaped(self.s, what, read, "nothing was changed")

    def results(self, poll: Poll, entry: Any) -> Iterator[tuple[str | None, ReadResult]]:
        raw = poll.raw
        inlined = (maybe_obj(raw.get("response")).get("inlinedResponses")
                   or maybe_obj(maybe_obj(raw.get("metadata")).get("output")).get("inlinedResponses") or {})
        items = (inlined.get("inlinedResponses") if isinstance(inlined, dict) else inlined) or []
        if not isinstance(items, list) or (poll.status == "completed" and not items and entry.requests):
            raise self.s.refuse(f"reading batch {entry.batch_id}", "it ended without a list of inlined "
                                "responses; nothing of it was collected: try again later")
        keys = list(entry.requests)
        for i, item in enumerate(items):
            # Responses come in request order; the metadata key, when it is echoed, names it.
            item = maybe_obj(item)
            cid = maybe_obj(item.get("metadata")).get("key") or (keys[i] if i < len(keys) else None)
            yield per_call(cid, lambda item=item: self._result(item), f"inlined response {i + 1}")

    def _result(self, item: dict[str, Any]) -> ReadResult:
        if "response" in item:
            return _parsed(self.s.mod, item["response"], {})
        if "error" in item:   # a google.rpc.Status: its code is gRPC's, not HTTP's
            return _error_result(self.s.mod, 0, {"error": maybe_obj(item["error"])})
        raise ValueError("the item has neither a response nor an error")

    def cancel(self, batch_id: str) -> None:
        self.s.call("POST", f"/v1beta/{batch_id}:cancel", f"cancelling batch {batch_id}")


PROTOCOLS = {"openai": OpenAIBatches, "anthropic": AnthropicBatches, "google": GeminiBatches}
