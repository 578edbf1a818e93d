"""The authoring form (workbench/tui/widgets/author_form.py) in a small app of its own: each
parameter's row (its type, range and help), auto rows showing the seed's values, an edit pinning
its row, ctrl+o unpinning it, values set in code posting nothing, the seed, the scan's tier,
text layer and knobs, and the draft the form describes."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Select

from tests.support.fixtures import screen_text
from tests.support.widget_host import WidgetHost
from workbench.build.authoring import Draft
from workbench.core.errors import UserError
from workbench.core.scan import DegradeSpec
from workbench.generators.base import Param
from workbench.generators.registry import registry
from workbench.tui.widgets.author_form import AuthorForm, DegradeForm, param_summary

FAMILY = "hidden_ocr_mismatch"


class FormHost(WidgetHost):
    def on_author_form_changed(self, message: AuthorForm.Changed) -> None:
        self.messages.append("changed")

    def on_author_form_family_chosen(self, message: AuthorForm.FamilyChosen) -> None:
        self.messages.append(f"family {message.name}")


def form_app() -> FormHost:
    return FormHost(lambda: [AuthorForm([("hidden_ocr_mismatch", FAMILY), ("invoice_extraction", "invoice_extraction")])])


async def loaded(app, pilot, draft: Draft, resolved=None) -> AuthorForm:
    form = app.query_one(AuthorForm)
    await form.load(registry().get(draft.family), draft, resolved)
    await pilot.pause()
    app.messages.clear()
    return form


async def posted(pilot, app, count: int) -> list:
    """The messages, once `count` have come (a chain of events: under load, more than one pause)."""
    for _ in range(200):
        if len(app.messages) >= count:
            break
        await pilot.pause(0.01)
    await pilot.pause()
    return app.messages


def test_a_parameters_summary_says_its_type_range_or_choices_and_help():
    assert param_summary(Param("total", "float", 100.0, "the printed TOTAL DUE", 100.0, 99999.99)) == \
        "float 100–99999.99 · the printed TOTAL DUE"
    assert param_summary(Param("mode", "choice", "a", "how", choices=("a", "b"))) == "a | b · how"
    assert param_summary(Param("vendor", "str", "x", "who", max=60)) == "text ≤60 chars · who"
    assert param_summary(Param("size", "float", 10.0, "pt", 8.0, 13.0, seeded=False)) == \
        "float 8–13 · auto = default · pt"


async def test_auto_rows_show_the_seeds_values_and_an_edit_pins_its_row():
    app = form_app()
    async with app.run_test(size=(120, 60)) as pilot:
        form = await loaded(app, pilot, Draft(FAMILY, 7, {"currency": "EUR"}), {"visible_total": 4711.0})
        assert form.seed() == 7 and [r.param.name for r in form.rows()][:3] == [
            "visible_total", "hidden_change_pct", "hidden_direction"]
        total = form.row("visible_total")
        assert not total.pinned and total.widget.value == "4711"           # never rounded, no .0
        assert form.row("currency").pinned and form.draft() == Draft(FAMILY, 7, {"currency": "EUR"}, None)
        assert "v6 · built-in family" in screen_text(app)
        form.show_resolved({"visible_total": 12.5, "currency": "GBP"})    # a regeneration: no edit
        await pilot.pause()
        assert total.widget.value == "12.5" and form.row("currency").widget.value == "EUR"
        assert app.messages == []
        total.widget.value = "999.99"                                      # the author types
        assert await posted(pilot, app, 1) == ["changed"] and total.pinned
        assert form.draft().pinned == {"currency": "EUR", "visible_total": "999.99"}
        total.widget.focus()
        await pilot.press("ctrl+o")                                        # back to the seed
        assert await posted(pilot, app, 2) == ["changed", "changed"]
        assert not total.pinned and form.draft().pinned == {"currency": "EUR"}


async def test_the_seed_the_family_and_rows_a_generator_error_names():
    app = form_app()
    async with app.run_test(size=(120, 60)) as pilot:
        form = await loaded(app, pilot, Draft(FAMILY, 3))
        form.set_seed(4)                          # in code: no change posted
        await pilot.pause()
        assert form.seed() == 4 and app.messages == []
        app.query_one("#seed", Input).value = "12"
        assert await posted(pilot, app, 1) == ["changed"] and form.seed() == 12
        app.query_one("#seed", Input).value = ""
        await posted(pilot, app, 2)
        assert form.seed() == 0
        form.mark_errors("parameter 'tax_rate' must be at most 25")
        assert [r.param.name for r in form.rows() if r.error] == ["tax_rate"]
        app.query_one("#family", Select).value = "invoice_extraction"
        assert await posted(pilot, app, 3) == ["changed", "changed", "family invoice_extraction"]


async def test_the_scan_tier_text_layer_and_knobs_make_the_drafts_degradation():
    app = form_app()
    async with app.run_test(size=(120, 80)) as pilot:
        form = await loaded(app, pilot, Draft(FAMILY, 1))
        degrade = app.query_one(DegradeForm)
        assert degrade.spec() is None and form.draft().degrade is None
        degrade.set_tier("mild")
        assert await posted(pilot, app, 1) == ["changed"] and "mild: " in screen_text(app)
        app.query_one("#text-layer", Select).value = "faithful"
        app.query_one("#knob-rotation", Input).value = "2.5"
        await pilot.pause()
        assert form.draft().degrade == DegradeSpec.parse({"tier": "mild", "overrides": {"rotation": "2.5"},
                                                          "text_layer": "faithful"})
        assert app.query_one("#knob-fade", Input).placeholder.startswith("tier: ")
        app.query_one("#knob-rotation", Input).value = "90"
        await pilot.pause()
        with pytest.raises(UserError, match="rotation"):
            form.draft()
