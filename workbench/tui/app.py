"""The Textual application."""

from __future__ import annotations

from textual.app import App

from themes import DEFAULT_THEME, STYLESHEET, THEMES
from workbench.core.source import Source


class WorkbenchApp(App):
    CSS_PATH = str(STYLESHEET)
    TITLE = "pdfworkbench"

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.source = source
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME

    def on_mount(self) -> None:
        from workbench.tui.screens.inspect import InspectScreen

        self.push_screen(InspectScreen(self.source))
