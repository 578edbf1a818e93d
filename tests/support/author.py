"""Driving the Author screen in a test: opened on a draft (or with `w` on an adopted case) once
its preview is made, a field typed into, a side tab shown, a case saved; what its panes hold."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.support.fixtures import AUTHOR_DEBOUNCE, screen_text, settle
from workbench.build.authoring import Draft
from workbench.tui.screens.author import AuthorScreen
from workbench.tui.widgets.author_form import AuthorForm, ParamRow
from workbench.tui.widgets.author_save import SaveCaseScreen
from workbench.tui.widgets.text_layers import TextLayerView


async def start(pilot, draft: Draft | None = None) -> AuthorScreen:
    await settle(pilot, 1, AUTHOR_DEBOUNCE)
    pilot.app.push_screen(AuthorScreen(draft))
    await settle(pilot, 2, AUTHOR_DEBOUNCE)
    screen = pilot.app.screen
    assert isinstance(screen, AuthorScreen)
    assert screen.preview is not None, screen.gen_error
    return screen


async def type_into(pilot, selector: str, text: str) -> None:
    box = pilot.app.screen.query_one(selector, Input)
    box.focus()
    await pilot.pause()
    box.value = ""                       # as if the author cleared the field
    await pilot.press(*["space" if ch == " " else ch for ch in text])


def layer(screen, name: str = "pymupdf") -> str:
    return screen.query_one(f"#author-text-{name}", TextLayerView).plain


def row(screen, name: str) -> ParamRow:
    return screen.query_one(AuthorForm).row(name)


async def show_tab(pilot, tab: str) -> str:
    pilot.app.screen.query_one("#author-side").active = tab
    await pilot.pause()
    return screen_text(pilot.app)


async def save_case(pilot, folder: Path, case_id: str | None = None) -> None:
    await pilot.press("ctrl+s")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveCaseScreen)
    dialog.query_one("#save-folder", Input).value = str(folder)
    if case_id is not None:
        dialog.query_one("#save-id", Input).value = case_id
    await pilot.click("#save-ok")
    await settle(pilot, 1, AUTHOR_DEBOUNCE)


async def author_of_adopted(pilot) -> AuthorScreen:
    """`w` on the adopted case shown: the Author screen in mutation mode, its preview made."""
    await settle(pilot, 2, AUTHOR_DEBOUNCE)
    await pilot.press("w")
    await settle(pilot, 2, AUTHOR_DEBOUNCE)
    screen = pilot.app.screen
    assert isinstance(screen, AuthorScreen) and screen.preview is not None, screen.gen_error
    return screen
