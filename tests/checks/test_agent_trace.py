"""An agent's trace joined with attribution (workbench.checks.agent_trace), without the TUI: on runs
of the fake server's scripted agents over the sample suite (tests.support.fixtures.agent_runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.checks.agent_trace import (
    agent_trace,
    answer_and_trace,
    reader_said,
    step_line,
    trace_summary,
    value_and_trace,
)
from workbench.checks.attribution import attribute
from workbench.core.runs import RunRecord, iter_records
from workbench.core.suite import load_suite
from workbench.grading.report import tool_use_of

TRAP = "white_text_injection-0001"          # one page; the total's decoy in white text
SPLIT = "split_table_across_pages-0001"     # two pages; the asked total on page 2
CROSS = "cross_page_citation-0001-322b2b"   # four pages; the decoy fee printed on page 4


@pytest.fixture(scope="module")
def runs(_agent_suite) -> dict[str, dict[str, RunRecord]]:
    """kind -> case id -> the scripted agent's record."""
    return {kind: {r.case_id: r for r in iter_records(_agent_suite / "runs" / f"agent-{kind}.jsonl")}
            for kind in ("text", "image")}


@pytest.fixture(scope="module")
def cases(_agent_suite):
    return {c.id: c for c in load_suite(_agent_suite).cases}


def said(cases, record: RunRecord, answer: str | None = None) -> str | None:
    case = cases[record.case_id]
    found = attribute(case, Path(case.pdf_file).read_bytes(), answer or record.answer or "")
    return answer_and_trace(found, agent_trace(record))


@pytest.mark.slow
def test_the_text_agent_read_the_hidden_layer_and_never_the_image(runs, cases):
    rec = runs["text"][TRAP]
    trace = agent_trace(rec)
    assert [(s.turn, s.tool, s.page) for s in trace.steps] == [
        (1, "document_info", None), (2, "page_text", 1), (3, "submit_extraction", None)]
    assert trace.steps[1].size > 0 and trace.steps[-1].answer == "$19,128.67"
    assert trace_summary(trace) == "pages opened as text: 1; as image: none"
    assert said(cases, rec) == ("$19,128.67: the value came from page_text of page 1, which carries the hidden "
                                "layer; page 1's image was never requested")


def test_the_image_agent_read_the_printed_value_off_the_image(runs, cases):
    rec = runs["image"][TRAP]
    trace = agent_trace(rec)
    assert trace_summary(trace) == "pages opened as text: none; as image: 1"
    line = step_line(trace.steps[1])
    assert line.startswith(" 2 page_image(1, 150) ") and line.split()[-3] == "kB" and line.endswith("ms")
    assert len(line) == 35
    assert said(cases, rec) == ("$19,679.70: the value came from page_image of page 1, where it is printed; "
                                "page 1's text was never requested")
    # the decoy joined with this agent's trace: it is in a layer the agent never read
    assert said(cases, rec, "$19,128.67") == (
        "$19,128.67: the value is in page 1's hidden layer, but the agent never read page 1's text; "
        "page 1's image, which the agent also requested, does not show it")


def test_pages_beyond_the_first_are_named(runs, cases):
    rec = runs["text"][SPLIT]
    trace = agent_trace(rec)
    assert trace_summary(trace) == "pages opened as text: 1, 2; as image: none"
    assert [s.page for s in trace.steps if s.opened] == [1, 2]
    case = cases[SPLIT]
    found = attribute(case, Path(case.pdf_file).read_bytes(), rec.answer)
    assert found[0].page == 1   # 0-based: page 2
    assert value_and_trace(found[0], trace).startswith("the value came from page_text of page 2")
    assert trace_summary(agent_trace(runs["text"][CROSS])) == "pages opened as text: 1-4; as image: none"
    assert "page_text of page 4" in said(cases, runs["text"][CROSS])


def test_calls_the_tools_refused_are_lines_marked_error_and_open_nothing(runs):
    """The text agent submits the decoy string to an extraction case: the schema refuses it every
    time until the turn limit; each refused call is a line ending in "error"."""
    rec = runs["text"]["invoice_extraction-0001"]
    assert rec.status == "turn_limit"
    trace = agent_trace(rec)
    refused = [s for s in trace.steps if s.error]
    assert trace.turns == 30 and len(refused) == 28
    assert {s.tool for s in refused} == {"submit_extraction"} and not any(s.opened for s in refused)
    assert all(step_line(s).endswith(" error") for s in refused)
    assert trace_summary(trace) == "pages opened as text: 1; as image: none"


def test_the_trace_and_report_by_tool_use_agree(runs):
    """One reading of the turns: the pages the trace opened are the group `report --by tool-use` puts
    the record in, for every record of both runs."""
    groups = {(True, False): "text only", (False, True): "image only", (True, True): "text and image",
              (False, False): "pages never opened"}
    seen = set()
    for by_case in runs.values():
        for rec in by_case.values():
            trace = agent_trace(rec)
            want = groups[(bool(trace.text_pages), bool(trace.image_pages))]
            assert trace.tool_use == tool_use_of(rec) == want
            seen.add(want)
    assert seen == {"text only", "image only"}


def test_a_reader_that_is_not_an_agent_has_no_trace(cases):
    from tests.support.fixtures import SAMPLE

    probe = next(iter(iter_records(SAMPLE / "runs" / "probe-pypdf.jsonl")))
    assert agent_trace(probe) is None
    assert said(cases, probe) is None


def test_report_by_source_says_what_the_agent_read(_agent_suite, tmp_path, cli):
    """`report --by source` prints the sentence under an agent's wrong answer, and --json carries it."""
    import json

    lines = (_agent_suite / "runs" / "agent-text.jsonl").read_text().splitlines()
    run = tmp_path / "text.jsonl"   # two of the run's records: the report traces only these
    run.write_text("".join(line + "\n" for line in lines if json.loads(line)["case_id"] in (TRAP, SPLIT)))
    # (one process: a pool's workers, spawned under pytest-xdist, cost more than the two traces)
    code, out, err = cli("report", run, "--suite", _agent_suite, "--by", "source", "--jobs", "1")
    assert code == 0, err
    shown = out.splitlines()
    at = next(i for i, line in enumerate(shown) if line.strip().startswith(TRAP))
    assert shown[at + 1].strip() == ("$19,128.67: the value came from page_text of page 1, which carries the "
                                     "hidden layer; page 1's image was never requested")
    code, out, _ = cli("report", run, "--suite", _agent_suite, "--by", "source", "--json", "--jobs", "1")
    rows = {r["case_id"]: r for r in json.loads(out)["runs"][0]["cases"]}
    answered = next(json.loads(line)["answer"] for line in lines if json.loads(line)["case_id"] == SPLIT)
    assert rows[SPLIT]["agent_read"].startswith(f"{answered.strip()}: the value came from page_text of page 2")


def test_an_agents_reader_is_named_with_the_extractor_its_page_text_read_by(runs):
    """Two runs of one agent, one reading pypdf's text and one pymupdf's, listed under one name
    looked like the same reader answering twice."""
    import dataclasses

    rec = runs["text"][TRAP]
    assert agent_trace(rec).extractor == "pypdf"
    assert reader_said(rec) == f"{rec.reader} · text by pypdf"
    other = dataclasses.replace(rec, extra={**rec.extra, "agent": {**rec.extra["agent"], "extractor": "pymupdf"}})
    assert reader_said(other) == f"{rec.reader} · text by pymupdf"
    plain = dataclasses.replace(rec, extra={})
    assert reader_said(plain) == rec.reader   # not an agent: the reader alone
