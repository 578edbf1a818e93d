"""OpenAI-compatible servers (vLLM, llama.cpp server, LM Studio): `/v1/chat/completions` with
page images; never file parts, which these servers do not take."""

from __future__ import annotations

from typing import Any

from workbench.providers import openai
from workbench.providers.base import HttpCall, ProviderError, ReadRequest, ReadResult

name = "openai-compatible"
takes_pdf = False
structured = None   # servers differ in what they accept; the prompt asks for the JSON


def build(req: ReadRequest, model: str, base_url: str, key: str | None) -> HttpCall:
    headers = {"content-type": "application/json"}
    if key:
        headers["authorization"] = f"Bearer {key}"
    root = base_url[:-3] if base_url.endswith("/v1") else base_url
    return HttpCall(f"{root}/v1/chat/completions", headers, openai.chat_body(req, model, allow_file=False))


def parse(body: Any, headers: dict[str, str]) -> ReadResult:
    return openai.parse(body, headers)


def parse_error(status: int, body: Any) -> ProviderError:
    return openai.parse_error(status, body)
