"""The Ask dialog (workbench/tui/screens/ask.py): on its own, what it returns (a reader typed, its
modality, a server typed for it, the DPI) and what keeps it open; opened with `a` on the sample
suite, a pixels reader switches the modality and tab goes through the same stops for every
reader, the base URL by its key (those two moved from tests/tui/test_inspect.py)."""

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


# ---- the dialog on its own (fast) ----------------------------------------------------------------

def ask_dialog(question: str = "What is the total due?"):
    from tests.support.widget_host import DialogHost
    from workbench.tui.screens.ask import AskChoice, AskScreen

    return DialogHost(lambda: AskScreen(["probe:pypdf", "openai:gpt-4o"],
                                        AskChoice("probe:pypdf", "text", 150, question), "inv-1"))


async def test_the_dialog_returns_what_was_chosen_with_a_server_typed_for_the_reader():
    from textual.widgets import Input

    from tests.support.fixtures import screen_text

    app = ask_dialog()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert "Ask a reader about inv-1" in screen_text(app) and "Probes need no key and no network" in screen_text(app)
        assert dialog.query_one("#ask-base-url", Input).disabled          # a probe has no server
        dialog.query_one("#ask-custom", Input).value = "openai:gpt-4o-mini"
        await pilot.pause()
        assert "openai: key from OPENAI_API_KEY" in screen_text(app)
        assert dialog.query_one("#ask-modality").value == "pdf"           # the reader's own modality
        dialog.query_one("#ask-base-url", Input).value = "http://127.0.0.1:9/v1"
        dialog.query_one("#ask-dpi", Input).value = "200"
        await pilot.click("#ask-send")
        await pilot.pause()
        (chosen,) = app.results
        assert (chosen.reader, chosen.modality, chosen.dpi, chosen.question, chosen.base_url) == (
            "openai:gpt-4o-mini", "pdf", 200, "What is the total due?", "http://127.0.0.1:9/v1")


async def test_a_question_or_dpi_missing_keeps_the_dialog_open_and_cancel_asks_nothing():
    from textual.widgets import Button, Input

    app = ask_dialog(question="")
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.click("#ask-send")
        await pilot.pause()
        assert app.results == [] and app.focused.id == "ask-question"
        assert [n.message for n in app._notifications] == ["write the question to ask about this PDF"]
        app.clear_notifications()
        app.screen.query_one("#ask-question", Input).value = "Who is the vendor?"
        app.screen.query_one("#ask-dpi", Input).value = "5000"
        # (pressed, not clicked: the first line's toast can lie over the Send button, and a click
        # there dismisses the toast; the click itself is tested above)
        app.screen.query_one("#ask-send", Button).press()
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert app.results == [] and len(said) == 1 and said[0].startswith("DPI must be between ")
        app.clear_notifications()
        await pilot.pause()
        await pilot.click("#ask-cancel")
        await pilot.pause()
        assert app.results == [None]


async def test_a_long_question_is_shown_from_its_start():
    """At 100x30 the box showed the end of a case's long question ("d with only the amount
    including currency symbol, no other text."), its start out of sight."""
    from tests.support.fixtures import screen_text

    question = ("What is the total amount due on this invoice? Answer with only the amount including "
                "currency symbol, no other text.")
    app = ask_dialog(question=question)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        assert "What is the total amount due" in shown and "no other text." not in shown
