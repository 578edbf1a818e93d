"""Ollama `/api/chat` with `stream: false` and page images (base64, no data URL prefix)."""

from __future__ import annotations

from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers.base import HttpCall, ProviderError, ReadRequest, ReadResult, usage_dict

name = "ollama"
takes_pdf = False
structured = "format json schema"


def build(req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall:
    images = [p.b64() for p in req.parts if p.kind == "image"]
    texts = [p.text for p in req.parts if p.kind == "text"]
    if any(p.kind == "pdf" for p in req.parts):
        raise ValueError("ollama takes no PDF files")
    message: JSONObject = {"role": "user", "content": "\n\n".join([*texts, req.prompt])}
    if images:
        message["images"] = images
    options: JSONObject = {"num_predict": req.max_tokens}
    if req.temperature is not None:
        options["temperature"] = req.temperature
    headers = {"content-type": "application/json"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    body: JSONObject = {"model": model, "messages": [message], "stream": False, "options": options}
    if req.schema is not None:
        body["format"] = {k: v for k, v in req.schema.items() if k != "$schema"}
    return HttpCall(f"{base_url}/api/chat", headers, body)


def parse(body: Any, headers: dict[str, str]) -> ReadResult:
    msg = body.get("message") if isinstance(body, dict) else None
    if not isinstance(msg, dict) or not isinstance(msg.get("content"), str):
        raise ValueError("no message.content in the response")
    done = body.get("done_reason")
    inp, out = body.get("prompt_eval_count"), body.get("eval_count")
    usage = None
    if inp is not None or out is not None:
        total = inp + out if isinstance(inp, int) and isinstance(out, int) else None
        usage = usage_dict(input_tokens=inp, output_tokens=out, total_tokens=total)
    status = "truncated" if done == "length" else "ok"
    return ReadResult(status, msg["content"], done, usage, None)


def parse_error(status: int, body: Any) -> ProviderError:
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        return ProviderError(message=body["error"])
    return ProviderError(message=str(body)[:500] if body else "")
