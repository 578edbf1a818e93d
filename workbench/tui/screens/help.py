"""F1 (or ?): the keys of the screen in front, one line each, made from its bindings, then what
the screen and the focused pane show (their HELP)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Markdown, Static

from workbench.tui.keymap import keys_of, screen_name
from workbench.tui.themes import SCREENS_STYLESHEET


def keys_text(screen: Screen) -> Text:
    """The keys of `screen`, a line each: a title per section, then keys, label and what it does."""
    sections = keys_of(screen)
    lines = [line for _, found in sections for line in found]
    keys_w = max((len(line.keys) for line in lines), default=0)
    label_w = max((len(line.description) for line in lines), default=0)
    out = Text(no_wrap=True, overflow="ellipsis")
    for n, (title, found) in enumerate(sections):
        out.append(("\n" if n else "") + title + "\n", style="bold underline")
        for line in found:
            style = "" if line.enabled else "dim"
            out.append(f" {line.keys:<{keys_w}}", style=f"bold {style}".strip())
            out.append(f"  {line.description:<{label_w}}", style=style)
            out.append(f"  {line.tooltip}\n", style="dim")
    out.rstrip()
    return out


def pane_help(screen: Screen) -> str:
    """The focused pane's HELP (its own or the nearest container's), '' when it has none."""
    node = screen.focused
    while node is not None and node is not screen:
        text = getattr(type(node), "HELP", None)
        if text:
            return text
        node = node.parent
    return ""


class HelpScreen(ModalScreen[None]):
    """The keys of the screen beneath, then its help and the focused pane's."""

    CSS_PATH = SCREENS_STYLESHEET

    BINDINGS = [Binding("escape,f1,question_mark,q", "dismiss(None)", "Close", id="help_close",
                        tooltip="Back to the screen")]

    def __init__(self, front: Screen) -> None:
        super().__init__()
        self.front = front
        self.keys = keys_text(front)
        self.about = "\n\n".join(t.strip() for t in dict.fromkeys(
            [getattr(type(front), "HELP", None) or "", pane_help(front)]) if t.strip())

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            yield Label(f"[b]{screen_name(self.front)}[/b]: its keys (escape closes)", id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(self.keys, id="help-keys")
                if self.about:
                    yield Markdown(self.about, id="help-about")

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()
