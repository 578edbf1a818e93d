"""A small app that shows only the widgets a test gives it, styled as the workbench is: for the
tests of one widget, much faster than the whole workbench."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.app import App, ComposeResult
from textual.widget import Widget

from workbench.tui.themes import SCREENS_STYLESHEET, STYLESHEET


class WidgetHost(App):
    CSS_PATH = [str(STYLESHEET), SCREENS_STYLESHEET]  # every screen's rules: a widget may be any screen's

    def __init__(self, make: Callable[[], Iterable[Widget]]) -> None:
        super().__init__()
        self._make = make
        self.messages: list[object] = []   # what the widgets posted, for `on(...)` tests

    def compose(self) -> ComposeResult:
        yield from self._make()


class DialogHost(App):
    """Opens the screen `make()` gives once started, styled as the workbench is; `results` holds
    what it was dismissed with."""

    CSS_PATH = [str(STYLESHEET), SCREENS_STYLESHEET]  # every screen's rules: a widget may be any screen's

    def __init__(self, make: Callable[[], object]) -> None:
        super().__init__()
        self._make = make
        self.results: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self._make(), self.results.append)
