"""The go-to-page dialog (workbench/tui/widgets/go_to_page.py): a number, `end` or `last` taken, a
page the document does not have refused in the dialog, which waits for another; escape stays.
On a small app showing only a page pane (tests/support/page_host.py)."""

from __future__ import annotations

import pytest

from tests.support.fixtures import reportlab_pages, screen_text, settle
from tests.support.page_host import PageHost
from workbench.tui.widgets.go_to_page import GoToPageScreen, parse_page
from workbench.tui.widgets.page_view import PageView


def test_a_page_number_end_or_what_is_wrong_with_it():
    assert parse_page("3", 4) == 2 and parse_page(" 1 ", 4) == 0
    assert parse_page("end", 4) == 3 and parse_page("Last", 4) == 3
    assert parse_page("7,342", 10_000) == 7341 and parse_page("7_342", 10_000) == 7341
    assert parse_page("9", 4) == "no page 9: this document has 4 pages"
    assert parse_page("0", 1) == "no page 0: this document has 1 page"
    assert parse_page("two", 10_000) == "type a page number from 1 to 10,000 (or end)"
    assert parse_page("-1", 4) == "type a page number from 1 to 4 (or end)"


@pytest.fixture(scope="module")
def four_pages(tmp_path_factory) -> bytes:
    return reportlab_pages(tmp_path_factory.mktemp("goto") / "four.pdf", 4).read_bytes()


async def test_g_goes_to_a_page_and_a_page_out_of_range_keeps_the_dialog_open(four_pages):
    app = PageHost(four_pages, 4)
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(pilot, rounds=1)
        page = app.screen.query_one(PageView)
        shown = app.screen
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, GoToPageScreen) and "Go to page (1-4; now 1)" in screen_text(app)
        await pilot.press("9", "enter")
        await pilot.pause()
        assert isinstance(app.screen, GoToPageScreen) and "no page 9: this document has 4 pages" in screen_text(app)
        await pilot.press("3", "enter")        # the box was cleared for the next number
        await settle(pilot, rounds=1)
        assert app.screen is shown and (page.page, page.rendered_page) == (2, 2)
        await pilot.press("g", "escape")
        await pilot.pause()
        assert app.screen is shown and page.page == 2
        await pilot.press("g", *"end", "enter")
        await pilot.pause()
        assert page.page == 3 and page.border_subtitle.startswith("page 4/4")


async def test_a_one_page_document_has_no_page_to_go_to(four_pages):
    app = PageHost(four_pages, 1)   # (shown as its first page only)
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        assert not isinstance(app.screen, GoToPageScreen)
        assert [n.message for n in app._notifications] == ["this document has one page"]

