"""The authoring screen, driven with Pilot: what the screen shows and what is written."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from tests.support.author import layer, row, show_tab, start, type_into
from tests.support.fixtures import AUTHOR_DEBOUNCE, ONE_CASE, screen_text, settle
from workbench.build.authoring import Draft
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.author import AuthorScreen
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.widgets.author_form import AuthorForm, DegradeForm, _fmt
from workbench.tui.widgets.author_save import ConfirmScreen

pytestmark = pytest.mark.slow   # the Author screen regenerates a case (and its scan) per change: 25-62 s each at load 13

SIZE = (160, 48)


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


async def test_w_on_a_pdf_without_a_key_says_why_author_starts_a_new_case(tmp_path):
    """A PDF opened bare has no family and no key: Author opened on hidden_ocr_mismatch without a
    word. It says why, and how to arm a trap in that PDF (adopt it first)."""
    from tests.support.fixtures import reportlab_pages

    app = WorkbenchApp(open_source(reportlab_pages(tmp_path / "two.pdf", 2)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, 1, AUTHOR_DEBOUNCE)
        await pilot.press("w")
        await settle(pilot, 2, AUTHOR_DEBOUNCE)
        assert isinstance(app.screen, AuthorScreen)
        said = " ".join(n.message for n in app._notifications)
        assert "this PDF has no answer key" in said and "adopt it first" in said


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


