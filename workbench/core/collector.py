"""Python's cyclic garbage collector, paused while the workbench makes its first frame, and while
a light command (`grade`) imports its modules.

Start-up makes some 70,000 objects (Textual's and the workbench's modules, classes, the
stylesheet, the screen's widgets) and almost no cyclic garbage (42 objects, none left at the first
frame). The collector would walk all of them again and again meanwhile: a full collection fell
just before the first frame, about a tenth of the CPU time up to it. So it is paused from the
start of `pdfworkbench open` (or the app's load) to the first frame, and runs as usual after it.
Textual pauses it the same way while it scrolls (`App.PAUSE_GC_ON_SCROLL`). A light command
(`workbench.cli.commands.Command.light`) makes no garbage either while its modules load (the
collector's walks were about 2 ms of `grade`'s 60): it runs again before the command does.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Pause the collector until `resume` (it stays off if something else turned it off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """The first frame is made (or will not be): the collector runs again if `pause` stopped it.
    Once; later calls do nothing."""
    global _paused
    if _paused:
        _paused = False
        gc.enable()
