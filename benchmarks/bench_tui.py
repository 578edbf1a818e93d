"""Workbench responsiveness: time from launch to the first painted case, and to switch cases.

Launch is measured from process spawn (interpreter start-up included) to the moment the first
case's page is on screen, with the app running headless. Switching is measured in-process from
the key press to the new case's page and text layers on screen. Prints medians and the ratio to
the aims (first paint under 1 s, switching under 100 ms).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_cases" / "mini"

CHILD = r"""
import asyncio, sys, time
from pathlib import Path
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.page_view import PageView

async def main():
    app = WorkbenchApp(open_source(Path(sys.argv[1])))
    async with app.run_test(size=(160, 48)) as pilot:
        while True:
            try:
                page = app.screen.query_one(PageView)
            except Exception:
                page = None
            if page is not None and page.rendered_page is not None:
                break
            await asyncio.sleep(0.002)
        print(time.time())

asyncio.run(main())
"""


def launch_times(n: int) -> list[float]:
    out = []
    env = dict(os.environ, PDFWORKBENCH_CONFIG_DIR=tempfile.mkdtemp())
    for _ in range(n):
        t0 = time.time()
        proc = subprocess.run([sys.executable, "-c", CHILD, str(SAMPLE)], capture_output=True, text=True,
                              env=env, check=True)
        out.append(float(proc.stdout.strip().splitlines()[-1]) - t0)
    return out


async def switch_times(n: int) -> tuple[list[float], list[float]]:
    """(to the new case's page on screen, to every pane updated) for n moves between cases."""
    from workbench.core.source import open_source
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.messages import CaseLoaded
    from workbench.tui.widgets.case_list import CaseList
    from workbench.tui.widgets.page_view import PageView

    os.environ["PDFWORKBENCH_CONFIG_DIR"] = tempfile.mkdtemp()
    seen: list[tuple[float, object]] = []

    def hook(message) -> None:
        if isinstance(message, (CaseLoaded, PageView.Rendered)):
            seen.append((time.perf_counter(), message))

    app = WorkbenchApp(open_source(SAMPLE))
    to_page: list[float] = []
    to_all: list[float] = []
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.5)
        tree = app.screen.query_one(CaseList)
        direction = "down"
        while len(to_page) < n:
            seen.clear()
            t0 = time.perf_counter()
            await pilot.press(direction)
            if tree.cursor_line >= tree.last_line or tree.cursor_line <= 1:
                direction = "up" if direction == "down" else "down"
            node = tree.cursor_node
            if node is None or node.data is None:  # a family heading: nothing to load
                continue
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            renders = [t for t, m in seen if isinstance(m, PageView.Rendered)]
            loaded = [t for t, m in seen if isinstance(m, CaseLoaded)]
            if renders and loaded:
                to_page.append(renders[0] - t0)
                to_all.append(max(renders[-1], loaded[-1]) - t0)
    return to_page, to_all


def main() -> None:
    launches = launch_times(5)
    to_page, to_all = asyncio.run(switch_times(20))
    first = statistics.median(launches)

    def p95(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(len(xs) * 0.95) - 1)]

    print(f"{'measure':<36}{'median':>9}{'p95':>9}{'aim':>9}{'ratio':>7}")
    print(f"{'launch to first painted case':<36}{first * 1000:>7.0f}ms{p95(launches) * 1000:>7.0f}ms"
          f"{1000:>7}ms{first / 1.0:>7.2f}")
    for label, xs in (("switch case: new page on screen", to_page), ("switch case: every pane updated", to_all)):
        med = statistics.median(xs)
        print(f"{label:<36}{med * 1000:>7.0f}ms{p95(xs) * 1000:>7.0f}ms{100:>7}ms{med / 0.1:>7.2f}")


if __name__ == "__main__":
    main()
