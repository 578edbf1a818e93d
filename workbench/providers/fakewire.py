"""The fake provider's answers in each provider's own wire format (OpenAI and OpenAI-compatible
chat completions, Anthropic messages, Gemini generateContent, Ollama chat): what a request holds,
the answer or the error it gets, the structured-output settings a provider would refuse, and a
careless server's echo of the key (`fakeserver.FakeServer` serves them)."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from workbench.core.schema import JSONObject


def _data_url_bytes(url: str) -> bytes:
    _, _, b64 = url.partition("base64,")
    return base64.b64decode(b64) if b64 else b""


def contents(fmt: str, body: JSONObject) -> tuple[list[bytes], list[str], int]:
    """PDFs, texts and the number of images in a request, whatever its wire format."""
    pdfs: list[bytes] = []
    texts: list[str] = []
    images = 0
    if fmt == "openai":
        for msg in body.get("messages") or []:
            content = msg.get("content")
            if isinstance(content, str):
                texts.append(content)
                continue
            for part in content or []:
                if part.get("type") == "text":
                    texts.append(part.get("text", ""))
                elif part.get("type") == "file":
                    pdfs.append(_data_url_bytes(part.get("file", {}).get("file_data", "")))
                elif part.get("type") == "image_url":
                    images += 1
    elif fmt == "anthropic":
        for msg in body.get("messages") or []:
            content = msg.get("content")
            for block in [content] if isinstance(content, str) else content or []:
                if isinstance(block, str):
                    texts.append(block)
                elif block.get("type") == "text":
                    texts.append(block.get("text", ""))
                elif block.get("type") == "document":
                    pdfs.append(base64.b64decode(block["source"]["data"]))
                elif block.get("type") == "image":
                    images += 1
    elif fmt == "google":
        for content in body.get("contents") or []:
            for part in content.get("parts") or []:
                if "text" in part:
                    texts.append(part["text"])
                elif "inlineData" in part:
                    data = part["inlineData"]
                    if data.get("mimeType") == "application/pdf":
                        pdfs.append(base64.b64decode(data.get("data", "")))
                    else:
                        images += 1
    elif fmt == "ollama":
        for msg in body.get("messages") or []:
            texts.extend(p for p in str(msg.get("content", "")).split("\n\n") if p)
            images += len(msg.get("images") or [])
    return pdfs, texts, images


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def structured_tool(fmt: str, body: JSONObject) -> str | None:
    """The tool an Anthropic request forces (its structured output), else None."""
    choice = body.get("tool_choice") if fmt == "anthropic" else None
    return choice.get("name") if isinstance(choice, dict) and choice.get("type") == "tool" else None


_SCHEMA_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_GEMINI_TYPES = {"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"}
_GEMINI_SCHEMA_KEYS = {"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
                       "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength",
                       "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}


def _gemini_schema_problem(schema: Any, where: str) -> str | None:
    if not isinstance(schema, dict):
        return f"{where}: a Schema is an object"
    for key in schema:
        if key not in _GEMINI_SCHEMA_KEYS:
            return f'Invalid JSON payload received. Unknown name "{key}" at \'{where}\': Cannot find field.'
    if str(schema.get("type", "")).upper() not in _GEMINI_TYPES:
        return f"{where}.type: invalid value {schema.get('type')!r}"
    for name, sub in (schema.get("properties") or {}).items():
        problem = _gemini_schema_problem(sub, f"{where}.properties[{name}].value")
        if problem:
            return problem
    if "items" in schema:
        return _gemini_schema_problem(schema["items"], f"{where}.items")
    return None


def structured_problem(fmt: str, body: JSONObject) -> str | None:
    """What the provider would refuse in a request's structured-output settings, or None."""
    if fmt == "openai" and "response_format" in body:
        rf = body["response_format"]
        if not isinstance(rf, dict) or rf.get("type") not in ("text", "json_object", "json_schema"):
            return "response_format.type must be text, json_object or json_schema"
        if rf["type"] == "json_schema":
            js = rf.get("json_schema")
            if not isinstance(js, dict) or not _SCHEMA_NAME.match(str(js.get("name", ""))):
                return "response_format.json_schema.name is required: letters, digits, _ and -, up to 64"
            if not isinstance(js.get("schema"), dict):
                return "response_format.json_schema.schema must be an object"
    if fmt == "anthropic" and ("tools" in body or "tool_choice" in body):
        tools = body.get("tools")
        if not isinstance(tools, list) or not tools:
            return "tools: a non-empty list is required with tool_choice"
        names = set()
        for i, tool in enumerate(tools):
            schema = tool.get("input_schema") if isinstance(tool, dict) else None
            if not isinstance(schema, dict) or schema.get("type") != "object":
                return f"tools.{i}.input_schema: input_schema must describe an object (type: object)"
            names.add(tool.get("name"))
        choice = body.get("tool_choice")
        if isinstance(choice, dict) and choice.get("type") == "tool" and choice.get("name") not in names:
            return f"tool_choice.name: no tool named {choice.get('name')!r}"
    if fmt == "google":
        gen = body.get("generationConfig") or {}
        if "responseSchema" in gen:
            if gen.get("responseMimeType") != "application/json":
                return "responseSchema needs responseMimeType application/json"
            return _gemini_schema_problem(gen["responseSchema"], "generation_config.response_schema")
    return None


