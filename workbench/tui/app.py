"""The Textual application: screens, themes, settings, key map and the command palette.

It is the screens' `Workbench` (host.py). The screens opened on a key (Author, the F1 help) load
when first opened.
"""

from __future__ import annotations

import asyncio
import os
import select
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen

from workbench.core import collector
from workbench.core.case import Case
from workbench.core.config import (
    Settings,
    SettingsNotSaved,
    load_settings,
    save_settings,
    user_name,
)
from workbench.core.errors import UserError
from workbench.core.source import Source, open_source
from workbench.core.threads import DaemonExecutor
from workbench.tui.controls import drop_controls_from_screen
from workbench.tui.screens.inspect import InspectScreen
from workbench.tui.styles_cache import cache_colours_only
from workbench.tui.themes import DEFAULT_THEME, STYLESHEET, THEMES
from workbench.tui.widgets.page_view import PageView

if TYPE_CHECKING:
    from workbench.build.authoring import Draft

# How often the workbench looks whether its terminal is still there (seconds).
HANGUP_POLL_S = 1.0
# Its exit code when the terminal went away (as a shell's child killed by SIGHUP).
HANGUP_EXIT = 129


class _GoneTerminal:
    """The terminal Textual's output thread writes to, whose writes are dropped once one fails
    (the terminal closed: EIO). Textual's thread ends at that error, and the next 30 frames fill
    its queue: the UI thread then waits for ever to write the 31st, before the hang-up watch
    (`_leave_on_hangup`) can end the app; the frames drawn after the first page made that
    likely."""

    def __init__(self, file) -> None:
        self._file = file
        self._gone = False

    def write(self, text: str) -> None:
        if not self._gone:
            try:
                self._file.write(text)
            except OSError:
                self._gone = True

    def flush(self) -> None:
        if not self._gone:
            try:
                self._file.flush()
            except OSError:
                self._gone = True

    def __getattr__(self, name: str):
        return getattr(self._file, name)   # (fileno, isatty, encoding: the terminal's own)


