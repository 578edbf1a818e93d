"""One model call: prepare the document for the modality, call the provider with retries, and
return a `RunRecord`. Provider failures become statuses; only user mistakes raise."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

import httpx

from workbench.core import limits
from workbench.core.case import Case, sha256_hex
from workbench.core.errors import UserError
from workbench.core.prompt import default_prompt
from workbench.core.runs import MODALITIES, CallError, RunRecord, utc_now
from workbench.core.schema import JSONObject
from workbench.pdf.document import open_fitz, read_case_pdf, render_dpi
from workbench.pdf.render import check_renderable
from workbench.pdf.textlayer import text_pymupdf
from workbench.providers import config, extractors
from workbench.providers.adapters import adapter, check_options, default_modality
from workbench.providers.agent.loop import agent_prompt, hashes, run_agent
from workbench.providers.agent.tools import DocumentFacts
from workbench.providers.base import (
    DEFAULT_DPI,
    DEFAULT_MAX_TOKENS,
    Adapter,
    HttpCall,
    Part,
    ReaderOptions,
    ReaderSpec,
    ReadRequest,
    ReadResult,
    document_text,
    parse_reader,
)
from workbench.providers.cache import AnswerCache, cache_key
from workbench.providers.exchange import MAX_ERROR_TEXT, BodyTooLarge, body_value, exchange
from workbench.providers.extractors import SLOW as CACHED_PROBES
from workbench.providers.probes import check_probe, probe_answer
from workbench.providers.retry import RetryPolicy, decide


def structured_schema(case: Case, mod: Adapter, options: ReaderOptions) -> JSONObject | None:
    """The schema to send as structured output: an extraction case's, when the adapter takes one
    and the options do not turn it off (`--no-structured`)."""
    if options.get("structured", True) is False or not getattr(mod, "structured", None):
        return None
    return case.answer_schema


def read_request(case: Case, parts: list[Part], prompt: str, options: ReaderOptions, mod: Adapter) -> ReadRequest:
    """The request a reader gets: a live call's and a provider batch's are built by this one function."""
    return ReadRequest(prompt, parts, int(options.get("max_tokens", DEFAULT_MAX_TOKENS)),
                       options.get("temperature"), schema=structured_schema(case, mod, options))


def cache_options(case: Case, mod: Adapter, options: ReaderOptions) -> JSONObject:
    """The options as the answer cache keys them: how the schema is sent counts (it changes the call)."""
    schema = structured_schema(case, mod, options)
    return {**options, "structured": mod.structured} if schema else {k: v for k, v in options.items()
                                                                       if k != "structured"}


def prepare_parts(pdf: bytes, modality: str, dpi: int | None) -> list[Part]:
    """The document as the reader gets it: the file, every page as PNG, or the text layer."""
    if modality == "pdf":
        # A neutral filename: the case id would tell the model which trap it faces.
        return [Part("pdf", data=pdf, mime="application/pdf", filename="document.pdf")]
    if modality == "pixels":
        doc = open_fitz(pdf)
        try:
            for i in range(doc.page_count):  # (a page MuPDF would draw for minutes: refused first)
                check_renderable(doc, i)
            return [Part("image", data=page.get_pixmap(dpi=render_dpi(page, dpi or DEFAULT_DPI),
                                                       alpha=False).tobytes("png"),
                         mime="image/png", filename=f"page-{i}.png") for i, page in enumerate(doc, 1)]
        finally:
            doc.close()
    if modality == "text":
        return [Part("text", text=document_text(text_pymupdf(pdf)))]
    raise UserError(f"unknown modality {modality!r}; choose one of {', '.join(MODALITIES)}")


def _error(etype: str | None, message: str, http_status: int | None = None,
           code: str | None = None) -> CallError:
    return CallError(etype, (message or "")[:MAX_ERROR_TEXT], http_status, code)


def redact_result(result: ReadResult, keys: list[str]) -> ReadResult:
    """Every string of the result (answer, finish reason, request id, every field of the error,
    usage, extras) with every key in the process redacted: what a provider sends back may echo
    the key anywhere, and nothing it sends reaches a record, the cache or a screen otherwise."""
    return config.redact_all(result, keys)


async def call_http(client: httpx.AsyncClient, mod: Adapter, call: HttpCall, policy: RetryPolicy) -> tuple[ReadResult, int]:
    """POST the call, retrying by the policy. Returns the result, redacted (`redact_result`),
    and the number of attempts.

    Each attempt has a total deadline (`policy.timeout_s`, for connecting, sending and reading the
    whole body, so a server dripping a byte a second cannot stretch it), and the whole call has
    one (`policy.deadline_s`) that no retry, wait or slow body extends. A body larger than
    `policy.max_body_bytes` is abandoned and recorded as an error. A refused connection on the
    first attempt ends the call at once: nobody is listening, and waiting will not change that."""
    result, attempts = await _call_with_retries(client, mod, call, policy)
    return redact_result(result, config.process_keys(*_call_keys(call))), attempts


async def _call_with_retries(client: httpx.AsyncClient, mod: Adapter, call: HttpCall,
                             policy: RetryPolicy) -> tuple[ReadResult, int]:
    started = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        status: int | None = None
        headers: dict[str, str] = {}
        hint: float | None = None
        no_retry = False
        budget = min(policy.timeout_s, policy.deadline_s - (time.monotonic() - started))
        if budget <= 0:
            return ReadResult("timeout", error=_error(
                "timeout", f"no answer within the call's deadline of {policy.deadline_s:g} s")), attempt - 1
        try:
            reply = await exchange(client, "POST", call.url, budget, policy.max_body_bytes,
                                   headers=call.headers, content=json.dumps(call.body))
        except (TimeoutError, httpx.TimeoutException):
            result = ReadResult("timeout", error=_error("timeout", f"no complete answer within {budget:.3g} s"))
        except BodyTooLarge as big:
            return ReadResult("error", error=_error("body_too_large", limits.exceeded(
                "provider_answer_bytes", f"the answer has {big.size:,} bytes or more"))), attempt
        except httpx.ConnectError as exc:
            result = ReadResult("error", error=_error("connect", f"cannot connect to {call.url}: {exc}"))
            if attempt == 1:
                return result, attempt
        except httpx.TransportError as exc:
            result = ReadResult("error", error=_error("network", f"{exc.__class__.__name__}: {exc}"))
        else:
            status, headers, raw = reply.status, reply.headers, reply.body
            rid = headers.get("x-request-id") or headers.get("request-id")
            if 200 <= status < 300:
                try:
                    result = mod.parse(json.loads(raw), headers)
                except (ValueError, UnicodeDecodeError, AttributeError, TypeError, RecursionError) as exc:
                    result = ReadResult("error", request_id=rid, error=_error(
                        "malformed_response", f"the provider's answer could not be read: {exc}", status))
                return result, attempt
            perr = mod.parse_error(status, body_value(raw))
            hint, no_retry = perr.retry_delay_s, perr.no_retry
            result = ReadResult("error", request_id=rid, error=_error(
                perr.type or f"http_{status}", perr.message or reply.reason or f"HTTP {status}", status, perr.code))
        wait = decide(status, headers, hint, no_retry, attempt, policy, time.monotonic() - started)
        if wait is None:
            return result, attempt
        await asyncio.sleep(wait)


def _call_keys(call: HttpCall) -> list[str]:
    """The key a call carries (whatever header or query parameter its adapter put it in)."""
    out = []
    for name, value in (call.headers or {}).items():
        if name.lower() in ("authorization", "x-api-key", "x-goog-api-key", "api-key"):
            out.append(str(value).removeprefix("Bearer ").strip())
    if "key=" in call.url:
        out.append(call.url.split("key=", 1)[1].split("&", 1)[0])
    return out


def _record(case: Case, pdf_sha: str, reader: str, modality: str, dpi: int | None, prompt: str,
            result: ReadResult, latency_ms: float, attempts: int, started_at: str) -> RunRecord:
    return RunRecord(
        case_id=case.id, case_sha256=pdf_sha, key_sha256=case.key_sha256(), reader=reader,
        modality=modality, dpi=dpi, prompt=prompt, answer=result.answer, status=result.status,
        error=result.error.to_json() if result.error else None, finish_reason=result.finish_reason, latency_ms=round(latency_ms, 1),
        attempts=attempts, usage=result.usage, request_id=result.request_id, started_at=started_at,
        trap_family=case.trap_family, extra={},
    )


async def read(case: Case, pdf_bytes: bytes | None, reader: str | ReaderSpec, modality: str | None = None,
               dpi: int | None = DEFAULT_DPI, prompt: str | None = None,
               options: Mapping[str, Any] | None = None, cache: bool = True, *,
               client: httpx.AsyncClient | None = None, base_url: str | None = None,
               policy: RetryPolicy | None = None, gate: asyncio.Semaphore | None = None,
               local: Executor | None = None, facts: DocumentFacts | None = None) -> RunRecord:
    """Ask `reader` the case's question about the PDF; see the module docstring of
    `workbench.providers` for the contract. Cancelling the awaiting task cancels the call.

    `gate` (an asyncio.Semaphore) is held only around the model call itself, so a run can
    prepare the next documents while `gate`'s worth of calls are in flight. `local` (an Executor,
    e.g. a process pool) runs the local work (rendering pixels, probes); None: a thread. `facts`:
    an agent reader's document already read (`agent.tools.read_document`)."""
    gate = gate or contextlib.nullcontext()

    spec = reader if isinstance(reader, ReaderSpec) else parse_reader(reader)
    modality = modality or default_modality(spec)
    options = check_options(options)
    pdf = pdf_bytes if pdf_bytes is not None else _read_pdf(case)
    pdf_sha = sha256_hex(pdf)
    prompt_arg = prompt
    prompt = prompt or default_prompt(case)
    started_at = utc_now()

    if spec.is_agent:
        if modality != "tools":
            raise UserError(f"{spec} reads the document through its tools: leave out --modality")
        return await _read_agent(case, pdf, spec, prompt_arg, options, cache, client, base_url, policy, gate, facts)

    if spec.is_probe:
        modality = extractors.modality(spec.model)
        dpi = (dpi or DEFAULT_DPI) if modality == "pixels" else None
        check_probe(spec.model)
        library = extractors.version(spec.model)
        # the fast text extractors are cheaper to rerun than to look up; OCR and the layout
        # extractors are not (keyed by the library's version, so an upgrade reads afresh)
        store = AnswerCache() if cache and spec.model in CACHED_PROBES else None
        key = cache_key(pdf_sha, str(spec), modality, dpi, "", {"version": library}, None)
        hit = store.get(key) if store else None
        if hit:
            return from_cache(hit, case, prompt, started_at)
        async with gate:
            t0 = time.monotonic()
            answer = await asyncio.get_running_loop().run_in_executor(local, probe_answer, spec.model, pdf, dpi)
        rec = _record(case, pdf_sha, str(spec), modality, dpi, prompt,
                      ReadResult("ok", answer, "stop"), (time.monotonic() - t0) * 1000, 1, started_at)
        rec.extra.update(extractor=spec.model, extractor_version=library)
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
    ckey = cache_key(pdf_sha, str(spec), modality, dpi, prompt, cache_options(case, mod, options), url)
    if store:
        hit = store.get(ckey)
        if hit:
            return from_cache(hit, case, prompt, started_at)

    parts = await asyncio.get_running_loop().run_in_executor(local, prepare_parts, pdf, modality, dpi)
    req = read_request(case, parts, prompt, options, mod)
    call = mod.build(req, spec.model, url, key_value)
    policy = policy or RetryPolicy.from_env()
    async with gate:
        t0 = time.monotonic()
        if client is None:
            async with httpx.AsyncClient(verify=not url.startswith("http://")) as own:
                result, attempts = await call_http(own, mod, call, policy)
        else:
            result, attempts = await call_http(client, mod, call, policy)
    rec = _record(case, pdf_sha, str(spec), modality, dpi, prompt, result,
                  (time.monotonic() - t0) * 1000, attempts, started_at)
    if modality == "text":
        rec.extra["extractor"] = "pymupdf"
    if req.schema is not None:
        rec.extra["structured_output"] = mod.structured
    if store:
        store.put(ckey, rec)
    return rec


