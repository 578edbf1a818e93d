"""A fake model provider on 127.0.0.1 that speaks all five wire formats, for tests and CI dry runs.

Routes: `/v1/chat/completions` (and `/chat/completions`: OpenAI and OpenAI-compatible),
`/v1/messages` (Anthropic), `/v1beta/models/{model}:generateContent` (Google), `/api/chat`
(Ollama), `GET /health`.

A request with tools to a model named `agent-<kind>` is answered by a scripted tool-calling agent
(`fakeagents.py`). Other answers come from a script (a JSON object mapping a PDF's sha256, or any text found in the prompt,
or "*", to an answer), else from the document itself: the PDF's text layer, or the text sent.

Faults are asked for in the model name, after a `+`: `openai:gpt-4o+429-retry-after-ms` or
`google:fake+500x2+timeout`. Each fault serves that many attempts (`xN`, default 1; `xall` for
every attempt) of the same request, in order; the attempt after the last fault is answered
normally. The server's `faults` setting applies a sequence to models that name none.

Kinds: 429 (no hint), 429-retry-after-ms, 429-retry-after, 429-retryinfo (Gemini RetryInfo in the
body), 429-long (asks for 600 s), 429-quota (exhausted quota or credit, each provider's own way),
429-perday (Gemini daily quota), 400, 401 (echoes the key it got, as careless servers do), 403, 404, 408, 409, 500, 502, 503, 529,
timeout (answers after `hang_s`), drop (closes the connection), malformed (200 with broken JSON),
empty (200 with `{}`), blocked, safety, refusal, truncated.

Hostile kinds (what a server we do not control may do): drip (a valid answer, one byte every
0.2 s), endless (a 200 whose body never ends), huge (a valid answer of `huge_mb` megabytes),
echo-key (a valid answer that repeats the key it got, in the text and in a header). Each stops by
itself after `hang_s` seconds (or when the client hangs up), so no test can leave it running.

`echo_key=True` makes the whole server careless with the key it got: it comes back in every field
that can carry text (`echo_everywhere`): each error's message, type, code and param (Gemini: status
and details), the HTTP reason phrase and the request-id headers; each answer's text, id, model and
finish reason; and in the batch services the result and error lines, request ids, status messages
and request counts.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from workbench.core.schema import JSONObject
from workbench.pdf.textlayer import text_pymupdf
from workbench.providers.fakeagents import agent_reply, agent_script_with, is_agent_request
from workbench.providers.fakebatchwire import BatchService
from workbench.providers.fakewire import (
    bad_request,
    contents,
    echo_everywhere,
    echo_headers,
    error_reply,
    structured_problem,
    structured_tool,
    success,
)

FAULT_KINDS = (
    "429", "429-retry-after-ms", "429-retry-after", "429-retryinfo", "429-long", "429-quota",
    "429-perday", "400", "401", "403", "404", "408", "409", "500", "502", "503", "529",
    "timeout", "drop", "malformed", "empty", "blocked", "safety", "refusal", "truncated",
    "drip", "endless", "huge", "echo-key",
)
_FAULT = re.compile(r"^(?P<kind>[a-z0-9-]+?)(?:x(?P<count>\d+|all))?$")
_GOOGLE_PATH = re.compile(r"/v1beta/models/(?P<model>[^/:]+):generateContent$")


def parse_faults(spec: str) -> list[tuple[str, int | None]]:
    """"500x2+timeout" -> [("500", 2), ("timeout", 1)]; a count None means every attempt."""
    out: list[tuple[str, int | None]] = []
    for token in filter(None, spec.split("+")):
        m = _FAULT.match(token)
        if not m or m.group("kind") not in FAULT_KINDS:
            raise ValueError(f"unknown fault {token!r}; known: {', '.join(FAULT_KINDS)}")
        count = m.group("count")
        out.append((m.group("kind"), None if count == "all" else int(count or 1)))
    return out


def fault_for_attempt(faults: list[tuple[str, int | None]], attempt: int) -> str | None:
    """The fault served on the `attempt`-th try (1-based) of a request, or None to answer."""
    n = attempt
    for kind, count in faults:
        if count is None or n <= count:
            return kind
        n -= count
    return None


class FakeServer:
    """The fake provider, run in a background thread: `with FakeServer() as server: server.url`."""

    def __init__(self, script: dict[str, str] | Path | None = None, latency_s: float = 0.0,
                 faults: str = "", hang_s: float = 5.0, hint_s: float = 0.01,
                 host: str = "127.0.0.1", port: int = 0, huge_mb: float = 64.0,
                 batch_polls: int = 1, batch_seconds: float | None = None, batch_end: str = "completed",
                 batch_faults: dict[str, str] | None = None, batch_create_delay_s: float = 0.0,
                 echo_key: bool = False, batch_tamper: Any = None,
                 agent_script: dict[str, dict[str, str]] | None = None, agent_loop_s: float = 0.05) -> None:
        if isinstance(script, (str, Path)):
            script = json.loads(Path(script).read_text(encoding="utf-8"))
        if script is not None and not isinstance(script, dict):
            raise ValueError("a fake-server script is a JSON object: {sha256 or text or '*': answer}")
        self.script: dict[str, str] = {str(k): str(v) for k, v in (script or {}).items()}
        self.latency_s = latency_s
        self.default_faults = parse_faults(faults)
        self.hang_s = hang_s
        self.hint_s = hint_s
        self.huge_mb = huge_mb
        self.echo_key = echo_key
        # Scripted tool-calling agents (fakeagents.py): question text -> {"text", "image"} answers
        # (the plain script's answers stand for the image values it does not give).
        self.agent_script = agent_script_with(dict(agent_script or {}), self.script)
        self.agent_loop_s = agent_loop_s
        self.requests: list[JSONObject] = []
        self._attempts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)   # notified as each request is recorded
        # The three batch services (see fakebatch.py, fakebatchwire.py): a batch is in progress for `batch_polls`
        # status checks (or `batch_seconds`), then ends as `batch_end` (completed | expired |
        # failed); `batch_faults` maps a PDF sha256 or prompt text to the fault one request gets.
        self.batch = BatchService(self, polls=batch_polls, seconds=batch_seconds, end=batch_end,
                                  faults=batch_faults or {}, create_delay_s=batch_create_delay_s,
                                  tamper=batch_tamper)
        self._httpd = _Server((host, port), _Handler)
        self._httpd.fake = self
        self._thread: threading.Thread | None = None

    # ---- lifecycle -------------------------------------------------------------------------
    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def base_url(self, provider: str) -> str:
        """The base URL to give each provider's reader (OpenAI's includes /v1, as its SDK expects)."""
        return self.url + "/v1" if provider == "openai" else self.url

    def start(self) -> str:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-provider", daemon=True)
        self._thread.start()
        return self.url

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    def wait_for_requests(self, count: int = 1, timeout: float = 60.0) -> bool:
        """Block until `count` requests have arrived (True), or `timeout` seconds pass (False): a
        test waits for the call it needs in flight, not a guessed time (`asyncio.to_thread` it
        from a coroutine)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= count, timeout)

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (the CLI command); then call `close()`."""
        self._httpd.serve_forever()

    def close(self) -> None:
        self._httpd.server_close()

    def __enter__(self) -> FakeServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- answering ---------------------------------------------------------------------------
    def next_attempt(self, key: str) -> int:
        with self._lock:
            self._attempts[key] = self._attempts.get(key, 0) + 1
            return self._attempts[key]

    def answer_for(self, pdfs: list[bytes], texts: list[str]) -> str:
        for pdf in pdfs:
            digest = hashlib.sha256(pdf).hexdigest()
            if digest in self.script:
                return self.script[digest]
        joined = "\n".join(texts)
        for key, answer in self.script.items():
            if key != "*" and key in joined:
                return answer
        if "*" in self.script:
            return self.script["*"]
        if pdfs:
            try:
                return "\n".join(text_pymupdf(pdfs[0])).strip()
            except Exception:
                return "(unreadable PDF)"
        start, end = joined.find("<<<\n"), joined.rfind("\n>>>")
        if 0 <= start < end:  # the text modality's document, fenced off from the prompt
            return joined[start + 4 : end].strip()
        return "(no text layer)"


    def model_faults(self, model: str) -> list[tuple[str, int | None]]:
        """The faults a model name asks for (`fake+500x2`), else the server's default sequence."""
        _, plus, spec = model.partition("+")
        return parse_faults(spec) if plus else self.default_faults

    def reply(self, fmt: str, model: str, body: JSONObject, raw_len: int, kind: str | None,
              key: str | None, n: int) -> tuple[int, dict[str, str], Any]:
        """Status, headers and JSON body of one request's answer (faults that act on the
        connection itself, such as drop or drip, are the handler's)."""
        if kind and kind[:3].isdigit():
            status, headers, err = error_reply(fmt, kind, self.hint_s, key)
            if self.echo_key:
                headers, err = {**headers, **echo_headers(key)}, echo_everywhere(fmt, err, key)
            return status, headers, err
        if kind == "empty":
            return 200, {}, {}
        if is_agent_request(model, body):
            return 200, {}, agent_reply(fmt, model, body, n, self.agent_script, max(1, raw_len // 4),
                                        self.agent_loop_s)
        problem = structured_problem(fmt, body)
        if problem:
            return bad_request(fmt, problem)
        pdfs, texts, _ = contents(fmt, body)
        answer = self.answer_for(pdfs, texts)
        if kind == "huge":
            answer = "x" * int(self.huge_mb * 2**20)
        if kind == "echo-key":
            answer = f"{answer} (you sent me {key})"
        finish = kind or "stop"
        if finish == "truncated":
            answer = answer[: max(1, len(answer) // 2)]
        resp = success(fmt, model, n, answer, finish, max(1, raw_len // 4), structured_tool(fmt, body))
        rid = {"openai": {"x-request-id": f"req_fake{n}"},
               "anthropic": {"request-id": f"req_fake{n}"}}.get(fmt, {})
        if kind == "echo-key":
            rid = {"x-request-id": f"req_{key}", "request-id": f"req_{key}"}
        if self.echo_key:
            rid, resp = {**rid, **echo_headers(key)}, echo_everywhere(fmt, resp, key)
        return 200, rid, resp


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    # socketserver's default backlog of 5 drops the SYNs of a burst of new connections, and the
    # client waits a full second to resend them.
    request_queue_size = 128
    allow_reuse_address = True
    fake: FakeServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up mid-answer (as one past its cap or its deadline does) is not
        the server's error; anything else is printed, as socketserver does."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle on, the body waits for a delayed ACK (~40 ms).
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None,
              content_type: str = "application/json") -> None:
        """Send a reply. `body` is bytes or an iterator of chunks (then with a `content-length`
        in `headers`, or none: the body ends when the connection closes). A `content-length` in
        `headers` is sent as given, true or not (the connection is closed after it, as a server
        that lied about it would leave it); `x-fake-drip` drips the body a byte every 0.2 s."""
        headers = dict(headers or {})
        length = headers.pop("content-length", None)
        drip = headers.pop("x-fake-drip", None) is not None
        chunks = [body] if isinstance(body, bytes) else body
        if length is None and isinstance(body, bytes):
            length = str(len(body))
        reason = None
        if self.server.fake.echo_key:
            key = self._key()
            headers = {**echo_headers(key), **headers}
            reason = f"{self.responses.get(status, ('Error',))[0]} for {key}"
        end = time.monotonic() + self.server.fake.hang_s
        try:
            self.send_response(status, reason)
            self.send_header("content-type", content_type)
            if length is not None:
                self.send_header("content-length", length)
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            for chunk in chunks:
                if not drip:
                    self.wfile.write(chunk)
                    continue
                for i in range(len(chunk)):
                    if time.monotonic() > end:
                        break
                    self.wfile.write(chunk[i:i + 1])
                    self.wfile.flush()
                    time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        if not isinstance(body, bytes) or drip or length != str(len(body)):
            self.close_connection = True

    def _key(self) -> str | None:
        h = self._headers()
        return h.get("authorization", "").removeprefix("Bearer ") or h.get("x-api-key") or h.get("x-goog-api-key")

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(obj).encode("utf-8"), headers)

    def do_GET(self) -> None:
        if self.path == "/health":
            return self._json(200, {"ok": True, "requests": len(self.server.fake.requests)})
        handled = self.server.fake.batch.route("GET", self.path, b"", self._headers())
        if handled is None:
            return self._json(404, {"error": "not found"})
        return self._send(*handled)

    def _headers(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers.items()}

    def do_POST(self) -> None:
        fake = self.server.fake
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        path = self.path.split("?", 1)[0]
        handled = fake.batch.route("POST", self.path, raw, self._headers())
        if handled is not None:
            return self._send(*handled)
        gm = _GOOGLE_PATH.search(path)
        if path.endswith("/chat/completions"):
            fmt = "openai"
        elif path.endswith("/v1/messages"):
            fmt = "anthropic"
        elif gm:
            fmt = "google"
        elif path.endswith("/api/chat"):
            fmt = "ollama"
        else:
            return self._json(404, {"error": f"no such endpoint {path}"})
        try:
            body = json.loads(raw)
        except ValueError:
            return self._json(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
        headers = {k.lower(): v for k, v in self.headers.items()}
        with fake._lock:
            fake.requests.append({"format": fmt, "path": path, "headers": headers, "body": body})
            n = len(fake.requests)
            fake._arrived.notify_all()
        model = gm.group("model") if gm else str(body.get("model", ""))
        _, plus, spec = model.partition("+")
        try:
            faults = parse_faults(spec) if plus else fake.default_faults
        except ValueError as exc:
            return self._json(400, {"error": {"message": str(exc), "type": "invalid_request_error"}})
        attempt = fake.next_attempt(hashlib.sha256(path.encode() + b"\0" + raw).hexdigest())
        kind = fault_for_attempt(faults, attempt)
        if fake.latency_s:
            time.sleep(fake.latency_s)
        key = self._key()
        if kind == "drop":
            self.close_connection = True
            return None
        if kind == "timeout":
            time.sleep(fake.hang_s)
        if kind == "malformed":
            return self._send(200, b'{"choices": [ {"message": ', {"x-request-id": f"req_fake{n}"})
        if kind == "empty":
            return self._json(200, {})
        if kind == "endless":
            return self._endless(fake.hang_s)
        status, rid, resp = fake.reply(fmt, model, body, len(raw.decode("utf-8", "replace")),
                                       None if kind in ("timeout", "drip") else kind, key, n)
        if kind == "drip" and status == 200:
            return self._drip(json.dumps(resp).encode("utf-8"), rid, fake.hang_s)
        return self._json(status, resp, rid)

    def _drip(self, body: bytes, headers: dict[str, str], limit_s: float) -> None:
        """Send `body` one byte every 0.2 s (a read timeout never fires), for at most `limit_s`."""
        end = time.monotonic() + limit_s
        try:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            for i in range(len(body)):
                if time.monotonic() > end:
                    break
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def _endless(self, limit_s: float) -> None:
        """A 200 with no length whose body never ends: 64 KiB chunks until the client hangs up
        or `limit_s` passes."""
        end = time.monotonic() + limit_s
        chunk = b"x" * 65536
        try:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"choices": [{"message": {"role": "assistant", "content": "')
            while time.monotonic() < end:
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


@contextmanager
def running(**kwargs: Any) -> Iterator[FakeServer]:
    """A started fake server for the length of a `with` block."""
    server = FakeServer(**kwargs)
    server.start()
    try:
        yield server
    finally:
        server.stop()
