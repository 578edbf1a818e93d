"""Google Gemini generateContent: every piece as an `inlineData` part."""

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
from workbench.providers.retry import parse_duration

name = "google"
takes_pdf = True
structured = "responseSchema"
# The OpenAPI subset Gemini's responseSchema takes; other JSON Schema keywords are dropped.
SCHEMA_KEYS = ("description", "enum", "nullable", "required", "minItems", "maxItems", "minimum",
               "maximum", "propertyOrdering")
SCHEMA_FORMATS = ("enum", "date-time", "float", "double", "int32", "int64")
BLOCK_FINISHES = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}


def build(req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall:
    parts: list[JSONObject] = []
    for p in req.parts:
        if p.kind in ("pdf", "image"):
            parts.append({"inlineData": {"mimeType": p.mime, "data": p.b64()}})
        elif p.kind == "text":
            parts.append({"text": p.text})
    parts.append({"text": req.prompt})
    gen: JSONObject = {"maxOutputTokens": req.max_tokens}
    if req.temperature is not None:
        gen["temperature"] = req.temperature
    if req.schema is not None:
        gen["responseMimeType"] = "application/json"
        gen["responseSchema"] = response_schema(req.schema)
    body = {"contents": [{"role": "user", "parts": parts}], "generationConfig": gen}
    headers = {"content-type": "application/json"}
    if key:
        headers["x-goog-api-key"] = key
    model = model.removeprefix("models/")
    return HttpCall(f"{base_url}/v1beta/models/{model}:generateContent", headers, body)


def response_schema(schema: Any) -> JSONObject:
    """A JSON Schema as Gemini's `Schema`: upper-case types, `["string", "null"]` as nullable."""
    if not isinstance(schema, dict):
        return {"type": "STRING"}
    out: JSONObject = {}
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) < len(kind):
            out["nullable"] = True
        kind = kinds[0] if kinds else "string"
    out["type"] = str(kind or ("object" if "properties" in schema else "string")).upper()
    for key in SCHEMA_KEYS:
        if key in schema:
            out[key] = schema[key]
    if schema.get("format") in SCHEMA_FORMATS:
        out["format"] = schema["format"]
    if isinstance(schema.get("properties"), dict):
        out["properties"] = {k: response_schema(v) for k, v in schema["properties"].items()}
    if "items" in schema:
        out["items"] = response_schema(schema["items"])
    return out


def parse(body: Any, headers: dict[str, str]) -> ReadResult:
    if not isinstance(body, dict):
        raise ValueError("the response is not a JSON object")
    u = body.get("usageMetadata")
    usage = None
    if isinstance(u, dict):
        usage = usage_dict(input_tokens=u.get("promptTokenCount"), output_tokens=u.get("candidatesTokenCount"),
                           total_tokens=u.get("totalTokenCount"), reasoning_tokens=u.get("thoughtsTokenCount"),
                           cache_read_tokens=u.get("cachedContentTokenCount"))
    rid = body.get("responseId") or headers.get("x-goog-request-id")
    block = get_path(body, "promptFeedback", "blockReason")
    if block:
        return ReadResult("blocked", None, str(block), usage, rid)
    cand = get_path(body, "candidates", 0)
    if not isinstance(cand, dict):
        raise ValueError("no candidates in the response")
    finish = cand.get("finishReason")
    parts = get_path(cand, "content", "parts") or []
    text = "".join(p.get("text", "") for p in parts
                   if isinstance(p, dict) and not p.get("thought") and isinstance(p.get("text"), str))
    if finish in BLOCK_FINISHES:
        return ReadResult("blocked", text or None, finish, usage, rid)
    if finish == "MAX_TOKENS":
        return ReadResult("truncated", text, finish, usage, rid)
    return ReadResult("ok", text, finish, usage, rid)


def parse_error(status: int, body: Any) -> ProviderError:
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict):
        return ProviderError(message=str(body)[:500] if body else "")
    delay = None
    per_day = False
    for d in err.get("details") or []:
        if not isinstance(d, dict):
            continue
        if str(d.get("@type", "")).endswith("RetryInfo"):
            delay = parse_duration(d.get("retryDelay"))
        for v in d.get("violations") or []:
            if isinstance(v, dict) and "PerDay" in str(v.get("quotaId", "")):
                per_day = True
    estatus = err.get("status")
    return ProviderError(type=str(estatus) if estatus else None, message=str(err.get("message") or ""),
                         code=str(err.get("code")) if err.get("code") is not None else None,
                         retry_delay_s=delay, no_retry=per_day)
