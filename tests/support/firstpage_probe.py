"""Run by tests/tui/test_firstpage.py in a fresh interpreter (a fork needs a process with one
thread, which a pytest process that has run the workbench is not). Starts as `pdfworkbench open
PATH` does, headless, and prints JSON: what the page pane shows once the first page is on screen,
whether the picture drawn by the first page's process was used, and in which of the Inspect
screen's frames the page was first (1: the first).

    python tests/support/firstpage_probe.py PATH [--no-ahead] [--kill] [--touch] [--settled]

--kill: the child is killed at once (the workbench must do the work itself);
--touch: the file changes after the child read it (its verdict must not be used);
--settled: the child's verdict and picture are in before the workbench starts (as on an idle
machine, where the child is done before Textual is), so what the screen does with them does not
hang on timing.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from workbench.core.threads import end_process


async def main(path: Path, ahead: bool, kill: bool, touch: bool, settled: bool) -> tuple[dict, object]:
    from workbench.core.source import open_source
    from workbench.tui import firstpage

    first = firstpage.start(path) if ahead else None
    if first is not None and kill:
        os.kill(first.pid, signal.SIGKILL)
    source = (first.source() if first is not None else None) or open_source(path)
    if first is not None and touch:
        first.verdict()
        pdf = source.cases[0].pdf_file
        pdf.write_bytes(pdf.read_bytes() + b"\n% changed after the check\n")
    if first is not None and settled:
        first._read("picture")  # its last message, after the verdict: the child is done
    from textual.widgets import Static

    from workbench.tui.app import WorkbenchApp
    from workbench.tui.screens.inspect import InspectScreen
    from workbench.tui.widgets.page_view import PageView

    app = WorkbenchApp(source)
    frames: list[bool] = []  # the Inspect screen's frames up to the first with the page: whether each had it
    display = app._display

    def frame(screen, update) -> None:  # (headless, Textual makes each frame and writes it nowhere)
        if update is not None and not any(frames) and isinstance(screen, InspectScreen):
            frames.append(screen.query_one(PageView).rendered_page is not None)
        display(screen, update)

    app._display = frame
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(3000):
            views = app.screen.query(PageView)
            if views and views.first().rendered_page is not None:
                break
            await asyncio.sleep(0.005)
        view = app.screen.query_one(PageView)
        picture = view.query_one("#page-image", Static).visual
        lines = [[(seg.text, str(seg.style)) for seg in strip] for strip in picture.lines]
        await pilot.pause()
        out = {"lines": lines, "page_count": view.page_count, "started": first is not None,
               "source": [source.kind, source.title, [c.id for c in source.cases], source.problems],
               "used": first is not None and first.data is None and first._got.get("picture") is not None,
               "page_in_frame": len(frames) if any(frames) else None}
        app.exit()
    return out, app.executor


if __name__ == "__main__":
    args = sys.argv[1:]
    flags = {a for a in args if a.startswith("--")}
    target = Path(next(a for a in args if not a.startswith("--")))
    shown, executor = asyncio.run(main(target, "--no-ahead" not in flags, "--kill" in flags, "--touch" in flags,
                                       "--settled" in flags))
    print(json.dumps(shown))
    end_process(0, executor)  # as `open` ends: its workers may still be busy
