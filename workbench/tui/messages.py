"""App-wide messages. Widget-specific messages live on the widgets that post them.

They are posted by workers, after the first frame: a module that posts one imports it where it
does (its handlers go by name, `on_case_loaded`), so the first frame builds none of these classes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:  # (the case's data and the saved answers load after the first frame)
    from workbench.core.case import Case
    from workbench.core.runindex import RunIndex, SavedAnswer
    from workbench.grading.outcome import Outcome
    from workbench.tui.case_data import CaseData, PageData


@dataclass
class CaseOpened(Message):
    """A case's PDF is open (its page count known): the page can go on screen."""

    data: CaseData


@dataclass
class PageLoaded(Message):
    """One more page of a case analysed (its layers, hidden spans and boxes)."""

    data: CaseData
    page: PageData


@dataclass
class CaseLoaded(Message):
    """Everything about one case is ready (read, extracted, analysed and linted in a worker)."""

    data: CaseData


@dataclass
class LoadFailed(Message):
    """A case's PDF could not be opened (`encrypted`: it needs a password)."""

    case: Case
    error: str
    encrypted: bool = False   # the PDF needs a password (the screen asks for one)


@dataclass
class LintMarks(Message):
    """Lint status of some cases: case id -> ok | warning | error."""

    marks: dict[str, str]


@dataclass
class MarksGraded(Message):
    """Each case's verdict mark, graded in a worker; `made`: the marks' count when it started."""

    outcomes: dict[str, Outcome]
    made: int


@dataclass
class RunsIndexed(Message):
    """The suite's run files are read."""

    index: RunIndex


@dataclass
class AnswerArrived(Message):
    """A reader's answer to a case was recorded."""

    case: Case
    saved: SavedAnswer
