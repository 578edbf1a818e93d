"""A run's provider batches on disk (providers/batch/state.py): `<run>.batch.json` beside the run
file, written whole and read back equal; a damaged one refused in one line and kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.errors import UserError
from workbench.providers.base import parse_reader
from workbench.providers.batch.state import (
    STATE_FORMAT,
    BatchRequest,
    BatchState,
    Entry,
    load_state,
    run_of_state,
    save_state,
    state_path,
)


def state() -> BatchState:
    entry = Entry("5f1e2d3c4b5a6978", {"5f1e2d3c-000000": BatchRequest("hidden-0001", "ab" * 32, "cd" * 32, "Q?",
                                                                      "hidden_ocr_mismatch", None, "ef" * 32)},
                  batch_id="batch_1", file_id="file-1", counts={"total": 1})
    return BatchState(run="run.jsonl", suite_dir="/suites/mini", suite="mini", reader="openai:gpt-4o",
                      modality="pdf", dpi=None, base_url="http://127.0.0.1:1/v1", run_id="abc-1",
                      options={"max_tokens": 64}, entries=[entry, Entry("other", {}, collected=True)])


@pytest.mark.parametrize("run, beside", [("runs/gpt.jsonl", "runs/gpt.batch.json"), ("runs/gpt", "runs/gpt.batch.json"),
                                         ("runs/gpt.out", "runs/gpt.out.batch.json")])
def test_the_state_file_sits_beside_its_run_file(run, beside):
    assert state_path(Path(run)) == Path(beside)
    assert run_of_state(Path("runs/gpt.batch.json")) == Path("runs/gpt.jsonl") == run_of_state(Path("runs/gpt.jsonl"))


def test_a_state_is_written_whole_and_read_back_equal(tmp_path):
    path = state_path(tmp_path / "run.jsonl")
    assert load_state(path) is None   # no batch yet
    saved = state()   # (made once: each entry's created_at is the time it was made)
    save_state(path, saved)
    raw = json.loads(path.read_text())
    assert raw["format"] == STATE_FORMAT and raw["entries"][0]["requests"]["5f1e2d3c-000000"]["case_id"] == "hidden-0001"
    back = load_state(path)
    assert back == saved and back.spec == parse_reader("openai:gpt-4o")
    assert [e.intent for e in back.open_entries()] == ["5f1e2d3c4b5a6978"]
    assert [p.name for p in tmp_path.iterdir()] == ["run.batch.json"]   # no temporary file left


@pytest.mark.parametrize("text, message", [
    ("{damaged", r"batch state file is damaged \(JSONDecodeError\); it holds the ids of batches in flight"),
    (json.dumps({"format": "other/1"}), r"not a pdfworkbench batch state file \(format 'other/1'\)"),
    (json.dumps({"format": STATE_FORMAT, "entries": [{"intent": "x"}]}), "not a pdfworkbench batch state file"),
])
def test_a_damaged_state_is_one_line_and_is_kept(tmp_path, text, message):
    path = tmp_path / "run.batch.json"
    path.write_text(text)
    with pytest.raises(UserError, match=message) as raised:
        load_state(path)
    assert "\n" not in str(raised.value) and "(nothing else was changed)" in str(raised.value)
    assert path.read_text() == text
