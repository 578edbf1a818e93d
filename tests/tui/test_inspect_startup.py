"""The workbench's start-up, up to its first frame (issue 40 item 1).

That frame loads only what it shows: `pdfworkbench` started as a user starts it, on the shipped
sample, up to its first frame with the case list; what that frame does not need (a PDF library,
numpy, the side panes' extractors and answers, the report's code, the providers) is loaded after
it. Checked by the modules loaded when that frame is made, in a fresh interpreter (the speed
itself is the benchmark's: `python -m benchmarks --only tui`). And the theme the workbench starts
with (given to the stylesheet before its first parse) looks as the same theme switched to."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.fixtures import settle
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.themes import DEFAULT_THEME, THEMES

# Loaded after the first frame, never for it.
AFTER = ("fitz", "pymupdf", "pypdf", "numpy", "reportlab", "httpx",
         "workbench.pdf.document", "workbench.pdf.render", "workbench.pdf.forensics",
         "workbench.providers", "workbench.build", "workbench.gold",
         # the case's data (its evidence, spans and boxes) comes with the first case, after the
         # frame; the grading and its text search with the first answer graded
         "workbench.tui.case_data", "workbench.checks", "workbench.pdf.spans", "workbench.pdf.pages",
         "workbench.grading.matchers", "workbench.text.search",
         # the saved answers: the suite's run files are read just after the frame
         "workbench.core.runs", "workbench.core.runindex",
         # Rich's emoji table (a string label read as markup) and OpenSSL's hashes
         "rich._emoji_codes", "hashlib")

# `pdfworkbench` (no path: the sample) run headless by its own `open` command; the modules loaded
# when the first frame with the case list in it is made, and whether the page was in it.
PROBE = """
import json, os, sys
if sys.argv[1] == "no-fork":
    del os.fork   # as where `fork` is missing: no second process draws the first page
from textual.app import App
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.case_list import CaseList
from workbench.tui.widgets.page_view import PageView
seen = []

def run(self, **kwargs):
    display = self._display

    def frame(screen, update):
        display(screen, update)
        cases = next(iter(screen.query(CaseList)), None)
        if update is not None and not seen and cases is not None and cases.root.children:
            page = next(iter(screen.query(PageView)), None)
            seen.append([sorted(sys.modules), page is not None and page.rendered_page is not None])
            self.exit()

    self._display = frame
    return App.run(self, headless=True, size=(160, 48))

WorkbenchApp.run = run
from workbench.cli import main
code = main([])
print(json.dumps([code, *seen[0]]), file=sys.stderr)
"""


def _first_frame(how: str) -> tuple[list[str], bool]:
    proc = subprocess.run([sys.executable, "-c", PROBE, how], capture_output=True, text=True, timeout=180)
    code, modules, page = json.loads(proc.stderr.strip().splitlines()[-1])
    assert code == 0
    return modules, page


def _among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted({n for n in names for m in modules if m == n or m.startswith(n + ".")})


def test_the_first_frame_loads_no_pdf_library_provider_or_side_pane() -> None:
    modules, page = _first_frame("fork")
    assert not page   # the page follows the first frame (drawn ahead: in the next), PIL with it
    assert _among(modules, (*AFTER, "PIL")) == []


def test_without_fork_the_first_frame_loads_no_imaging() -> None:
    """Without the second process, the page is read and drawn after the first frame."""
    modules, page = _first_frame("no-fork")
    assert not page
    assert _among(modules, (*AFTER, "PIL")) == []


async def _look(suite, theme: str, switch_to: str | None = None) -> dict:
    """What the screen looks like, started with `theme` (then switched to `switch_to`): the app's
    classes and CSS variables, and every widget's resolved style."""
    config_path().write_text(json.dumps({**json.loads(config_path().read_text()), "theme": theme}))
    app = WorkbenchApp(open_source(suite))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        if switch_to is not None:
            app.theme = switch_to
            await settle(pilot)
        return {"classes": sorted(app.classes), "variables": app.get_css_variables(),
                "widgets": [(type(w).__name__, w.id, str(w.rich_style), str(w.styles.border))
                            for w in app.screen.query("*")]}


@pytest.mark.slow
@pytest.mark.parametrize("theme", list(THEMES))
async def test_the_theme_started_with_looks_as_the_same_theme_switched_to(suite_copy, theme) -> None:
    other = "workbench-light" if theme == DEFAULT_THEME else DEFAULT_THEME
    assert await _look(suite_copy, theme) == await _look(suite_copy, other, switch_to=theme)
