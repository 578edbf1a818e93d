"""Inspect's case-list marks (workbench/tui/screens/inspect_marks.py) on the small three-case suite:
every case linted in a worker and marked, and the latest answer of the reader shown graded for
each case it answered; another reader chosen shows its own verdicts."""

from __future__ import annotations

import pytest

from tests.support.fixtures import load, record, settle, write_run
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList

CASES = ["hidden_ocr_mismatch-0001", "hidden_ocr_mismatch-0002", "hidden_ocr_mismatch-0003"]


@pytest.mark.slow   # the workbench started and three cases linted: 2-3 s on 2 loaded cores
async def test_every_case_is_linted_and_the_readers_verdicts_are_marked(suite_copy):
    first, second, _third = (load(suite_copy, c) for c in CASES)
    write_run(suite_copy / "runs" / "model.jsonl", [
        record(first, first.expected_answer, reader="test:model"),
        record(second, second.expected_answer, reader="test:model"),
        record(second, second.forbidden_answers[0], reader="test:model"),   # the latest: the trap
        record(first, first.forbidden_answers[0], reader="test:other"),
    ])
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        for _ in range(100):
            if len(cases.lint) == 3 and cases.outcomes:
                break
            await pilot.pause(0.1)
        assert cases.lint == dict.fromkeys(CASES, "ok")
        assert app.screen.reader == "test:model"
        assert {c: o.kind for c, o in cases.outcomes.items()} == {CASES[0]: "pass", CASES[1]: "trap"}
        app.screen.set_reader("test:other")
        await settle(pilot)
        assert {c: o.kind for c, o in cases.outcomes.items()} == {CASES[0]: "trap"}
