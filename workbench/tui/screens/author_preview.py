"""An Author preview, made in the screen's worker: the draft generated (a mutation's value located
first), a scan's clean page beside it, each analysed and linted as Inspect shows a case, and the
page image rendered ahead as the page pane will show it. A helper process, when there is one,
reads the pypdf layers and rasterises the page image meanwhile. No widget is touched here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from workbench.build.authoring import Draft, Preview, make_preview
from workbench.checks.locate import locate_for
from workbench.core.pool import HelperProcess
from workbench.generators.base import Family
from workbench.generators.mutations import Mutation, Target
from workbench.pdf.document import read_pdf_bytes
from workbench.tui.case_data import CaseData, analysed, case_data_from_bytes
from workbench.tui.page_look import PageLook, RenderedPage
from workbench.tui.page_render import raster_for, render_ahead


@dataclass
class Built:
    preview: Preview
    data: CaseData
    clean: CaseData | None             # the unscanned page of a scan
    ahead: RenderedPage | None = None   # the page pane's image, rendered here


def build_preview(family: Family, draft: Draft, dpi: int, look: PageLook | None, view: str,
                  helper: HelperProcess | None, cancelled: Callable[[], bool]) -> Built | None:
    """The preview of `draft` as the screen shows it in `view` ("scan", "clean" or "both"); None
    once `cancelled()` (a newer edit). A draft that does not generate raises its UserError."""
    preview = make_preview(family, located(draft, family))
    if cancelled():
        return None
    # The page image as the pane shows it (as the screen's `_show_pages` picks it), rasterised by
    # the helper while the page is analysed here; its boxes are drawn once they are known.
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
        if cancelled():
            return None
    unscanned = analysed(clean) if clean is not None and not preview.draft.mutating else None
    data = case_data_from_bytes(preview.case, preview.pdf, dpi, unscanned=unscanned, helper=helper,
                                after_text=queue_raster)
    if cancelled():
        return None
    # The page as the pane shows it, so it goes on screen in the same refresh as the other
    # panes; if the pane changed meanwhile it renders again.
    main = clean if clean is not None and view == "clean" else data
    ahead = render_ahead(look, main.pdf, main.page_count, main.boxes, _result(raster)) if look is not None else None
    return Built(preview, data, clean, ahead)


def _result(future: Any) -> Any:
    """A helper's result, or None when there is none (no helper, or its process went away)."""
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # the helper's process died (or the call never ran): done here instead
        return None


def located(draft: Draft, mutation: Family) -> Draft:
    """The draft with its target: the expected answer located on the base case's page (evidence
    search), when the mutation needs one and none is set."""
    if draft.base is None or draft.target is not None or not (isinstance(mutation, Mutation) and mutation.needs_target):
        return draft
    hit = locate_for(draft.base, read_pdf_bytes(draft.base.pdf_file))
    return replace(draft, target=Target(hit.page, hit.box, hit.text))
