"""The dispute journal: append-only, one fsynced line per event, readable after a crash mid-write."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.support.fixtures import TOTAL, suite_copy
from workbench.core.errors import UserError
from workbench.gold.disputes import add_dispute, decide
from workbench.gold.journal import append_event, journal_path, load_disputes, read_events


def test_each_event_is_one_line_appended_to_the_suite_journal(tmp_path):
    suite = suite_copy(tmp_path)
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "typo", who="ann", at="2025-01-02T03:04:05Z")
    first = journal_path(suite).read_bytes()
    decide(suite, d.id, "reject", "the page says otherwise", who="bob", at="2025-01-03T00:00:00Z")
    data = journal_path(suite).read_bytes()
    assert data.startswith(first)                      # appended, never rewritten
    lines = [json.loads(line) for line in data.decode().splitlines()]
    assert [e["event"] for e in lines] == ["opened", "decided"]
    assert lines[0] == {
        "format": "pdfworkbench-disputes/1", "event": "opened", "id": "d0001", "case_id": TOTAL,
        "field": "expected_answer", "original": "€13,144.73", "proposed": "€1.00", "based_on": "v1",
        "evidence": None, "rationale": "typo", "who": "ann", "at": "2025-01-02T03:04:05Z",
    }
    assert lines[1]["decision"] == "rejected" and lines[1]["who"] == "bob"


def test_a_torn_last_line_is_skipped_then_cut_off_by_the_next_append(tmp_path):
    suite = suite_copy(tmp_path)
    add_dispute(suite, TOTAL, "expected_answer", "€1.00", "one")
    with open(journal_path(suite), "ab") as fh:
        fh.write(b'{"event": "opened", "id": "d0002", "case_id": "hid')   # a crash mid-write
    assert [d.id for d in load_disputes(suite)] == ["d0001"]
    d = add_dispute(suite, TOTAL, "expected_answer", "€2.00", "two")
    assert d.id == "d0002"
    assert [e["id"] for e in read_events(suite)] == ["d0001", "d0002"]
    lines = journal_path(suite).read_bytes().splitlines()
    assert len(lines) == 2 and all(json.loads(line) for line in lines)   # the torn fragment is gone


def test_a_damaged_line_in_the_middle_is_an_error_naming_the_line(tmp_path):
    suite = suite_copy(tmp_path)
    add_dispute(suite, TOTAL, "expected_answer", "€1.00", "one")
    with open(journal_path(suite), "ab") as fh:
        fh.write(b"garbage\n")
    with open(journal_path(suite), "ab") as fh:
        fh.write(json.dumps({"event": "decided", "id": "d0001", "decision": "rejected"}).encode() + b"\n")
    with pytest.raises(UserError, match=r"disputes.jsonl:2: malformed dispute event at column 1"):
        load_disputes(suite)


CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from workbench.core.atomic import suite_lock
    from workbench.gold.journal import append_event

    folder = Path(sys.argv[1])
    pad = "x" * 20000            # big events, so the kill often lands inside a write
    n = 0
    while True:
        with suite_lock(folder):
            append_event(folder, {"event": "opened", "id": f"d{n:06d}", "case_id": "c", "field": "expected_answer",
                                  "original": "a", "proposed": "b", "rationale": pad, "who": "child", "at": "t"})
        n += 1
""")


def test_the_journal_survives_a_writer_killed_with_sigkill(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    journal = journal_path(folder)
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], cwd=os.getcwd())
    try:
        # Let it write a good number of events (no timing assertion: we wait for the file to grow).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if journal.exists() and journal.stat().st_size > 40 * 20000:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    data = journal.read_bytes()
    complete = data.count(b"\n")
    events = read_events(folder)
    assert len(events) >= 40
    # Every complete line is read, in order; at most the one being written is lost.
    assert len(events) in (complete, complete + 1)
    assert [e["id"] for e in events] == [f"d{i:06d}" for i in range(len(events))]
    # And the journal still takes appends: the next event follows the last complete one.
    append_event(folder, {"event": "decided", "id": events[-1]["id"], "decision": "rejected",
                          "rationale": "after the crash", "who": "parent", "at": "t"})
    after = read_events(folder)
    assert after[:-1] == events and after[-1]["rationale"] == "after the crash"
    assert all(json.loads(line) for line in journal.read_bytes().splitlines())
