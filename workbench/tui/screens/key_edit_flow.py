"""K on an adopted case: write its answer key by hand (`widgets/key_edit.py`), lint the new key
against the PDF, confirm when it has lint errors, and save it into the case's suite. Loaded when K
is first pressed; it runs in the Inspect screen's worker (its dialogs are awaited)."""

from __future__ import annotations

import asyncio

from textual.app import App

from workbench.build.adopted import rekeyed
from workbench.build.saving import add_to_suite
from workbench.checks.lint import lint_case
from workbench.checks.locate import located_answer
from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.pdf.document import read_pdf_bytes
from workbench.tui.widgets.author_save import ConfirmScreen
from workbench.tui.widgets.key_edit import KeyEditScreen


async def edit_adopted_key(app: App, case: Case, password: str | None) -> Case | None:
    """The case with the key the user wrote, saved into its suite; None when nothing was saved
    (cancelled, or an error, which is a notification)."""
    values = await app.push_screen_wait(KeyEditScreen(case))
    if values is None or case.json_path is None:
        return None
    try:
        new = rekeyed(case, values["question"], values["expected"], values["tokens"],
                      values["forbidden"], values["matcher"])
        pdf = await asyncio.to_thread(read_pdf_bytes, case.pdf_file, password)
        findings = await asyncio.to_thread(lint_case, new, pdf)
    except UserError as exc:
        app.notify(str(exc), severity="error", timeout=8)
        return None
    _, unlocated = await asyncio.to_thread(located_answer, new, pdf)
    errors = [f"{f.code}: {f.message}" for f in findings if f.severity == "error"] + unlocated
    if errors and not await app.push_screen_wait(ConfirmScreen(
            f"The new key has {len(errors)} lint error(s). Save it anyway?", yes="Save anyway",
            no="Cancel", detail="\n".join(errors[:5]))):
        return None
    folder = case.json_path.parent
    try:
        added = await asyncio.to_thread(lambda: add_to_suite(
            folder, new, pdf, overwrite=True, lint_errors=errors, save_with_lint_errors=True))
    except UserError as exc:
        app.notify(str(exc), severity="error", timeout=8)
        return None
    app.notify(f"saved the key of {new.id} (suite hash {added.suite_hash[:12]})", timeout=5)
    return new
