"""The first-run hint: three lines at the top of Inspect saying where to start, until dismissed
(`x` or escape; remembered as `first_run_hint: false` in config.json)."""

from __future__ import annotations

from textual.widgets import Static

from workbench.tui.keymap import keys_by_id


class FirstRunHint(Static):
    """Where to start, with the keys as they are bound on `screen` (remapped ones included)."""

    DEFAULT_CSS = """
    FirstRunHint { height: 3; padding: 0 1; background: $primary 20%; color: $text; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.can_focus = False

    def on_mount(self) -> None:
        self.update(hint_text(self.screen))


def hint_text(screen) -> str:
    keys = keys_by_id(screen)

    def k(binding_id: str) -> str:
        return f"[b]{keys.get(binding_id, binding_id)}[/b]"

    return (f"[b]↓[/b] to pick a case, {k('tab_pypdf')}-{k('tab_answers')} for its text layers, key, lint "
            f"and answers, {k('author')} to edit its trap\n"
            f"{k('ask')} to ask a reader about it, {k('runs')} for a run's report, "
            f"{k('help_question')} or {k('help')} for every key of the screen in front\n"
            f"[dim]{k('dismiss_hint')} or [b]esc[/b] hides this hint for good[/dim]")
