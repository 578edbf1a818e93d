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


async def switch_times(n: int) -> list[float]:
    from workbench.core.source import open_source
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.widgets.page_view import PageView

    os.environ["PDFWORKBENCH_CONFIG_DIR"] = tempfile.mkdtemp()
    source = open_source(SAMPLE)
    app = WorkbenchApp(source)
    times = []
    async with app.run_test(size=(160, 48)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause(0.5)
        for i in range(n):
            key = "down" if (i // (len(source.cases) - 1)) % 2 == 0 else "up"
            before = app.screen.current
            t0 = time.perf_counter()
            await pilot.press(key)
            while True:
                screen = app.screen
                page = screen.query_one(PageView)
                if (screen.current is not before and screen.data is not None
                        and screen.data.case is screen.current and page.rendered_page is not None
                        and not any(w.is_running for w in app.workers if w.group == "page-render")):
                    break
                await asyncio.sleep(0.001)
            times.append(time.perf_counter() - t0)
            await app.workers.wait_for_complete()
    return times


def main() -> None:
    launches = launch_times(5)
    switches = asyncio.run(switch_times(20))
    first = statistics.median(launches)
    switch = statistics.median(switches)
    print(f"{'measure':<34}{'median':>10}{'aim':>10}{'ratio':>8}")
    print(f"{'launch to first painted case':<34}{first * 1000:>8.0f}ms{1000:>8}ms{first / 1.0:>8.2f}")
    print(f"{'switch case (page + panes)':<34}{switch * 1000:>8.0f}ms{100:>8}ms{switch / 0.1:>8.2f}")
    print(f"(launch samples: {', '.join(f'{t * 1000:.0f}' for t in launches)} ms; "
          f"switch p95 {sorted(switches)[int(len(switches) * 0.95) - 1] * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