class WorkbenchApp(App):
    CSS_PATH = str(STYLESHEET)
    TITLE = "pdfworkbench"
    BINDINGS = [
        # F1 is a priority key, so it works on the dialogs too (they take no key of the app's).
        Binding("f1", "toggle_help", "Help", id="help", priority=True,
                tooltip="The keys of the screen in front and what its panes show"),
        Binding("question_mark", "toggle_help", "Help", id="help_question", show=False,
                tooltip="The keys of the screen in front (where no text box takes the ?)"),
        Binding("f2", "maximize_page", "Page", id="maximize_page",
                tooltip="The page alone on the screen (F2 or escape brings the panes back)"),
        Binding("ctrl+q", "quit", "Quit", id="quit", show=False, tooltip="Quit the workbench"),
    ]

    def __init__(self, source: Source, settings: Settings | None = None, graphics: str = "halfblock",
                 who: str | None = None, password: str | None = None) -> None:
        super().__init__()
        drop_controls_from_screen()   # (a text layer's escape sequences never reach the terminal)
        cache_colours_only()          # (a closed screen's widgets leave memory with it)
        self.source = source
        # Opens encrypted PDFs this session (`open --password`, or typed into the dialog); never saved.
        self.password = password
        self.graphics = graphics
        self.settings = settings or load_settings()
        self._unsaved_said = False   # the warning that settings are not saved, said once
        self.who = user_name(who, self.settings)   # the name on dispute decisions made here
        # Author's drafts per family while the workbench runs ("" holds the last one left).
        self.author_drafts: dict[str, Draft] = {}
        self._quit_holds = 0   # see hold_quit
        self._held_quit: tuple | None = None
        self.executor: DaemonExecutor | None = None  # its thread workers' (on_mount)
        for theme in THEMES.values():
            self.register_theme(theme)
        self._start_theme(self.settings.theme if self.settings.theme in self.available_themes else DEFAULT_THEME)

    def _start_theme(self, name: str) -> None:
        """Start with theme `name`. Set as `self.theme = name`, Textual parses the whole
        stylesheet twice before the first frame (its reparse for the new theme empties its parse
        cache, and the screen's widgets parse it all again): a theme as dark as Textual's default
        is given to the stylesheet before it is first parsed instead, as setting it would."""
        if self.get_theme(name).dark != self.current_theme.dark:
            self.theme = name  # (the terminal's colours are mapped anew: Textual's own way)
            return
        self.set_reactive(WorkbenchApp.theme, name)
        self.stylesheet.set_variables(self.get_css_variables())
        self.update_classes({**{c: False for c in self.classes if c.startswith("-theme-")},
                             f"-theme-{name}": True}, update=False)
        self.watch_theme(name)

    def hold_quit(self) -> Callable[[], None]:
        """A quit asked for from now on (a key, the terminal gone) waits until the function
        returned is called: the Inspect screen's side panes go in just after its first frame, and
        Textual's tabs mounted into a closing screen fail (ValueError: No Tab with id ...)."""
        self._quit_holds += 1

        def release() -> None:
            self._quit_holds -= 1
            if not self._quit_holds and self._held_quit is not None:
                held, self._held_quit = self._held_quit, None
                App.exit(self, *held)

        return release

    def exit(self, result=None, return_code: int = 0, message=None) -> None:
        if self._quit_holds:
            self._held_quit = (result, return_code, message)
            return
        super().exit(result, return_code, message)

    def on_load(self) -> None:
        # The collector waits for the first frame (collector.py; the Inspect screen resumes it).
        collector.pause()

    def on_unmount(self) -> None:
        collector.resume()  # (quit before the first frame)

    def on_mount(self) -> None:
        # Thread workers run in the loop's default executor, which the loop's end joins: quitting
        # would wait for a page still being analysed. Its threads are daemons here.
        self.executor = DaemonExecutor(16, "workbench-worker")
        asyncio.get_running_loop().set_default_executor(self.executor)
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)
        if self.settings.problem:
            self.notify(self.settings.problem, severity="warning", timeout=10)
        self.open_target(self.source)
        self._leave_on_hangup()

    def _leave_on_hangup(self) -> None:
        """Leave when the terminal goes away (its window closed, the ssh connection dropped)
        without a SIGHUP reaching this process, as when `make run` started it: make gets the
        signal and waits. Textual's input thread would read the terminal's end of file for ever,
        at a core's full speed. (Linux: poll reports a hung-up terminal as POLLHUP.)"""
        if self.is_headless or not sys.platform.startswith("linux"):
            return
        try:
            fd = sys.__stdin__.fileno()
        except (AttributeError, ValueError, OSError):
            return
        if not os.isatty(fd):
            return
        poll = select.poll()
        poll.register(fd, select.POLLIN)

        def gone() -> bool:
            return any(events & (select.POLLHUP | select.POLLNVAL) for _fd, events in poll.poll(0))

        if gone():  # (a terminal this cannot tell about: not watched)
            return

        def check() -> None:
            if gone():
                self.exit(return_code=HANGUP_EXIT)

        self.set_interval(HANGUP_POLL_S, check, name="hangup-watch")

    def get_driver_class(self):
        """Textual's driver for this terminal; on Linux and macOS one whose writes end quietly
        when the terminal is gone (`_GoneTerminal`)."""
        driver = super().get_driver_class()
        if os.name != "posix":
            return driver
        from textual.drivers.linux_driver import LinuxDriver

        if not issubclass(driver, LinuxDriver):
            return driver   # (headless, web, or one given in the environment)

        class Driver(driver):  # type: ignore[misc, valid-type]
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, **kwargs)
                self._file = _GoneTerminal(self._file)

        return Driver

    def watch_theme(self, theme: str) -> None:
        if theme and theme != self.settings.theme:
            self.settings.theme = theme
            self.remember()

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's notification, always as plain text: the workbench's messages quote answers,
        file names and a PDF's text, which are no markup (as markup, a provider's answer holding
        `[@click=app.quit]` was a link in the toast that ran the action when clicked)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def remember(self) -> None:
        """Save the settings; a failure to save is a warning (once a session), never a crash. A
        config.json that could not be used as it is stays as the user left it."""
        try:
            save_settings(self.settings)
        except (OSError, UserError, SettingsNotSaved) as exc:
            if not self._unsaved_said:
                self._unsaved_said = True
                self.notify(f"{exc}" if isinstance(exc, SettingsNotSaved) else f"could not save settings: {exc}",
                            severity="warning", timeout=10)

    def open_author(self, case: Case | None = None) -> None:
        """Push the authoring screen, filled from `case` (its params, seed and scan) when given."""
        # A screen opened on a key, loaded when first opened (the families, the generators).
        from workbench.tui.screens.author import AuthorScreen, draft_from_case

        self.push_screen(AuthorScreen(draft_from_case(case)))

    def open_suite(self, folder: Path) -> None:
        """Leave authoring for Inspect on a suite folder (after saving a case into it)."""
        try:
            source = open_source(folder)
        except UserError as exc:
            self.notify(str(exc), severity="error")
            return
        self.open_target(source)

    def open_target(self, source: Source) -> None:
        """The one way a target (suite, case, PDF or run) opens: every screen of the previous one
        goes, with all it held (cases, marks, answers, runs), and a new Inspect starts on
        `source`; a run opens on its report."""
        self.source = source
        while len(self.screen_stack) > 1:
            self.pop_screen()
        inspect = InspectScreen(source)
        self.push_screen(inspect)
        if source.kind == "run":
            inspect.action_runs()

    def action_toggle_help(self) -> None:
        """F1 or ?: the keys of the screen in front (screens/help.py); again, back to it."""
        # A screen opened on a key, loaded when first opened (Textual's Markdown with it).
        from workbench.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
        else:
            self.push_screen(HelpScreen(self.screen))

    def action_maximize_page(self) -> None:
        """F2: the page fills the screen (the keys still go to the pane that has focus)."""
        screen = self.screen
        if screen.maximized is not None:
            screen.minimize()
            return
        pages = [p for p in screen.query(PageView) if p.display]
        if pages:
            screen.maximized = pages[-1]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        commands = getattr(screen, "palette_commands", None)
        if commands is not None:
            yield from commands()
