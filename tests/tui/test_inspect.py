"""The first screen, driven with Pilot and compared with a snapshot."""

from __future__ import annotations

import pytest

from tests.support.fixtures import SAMPLE, mini_copy, screen_text, settle
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView
from workbench.tui.widgets.text_layers import AnswerKeyView, TextLayerView


async def test_moving_to_the_second_case_updates_the_text_layer_and_key(suite_copy):
    source = open_source(suite_copy)
    first, second = source.cases[0], source.cases[1]
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert first.forbidden_answers[0] in layer.plain
        await pilot.press("down")
        await settle(pilot)
        assert app.screen.query_one(CaseList).cursor_node.data.id == second.id
        assert second.forbidden_answers[0] in layer.plain
        assert first.forbidden_answers[0] not in layer.plain
        assert second.metadata["vendor"] in layer.plain
        page = app.screen.query_one(PageView)
        assert page.border_title == second.id
        assert page.border_subtitle.startswith("page 1/1")
        assert app.screen.query_one(AnswerKeyView)
        await pilot.press("3")
        await settle(pilot)
        shown = screen_text(app)
        assert "Expected answer" in shown and second.expected_answer in shown
        assert second.forbidden_answers[0] in shown


async def test_a_broken_pdf_in_the_suite_is_a_notification_not_a_crash(suite_copy):
    (suite_copy / "suite.json").unlink()  # a plain folder of cases, as pdfhell ships them
    (suite_copy / "hidden_ocr_mismatch-0001.pdf").write_bytes(b"not a pdf at all")
    app = WorkbenchApp(open_source(suite_copy))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert any("not a PDF" in n.message for n in app._notifications)
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert "could not be read" in layer.plain
        await pilot.press("down")
        await settle(pilot)
        assert "TOTAL DUE" in layer.plain  # the next case still opens


async def test_the_footer_shows_its_keys_once_the_page_is_shown_or_cannot_be(suite_copy, tmp_path):
    """The keys wait for the first page (so it is drawn sooner), but never longer than that."""
    one = tmp_path / "one"
    one.mkdir()
    for f in suite_copy.glob("hidden_ocr_mismatch-0001.*"):
        (one / f.name).write_bytes(f.read_bytes())
    (one / "hidden_ocr_mismatch-0001.pdf").write_bytes(b"not a pdf at all")
    for folder, page_shown in ((suite_copy, True), (one, False)):
        app = WorkbenchApp(open_source(folder))
        async with app.run_test(size=(160, 48)) as pilot:
            await settle(pilot)
            assert (app.screen.query_one(PageView).rendered_page is not None) is page_shown
            shown = screen_text(app).splitlines()[-1]
            assert "q Quit" in shown and "w Author" in shown and "f1 Help" in shown and "palette" in shown


@pytest.mark.slow
def test_main_screen_snapshot(snap_compare):
    async def run_before(pilot) -> None:
        await settle(pilot)

    assert snap_compare(WorkbenchApp(open_source(SAMPLE)), terminal_size=(160, 48), run_before=run_before)


@pytest.mark.slow
async def test_page_keys_work_with_the_case_list_focused_and_the_layers_follow(tmp_path):
    """PgDn, n, p and + are screen keys: they turn the page while the case list has focus, and
    the text layer panes show the page the page view shows, saying which."""
    source = open_source(mini_copy(tmp_path))
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        assert cases.select_case("cross_page_citation-0001-322b2b")
        await settle(pilot)
        assert app.focused is cases
        page = app.screen.query_one(PageView)
        layer = app.screen.query_one("#text-pymupdf", TextLayerView)
        assert page.page_count == 4 and page.page == 0
        first_page_text = layer.plain
        await pilot.press("pagedown")
        await settle(pilot)
        assert page.page == 1 and page.rendered_page == 1
        assert page.border_subtitle.startswith("page 2/4")
        assert layer.page == 1 and layer.plain != first_page_text
        assert "page 2 of 4 · pymupdf" in screen_text(app)
        await pilot.press("n", "n")
        await settle(pilot)
        assert page.page == 3 and layer.page == 3
        await pilot.press("p")
        await settle(pilot)
        assert page.page == 2
        await pilot.press("plus")
        await settle(pilot)
        assert "2" not in page.zoom_label() or page.zoom_label() == "1.5x"
        assert app.focused is cases  # nothing stole the focus


