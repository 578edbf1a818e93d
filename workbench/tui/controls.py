"""The workbench's screen sends no control character of the text it shows (`text.terminal`).

A PDF's text layer, a provider's answer or a suite's file may hold escape sequences; shown in a
pane, they went to the terminal as they were (a hostile text layer retitled the terminal and
cleared the screen when its tab was opened). Rich and Textual drop only BEL, BS, VT, FF and CR
from the text they draw; ESC, the other C0 controls, DEL and the C1 controls were sent. The panes
that show outside text draw them as pictures (`text.terminal.shown`, a cell each); whatever else
reaches the screen has them dropped here, where every line drawn becomes terminal output
(`textual.strip.Strip.render`: a control character takes no cell, so nothing moves). A line
holding a control segment (Rich's `Segment.control`) is the program's own terminal output, not
text: the page drawn in Sixel by `--graphics hires` (textual-image) is such a line, its cursor
moves and picture data sent as they are.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip

from workbench.text.terminal import CONTROLS, dropped


def drop_controls_from_screen() -> None:
    """Make every line Textual draws leave out the control characters of its text (once a
    process). A line with none, as almost all are, is drawn as before."""
    render = Strip.render
    if getattr(render, "drops_controls", False):
        return

    def safe_render(self: Strip, console) -> str:
        if self._render_cache is None:
            segments = self._segments
            # (one search over the line's text: a page picture's line is some 80 segments)
            if CONTROLS.search("".join([segment.text for segment in segments])) and \
                    not any(segment.control for segment in segments):
                self._segments = [Segment(dropped(text), style, control) for text, style, control in segments]
        return render(self, console)

    safe_render.drops_controls = True  # type: ignore[attr-defined]
    Strip.render = safe_render  # type: ignore[method-assign]