async def _read_agent(case: Case, pdf: bytes, spec: ReaderSpec, prompt: str | None, options: ReaderOptions,
                      cache: bool, client: httpx.AsyncClient | None, base_url: str | None,
                      policy: RetryPolicy | None, gate: asyncio.Semaphore | contextlib.nullcontext[None],
                      facts: DocumentFacts | None) -> RunRecord:
    """An agent reader's case: the tool loop (`providers.agent.loop`), cached like any answer
    (keyed by the three hashes too, so a changed tool, prompt or loop asks again)."""
    config.api_key(spec.inner.provider)
    url = config.base_url(spec.inner.provider, base_url)
    started_at = utc_now()
    store = AnswerCache() if cache else None
    ckey = cache_key(sha256_hex(pdf), str(spec), "tools", None, agent_prompt(case, prompt),
                     {**options, **hashes(prompt, options)}, url)
    hit = store.get(ckey) if store else None
    if hit:
        return from_cache(hit, case, hit.prompt, started_at)
    policy = policy or RetryPolicy.from_env()
    if client is None:
        async with httpx.AsyncClient(verify=not url.startswith("http://")) as own:
            rec = await run_agent(case, pdf, spec, prompt, options, own, base_url, policy, call_http, gate, facts)
    else:
        rec = await run_agent(case, pdf, spec, prompt, options, client, base_url, policy, call_http, gate, facts)
    if store:
        store.put(ckey, rec)
    return rec


def _read_pdf(case: Case) -> bytes:
    return read_case_pdf(case)


def from_cache(hit: RunRecord, case: Case, prompt: str, started_at: str) -> RunRecord:
    hit.case_id, hit.key_sha256, hit.trap_family = case.id, case.key_sha256(), case.trap_family
    hit.prompt = prompt
    hit.extra = {**hit.extra, "cached": True, "cached_from": hit.started_at}
    hit.started_at = started_at
    hit.run_id = None
    hit.suite = None
    return hit
