"""The authoring screen's dialogs (workbench/tui/widgets/author_save.py) on their own: what saving
into a folder would do, said as the folder is typed; the folder and id returned, or a line when
one is missing; a yes/no question answered by key or button, no by default."""

from __future__ import annotations

from textual.widgets import Input

from tests.support.fixtures import screen_text
from tests.support.widget_host import DialogHost
from workbench.tui.widgets.author_save import ConfirmScreen, SaveCaseScreen, describe_folder


def test_what_saving_into_a_folder_would_do(tmp_path, suite_copy):
    assert describe_folder("  ") == "give a folder"
    assert describe_folder(str(tmp_path / "new")) == "a new suite (the folder will be made)"
    (tmp_path / "empty").mkdir()
    assert describe_folder(str(tmp_path / "empty")) == "an empty folder: a new suite"
    (tmp_path / "file.txt").write_text("x")
    assert describe_folder(str(tmp_path / "file.txt")) == "a file, not a folder"
    assert describe_folder(str(suite_copy)) == "an existing suite with 3 case(s)"
    (suite_copy / "suite.json").unlink()
    assert describe_folder(str(suite_copy)) == "a folder of 3 case(s) without suite.json (one will be written)"


async def test_the_save_dialog_says_what_the_folder_is_and_returns_folder_and_id(tmp_path):
    app = DialogHost(lambda: SaveCaseScreen(tmp_path / "mine", "white_text-0007", "white_text · seed 7"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "white_text · seed 7" in screen_text(app) and "a new suite (the folder will be made)" in screen_text(app)
        folder = app.screen.query_one("#save-folder", Input)
        assert app.focused is folder
        folder.value = str(tmp_path)
        await pilot.pause()
        assert "an empty folder: a new suite" in screen_text(app)
        app.screen.query_one("#save-id", Input).value = " "
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [] and "both a folder and an id are needed" in screen_text(app)
        app.screen.query_one("#save-id", Input).value = "mine-1"
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [(tmp_path, "mine-1")]


async def test_a_question_is_no_unless_answered_yes():
    app = DialogHost(lambda: ConfirmScreen("Overwrite inv-1?", yes="Overwrite", detail="it has 2 runs"))
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        assert "Overwrite inv-1?" in screen_text(app) and "it has 2 runs" in screen_text(app)
        assert "Overwrite (y)" in screen_text(app) and "No (n)" in screen_text(app)
        await pilot.press("enter")                      # the focused button: no
        await pilot.pause()
        assert app.results == [False]
        app.push_screen(ConfirmScreen("Again?"), app.results.append)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        app.push_screen(ConfirmScreen("And?"), app.results.append)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [False, True, False]
