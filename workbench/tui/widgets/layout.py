"""Panes laid out by the width they get: a screen's row of panes says how wide it is with a class
(`-medium`, `-narrow`), and the stylesheet narrows the side panes or stacks them beside the page.
Panes whose content changes in place update without a layout of the screen (`update_in_place`).

The width is the row's own, not the terminal's: a strip docked beside it moves the layout to a
narrower one instead of squeezing the page.
"""

from __future__ import annotations

from textual import events
from textual.containers import Horizontal
from textual.visual import VisualType
from textual.widgets import Static

NARROW = 120   # below this many columns: the side panes stack in one column beside the page
MEDIUM = 150   # below this: narrower side panes


def width_class(width: int) -> str:
    if width < NARROW:
        return "-narrow"
    if width < MEDIUM:
        return "-medium"
    return "-wide"


class PaneRow(Horizontal):
    """A screen's panes; on every resize it takes the class that matches its width."""

    def __init__(self, *children, **kwargs) -> None:
        super().__init__(*children, **kwargs)
        # The terminal's width class from the start: taken at the first resize instead, it would
        # restyle every pane once more before the first page is drawn.
        try:
            width = self.app.size.width
        except RuntimeError:  # no app running (Textual's NoActiveAppError)
            return
        self.add_class(width_class(width))

    def on_resize(self, event: events.Resize) -> None:
        self.classify(event.size.width)

    def on_show(self) -> None:
        # A screen pushed while the app was busy can miss its first Resize: look again once shown.
        self.call_after_refresh(lambda: self.classify(self.size.width))

    def classify(self, width: int) -> None:
        if width <= 0:
            return
        shown = width_class(width)
        for name in ("-narrow", "-medium", "-wide"):
            self.set_class(name == shown, name)


def update_in_place(static: Static, content: VisualType) -> None:
    """`static.update(content)`, laying the screen out again only when the content needs another
    size. Static.update lays out the whole screen by default (about 7 ms of the UI thread on the
    Author screen); a pane whose new content takes the size the old took (a regenerated page, a
    text layer of as many lines) only needs its own repaint."""
    old = static.content_size
    static.update(content, layout=False)
    styles = static.styles
    if not (styles.width is None or styles.width.is_auto or styles.height is None or styles.height.is_auto):
        return  # its size is the layout's, whatever it shows (a cell count, a fraction, a percentage)
    if not old.width or not old.height:        # not laid out yet (or hidden): lay it out
        static.refresh(layout=True)
        return
    styles, container, viewport = static.styles, static.container_size, static.app.size
    width = old.width
    if styles.width is not None and styles.width.is_auto:
        width = static.get_content_width(container, viewport)
    height = old.height
    if styles.height is None or styles.height.is_auto:
        height = static.get_content_height(container, viewport, width)
    if (width, height) != (old.width, old.height):
        static.refresh(layout=True)
