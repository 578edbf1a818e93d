"""Ctrl+S in Author (workbench/tui/screens/author_save_flow.py): saved into a new suite, then an
existing one, an overwrite refused, then the suite opened in Inspect. (Moved from tests/tui/test_author.py.)"""

from __future__ import annotations

import pytest

from tests.support.author import save_case, start
from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, screen_text, settle
from workbench.build.authoring import Draft
from workbench.build.suite import verify_suite
from workbench.core.source import open_source
from workbench.core.suite import load_suite
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.author import AuthorScreen
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.widgets.author_form import AuthorForm
from workbench.tui.widgets.author_save import ConfirmScreen

SIZE = (160, 48)


@pytest.mark.slow   # (as in test_author.py) the Author screen regenerates a case per change
async def test_save_into_a_new_suite_then_an_existing_one_refuse_overwrite_then_open(tmp_path):
    folder = tmp_path / "authored"
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 7, {"line_items": 2}))
        first_id = screen.preview.case.id
        await save_case(pilot, folder)
        assert isinstance(app.screen, ConfirmScreen) and "Open (y)" in screen_text(app)
        await pilot.press("n")                                     # keep authoring
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.json").exists() and (folder / "suite.json").exists()

        screen.query_one(AuthorForm).focus()
        await pilot.press("right_square_bracket")                  # seed 8: another case
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        second_id = screen.preview.case.id
        assert second_id != first_id
        await save_case(pilot, folder)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert sorted(c.id for c in load_suite(folder).cases) == sorted([first_id, second_id])
        results, digest, recorded = verify_suite(folder)
        assert all(r.ok for r in results) and digest == recorded

        written = (folder / f"{first_id}.pdf").read_bytes()
        await save_case(pilot, folder, first_id)                       # seed 8's case under seed 7's id
        assert isinstance(app.screen, ConfirmScreen) and "Overwrite (y)" in screen_text(app)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.pdf").read_bytes() == written
        assert isinstance(app.screen, AuthorScreen)

        await save_case(pilot, folder, first_id)
        await pilot.press("y")                                     # overwrite this time
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.pdf").read_bytes() == (folder / f"{second_id}.pdf").read_bytes()
        assert all(r.ok for r in verify_suite(folder)[0])
        await pilot.press("y")                                     # open the suite in Inspect
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, InspectScreen)
        assert {c.id for c in app.screen.source.cases} == {first_id, second_id}


def test_the_save_dialog_sums_up_a_family_case_and_an_adopted_ones_mutations():
    from types import SimpleNamespace

    from workbench.core.adoption import AdoptedSource
    from workbench.core.scan import DegradeSpec
    from workbench.tui.screens.author_save_flow import save_summary

    case = SimpleNamespace(trap_family="white_text", seed=7, degrade=None, mutations=(), source=None)
    preview = SimpleNamespace(case=case, draft=SimpleNamespace(pinned={"colour": "fff"}))
    assert save_summary(preview) == "white_text · seed 7 · 1 pinned · no scan"
    case.degrade = DegradeSpec.parse({"tier": "mild"})
    assert save_summary(preview).endswith("· scan mild")
    case.mutations = (SimpleNamespace(mutation="hidden_layer"), SimpleNamespace(mutation="scan"))
    case.source = AdoptedSource("0" * 64, "statement.pdf", 2, root_id="invoice", kind="mutated")
    assert save_summary(preview) == "adopted invoice · hidden_layer → scan · seed 7 · 1 pinned"
