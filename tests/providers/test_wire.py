"""Tool calling in each provider's wire format (providers/agent/wire.py): a conversation built by
each wire, sent over real HTTP to the fake provider's scripted agent, its tool calls read back and
answered the way each format takes them, images included."""

from __future__ import annotations

import base64
import json

import pytest

from tests.support.fixtures import http
from workbench.providers.agent.tools import TOOL_SPECS, ToolResult
from workbench.providers.agent.wire import AnthropicWire, GeminiWire, OpenAIWire, calls_of, wire_for
from workbench.providers.base import ReadResult
from workbench.providers.exchange import body_value

PNG = b"\x89PNG\r\n\x1a\n a page"
INFO = json.dumps({"page_count": 1, "question": "What is the total?"})


def turn(wire, conv, server, model: str, provider: str):
    """One turn: the wire builds the call, it goes over HTTP, the wire reads the answer."""
    base = wire_for(provider, server.base_url(provider))[1]
    call = wire.build(conv, TOOL_SPECS, model, base, "sk-test-wire-0123456789", 256, 0.0)
    resp = http().post(call.url, headers=call.headers, content=json.dumps(call.body))
    assert resp.status_code == 200, resp.text
    return wire.parse(body_value(resp.content), {k.lower(): v for k, v in resp.headers.items()}), call


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google", "ollama"])
def test_an_image_agent_reads_the_page_image_it_is_sent_and_submits(fake_server, provider):
    wire, _ = wire_for(provider, fake_server.base_url(provider))
    conv = wire.start("Read the document, then submit.")
    first, call = turn(wire, conv, fake_server, "agent-image", provider)
    assert [c.name for c in first.calls] == ["document_info"] and first.status == "ok"
    assert {t["name"] for t in TOOL_SPECS} <= set(json.dumps(call.body["tools"]).split('"'))
    wire.add_results(conv, first, [(first.calls[0], ToolResult(INFO))])
    second, _ = turn(wire, conv, fake_server, "agent-image", provider)
    assert [(c.name, c.arguments) for c in second.calls] == [("page_image", {"page": 1, "dpi": 150})]
    wire.add_results(conv, second, [(second.calls[0], ToolResult("page 1, 150 dpi", image=PNG))])
    third, _ = turn(wire, conv, fake_server, "agent-image", provider)
    assert [c.name for c in third.calls] == ["submit_extraction"]
    sent = json.dumps(conv)
    assert base64.b64encode(PNG).decode() in sent   # the image went back, in the format's own way


def test_openai_results_are_tool_messages_and_images_a_user_message_after_them():
    wire = OpenAIWire()
    conv = wire.start("go")
    body = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "page_image", "arguments": '{"page": 2}'}},
        {"id": "c2", "type": "function", "function": {"name": "page_text", "arguments": "not json"}}]},
        "finish_reason": "tool_calls"}]}
    result = wire.parse(body, {})
    assert [(c.id, c.arguments) for c in result.calls] == [("c1", {"page": 2}), ("c2", "not json")]
    assert result.answer == "" and result.status == "ok"
    wire.add_results(conv, result, [(result.calls[0], ToolResult("page 2", image=PNG)),
                                    (result.calls[1], ToolResult("give a JSON object", is_error=True))])
    assert [m["role"] for m in conv] == ["user", "assistant", "tool", "tool", "user"]
    assert conv[3]["content"] == "error: give a JSON object"
    assert conv[4]["content"][1]["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()


def test_anthropic_results_carry_the_image_inside_and_an_empty_text_as_no_content():
    wire = AnthropicWire()
    conv = wire.start("go")
    content = [{"type": "text", "text": "Looking."}, {"type": "tool_use", "id": "t1", "name": "page_text", "input": {}},
               {"type": "tool_use", "id": "t2", "name": "page_image", "input": {"page": 1}}]
    result = wire.parse({"content": content, "stop_reason": "tool_use"}, {})
    assert result.answer == "Looking." and result.finish_reason == "tool_use"
    wire.add_results(conv, result, [(result.calls[0], ToolResult("")), (result.calls[1], ToolResult("p1", image=PNG))])
    empty, image = conv[-1]["content"]
    assert empty == {"type": "tool_result", "tool_use_id": "t1"}   # the service refuses an empty text block
    assert image["content"][1]["source"]["data"] == base64.b64encode(PNG).decode()


def test_gemini_answers_function_calls_by_name_and_its_schema_in_gemini_s_dialect():
    wire = GeminiWire()
    call = wire.build(wire.start("go"), TOOL_SPECS, "models/gemini-x", "http://h", None, 10, None)
    assert call.url == "http://h/v1beta/models/gemini-x:generateContent"
    decls = {d["name"]: d for d in call.body["tools"][0]["functionDeclarations"]}
    assert "parameters" not in decls["document_info"]   # no properties: Gemini takes none
    assert decls["page_image"]["parameters"]["type"] == "OBJECT"
    parts = [{"functionCall": {"name": "page_text", "args": {"page": 1}}},
             {"functionCall": {"id": "x9", "name": "page_image", "args": {"page": 1}}}]
    result = wire.parse({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}, {})
    conv: list = []
    wire.add_results(conv, result, [(result.calls[0], ToolResult("no such page", is_error=True)),
                                    (result.calls[1], ToolResult("p1", image=PNG))])
    answers = conv[-1]["parts"]
    assert answers[0] == {"functionResponse": {"name": "page_text", "response": {"error": "no such page"}}}
    assert answers[1]["functionResponse"]["id"] == "x9" and answers[2]["inlineData"]["mimeType"] == "image/png"


def test_ollama_and_compatible_servers_speak_openai_s_format_under_their_root():
    assert wire_for("ollama", "http://127.0.0.1:11434/v1")[1] == "http://127.0.0.1:11434"
    wire, base = wire_for("openai-compatible", "http://127.0.0.1:8000")
    assert isinstance(wire, OpenAIWire) and wire.path == "/v1/chat/completions" and base == "http://127.0.0.1:8000"
    assert calls_of(ReadResult("error")) == []   # an error of the call has no tool calls


def test_an_anthropic_tool_named_answer_is_a_tool_call_here_not_structured_output():
    content = [{"type": "text", "text": "Calling it."}, {"type": "tool_use", "id": "t1", "name": "answer", "input": {"x": 1}}]
    result = AnthropicWire().parse({"content": content, "stop_reason": "tool_use"}, {})
    assert result.answer == "Calling it." and [c.name for c in result.calls] == ["answer"]
