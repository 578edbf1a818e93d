"""Anthropic Messages: the PDF as a `document` block, pages as `image` blocks."""

from __future__ import annotations

import json
from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers.base import HttpCall, ProviderError, ReadRequest, ReadResult, usage_dict
from workbench.providers.retry import NO_RETRY_CODES

name = "anthropic"
takes_pdf = True
API_VERSION = "2023-06-01"
structured = "tool input_schema"
TOOL = "answer"   # the one tool the model is made to call; its input is the answer


def build(req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall:
    blocks: list[JSONObject] = []
    for p in req.parts:
        if p.kind == "pdf":
            blocks.append({"type": "document",
                           "source": {"type": "base64", "media_type": "application/pdf", "data": p.b64()}})
        elif p.kind == "image":
            blocks.append({"type": "image", "source": {"type": "base64", "media_type": p.mime, "data": p.b64()}})
        elif p.kind == "text":
            blocks.append({"type": "text", "text": p.text})
    blocks.append({"type": "text", "text": req.prompt})
    body: JSONObject = {
        "model": model,
        "max_tokens": req.max_tokens,
        "messages": [{"role": "user", "content": blocks}],
    }
    if req.temperature is not None:
        body["temperature"] = req.temperature
    if req.schema is not None:
        body["tools"] = [{"name": TOOL, "description": "Give the answer as data following this schema.",
                          "input_schema": tool_schema(req.schema)}]
        body["tool_choice"] = {"type": "tool", "name": TOOL}
    headers = {"content-type": "application/json", "anthropic-version": API_VERSION}
    if key:
        headers["x-api-key"] = key
    return HttpCall(f"{base_url}/v1/messages", headers, body)


def tool_schema(schema: JSONObject) -> JSONObject:
    """A tool's input schema must describe an object; any other answer is wrapped in one."""
    schema = {k: v for k, v in schema.items() if k != "$schema"}
    if schema.get("type") == "object":
        return schema
    return {"type": "object", "properties": {"answer": schema}, "required": ["answer"]}


def parse(body: Any, headers: dict[str, str]) -> ReadResult:
    content = body.get("content") if isinstance(body, dict) else None
    if not isinstance(content, list):
        raise ValueError("no content list in the response")
    text = "".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    tool = next((b for b in content if isinstance(b, dict) and b.get("type") == "tool_use"
                 and b.get("name") == TOOL), None)
    if tool is not None:  # structured output: the tool's input is the answer, as JSON text
        text = json.dumps(tool.get("input"), ensure_ascii=False)
    stop = body.get("stop_reason")
    u = body.get("usage")
    usage = None
    if isinstance(u, dict):
        inp, out = u.get("input_tokens"), u.get("output_tokens")
        total = inp + out if isinstance(inp, int) and isinstance(out, int) else None
        usage = usage_dict(input_tokens=inp, output_tokens=out, total_tokens=total,
                           cache_read_tokens=u.get("cache_read_input_tokens"),
                           cache_creation_tokens=u.get("cache_creation_input_tokens"))
    rid = headers.get("request-id") or body.get("id")
    status = {"max_tokens": "truncated", "refusal": "refused"}.get(stop, "ok")
    return ReadResult(status, text, stop, usage, rid)


def parse_error(status: int, body: Any) -> ProviderError:
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict):
        etype = err.get("type")
        msg = str(err.get("message") or "")
        spent = "credit balance" in msg.lower() or "spend limit" in msg.lower()
        return ProviderError(type=etype, message=msg, code=etype,
                             no_retry=spent or etype in NO_RETRY_CODES)
    return ProviderError(message=str(body)[:500] if body else "")