def bad_request(fmt: str, message: str) -> tuple[int, dict[str, str], Any]:
    if fmt == "anthropic":
        return 400, {}, {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
    if fmt == "google":
        return 400, {}, {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
    return 400, {}, {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}


def success(fmt: str, model: str, n: int, answer: str, finish: str, in_tokens: int,
             tool: str | None = None) -> JSONObject:
    out_tokens = _tokens(answer)
    if fmt == "openai":
        reason = {"stop": "stop", "truncated": "length", "blocked": "content_filter"}.get(finish, "stop")
        msg: JSONObject = {"role": "assistant", "content": answer, "refusal": None}
        if finish == "refusal":
            msg = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
        return {"id": f"chatcmpl-fake{n}", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "message": msg, "finish_reason": reason, "logprobs": None}],
                "usage": {"prompt_tokens": in_tokens, "completion_tokens": out_tokens,
                          "total_tokens": in_tokens + out_tokens,
                          "prompt_tokens_details": {"cached_tokens": 0},
                          "completion_tokens_details": {"reasoning_tokens": 0}}}
    if fmt == "anthropic":
        reason = {"truncated": "max_tokens", "blocked": "refusal", "refusal": "refusal"}.get(finish, "end_turn")
        content: list[JSONObject] = [{"type": "text", "text": answer}]
        if tool and reason == "end_turn":
            try:
                data = json.loads(answer)
            except ValueError:
                data = {"answer": answer}
            content = [{"type": "tool_use", "id": f"toolu_fake{n}", "name": tool,
                        "input": data if isinstance(data, dict) else {"answer": data}}]
            reason = "tool_use"
        return {"id": f"msg_fake{n}", "type": "message", "role": "assistant", "model": model,
                "content": content, "stop_reason": reason, "stop_sequence": None,
                "usage": {"input_tokens": in_tokens, "output_tokens": out_tokens,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
    if fmt == "google":
        usage = {"promptTokenCount": in_tokens, "candidatesTokenCount": out_tokens,
                 "thoughtsTokenCount": 7, "totalTokenCount": in_tokens + out_tokens + 7}
        if finish == "blocked":
            return {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": usage, "responseId": f"fake{n}"}
        reason = {"truncated": "MAX_TOKENS", "safety": "SAFETY", "refusal": "SAFETY"}.get(finish, "STOP")
        parts = [{"text": "Let me look at the document first.", "thought": True}, {"text": answer}]
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": reason,
                                "index": 0}],
                "usageMetadata": usage, "modelVersion": model, "responseId": f"fake{n}"}
    reason = "length" if finish == "truncated" else "stop"
    return {"model": model, "created_at": "1970-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": answer}, "done": True, "done_reason": reason,
            "prompt_eval_count": in_tokens, "eval_count": out_tokens}


def echo_headers(key: str | None) -> dict[str, str]:
    """Every header a provider puts an id or a note in, each carrying the key."""
    return {"x-request-id": f"req_{key}", "request-id": f"req_{key}", "x-goog-request-id": f"{key}",
            "openai-organization": f"org-{key}", "x-echo": f"you sent {key}"}


