"""Picking the value a mutation attacks (workbench/tui/screens/pick.py) on its own: every span of
the page listed with its box (hidden ones said), filtered by typing, moved through with up and
down while the filter keeps the focus, Enter or a click chooses, escape keeps the value."""

from __future__ import annotations

from tests.support.fixtures import screen_text
from tests.support.widget_host import DialogHost
from workbench.checks.locate import Located
from workbench.tui.screens.pick import PickSpanScreen

SPANS = [Located(0, (72.0, 132.5, 138.0, 144.5), "INVOICE 42"),
         Located(0, (72.0, 172.5, 196.1, 184.5), "TOTAL DUE $4,711.00"),
         Located(0, (196.1, 172.5, 259.4, 184.5), "$9,999.00", visible=False),
         Located(0, (72.0, 200.0, 140.0, 212.0), "Total paid $4,711.00")]


async def test_the_spans_are_listed_filtered_and_one_is_chosen_by_enter():
    app = DialogHost(lambda: PickSpanScreen(SPANS, 0))
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        dialog = app.screen
        shown = screen_text(app)
        assert "The value to attack: a span of page 1 (4); type to filter, Enter chooses" in shown
        assert "INVOICE 42  at 72,132,138,144" in shown and "$9,999.00  at 196,172,259,184  hidden" in shown
        assert dialog.shown() == [0, 1, 2, 3]
        await pilot.press(*"total")                     # whatever the case
        await pilot.pause()
        assert dialog.shown() == [1, 3]
        await pilot.press("down")                        # the filter keeps the focus
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [SPANS[3]]


async def test_the_list_wraps_around_and_escape_keeps_the_value():
    app = DialogHost(lambda: PickSpanScreen(SPANS, 2))
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.press("up", "enter")                # from the first to the last
        await pilot.pause()
        app.push_screen(PickSpanScreen(SPANS, 2), app.results.append)
        await pilot.pause()
        await pilot.press("z", "q", "enter", "escape")  # nothing listed: enter chooses nothing
        await pilot.pause()
        assert app.results == [SPANS[3], None]
