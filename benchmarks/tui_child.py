"""Run by the benchmark in a fresh interpreter: open the workbench headless on PATH, and print JSON
with the time from process start to the first page on screen, then (with --walk N) the time of
each of N page-down presses to that page on screen, a reader's pause (PAUSE) after each, then
(with --burst M) M more presses each made as soon as the last page is on screen, and the
process's memory after the walk.

    python benchmarks/tui_child.py PATH [--walk N] [--burst M] [--cases N] [--no-ahead]
                                        [--until page|list] [--out FILE]

It starts as `pdfworkbench open PATH` does: the first page drawn by a second process
(`workbench.tui.firstpage`; --no-ahead: not), a bare PDF checked before the screen starts.

--cases N instead moves down the case list N times (a suite) and times each new case's page.

--until list: the first frame is the first one with the case list in it (issue 40's first
paint; the page may follow), not the first with the page. --out FILE: run in the terminal it was
started in, as `pdfworkbench` runs (not headless), write the JSON to FILE and exit once that
frame is written to the terminal (bench_tui.py runs it in tmux, beside floor_first_frame.py).
The time is counted from BENCH_T0 in the environment when it is set (the launcher's clock as it
started the process), else from the script's first line.
"""

from __future__ import annotations

import time

START = time.time()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
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


def started_at() -> float:
    """When the process was started: the launcher's BENCH_T0, else this script's first line."""
    return float(os.environ.get("BENCH_T0") or START)


def start_app(path: Path, ahead: bool):
    """The workbench's app on `path`, made as `pdfworkbench open PATH` makes it (cli/app.py cmd_open)."""
    from workbench.cli.app import check_pdf
    from workbench.core import collector
    from workbench.core.config import load_settings
    from workbench.core.source import open_source
    from workbench.tui import firstpage

    collector.pause()
    first = firstpage.start(path) if ahead else None
    settings = load_settings()
    from workbench.tui.app import WorkbenchApp

    source = (first.source() if first is not None else None) or open_source(path)
    check_pdf(source, None, first)
    return WorkbenchApp(source, settings)


def shows(screen, until: str) -> bool:
    """Whether `screen`, composed just now, shows the first page (`until` "page") or the case list
    with its cases ("list"). The widgets' modules are looked up, not imported: importing them
    here would move their import before the app's own."""
    if until == "list":
        module = sys.modules.get("workbench.tui.widgets.case_list")
        cases = next(iter(screen.query(module.CaseList)), None) if module is not None else None
        return cases is not None and bool(cases.root.children) and cases.size.height > 0
    module = sys.modules.get("workbench.tui.widgets.page_view")
    view = next(iter(screen.query(module.PageView)), None) if module is not None else None
    return view is not None and view.rendered_page is not None


def in_terminal(path: Path, until: str, out: Path, ahead: bool = True) -> None:
    """Run in this terminal; write the time of the first frame written to it that shows `until`
    to `out`, and exit."""
    from workbench.tui import firstpage

    first: list[float] = []
    try:
        app = start_app(path, ahead)
        display = app._display

        def frame(screen, update) -> None:
            display(screen, update)
            if update is not None and not first and shows(screen, until):
                first.append(time.time())   # (written to the terminal just now)
                first.append(time.process_time())   # this process's threads, not its children
                app.call_later(app.exit)

        app._display = frame
        app.run()
    finally:
        from workbench.core.pool import end_children  # (as the CLI: loaded by then if it ran)

        firstpage.stop()
        end_children()
    out.write_text(json.dumps({"first_frame_s": first[0] - started_at(), "first_frame_cpu_s": first[1]}))


async def main(path: Path, walk: int, cases: int, size: tuple[int, int], burst: int = 0,
               ahead: bool = True, until: str = "page") -> dict:
    # As `pdfworkbench open PATH` starts (workbench/cli/app.py cmd_open), headless.
    app = start_app(path, ahead)

    rendered: list[tuple[float, int]] = []
    # When the first frame with the first page in it was made: the first frame the screen composes
    # once the page is in its pane (headless, Textual makes each frame and writes it nowhere). Not
    # when a poll sees the page there (the loop may be held a tenth of a second after it, while a
    # worker imports pymupdf), nor when PageShown is handled (`hook` is called as a message is
    # handled, which may be after the frame).
    first_frame: list[float] = []

    def hook(message) -> None:
        # PageShown is posted on the UI thread once the image is handed to the pane.
        page_view = sys.modules.get("workbench.tui.widgets.page_view")
        if page_view is not None and isinstance(message, page_view.PageView.PageShown):
            rendered.append((time.perf_counter(), message.page))

    display = app._display

    def frame(screen, update) -> None:
        # (the frame was composed on this thread just now: a page in the pane now was in it)
        if update is not None and not first_frame and shows(screen, until):
            first_frame.append(time.time())
        display(screen, update)

    app._display = frame
    out: dict = {}
    async with app.run_test(size=size, message_hook=hook) as pilot:
        while not first_frame:
            await asyncio.sleep(0.002)
        out["first_page_s" if until == "page" else "first_frame_s"] = first_frame[0] - started_at()
        from workbench.tui.widgets.page_view import PageView

        while until == "page" and app.screen.query_one(PageView).rendered_page is None:
            await asyncio.sleep(0.002)
        view = app.screen.query_one(PageView)
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
    ap.add_argument("--until", choices=("page", "list"), default="page",
                    help="the first frame with the page in it (default), or with the case list")
    ap.add_argument("--out", type=Path, help="run in this terminal and write the JSON here")
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    if a.out is not None:
        in_terminal(a.path, a.until, a.out, not a.no_ahead)
    else:
        print(json.dumps(asyncio.run(main(a.path, a.walk, a.cases, (w, h), a.burst, not a.no_ahead, a.until))))
    # Ended as the workbench ends (`core.process.end_now`): the interpreter's finalization with a
    # worker thread still inside MuPDF aborts the process ("FATAL: exception not rethrown", a
    # failed row of `make bench` once in a while), after the figures were written.
    from workbench.core.process import end_now

    end_now(0)
