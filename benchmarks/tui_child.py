"""Run by the benchmark in a fresh interpreter: open the workbench headless on PATH, and print JSON
with the time from process start to the first page on screen, then (with --walk N) the time of
each of N page-down presses to that page on screen, a reader's pause (PAUSE) after each, then
(with --burst M) M more presses each made as soon as the last page is on screen, and the
process's memory after the walk.

    python benchmarks/tui_child.py PATH [--walk N] [--burst M] [--cases N] [--no-ahead]

It starts as `pdfworkbench open PATH` does: the first page drawn by a second process
(`workbench.tui.firstpage`; --no-ahead: not), a bare PDF checked before the screen starts.

--cases N instead moves down the case list N times (a suite) and times each new case's page.
"""

from __future__ import annotations

import time

START = time.time()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

# Seconds between one page on screen and the next press in --walk: someone paging through a
# document looks at each page, and the page after it is analysed ahead meanwhile.
PAUSE = 0.3


def rss_mb(field: str = "VmRSS") -> float:
    """This process's memory now (VmRSS) or at its peak (VmHWM: unlike ru_maxrss, not the peak of
    the process that started this one, which Linux carries through fork and exec)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


async def main(path: Path, walk: int, cases: int, size: tuple[int, int], burst: int = 0,
               ahead: bool = True) -> dict:
    # As `pdfworkbench open PATH` starts (workbench/cli/app.py cmd_open), headless.
    from workbench.cli.app import check_pdf
    from workbench.core.source import open_source
    from workbench.tui import firstpage

    first = firstpage.start(path) if ahead else None
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.widgets.page_view import PageView

    source = (first.source() if first is not None else None) or open_source(path)
    check_pdf(source, None, first)

    rendered: list[tuple[float, int]] = []
    # When the first frame with the first page in it was made: the first frame the screen composes
    # once the page is in its pane (headless, Textual makes each frame and writes it nowhere). Not
    # when a poll sees the page there (the loop may be held a tenth of a second after it, while a
    # worker imports pymupdf), nor when PageShown is handled (`hook` is called as a message is
    # handled, which may be after the frame).
    first_frame: list[float] = []

    def hook(message) -> None:
        # PageShown is posted on the UI thread once the image is handed to the pane.
        if isinstance(message, PageView.PageShown):
            rendered.append((time.perf_counter(), message.page))

    app = WorkbenchApp(source)
    display = app._display

    def frame(screen, update) -> None:
        # (the frame was composed on this thread just now: a page in the pane now was in it)
        if update is not None and not first_frame:
            view = next(iter(screen.query(PageView)), None)
            if view is not None and view.rendered_page is not None:
                first_frame.append(time.time())
        display(screen, update)

    app._display = frame
    out: dict = {}
    async with app.run_test(size=size, message_hook=hook) as pilot:
        while True:
            try:
                view = app.screen.query_one(PageView)
            except Exception:
                view = None
            if view is not None and view.rendered_page is not None and first_frame:
                break
            await asyncio.sleep(0.002)
        out["first_page_s"] = first_frame[0] - START
        out["first_page_cpu_s"] = time.process_time()  # this process's, not the first page's child
        out["page_count"] = view.page_count
        steps: list[float] = []
        burst_steps: list[float] = []
        if walk:
            view.focus()
            await app.workers.wait_for_complete()
            await pilot.pause(PAUSE)
            for n in range(min(walk + burst, view.page_count - 1)):
                if n < walk:
                    await asyncio.sleep(PAUSE)
                want = view.page + 1
                rendered.clear()
                t0 = time.perf_counter()
                await pilot.press("pagedown")
                while not any(p == want for _, p in rendered):
                    await asyncio.sleep(0.001)
                    if time.perf_counter() - t0 > 30:
                        raise SystemExit(f"page {want + 1} never came on screen")
                (steps if n < walk else burst_steps).append(next(t for t, p in rendered if p == want) - t0)
        if cases:
            from workbench.tui.widgets.case_list import CaseList

            tree = app.screen.query_one(CaseList)
            tree.focus()
            await app.workers.wait_for_complete()
            await pilot.pause(0.3)
            while len(steps) < cases:
                rendered.clear()
                t0 = time.perf_counter()
                await pilot.press("down")
                node = tree.cursor_node
                if node is None or node.data is None:  # a family heading: nothing to load
                    continue
                while not rendered:
                    await asyncio.sleep(0.001)
                    if time.perf_counter() - t0 > 30:
                        raise SystemExit("the next case never came on screen")
                steps.append(rendered[0][0] - t0)
                await app.workers.wait_for_complete()
        out["steps_s"] = steps
        out["burst_steps_s"] = burst_steps
        out["rss_mb"] = rss_mb()
        out["peak_rss_mb"] = rss_mb("VmHWM")
        app.exit()
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("path", type=Path)
    ap.add_argument("--walk", type=int, default=0)
    ap.add_argument("--burst", type=int, default=0)
    ap.add_argument("--cases", type=int, default=0)
    ap.add_argument("--size", default="160x48")
    ap.add_argument("--no-ahead", action="store_true", help="no first page drawn by a second process")
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    print(json.dumps(asyncio.run(main(a.path, a.walk, a.cases, (w, h), a.burst, not a.no_ahead))))
    sys.stdout.flush()
