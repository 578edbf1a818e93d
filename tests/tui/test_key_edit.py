"""The answer-key dialog of an adopted case (workbench/tui/widgets/key_edit.py) on its own: the key
as written (tokens and forbidden answers joined by ' | '), what it returns once saved (lists
split, the matcher chosen), a key without a question or an answer refused in the dialog, escape."""

from __future__ import annotations

from textual.widgets import Input, Select

from tests.support.fixtures import screen_text
from tests.support.invoices import handmade_case
from tests.support.widget_host import DialogHost
from workbench.core.adoption import AdoptedSource
from workbench.tui.widgets.key_edit import KeyEditScreen, split_list

CASE = handmade_case("statement-1", expected="$4,210.55", forbidden=("$2,500.00", "$3.17"),
                     question="What is the closing balance?",
                     source=AdoptedSource("0" * 64, "statement.pdf", 2))


def test_a_list_is_split_at_bars_without_empty_parts():
    assert split_list(" a | b ||c | ") == ["a", "b", "c"] and split_list("") == []


async def test_the_key_as_written_and_what_saving_returns():
    app = DialogHost(lambda: KeyEditScreen(CASE))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        shown = screen_text(app)
        assert "Answer key of statement-1 (adopted statement.pdf)" in shown
        dialog = app.screen
        assert dialog.query_one("#key-forbidden", Input).value == "$2,500.00 | $3.17"
        assert app.focused is dialog.query_one("#key-expected", Input)
        dialog.query_one("#key-tokens", Input).value = "4,210.55 | closing"
        dialog.query_one("#key-matcher", Select).value = "tokens_all"
        await pilot.press("ctrl+s")
        await pilot.pause()
        (saved,) = app.results
        assert {k: v for k, v in saved.items() if k != "matcher"} == {
            "question": "What is the closing balance?", "expected": "$4,210.55",
            "tokens": ["4,210.55", "closing"], "forbidden": ["$2,500.00", "$3.17"]}
        assert saved["matcher"].kind == "tokens_all"


async def test_a_key_without_an_answer_stays_in_the_dialog_and_escape_saves_nothing():
    app = DialogHost(lambda: KeyEditScreen(CASE))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        app.screen.query_one("#key-expected", Input).value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [] and "a key needs a question and an answer (or tokens)" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]
