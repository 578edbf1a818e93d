"""Tool calling in each provider's native wire format: pure build/parse functions, no I/O.

Three formats: OpenAI chat `tool_calls` (also OpenAI-compatible servers and Ollama, through its
OpenAI-compatible endpoint), Anthropic `tool_use`/`tool_result`, Gemini
`functionCall`/`functionResponse`. A conversation is the provider's own message list; `parse`
returns the turn as a `ToolTurn`: a `ReadResult` (status, text, usage, as the plain adapters read
them) with the tool `calls` the model made and its `message` (appended to the conversation as it
came). Page images go back the way each format takes them: Anthropic
inside the tool result, the others as an image part after the results.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field, fields
from typing import Any

from workbench.core.schema import JSONObject
from workbench.providers import anthropic, google, openai
from workbench.providers.agent.tools import ToolResult, ToolSpec
from workbench.providers.base import HttpCall, ProviderError, ReadResult, get_path


@dataclass(frozen=True)
class Call:
    id: str
    name: str
    arguments: Any     # a dict when the model sent a JSON object; anything else is the tool's error


@dataclass
class ToolTurn(ReadResult):
    """A turn of the tool loop as `parse` reads it: the plain result, and what the model asked for."""

    calls: list[Call] = field(default_factory=list)
    message: JSONObject = field(default_factory=dict)   # the model's message, in its format

    @classmethod
    def of(cls, result: ReadResult, calls: list[Call], message: JSONObject) -> ToolTurn:
        return cls(**{f.name: getattr(result, f.name) for f in fields(ReadResult)}, calls=calls, message=message)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def calls_of(result: ReadResult) -> list[Call]:
    """The tool calls of a turn (none when the turn is an error of the call, not a parsed answer)."""
    return result.calls if isinstance(result, ToolTurn) else []


class OpenAIWire:
    """Chat completions with `tools` (function type); results as `role: tool` messages."""

    name = "openai"

    def __init__(self, path: str = "/chat/completions") -> None:
        self.path = path

    def start(self, prompt: str) -> list[JSONObject]:
        return [{"role": "user", "content": prompt}]

    def build(self, conv: list[JSONObject], tools: list[ToolSpec], model: str, base_url: str,
              key: str | None, max_tokens: int, temperature: float | None) -> HttpCall:
        body: JSONObject = {
            "model": model, "messages": conv, "max_completion_tokens": max_tokens,
            "tools": [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                                        "parameters": t["parameters"]}} for t in tools],
        }
        if temperature is not None:
            body["temperature"] = temperature
        headers = {"content-type": "application/json"}
        if key:
            headers["authorization"] = f"Bearer {key}"
        return HttpCall(f"{base_url}{self.path}", headers, body)

    def parse(self, body: Any, headers: dict[str, str]) -> ToolTurn:
        msg = get_path(body, "choices", 0, "message")
        if not isinstance(msg, dict):
            raise ValueError("no choices[0].message in the response")
        calls = []
        for i, tc in enumerate(msg.get("tool_calls") or []):
            fn = tc.get("function") if isinstance(tc, dict) else None
            if not isinstance(fn, dict):
                raise ValueError("a tool call without a function")
            args = fn.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args) if args.strip() else {}
                except ValueError:
                    pass   # left as text: the tool answers that it wants a JSON object
            calls.append(Call(str(tc.get("id") or f"call_{i}"), str(fn.get("name") or ""), args))
        result = openai.parse({**body, "choices": [{**body["choices"][0],
                                                    "message": {**msg, "content": msg.get("content") or ""}}]},
                              headers)
        return ToolTurn.of(result, calls, {k: v for k, v in msg.items() if k in ("role", "content", "tool_calls")})

    def parse_error(self, status: int, body: Any) -> ProviderError:
        return openai.parse_error(status, body)

    def add_results(self, conv: list[JSONObject], result: ToolTurn,
                    answers: list[tuple[Call, ToolResult]]) -> None:
        conv.append({**result.message, "role": "assistant"})
        images: list[JSONObject] = []
        for call, out in answers:
            conv.append({"role": "tool", "tool_call_id": call.id,
                         "content": ("error: " if out.is_error else "") + out.text})
            if out.image:
                images += [{"type": "text", "text": f"The image of tool call {call.id}:"},
                           {"type": "image_url", "image_url": {"url": "data:image/png;base64," + _b64(out.image),
                                                               "detail": "high"}}]
        if images:
            conv.append({"role": "user", "content": images})


class AnthropicWire:
    """Messages with `tools`; `tool_use` blocks answered by `tool_result` blocks (images inside)."""

    name = "anthropic"

    def start(self, prompt: str) -> list[JSONObject]:
        return [{"role": "user", "content": [{"type": "text", "text": prompt}]}]

    def build(self, conv: list[JSONObject], tools: list[ToolSpec], model: str, base_url: str,
              key: str | None, max_tokens: int, temperature: float | None) -> HttpCall:
        body: JSONObject = {
            "model": model, "max_tokens": max_tokens, "messages": conv,
            "tools": [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
                      for t in tools],
        }
        if temperature is not None:
            body["temperature"] = temperature
        headers = {"content-type": "application/json", "anthropic-version": anthropic.API_VERSION}
        if key:
            headers["x-api-key"] = key
        return HttpCall(f"{base_url}/v1/messages", headers, body)

    def parse(self, body: Any, headers: dict[str, str]) -> ToolTurn:
        result = anthropic.parse(body, headers)
        content = body["content"]
        calls = [Call(str(b.get("id") or f"toolu_{i}"), str(b.get("name") or ""), b.get("input"))
                 for i, b in enumerate(content) if isinstance(b, dict) and b.get("type") == "tool_use"]
        # the plain adapter reads a tool named `answer` as structured output; here text is text
        result.answer = "".join(b.get("text", "") for b in content
                                if isinstance(b, dict) and b.get("type") == "text")
        if result.status == "ok" and result.finish_reason == "tool_use":
            result.finish_reason = "tool_use"
        return ToolTurn.of(result, calls, {"role": "assistant", "content": content})

    def parse_error(self, status: int, body: Any) -> ProviderError:
        return anthropic.parse_error(status, body)

    def add_results(self, conv: list[JSONObject], result: ToolTurn,
                    answers: list[tuple[Call, ToolResult]]) -> None:
        conv.append(result.message)
        blocks = []
        for call, out in answers:
            # Anthropic refuses an empty text block: an empty page's text goes back as no content
            # at all (as the other formats send an empty string), never as a placeholder the agent
            # could take for the page's text.
            content: list[JSONObject] = [{"type": "text", "text": out.text}] if out.text else []
            if out.image:
                content.append({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                            "data": _b64(out.image)}})
            blocks.append({"type": "tool_result", "tool_use_id": call.id, **({"content": content} if content else {}),
                           **({"is_error": True} if out.is_error else {})})
        conv.append({"role": "user", "content": blocks})


class GeminiWire:
    """generateContent with `functionDeclarations`; `functionCall` parts answered by
    `functionResponse` parts, page images as `inlineData` parts beside them."""

    name = "google"

    def start(self, prompt: str) -> list[JSONObject]:
        return [{"role": "user", "parts": [{"text": prompt}]}]

    def build(self, conv: list[JSONObject], tools: list[ToolSpec], model: str, base_url: str,
              key: str | None, max_tokens: int, temperature: float | None) -> HttpCall:
        gen: JSONObject = {"maxOutputTokens": max_tokens}
        if temperature is not None:
            gen["temperature"] = temperature
        decls = []
        for t in tools:
            decl = {"name": t["name"], "description": t["description"]}
            if t["parameters"].get("properties"):
                decl["parameters"] = google.response_schema(t["parameters"])
            decls.append(decl)
        body = {"contents": conv, "tools": [{"functionDeclarations": decls}], "generationConfig": gen}
        headers = {"content-type": "application/json"}
        if key:
            headers["x-goog-api-key"] = key
        return HttpCall(f"{base_url}/v1beta/models/{model.removeprefix('models/')}:generateContent", headers, body)

    def parse(self, body: Any, headers: dict[str, str]) -> ToolTurn:
        result = google.parse(body, headers)
        parts = get_path(body, "candidates", 0, "content", "parts") or []
        calls = []
        for i, p in enumerate(parts):
            fc = p.get("functionCall") if isinstance(p, dict) else None
            if isinstance(fc, dict):
                calls.append(Call(str(fc.get("id") or f"fc_{i}"), str(fc.get("name") or ""), fc.get("args", {})))
        return ToolTurn.of(result, calls, {"role": "model", "parts": parts})

    def parse_error(self, status: int, body: Any) -> ProviderError:
        return google.parse_error(status, body)

    def add_results(self, conv: list[JSONObject], result: ToolTurn,
                    answers: list[tuple[Call, ToolResult]]) -> None:
        conv.append(result.message)
        parts: list[JSONObject] = []
        for call, out in answers:
            response = {"error": out.text} if out.is_error else {"result": out.text}
            fr: JSONObject = {"name": call.name, "response": response}
            if not call.id.startswith("fc_"):
                fr["id"] = call.id
            parts.append({"functionResponse": fr})
            if out.image:
                parts.append({"inlineData": {"mimeType": "image/png", "data": _b64(out.image)}})
        conv.append({"role": "user", "parts": parts})


Wire = OpenAIWire | AnthropicWire | GeminiWire


def wire_for(provider: str, base_url: str) -> tuple[Wire, str]:
    """The wire format of an agent's provider, and the base URL its calls go to."""
    if provider == "anthropic":
        return AnthropicWire(), base_url
    if provider == "google":
        return GeminiWire(), base_url
    if provider == "openai":
        return OpenAIWire("/chat/completions"), base_url
    # OpenAI-compatible servers, and Ollama through its OpenAI-compatible endpoint
    root = base_url[:-3] if base_url.endswith("/v1") else base_url
    return OpenAIWire("/v1/chat/completions"), root

