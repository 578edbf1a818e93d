"""`pdfworkbench mcp`: the agent tools over MCP stdio, driven by the SDK's own client, and the
client's first submission recorded as a run record (issue 35.6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fixtures import needs
from workbench.core.runs import read_records
from workbench.core.suite import load_suite
from workbench.providers.agent.loop import tool_specs
from workbench.providers.agent.tools import TOOL_NAMES

pytestmark = needs("mcp")

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"
CASE = "hidden_ocr_mismatch-0001"
CLIENT = "test-agent"


@pytest.fixture
def suite(tmp_path) -> Path:
    dest = tmp_path / "mini"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs"))
    return dest


async def _session(argv: list[str], errlog, calls: list[tuple[str, dict]]):
    """Start `pdfworkbench mcp ARGV`, list its tools and make `calls`; every line its stdout
    carried that is not a protocol frame comes back in `bad`."""
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    bad: list[Exception] = []

    async def on_message(message) -> None:
        if isinstance(message, Exception):
            bad.append(message)

    params = StdioServerParameters(command=sys.executable, args=["-m", "workbench", "mcp", *argv],
                                   env=dict(os.environ))
    async with stdio_client(params, errlog=errlog) as (read, write):
        async with ClientSession(read, write, message_handler=on_message,
                                 client_info=types.Implementation(name=CLIENT, version="9.9")) as session:
            await session.initialize()
            listed = await session.list_tools()
            results = [await session.call_tool(name, args) for name, args in calls]
    return listed.tools, results, bad


@pytest.mark.slow
async def test_a_client_reads_the_case_falls_for_the_decoy_and_is_recorded(suite, tmp_path, cli):
    case = load_suite(suite).case(CASE)
    decoy = case.forbidden_answers[0]
    out = tmp_path / "mcp-run.jsonl"
    calls = [("document_info", {}), ("page_text", {"page": 1}), ("page_image", {"page": 1, "dpi": 72}),
             ("submit_extraction", {"answer": decoy}), ("submit_extraction", {"answer": case.expected_answer})]
    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        tools, results, bad = await _session([str(suite), "--case", CASE, "--out", str(out)], errlog, calls)

    # The same four tools, with this case's schemas, as an agent reader is given.
    assert [t.name for t in tools] == list(TOOL_NAMES)
    assert {t.name: t.input_schema for t in tools} == {s["name"]: s["parameters"] for s in tool_specs(case)}
    info, text, image, first, second = results
    assert json.loads(info.content[0].text)["question"] == case.question
    assert decoy.lstrip("€") in text.content[0].text          # the hidden layer, as pypdf reads it
    png = [c for c in image.content if c.type == "image"]
    assert png and png[0].mime_type == "image/png"
    assert not first.is_error and second.is_error and "first submission" in second.content[0].text
    assert bad == []   # stdout carried only protocol frames; the logs went to stderr
    assert f"serving case {CASE}" in (tmp_path / "server-stderr.txt").read_text()

    [rec] = read_records([out])
    assert rec.reader == f"mcp:{CLIENT}" and rec.provenance == "observed" and rec.status == "ok"
    assert rec.answer == decoy and rec.case_id == CASE and rec.modality == "tools"
    assert all(len(rec.extra[h]) == 16 for h in ("contract_hash", "reader_hash", "controller_hash"))
    traced = [t for turn in rec.extra["agent"]["turns"] for t in turn["tools"]]
    assert [t["tool"] for t in traced] == ["document_info", "page_text", "page_image", "submit_extraction"]
    assert traced[2]["arguments"] == {"page": 1, "dpi": 72} and traced[2]["bytes"] > 1000
    assert all("at_ms" in t and "tool_ms" in t for t in traced)

    code, report, _ = cli("report", out)
    assert "fell for the trap" in report and "fell for trap 1/1" in report


async def test_a_case_whose_deadline_passes_before_submit_is_a_timeout(suite, tmp_path):
    out = tmp_path / "mcp-run.jsonl"
    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        # No --case: the session is given the suite's first case. Rendering a page at 300 dpi
        # takes longer than the 1 ms deadline, so it has passed by the time the client submits.
        _, results, _ = await _session([str(suite), "--out", str(out), "--deadline", "0.001"], errlog,
                                       [("page_image", {"page": 1, "dpi": 300}),
                                        ("submit_extraction", {"answer": "x"})])
    assert results[1].is_error and "deadline" in results[1].content[0].text
    [rec] = read_records([out])
    assert rec.status == "timeout" and rec.answer is None and rec.case_id == load_suite(suite).cases[0].id
    assert rec.reader == f"mcp:{CLIENT}"


@pytest.mark.slow
async def test_a_case_already_recorded_is_not_served_again(suite, tmp_path):
    out = tmp_path / "mcp-run.jsonl"
    case = load_suite(suite).case(CASE)
    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        await _session([str(suite), "--case", CASE, "--out", str(out)], errlog,
                       [("submit_extraction", {"answer": case.forbidden_answers[0]})])
        _, [again], _ = await _session([str(suite), "--case", CASE, "--out", str(out)], errlog,
                                       [("submit_extraction", {"answer": case.expected_answer})])
    assert again.is_error and "one attempt per case" in again.content[0].text
    [rec] = read_records([out])   # the first stands
    assert rec.answer == case.forbidden_answers[0]


@pytest.mark.slow
async def test_an_mcp_run_is_its_own_controller_and_is_not_compared_with_an_agent_reader(
        suite, tmp_path, cli, run_cli_subprocess, monkeypatch):
    from workbench.providers.agent.mcpserver import controller_hash
    from workbench.providers.fakeserver import FakeServer

    case = load_suite(suite).case(CASE)
    decoy = case.forbidden_answers[0]
    mcp_run, agent_run = tmp_path / "mcp-run.jsonl", tmp_path / "agent-run.jsonl"
    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        await _session([str(suite), "--case", CASE, "--out", str(mcp_run)], errlog,
                       [("page_text", {"page": 1}), ("submit_extraction", {"answer": decoy})])
    # The same case, read the same way by an agent reader: the fake server's scripted text agent.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-mcp-0123456789abcdef")
    with FakeServer(agent_script={case.question: {"text": decoy, "image": case.expected_answer}}) as fake:
        asked = run_cli_subprocess("ask", suite / f"{CASE}.json", "--reader", "agent:openai:agent-text",
                                   "--base-url", fake.base_url("openai"), "--out", agent_run, "--no-cache")
    assert "fell for the trap" in asked.stderr, asked.stderr[-500:]
    [mcp_rec], [agent_rec] = read_records([mcp_run]), read_records([agent_run])
    assert mcp_rec.answer == agent_rec.answer == decoy
    # Same tools and limits, another controller: the MCP server's, for this transport and deadline.
    for same in ("contract_hash", "reader_hash"):
        assert mcp_rec.extra[same] == agent_rec.extra[same]
    ours = mcp_rec.extra["controller_hash"]
    assert ours == controller_hash("stdio", 600.0) != agent_rec.extra["controller_hash"]
    assert len({ours, controller_hash("streamable-http", 600.0), controller_hash("stdio", 60.0)}) == 3

    code, out, err = cli("report", mcp_run, agent_run, "--suite", suite)
    assert code == 2 and "not comparable" in err and "--allow-mixed" in err and out == ""
    assert f"controller {ours[:12]}" in err
    code, out, err = cli("report", mcp_run, agent_run, "--suite", suite, "--allow-mixed")
    assert code != 2 and f"controller {ours}" in out and f"controller {agent_rec.extra['controller_hash']}" in out

    # Reproducible: a new interpreter elsewhere (another folder, home and hash seed) computes the same.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "HOME": str(elsewhere), "PYTHONHASHSEED": "12345"}
    again = subprocess.run([sys.executable, "-c", "from workbench.providers.agent.mcpserver import "
                            "controller_hash; print(controller_hash('stdio', 600))"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120)
    assert again.stdout.strip() == ours, again.stderr[-500:]


@pytest.mark.slow   # two `mcp` server processes started, each importing the workbench and the MCP SDK: 3.6 s CPU in `make test-fast` at load 5 (2 cores)
async def test_two_servers_on_one_run_file_never_serve_the_same_case(suite, tmp_path):
    """Two `mcp` processes without --case, on one run file, with sessions open at once: each is
    served its own case (a claim beside the run file), and once both are recorded a third session
    is given the next case."""
    import anyio
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    out = tmp_path / "mcp-run.jsonl"
    both_open = anyio.Event()
    opened: list[str] = []

    async def one(errlog) -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "workbench", "mcp", str(suite),
                                                                     "--out", str(out)], env=dict(os.environ))
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(name=CLIENT, version="1")) as s:
                await s.initialize()
                info = await s.call_tool("document_info", {})   # the session's case is chosen
                opened.append(json.loads(info.content[0].text)["question"])
                if len(opened) == 2:
                    both_open.set()
                with anyio.fail_after(120):
                    await both_open.wait()
                await s.call_tool("submit_extraction", {"answer": "x"})

    with open(tmp_path / "server-stderr.txt", "w") as errlog:
        async with anyio.create_task_group() as tg:
            tg.start_soon(one, errlog)
            tg.start_soon(one, errlog)
        _, [third], _ = await _session([str(suite), "--out", str(out)], errlog,
                                       [("submit_extraction", {"answer": "x"})])
    assert not third.is_error
    recs = read_records([out])
    first_three = [c.id for c in load_suite(suite).cases[:3]]
    assert len(opened) == 2 and opened[0] != opened[1]
    assert sorted(r.case_id for r in recs) == sorted(first_three)
