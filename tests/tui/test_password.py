"""An encrypted PDF in the workbench: `open --password` opens it, and without the password (or with
a wrong one) the workbench asks in a small dialog, says when the password does not open it, and
shows the case once it does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import screen_text, settle
from tests.support.hostile_corpus import USER_PASSWORD, case_dict, encrypted_pdf
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.widgets.password import PasswordScreen

SIZE = (160, 48)


@pytest.fixture
def locked(tmp_path) -> Path:
    """A suite of one case whose PDF needs a password to be opened."""
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "locked.pdf").write_bytes(encrypted_pdf(USER_PASSWORD))
    (folder / "locked.json").write_text(json.dumps(case_dict("locked", "locked.pdf")), encoding="utf-8")
    return folder



async def test_open_password_opens_the_encrypted_case(locked):
    app = WorkbenchApp(open_source(locked), password=USER_PASSWORD)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen)
        shown = screen_text(app)
        assert "Total: $1.00" in shown and "encrypted" not in shown


@pytest.mark.slow
async def test_without_the_password_the_workbench_asks_for_it(locked):
    app = WorkbenchApp(open_source(locked))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PasswordScreen)
        assert "locked.pdf is encrypted" in screen_text(app)
        await pilot.press(*"wrong", "enter")
        await settle(pilot)
        # Asked again, saying why; the case is not shown yet.
        assert isinstance(app.screen, PasswordScreen)
        assert "does not open it; try another" in screen_text(app)
        await pilot.press(*USER_PASSWORD, "enter")
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen) and app.password == USER_PASSWORD
        assert "Total: $1.00" in screen_text(app)


async def test_cancelling_the_dialog_leaves_the_case_unread(locked):
    app = WorkbenchApp(open_source(locked))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PasswordScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, InspectScreen) and app.password is None
        assert any("give --password" in n.message for n in app._notifications)
        shown = screen_text(app)
        assert "the PDF could not be read" in shown and "Total: $1.00" not in shown


def test_open_takes_password_to_the_workbench(cli, locked, monkeypatch):
    """`open --password` reaches the workbench; a wrong one is one line before the screen starts;
    a bare encrypted PDF without one starts the workbench (which asks)."""
    started = []
    monkeypatch.setattr(WorkbenchApp, "run", lambda self: started.append((self.source.kind, self.password)))
    pdf = locked / "locked.pdf"
    assert cli("open", locked, "--password", USER_PASSWORD)[0] == 0
    assert cli("open", pdf)[0] == 0
    code, _, err = cli("open", pdf, "--password", "wrong")
    assert code == 2 and "does not open it" in err and "Traceback" not in err
    assert started == [("suite", USER_PASSWORD), ("pdf", None)]
