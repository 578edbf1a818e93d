"""The restricted reader over MCP: an external agent (a coding agent CLI, any MCP client) gets the
same four tools as an agent reader (`tools.DocumentTools`, the schemas of `loop.tool_specs`) on one
case's PDF, and its first valid `submit_extraction` is recorded as a run record: reader
`mcp:<client name>`, the three hashes, the tool trace. One case per session (`mcpsessions`: which
case, its tools, its record).

Two transports: stdio (one session, the process's), and streamable HTTP on 127.0.0.1 behind a
per-launch token and the Host and Origin checks of `core.httpguard`, serving sessions until stopped.
The MCP SDK (the `agents` extra) is imported at the top: `pdfworkbench mcp` checks that it is
installed before it imports this module.
"""

from __future__ import annotations

import importlib.metadata
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import anyio
import uvicorn
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

from workbench.core.errors import UserError
from workbench.core.httpguard import Guard, new_token
from workbench.core.runs import RunRecord
from workbench.core.suite import load_suite
from workbench.providers.agent import mcpsessions
from workbench.providers.agent import tools as tools_mod
from workbench.providers.agent.loop import DEFAULT_DEADLINE_S, identity_hash, source_hash
from workbench.providers.agent.mcpsessions import Sessions

# The server's version as a controller: bump whenever what it holds a client to changes (one
# attempt per case, the deadline's clock, what ends a case, how its record is written).
MCP_CONTROLLER_VERSION = 1
TRANSPORTS = ("stdio", "streamable-http")
HTTP_HOST = "127.0.0.1"
HTTP_PATH = "/mcp"
# What a client is told when it comes without the token (`core.httpguard.Guard`'s hint).
TOKEN_HINT = "send the header `Authorization: Bearer TOKEN` with the token `pdfworkbench mcp --http` printed"
# Seconds a stopping HTTP server waits for open streams (a client's GET stream never ends by itself).
HTTP_STOP_GRACE_S = 2


def controller_hash(transport: str, deadline_s: float) -> str:
    """What the MCP server controls of an external agent's case: its version and code, one
    attempt per case, the deadline, the transport and the SDK speaking it. Never equal to the
    agent loop's controller hash: the loop is not what ran. The server's code is both its modules'."""
    return identity_hash({"controller": "mcp-server", "version": MCP_CONTROLLER_VERSION,
                          "server": [source_hash(sys.modules[__name__]), source_hash(mcpsessions)],
                          "attempts_per_case": 1,
                          "deadline_s": float(deadline_s), "transport": transport,
                          "sdk": importlib.metadata.version("mcp")})


def _sessions(suite_path: Path, case_id: str | None, out: Path | None, deadline_s: float,
              transport: str, extractor: str) -> Sessions:
    tools_mod.check_extractor(extractor)
    suite = load_suite(suite_path)
    fixed = suite.case(case_id) if case_id else None
    tools_mod.check_schemas([fixed] if fixed is not None else suite.cases)
    if out is not None and Path(out).is_dir():
        raise UserError(f"--out {out}: is a folder; give a run file (.jsonl)")
    return Sessions(suite, fixed, out, deadline_s, transport, controller_hash(transport, deadline_s), extractor)


def serve_stdio(suite_path: Path, case_id: str | None, out: Path | None,
                deadline_s: float = DEFAULT_DEADLINE_S,
                extractor: str = tools_mod.DEFAULT_EXTRACTOR) -> RunRecord | None:
    """Serve one session on stdin/stdout; return the record it wrote (None: it wrote none)."""
    sessions = _sessions(suite_path, case_id, out, deadline_s, "stdio", extractor)
    server = sessions.server()

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            sessions.tg = tg
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
            tg.cancel_scope.cancel()

    try:
        anyio.run(main)
    finally:
        sessions.end(None)   # the client went away: a case it did not submit is recorded
    return sessions.records[0] if sessions.records else None


def presented_token(headers: Any, query_string: bytes) -> str:
    """The token a request carries: `Authorization: Bearer T`, else `?token=T` in its URL."""
    scheme, _, value = (headers.get("authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return (parse_qs(query_string.decode("latin-1")).get("token") or [""])[0]


def guarded(app: Any, guard: Guard, ended: Callable[[str | None], Awaitable[None]]) -> Any:
    """`app` behind `guard`: a request without the token is 401, one with another site's Host or
    Origin 403, each with one line; a session the client deletes is `ended`."""
    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":   # the lifespan
            await app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refused = guard.refusal(headers, presented_token(headers, scope.get("query_string", b"")))
        if refused is not None:
            status = 401 if refused.reason == "token" else 403
            challenge = {"WWW-Authenticate": 'Bearer realm="pdfworkbench mcp"'} if status == 401 else None
            response = PlainTextResponse(f"pdfworkbench: refused: {refused.line}\n", status, challenge)
            await response(scope, receive, send)
            return
        await app(scope, receive, send)
        if scope["method"] == "DELETE":
            await ended(headers.get("mcp-session-id"))

    return asgi


def http_url(port: int, token: str | None = None) -> str:
    base = f"http://{HTTP_HOST}:{port}{HTTP_PATH}"
    return base if token is None else f"{base}?token={quote(token, safe='')}"


def serve_http(suite_path: Path, case_id: str | None, out: Path | None, deadline_s: float, port: int,
               announce: Callable[[int, str], None],
               extractor: str = tools_mod.DEFAULT_EXTRACTOR) -> list[RunRecord]:
    """Serve sessions over streamable HTTP on 127.0.0.1 `port` (0: a free one) until SIGINT or
    SIGTERM; `announce(port, token)` once the socket listens. Returns the records written."""
    sessions = _sessions(suite_path, case_id, out, deadline_s, "streamable-http", extractor)
    token = new_token()
    guard = Guard(HTTP_HOST, token, command="pdfworkbench mcp --http", token_hint=TOKEN_HINT)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HTTP_HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UserError(f"cannot serve on {HTTP_HOST} port {port} ({exc.strerror or exc}); choose "
                        "another with --port N (0: a free one)") from None
    guard.port = sock.getsockname()[1]
    # Our guard checks Host and Origin (the exact port, as `serve` does); the SDK's own check is off.
    app = sessions.server().streamable_http_app(
        streamable_http_path=HTTP_PATH, host=HTTP_HOST,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        session_idle_timeout=max(30 * 60.0, deadline_s + 60))

    class Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self):  # type: ignore[override]
            # uvicorn raises the signal again once it has stopped; we end in order instead.
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            saved = {s: signal.signal(s, self.handle_exit) for s in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for s, handler in saved.items():
                    signal.signal(s, handler)

    # No access log: a request line may carry the token.
    server = Server(uvicorn.Config(guarded(app, guard, sessions.deleted), log_config=None, access_log=False,
                                   lifespan="on", timeout_graceful_shutdown=HTTP_STOP_GRACE_S))

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            sessions.tg = tg
            announce(guard.port, token)
            await server.serve(sockets=[sock])
            tg.cancel_scope.cancel()

    try:
        anyio.run(main)
    finally:
        sock.close()
        sessions.stop()
    return sessions.records
