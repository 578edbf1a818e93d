"""The authoring screen, driven with Pilot: what the screen shows and what is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select

from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, helper_started, screen_text, settle
from workbench.build.authoring import Draft, write_family_template
from workbench.build.suite import verify_suite
from workbench.core.source import open_source
from workbench.core.suite import load_suite
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.author import AuthorScreen
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.widgets.author_form import AuthorForm, DegradeForm, ParamRow, _fmt
from workbench.tui.widgets.author_save import ConfirmScreen, SaveCaseScreen
from workbench.tui.widgets.text_layers import TextLayerView

pytestmark = pytest.mark.slow   # the Author screen regenerates a case (and its scan) per change: 25-62 s each at load 13

SIZE = (160, 48)




async def start(pilot, draft: Draft | None = None) -> AuthorScreen:
    await settle(pilot, 1, AUTHOR_DEBOUNCE)
    pilot.app.push_screen(AuthorScreen(draft))
    await settle(pilot, 2, AUTHOR_DEBOUNCE)
    screen = pilot.app.screen
    assert isinstance(screen, AuthorScreen)
    assert screen.preview is not None, screen.gen_error
    return screen


async def type_into(pilot, selector: str, text: str) -> None:
    box = pilot.app.screen.query_one(selector, Input)
    box.focus()
    await pilot.pause()
    box.value = ""                       # as if the author cleared the field
    await pilot.press(*["space" if ch == " " else ch for ch in text])


def layer(screen, name: str = "pymupdf") -> str:
    return screen.query_one(f"#author-text-{name}", TextLayerView).plain


def row(screen, name: str) -> ParamRow:
    return screen.query_one(AuthorForm).row(name)


async def show_tab(pilot, tab: str) -> str:
    pilot.app.screen.query_one("#author-side").active = tab
    await pilot.pause()
    return screen_text(pilot.app)


async def test_a_parameter_change_updates_the_page_the_text_layers_and_the_key():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 3))
        before_pdf = screen.page.pdf
        assert "pinned" not in row(screen, "vendor").query_one(".param-state").render().plain
        await type_into(pilot, "#value-vendor", "Acme Test Widgets")
        await type_into(pilot, "#value-visible_total", "1234.5")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert row(screen, "vendor").pinned and row(screen, "visible_total").pinned
        assert "Acme Test Widgets" in layer(screen)
        assert screen.page.pdf != before_pdf and screen.page.rendered_page == 0
        # A pane not on show takes the new preview when its tab is chosen.
        assert "Acme Test Widgets" in await show_tab(pilot, "author-tab-pypdf")
        assert "Acme Test Widgets" in layer(screen, "pypdf")
        shown = await show_tab(pilot, "author-tab-key")
        assert "Expected answer" in shown and "1,234.50" in shown
        assert "Acme Test Widgets" in shown           # the question names the vendor
        assert "lint" in screen.sub_title and "seed 3" in screen.sub_title


async def test_pin_keeps_a_value_across_seeds_and_unpin_gives_it_back_to_the_seed():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 5))
        number = row(screen, "invoice_number")
        drawn_at_5 = screen.preview.params["invoice_number"]
        assert not number.pinned and number.widget.value == str(drawn_at_5)   # auto shows its value
        await type_into(pilot, "#value-invoice_number", "111111")
        screen.query_one(AuthorForm).focus()   # off the text field, so [ and ] step the seed
        await pilot.press("right_square_bracket")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.seed == 6
        assert number.pinned and "INV-111111" in layer(screen)
        await pilot.click("#pin-invoice_number")   # unpin: the seed draws it again
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        drawn_at_6 = screen.preview.params["invoice_number"]
        assert not number.pinned and drawn_at_6 != 111111
        assert number.widget.value == str(drawn_at_6)
        assert f"INV-{drawn_at_6}" in layer(screen) and "INV-111111" not in layer(screen)
        assert "auto" in number.query_one(".param-state").render().plain


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


async def test_an_invalid_value_shows_its_error_and_keeps_the_last_good_preview():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 4))
        good_pdf, good_text = screen.page.pdf, layer(screen)
        await type_into(pilot, "#value-visible_total", "5")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        shown = screen_text(app)
        assert "visible_total" in shown and "between 100 and" in shown and "last good preview" in shown
        assert screen.page.pdf == good_pdf and layer(screen) == good_text
        assert row(screen, "visible_total").has_class("-error")
        await pilot.press("0", "0")                                # 500: valid again
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "must be between" not in screen_text(app)
        assert screen.page.pdf != good_pdf and not row(screen, "visible_total").has_class("-error")


async def _save(pilot, folder: Path, case_id: str | None = None) -> None:
    await pilot.press("ctrl+s")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveCaseScreen)
    dialog.query_one("#save-folder", Input).value = str(folder)
    if case_id is not None:
        dialog.query_one("#save-id", Input).value = case_id
    await pilot.click("#save-ok")
    await settle(pilot, 1, AUTHOR_DEBOUNCE)


async def test_save_into_a_new_suite_then_an_existing_one_refuse_overwrite_then_open(tmp_path):
    folder = tmp_path / "authored"
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 7, {"line_items": 2}))
        first_id = screen.preview.case.id
        await _save(pilot, folder)
        assert isinstance(app.screen, ConfirmScreen) and "Open (y)" in screen_text(app)
        await pilot.press("n")                                     # keep authoring
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.json").exists() and (folder / "suite.json").exists()

        screen.query_one(AuthorForm).focus()
        await pilot.press("right_square_bracket")                  # seed 8: another case
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        second_id = screen.preview.case.id
        assert second_id != first_id
        await _save(pilot, folder)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert sorted(c.id for c in load_suite(folder).cases) == sorted([first_id, second_id])
        results, digest, recorded = verify_suite(folder)
        assert all(r.ok for r in results) and digest == recorded

        written = (folder / f"{first_id}.pdf").read_bytes()
        await _save(pilot, folder, first_id)                       # seed 8's case under seed 7's id
        assert isinstance(app.screen, ConfirmScreen) and "Overwrite (y)" in screen_text(app)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.pdf").read_bytes() == written
        assert isinstance(app.screen, AuthorScreen)

        await _save(pilot, folder, first_id)
        await pilot.press("y")                                     # overwrite this time
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert (folder / f"{first_id}.pdf").read_bytes() == (folder / f"{second_id}.pdf").read_bytes()
        assert all(r.ok for r in verify_suite(folder)[0])
        await pilot.press("y")                                     # open the suite in Inspect
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, InspectScreen)
        assert {c.id for c in app.screen.source.cases} == {first_id, second_id}


async def test_start_from_the_case_open_in_inspect():
    source = open_source(ONE_CASE)
    case = source.cases[0]
    app = WorkbenchApp(source)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        await pilot.press("w")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        screen = app.screen
        assert isinstance(screen, AuthorScreen)
        assert screen.preview.case.trap_family == case.trap_family
        assert screen.preview.case.seed == case.seed
        assert screen.preview.params == case.params
        assert screen.query_one("#seed", Input).value == str(case.seed)


async def test_a_user_family_reloads_when_its_file_changes_and_a_broken_edit_shows_its_line(tmp_path):
    path = write_family_template("po_trap")                     # into the test's config folder
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("po_trap", 1))
        assert "PURCHASE ORDER" in layer(screen)
        families = [v for _, v in screen.query_one("#family", Select)._options]
        assert "po_trap" in families and "hidden_ocr_mismatch" in families

        source = path.read_text()
        path.write_text(source.replace('"PURCHASE ORDER"', '"ORDER FORM"'))
        await pilot.pause(0.5)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "ORDER FORM" in layer(screen) and "PURCHASE ORDER" not in layer(screen)

        lines = path.read_text().splitlines()
        broken_at = next(i for i, line in enumerate(lines) if line.startswith("VERSION")) + 1
        lines[broken_at - 1] = "VERSION = = 2"
        path.write_text("\n".join(lines) + "\n")
        await pilot.pause(0.5)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        shown = screen_text(app)
        assert f"po_trap.py:{broken_at}: SyntaxError" in shown
        assert "ORDER FORM" in layer(screen)                     # the last good preview stays
        families = [v for _, v in screen.query_one("#family", Select)._options]
        assert "hidden_ocr_mismatch" in families                 # the others are still there

        # Fixed, but with a contract the page breaks: lint errors ask before saving.
        fixed = source.replace('"PURCHASE ORDER"', '"ORDER FORM"')
        path.write_text(fixed.replace('Arming("forbidden", "hidden"', 'Arming("forbidden", "visible"'))
        await pilot.pause(0.5)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "SyntaxError" not in screen_text(app)
        assert "lint: ERRORS" in screen.sub_title
        await _save(pilot, tmp_path / "mine")
        assert isinstance(app.screen, ConfirmScreen) and "Save anyway (y)" in screen_text(app)
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        assert not (tmp_path / "mine").exists()

        path.write_text(fixed)
        await pilot.pause(0.5)
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "lint ✔" in screen.sub_title
        await _save(pilot, tmp_path / "mine")
        await pilot.press("n")
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
    results, digest, recorded = verify_suite(tmp_path / "mine")
    assert [r.ok for r in results] == [True] and digest == recorded
    assert load_suite(tmp_path / "mine").cases[0].trap_family == "po_trap"


async def test_four_quick_changes_make_one_regeneration():
    seen: list[AuthorScreen.Regenerating] = []

    def hook(message) -> None:
        if isinstance(message, AuthorScreen.Regenerating):
            seen.append(message)

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 10))
        assert len(seen) == 1                                    # the first preview
        seen.clear()
        seed = screen.query_one("#seed", Input)
        for value in ("1", "11", "111", "12"):   # typed quicker than the debounce
            seed.value = value
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert len(seen) == 1
        assert screen.shown_generation == seen[0].generation
        assert screen.preview.case.seed == 12
        assert "seed 12" in screen.sub_title


async def test_brackets_step_the_seed_even_while_the_seed_box_has_focus():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        screen.query_one("#seed", Input).focus()
        await pilot.pause()
        await pilot.press("right_square_bracket", "right_square_bracket", "left_square_bracket")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.query_one("#seed", Input).value == "3"
        assert "seed 3" in screen.sub_title


async def test_a_scan_that_removes_the_trap_shows_trap_disarmed_live():
    """hidden_ocr_mismatch scanned without a text layer has no hidden total left: an error."""
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        assert "trap-disarmed" not in await show_tab(pilot, "author-tab-lint")
        assert "lint ✔" in screen.sub_title
        screen.query_one("#tier", Select).value = "heavy"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)   # the change is debounced before it regenerates
        assert screen.preview.case.degrade.text_layer == "none"
        shown = await show_tab(pilot, "author-tab-lint")
        assert "trap-disarmed" in shown and "text layer none" in shown
        assert "lint: ERRORS" in screen.sub_title
        screen.query_one("#text-layer", Select).value = "faithful"   # the hidden total comes back
        await settle(pilot, 2, AUTHOR_DEBOUNCE)   # the change is debounced before it regenerates
        assert "trap-disarmed" not in await show_tab(pilot, "author-tab-lint")


async def test_a_knob_out_of_range_says_so_where_the_preview_is_and_keeps_the_last_page():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        screen.query_one(DegradeForm).set_tier("mild")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.preview.case.degrade.tier == "mild"
        screen.query_one("#knob-rotation", Input).value = "99"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "rotation" in screen.gen_error and "between" in screen.gen_error
        assert screen.preview.case.degrade.tier == "mild"     # the last good preview stays
        screen.query_one("#knob-rotation", Input).value = "3"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert not screen.gen_error and screen.preview.case.degrade.knobs()["rotation"] == 3.0
async def test_escape_asks_when_the_form_changed_and_the_draft_is_kept_per_family():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 3))
        await pilot.press("escape")                 # nothing changed: straight back
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, InspectScreen)
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 3))
        await type_into(pilot, "#value-vendor", "Acme Widgets Ltd.")
        screen.query_one("#seed", Input).focus()
        await pilot.press("right_square_bracket")   # seed 4
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")                      # stay
        await pilot.pause()
        assert app.screen is screen and row(screen, "vendor").pinned
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")                      # leave: the draft is kept
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, InspectScreen)
        app.open_author(None)                       # "Author a new case": the draft comes back
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        screen = app.screen
        assert screen.form.seed() == 4 and row(screen, "vendor").pinned_value() == "Acme Widgets Ltd."
        assert screen.preview.case.metadata.get("vendor", "Acme Widgets Ltd.") == "Acme Widgets Ltd."
        # Another family and back: each keeps its own draft.
        screen.query_one("#family", Select).value = "footnote_override"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.family.name == "footnote_override"
        screen.query_one("#family", Select).value = "hidden_ocr_mismatch"
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert screen.form.seed() == 4 and row(screen, "vendor").pinned


async def test_auto_values_are_the_seeds_from_the_start_and_labels_are_whole():
    """No flash of defaults: before the first preview arrives, auto rows show the values drawn
    from the seed; every parameter's name is shown whole."""
    from workbench.build.make import family_registry

    family = family_registry().get("hidden_ocr_mismatch")
    expected = family.resolve({}, 7)
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, 1)
        app.push_screen(AuthorScreen(Draft("hidden_ocr_mismatch", 7)))
        await pilot.pause()
        screen = app.screen
        assert screen.preview is None or screen.shown_generation <= 1
        for p in family.params:
            if p.type in ("int", "float", "str"):
                shown = row(screen, p.name).query_one(f"#value-{p.name}", Input).value
                assert shown == _fmt(expected[p.name]), p.name
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        for p in family.params:
            label = row(screen, p.name).query_one(".param-name")
            assert label.size.width >= len(p.name), p.name
        await pilot.press("f4")
        await pilot.pause()
        assert app.focused is screen.query_one("#tier")


