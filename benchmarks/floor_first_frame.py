"""The framework's floor under the workbench's first page: Python, Textual and a first frame.

    python benchmarks/floor_first_frame.py PATH [--size 160x48] [--collapse-from N] [--static]
                                           [--out FILE]

A bare Textual app, none of the workbench imported: a header, a tree of PATH's case files by
family (as the workbench's case list shows them: with more than N cases, only the first family
open; a PDF is one line), a pane and a footer, headless at the workbench's size. It prints JSON with the seconds from process start to its first
frame, as tui_child.py times the workbench's first page (the first frame with the page in it).
What the workbench takes beyond this is its own: its screen's panes, the page, the suite read.

--static: the app paints one Static and nothing else (issue 40's floor for the first frame).
--out FILE: run in the terminal it was started in (not headless), write the JSON to FILE and
exit after the first frame is written to the terminal (bench_tui.py runs it in tmux). The time
is counted from BENCH_T0 in the environment (the launcher's clock as it started the process)
when it is set, else from the script's first line.
"""

from __future__ import annotations

import time

START = time.time()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
from pathlib import Path  # noqa: E402


def case_lines(path: Path) -> dict[str, list[str]]:
    """Family -> case ids, from the names of a folder's case files (`<family>-<seed>[-...].json`)."""
    if not path.is_dir():
        return {path.stem: [path.stem]}
    families: dict[str, list[str]] = {}
    for case in sorted(p.stem for p in path.glob("*.json") if p.name != "suite.json"):
        families.setdefault(case.split("-")[0], []).append(case)
    return families


def started_at() -> float:
    """When the process was started: the launcher's BENCH_T0, else this script's first line."""
    return float(os.environ.get("BENCH_T0") or START)


def bare_app(path: Path, collapse_from: int, static: bool):
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal
    from textual.widgets import Footer, Header, Static, Tree

    families = case_lines(path)
    fold = sum(len(cases) for cases in families.values()) > collapse_from

    class OneStatic(App):
        def compose(self) -> ComposeResult:
            yield Static("page")

    class Bare(App):
        def compose(self) -> ComposeResult:
            yield Header()
            with Horizontal():
                tree: Tree[str] = Tree("cases")
                tree.show_root = False
                for n, (family, cases) in enumerate(families.items()):
                    branch = tree.root.add(f"{family} ({len(cases)})", expand=not (fold and n))
                    for case in cases if not (fold and n) else ():
                        branch.add_leaf(case)
                yield tree
                yield Static("page")
            yield Footer()

    return OneStatic() if static else Bare()


async def main(path: Path, size: tuple[int, int], collapse_from: int, static: bool = False) -> dict:
    first: list[float] = []
    app = bare_app(path, collapse_from, static)
    display = app._display

    def frame(screen, update) -> None:
        if update is not None and not first:
            first.append(time.time())
        display(screen, update)

    app._display = frame
    async with app.run_test(size=size):
        while not first:
            await asyncio.sleep(0.001)
    return {"first_frame_s": first[0] - started_at()}


def in_terminal(path: Path, collapse_from: int, static: bool, out: Path) -> None:
    """Run in this terminal; write the time of the first frame written to it to `out`, and exit."""
    first: list[float] = []
    app = bare_app(path, collapse_from, static)
    display = app._display

    def frame(screen, update) -> None:
        display(screen, update)
        if update is not None and not first:
            first.append(time.time())   # (written to the terminal just now)
            first.append(time.process_time())
            app.call_later(app.exit)

    app._display = frame
    app.run()
    out.write_text(json.dumps({"first_frame_s": first[0] - started_at(), "first_frame_cpu_s": first[1]}))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("path", type=Path)
    ap.add_argument("--size", default="160x48")
    ap.add_argument("--collapse-from", type=int, default=200)
    ap.add_argument("--static", action="store_true", help="paint one Static, nothing else")
    ap.add_argument("--out", type=Path, help="run in this terminal and write the JSON here")
    a = ap.parse_args()
    w, h = (int(x) for x in a.size.split("x"))
    if a.out is not None:
        in_terminal(a.path, a.collapse_from, a.static, a.out)
    else:
        print(json.dumps(asyncio.run(main(a.path, (w, h), a.collapse_from, a.static))))
