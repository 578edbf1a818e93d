"""`run --batch` (providers/batch/submit.py): the run's pending calls prepared as the live calls'
bodies, split by each service's limits, written to the state file before anything is sent, then
submitted and collected, against the fake batch service over HTTP."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import built_suite
from workbench.core.errors import UserError
from workbench.core.runs import RunRecord, iter_records
from workbench.providers.base import ReaderOptions, parse_reader
from workbench.providers.batch import submit
from workbench.providers.batch.state import BatchState, load_state, state_path
from workbench.providers.cache import AnswerCache
from workbench.providers.running import RunPlan

SPEC = """name = "batch"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..3"
"""


@pytest.fixture(scope="module")
def suite_dir(tmp_path_factory):
    return built_suite(tmp_path_factory.mktemp("suite"), SPEC, "batch")


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-submit-0123456789abcdef")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_BASE", "0.005")
    monkeypatch.setenv("PDFWORKBENCH_RETRY_CAP", "0.02")


def plan(base_url: str | None = None, **kw) -> RunPlan:
    return RunPlan(parse_reader("openai:gpt-4o"), "text", None, base_url=base_url, **kw)


def state(suite_dir) -> BatchState:
    return BatchState(run="run.jsonl", suite_dir=str(suite_dir), suite="batch", reader="openai:gpt-4o",
                      modality="text", dpi=None, base_url="http://127.0.0.1:9/v1", run_id="r-1", options=ReaderOptions())


@pytest.mark.parametrize("reader, what", [("ollama:llava", "ollama"), ("probe:pypdf", "a probe")])
def test_a_reader_without_a_batch_service_is_named_with_those_that_have_one(reader, what):
    with pytest.raises(UserError, match=f"^--batch: {what} has no batch service; readers with one: openai:MODEL, "
                                        "anthropic:MODEL, google:MODEL$"):
        submit.check_provider(parse_reader(reader))


def test_calls_are_split_by_the_service_s_limits_each_line_the_live_body(suite_dir, cases, monkeypatch):
    monkeypatch.setitem(submit.LIMITS, "openai", (2, 190 * 2**20))   # two requests a batch
    entries, prepared, hits = submit.prepare(state(suite_dir), cases, plan(), "k")
    assert [len(e.requests) for e in entries] == [2, 1] and hits == []
    assert len({e.intent for e in entries}) == 2
    for entry in entries:
        assert all(cid.startswith(entry.intent[:8] + "-") for cid in entry.requests)
        lines = [json.loads(line) for line in prepared[entry.intent]]
        assert [line["custom_id"] for line in lines] == list(entry.requests)
        assert all(line["url"] == "/v1/chat/completions" and line["body"]["model"] == "gpt-4o" for line in lines)
    asked = [r for e in entries for r in e.requests.values()]
    assert [r.case_id for r in asked] == [c.id for c in cases] and all(r.cache_key is None for r in asked)
    assert asked[0].case_sha256 == cases[0].sha256 and asked[0].key_sha256 == cases[0].key_sha256()


def test_a_case_the_answer_cache_holds_is_recorded_not_sent(suite_dir, cases, fake_server, key):
    store = AnswerCache()
    entries, _, hits = submit.prepare(state(suite_dir), cases, plan(), "k", store=store)
    first = next(iter(entries[0].requests.values()))
    store.put(first.cache_key, RunRecord(cases[0].id, cases[0].sha256, None, "openai:gpt-4o", "text", None,
                                         first.prompt, "€1.00", "ok"))
    entries, _, hits = submit.prepare(state(suite_dir), cases, plan(), "k", store=store)
    assert [h.case_id for h in hits] == [cases[0].id] and hits[0].extra["cached"] is True
    assert hits[0].run_id == "r-1" and cases[0].id not in {r.case_id for r in entries[0].requests.values()}


def test_a_run_is_submitted_its_state_saved_and_its_answers_collected_into_the_run_file(
        suite_dir, cases, batch_server, key, tmp_path):
    out = tmp_path / "run.jsonl"
    first = submit.submit_or_advance(suite_dir, plan(batch_server.base_url("openai")), out)
    saved = load_state(state_path(out))
    assert first.submitted == 3 and saved.entries[0].batch_id and saved.reader == "openai:gpt-4o"
    outcome = first
    for _ in range(4):
        if outcome.done:
            break
        outcome = submit.submit_or_advance(suite_dir, plan(batch_server.base_url("openai")), out)
    assert outcome.done and len(outcome.records) == 3
    records = list(iter_records(out))
    assert sorted(r.case_id for r in records) == sorted(c.id for c in cases)
    assert {r.status for r in records} == {"ok"} and {r.run_id for r in records} == {saved.run_id}
    again = submit.submit_or_advance(suite_dir, plan(batch_server.base_url("openai")), out)
    assert again.submitted == 0 and len(list(iter_records(out))) == 3   # nothing left to ask


def test_a_run_file_of_another_reader_s_batches_is_one_line(suite_dir, cases, batch_server, key, tmp_path):
    out = tmp_path / "run.jsonl"
    submit.submit_or_advance(suite_dir, plan(batch_server.base_url("openai")), out)
    other = RunPlan(parse_reader("openai:gpt-4.1"), "text", None, base_url=batch_server.base_url("openai"))
    with pytest.raises(UserError, match=r"run\.batch\.json: holds batches of openai:gpt-4o \(text\); give another "
                                        r"--out for openai:gpt-4\.1 \(text\)$"):
        submit.submit_or_advance(suite_dir, other, out)
