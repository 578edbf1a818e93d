"""Ctrl+S in Author: the suite folder and case id asked for, the lint errors and an existing case
confirmed, the preview saved into the suite (`build.saving`: plan, then save), and the suite opened
in Inspect if the author wants. Runs in the screen's worker (its dialogs are awaited)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App

from workbench.build.authoring import Preview
from workbench.build.saving import plan_save, save
from workbench.core.errors import UserError
from workbench.tui.case_data import CaseData
from workbench.tui.widgets.author_save import ConfirmScreen, SaveCaseScreen


def save_summary(preview: Preview) -> str:
    """What is saved, in a line: family, seed, pins and scan (or the adopted case's mutations)."""
    case = preview.case
    if case.mutations:
        root = (case.source.root_id if case.source else None) or ""
        return (f"adopted {root} · " + " → ".join(m.mutation for m in case.mutations)
                + f" · seed {case.seed} · {len(preview.draft.pinned)} pinned")
    return (f"{case.trap_family} · seed {case.seed} · {len(preview.draft.pinned)} pinned · "
            + (f"scan {case.degrade.tier}" if case.degrade else "no scan"))


async def save_authored(app: App, preview: Preview, data: CaseData, folder: Path) -> tuple[Path, Path, bool] | None:
    """Save `preview` where the author says (offered: `folder`); (the folder, the case's JSON,
    whether to open the suite in Inspect), or None when nothing was saved (cancelled, or an error,
    which is a notification)."""
    choice = await app.push_screen_wait(SaveCaseScreen(folder, preview.case.id, save_summary(preview)))
    if choice is None:
        return None
    folder, case_id = choice
    try:
        plan = await asyncio.to_thread(lambda: plan_save(
            folder, preview.case, preview.pdf, case_id=case_id, findings=data.findings,
            extra_files=preview.extra_files))
    except UserError as exc:
        app.notify(str(exc), severity="error", timeout=8)
        return None
    if plan.lint_errors:
        detail = "\n".join(plan.lint_errors[:5])
        if not await app.push_screen_wait(ConfirmScreen(
                f"This case has {len(plan.lint_errors)} lint error(s): its trap may not be armed. Save anyway?",
                yes="Save anyway", no="Cancel", detail=detail)):
            return None
    overwrite = False
    if plan.exists:
        if not await app.push_screen_wait(ConfirmScreen(
                f"{folder} already has a case {case_id!r}. Overwrite it?", yes="Overwrite", no="Cancel")):
            app.notify("not saved: choose another id", timeout=4)
            return None
        overwrite = True
    try:
        added = await asyncio.to_thread(lambda: save(plan, overwrite=overwrite, with_lint_errors=True))
    except UserError as exc:
        app.notify(str(exc), severity="error", timeout=10)
        return None
    path, digest = added.json_path, added.suite_hash
    app.notify(f"saved {path.name} into {folder} (suite hash {digest[:12]})", timeout=6)
    open_it = await app.push_screen_wait(ConfirmScreen(
        f"Saved {case_id} into {folder}. Open the suite in Inspect?", yes="Open", no="Keep authoring"))
    return folder, path, bool(open_it)
