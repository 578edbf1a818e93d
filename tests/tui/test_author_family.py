"""Author's families (workbench/tui/screens/author_family.py): a user family reloaded when its file
changes (a broken edit shown with its line), a family written while the app runs joins the list
and opens on its draft, and one that fails to load is named with its problem. (Moved from tests/tui/test_author.py.)"""

from __future__ import annotations

import pytest
from textual.widgets import Select

from tests.support.author import layer, save_case, start
from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, screen_text, settle, until
from workbench.build.authoring import Draft, write_family_template
from workbench.build.suite import verify_suite
from workbench.core.source import open_source
from workbench.core.suite import load_suite
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.author import AuthorScreen
from workbench.tui.widgets.author_save import ConfirmScreen

SLOW = pytest.mark.slow   # (as in test_author.py) the Author screen regenerates a case per change

SIZE = (160, 48)


@SLOW
async def test_a_user_family_reloads_when_its_file_changes_and_a_broken_edit_shows_its_line(tmp_path):
    path = write_family_template("po_trap")                     # into the test's config folder
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("po_trap", 1))
        assert "PURCHASE ORDER" in layer(screen)
        families = [v for _, v in screen.query_one("#family", Select)._options]
        assert "po_trap" in families and "hidden_ocr_mismatch" in families

        source = path.read_text()
        path.write_text(source.replace('"PURCHASE ORDER"', '"ORDER FORM"'))
        await until(pilot, lambda: "ORDER FORM" in layer(screen))         # the watcher saw the save
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "ORDER FORM" in layer(screen) and "PURCHASE ORDER" not in layer(screen)

        lines = path.read_text().splitlines()
        broken_at = next(i for i, line in enumerate(lines) if line.startswith("VERSION")) + 1
        lines[broken_at - 1] = "VERSION = = 2"
        path.write_text("\n".join(lines) + "\n")
        await until(pilot, lambda: "SyntaxError" in screen_text(app))
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        shown = screen_text(app)
        assert f"po_trap.py:{broken_at}: SyntaxError" in shown
        assert "ORDER FORM" in layer(screen)                     # the last good preview stays
        families = [v for _, v in screen.query_one("#family", Select)._options]
        assert "hidden_ocr_mismatch" in families                 # the others are still there

        # Fixed, but with a contract the page breaks: lint errors ask before saving.
        fixed = source.replace('"PURCHASE ORDER"', '"ORDER FORM"')
        path.write_text(fixed.replace('Arming("forbidden", "hidden"', 'Arming("forbidden", "visible"'))
        await until(pilot, lambda: "lint: ERRORS" in screen.sub_title)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "SyntaxError" not in screen_text(app)
        assert "lint: ERRORS" in screen.sub_title
        await save_case(pilot, tmp_path / "mine")
        assert isinstance(app.screen, ConfirmScreen) and "Save anyway (y)" in screen_text(app)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert not (tmp_path / "mine").exists()

        path.write_text(fixed)
        await until(pilot, lambda: "lint ✔" in screen.sub_title)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "lint ✔" in screen.sub_title
        await save_case(pilot, tmp_path / "mine")
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
    results, digest, recorded = verify_suite(tmp_path / "mine")
    assert [r.ok for r in results] == [True] and digest == recorded
    assert load_suite(tmp_path / "mine").cases[0].trap_family == "po_trap"


@SLOW
async def test_a_family_written_while_the_app_runs_joins_the_list_and_the_template_says_w():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 1))
        path = write_family_template("dock_trap")
        assert "press `w` on any case" in path.read_text() and "press `n`" not in path.read_text()
        await until(pilot, lambda: "dock_trap" in [n for _, n in screen.form.families])
        assert "dock_trap" in [n for _, n in screen.form.families]


@SLOW
async def test_a_family_written_after_start_opens_in_author_on_its_draft():
    """`new-family` while the workbench runs, then `w` on its case: Author opens on that family."""
    from workbench.build.make import family_registry

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        family_registry()                                    # the registry the app started with
        write_family_template("late_trap")
        pilot.app.push_screen(AuthorScreen(Draft("late_trap", 4)))
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        screen = pilot.app.screen
        assert "late_trap" in [n for _, n in screen.form.families]
        assert screen.family.name == "late_trap"
        assert screen.focused is not None and screen.focused.id != "seed"


@SLOW
async def test_a_family_that_fails_to_load_is_named_with_its_problem_when_author_opens_on_it():
    """`w` on a case of a user family whose module no longer loads: Author says why, with the
    file and line, not only that the family is not installed."""
    path = write_family_template("stale_trap")
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("VERSION")) + 1
    lines[at - 1] = "VERSION = = 2"
    path.write_text("\n".join(lines) + "\n")
    app = WorkbenchApp(open_source(ONE_CASE))
    said: list[str] = []
    shown = app.notify
    app.notify = lambda message, **kw: (said.append(str(message)), shown(message, **kw))  # toasts expire
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("stale_trap", 1))
        assert any("family 'stale_trap' is not installed" in m and f"stale_trap.py:{at}: SyntaxError" in m
                   for m in said), said
        assert screen.family.name != "stale_trap"


def test_the_family_dropdown_marks_user_families():
    from types import SimpleNamespace

    from workbench.tui.screens.author_family import family_options

    families = [SimpleNamespace(name="white_text_injection", origin="builtin"),
                SimpleNamespace(name="po_trap", origin="/home/me/families/po_trap.py")]
    assert family_options(families) == [("white_text_injection", "white_text_injection"),
                                        ("po_trap (user)", "po_trap")]
