"""One model call: prepare the document for the modality, call the provider with retries, and
return a `RunRecord`. Provider failures become statuses; only user mistakes raise."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import time
from typing import Any

from workbench.core.case import Case
from workbench.core.errors import UserError
from workbench.core.runs import MODALITIES, CallError, RunRecord, utc_now
from workbench.providers import config
from workbench.providers.base import (
    DEFAULT_DPI,
    DEFAULT_MAX_TOKENS,
    Part,
    ReaderSpec,
    ReadRequest,
    ReadResult,
    default_prompt,
    document_text,
    parse_reader,
)
from workbench.providers.cache import AnswerCache, cache_key
from workbench.providers.retry import RetryPolicy, decide

ADAPTER_MODULES = {
    "openai": "workbench.providers.openai",
    "anthropic": "workbench.providers.anthropic",
    "google": "workbench.providers.google",
    "ollama": "workbench.providers.ollama",
    "openai-compatible": "workbench.providers.openai_compatible",
}
KNOWN_OPTIONS = ("max_tokens", "temperature")
MAX_ERROR_TEXT = 1000


def adapter(provider: str) -> Any:
    return importlib.import_module(ADAPTER_MODULES[provider])


def default_modality(reader: str | ReaderSpec) -> str:
    """The modality a reader gets when none is asked for: one it supports (the PDF file where
    the provider takes PDF files, else page images; a probe's own)."""
    spec = reader if isinstance(reader, ReaderSpec) else parse_reader(reader)
    if spec.is_probe:
        from workbench.providers.probes import probe_modality

        return probe_modality(spec.model)
    return "pdf" if adapter(spec.provider).takes_pdf else "pixels"


def check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise UserError(f"unknown reader option {', '.join(unknown)}; known: {', '.join(KNOWN_OPTIONS)}")
    return options


def prepare_parts(pdf: bytes, modality: str, dpi: int | None) -> list[Part]:
    """The document as the reader gets it: the file, every page as PNG, or the text layer."""
    if modality == "pdf":
        # A neutral filename: the case id would tell the model which trap it faces.
        return [Part("pdf", data=pdf, mime="application/pdf", filename="document.pdf")]
    if modality == "pixels":
        from workbench.pdf.document import open_fitz

        doc = open_fitz(pdf)
        try:
            return [Part("image", data=page.get_pixmap(dpi=dpi or DEFAULT_DPI, alpha=False).tobytes("png"),
                         mime="image/png", filename=f"page-{i}.png") for i, page in enumerate(doc, 1)]
        finally:
            doc.close()
    if modality == "text":
        from workbench.pdf.textlayer import text_pymupdf

        return [Part("text", text=document_text(text_pymupdf(pdf)))]
    raise UserError(f"unknown modality {modality!r}; choose one of {', '.join(MODALITIES)}")


def _headers(resp: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in resp.headers.items()}


def _body(resp: Any) -> Any:
    try:
        return resp.json()
    except (ValueError, UnicodeDecodeError):
        return resp.text[:MAX_ERROR_TEXT]


def _error(etype: str | None, message: str, http_status: int | None = None,
           code: str | None = None) -> CallError:
    return CallError(etype, (config.redact(message) or "")[:MAX_ERROR_TEXT], http_status, code)


async def call_http(client: Any, mod: Any, call: Any, policy: RetryPolicy) -> tuple[ReadResult, int]:
    """POST the call, retrying by the policy. Returns the result and the number of attempts."""
    import httpx

    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        status: int | None = None
        headers: dict[str, str] = {}
        hint: float | None = None
        no_retry = False
        try:
            resp = await client.post(call.url, headers=call.headers, content=json.dumps(call.body),
                                     timeout=policy.timeout_s)
        except httpx.TimeoutException:
            result = ReadResult("timeout", error=_error("timeout", f"no answer within {policy.timeout_s:g} s"))
        except httpx.TransportError as exc:
            result = ReadResult("error", error=_error("network", f"{exc.__class__.__name__}: {exc}"))
        else:
            status, headers = resp.status_code, _headers(resp)
            rid = headers.get("x-request-id") or headers.get("request-id")
            if 200 <= status < 300:
                try:
                    result = mod.parse(resp.json(), headers)
                except (ValueError, UnicodeDecodeError, AttributeError, TypeError) as exc:
                    result = ReadResult("error", request_id=rid, error=_error(
                        "malformed_response", f"the provider's answer could not be read: {exc}", status))
                return result, attempt
            perr = mod.parse_error(status, _body(resp))
            hint, no_retry = perr.retry_delay_s, perr.no_retry
            result = ReadResult("error", request_id=rid, error=_error(
                perr.type or f"http_{status}", perr.message or resp.reason_phrase, status, perr.code))
        wait = decide(status, headers, hint, no_retry, attempt, policy, time.monotonic() - started)
        if wait is None:
            return result, attempt
        await asyncio.sleep(wait)


def _record(case: Case, pdf_sha: str, reader: str, modality: str, dpi: int | None, prompt: str,
            result: ReadResult, latency_ms: float, attempts: int, started_at: str) -> RunRecord:
    return RunRecord(
        case_id=case.id, case_sha256=pdf_sha, key_sha256=case.key_sha256(), reader=reader,
        modality=modality, dpi=dpi, prompt=prompt, answer=result.answer, status=result.status,
        error=result.error.to_json() if result.error else None, finish_reason=result.finish_reason, latency_ms=round(latency_ms, 1),
        attempts=attempts, usage=result.usage, request_id=result.request_id, started_at=started_at,
        trap_family=case.trap_family, extra=dict(result.extra),
    )


async def read(case: Case, pdf_bytes: bytes | None, reader: str | ReaderSpec, modality: str | None = None,
               dpi: int | None = DEFAULT_DPI, prompt: str | None = None,
               options: dict[str, Any] | None = None, cache: bool = True, *,
               client: Any = None, base_url: str | None = None,
               policy: RetryPolicy | None = None, gate: Any = None, local: Any = None) -> RunRecord:
    """Ask `reader` the case's question about the PDF; see the module docstring of
    `workbench.providers` for the contract. Cancelling the awaiting task cancels the call.

    `gate` (an asyncio.Semaphore) is held only around the model call itself, so a batch can
    prepare the next documents while `gate`'s worth of calls are in flight. `local` (an Executor,
    e.g. a process pool) runs the local work (rendering pixels, probes); None: a thread."""
    from workbench.core.case import sha256_hex

    gate = gate or contextlib.nullcontext()

    spec = reader if isinstance(reader, ReaderSpec) else parse_reader(reader)
    modality = modality or default_modality(spec)
    options = check_options(options)
    pdf = pdf_bytes if pdf_bytes is not None else _read_pdf(case)
    pdf_sha = sha256_hex(pdf)
    prompt = prompt or default_prompt(case)
    started_at = utc_now()

    if spec.is_probe:
        from workbench.providers.probes import probe_answer, probe_modality

        modality = probe_modality(spec.model)
        dpi = (dpi or DEFAULT_DPI) if modality == "pixels" else None
        store = AnswerCache() if cache and spec.model == "ocr" else None
        key = cache_key(pdf_sha, str(spec), modality, dpi, "", {}, None)
        hit = store.get(key) if store else None
        if hit:
            return _from_cache(hit, case, prompt, started_at)
        async with gate:
            t0 = time.monotonic()
            answer = await asyncio.get_running_loop().run_in_executor(local, probe_answer, spec.model, pdf, dpi)
        rec = _record(case, pdf_sha, str(spec), modality, dpi, prompt,
                      ReadResult("ok", answer, "stop"), (time.monotonic() - t0) * 1000, 1, started_at)
        if store:
            store.put(key, rec)
        return rec

    if modality not in MODALITIES:
        raise UserError(f"unknown modality {modality!r}; choose one of {', '.join(MODALITIES)}")
    mod = adapter(spec.provider)
    if modality == "pdf" and not mod.takes_pdf:
        raise UserError(f"{spec.provider} takes page images, not PDF files: use --modality pixels or text")
    dpi = (dpi or DEFAULT_DPI) if modality == "pixels" else None
    key_value = config.api_key(spec.provider)
    url = config.base_url(spec.provider, base_url)
    store = AnswerCache() if cache else None
    ckey = cache_key(pdf_sha, str(spec), modality, dpi, prompt, options, url)
    if store:
        hit = store.get(ckey)
        if hit:
            return _from_cache(hit, case, prompt, started_at)

    parts = await asyncio.get_running_loop().run_in_executor(local, prepare_parts, pdf, modality, dpi)
    req = ReadRequest(prompt, parts, int(options.get("max_tokens", DEFAULT_MAX_TOKENS)),
                      options.get("temperature"))
    call = mod.build(req, spec.model, url, key_value)
    policy = policy or RetryPolicy.from_env()
    async with gate:
        t0 = time.monotonic()
        if client is None:
            import httpx

            async with httpx.AsyncClient(verify=not url.startswith("http://")) as own:
                result, attempts = await call_http(own, mod, call, policy)
        else:
            result, attempts = await call_http(client, mod, call, policy)
    rec = _record(case, pdf_sha, str(spec), modality, dpi, prompt, result,
                  (time.monotonic() - t0) * 1000, attempts, started_at)
    if modality == "text":
        rec.extra["extractor"] = "pymupdf"
    if store:
        store.put(ckey, rec)
    return rec


def _read_pdf(case: Case) -> bytes:
    from workbench.pdf.document import read_pdf_bytes

    return read_pdf_bytes(case.pdf_file)


def _from_cache(hit: RunRecord, case: Case, prompt: str, started_at: str) -> RunRecord:
    hit.case_id, hit.key_sha256, hit.trap_family = case.id, case.key_sha256(), case.trap_family
    hit.prompt = prompt
    hit.extra = {**hit.extra, "cached": True, "cached_from": hit.started_at}
    hit.started_at = started_at
    hit.run_id = None
    hit.suite = None
    return hit
