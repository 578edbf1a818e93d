"""What a reader is: a `provider:model` spec, the request it gets and the result it gives back.

Adapters (one module per provider) turn a `ReadRequest` into an HTTP call and a provider's JSON
answer into a `ReadResult`. They do no I/O; `workbench.providers.reading` does the calling.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypedDict

from workbench.core.errors import UserError
from workbench.core.runs import USAGE_KEYS, CallError
from workbench.core.schema import JSONObject
from workbench.providers.extractors import EXTRACTORS

# Providers spoken over HTTP, then the offline probes.
HTTP_PROVIDERS = ("openai", "anthropic", "google", "ollama", "openai-compatible")
PROBES = tuple(EXTRACTORS)
# `agent:PROVIDER:MODEL`: a tool loop over an HTTP provider (workbench.providers.agent).
PROVIDERS = (*HTTP_PROVIDERS, "probe", "agent")

# Examples for pickers; any model name the provider knows works.
READERS = (
    "probe:pypdf",
    "probe:pymupdf",
    "probe:ocr",
    *(f"probe:{name}" for name in EXTRACTORS if name not in ("pypdf", "pymupdf", "ocr")),
    "openai:gpt-4o",
    "openai:gpt-4.1-mini",
    "anthropic:claude-sonnet-4-5",
    "anthropic:claude-haiku-4-5",
    "google:gemini-2.5-flash",
    "google:gemini-2.5-pro",
    "ollama:llama3.2-vision",
    "openai-compatible:local-model",
    "agent:anthropic:claude-sonnet-4-5",
    "agent:openai:gpt-4o",
    "agent:google:gemini-2.5-flash",
)

DEFAULT_MAX_TOKENS = 1024
DEFAULT_DPI = 150


class ReaderOptions(TypedDict, total=False):
    """What a reader may be asked besides the document and the prompt (`--max-tokens`, ...); the
    run's plan, its batch state file and the answer cache's key record them as given."""

    max_tokens: int
    temperature: float
    structured: bool      # send an extraction case's schema as structured output (default true)
    # agent readers only:
    max_turns: int
    deadline_s: float
    extractor: str        # the text layer its page_text tool reads


# Token counts by `core.runs.USAGE_KEYS`, None where the provider gave no number.
Usage = dict[str, int | None]


@dataclass(frozen=True)
class ReaderSpec:
    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}:{self.model}"

    @property
    def is_probe(self) -> bool:
        return self.provider == "probe"

    @property
    def is_agent(self) -> bool:
        return self.provider == "agent"

    @property
    def inner(self) -> ReaderSpec:
        """An agent's model, as a reader of its own (`agent:openai:gpt-4o` -> `openai:gpt-4o`)."""
        return parse_reader(self.model) if self.is_agent else self


def parse_reader(spec: str) -> ReaderSpec:
    """`"openai:gpt-4o"` -> ReaderSpec("openai", "gpt-4o"). Splits at the first colon only,
    so model tags such as `ollama:llama3.2:3b` keep theirs."""
    provider, sep, model = str(spec).strip().partition(":")
    provider = provider.lower()
    if not sep or not model or not provider:
        raise UserError(f"reader {spec!r}: write it as provider:model, e.g. openai:gpt-4o or probe:pymupdf")
    if provider not in PROVIDERS:
        raise UserError(f"reader {spec!r}: unknown provider {provider!r}; choose one of {', '.join(PROVIDERS)}")
    if provider == "probe" and model not in PROBES:
        raise UserError(f"reader {spec!r}: unknown probe {model!r}; choose one of {', '.join(PROBES)}")
    if provider == "agent":
        inner, sep, name = model.partition(":")
        if not sep or not name or inner.lower() not in HTTP_PROVIDERS:
            raise UserError(f"reader {spec!r}: write an agent as agent:PROVIDER:MODEL with PROVIDER one of "
                            f"{', '.join(HTTP_PROVIDERS)}, e.g. agent:openai:gpt-4o")
        model = f"{inner.lower()}:{name}"
    return ReaderSpec(provider, model)


def known_readers() -> list[str]:
    """Reader specs to offer in a picker (probes first: they need no key)."""
    return list(READERS)


@dataclass(frozen=True)
class Part:
    """One piece of the document sent to a reader: the PDF, one page image, or extracted text."""

    kind: Literal["pdf", "image", "text"]
    data: bytes = b""    # pdf or image bytes
    text: str = ""       # for kind == "text"
    mime: str = ""
    filename: str = ""

    def b64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        return f"data:{self.mime};base64,{self.b64()}"


@dataclass
class ReadRequest:
    prompt: str
    parts: list[Part]
    max_tokens: int = DEFAULT_MAX_TOKENS
    temperature: float | None = None
    # The answer's JSON Schema, sent as the provider's structured output (extraction cases, for
    # adapters with a `structured` kind); None: a plain text answer.
    schema: JSONObject | None = None


@dataclass
class HttpCall:
    url: str
    headers: dict[str, str]
    body: JSONObject


@dataclass
class ProviderError:
    """A provider's error answer, in its own terms."""

    type: str | None = None
    message: str = ""
    code: str | None = None
    retry_delay_s: float | None = None   # a hint in the body (Gemini RetryInfo)
    no_retry: bool = False               # exhausted quota, spend limit, ...


@dataclass
class ReadResult:
    status: str                          # ok | blocked | truncated | refused | error | timeout
    answer: str | None = None
    finish_reason: str | None = None
    usage: Usage | None = None
    request_id: str | None = None
    error: CallError | None = None


def usage_dict(**values: Any) -> Usage:
    """Token usage with every known key present; None where the provider gave no number."""
    out: Usage = {k: None for k in USAGE_KEYS}
    for k, v in values.items():
        out[k] = v if isinstance(v, int) and not isinstance(v, bool) else None
    return out


class Adapter(Protocol):
    """A provider adapter: a module of these (`providers/openai.py`, ...; by name in
    `adapters.ADAPTERS`). Pure: it builds the call and reads the answer, and does no I/O."""

    name: str
    takes_pdf: bool
    # How the adapter sends `ReadRequest.schema` (recorded in the run record), or None when it sends
    # none: the answer is then asked for in the prompt only, as the case's question does.
    structured: str | None

    def build(self, req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall: ...

    def parse(self, body: Any, headers: dict[str, str]) -> ReadResult: ...

    def parse_error(self, status: int, body: Any) -> ProviderError: ...


def document_text(pages: list[str]) -> str:
    """The text modality's document: the text layer, page by page, fenced off from the prompt."""
    body = "\n".join(f"--- page {i} ---\n{t.rstrip()}" for i, t in enumerate(pages, 1))
    return f"Document text (extracted from the PDF):\n<<<\n{body}\n>>>"


def _get(obj: Any, *path: Any) -> Any:
    """obj[p0][p1]... or None when any step is missing or of the wrong type."""
    for p in path:
        try:
            obj = obj[p]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


get_path = _get
