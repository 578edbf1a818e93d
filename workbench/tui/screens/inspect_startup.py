"""Inspect's start-up choreography: what the screen's first frame shows and what waits for it.

1. The first frame shows the case list (and loads no imaging). Just after it, the first case opens
   from the bytes the process started with the workbench checked (`tui/firstpage.py`,
   `opened_from_first`), so its page, drawn by that process, is in the next frame.
2. The side panes (layers, key, lint, answers, revisions: `widgets/side_panes.py`) are mounted
   just after the first frame, and the workers that read the case and the runs start then: they
   would hold the interpreter while the first frame is made.
3. What waits for the first page on screen (`after_first_page`): the other extractors' tabs, the
   footer's keys, the case list's verdict marks (grading every saved answer), the file's
   revisions and the shown answer's trace.

The mixin's state lives on the screen (`InspectScreen.__init__`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.tui import firstpage
from workbench.tui.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from workbench.tui.case_data import CaseData

# At most this long, a case's first page waits for its image to be on screen before it is
# analysed: the analysis holds the interpreter (pymupdf keeps the GIL) and would slow the drawing.
FIRST_PAGE_WAIT = 1.0
# How often the screen looks whether that process has drawn the first page, after the first
# frame, before the side panes load.
AHEAD_POLL = 0.01
# The first case's PDF is read (and its checksum compared) on the UI thread just after the first
# frame only up to this size, about 20 ms of reading: a larger file would hold the screen back
# longer than the render of the whole screen it saves, and is read by the worker.
AT_ONCE_MAX_BYTES = 32 * 1024 * 1024
# The side panes wait this long after the first page drawn ahead is put in its pane, so the frame
# with it is drawn before their modules load (three of Textual's frames at 60 a second).
PAGE_FRAME = 3 / 60


def opened_from_first(case: Case, dpi: int, wait: bool) -> CaseData | None:
    """`case` opened from the bytes the process started with the workbench checked (its first
    case), or None when the PDF is to be read and checked here. Without `wait`, None unless that
    process has answered already and the file is small (`AT_ONCE_MAX_BYTES`): the screen opens the
    first case this way just after its first frame, so the page is drawn (scaled from the picture
    that process drew) in the next one: from the worker, it came a whole render of the screen later."""
    started = firstpage.started()
    if started is None:
        return None
    if not wait:
        verdict = started.verdict(timeout=0)
        if verdict is None or verdict.size > AT_ONCE_MAX_BYTES:
            return None
    try:
        pdf = case.pdf_file
    except UserError:  # a link in the suite: the case's load reads it and says why
        return None
    known = started.read_checked(pdf)
    if known is None:
        return None
    # (the case's data, its evidence and the page's types: after the first frame, about 10 ms)
    from workbench.tui.case_data import open_case_data

    return open_case_data(case, known[0], dpi, pdf.name, checked=True, page_count=known[1])


class StartUp:
    """The choreography's steps, on the Inspect screen (see the module docstring)."""

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Its first resume follows its mount, where every node was styled: Textual would style all
        # of them again (48 nodes, a twentieth of the time to the first page). Later resumes
        # (back from another screen, perhaps after a change of theme) restyle as usual.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def after_first_page(self) -> None:
        """What waits until a case's page is on screen (or can no longer come): the other
        extractors' tabs, the keys in the footer, the case list's verdict marks (grading every
        saved answer), the file's revisions and the answer's trace."""
        if not self._first_page_done:
            self.side.add_layer_tabs(self.settings.layer_tabs)
        self._first_page_done = True
        self.query_one(KeyFooter).release()
        if self._marks_due:
            self._marks_due = False
            # Graded in a worker: grading every saved answer of a suite (about 0.1 s for the
            # sample) on this thread would hold the first page back from the screen.
            self._grade_marks(self.index, self.reader, self._marks_made)
        self.start_extras()

    def start_extras(self) -> None:
        """Read the file's revisions and trace the shown answer, once per case opened."""
        data, self._extras_for = self._extras_for, None
        if data is None or data.case is not self.current:
            return
        self.side.load_revisions(data.case, data.pdf)
        answers = self.answers
        answers.pdf = data.pdf  # answers can be traced to the document now
        answers.pdf_pages = data.page_count
        if answers.shown is not None and answers.attributions() is None:
            answers.refresh_detail()
