"""Python's cyclic garbage collector, paused while the workbench makes its first frame.

Start-up makes some 70,000 objects (Textual's and the workbench's modules, classes, the
stylesheet, the screen's widgets) and almost no cyclic garbage (42 objects, none left at the first
frame). The collector would walk all of them again and again meanwhile: a full collection fell
just before the first frame, about a tenth of the CPU time up to it. So it is paused from the
start of `pdfworkbench open` (or the app's load) to the first frame, and runs as usual after it.
Textual pauses it the same way while it scrolls (`App.PAUSE_GC_ON_SCROLL`).

`pdfworkbench open`'s own process also freezes what start-up made (`gc.freeze`: kept out of every
later collection, as Python's docs advise before forking, which the page helpers do). An app run
inside a longer process (the tests) is not frozen: what earlier apps left would never be
collected.
"""

from __future__ import annotations

import gc

_paused = False
_freeze = False


def pause(freeze: bool = False) -> None:
    """Pause the collector until `resume` (it stays off if something else turned it off);
    `freeze`: this process is the workbench's own (see the module docstring)."""
    global _paused, _freeze
    _freeze = _freeze or freeze
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """The first frame is made (or will not be): the collector runs again if `pause` stopped
    it, after freezing what start-up made when asked to. Once; later calls do nothing."""
    global _paused, _freeze
    if _paused:
        _paused = False
        if _freeze:
            _freeze = False
            gc.freeze()
        gc.enable()
