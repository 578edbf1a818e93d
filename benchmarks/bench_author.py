"""Authoring responsiveness: from a parameter change to every pane updated, app running headless.

One-page family (hidden_ocr_mismatch), a pinned parameter edited each time. Measured from the
moment the regeneration starts (the debounce timer fired) to the end of the first paint of the
screen that shows the new page image and every pane the preview updated (the text layer, key or
lint on show, the header's lint verdict); the debounce
delay (DEBOUNCE) is reported apart, and the total from the edit is printed too. Run without
degradation and with the heavy scan tier. Aims (issue 13): median under 60 ms, 95th percentile
under 150 ms without degradation.

    .venv/bin/python benchmarks/bench_author.py [--n 40] [--n-heavy 12]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ONE_CASE = ROOT / "sample_cases" / "mini" / "hidden_ocr_mismatch-0001.json"
AIM_MEDIAN, AIM_P95 = 60.0, 150.0   # ms, without degradation (issue 13)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def measure(n: int, n_heavy: int) -> dict[str, tuple[list[float], list[float]]]:
    from textual.widgets import Input, Select

    from workbench.build.authoring import Draft
    from workbench.core.source import open_source
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.screens.author import AuthorScreen

    marks: list[tuple[float, object]] = []

    def hook(message) -> None:
        if isinstance(message, (AuthorScreen.Regenerating, AuthorScreen.PreviewReady,
                                AuthorScreen.PreviewFailed)):
            marks.append((time.perf_counter(), message))

    async def wait_idle(app) -> None:
        await asyncio.sleep(0.3)
        while any(w.is_running for w in app.workers if w.group != "author-save"):
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)

    async def value_box(screen) -> Input:
        # The form mounts a family's rows after the screen (AuthorForm.set_draft); under load they
        # may not be there yet when the screen is.
        for _ in range(2000):
            found = screen.query("#value-invoice_number")
            if found:
                return found.only_one(Input)
            await asyncio.sleep(0.005)
        raise RuntimeError("the Author form never showed the invoice_number field")

    async def one_change(app, screen, value: str) -> tuple[float, float]:
        marks.clear()
        box = await value_box(screen)
        # The page view sets rendered_page when a rendered image goes on screen; nothing else
        # renders in between, so the next one is the new page. (Rendered comes from a worker
        # thread and is not seen by the message hook, so it is looked for.)
        screen.page.rendered_page = None
        painted.clear()
        t_edit = time.perf_counter()
        box.value = value
        while True:
            await asyncio.sleep(0.001)
            failed = [m for _, m in marks if isinstance(m, AuthorScreen.PreviewFailed)]
            if failed:
                raise SystemExit(f"generation failed: {failed[0].error}")
            # This edit's regeneration, and its preview painted (a preview of an earlier
            # generation that arrives late is not this edit's).
            started = [(t, m) for t, m in marks if isinstance(m, AuthorScreen.Regenerating)]
            ready = started and [m for _, m in marks if isinstance(m, AuthorScreen.PreviewReady)
                                 and m.generation == started[-1][1].generation == screen.generation]
            if ready and painted:
                t_shown = painted[0]
                break
        t_start = started[-1][0]
        return t_shown - t_start, t_shown - t_edit

    painted: list[float] = []   # when a paint of the screen put this edit's preview on the terminal

    def watch_paints(screen) -> None:
        """Time the end of the first screen paint after which the new preview is on the terminal:
        the page image shown (rendered_page), and no pane the preview updated still waiting to
        be painted or laid out (Textual's own flags)."""
        from textual.widgets import Static

        paint, layout = screen._compositor_refresh, screen._refresh_layout
        panes = [screen.query_one("#author-page #page-image", Static),
                 *(pane.query_one(Static) for pane in screen.query("#author-side TabPane")
                   if pane.display)]
        in_layout = [False]

        def spy() -> None:
            paint()
            # A layout asked for and not done yet: this paint has the old geometry (the layout's
            # own paint, inside _refresh_layout, has the new one).
            if ((in_layout[0] or not screen._layout_required) and screen.page.rendered_page is not None
                    and screen.shown_generation == screen.generation
                    and not any(w._repaint_required or w._layout_required for w in panes)):
                painted.append(time.perf_counter())

        def laid_out(*args, **kwargs) -> None:
            in_layout[0] = True
            try:
                layout(*args, **kwargs)
            finally:
                in_layout[0] = False

        screen._compositor_refresh, screen._refresh_layout = spy, laid_out

    results: dict[str, tuple[list[float], list[float]]] = {}
    app = WorkbenchApp(open_source(ONE_CASE))
    async with app.run_test(size=(160, 48), message_hook=hook) as pilot:
        await wait_idle(app)
        app.push_screen(AuthorScreen(Draft("hidden_ocr_mismatch", 1, {"invoice_number": 100000})))
        await wait_idle(app)
        screen = app.screen
        watch_paints(screen)
        for label, count in (("no degradation", n), ("heavy tier", n_heavy)):
            if count == 0:
                continue
            if label == "heavy tier":
                screen.query_one("#tier", Select).value = "heavy"
                await wait_idle(app)
            one_change_times, totals = [], []
            await one_change(app, screen, "100001")  # warm-up
            for i in range(count):
                work, total = await one_change(app, screen, str(100002 + i))
                one_change_times.append(work)
                totals.append(total)
                await asyncio.sleep(0.02)
            results[label] = (one_change_times, totals)
        await pilot.pause()
    return results


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--n-heavy", type=int, default=12)
    args = parser.parse_args()
    from benchmarks.harness import scratch

    os.environ["PDFWORKBENCH_CONFIG_DIR"] = scratch()
    from workbench.tui.screens.author import DEBOUNCE

    results = asyncio.run(measure(args.n, args.n_heavy))
    print(f"authoring: parameter change -> page, text layers, key and lint on screen "
          f"(hidden_ocr_mismatch, 1 page; debounce {DEBOUNCE * 1000:.0f} ms excluded)")
    print(f"{'case':<16} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'aim':>12} {'median/aim':>11} "
          f"{'with debounce: median':>22}")
    for label, (work, total) in results.items():
        med, high = statistics.median(work) * 1000, p95(work) * 1000
        aim = f"{AIM_MEDIAN:.0f} / {AIM_P95:.0f}" if label == "no degradation" else "-"
        ratio = f"{med / AIM_MEDIAN:.2f} / {high / AIM_P95:.2f}" if label == "no degradation" else "-"
        print(f"{label:<16} {len(work):>4} {med:>10.1f} {high:>8.1f} {aim:>12} {ratio:>11} "
              f"{statistics.median(total) * 1000:>22.1f}")


if __name__ == "__main__":
    main()
