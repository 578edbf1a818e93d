"""Panes laid out by the width they get (workbench/tui/widgets/layout.py): a row of panes takes the
class of its width (and again when the terminal is resized), and a pane updated in place shows its
new content, taking a new size when that needs one."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widgets import Static

from tests.support.fixtures import screen_text
from tests.support.widget_host import WidgetHost
from workbench.tui.widgets.layout import MEDIUM, NARROW, PaneRow, update_in_place, width_class


def test_the_width_classes_and_their_bounds():
    assert [width_class(w) for w in (80, NARROW - 1, NARROW, MEDIUM - 1, MEDIUM, 300)] == [
        "-narrow", "-narrow", "-medium", "-medium", "-wide", "-wide"]


async def test_a_row_takes_the_class_of_its_width_as_the_terminal_changes():
    app = WidgetHost(lambda: [PaneRow(Static("left"), Static("right"), id="row")])
    async with app.run_test(size=(100, 10)) as pilot:
        row = app.query_one(PaneRow)
        await pilot.pause()
        assert row.has_class("-narrow") and not row.has_class("-wide")
        await pilot.resize_terminal(160, 10)
        await pilot.pause()
        assert row.has_class("-wide") and not row.has_class("-narrow") and not row.has_class("-medium")
        await pilot.resize_terminal(130, 10)
        await pilot.pause()
        assert row.has_class("-medium") and not row.has_class("-wide")


async def test_a_pane_updated_in_place_shows_its_new_content_at_the_size_it_needs():
    app = WidgetHost(lambda: [Vertical(Static("one line", id="pane"), Static("below", id="below"))])
    async with app.run_test(size=(40, 10)) as pilot:
        pane = app.query_one("#pane", Static)
        await pilot.pause()
        update_in_place(pane, "same size")
        await pilot.pause()
        assert screen_text(app).splitlines()[:2] == ["same size".ljust(40), "below".ljust(40)]
        update_in_place(pane, "now\nthree\nlines")
        await pilot.pause()
        assert [line.strip() for line in screen_text(app).splitlines()[:4]] == ["now", "three", "lines", "below"]
