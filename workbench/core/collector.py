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

A process that works through a batch from some point to its end (a pool's worker: the report's
crops, `lint`, `build`) is `settle`d there: what exists then (the modules it inherited) is taken
out of the collector's walks, and the young objects are collected at `BATCH_THRESHOLD`, not
Python's 700. A page's text trace is some 50,000 tuples that live until the page is done: at
700 the collector walked them dozens of times a page, 6% of the instructions of `inspect`
(counted); in the report's crop workers the collections were 6% of their CPU time, 1% after.
"""

from __future__ import annotations

import gc

_paused = False

# The young generation's threshold in a batch (see the module docstring).
BATCH_THRESHOLD = 20_000


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


def settle() -> None:
    """This process works through a batch from here to its end (see the module docstring): what
    exists now is left out of the collector's walks (frozen), and it collects young objects at
    `BATCH_THRESHOLD`. What is made from here on is still collected."""
    gc.freeze()
    gc.set_threshold(BATCH_THRESHOLD, *gc.get_threshold()[1:])
