"""The revisions pane: each revision of an incrementally updated PDF, and what it changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

if TYPE_CHECKING:  # (an annotation only: the revisions are read by pymupdf, after the first frame)
    from workbench.pdf.revisions import Revision


def revision_rows(revisions: list[Revision]) -> list[Text]:
    """What the pane shows for `revisions` (`pdf.revisions.revisions`), one line a fact."""
    if not revisions:
        return [Text("written once: one revision, nothing in the file was replaced", style="dim")]
    last = revisions[-1].number
    rows = [Text.assemble((f"{len(revisions)} revisions", "bold"),
                          f": viewers show revision {last}; a reader of an earlier one, or of every "
                          "stream in the file, sees what the later ones replaced")]
    start = 0
    for rev in revisions:
        head = "the original" if rev.number == 1 else (
            "changed page " + ", ".join(str(p + 1) for p in rev.pages_changed) if rev.pages_changed
            else "changed nothing on the pages")
        rows.append(Text.assemble(
            (f"revision {rev.number}", "bold"), f" · {head} · {rev.objects} object(s) · bytes ",
            f"{start:,}–{rev.end:,}", (" · shown" if rev.number == last else " · superseded", "dim")))
        rows += [Text.assemble(("   − ", "bold red"), text) for text in rev.removed]
        rows += [Text.assemble(("   + ", "bold green"), text) for text in rev.added]
        start = rev.end
    return rows


class RevisionsView(VerticalScroll):
    HELP = """
## Revisions

A PDF can be changed by appending an incremental update: new objects and a cross-reference section
after the original bytes. Viewers show the latest revision; the earlier ones stay in the file, and
a tool that reads the first revision (or concatenates every content stream) sees what the update
replaced. Each revision is listed with the pages it changed: text runs it removed (−) and added (+),
and images it stamped on a page.
"""

    def compose(self):
        yield Static(id="revisions-text")

    def show(self, revisions: list[Revision]) -> None:
        self.query_one(Static).update(Group(*revision_rows(revisions)))

    def show_message(self, message: str) -> None:
        self.query_one(Static).update(Text(message, style="dim"))
