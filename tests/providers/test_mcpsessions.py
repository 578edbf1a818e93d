"""An MCP server's sessions (providers/agent/mcpsessions.py), in-process: the case each session is
served (one per session, one attempt per case, none read by two sessions at once), the tools it
calls, and the one record its case ends with."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.fixtures import SAMPLE, needs
from workbench.core.runs import CallError, iter_records
from workbench.core.suite import load_suite

pytestmark = needs("mcp")

CASES = ("hidden_ocr_mismatch-0001", "hidden_ocr_mismatch-0002")


@pytest.fixture
def suite(tmp_path):
    """Two of the sample's cases in a folder of their own (a suite without a manifest)."""
    folder = tmp_path / "two"
    folder.mkdir()
    for case_id in CASES:
        for ext in (".json", ".pdf"):
            shutil.copy(SAMPLE / f"{case_id}{ext}", folder / f"{case_id}{ext}")
    return load_suite(folder)


def sessions(suite, **kw):
    from workbench.providers.agent.mcpsessions import Sessions

    served = Sessions(suite, kw.pop("fixed", None), None, kw.pop("deadline_s", 60.0), "stdio", "controller-hash")
    served.tg = SimpleNamespace(start_soon=lambda *args: None)   # no deadline watcher: the test ends first
    return served


def client(name: str = "Claude Desktop", version: str = "1.2"):
    """A request's context as the MCP SDK gives it: the client's name from its handshake."""
    info = SimpleNamespace(name=name, version=version)
    return SimpleNamespace(session=SimpleNamespace(client_params=SimpleNamespace(client_info=info)), request=None)


def test_a_client_is_a_reader_and_its_run_file_sits_where_run_puts_one(suite):
    from workbench.providers.agent.mcpsessions import client_reader, run_path

    assert client_reader("Claude Desktop/1.2 (beta)") == "mcp:Claude-Desktop-1.2-beta"
    assert client_reader(None) == "mcp:client" and client_reader("") == "mcp:client"
    assert run_path(suite, "mcp:x", None) == suite.folder / "runs" / "two-mcp-x-tools.jsonl"
    assert run_path(suite, "mcp:x", None, "http") == suite.folder / "runs" / "two-mcp-x-tools-http.jsonl"
    assert run_path(suite, "mcp:x", Path("/elsewhere/r.jsonl")) == Path("/elsewhere/r.jsonl")


def test_each_session_is_served_a_case_no_other_is_reading(suite):
    first, second = sessions(suite), sessions(suite)   # two servers on one run file
    a, b = first.start(client()), second.start(client())
    assert (a.case.id, b.case.id) == CASES
    third = sessions(suite)
    assert third.start(client()) is None
    assert "has a record of mcp:Claude-Desktop" in next(iter(third.refused.values()))
    assert "or is being read by another session (2)" in next(iter(third.refused.values()))
    assert sessions(suite).start(client("another client")).case.id == CASES[0]   # another reader, its own run
    a.close()
    assert sessions(suite).start(client()).case.id == CASES[0]   # given back: served again


def test_a_submission_is_the_case_s_one_record_and_later_ones_do_nothing(suite):
    served = sessions(suite)
    mc = served.start(client())
    info = mc.call("document_info", {})
    assert '"page_count": 1' in info.text and not info.is_error
    assert not mc.call("submit_extraction", {"answer": "€13,144.73"}).is_error
    rec = mc.record("ok")
    assert mc.record("timeout", CallError("deadline", "late")) is None
    (on_disk,) = iter_records(mc.path)
    assert on_disk == rec and rec.reader == "mcp:Claude-Desktop" and rec.answer == "€13,144.73"
    assert (rec.status, rec.modality, rec.finish_reason, rec.suite) == ("ok", "tools", "submitted", "two")
    agent = rec.extra["agent"]
    assert (agent["client_version"], agent["transport"]) == ("1.2", "stdio")
    assert [t["tools"][0]["tool"] for t in agent["turns"]] == ["document_info", "submit_extraction"]
    mc.close()
    assert sessions(suite).start(client()).case.id == CASES[1]   # one attempt per case: the next one


def test_a_case_past_its_deadline_is_a_timeout_and_its_tools_say_it_is_over(suite):
    served = sessions(suite, deadline_s=0.0)
    mc = served.start(client())
    assert mc.expired()
    served.end(None)   # the client left without submitting, after the deadline
    (rec,) = served.records
    assert rec.status == "timeout" and rec.error["type"] == "deadline" and "--deadline" in rec.error["message"]
    late = mc.call("page_text", {"page": 1})
    assert late.is_error and late.text.startswith("this case is over (timeout: the deadline of 0 s has passed)")


def test_a_fixed_case_already_recorded_is_refused_saying_so(suite):
    fixed = suite.case(CASES[0])
    served = sessions(suite, fixed=fixed)
    mc = served.start(client())
    mc.record("no_submission")
    mc.close()
    again = sessions(suite, fixed=fixed)
    assert again.start(client()) is None
    assert next(iter(again.refused.values())) == f"case {CASES[0]} already has a record of mcp:Claude-Desktop in {mc.path}"


def test_a_case_recorded_since_the_run_file_was_read_is_not_claimed(suite):
    from workbench.providers.agent.mcpsessions import claim, claim_path

    served = sessions(suite)
    mc = served.start(client())
    mc.record("no_submission")   # another server's session wrote it
    mc.close()
    assert claim(mc.path, "mcp:Claude-Desktop", CASES[0]) is False
    assert claim_path(mc.path, "mcp:Claude-Desktop", CASES[0]) == \
        mc.path.parent / f".{mc.path.name}.claims" / "mcp-Claude-Desktop" / f"{CASES[0]}.lock"
    held = claim(mc.path, "mcp:Claude-Desktop", CASES[1])
    assert held and claim(mc.path, "mcp:Claude-Desktop", CASES[1]) is None   # another session holds it
    held.release()