@pytest.mark.slow
async def test_g_goes_to_a_page_by_number_and_a_number_out_of_range_is_refused(tmp_path):
    """g asks for a page number: the page and its text layer go there; a page the document does
    not have is refused in the dialog, which stays open for another; escape stays on the page."""
    from workbench.tui.widgets.go_to_page import GoToPageScreen

    app = WorkbenchApp(open_source(mini_copy(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(CaseList).select_case("cross_page_citation-0001-322b2b")
        await settle(pilot)
        inspect = app.screen
        page = inspect.query_one(PageView)
        layer = inspect.query_one("#text-pymupdf", TextLayerView)
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(app.screen, GoToPageScreen)
        assert "Go to page (1-4; now 1)" in screen_text(app)
        await pilot.press("3", "enter")
        await settle(pilot)
        assert app.screen is inspect and page.page == 2 and page.rendered_page == 2
        assert layer.page == 2 and "page 3 of 4 · pymupdf" in screen_text(app)
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("9", "enter")
        await settle(pilot)
        assert isinstance(app.screen, GoToPageScreen)
        assert "no page 9: this document has 4 pages" in screen_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is inspect and page.page == 2
        await pilot.press("g")
        await settle(pilot)
        await pilot.press(*"end", "enter")
        await settle(pilot)
        assert page.page == 3 and page.border_subtitle.startswith("page 4/4")


@pytest.mark.slow
async def test_one_to_one_zoom_and_next_box(tmp_path):
    """z shows the page at 1:1 (one half-cell per pixel of the reader's raster); b centres the
    view on the next evidence box or hidden span, on whatever page it is."""
    from workbench.tui.widgets.page_view import ACTUAL

    source = open_source(mini_copy(tmp_path))
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        cases = app.screen.query_one(CaseList)
        assert cases.select_case("hidden_ocr_mismatch-0001")
        await settle(pilot)
        page = app.screen.query_one(PageView)
        await pilot.press("z")
        await settle(pilot)
        assert page.zoom_level == ACTUAL and "1:1" in page.border_subtitle
        x0, y0, x1, y1 = page.shown.area
        # 1:1 at 150 dpi: the pane's cells are pixels of a 1275 x 1650 raster (US Letter).
        assert abs((x1 - x0) * 1275 - page.size.width) <= 1
        assert abs((y1 - y0) * 1650 - 2 * page.size.height) <= 2
        await pilot.press("z")
        await settle(pilot)
        assert page.zoom_level == 0 and page.shown.area == (0.0, 0.0, 1.0, 1.0)
        await pilot.press("b")
        await settle(pilot)
        boxes = sorted(page.visible_boxes(), key=lambda b: (b.page, round(b.rect[1]), b.rect[0]))
        box = boxes[0]
        # Zoomed in as far as still shows the whole printed total (at 1:1 only about 4 of its
        # characters fit this pane), and centred on it.
        assert 0 < page.zoom_level < ACTUAL
        x0, y0, x1, y1 = page.shown.area
        bx0, by0, bx1, by1 = (box.rect[0] / 612, box.rect[1] / 792, box.rect[2] / 612, box.rect[3] / 792)
        assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1
        await pilot.press("b")
        await settle(pilot)
        assert page.box_index == 1 % len(boxes)


@pytest.mark.slow
async def test_hires_graphics_show_the_page_raster_and_crop_it_at_one_to_one(tmp_path):
    """--graphics hires: the page goes to textual-image's widget (Sixel or Kitty where the terminal
    has them) as the reader's raster itself, and 1:1 crops that raster instead of scaling it."""
    import pytest

    pytest.importorskip("textual_image")
    from workbench.tui.widgets.page_view import ACTUAL

    app = WorkbenchApp(open_source(mini_copy(tmp_path)), graphics="hires")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(CaseList).select_case("hidden_ocr_mismatch-0001")
        await settle(pilot)
        page = app.screen.query_one(PageView)
        image = page.query_one("#page-hires").image
        assert image.size == (1275, 1650)          # US Letter at the reader's 150 dpi, unscaled
        await pilot.press("z")
        await settle(pilot)
        assert page.zoom_level == ACTUAL and "1:1" in page.border_subtitle
        crop = page.query_one("#page-hires").image
        x0, y0, x1, y1 = page.shown.area
        assert crop.size[0] < 1275 and abs(crop.size[0] - (x1 - x0) * 1275) <= 1
        assert abs(crop.size[1] - (y1 - y0) * 1650) <= 1
        await pilot.press("z")
        await settle(pilot)
        assert page.query_one("#page-hires").image.size == (1275, 1650)


async def test_a_case_whose_pdf_pypdf_refuses_on_one_page_shows_its_pages_and_a_lint_error(tmp_path):
    import json

    from tests.support.hostile_corpus import second_page_pypdf_refuses_pdf

    (tmp_path / "refused-0001.pdf").write_bytes(second_page_pypdf_refuses_pdf())
    (tmp_path / "refused-0001.json").write_text(json.dumps({
        "id": "refused-0001", "question": "What is the total?", "expected_answer": "$1.00",
        "forbidden_answers": ["$2.00"], "pdf_path": "refused-0001.pdf"}), encoding="utf-8")
    app = WorkbenchApp(open_source(tmp_path))
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        view = app.screen.query_one(PageView)
        assert view.rendered_page == 0 and view.page_count == 2  # not the load's error
        assert "pdf-unreadable" in [f.code for f in app.screen.data.findings]
        view.focus()
        await pilot.press("pagedown")
        await settle(pilot)
        assert view.rendered_page == 1
        assert app.screen.query_one("#text-pypdf", TextLayerView).plain.startswith("(not read: ")
        assert "Total: $1.00" in app.screen.query_one("#text-pymupdf", TextLayerView).plain


async def test_each_installed_extractor_has_a_tab_read_when_shown_with_the_key_marked(tmp_path):
    """A tab per other extractor installed here (pdfplumber from the `extractors` extra): nothing is
    read until the tab is shown; shown, it holds that extractor's text with the key's values marked,
    and moving to another case reads that case's."""
    import pytest
    from textual.widgets import TabbedContent

    from workbench.providers import extractors

    if not extractors.available("pdfplumber"):
        pytest.skip(extractors.missing("pdfplumber"))
    for stem in ("actualtext_override-0001", "optional_content_layer-0001"):  # a plain folder of cases
        for ext in (".json", ".pdf"):
            (tmp_path / (stem + ext)).write_bytes((SAMPLE / (stem + ext)).read_bytes())
    source = open_source(tmp_path)
    first, ocg = source.cases
    app = WorkbenchApp(source)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        plumber = app.screen.query_one("#text-pdfplumber", TextLayerView)
        assert plumber.layer_of is None and plumber.plain == ""  # not read until shown
        tabs = {p.id for p in app.screen.query("TabPane")}
        assert {f"tab-{n}" for n in extractors.EXTRACTORS if extractors.available(n)} <= tabs
        app.screen.query_one("#side", TabbedContent).active = "tab-pdfplumber"
        await settle(pilot)
        assert plumber.layer_of.case is first
        assert "INVOICE\nInitech" in plumber.plain  # its own reading order, not pymupdf's
        assert [k for _, _, k in plumber.key_spans[0]] == ["expected"]  # the ActualText decoy is not in it
        for _ in range(3):  # past the next family's heading
            if app.screen.current is not ocg:
                await pilot.press("down")
                await settle(pilot)
        assert app.screen.current is ocg and plumber.layer_of.case is ocg
        # the OCG-off decoy: pypdf's layer has it, pdfplumber's does not
        pypdf = app.screen.query_one("#text-pypdf", TextLayerView)
        assert ocg.forbidden_answers[0] in pypdf.plain and ocg.forbidden_answers[0] not in plumber.plain
