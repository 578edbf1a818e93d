"""The workbench on a config.json it cannot use: it runs on the defaults, says so, and never
writes over the user's file (it used to replace it with the defaults on the first theme switch)."""

from __future__ import annotations

import json
import os

import pytest

from tests.support.fixtures import settle
from tests.support.fuzzing import file_state, plant_file
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.ask import AskScreen
from workbench.tui.screens.inspect import InspectScreen

SIZE = (160, 48)

HOSTILE = {
    "not json": b'{"theme": "workbench-light",',
    "every field wrong": json.dumps({f: [{"bad": True}] for f in (
        "theme", "reader", "modality", "dpi", "graphics", "keymap", "family_dirs", "user",
        "base_urls", "questions", "env_file", "limits")}).encode(),
    "wrong dpi, good theme": b'{"dpi": "high", "theme": "workbench-light"}',
    "odd keymap": json.dumps({"keymap": {"next_page": "", "quit": "ctrl+", "toggle_evidence": "\x00"},
                              "dpi": 0}).encode(),
    "deep": b"[" * 100_000,
    "non-utf-8": '{"user": "Zoë"}'.encode("latin-1"),
    "fifo": "fifo",
    "folder": "dir",
}


def _workbench(suite) -> WorkbenchApp:
    """The app on `suite`, keeping every notification it shows in `app.said`: a toast expires
    after its timeout (10 s for a warning), which a loaded machine's settle can outlast."""
    app = WorkbenchApp(open_source(suite))
    app.said = []
    shown = app.notify

    def notify(message, *args, **kwargs):
        app.said.append(str(message))
        return shown(message, *args, **kwargs)

    app.notify = notify
    return app


def _notes(app) -> list[str]:
    return app.said


@pytest.mark.parametrize("kind", list(HOSTILE))
async def test_a_config_it_cannot_use_is_said_and_never_written_over(suite_copy, tmp_path, kind):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)  # the test config's (tests/tui/conftest.py): the user's file instead
    content = HOSTILE[kind]
    plant_file(path, content, tmp_path)
    before = file_state(path)
    app = _workbench(suite_copy)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen)
        assert any(str(path) in note and "config edit" in note for note in _notes(app))
        if kind == "wrong dpi, good theme":
            assert app.theme == "workbench-light" and app.settings.dpi == 150   # the good field kept
        app.theme = "workbench-high-contrast"      # each of these used to save the settings
        await pilot.pause()
        app.theme = "workbench-dark"
        await pilot.pause()
        await pilot.press("down")
        await settle(pilot)
        unsaved = [n for n in _notes(app) if n.startswith("settings not saved")]
        assert len(unsaved) == 1      # said once, not at every change
    assert file_state(path) == before
    if content == "fifo":
        assert path.is_fifo()


async def test_keys_it_does_not_know_are_kept_when_it_saves(suite_copy):
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"theme": "workbench-dark", "from_a_newer_version": {"x": [1, 2]}}))
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "workbench-light"
        await pilot.pause()
    saved = json.loads(path.read_text())
    assert saved["theme"] == "workbench-light" and saved["from_a_newer_version"] == {"x": [1, 2]}


async def test_a_file_broken_since_it_was_read_is_not_written_over(suite_copy):
    """The user edits config.json in another window while the workbench runs."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"theme": "workbench-dark"}')
    app = _workbench(suite_copy)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        path.write_bytes(b'{"theme": "workbench-light", "dpi": ')   # half-way through an edit
        os.utime(path)
        app.theme = "workbench-high-contrast"
        await pilot.pause()
        assert any(n.startswith("settings not saved") for n in _notes(app))
    assert path.read_bytes() == b'{"theme": "workbench-light", "dpi": '


@pytest.mark.slow
@pytest.mark.parametrize("url", ["ftp://x.example", "http://user:pw@x.example/v1", "http://a b",
                                 "javascript:alert(1)"])
async def test_the_ask_dialog_refuses_a_base_url_that_is_not_one(suite_copy, url):
    app = _workbench(suite_copy)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AskScreen)
        dialog.query_one("#ask-custom").value = "openai-compatible:local"
        await pilot.pause()
        dialog.query_one("#ask-base-url").value = url
        await pilot.click("#ask-send")
        await pilot.pause()
        assert app.screen is dialog     # not sent
        refused = [n for n in _notes(app) if "base URL" in n]
        assert refused and "from the base URL box" in refused[-1] and "pw" not in refused[-1]
    assert not config_path().exists() or url not in config_path().read_text()
