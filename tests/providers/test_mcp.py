"""`pdfworkbench mcp`: the agent tools over MCP stdio, driven by the SDK's own client, and the
client's first submission recorded as a run record (issue 35.6)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import mcp_types as types  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from workbench.core.runs import read_records  # noqa: E402
from workbench.core.suite import load_suite  # noqa: E402
from workbench.providers.agent.loop import tool_specs  # noqa: E402
from workbench.providers.agent.tools import TOOL_NAMES  # noqa: E402

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
