"""The Ask dialog (workbench/tui/screens/ask.py), opened with `a` on the sample suite: a pixels
reader switches the modality, and tab goes through the same stops for every reader, the base URL
by its key. (Moved from tests/tui/test_inspect.py.)"""

from __future__ import annotations

import pytest

from tests.support.fixtures import mini_copy, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp


@pytest.mark.slow
async def test_switching_the_ask_dialog_to_a_pixels_reader_switches_the_modality(tmp_path):
    from textual.widgets import Select

    from workbench.providers.adapters import default_modality
    from workbench.tui.screens.ask import AskScreen

    app = WorkbenchApp(open_source(mini_copy(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, AskScreen)
        modality = app.screen.query_one("#ask-modality", Select)
        assert modality.value == "text"                 # the pymupdf probe's
        app.screen.query_one("#ask-reader", Select).value = "probe:ocr"
        await settle(pilot)
        assert modality.value == default_modality("probe:ocr") == "pixels"


@pytest.mark.slow
async def test_the_ask_dialog_tabs_through_the_same_stops_for_every_reader_base_url_by_its_key(tmp_path):
    """Tab never lands on the base URL box, whatever the reader (issue 38.6): ctrl+l goes to it
    for a reader with a server, and a probe's stays disabled."""
    app = WorkbenchApp(open_source(mini_copy(tmp_path)))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        dialog = app.screen

        async def stops(reader: str) -> list[str]:
            dialog.query_one("#ask-custom").value = reader
            await settle(pilot)
            dialog.query_one("#ask-question").focus()
            await settle(pilot)
            seen = []
            for _ in range(7):
                seen.append(app.focused.id)
                await pilot.press("tab")
            return seen

        assert await stops("probe:pypdf") == ["ask-question", "ask-reader", "ask-custom", "ask-modality",
                                              "ask-dpi", "ask-send", "ask-cancel"]
        assert await stops("openai:gpt-4o") == ["ask-question", "ask-reader", "ask-custom", "ask-modality",
                                                "ask-dpi", "ask-send", "ask-cancel"]
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert app.focused.id == "ask-base-url"
        await pilot.press("tab")
        await settle(pilot)
        assert app.focused.id == "ask-send"
        dialog.query_one("#ask-custom").value = "probe:pypdf"
        await settle(pilot)
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert app.focused.id != "ask-base-url"
