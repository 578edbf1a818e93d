"""The provider adapters by name, and what a reader takes: its modality when none is asked for,
and the options it knows.

An adapter is a module of pure functions behind `base.Adapter` (build the call, parse the answer
or the error); none does I/O: `reading` makes live calls, `batch.service` talks to the batch
services. Importing this module loads neither httpx nor a PDF library: the Ask dialog asks it for
a reader's modality as the reader is typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from workbench.core.errors import UserError
from workbench.providers import anthropic, extractors, google, ollama, openai, openai_compatible
from workbench.providers.base import Adapter, ReaderOptions, ReaderSpec, parse_reader

ADAPTERS: dict[str, Adapter] = {m.name: m for m in (openai, anthropic, google, ollama, openai_compatible)}
KNOWN_OPTIONS = tuple(ReaderOptions.__annotations__)


def adapter(provider: str) -> Adapter:
    return ADAPTERS[provider]


def default_modality(reader: str | ReaderSpec) -> str:
    """The modality a reader gets when none is asked for: one it supports (the PDF file where
    the provider takes PDF files, else page images; a probe's own)."""
    spec = reader if isinstance(reader, ReaderSpec) else parse_reader(reader)
    if spec.is_probe:
        return extractors.modality(spec.model)
    if spec.is_agent:
        return "tools"
    return "pdf" if adapter(spec.provider).takes_pdf else "pixels"


def check_options(options: Mapping[str, Any] | None) -> ReaderOptions:
    """The options as a reader takes them; a UserError names one it does not know."""
    given = dict(options or {})
    unknown = sorted(set(given) - set(KNOWN_OPTIONS))
    if unknown:
        raise UserError(f"unknown reader option {', '.join(unknown)}; known: {', '.join(KNOWN_OPTIONS)}")
    if not isinstance(given.get("structured", True), bool):
        raise UserError("reader option structured: give true or false")
    return cast(ReaderOptions, given)
