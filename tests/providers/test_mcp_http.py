"""`pdfworkbench mcp --http`: the agent tools over streamable HTTP on 127.0.0.1, a real server in a
new interpreter, driven by the SDK's own streamable-HTTP client (whole sessions, the records they
leave) and asked by raw httpx requests as a hostile page would (no token, a rebinding Host, another
site's Origin)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.support.cli import ctrl_c
from tests.support.fixtures import needs
from workbench.core.runs import read_records
from workbench.core.suite import load_suite
from workbench.providers.agent.loop import controller_hash as loop_controller_hash
from workbench.providers.agent.mcpserver import controller_hash
from workbench.providers.agent.tools import TOOL_NAMES

pytestmark = needs("mcp")

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
CLIENT = "http-agent"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "curl-ish", "version": "1"}}}
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


class Served:
    """A `pdfworkbench mcp --http` process and what it printed."""

    def __init__(self, proc: subprocess.Popen, lines: list[str]) -> None:
        self.proc, self.lines = proc, lines
        match = re.search(r"on (http://127\.0\.0\.1:(\d+)/mcp)\?token=(\S+) \(Ctrl-C stops\)", lines[0])
        assert match, lines
        self.url, self.port, self.token = match[1], int(match[2]), match[3]

    def stop(self) -> tuple[int, str]:
        """Ctrl-C; the exit code and what the server wrote on stderr."""
        return ctrl_c(self.proc)


def _serve(suite: Path, *args: str) -> Served:
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "mcp", str(suite), "--http", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    lines = [proc.stdout.readline(), proc.stdout.readline()]   # printed once the socket listens
    try:
        return Served(proc, lines)
    except AssertionError:   # not the URL expected: the server must not outlive the test
        proc.kill()
        pytest.fail(f"mcp --http printed {lines!r}; stderr: {proc.communicate()[1][-2000:]}")


@pytest.fixture
def suite(tmp_path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs"))
    return dest


@pytest.fixture
def served(suite, tmp_path):
    server = _serve(suite, "--out", str(tmp_path / "http-run.jsonl"))
    yield server
    if server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait(timeout=20)


async def _session(url: str, token: str, calls: list[tuple[str, dict]]):
    """One whole session with the SDK's client, the token as a Bearer header: list the tools,
    make `calls`, end the session (the client's DELETE)."""
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write,
                                     client_info=types.Implementation(name=CLIENT, version="2.0")) as session:
                await session.initialize()
                listed = await session.list_tools()
                results = [await session.call_tool(name, args) for name, args in calls]
    return listed.tools, results


async def test_sessions_over_http_are_served_a_case_each_and_recorded(served, suite, tmp_path, cli):
    cases = load_suite(suite).cases
    first, second = cases[0], cases[1]
    decoy = first.forbidden_answers[0]
    tools, [info, text, submitted] = await _session(served.url, served.token, [
        ("document_info", {}), ("page_text", {"page": 1}), ("submit_extraction", {"answer": decoy})])
    assert [t.name for t in tools] == list(TOOL_NAMES)
    assert first.question in info.content[0].text
    assert not submitted.is_error and "recorded" in submitted.content[0].text
    # The next session of this client is given the next case; it ends without a submission.
    _, [info2] = await _session(served.url, served.token, [("document_info", {})])
    assert second.question in info2.content[0].text

    code, err = served.stop()
    assert code == 0 and "Traceback" not in err
    assert f"serving case {first.id} to mcp:{CLIENT}" in err and f"serving case {second.id}" in err
    assert f"recorded {first.id} ok, {second.id} no_submission" in err.strip().splitlines()[-1]
    assert served.token not in err   # nothing logs the token

    ok, ended = read_records([tmp_path / "http-run.jsonl"])
    assert (ok.case_id, ok.status, ok.answer, ok.reader) == (first.id, "ok", decoy, f"mcp:{CLIENT}")
    assert (ended.case_id, ended.status, ended.answer) == (second.id, "no_submission", None)
    assert ok.extra["agent"]["transport"] == "streamable-http" and ok.extra["agent"]["client_version"] == "2.0"
    assert [t["tool"] for turn in ok.extra["agent"]["turns"] for t in turn["tools"]] == [
        "document_info", "page_text", "submit_extraction"]
    assert ok.extra["controller_hash"] == controller_hash("streamable-http", 600.0) != loop_controller_hash()
    code, report, _ = cli("report", tmp_path / "http-run.jsonl", "--suite", suite)
    assert "fell for trap 1/2" in report and "1 finished, 1 no submission" in report


