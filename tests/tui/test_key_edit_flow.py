"""K on an adopted case in the workbench (workbench/tui/screens/key_edit_flow.py): the key written
by hand is linted and saved into the suite, which still verifies; a key the page does not print is
confirmed first, and nothing is saved on no. (Moved from tests/tui/test_adopted.py.)"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.support.fixtures import AUTHOR_DEBOUNCE, adopted_statement, screen_text, settle
from workbench.build.suite import verify_suite
from workbench.core.source import open_source
from workbench.core.suite import load_suite
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.widgets.author_save import ConfirmScreen
from workbench.tui.widgets.key_edit import KeyEditScreen

pytestmark = pytest.mark.slow   # (as in test_adopted.py) an adopted case linted live

SIZE = (160, 48)


async def test_the_key_of_an_adopted_case_is_edited_by_hand_and_linted(tmp_path):
    suite = adopted_statement(tmp_path)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        screen = app.screen
        assert isinstance(screen, InspectScreen)
        await pilot.press("K")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, KeyEditScreen)
        dialog.query_one("#key-question", Input).value = "What is the account number?"
        dialog.query_one("#key-expected", Input).value = "4402-1187-33"
        await pilot.press("ctrl+s")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, InspectScreen)
        assert "4402-1187-33" in screen_text(app)
        # A key the page does not print: the lint says so, and nothing is saved on "no".
        await pilot.press("K")
        await pilot.pause()
        app.screen.query_one("#key-expected", Input).value = "not on the page"
        await pilot.press("ctrl+s")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, ConfirmScreen) and "lint error" in screen_text(app)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
    case = load_suite(suite).case("invoice")
    assert case.question == "What is the account number?" and case.expected_answer == "4402-1187-33"
    results, digest, recorded = verify_suite(suite)
    assert all(r.ok for r in results) and digest == recorded
