"""The first-run hint: three lines on Inspect saying where to start, until dismissed (remembered
in config.json; a config.json the workbench cannot use is never written over)."""

from __future__ import annotations

import json

from tests.support.fixtures import settle
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.hint import FirstRunHint


def _hint_lines(app) -> list[str]:
    hints = app.screen.query(FirstRunHint)
    if not hints:
        return []
    hint = hints.first()
    return [line.rstrip() for line in str(hint.render()).splitlines()]


async def test_shown_on_a_first_run_dismissed_with_x_and_not_shown_again(suite_copy):
    config_path().write_text("{}")  # a user's config without the hint turned off
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        lines = _hint_lines(app)
        assert len(lines) == 3 and all(len(line) <= 98 for line in lines), lines
        assert lines[0].startswith("↓ to pick a case, 1-5 for its text layers, key, lint and answers, w to edit its trap")
        assert "? or f1 for every key" in lines[1] and lines[2].startswith("x or esc hides this hint")
        assert isinstance(app.screen.focused, CaseList)  # it takes no focus: ↓ goes to the cases
        await pilot.press("x")
        await settle(pilot)
        assert _hint_lines(app) == []
    assert json.loads(config_path().read_text())["first_run_hint"] is False
    again = WorkbenchApp(open_source(suite_copy))
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert _hint_lines(again) == []


async def test_escape_hides_it_and_then_is_escape_again(suite_copy):
    config_path().write_text(json.dumps({"keymap": {"author": "W"}}))
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "W to edit its trap" in _hint_lines(app)[0]  # the keys as the user bound them
        await pilot.press("escape")
        await settle(pilot)
        assert _hint_lines(app) == []
        await pilot.press("escape")  # nothing in flight: escape does nothing else
        await settle(pilot)
        assert app.screen.current is not None
    saved = json.loads(config_path().read_text())
    assert saved["first_run_hint"] is False and saved["keymap"] == {"author": "W"}


async def test_a_broken_config_file_is_left_as_it_was_when_the_hint_is_dismissed(suite_copy):
    broken = b'{"theme": "workbench-light", oops\n'
    config_path().write_bytes(broken)
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert len(_hint_lines(app)) == 3  # the defaults: a first run
        await pilot.press("x")
        await settle(pilot)
        assert _hint_lines(app) == []
        said = [n.message for n in app._notifications]
        assert any("settings not saved" in m for m in said), said
    assert config_path().read_bytes() == broken


async def test_not_shown_under_the_test_config(suite_copy, test_config):
    assert test_config["first_run_hint"] is False
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert _hint_lines(app) == []