def _post(served: Served, headers: dict[str, str], url: str | None = None) -> httpx.Response:
    return httpx.post(url or served.url, json=INITIALIZE, headers={**MCP_HEADERS, **headers}, timeout=30)


def test_requests_without_the_token_or_from_another_site_are_refused(served, tmp_path):
    bearer = {"Authorization": f"Bearer {served.token}"}
    for headers in ({}, {"Authorization": "Bearer " + "x" * len(served.token)},
                    {"Authorization": f"Bearer {served.token[:-1]}"}, {"Authorization": served.token}):
        reply = _post(served, headers)
        assert reply.status_code == 401, headers
        assert reply.headers["www-authenticate"].startswith("Bearer")
        assert reply.text.count("\n") == 1 and "a token is needed" in reply.text and "Authorization: Bearer" in reply.text
    # DNS rebinding: evil.example resolved to 127.0.0.1; the token does not make it this server.
    for host in ("evil.example", f"evil.example:{served.port}", f"127.0.0.1:{served.port + 1}", ""):
        reply = _post(served, {**bearer, "Host": host})
        assert reply.status_code == 403 and "DNS rebinding" in reply.text, host
    for origin in ("http://evil.example", f"http://evil.example:{served.port}", f"https://127.0.0.1:{served.port}",
                   "null"):
        reply = _post(served, {**bearer, "Origin": origin})
        assert reply.status_code == 403 and f"a page from {origin} may not drive" in reply.text, origin
    assert _post(served, {**bearer, "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}).status_code == 403
    # What the user's client sends is answered: the header, the URL's token, this server's own Origin.
    assert _post(served, bearer).status_code == 200
    assert _post(served, {}, url=f"{served.url}?token={served.token}").status_code == 200
    assert _post(served, {**bearer, "Origin": f"http://127.0.0.1:{served.port}"}).status_code == 200
    assert _post(served, {"Authorization": f"bearer {served.token}", "Host": f"localhost:{served.port}"}).status_code == 200

    code, err = served.stop()
    assert code == 0 and not (tmp_path / "http-run.jsonl").exists()   # no session read a case


def test_it_listens_on_loopback_only(served):
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))   # a documentation address: sends nothing
        here = probe.getsockname()[0]
    except OSError:
        here = None
    finally:
        probe.close()
    if here is None or here.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    with pytest.raises(httpx.ConnectError):
        httpx.post(f"http://{here}:{served.port}/mcp", json=INITIALIZE, timeout=10,
                   headers={**MCP_HEADERS, "Authorization": f"Bearer {served.token}"})


def test_bad_flags_are_one_line(cli, suite):
    code, _, err = cli("mcp", suite, "--port", "8123")
    assert code == 2 and err.strip() == "pdfworkbench: error: --port is for --http (stdio has no port)"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, _, err = cli("mcp", suite, "--http", "--port", str(taken.getsockname()[1]))
    assert code == 2 and "choose another with --port N" in err and len(err.strip().splitlines()) == 1


async def test_two_sessions_at_once_never_read_one_case(suite, tmp_path):
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    case = load_suite(suite).cases[3]
    server = _serve(suite, "--case", case.id, "--out", str(tmp_path / "run.jsonl"))
    try:
        auth = {"Authorization": f"Bearer {server.token}"}
        async with create_mcp_http_client(headers=auth) as h1, create_mcp_http_client(headers=auth) as h2:
            async with streamable_http_client(server.url, http_client=h1) as (r1, w1), \
                    streamable_http_client(server.url, http_client=h2) as (r2, w2):
                info = types.Implementation(name=CLIENT, version="2.0")
                async with ClientSession(r1, w1, client_info=info) as one, \
                        ClientSession(r2, w2, client_info=info) as two:
                    await one.initialize()
                    await two.initialize()
                    first = await one.call_tool("document_info", {})
                    second = await two.call_tool("document_info", {})
                    submitted = await one.call_tool("submit_extraction", {"answer": case.expected_answer})
        assert case.question in first.content[0].text and not submitted.is_error
        assert second.is_error and f"case {case.id} is being read by another session" in second.content[0].text
    finally:
        code, err = server.stop()
    assert code == 0
    [rec] = read_records([tmp_path / "run.jsonl"])
    assert (rec.case_id, rec.status, rec.answer) == (case.id, "ok", case.expected_answer)
