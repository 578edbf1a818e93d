"""Author's panes (workbench/tui/screens/author_panes.py): the scan, the clean page or both (F3) as
the tier changes, only the side tab on show updated and the others taking the newest preview when
chosen, and a pane taking its new size as its content grows or shrinks. (Moved from tests/tui/test_author.py.)"""

from __future__ import annotations

import pytest
from textual.widgets import Select

from tests.support.author import layer, show_tab, start
from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, screen_text, settle
from workbench.build.authoring import Draft
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.text_layers import TextLayerView

pytestmark = pytest.mark.slow   # (as in test_author.py) the Author screen regenerates a case per change

SIZE = (160, 48)


async def test_changing_the_tier_changes_the_page_and_the_views_toggle():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        clean_pdf = screen.page.pdf
        assert "TOTAL DUE" in layer(screen)
        screen.query_one("#tier", Select).value = "heavy"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.degrade.tier == "heavy"
        assert screen.page.pdf != clean_pdf
        assert screen.page.border_title.startswith("scan · heavy")
        assert "(no text on this page)" in screen_text(app)     # an image-only scan
        await pilot.press("f3")                                    # the clean page
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert screen.page.pdf == clean_pdf and "clean" in screen.page.border_title
        await pilot.press("f3")                                    # both, side by side
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert screen.clean_page.display and screen.clean_page.pdf == clean_pdf
        assert screen.page.pdf != clean_pdf
        screen.query_one("#text-layer", Select).value = "faithful"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "TOTAL DUE" in layer(screen)                        # words behind the scan


async def test_a_side_pane_not_on_show_takes_the_newest_preview_when_its_tab_is_chosen():
    """Only the side pane on show is updated with each preview; the key, the lint and the other
    text layer show the newest one as soon as their tab is chosen, from the first paint on (the
    screen never paints an older preview there)."""
    from rich.console import Group
    from textual.widgets import Static

    def text_of(static: Static) -> str:
        content = static.content
        parts = content.renderables if isinstance(content, Group) else [content]
        return "\n".join(getattr(p, "plain", str(p)) for p in parts)

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        for _ in (3, 4):                         # two previews while the key is not on show
            screen.action_seed(1)
            await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.seed == 4
        key = screen.query_one("#author-key Static", Static)
        painted: list[str] = []
        paint = screen._compositor_refresh

        def spy() -> None:                       # what the key pane shows at each paint
            paint()
            if screen.find_widget(key).region:   # on the screen (its tab laid out as chosen)
                painted.append(text_of(key))

        screen._compositor_refresh = spy
        shown = await show_tab(pilot, "author-tab-key")
        screen._compositor_refresh = paint
        assert "hidden_ocr_mismatch · 4" in shown
        assert painted and all("hidden_ocr_mismatch · 4" in p for p in painted)
        # The pane on show follows every preview; the text layer left follows when chosen again.
        screen.action_seed(1)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "hidden_ocr_mismatch · 5" in screen_text(app)
        assert f"INV-{screen.preview.params['invoice_number']}" in await show_tab(pilot, "author-tab-pymupdf")
        shown = await show_tab(pilot, "author-tab-lint")
        assert "no findings" in shown or "warning" in shown or "error" in shown


async def test_a_pane_whose_content_grows_or_shrinks_takes_its_new_size():
    """A pane's content is painted in place when it keeps its size; a longer lint list or text
    layer (or a shorter one) is laid out again: every line can be seen (scrolled to)."""
    from types import SimpleNamespace

    from textual.widgets import Static

    from workbench.tui.widgets.text_layers import LintView

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        await show_tab(pilot, "author-tab-lint")
        lint = screen.query_one(LintView)
        rows = lint.query_one(Static)
        findings = [SimpleNamespace(severity="warning", code=f"finding-{i}", message="of the test")
                    for i in range(60)]
        for count in (1, 3, 60, 2):
            lint.show(findings[:count])
            await pilot.pause()
            assert rows.size.height == count
            assert lint.max_scroll_y == max(0, count - lint.scrollable_content_region.height)
        lint.scroll_end(animate=False)
        lint.show(findings)
        await pilot.pause()
        lint.scroll_end(animate=False)
        await pilot.pause()
        assert "finding-59" in screen_text(app)
        # The text layer on show: a page of 3 lines, then of 80.
        await show_tab(pilot, "author-tab-pymupdf")
        layer_view = screen.query_one("#author-text-pymupdf", TextLayerView)
        text = layer_view.query_one(Static)
        for lines in (3, 80, 3):
            layer_view.show(["\n".join(f"line {i}" for i in range(lines))])
            await pilot.pause()
            assert text.size.height == lines + 1            # the title line and the text
