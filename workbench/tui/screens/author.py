"""Author: turn a family's parameters, its seed and the scan degradation; the case follows live.

Every edit restarts a short timer (DEBOUNCE); when it fires, the draft is generated in a worker
thread, tagged with a generation number, and only the newest generation's result is shown, so
the last change wins. A result that fails keeps the last good preview on screen with the error
above it. While a user family is shown, its file is polled and reloaded when it changes.

The preview's making is `author_preview.py`'s, the family files' watch `author_family.py`'s, the
mutation mode's target `author_targets.py`'s and saving `author_save_flow.py`'s.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from textual import events, on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Input, Select, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState, get_current_worker

from workbench.build.authoring import Draft, Preview, family_file_stamp
from workbench.build.make import family_registry
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.params import ParamValue
from workbench.core.pool import HelperProcess, cores
from workbench.generators.base import Family
from workbench.generators.mutations import mutations
from workbench.tui.case_data import EXTRACTORS, CaseData
from workbench.tui.host import Workbench, workbench
from workbench.tui.page_look import PageLook, RenderedPage
from workbench.tui.page_render import warm_author_helper
from workbench.tui.screens.author_family import FamilyFiles, family_options
from workbench.tui.screens.author_panes import AuthorPanes
from workbench.tui.screens.author_preview import build_preview
from workbench.tui.screens.author_save_flow import save_authored
from workbench.tui.screens.author_targets import MutationTargets
from workbench.tui.themes import SCREENS_STYLESHEET
from workbench.tui.widgets.author_form import TIER_CHOICES, AuthorForm, DegradeForm
from workbench.tui.widgets.author_save import ConfirmScreen
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.layout import PaneRow
from workbench.tui.widgets.marks import lint_status
from workbench.tui.widgets.page_view import PAGE_BINDINGS, PageKeys, PageView
from workbench.tui.widgets.text_layers import AnswerKeyView, LintView, TextLayerView

DEBOUNCE = 0.12        # seconds of quiet after an edit before regenerating
# Seconds a regeneration runs before the page's title says "generating…": a new title repaints
# the whole page pane, which slowed a preview that is back sooner (most are) by a fifth.
GENERATING_AFTER = 0.15
WATCH_INTERVAL = 0.3   # seconds between looks at a user family's file
# Read each preview's pypdf layer and page image in a helper process (two cores or more).
HELPER = True


class AuthorHeader(Header):
    """Textual's Header (no clock), whose title changes on every preview ("generated in N ms")
    without a layout of the screen: its title line (the Header's one Static) is updated with
    `layout=False`, being one line as wide as the header whatever it says."""

    def _on_mount(self, event: events.Mount) -> None:
        # Header's own handler would update the title with a layout of the whole screen.
        event.prevent_default()

        def set_title() -> None:
            self.query_one(Static).update(self.format_title(), layout=False)

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)


class AuthorScreen(AuthorPanes, FamilyFiles, MutationTargets, PageKeys, Screen):
    CSS_PATH = SCREENS_STYLESHEET
    HELP = """
## Author

Pick a family, turn its parameters, its seed and the scan degradation: the page, the text
layers, the answer key and the lint verdict follow. **Ctrl+S** saves the case into a suite.

- **[ / ]**: previous / next seed · **F3**: scan, clean, or both pages side by side
- **F5**: generate again (and reload a user family's file) · **Escape**: back
- A user family (`pdfworkbench new-family NAME`) reloads whenever its file is saved.
"""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", id="author_save", priority=True,
                tooltip="Save this case and its answer key into a suite"),
        Binding("left_square_bracket", "seed(-1)", "Seed -", id="seed_down", priority=True,
                tooltip="Previous seed"),
        Binding("right_square_bracket", "seed(1)", "Seed +", id="seed_up", priority=True,
                tooltip="Next seed"),
        Binding("f3", "cycle_view", "Scan/clean", id="author_view",
                tooltip="Show the scanned page, the clean page, or both side by side"),
        Binding("f5", "regenerate", "Regenerate", id="author_regenerate",
                tooltip="Generate again; reload a user family's module"),
        Binding("escape", "back", "Back", id="author_back", tooltip="Back to the previous screen"),
        Binding("ctrl+t", "next_target", "Next value", id="author_next_target", priority=True,
                tooltip="Mutation mode: attack the next place the answer is printed"),
        Binding("ctrl+g", "pick_target", "Pick value", id="author_pick_target", priority=True,
                tooltip="Mutation mode: attack any span of the page shown (a list to filter)"),
        Binding("f4", "scan_section", "Scan", id="author_scan",
                tooltip="To the scan degradation: tier, text layer, knobs"),
        *PAGE_BINDINGS,
    ]

    # The header shows it; a Screen's sub_title repaints the whole screen on every change (60 ms
    # of the UI thread a preview, on this form): the Header's own watcher repaints its title.
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    @dataclass
    class Regenerating(Message):
        """A regeneration started (after the debounce): one per burst of edits."""

        generation: int

    @dataclass
    class PreviewReady(Message):
        generation: int
        preview: Preview
        data: CaseData
        clean: CaseData | None
        ahead: RenderedPage | None = None   # the page pane's image, rendered in the worker

    @dataclass
    class PreviewFailed(Message):
        generation: int
        error: str

    @dataclass
    class FamilyReloaded(Message):
        family: Family

    @dataclass
    class FamilyBroken(Message):
        path: Path
        error: str

    def __init__(self, draft: Draft | None = None, save_folder: Path | None = None) -> None:
        super().__init__()
        self.draft_in = draft
        self.family: Family | None = None
        self.generation = 0
        self.shown_generation = 0
        self.preview: Preview | None = None
        self.data: CaseData | None = None
        self.clean: CaseData | None = None
        self.gen_error: str | None = None
        self.load_error: str | None = None
        self._error_shown = ""              # what the error banner shows
        self.view = "scan"
        self.save_folder = save_folder or Path.cwd() / "authored"
        # Mutation mode (an adopted case): the form lists mutations, each armed in `base`.
        self.base: Case | None = draft.base if draft is not None else None
        if self.base is not None and save_folder is None and self.base.json_path is not None:
            self.save_folder = self.base.json_path.parent
        self.target = draft.target if draft is not None else None
        self._debounce: Timer | None = None
        self._generating: Timer | None = None   # until the page's title says "generating…"
        self._stamp: tuple[int, int] | None = None
        self._loaded: Draft | None = None    # the form as loaded: anything else is an edit
        # Side tab id -> the preview generation it shows (a hidden pane is updated when shown).
        self._side_shown: dict[str, int] = {}
        self._helper: HelperProcess | None = None   # each preview's pypdf layer and page image
        self._family_listing: tuple[str, ...] | None = None   # the family modules on disk
        self.last_saved: Path | None = None   # the case JSON saved last

    # ---- layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield AuthorHeader()
        with PaneRow(id="author-body"):
            # Look again: a family may have been written since the app started.
            families = family_registry(refresh=True).families.values()
            yield AuthorForm(family_options(families), id="author-form")
            with Vertical(id="author-main"):
                yield Static("", id="author-error", markup=False)
                with Horizontal(id="author-pages"):
                    yield PageView(id="author-page-clean")
                    yield PageView(id="author-page")
            with TabbedContent(id="author-side", initial="author-tab-pymupdf"):
                for name in EXTRACTORS:
                    with TabPane(name, id=f"author-tab-{name}"):
                        yield TextLayerView(name, id=f"author-text-{name}")
                with TabPane("Key", id="author-tab-key"):
                    yield AnswerKeyView(id="author-key")
                with TabPane("Lint", id="author-tab-lint"):
                    yield LintView(id="author-lint")
        yield KeyFooter()

    def on_unmount(self) -> None:
        if self._helper is not None:
            self._helper.close()
            self._helper = None

    @property
    def form(self) -> AuthorForm:
        return self.query_one(AuthorForm)

    @property
    def page(self) -> PageView:
        return self.query_one("#author-page", PageView)

    def page_view(self) -> PageView:
        return self.page

    @on(PageView.PageChanged, "#author-page")
    def page_changed(self, event: PageView.PageChanged) -> None:
        shown = self._side_tab()
        for name in EXTRACTORS:
            if f"author-tab-{name}" == shown:
                self.query_one(f"#author-text-{name}", TextLayerView).show_page(event.page)
            else:
                self._side_shown.pop(f"author-tab-{name}", None)   # shown at its page when chosen
        if self.clean_page.display:
            self.clean_page.go_to(event.page)

    @property
    def clean_page(self) -> PageView:
        return self.query_one("#author-page-clean", PageView)

    async def on_mount(self) -> None:
        self.title = "pdfworkbench · author"
        if cores() >= 2 and HELPER:
            # pypdf's text extraction is pure Python and pymupdf keeps the GIL while it renders
            # (a thread beside the analysis would wait for it): a process on the other core reads
            # the pypdf layer and rasterises the page image while the worker analyses the page,
            # which takes ~13 ms off every preview. It starts in the background.
            self._helper = HelperProcess.start(warm_author_helper)
        dpi = self.workbench.settings.dpi
        self.page.dpi = dpi
        self.clean_page.dpi = dpi
        self.clean_page.display = False
        self.watch(self.query_one("#author-side", TabbedContent), "active", self._side_tab_chosen, init=False)
        reg = family_registry()
        for problem in reg.problems:
            self.notify(f"family module not loaded: {problem.message}", severity="warning", timeout=10)
        draft = self.draft_in
        if self.base is not None and draft is not None:
            muts = self._choices()
            self.form.set_families(family_options(muts.values()))
            self.form.query(".degrade-head > .param-name").first().update("mutation")
            await self._load_family(muts.get(draft.family) or muts["hidden_layer"], draft)
            self.set_interval(WATCH_INTERVAL, self._watch_family_file)
            self.form.query_one("#family", Select).focus()   # typing a digit never edits the seed
            gc.freeze()
            return
        if draft is not None and draft.family not in reg.families:
            # A user family that failed to load is the usual reason: say its problem, not only
            # that the name is unknown (issue 38.1: the newcomer saw hidden_ocr_mismatch open).
            why = next((p.message for p in reg.problems if Path(p.origin).stem == draft.family), "")
            self.notify(f"family {draft.family!r} is not installed"
                        + (f" ({why})" if why else "") + "; showing another: pick one",
                        severity="warning", timeout=12 if why else 5)
            draft = None
        if draft is None:
            last = self.drafts.get("")
            name = "hidden_ocr_mismatch" if "hidden_ocr_mismatch" in reg.families else reg.names()[0]
            draft = self.drafts.get(last.family) if last is not None and last.family in reg.families else None
            draft = draft or Draft(name, 1)
        await self._load_family(reg.get(draft.family), draft)
        self.set_interval(WATCH_INTERVAL, self._watch_family_file)
        self.form.query_one("#family", Select).focus()   # typing a digit never edits the seed
        # Full garbage collections walk every widget and style of the app: up to 150 ms, the
        # live loop's worst pauses. What exists now lives as long as the app, so take it out of
        # the collector's walk (objects made later are still collected).
        gc.freeze()

    async def _load_family(self, family: Family, draft: Draft, resolved: dict[str, ParamValue] | None = None) -> None:
        self.family = family
        self._stamp = family_file_stamp(family)
        if resolved is None and self.base is None:
            # The values the seed gives, shown at once (not the defaults until the first preview).
            try:
                resolved = family.resolve(draft.pinned, draft.seed)
            except Exception:  # a pin the generator refuses: its error shows after generating
                resolved = None
        await self.form.load(family, draft, resolved)
        self._loaded = self.form.draft()
        if self.base is not None:
            self.form.query_one("#family-origin", Static).update(
                f"mutation v{family.version} of {self.base.id} (adopted {self.base.source.name if self.base.source else ''})"
                f"\n{family.description}")
        self.sub_title = family.name
        self.regenerate_now()

    def _choices(self) -> dict[str, Family]:
        """What the form's first select offers: the families, or (mutation mode) the mutations."""
        if self.base is not None:
            return dict(mutations())
        return dict(family_registry().families)

    # ---- regenerating ---------------------------------------------------------------------

    @on(AuthorForm.Changed)
    def form_changed(self) -> None:
        self.schedule()

    def schedule(self) -> None:
        """Regenerate once the edits pause: each edit restarts the timer."""
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self.set_timer(DEBOUNCE, self.regenerate_now)

    def regenerate_now(self) -> None:
        if self._debounce is not None:
            self._debounce.stop()
            self._debounce = None
        if self.family is None:
            return
        self.generation += 1
        try:
            draft = self.form.draft()
        except UserError as exc:   # a knob typed wrong: said where the preview is
            self.post_message(self.PreviewFailed(self.generation, str(exc)))
            return
        if self.base is not None:
            draft = replace(draft, base=self.base, target=self.target)
        self.post_message(self.Regenerating(self.generation))
        self._say_generating(self.generation, f"{self.family.name} · seed {draft.seed} · generating…")
        self._generate(self.generation, self.family, draft, self.workbench.settings.dpi, self.page.look(), self.view)

    @work(thread=True, exclusive=True, group="author-preview", exit_on_error=False)
    def _generate(self, generation: int, family: Family, draft: Draft, dpi: int,
                  look: PageLook | None = None, view: str = "scan") -> None:
        worker = get_current_worker()
        try:
            built = build_preview(family, draft, dpi, look, view, self._helper, lambda: worker.is_cancelled)
        except UserError as exc:
            self.post_message(self.PreviewFailed(generation, str(exc)))
            return
        if built is not None and not worker.is_cancelled:
            self.post_message(self.PreviewReady(generation, built.preview, built.data, built.clean, built.ahead))

    def _say_generating(self, generation: int, title: str) -> None:
        """Title the page "generating…" if generation `generation` is still running by then."""
        def say() -> None:
            if self.generation == generation and self.shown_generation != generation:
                self.page.retitle(title)

        self._stop_saying_generating()
        self._generating = self.set_timer(GENERATING_AFTER, say)

    def _stop_saying_generating(self) -> None:
        if self._generating is not None:
            self._generating.stop()
            self._generating = None

    def on_author_screen_preview_ready(self, message: PreviewReady) -> None:
        if message.generation != self.generation:
            return  # a newer edit won
        self._stop_saying_generating()
        self.shown_generation = message.generation
        self.preview, self.data, self.clean = message.preview, message.data, message.clean
        self.gen_error = None
        self._show_errors()
        case = message.preview.case
        self.form.show_resolved(message.preview.params)
        self._show_side(self._side_tab())
        self._show_pages(message.ahead)
        ms = sum(message.preview.seconds.values()) * 1000
        verdict = {"ok": "lint ✔", "warning": "lint: warnings", "error": "lint: ERRORS"}[
            lint_status(message.data.findings)]
        self.sub_title = f"{case.trap_family} · seed {case.seed} · generated in {ms:.0f} ms · {verdict}"

    def on_author_screen_preview_failed(self, message: PreviewFailed) -> None:
        if message.generation != self.generation:
            return
        self._stop_saying_generating()
        self.gen_error = message.error
        self._show_errors()
        self.form.mark_errors(message.error)
        if self.preview is not None:
            self.page.retitle(self._page_title(self.preview, scanned=self.view != "clean"))

    # ---- seed, family, reload ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_target", "pick_target"):
            return self.base is not None   # only a mutation attacks a value
        if action == "seed":
            focused = self.focused
            if isinstance(focused, Input) and focused.type == "text":
                return False  # let a text field take the bracket
        return True

    def action_seed(self, step: int) -> None:
        self.form.set_seed(max(0, self.form.seed() + step))
        self.schedule()

    @property
    def workbench(self) -> Workbench:
        return workbench(self)

    @property
    def drafts(self) -> dict[str, Draft]:
        """Drafts kept per family while the workbench runs ("" holds the last one left)."""
        return self.workbench.author_drafts

    def changed(self) -> bool:
        """Has the author edited the form since it was loaded?"""
        return self.family is not None and self._loaded is not None and self.form.draft() != self._loaded

    def _keep_draft(self) -> None:
        if self.family is not None and self.base is None and self.changed():
            draft = self.form.draft()
            self.drafts[self.family.name] = draft
            self.drafts[""] = draft

    def action_back(self) -> None:
        if len(self.app.screen_stack) <= 1:
            return
        if not self.changed():
            self.app.pop_screen()
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self._keep_draft()
                self.app.pop_screen()

        family = self.family.name if self.family else "this family"
        kept = ("it is kept until you quit the workbench: open Author again (palette: Author a new "
                "case) or pick the family to get it back" if self.base is None else "it is not kept")
        self.app.push_screen(ConfirmScreen(f"Leave Author? You changed the {family} draft; {kept}.",
                                           yes="Leave", no="Stay"), answered)

    def action_scan_section(self) -> None:
        """F4: to the scan degradation (its tier), wherever the form is scrolled."""
        tier = self.form.query_one("#tier")
        tier.focus()
        self.form.scroll_to_widget(tier, top=True, animate=False)

    # ---- saving -----------------------------------------------------------------------------

    def action_save(self) -> None:
        if self.preview is None or self.data is None:
            self.notify("nothing to save yet", severity="warning")
            return
        if self.gen_error or self.load_error:
            self.notify("the current settings do not generate; fix the error first", severity="error")
            return
        if self._debounce is not None or self.shown_generation != self.generation:
            self.notify("still generating; save again in a moment", severity="warning")
            return
        self._save_flow(self.preview, self.data)

    @work(exclusive=True, group="author-save", exit_on_error=False)
    async def _save_flow(self, preview: Preview, data: CaseData) -> None:
        saved = await save_authored(self.app, preview, data, self.save_folder)
        if saved is None:
            return
        self.save_folder, self.last_saved, open_suite = saved
        if open_suite:
            self.workbench.open_suite(self.save_folder)

    # ---- palette ------------------------------------------------------------------------------

    def palette_commands(self) -> Iterable[SystemCommand]:
        yield SystemCommand("Save case", "Save this case into a suite (ctrl+s)", self.action_save)
        yield SystemCommand("Scan / clean / both", "Switch the page view (F3)", self.action_cycle_view)
        yield SystemCommand("Regenerate", "Generate again, reloading a user family (F5)", self.action_regenerate)
        for tier in TIER_CHOICES:
            yield SystemCommand(f"Tier: {tier}", "Scan degradation tier",
                                lambda t=tier: self.form.query_one(DegradeForm).set_tier(t), discover=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # A failure nobody caused must not take the app down: say it, keep the last preview.
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.notify(f"{type(event.worker.error).__name__}: {event.worker.error}", severity="error", timeout=10)


def draft_from_case(case: Case | None) -> Draft | None:
    """The draft to start authoring from a case (None for a PDF without a family). An adopted
    case gives a draft in mutation mode: the mutations instead of a family's params."""
    if case is None or (case.params is None and case.source is None):
        return None
    return Draft.from_case(case)
