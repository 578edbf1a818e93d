"""Run records (core/runs.py): one JSON line per call, read back whole; a torn last line skipped,
any other bad line one error; the run id shards agree on without talking."""

from __future__ import annotations

import json

import pytest

from workbench.core.errors import UserError
from workbench.core.runs import (
    RECORD_FORMAT,
    CallError,
    RunRecord,
    RunWriter,
    billed_reader,
    is_agent_reader,
    iter_records,
    read_records,
    run_identity,
)


def rec(case_id: str = "c1", **kw) -> RunRecord:
    fields = dict(case_sha256="ab" * 32, key_sha256="cd" * 32, reader="openai:gpt-4o", modality="pdf",
                  dpi=None, prompt="Q?", answer="€13,144.73", status="ok")
    return RunRecord(case_id=case_id, **{**fields, **kw})


def test_each_record_is_one_sorted_json_line_read_back_equal(tmp_path):
    path = tmp_path / "runs" / "a.jsonl"
    records = [rec("c1"), rec("c2", answer="naïve\nline", status="truncated", finish_reason="length")]
    with RunWriter(path) as writer:
        for r in records:
            writer.append(r)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and all(list(json.loads(x)) == sorted(json.loads(x)) for x in lines)
    assert "naïve" in lines[1] and json.loads(lines[0])["format"] == RECORD_FORMAT   # UTF-8, not \\u escapes
    assert list(iter_records(path)) == records
    with RunWriter(path) as writer:   # a second writer appends
        writer.append(rec("c3"))
    assert [r.case_id for r in read_records([path, path])] == ["c1", "c2", "c3"] * 2


def test_records_appended_together_are_lines_of_their_own_in_order(tmp_path):
    path = tmp_path / "a.jsonl"
    with RunWriter(path) as writer:
        writer.append(rec("c1"), rec("c2"))
        writer.append(rec("c3"))
    assert [r.case_id for r in iter_records(path)] == ["c1", "c2", "c3"]
    assert len(path.read_text(encoding="utf-8").splitlines()) == 3


def test_fields_of_others_are_kept_in_extra_and_missing_ones_get_their_defaults():
    raw = {"case_id": "c1", "reader": "olmocr:x", "status": "ok", "score": 0.5, "extra": None}
    r = RunRecord.from_json(raw)
    assert r.extra == {"score": 0.5} and r.modality == "pdf" and r.prompt == "" and r.answer is None
    assert r.provenance == "observed" and r.attempts == 1


def test_a_torn_last_line_is_skipped_and_any_other_bad_line_is_one_error(tmp_path):
    path = tmp_path / "a.jsonl"
    good = json.dumps(rec().to_json())
    path.write_text(good + "\n\n" + good[:40])   # a crash mid-write: no newline at the end
    assert [r.case_id for r in iter_records(path)] == ["c1"]
    path.write_text(good[:40] + "\n" + good)   # a bad line that is not the last: even in a torn file
    with pytest.raises(UserError, match=r"a\.jsonl:1: malformed run record at column \d+: .*; is this a JSON Lines "
                                        r"run file\?$"):
        list(iter_records(path))
    path.write_text(json.dumps({"case_id": "c1", "status": "ok"}) + "\n")
    with pytest.raises(UserError, match=r"a\.jsonl:1: not a run record: lacks 'reader'; is this a JSON Lines run"):
        list(iter_records(path))


def test_a_reader_name_that_would_show_as_another_is_refused(tmp_path):
    """A run file from elsewhere named its reader with U+202E, which shows `openai:gpt-4o` +
    U+202E + `inim-` as `openai:gpt-4o-mini` in a report and a leaderboard: refused, as an id
    holding it is; a reader named with other letters is anyone's right."""
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(rec(reader="openai:gpt-4o\u202einim-").to_json()) + "\n")
    with pytest.raises(UserError, match=r"a\.jsonl:1: field 'reader' .* holds a control, bidirectional or "
                                        r"zero-width character"):
        list(iter_records(path))
    path.write_text(json.dumps(rec(reader="ollama:qwen2.5vl:7b-Ünïcode").to_json()) + "\n")
    assert [r.reader for r in iter_records(path)] == ["ollama:qwen2.5vl:7b-Ünïcode"]


def test_a_folder_is_no_run_file(tmp_path):
    with pytest.raises(UserError, match=r"is a folder; give a run file \(\.jsonl\)$"):
        RunWriter(tmp_path)


def test_a_call_error_in_one_line():
    err = CallError("rate_limit", "Rate limit\n  reached,   please retry.", 429, "rate_limit_exceeded")
    assert err.line("error") == "rate_limit (HTTP 429): Rate limit reached, please retry."
    assert CallError(None, "").line("timeout") == "timeout"
    assert CallError.from_json("upstream said no") == CallError(None, "upstream said no")   # an imported run's text
    assert CallError.from_json(err.to_json()) == err
    assert rec(error=err.to_json(), status="error").call_error == err and rec().call_error is None


def test_agents_and_mcp_clients_are_agent_readers_billed_as_their_model():
    assert is_agent_reader("agent:openai:gpt-4o") and is_agent_reader("mcp:claude-desktop")
    assert not is_agent_reader("openai:gpt-4o")
    assert billed_reader("agent:openai:gpt-4o") == "openai:gpt-4o" == billed_reader("openai:gpt-4o")


def test_shards_agree_on_the_run_id_and_the_run_after_a_complete_one_gets_the_next(tmp_path):
    parts = {"suite": "h", "reader": "openai:gpt-4o"}
    first = run_identity(parts, tmp_path, ["c1", "c2"])
    assert first.endswith("-1") and run_identity(parts, tmp_path / "none", ["c1", "c2"]) == first
    assert run_identity({**parts, "reader": "x:y"}, tmp_path, ["c1"]) != first
    with RunWriter(tmp_path / "shard-1.jsonl") as w:
        w.append(rec("c1", run_id=first))
    assert run_identity(parts, tmp_path, ["c1", "c2"]) == first   # unfinished: the next shard joins it
    with RunWriter(tmp_path / "shard-2.jsonl") as w:
        w.append(rec("c2", run_id=first))
    (tmp_path / "notes.jsonl").write_text("not a run file\n")      # skipped: it holds no run
    assert run_identity(parts, tmp_path, ["c1", "c2"]) == first[:-1] + "2"
