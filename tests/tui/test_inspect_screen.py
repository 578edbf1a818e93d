"""The first screen, driven with Pilot and compared with a snapshot."""

from __future__ import annotations

from tests.fixtures import SAMPLE, screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView
from workbench.tui.widgets.text_layers import AnswerKeyView, TextLayerView


async def test_moving_to_the_second_case_updates_the_text_layer_and_key(suite_copy):
    source = open_source(suite_copy)
    first, second = source.cases[0], source.cases[1]
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert first.forbidden_answers[0] in layer.plain
        await pilot.press("down")
        await settle(pilot)
        assert app.screen.query_one(CaseList).cursor_node.data.id == second.id
        assert second.forbidden_answers[0] in layer.plain
        assert first.forbidden_answers[0] not in layer.plain
        assert second.metadata["vendor"] in layer.plain
        page = app.screen.query_one(PageView)
        assert page.border_title == second.id
        assert page.border_subtitle.startswith("page 1/1")
        assert app.screen.query_one(AnswerKeyView)
        await pilot.press("3")
        await settle(pilot)
        shown = screen_text(app)
        assert "Expected answer" in shown and second.expected_answer in shown
        assert second.forbidden_answers[0] in shown


async def test_a_broken_pdf_in_the_suite_is_a_notification_not_a_crash(suite_copy):
    (suite_copy / "suite.json").unlink()  # a plain folder of cases, as pdfhell ships them
    (suite_copy / "hidden_ocr_mismatch-0001.pdf").write_bytes(b"not a pdf at all")
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert any("not a PDF" in n.message for n in app._notifications)
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert "could not be read" in layer.plain
        await pilot.press("down")
        await settle(pilot)
        assert "TOTAL DUE" in layer.plain  # the next case still opens


def test_main_screen_snapshot(snap_compare):
    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(WorkbenchApp(open_source(SAMPLE)), terminal_size=(160, 48), run_before=run_before)
