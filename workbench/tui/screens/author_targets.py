"""Author in mutation mode (an adopted case): the value the mutation attacks, the next place the
expected answer is printed (ctrl+t) or any span of the page shown (ctrl+g), found in a worker that
posts what it found. The mixin's state lives on the screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual import work
from textual.message import Message

from workbench.checks.locate import locate_all, page_spans
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.generators.mutations import Target
from workbench.pdf.document import read_pdf_bytes
from workbench.tui.screens.pick import PickSpanScreen


@dataclass
class TargetFound(Message):
    """The next place the answer is printed, of `count` places."""

    target: Target
    count: int


@dataclass
class SpansFound(Message):
    """The spans of a page, to pick the value to attack from."""

    spans: list
    page: int


class MutationTargets:
    """Choosing the value a mutation attacks, on the Author screen (see the module docstring)."""

    def action_next_target(self) -> None:
        if self.base is None:
            self.notify("only a mutation of an adopted case attacks a value", severity="warning")
            return
        current = self.target
        if current is None and self.preview is not None and self.preview.case.mutations:
            # The value located on its own: the last step that attacks one (a scan attacks none).
            current = next((m.target for m in reversed(self.preview.case.mutations) if m.target), None)
        self._next_target(self.base, current)

    @work(thread=True, exclusive=True, group="author-target", exit_on_error=False)
    def _next_target(self, base: Case, current: Target | None) -> None:
        needle = base.expected_answer or (base.expected_tokens[0] if base.expected_tokens else "")
        try:
            places = [Target(h.page, h.box, h.text) for h in locate_all(read_pdf_bytes(base.pdf_file), needle, base.id)]
        except UserError as exc:   # (a PDF too long to analyse whole: the `forensic_pages` limit)
            self.notify(str(exc), severity="error")
            return
        if not places:
            self.notify(f"{needle!r} is printed nowhere else", severity="warning")
            return
        at = next((i for i, t in enumerate(places) if current is not None and t.page == current.page
                   and t.box == current.box), -1)
        self.post_message(TargetFound(places[(at + 1) % len(places)], len(places)))

    def action_pick_target(self) -> None:
        if self.base is None:
            return
        self._pick_target(self.base, self.page_view().page)

    @work(thread=True, exclusive=True, group="author-target", exit_on_error=False)
    def _pick_target(self, base: Case, page: int) -> None:
        try:
            spans = page_spans(read_pdf_bytes(base.pdf_file), page, base.id)
        except UserError as exc:
            self.notify(str(exc), severity="error")
            return
        if not spans:
            self.notify(f"page {page + 1} has no text to attack", severity="warning")
            return
        self.post_message(SpansFound(spans, page))

    def on_spans_found(self, message: SpansFound) -> None:
        """The page's spans, offered in a list to filter; the one chosen is attacked."""
        def chosen(loc) -> None:
            if loc is not None:
                self._set_target(Target(loc.page, loc.box, loc.text), 0)

        self.app.push_screen(PickSpanScreen(message.spans, message.page), chosen)

    def on_target_found(self, message: TargetFound) -> None:
        self._set_target(message.target, message.count)

    def _set_target(self, target: Target, count: int) -> None:
        self.target = target
        how = f"{count} place(s)" if count else "picked"
        self.notify(f"attacking {target.text!r} on page {target.page + 1} ({how})", timeout=3)
        self.regenerate_now()
