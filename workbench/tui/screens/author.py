"""Author: turn a family's parameters, its seed and the scan degradation; the case follows live.

Every edit restarts a short timer (DEBOUNCE); when it fires, the draft is generated in a worker
thread, tagged with a generation number, and only the newest generation's result is shown, so
the last change wins. A result that fails keeps the last good preview on screen with the error
above it. While a user family is shown, its file is polled and reloaded when it changes.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from textual import on, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, Input, Select, Static, TabbedContent, TabPane
from textual.widgets._header import HeaderClockSpace, HeaderIcon, HeaderTitle
from textual.worker import Worker, WorkerState, get_current_worker

from workbench.build.authoring import (
    Draft,
    Preview,
    family_file_stamp,
    make_preview,
    reload_user_family,
)
from workbench.build.make import family_registry
from workbench.build.saving import plan_save, save
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.pool import HelperProcess, cores
from workbench.generators.base import Family
from workbench.tui.case_data import EXTRACTORS, CaseData, analysed, case_data_from_bytes
from workbench.tui.widgets.author_form import TIER_CHOICES, AuthorForm, DegradeForm
from workbench.tui.widgets.author_save import ConfirmScreen, SaveCaseScreen
from workbench.tui.widgets.footer import KeyFooter
from workbench.tui.widgets.layout import PaneRow
from workbench.tui.widgets.page_view import (
    PAGE_BINDINGS,
    PageKeys,
    PageLook,
    PageView,
    raster_for,
    render_ahead,
    warm_author_helper,
)
from workbench.tui.widgets.text_layers import AnswerKeyView, LintView, TextLayerView, lint_status

DEBOUNCE = 0.12        # seconds of quiet after an edit before regenerating
# Seconds a regeneration runs before the page's title says "generating…": a new title repaints
# the whole page pane, which slowed a preview that is back sooner (most are) by a fifth.
GENERATING_AFTER = 0.15
WATCH_INTERVAL = 0.3   # seconds between looks at a user family's file
VIEWS = ("scan", "clean", "both")
# Read each preview's pypdf layer and page image in a helper process (two cores or more).
HELPER = True


def family_options(families: Iterable[Family]) -> list[tuple[str, str]]:
    return [(f.name if f.origin == "builtin" else f"{f.name} (user)", f.name) for f in families]


class _TitleLine(HeaderTitle):
    """The header's title: one line as wide as the header whatever it says, so a new title is
    painted without laying out the whole screen (Static.update lays it out by default)."""

    def update(self, content="", *, layout: bool = False) -> None:
        super().update(content, layout=layout)


class AuthorHeader(Header):
    """Textual's Header (no clock), whose title changes on every preview ("generated in N ms")
    without a layout of the screen."""

    def compose(self) -> ComposeResult:
        yield HeaderIcon().data_bind(Header.icon)
        yield _TitleLine()
        yield HeaderClockSpace()


# The side panes (tab id -> what it shows): only the pane on show is updated with a new preview;
# the others when their tab is chosen.
SIDE_TABS = (*(f"author-tab-{name}" for name in EXTRACTORS), "author-tab-key", "author-tab-lint")


class AuthorScreen(PageKeys, Screen):
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
        ahead: PageView.Rendered | None = None   # the page pane's image, rendered in the worker

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
        dpi = self.app.settings.dpi
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

    async def _load_family(self, family: Family, draft: Draft, resolved: dict[str, Any] | None = None) -> None:
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
                f"mutation v{family.version} of {self.base.id} (adopted {self.base.source.get('name', '')})"
                f"\n{family.description}")
        self.sub_title = family.name
        self.regenerate_now()

    def _choices(self) -> dict[str, Family]:
        """What the form's first select offers: the families, or (mutation mode) the mutations."""
        if self.base is not None:
            from workbench.generators.mutations import mutations

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
        self._generate(self.generation, self.family, draft, self.app.settings.dpi, self.page.look(), self.view)

    @work(thread=True, exclusive=True, group="author-preview", exit_on_error=False)
    def _generate(self, generation: int, family: Family, draft: Draft, dpi: int,
                  look: PageLook | None = None, view: str = "scan") -> None:
        worker = get_current_worker()
        try:
            preview = make_preview(family, _located(draft, family))
        except UserError as exc:
            self.post_message(self.PreviewFailed(generation, str(exc)))
            return
        if worker.is_cancelled:
            return
        helper = self._helper
        # The page image as the pane shows it (as `_show_pages` picks it), rasterised by the
        # helper while the page is analysed here; its boxes are drawn once they are known.
        shown_pdf = preview.clean_pdf if preview.degraded and view == "clean" else preview.pdf
        raster = None

        def queue_raster() -> None:  # (behind the pypdf layers: the analysis needs those first)
            nonlocal raster
            if helper is not None and look is not None:
                raster = helper.submit(raster_for, look, shown_pdf)

        clean = None
        if preview.degraded:
            # The unscanned page, with its hidden text and evidence marked; linted with the scan,
            # which judges visibility on it (a family's case: the very PDF the lint would generate).
            clean_case = replace(preview.case, degrade=None, sha256=None)
            clean = case_data_from_bytes(clean_case, preview.clean_pdf, dpi, lint=False, helper=helper)
            if worker.is_cancelled:
                return
        unscanned = analysed(clean) if clean is not None and not preview.draft.mutating else None
        data = case_data_from_bytes(preview.case, preview.pdf, dpi, unscanned=unscanned, helper=helper,
                                    after_text=queue_raster)
        if worker.is_cancelled:
            return
        # The page as the pane shows it, so it goes on screen in the same refresh as the other
        # panes; if the pane changed meanwhile it renders again.
        main = clean if clean is not None and view == "clean" else data
        ahead = render_ahead(look, main.pdf, main.page_count, main.boxes, _result(raster)) \
            if look is not None else None
        if not worker.is_cancelled:
            self.post_message(self.PreviewReady(generation, preview, data, clean, ahead))

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

    # ---- side panes ----------------------------------------------------------------------

    def _side_tab(self) -> str:
        return self.query_one("#author-side", TabbedContent).active

    def _show_side(self, tab: str) -> None:
        """Show the preview in side pane `tab` (a text layer, the key or the lint), unless it
        shows it already. Only the pane on show is updated with each preview: a hidden one's
        update would cost a layout of the screen and a rebuild of Textual's map of every widget."""
        if self.data is None or self.preview is None or self._side_shown.get(tab) == self.shown_generation:
            return
        self._side_shown[tab] = self.shown_generation
        if tab == "author-tab-key":
            self.query_one(AnswerKeyView).show(self.preview.case)
        elif tab == "author-tab-lint":
            self.query_one(LintView).show(self.data.findings)
        elif tab in SIDE_TABS:
            name = tab.removeprefix("author-tab-")
            page = min(self.page.page, max(self.data.page_count - 1, 0))
            self.query_one(f"#author-text-{name}", TextLayerView).show(
                self.data.layers[name], self.data.hidden_texts, page, unread=self.data.unread[name])

    def _side_tab_chosen(self, tab: str) -> None:
        # A watcher of the tabs' `active`: it runs as the tab switches, before the screen lays
        # the pane out and paints it, so a pane is never painted with an older preview.
        self._show_side(tab)

    def on_author_screen_preview_failed(self, message: PreviewFailed) -> None:
        if message.generation != self.generation:
            return
        self._stop_saying_generating()
        self.gen_error = message.error
        self._show_errors()
        self.form.mark_errors(message.error)
        if self.preview is not None:
            self.page.retitle(self._page_title(self.preview, scanned=self.view != "clean"))

    def _show_errors(self) -> None:
        parts = []
        if self.load_error:
            parts.append(f"✖ family module: {self.load_error}")
        if self.gen_error:
            parts.append(f"✖ {self.gen_error}")
        if parts and self.preview is not None:
            parts.append("(showing the last good preview)")
        banner = self.query_one("#author-error", Static)
        text = "\n".join(parts)
        if text != self._error_shown:   # an update lays the screen out again: only on a change
            self._error_shown = text
            banner.update(text)
        banner.set_class(bool(parts), "-shown")

    # ---- pages ----------------------------------------------------------------------------

    def _page_title(self, preview: Preview, scanned: bool) -> str:
        case = preview.case
        if scanned and case.degrade:
            return f"scan · {case.degrade.tier} · text {case.degrade.text_layer}"
        return f"{case.trap_family} · seed {case.seed}" + (" · clean" if case.degrade else "")

    def _show_pages(self, ahead: PageView.Rendered | None = None) -> None:
        if self.preview is None or self.data is None:
            return
        degraded = self.preview.degraded and self.clean is not None
        both = degraded and self.view == "both"
        self.clean_page.display = both
        if degraded and self.view == "clean":
            main, scanned = self.clean, False
        else:
            main, scanned = self.data, degraded
        assert main is not None
        self.page.retitle(self._page_title(self.preview, scanned))
        self.page.show_pdf(main.pdf, main.page_count, main.boxes, keep_view=True, ahead=ahead)
        if both and self.clean is not None:
            self.clean_page.retitle(self._page_title(self.preview, False))
            self.clean_page.show_pdf(self.clean.pdf, self.clean.page_count, self.clean.boxes, keep_view=True)

    def action_cycle_view(self) -> None:
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        if self.preview is not None and not self.preview.degraded:
            self.notify(f"view: {self.view} (no scan: choose a degradation tier to compare)", timeout=3)
        else:
            self.notify(f"view: {self.view}", timeout=2)
        self._show_pages()

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

    def action_regenerate(self) -> None:
        if self.family is not None and self.family.origin != "builtin":
            self._reload(Path(self.family.origin))
        elif self.base is not None:
            self.regenerate_now()
        else:
            self.form.set_families(family_options(family_registry(refresh=True).families.values()))
            self.regenerate_now()

    @property
    def drafts(self) -> dict[str, Draft]:
        """Drafts kept per family while the workbench runs ("" holds the last one left)."""
        store = getattr(self.app, "author_drafts", None)
        if store is None:
            store = self.app.author_drafts = {}
        return store

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

    @on(AuthorForm.FamilyChosen)
    async def family_chosen(self, event: AuthorForm.FamilyChosen) -> None:
        family = self._choices().get(event.name)
        if family is None:
            self.notify(f"family {event.name!r} did not load", severity="error")
            return
        try:
            degrade = self.form.query_one(DegradeForm).spec()
        except UserError:
            degrade = None   # a knob typed wrong: the new family starts without a scan
        self.load_error = None
        self._keep_draft()
        kept = self.drafts.get(family.name) if self.base is None else None
        await self._load_family(family, kept or Draft(family.name, self.form.seed(), {}, degrade))
        if kept is not None:
            self.notify(f"{family.name}: your draft from earlier (seed {kept.seed}, "
                        f"{len(kept.pinned)} pinned)", timeout=3)

    def _watch_family_list(self) -> None:
        """A family module written while the workbench runs (`new-family`) joins the list."""
        import os

        from workbench.core.config import family_dirs

        if self.base is not None:
            return
        folders = [*family_dirs(self.app.settings),
                   *(Path(p) for p in os.environ.get("PDFWORKBENCH_FAMILY_PATH", "").split(os.pathsep) if p)]
        listing = tuple(sorted(str(f) for d in folders if d.is_dir() for f in d.glob("*.py")))
        if listing == getattr(self, "_family_listing", listing):
            self._family_listing = listing
            return
        self._family_listing = listing
        self.form.set_families(family_options(family_registry(refresh=True).families.values()))

    def _watch_family_file(self) -> None:
        self._watch_family_list()
        if self.family is None or self.family.origin == "builtin":
            return
        stamp = family_file_stamp(self.family)
        if stamp is not None and stamp != self._stamp:
            self._stamp = stamp
            self._reload(Path(self.family.origin))

    @work(thread=True, exclusive=True, group="author-reload", exit_on_error=False)
    def _reload(self, path: Path) -> None:
        try:
            family = reload_user_family(path)
        except UserError as exc:
            self.post_message(self.FamilyBroken(path, str(exc)))
            return
        self.post_message(self.FamilyReloaded(family))

    async def on_author_screen_family_reloaded(self, message: FamilyReloaded) -> None:
        old, family = self.family, message.family
        self.load_error = None
        self._show_errors()
        self.form.set_families(family_options(family_registry().families.values()))
        if old is not None and [p.describe() for p in old.params] == [p.describe() for p in family.params] \
                and old.name == family.name:
            self.family = family
            self.form.family = family
            self._stamp = family_file_stamp(family)
            self.regenerate_now()
        else:
            try:
                draft = self.form.draft()
            except UserError:
                draft = Draft(family.name, self.form.seed())
            names = {p.name for p in family.params}
            pinned = {k: v for k, v in draft.pinned.items() if k in names}
            resolved = self.preview.params if self.preview else None
            await self._load_family(family, Draft(family.name, draft.seed, pinned, draft.degrade), resolved)
        self.notify(f"reloaded {Path(family.origin).name}", timeout=2)

    def on_author_screen_family_broken(self, message: FamilyBroken) -> None:
        self.load_error = message.error
        self._show_errors()
        self.form.set_families(family_options(family_registry().families.values()))
        self.notify(f"{message.error} (the last good version stays)", severity="error", timeout=6)

    # ---- the value a mutation attacks --------------------------------------------------------

    def action_next_target(self) -> None:
        if self.base is None:
            self.notify("only a mutation of an adopted case attacks a value", severity="warning")
            return
        current = self.target
        if current is None and self.preview is not None and self.preview.case.mutations:
            from workbench.generators.mutations import Target

            # The value located on its own: the last step that attacks one (a scan attacks none).
            shown = next((m["target"] for m in reversed(self.preview.case.mutations) if m.get("target")), None)
            current = Target.from_json(shown) if shown else None
        self._next_target(self.base, current)

    @work(thread=True, exclusive=True, group="author-target", exit_on_error=False)
    def _next_target(self, base: Case, current: Any) -> None:
        from workbench.checks.locate import locate_all
        from workbench.generators.mutations import Target
        from workbench.pdf.document import read_pdf_bytes

        needle = base.expected_answer or (base.expected_tokens[0] if base.expected_tokens else "")
        places = [Target(h.page, h.box, h.text) for h in locate_all(read_pdf_bytes(base.pdf_file), needle, base.id)]
        if not places:
            self.app.call_from_thread(self.notify, f"{needle!r} is printed nowhere else", severity="warning")
            return
        at = next((i for i, t in enumerate(places) if current is not None and t.page == current.page
                   and t.box == current.box), -1)
        self.app.call_from_thread(self._set_target, places[(at + 1) % len(places)], len(places))

    def action_pick_target(self) -> None:
        if self.base is None:
            return
        self._pick_target(self.base, self.page_view().page)

    @work(thread=True, exclusive=True, group="author-target", exit_on_error=False)
    def _pick_target(self, base: Case, page: int) -> None:
        from workbench.checks.locate import page_spans
        from workbench.pdf.document import read_pdf_bytes

        try:
            spans = page_spans(read_pdf_bytes(base.pdf_file), page, base.id)
        except UserError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
            return
        if not spans:
            self.app.call_from_thread(self.notify, f"page {page + 1} has no text to attack", severity="warning")
            return
        self.app.call_from_thread(self._offer_spans, spans, page)

    def _offer_spans(self, spans: list, page: int) -> None:
        from workbench.generators.mutations import Target
        from workbench.tui.screens.pick import PickSpanScreen

        def chosen(loc) -> None:
            if loc is not None:
                self._set_target(Target(loc.page, loc.box, loc.text), 0)

        self.app.push_screen(PickSpanScreen(spans, page), chosen)

    def _set_target(self, target: Any, count: int) -> None:
        self.target = target
        how = f"{count} place(s)" if count else "picked"
        self.notify(f"attacking {target.text!r} on page {target.page + 1} ({how})", timeout=3)
        self.regenerate_now()

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
        summary = (f"{preview.case.trap_family} · seed {preview.case.seed} · "
                   f"{len(preview.draft.pinned)} pinned · "
                   + (f"scan {preview.case.degrade.tier}" if preview.case.degrade else "no scan"))
        if preview.case.mutations:
            root = (preview.case.source or {}).get("root_id", "")
            summary = (f"adopted {root} · " + " → ".join(m["mutation"] for m in preview.case.mutations)
                       + f" · seed {preview.case.seed} · {len(preview.draft.pinned)} pinned")
        choice = await self.app.push_screen_wait(SaveCaseScreen(self.save_folder, preview.case.id, summary))
        if choice is None:
            return
        folder, case_id = choice
        try:
            plan = await asyncio.to_thread(lambda: plan_save(
                folder, preview.case, preview.pdf, case_id=case_id, findings=data.findings,
                extra_files=preview.extra_files))
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=8)
            return
        if plan.lint_errors:
            detail = "\n".join(plan.lint_errors[:5])
            if not await self.app.push_screen_wait(ConfirmScreen(
                    f"This case has {len(plan.lint_errors)} lint error(s): its trap may not be armed. Save anyway?",
                    yes="Save anyway", no="Cancel", detail=detail)):
                return
        overwrite = False
        if plan.exists:
            if not await self.app.push_screen_wait(ConfirmScreen(
                    f"{folder} already has a case {case_id!r}. Overwrite it?", yes="Overwrite", no="Cancel")):
                self.notify("not saved: choose another id", timeout=4)
                return
            overwrite = True
        try:
            added = await asyncio.to_thread(lambda: save(plan, overwrite=overwrite, with_lint_errors=True))
        except UserError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        path, digest = added.json_path, added.suite_hash
        self.save_folder = folder
        self.last_saved = path
        self.notify(f"saved {path.name} into {folder} (suite hash {digest[:12]})", timeout=6)
        if await self.app.push_screen_wait(ConfirmScreen(
                f"Saved {case_id} into {folder}. Open the suite in Inspect?", yes="Open", no="Keep authoring")):
            open_suite = getattr(self.app, "open_suite", None)
            if open_suite is not None:
                open_suite(folder)

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


def _result(future: Any) -> Any:
    """A helper's result, or None when there is none (no helper, or its process went away)."""
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # the helper's process died (or the call never ran): done here instead
        return None


def _located(draft: Draft, mutation: Family) -> Draft:
    """The draft with its target: the expected answer located on the base case's page (evidence
    search), when the mutation needs one and none is set. Runs in the preview worker."""
    from workbench.checks.locate import locate_for
    from workbench.generators.mutations import Target
    from workbench.pdf.document import read_pdf_bytes

    if draft.base is None or draft.target is not None or not getattr(mutation, "needs_target", False):
        return draft
    hit = locate_for(draft.base, read_pdf_bytes(draft.base.pdf_file))
    return replace(draft, target=Target(hit.page, hit.box, hit.text))
