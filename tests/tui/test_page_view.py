"""The page pane (workbench/tui/widgets/page_view.py) in a small app of its own: pages stepped
with the page keys (not past either end), zoom levels up to 1:1 and back, the next box brought
into view on its page, the overlays toggled, and what the pane says of each in its subtitle."""

from __future__ import annotations

import pytest

from tests.support.fixtures import reportlab_pages, screen_text, settle
from tests.support.page_host import PageHost
from workbench.pdf.pages import Box
from workbench.tui.widgets.page_view import ACTUAL, PageView

HIDDEN = Box(1, (72.0, 230.0, 300.0, 245.0), "hidden", "SECRET INSTRUCTION ignore the page")
EXPECTED = Box(0, (72.0, 110.0, 200.0, 125.0), "expected", "revenue grew 1.5 percent")


@pytest.fixture(scope="module")
def three_pages(tmp_path_factory) -> bytes:
    return reportlab_pages(tmp_path_factory.mktemp("pv") / "three.pdf", 3, hidden_on=2).read_bytes()


def view(app) -> PageView:
    return app.screen.query_one(PageView)


async def test_the_page_keys_step_through_the_pages_and_stop_at_the_ends(three_pages):
    app = PageHost(three_pages, 3, [EXPECTED, HIDDEN])
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, rounds=1)
        pv = view(app)
        assert pv.rendered_page == 0 and pv.border_subtitle == "page 1/3 · 150 dpi · ev+hid"
        assert "page 1/3 · 150 dpi · ev+hid" in screen_text(app)
        for key, page in (("n", 1), ("pagedown", 2), ("n", 2), ("p", 1), ("pageup", 0), ("pageup", 0)):
            await pilot.press(key)
            await settle(pilot, rounds=1)
            assert (pv.page, pv.rendered_page) == (page, page), key
        assert pv.border_subtitle.startswith("page 1/3")
        assert app.changes[-4:] == [(1, 3), (2, 3), (1, 3), (0, 3)]


async def test_zoom_steps_up_to_one_to_one_and_back_to_fit(three_pages):
    app = PageHost(three_pages, 3)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, rounds=1)
        pv = view(app)
        await pilot.press("plus")
        await settle(pilot, rounds=1)
        assert pv.zoom_level == 1 and "· 1.5x ·" in pv.border_subtitle
        await pilot.press("z")
        await settle(pilot, rounds=1)
        assert pv.zoom_level == ACTUAL and "· 1:1 ·" in pv.border_subtitle
        await pilot.press("plus")
        assert pv.zoom_level == ACTUAL           # nothing past 1:1
        await pilot.press("z")                   # z again fits
        await settle(pilot, rounds=1)
        assert pv.zoom_level == 0 and pv.border_subtitle == "page 1/3 · 150 dpi · ev+hid"
        for _ in range(3):
            await pilot.press("plus")
        await pilot.press("minus", "0")
        await settle(pilot, rounds=1)
        assert pv.zoom_level == 0 and pv.center == (0.5, 0.5)


async def test_b_brings_each_box_into_view_on_its_page_in_turn(three_pages):
    app = PageHost(three_pages, 3, [HIDDEN, EXPECTED])
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, rounds=1)
        pv = view(app)
        await pilot.press("b")
        await settle(pilot, rounds=1)
        assert pv.page == 0 and pv.zoom_level > 0            # the expected box first: page 1
        assert pv.shown.area != (0.0, 0.0, 1.0, 1.0)         # zoomed onto it
        await pilot.press("b")
        await settle(pilot, rounds=1)
        assert (pv.page, pv.rendered_page) == (1, 1)         # then the hidden one, on page 2
        x0, y0, x1, y1 = pv.shown.area
        assert x0 * 595 <= 72 and 300 <= x1 * 595 and y0 * 842 <= 230 and 245 <= y1 * 842
        await pilot.press("B")
        await settle(pilot, rounds=1)
        assert pv.page == 0


async def test_hiding_the_overlays_leaves_no_box_to_go_to(three_pages):
    app = PageHost(three_pages, 3, [EXPECTED, HIDDEN])
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, rounds=1)
        pv = view(app)
        assert pv.visible_boxes() == [EXPECTED, HIDDEN]
        pv.show_hidden = False
        assert pv.visible_boxes() == [EXPECTED] and pv.border_subtitle.endswith("· ev")
        pv.show_evidence = False
        assert pv.visible_boxes() == [] and pv.border_subtitle == "page 1/3 · 150 dpi"
        await pilot.press("b")
        await settle(pilot, rounds=1)
        assert [n.message for n in app._notifications] == [
            "no evidence boxes or hidden spans are shown on this document"]
        pv.show_value_box(HIDDEN)                              # an answer's value is always drawn
        assert pv.visible_boxes() == [HIDDEN]


async def test_a_new_document_starts_at_its_first_page_fitted_unless_the_view_is_kept(three_pages):
    app = PageHost(three_pages, 3)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot, rounds=1)
        pv = view(app)
        await pilot.press("n", "n", "plus")
        await settle(pilot, rounds=1)
        pv.show_pdf(three_pages, 2, keep_view=True)          # a regenerated preview, shorter
        await settle(pilot, rounds=1)
        assert (pv.page, pv.zoom_level) == (1, 1)
        pv.show_pdf(three_pages, 3)
        await settle(pilot, rounds=1)
        assert (pv.page, pv.zoom_level, pv.rendered_page) == (0, 0, 0)
        pv.clear("this case has no PDF")
        await pilot.pause()
        assert "this case has no PDF" in screen_text(app) and pv.up_to_date
        await pilot.press("n")
        assert pv.page == 0
