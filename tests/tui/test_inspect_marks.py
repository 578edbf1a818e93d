"""Inspect's case-list marks (workbench/tui/screens/inspect_marks.py) on the small three-case suite:
every case linted in a worker and marked, and the latest answer of the reader shown graded for
each case it answered; another reader chosen shows its own verdicts. The lint marks of a suite
opened again come from the lint cache, the same as fresh ones, and "Run lint" makes them afresh."""

from __future__ import annotations

import pytest

from tests.support.fixtures import load, record, screen_text, settle, write_run
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


async def _opened(suite) -> tuple[dict[str, str], str]:
    """The suite opened until every case has its lint mark: the marks, and the screen."""
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        assert len(cases.lint) == 3
        return dict(cases.lint), screen_text(app)


@pytest.mark.slow   # the workbench started three times, three cases linted twice
async def test_a_suite_opened_again_takes_its_marks_from_the_lint_cache_and_run_lint_makes_them_afresh(suite_copy):
    import json

    from workbench.checks.lint import lint_cache, lint_key
    from workbench.core.cache import entry_path

    lint_cache().unlink()   # this test's own lint cache, not the run's shared one (tests/conftest.py)
    fresh, shown = await _opened(suite_copy)
    assert fresh == dict.fromkeys(CASES, "ok") and len(list(lint_cache().rglob("*.json"))) == 3
    again, shown_again = await _opened(suite_copy)
    assert again == fresh and shown_again == shown
    # An entry changed by hand: the suite opened again shows it (the marks are the cache's), and
    # "Run lint" lints every case afresh and keeps what it found.
    case = load(suite_copy, CASES[1])
    entry = entry_path(lint_cache(), lint_key(case, case.pdf_file.read_bytes(), 150))
    planted = json.loads(entry.read_text())
    planted["findings"] = [{"case_id": case.id, "severity": "error", "code": "planted", "message": "by hand"}]
    entry.write_text(json.dumps(planted))
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        assert cases.lint == {**fresh, CASES[1]: "error"}
        app.screen.action_relint()
        await settle(pilot)
        assert cases.lint == fresh
    assert json.loads(entry.read_text())["findings"] == []