async def test_a_family_written_while_the_app_runs_joins_the_list_and_the_template_says_w():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 1))
        path = write_family_template("dock_trap")
        assert "press `w` on any case" in path.read_text() and "press `n`" not in path.read_text()
        for _ in range(40):
            await pilot.pause(0.1)
            if "dock_trap" in [n for _, n in screen.form.families]:
                break
        assert "dock_trap" in [n for _, n in screen.form.families]


async def test_the_lint_pane_of_a_scan_says_what_lint_says_of_the_case_saved():
    """The screen lints on the pages it analysed and the unscanned page it made; the verdict is
    the one `lint` gives the case from scratch (which generates the unscanned page again)."""
    from workbench.checks.lint import lint_case
    from workbench.pdf import textlayer, visibility

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 4))
        for tier, text_layer in (("mild", "faithful"), ("heavy", "none")):
            screen.query_one("#tier", Select).value = tier
            screen.query_one("#text-layer", Select).value = text_layer
            await settle(pilot, 2, AUTHOR_DEBOUNCE)
            case = screen.preview.case
            assert (case.degrade.tier, case.degrade.text_layer) == (tier, text_layer)
            visibility.clear_cache()
            textlayer.clear_cache()
            from_scratch = [f.to_json() for f in lint_case(case, screen.preview.pdf)]
            assert [f.to_json() for f in screen.data.findings] == from_scratch
            shown = await show_tab(pilot, "author-tab-lint")
            for finding in from_scratch:
                assert finding["code"] in shown
        assert any(f["code"] == "trap-disarmed" for f in from_scratch)   # heavy, no layer: disarmed


