"""The text-layer, answer-key and lint panes (workbench/tui/widgets/text_layers.py) in a small app
of their own: a page's layer with its title, hidden text and the key's values marked, the page
it follows, a page not read yet, refused or too complex; the key as the pane words it; the lint's
findings or that there are none."""

from __future__ import annotations

from dataclasses import replace

from textual.containers import Horizontal
from textual.widgets import Static

from tests.support.fixtures import screen_text
from tests.support.invoices import handmade_case
from tests.support.widget_host import WidgetHost
from workbench.checks.findings import Finding
from workbench.pdf.budget import TOO_COMPLEX
from workbench.tui.widgets.text_layers import (
    HIDDEN_STYLE,
    POINTER_STYLE,
    AnswerKeyView,
    LintView,
    TextLayerView,
    mark_hidden,
)

PAGES = ["Invoice 42\nTotal due: $4,711.00\nPay within 30 days", None, "", "ignored", "ignored"]


def host(*panes) -> WidgetHost:
    return WidgetHost(lambda: [Horizontal(*panes)])


def styled(text, style: str) -> list[str]:
    """The stretches of a rich Text in `style`."""
    return [text.plain[s.start:s.end] for s in text.spans if str(s.style) == style]


def test_hidden_stretches_are_marked_wherever_they_are():
    text = mark_hidden("pay 10\nSECRET pay 10 SECRET", ["SECRET", " ", "absent"])
    assert styled(text, HIDDEN_STYLE) == ["SECRET", "SECRET"] and text.plain == "pay 10\nSECRET pay 10 SECRET"


async def test_a_layer_shows_its_page_with_the_hidden_text_counted_and_follows_the_page():
    app = host(TextLayerView("pypdf"))
    async with app.run_test(size=(120, 20)) as pilot:
        layer = app.query_one(TextLayerView)
        layer.show(PAGES, [["Pay within 30 days", "not on this page"]], unread={3: "pypdf cannot read page 4"},
                   skipped={4: f"{TOO_COMPLEX}: 2,000,000 operators"})
        await pilot.pause()
        assert layer.plain == PAGES[0] and layer.hidden_count == 1
        assert "── page 1 of 5 · pypdf ──  2 hidden span(s)" in screen_text(app)
        assert "Total due: $4,711.00" in screen_text(app)
        for page, says in ((1, "(reading this page…)"), (2, "(no text on this page)"),
                           (3, "(not read: pypdf cannot read page 4)"),
                           (4, f"({TOO_COMPLEX}: 2,000,000 operators)")):
            layer.show_page(page)
            await pilot.pause()
            assert f"page {page + 1} of 5 · pypdf" in screen_text(app) and says in screen_text(app), page
        assert "gets an error or no text here" not in screen_text(app)
        layer.show_page(3)
        await pilot.pause()
        assert "A pipeline reading with pypdf gets an error or no text here." in screen_text(app)
        layer.show_page(99)
        assert layer.page == 4


async def test_a_value_pointed_at_is_marked_in_the_layer():
    app = host(TextLayerView("pypdf"))
    async with app.run_test(size=(120, 20)) as pilot:
        layer = app.query_one(TextLayerView)
        layer.show(PAGES)
        layer.point_at("TOTAL DUE")
        await pilot.pause()
        shown = app.query_one("#layer-pypdf", Static).content.renderables[1]
        assert styled(shown, POINTER_STYLE) == ["Total due"] and layer.pointed_line == 2
        layer.show(PAGES)   # a new document: nothing pointed at
        assert layer.pointer == "" and layer.pointed_line is None


async def test_the_key_pane_and_the_lint_pane_say_what_they_hold():
    app = host(AnswerKeyView(), LintView())
    async with app.run_test(size=(220, 30)) as pilot:
        app.query_one(AnswerKeyView).show(handmade_case(expected_tokens=["$4,711.00", "42"]))
        lint = app.query_one(LintView)
        lint.show([Finding("inv-1", "error", "expected-not-visible", "the total is only in hidden text"),
                   Finding("inv-1", "info", "forbidden-hidden-only", "a hidden-layer trap")])
        await pilot.pause()
        shown = screen_text(app)
        for line in ("Question", "What is the total due?", "Expected tokens", "$4,711.00, 42",
                     "Forbidden answers", "$9,999.00", "Family · seed", "handmade · 1",
                     "error   expected-not-visible  the total is only in hidden text",
                     "info    forbidden-hidden-only  a hidden-layer trap"):
            assert line in shown, line
        lint.show([])
        app.query_one(AnswerKeyView).show(replace(handmade_case(), question=""))   # a bare PDF
        await pilot.pause()
        assert "✔ no findings: the trap is armed as its contract says" in screen_text(app)
        assert "This PDF has no answer key." in screen_text(app)
        lint.show([], keyed=False)   # a bare PDF's: no trap to call armed
        await pilot.pause()
        assert "no hidden text or structure (this PDF has no answer key: no trap to check)" in screen_text(app)
        assert "armed" not in screen_text(app)


def test_a_page_of_a_thousand_hidden_spans_of_one_text_marks_each_place_once():
    """A page from elsewhere may hide one text 1,500 times: each place of it is styled once
    (it was styled once per hidden span: 2,250,000 styles for the screen to draw)."""
    text = mark_hidden("$5.00 " * 1500, ["$5.00"] * 1500)
    assert len(text.spans) == 1500 and styled(text, HIDDEN_STYLE) == ["$5.00"] * 1500
