"""Author in mutation mode (workbench/tui/screens/author_targets.py): ctrl+g picks any span of the
page as the value the mutation attacks. (Moved from tests/tui/test_adopted.py.)"""

from __future__ import annotations

import pytest

from tests.support.author import author_of_adopted
from tests.support.fixtures import AUTHOR_DEBOUNCE, adopted_statement, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp

pytestmark = pytest.mark.slow   # (as in test_adopted.py) an adopted case armed and linted live

SIZE = (160, 48)


async def test_ctrl_g_attacks_any_span_picked_from_the_page(tmp_path):
    """Mutation mode: ctrl+g lists the spans of the page shown; typing filters them and Enter
    makes the one chosen the value the mutation attacks."""
    from textual.widgets import OptionList

    from workbench.tui.screens.pick import PickSpanScreen

    suite = adopted_statement(tmp_path)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=SIZE) as pilot:
        screen = await author_of_adopted(pilot)
        await pilot.press("ctrl+g")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, PickSpanScreen)
        assert any(s.text == "Opening balance" for s in picker.spans)
        await pilot.press(*"2,310.40")
        await settle(pilot)
        assert [picker.spans[i].text for i in picker.shown()] == ["2,310.40"]
        assert "2,310.40" in str(picker.query_one(OptionList).get_option_at_index(0).prompt)
        await pilot.press("enter")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert app.screen is screen
        target = screen.preview.case.mutations[0].target
        assert target.text == "2,310.40" and target.page == 0
        # Escape leaves the target as it was.
        await pilot.press("ctrl+g")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.mutations[0].target.text == "2,310.40"
