"""The first-run hint's words (workbench/tui/widgets/hint.py): the keys named as they are bound on
the screen it is on, a remapped key included, and the binding's id where the screen has none.
(Shown, dismissed and remembered in the workbench: tests/tui/test_first_run_hint.py.)"""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from tests.support.fixtures import screen_text
from workbench.tui.widgets.hint import FirstRunHint, hint_text


class Keys(Screen):
    BINDINGS = [Binding("a", "noop", "Ask", id="ask"), Binding("w", "noop", "Author", id="author"),
                Binding("ctrl+r", "noop", "Runs", id="runs"), Binding("1", "noop", "pypdf", id="tab_pypdf")]

    def compose(self):
        yield FirstRunHint()

    def action_noop(self) -> None:
        pass


class Host(App):
    def get_default_screen(self) -> Screen:
        return Keys()


async def test_the_hint_names_the_keys_bound_on_its_screen():
    app = Host()
    async with app.run_test(size=(160, 8)) as pilot:
        await pilot.pause()
        text = hint_text(app.screen)
        assert "[b]1[/b]-[b]tab_answers[/b] for its text layers" in text      # no binding: its id
        assert "[b]w[/b] to edit its trap" in text and "[b]a[/b] to ask a reader" in text
        assert "[b]^r[/b] for a run's report" in text
        shown = screen_text(app)
        assert "↓ to pick a case, 1-tab_answers for its text layers, key, lint and answers, w to edit its trap" in shown
        assert "dismiss_hint or esc hides this hint for good" in shown
