"""What the workbench's screens use of the app that runs them, as a typed protocol: its settings,
the password of the session, the drafts Author keeps, and the ways to open another target.
`WorkbenchApp` is the one implementation; a screen reaches it through `workbench(node)`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from workbench.build.authoring import Draft
    from workbench.core.case import Case
    from workbench.core.config import Settings
    from workbench.core.source import Source


class Workbench(Protocol):
    settings: Settings
    password: str | None          # opens encrypted PDFs this session; never saved
    graphics: str                 # "halfblock", or "hires" (textual-image)
    who: str                      # the name on dispute decisions made here
    author_drafts: dict[str, Draft]   # Author's drafts per family ("" holds the last one left)

    def remember(self) -> None:
        """Save the settings (a failure is a warning, once a session)."""

    def open_target(self, source: Source) -> None:
        """Open another suite, case, PDF or run: every screen of the previous one goes."""

    def open_suite(self, folder: Path) -> None:
        """Open a suite folder in Inspect (a failure to read it is a notification)."""

    def open_author(self, case: Case | None = None) -> None:
        """Author, filled from `case` (its family, params, seed and scan) when given."""

    def hold_quit(self) -> Callable[[], None]:
        """A quit asked for from now on waits until the function returned is called."""


def workbench(node: DOMNode) -> Workbench:
    """The app running `node`, as the workbench it is."""
    return cast("Workbench", node.app)
