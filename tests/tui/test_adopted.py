"""An adopted case in the workbench: its key edited by hand, and `w` arming a trap in it live."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from tests.support.author import author_of_adopted
from tests.support.fixtures import AUTHOR_DEBOUNCE, adopted_statement, screen_text, settle
from workbench.build.suite import verify_suite
from workbench.core.source import open_source
from workbench.core.suite import load_suite
from workbench.generators.mutations import get_mutation
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.author_form import AuthorForm, ParamRow
from workbench.tui.widgets.author_save import ConfirmScreen, SaveCaseScreen

pytestmark = pytest.mark.slow   # adopted cases armed and linted live: 26-33 s each at load 13

SIZE = (160, 48)

async def test_w_on_an_adopted_case_arms_a_hidden_layer_live_and_saves_it_verified(tmp_path):
    suite = adopted_statement(tmp_path)
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=SIZE) as pilot:
        screen = await author_of_adopted(pilot)
        form = screen.query_one(AuthorForm)
        assert form.query_one("#family", Select).value == "hidden_layer"
        assert {r.param.name for r in form.query(ParamRow)} >= {"decoy", "change_pct", "style", "value_layer"}
        text = screen_text(app)
        assert f"mutation v{get_mutation('hidden_layer').version} of invoice" in text and "lint ✔" in screen.sub_title
        case = screen.preview.case
        decoy = case.forbidden_answers[-1]
        assert case.mutations[0].target.text == "5,143.24"
        # ctrl+t: the next place the answer is printed (page 2's summary), then back to page 1.
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert screen.preview.case.mutations[0].target.page == 1
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert screen.preview.case.mutations[0].target.page == 0
        # Pin the decoy: page, layers and key follow.
        box = form.query_one("#value-decoy", Input)
        box.focus()
        await pilot.pause()
        await pilot.press(*"$9,999.99")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.forbidden_answers[-1] == "$9,999.99" != decoy
        assert "$9,999.99" in screen_text(app)           # the key tab / text layer show it
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveCaseScreen)
        assert app.screen.query_one("#save-folder", Input).value == str(suite)
        await pilot.click("#save-ok")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
    saved = [c for c in load_suite(suite).cases if c.mutations]
    assert len(saved) == 1 and saved[0].forbidden_answers == ["$9,999.99"]
    assert (suite / "sources" / f"{saved[0].source.sha256}.pdf").exists()
    results, digest, recorded = verify_suite(suite)
    assert all(r.ok for r in results) and digest == recorded