async def test_a_zoom_while_the_preview_is_generating_is_the_zoom_shown():
    """The preview's page is rendered in its worker as the pane showed it; zoomed meanwhile, the
    pane shows the new page at the new zoom, not the render made for the old one."""
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 2))
        assert screen.page.shown.area == (0.0, 0.0, 1.0, 1.0)      # fitted: the whole page
        screen.query_one(AuthorForm).row("invoice_number").set_pinned(True, 424242)
        screen.regenerate_now()          # the worker takes the pane's view as it is now
        screen.page.action_zoom(2)       # then the author zooms, before the preview is back
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert "INV-424242" in layer(screen)
        x0, y0, x1, y1 = screen.page.shown.area
        assert x1 - x0 < 0.9 and y1 - y0 < 0.9                    # zoomed in on the new page
        assert screen.page.rendered_page == 0 and "2x" in screen.page.border_subtitle


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


async def test_the_pypdf_layer_and_page_come_from_the_helper_process_which_ends_with_the_screen():
    import asyncio

    import pytest

    from workbench.core.pool import cores
    from workbench.pdf.textlayer import pypdf_page_text

    if cores() < 2:
        pytest.skip("the helper process is started on a machine of two cores or more")
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 3))
        helper = screen._helper
        assert helper is not None
        await asyncio.to_thread(helper_started, helper)
        handed: list[int] = []
        submit = helper.submit

        def spy(fn, *args):
            future = submit(fn, *args)
            handed.append((fn.__name__, args[1] if fn.__name__ == "pypdf_page_text" else None))
            return future

        helper.submit = spy
        await type_into(pilot, "#value-vendor", "Helper Read Ltd")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        # Page 1's layer and the page's image were made by the helper, the layer first (the
        # analysis waits for it; the image is wanted only once the page is analysed).
        assert handed[-2:] == [("pypdf_page_text", 0), ("raster_for", None)]
        assert screen.page.rendered_page == 0
        assert "Helper Read Ltd" in await show_tab(pilot, "author-tab-pypdf")
        assert screen.data.layers["pypdf"][0] == pypdf_page_text(screen.preview.pdf, 0)
        processes = list(helper._pool._processes.values())
        assert processes and all(p.is_alive() for p in processes)
        app.pop_screen()
        await pilot.pause()
        # each process's end, awaited (at most 60 s in all: a loaded 2-core machine took over 10 s)
        for process in processes:
            await asyncio.to_thread(process.join, 60 / len(processes))
        assert not any(p.is_alive() for p in processes)
        assert screen._helper is None


