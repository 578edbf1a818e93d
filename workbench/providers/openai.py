"""OpenAI Chat Completions: the PDF as a `file` part, pages as `image_url` parts."""

from __future__ import annotations

from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers.base import (
    HttpCall,
    ProviderError,
    ReadRequest,
    ReadResult,
    get_path,
    usage_dict,
)
from workbench.providers.retry import NO_RETRY_CODES

name = "openai"
takes_pdf = True
structured = "response_format json_schema"
# Not strict: strict mode refuses schemas with optional fields or `format`, which extraction keys have.
SCHEMA_NAME = "answer"


def content_parts(req: ReadRequest, allow_file: bool = True) -> list[JSONObject]:
    parts: list[JSONObject] = []
    for p in req.parts:
        if p.kind == "pdf":
            if not allow_file:
                raise ValueError("this server takes no file parts")
            parts.append({"type": "file", "file": {"filename": p.filename or "document.pdf",
                                                   "file_data": p.data_url()}})
        elif p.kind == "image":
            parts.append({"type": "image_url", "image_url": {"url": p.data_url(), "detail": "high"}})
        elif p.kind == "text":
            parts.append({"type": "text", "text": p.text})
    parts.append({"type": "text", "text": req.prompt})
    return parts


def chat_body(req: ReadRequest, model: str, allow_file: bool = True) -> JSONObject:
    body: JSONObject = {
        "model": model,
        "messages": [{"role": "user", "content": content_parts(req, allow_file)}],
        "max_completion_tokens": req.max_tokens,
    }
    if req.temperature is not None:
        body["temperature"] = req.temperature
    if req.schema is not None:
        schema = {k: v for k, v in req.schema.items() if k != "$schema"}
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": SCHEMA_NAME, "schema": schema, "strict": False}}
    return body


def build(req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall:
    headers = {"content-type": "application/json"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    return HttpCall(f"{base_url}/chat/completions", headers, chat_body(req, model))


def parse(body: Any, headers: dict[str, str]) -> ReadResult:
    msg = get_path(body, "choices", 0, "message")
    if not isinstance(msg, dict):
        raise ValueError("no choices[0].message in the response")
    finish = get_path(body, "choices", 0, "finish_reason")
    u = body.get("usage")
    usage = None
    if isinstance(u, dict):
        usage = usage_dict(
            input_tokens=u.get("prompt_tokens"), output_tokens=u.get("completion_tokens"),
            total_tokens=u.get("total_tokens"),
            cache_read_tokens=get_path(u, "prompt_tokens_details", "cached_tokens"),
            reasoning_tokens=get_path(u, "completion_tokens_details", "reasoning_tokens"),
        )
    content = msg.get("content")
    refusal = msg.get("refusal")
    rid = headers.get("x-request-id") or body.get("id")
    if refusal:
        return ReadResult("refused", str(refusal), finish, usage, rid)
    if finish == "content_filter":
        return ReadResult("blocked", content if isinstance(content, str) else None, finish, usage, rid)
    if finish == "length":
        return ReadResult("truncated", content if isinstance(content, str) else None, finish, usage, rid)
    if content is not None and not isinstance(content, str):
        raise ValueError("choices[0].message.content is not text")
    return ReadResult("ok", content or "", finish, usage, rid)


def parse_error(status: int, body: Any) -> ProviderError:
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict):
        code = err.get("code")
        code = str(code) if code is not None else None
        etype = err.get("type")
        return ProviderError(
            type=str(etype) if etype else code, message=str(err.get("message") or ""), code=code,
            no_retry=(code in NO_RETRY_CODES or etype in NO_RETRY_CODES),
        )
    if isinstance(err, str):  # some OpenAI-compatible servers
        return ProviderError(message=err)
    return ProviderError(message=str(body)[:500] if body else "")
