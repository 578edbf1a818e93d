"""Readers: model APIs over raw httpx, offline probes, the retry policy and the answer cache.

Public names (this file loads only `base`: importing any module of this package runs it first,
and the workbench's screens import `base` and `adapters` as a reader is typed):

- `parse_reader("openai:gpt-4o") -> ReaderSpec(provider, model)`; UserError for an unknown
  provider or probe. Providers: openai, anthropic, google, ollama, openai-compatible, probe.
- `READERS` / `known_readers()`: reader specs to offer in a picker, probes first.
- `reading.read` (httpx, the PDF libraries): `async read(case, pdf_bytes, reader, modality, dpi,
  prompt=None, options=None, cache=True, *, client=None, base_url=None, policy=None) -> RunRecord`:
  one call. `modality` is pdf, pixels
  (every page as PNG at `dpi`) or text (the text layer only); `options` may hold max_tokens and
  temperature. It never raises for provider failures: they come back as the record's status
  (ok, error, timeout, blocked, truncated, refused) with `error` = {type, message, http_status,
  code}. It raises UserError for a missing key (naming the variable to set), an unknown provider,
  a modality the provider cannot take, or a broken PDF. To cancel (the TUI's cancel key), cancel
  the task or worker awaiting it: asyncio cancellation reaches the HTTP call at once, and nothing
  is recorded or cached for a cancelled call. Probes (`probe:pypdf`, `probe:pymupdf`,
  `probe:ocr`) run in a thread and carry their own modality (text, or pixels for OCR).
- `retry.RetryPolicy`: backoff base/cap, deadline, attempts, longest server-asked wait, request timeout.
- `FakeServer` (workbench.providers.fakeserver): the fake provider for tests and dry runs.
- `run_suite(...)` (workbench.providers.running): the live run behind `pdfworkbench run`;
  `workbench.providers.batch`: the same run through the providers' batch services (`run --batch`).

Keys come from OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_API_KEY or GEMINI_API_KEY (and the
optional OPENAI_COMPATIBLE_API_KEY); they are never written to any file, record or screen.
"""

from workbench.providers.base import (
    READERS,
    ReaderSpec,
    known_readers,
    parse_reader,
)

__all__ = ["READERS", "ReaderSpec", "known_readers", "parse_reader"]
