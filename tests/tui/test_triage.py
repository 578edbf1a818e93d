"""Triage as a user does it: decide two disputes with rationales, then check journal and regrade."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.triage import TriageScreen
from workbench.tui.widgets.page_view import PageView

EXTRACTION = Path(__file__).resolve().parents[2] / "sample_cases" / "extraction"


def _copy(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(EXTRACTION, dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


async def test_decide_two_disputes_then_journal_and_regrade_follow(tmp_path):
    from workbench.gold.journal import load_disputes
    from workbench.gold.regrade import regrade
    from workbench.gold.triage import triage_queue

    suite = _copy(tmp_path)
    queue = triage_queue(suite)
    first, second = queue[0], queue[1]
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        shown = screen_text(app)
        assert f"decided 0 of {len(queue)}" in shown
        assert str(first.dispute.proposed) in shown and first.dispute.field in shown
        page = app.screen.query_one(PageView)
        assert page.border_title == first.dispute.case_id
        assert any(b.kind in ("evidence", "expected", "forbidden") for b in page.boxes)

        # A decision without a rationale is refused.
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert any("rationale" in n.message for n in app._notifications)
        assert load_disputes(suite)[0].status == "open"

        # The first proposes the trap's own decoy: accepting it is refused, in place.
        app.screen.query_one("#triage-rationale").value = "The text layer says so."
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert any("contradict itself" in n.message for n in app._notifications)
        assert load_disputes(suite)[0].status == "open"
        app.screen.query_one("#triage-rationale").value = "The printed total is the answer; that is the decoy."
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert app.screen.current.dispute.id == second.dispute.id  # moved on to the next open one
        app.screen.query_one("#triage-rationale").value = "The key is right; the quote is another field."
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert f"decided 2 of {len(queue)}" in screen_text(app)
        third = app.screen.current
        app.screen.query_one("#triage-rationale").value = "The page prints it; the key was wrong."
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert f"decided 3 of {len(queue)}" in screen_text(app)

    events = [json.loads(line) for line in (suite / "disputes.jsonl").read_text().splitlines()]
    decided = [e for e in events if e["event"] == "decided"]
    assert [(e["id"], e["decision"]) for e in decided] == [(first.dispute.id, "rejected"),
                                                           (second.dispute.id, "rejected"),
                                                           (third.dispute.id, "accepted")]
    assert decided[2]["rationale"] == "The page prints it; the key was wrong."
    result = regrade(sorted((suite / "runs").glob("*.jsonl")), suite, gold="latest", against="v1")
    flipped = {(f.case_id, f.reader) for f in result.flips}
    assert flipped == {(f.case_id, f.reader) for f in third.flips}


async def test_open_a_dispute_from_inspect_on_a_field_of_the_key(tmp_path):
    from workbench.gold.journal import load_disputes
    from workbench.tui.screens.triage import DisputeScreen

    suite = _copy(tmp_path)
    before = len(load_disputes(suite))
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        case = app.screen.current
        await pilot.press("D")
        await settle(pilot)
        assert isinstance(app.screen, DisputeScreen)
        field, original = app.screen.fields[0]
        app.screen.query_one("#dispute-field").value = field
        app.screen.query_one("#dispute-proposed").value = "a better value"
        app.screen.query_one("#dispute-rationale").value = "the page says so"
        await pilot.click("#dispute-open")
        await settle(pilot)
        assert not isinstance(app.screen, DisputeScreen)
    disputes = load_disputes(suite)
    assert len(disputes) == before + 1
    new = disputes[-1]
    assert (new.case_id, new.field, new.proposed, new.status) == (case.id, field, "a better value", "open")
    assert new.original == original


async def test_decisions_carry_the_users_name_and_warnings_never_cover_the_rationale(tmp_path, monkeypatch):
    """The name comes from $PDFWORKBENCH_USER (or --who, or config `user`) and is on the screen;
    what accepting would do is in the dispute pane, not a toast over the rationale box; the page
    has a colour legend."""
    from workbench.gold.journal import load_disputes
    from workbench.gold.triage import acceptance_warnings, triage_queue

    suite = _copy(tmp_path)
    monkeypatch.setenv("PDFWORKBENCH_USER", "priya")
    queue = triage_queue(suite)
    warned = next((it for it in queue if acceptance_warnings(suite, it.dispute.id)), None)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        shown = screen_text(app)
        assert "deciding as priya" in shown
        assert "▭ evidence" in shown and "▭ proposed" in shown
        if warned is not None:
            options = app.screen.query_one("#triage-queue")
            options.highlighted = [it.dispute.id for it in app.screen.queue].index(warned.dispute.id)
            await settle(pilot)
            assert "If accepted" in screen_text(app)
        assert not any("if accepted" in n.message.lower() for n in app._notifications)
        app.screen.query_one("#triage-rationale").value = "Printed on the page."
        await pilot.press("ctrl+d")
        await settle(pilot)
    decided = [d for d in load_disputes(suite) if d.history]
    assert decided and decided[0].history[-1].who == "priya"


async def test_who_flag_beats_the_environment(tmp_path, monkeypatch):
    suite = _copy(tmp_path)
    monkeypatch.setenv("PDFWORKBENCH_USER", "priya")
    app = WorkbenchApp(open_source(suite), who="marcus")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert "deciding as marcus" in screen_text(app)


async def test_a_bad_journal_shows_its_error_in_place_and_the_screen_stays_usable(tmp_path):
    suite = _copy(tmp_path)
    journal = suite / "disputes.jsonl"
    lines = journal.read_bytes().splitlines(keepends=True)
    lines[1] = b'{"format": "pdfworkbench-disputes/1", "event": "opened", "id": ["d0002"]}\n'
    journal.write_bytes(b"".join(lines))
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        shown = screen_text(app)
        assert "Cannot read the disputes" in shown and "disputes.jsonl:2:" in shown
        await pilot.press("ctrl+a")
        await settle(pilot)
        assert any("disputes.jsonl:2" in n.message for n in app._notifications)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, TriageScreen)
    assert journal.read_bytes() == b"".join(lines)


async def test_the_workbench_grades_against_the_newest_gold_and_names_it(tmp_path):
    from textual.widgets import TabbedContent

    from tests.support.fixtures import TOTAL, load, record, suite_copy, write_run
    from workbench.gold.disputes import add_dispute, decide
    from workbench.tui.widgets.answers import AnswersView
    from workbench.tui.widgets.case_list import CaseList

    suite = suite_copy(tmp_path)
    write_run(suite / "runs" / "r.jsonl", [record(load(suite, TOTAL), "The total is €1.00.")])
    d = add_dispute(suite, TOTAL, "expected_answer", "€1.00", "the page prints €1.00", who="ann")
    decide(suite, d.id, "accept", "checked", who="bob")
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(CaseList).select_case(TOTAL)
        await settle(pilot)
        app.screen.query_one(TabbedContent).active = "tab-answers"
        await settle(pilot)
        answers = app.screen.query_one(AnswersView)
        (_, outcome), = answers.answers
        assert outcome.kind == "pass" and answers.gold == "v2"     # v1 says fail
        assert "gold v2" in screen_text(app)


async def test_a_bad_journal_leaves_the_workbench_grading_against_v1_and_saying_why(tmp_path):
    suite = _copy(tmp_path)
    (suite / "disputes.jsonl").write_bytes(b'{"event": "opened", "id": 7}\n')
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert any("graded against gold v1" in n.message and "disputes.jsonl:1:" in n.message
                   for n in app._notifications)


@pytest.mark.slow
async def test_a_suite_without_disputes_says_so_in_the_queue_and_the_page_pane(tmp_path):
    """The shipped mini sample has no disputes: the page pane said "loading..." for good."""
    from tests.support.fixtures import SAMPLE

    suite = tmp_path / "mini"
    shutil.copytree(SAMPLE, suite, ignore=shutil.ignore_patterns(".suite.lock"))
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        shown = screen_text(app)
        assert "no disputes: open one from Inspect" in shown
        assert "no dispute to show" in shown and "loading..." not in shown
        # A decision key with nothing to decide says so (it said "the queue is still loading")
        await pilot.press("ctrl+a")
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert "no dispute to decide: open one from Inspect (D)" in said and not any("loading" in m for m in said)