def echo_everywhere(fmt: str, body: Any, key: str | None) -> Any:
    """`body` (an answer or an error, in `fmt`'s shape) with the key in every field that carries
    text, the way a careless server (or a proxy's error page) echoes what it got. The shape stays
    readable: a status word keeps its known value in front (`"end_turn sk-..."`)."""
    def with_key(value: Any) -> str:
        return f"{value} {key}" if value not in (None, "") else f"{key}"

    body = json.loads(json.dumps(body))
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict):
        for field in ("message", "type", "code", "param", "status"):
            if field in err or fmt != "google":
                err[field] = with_key(err.get(field))
        if fmt == "google":
            err["details"] = [*(err.get("details") or []), {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": with_key("API_KEY_INVALID"),
                "metadata": {"key": f"{key}", f"{key}": "echo"}}]
        if fmt == "anthropic":
            body["request_id"] = f"req_{key}"
        return body
    if isinstance(err, str):   # ollama
        return {"error": with_key(err)}
    if not isinstance(body, dict):
        return body
    body["model"] = with_key(body.get("model"))
    if fmt == "openai":
        body["id"], body["system_fingerprint"] = with_key(body.get("id")), f"fp_{key}"
        for choice in body.get("choices") or []:
            choice["finish_reason"] = with_key(choice.get("finish_reason"))
            msg = choice.get("message") or {}
            if isinstance(msg.get("content"), str):
                msg["content"] = with_key(msg["content"])
        body.setdefault("usage", {})[f"{key}"] = 1
    elif fmt == "anthropic":
        body["id"], body["stop_reason"] = with_key(body.get("id")), with_key(body.get("stop_reason"))
        body["stop_sequence"] = f"{key}"
        for block in body.get("content") or []:
            if block.get("type") == "text":
                block["text"] = with_key(block.get("text"))
            elif block.get("type") == "tool_use" and isinstance(block.get("input"), dict):
                block["id"], block["input"]["note"] = with_key(block.get("id")), f"{key}"
        body.setdefault("usage", {})[f"{key}"] = 1
    elif fmt == "google":
        body["responseId"], body["modelVersion"] = with_key(body.get("responseId")), with_key(body.get("modelVersion"))
        for cand in body.get("candidates") or []:
            cand["finishReason"] = with_key(cand.get("finishReason"))
            for part in (cand.get("content") or {}).get("parts") or []:
                if "text" in part and not part.get("thought"):
                    part["text"] = with_key(part["text"])
        if "promptFeedback" in body:
            body["promptFeedback"]["blockReason"] = with_key(body["promptFeedback"].get("blockReason"))
        body.setdefault("usageMetadata", {})[f"{key}"] = 1
    else:   # ollama
        body["done_reason"] = with_key(body.get("done_reason"))
        body["message"]["content"] = with_key(body["message"].get("content"))
    return body


def error_reply(fmt: str, kind: str, hint_s: float, key: str | None) -> tuple[int, dict[str, str], Any]:
    """Status, headers and body of a fault, in the provider's own error shape."""
    code = int(kind[:3])
    headers: dict[str, str] = {}
    if kind == "429-retry-after-ms":
        headers["retry-after-ms"] = str(int(hint_s * 1000))
    elif kind == "429-retry-after":
        headers["retry-after"] = f"{hint_s:g}"
    elif kind == "429-long":
        headers["retry-after"] = "600"
    message = {
        400: "Invalid request.", 401: f"Incorrect API key provided: {key}.", 403: "Permission denied.",
        404: "Model not found.", 408: "Request timed out.", 409: "Conflict, please retry.",
        429: "Rate limit reached, please retry.", 500: "The server had an error.",
        502: "Bad gateway.", 503: "Service unavailable.", 529: "Overloaded.",
    }[code]
    if kind == "429-quota":
        message = "You exceeded your current quota, please check your plan and billing details."
        if fmt == "anthropic":  # Anthropic says so with a 400
            code, message = 400, "Your credit balance is too low to access the Anthropic API."
        elif fmt == "google":
            kind = "429-perday"
    if fmt == "openai":
        etype, ecode = {
            401: ("invalid_request_error", "invalid_api_key"), 429: ("requests", "rate_limit_exceeded"),
        }.get(code, ("server_error" if code >= 500 else "invalid_request_error", None))
        if kind == "429-quota":
            etype, ecode = "insufficient_quota", "insufficient_quota"
        return code, headers, {"error": {"message": message, "type": etype, "param": None, "code": ecode}}
    if fmt == "anthropic":
        etype = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                 404: "not_found_error", 429: "rate_limit_error", 529: "overloaded_error"}.get(code, "api_error")
        return code, headers, {"type": "error", "error": {"type": etype, "message": message}}
    if fmt == "google":
        gstatus = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                   404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 503: "UNAVAILABLE"}.get(code, "INTERNAL")
        details: list[JSONObject] = []
        if kind == "429-retryinfo":
            details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo",
                            "retryDelay": f"{hint_s:g}s"})
        if kind == "429-perday":
            details.append({"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
                {"quotaMetric": "generate_content_requests", "quotaId": "GenerateRequestsPerDayPerProject"}]})
        return code, headers, {"error": {"code": code, "message": message, "status": gstatus, "details": details}}
    return code, headers, {"error": message}