async def test_a_family_written_after_start_opens_in_author_on_its_draft():
    """`new-family` while the workbench runs, then `w` on its case: Author opens on that family."""
    from workbench.build.make import family_registry

    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        family_registry()                                    # the registry the app started with
        write_family_template("late_trap")
        pilot.app.push_screen(AuthorScreen(Draft("late_trap", 4)))
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        screen = pilot.app.screen
        assert "late_trap" in [n for _, n in screen.form.families]
        assert screen.family.name == "late_trap"
        assert screen.focused is not None and screen.focused.id != "seed"


async def test_focus_starts_on_the_family_and_each_parameter_takes_one_tab_stop():
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("hidden_ocr_mismatch", 1))
        assert screen.focused.id == "family"
        await pilot.press("4")                                 # a digit typed first: seed stays 1
        assert screen.form.seed() == 1
        await pilot.press("tab")
        assert screen.focused.id == "seed"
        await pilot.press("tab")
        first = screen.focused.id
        await pilot.press("tab")
        assert first.startswith("value-") and screen.focused.id.startswith("value-")
        assert screen.focused.id != first
        name = first.removeprefix("value-")
        was = row(screen, name).pinned
        screen.query_one(f"#{first}").focus()
        await pilot.press("ctrl+o")
        assert row(screen, name).pinned is not was


async def test_a_family_that_fails_to_load_is_named_with_its_problem_when_author_opens_on_it():
    """`w` on a case of a user family whose module no longer loads: Author says why, with the
    file and line, not only that the family is not installed."""
    path = write_family_template("stale_trap")
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("VERSION")) + 1
    lines[at - 1] = "VERSION = = 2"
    path.write_text("\n".join(lines) + "\n")
    app = WorkbenchApp(open_source(ONE_CASE))
    said: list[str] = []
    shown = app.notify
    app.notify = lambda message, **kw: (said.append(str(message)), shown(message, **kw))  # toasts expire
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, Draft("stale_trap", 1))
        assert any("family 'stale_trap' is not installed" in m and f"stale_trap.py:{at}: SyntaxError" in m
                   for m in said), said
        assert screen.family.name != "stale_trap"
