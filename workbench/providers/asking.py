"""Asking a reader one case's question and recording the answer: the one function behind the
`ask` command and Inspect's Ask dialog.

The record names the suite (as `run` records do) and is appended to the suite's ask run
(`<suite>/runs/asked.jsonl`, `workbench.core.layout.ask_run`) unless another file is given.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.core.case import Case
from workbench.core.layout import ask_run, holds_suite
from workbench.core.prompt import default_prompt
from workbench.core.runs import RunRecord, RunWriter
from workbench.core.suite import Suite, load_suite, run_marks
from workbench.pdf.document import read_case_pdf
from workbench.providers.adapters import default_modality
from workbench.providers.base import ReaderSpec
from workbench.providers.reading import DEFAULT_DPI, read


def suite_of_case(case: Case) -> Suite | None:
    """The suite a case file sits in (its folder, when that folder is a suite)."""
    folder = case.json_path.parent if case.json_path else None
    return load_suite(folder) if folder is not None and holds_suite(folder) else None


def _folder(case: Case, suite: Suite | None) -> Path:
    if suite is not None:
        return suite.folder
    return (case.json_path or case.pdf_file).parent


async def ask(case: Case, reader: str | ReaderSpec, modality: str | None = None,
              dpi: int | None = DEFAULT_DPI, prompt: str | None = None,
              options: Mapping[str, Any] | None = None, cache: bool = True, *,
              suite: Suite | None = None, out: Path | None = None,
              base_url: str | None = None, question: str | None = None,
              password: str | None = None) -> tuple[RunRecord, Path]:
    """Ask `reader` about `case`, record the answer (naming `suite`), return it and the run file.

    `modality` defaults to the reader's own (`default_modality`). `question` asks that instead
    of the case's own (any PDF can be asked about): the record keeps it in `extra["question"]`,
    and such an answer is graded against no key. Cancelling the awaiting task cancels the call,
    and then nothing is recorded.
    """
    own = bool(question) and question != case.question
    if own and prompt is None:
        prompt = default_prompt(replace(case, question=question))
    pdf = None
    if password:  # an encrypted PDF is sent decrypted (`read` opens the PDF without a password)
        pdf = await asyncio.to_thread(read_case_pdf, case, password)
    record = await read(case, pdf, reader, modality or default_modality(reader), dpi, prompt, options,
                        cache, base_url=base_url)
    if own:
        record.extra["question"] = question
    path = Path(out) if out is not None else ask_run(_folder(case, suite))
    if suite is not None:
        record.suite = suite.name
        record.extra.update(run_marks(suite, path))

    def append() -> None:
        with RunWriter(path) as writer:
            writer.append(record)

    await asyncio.to_thread(append)
    return record, path
