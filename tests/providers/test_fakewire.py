"""The fake provider's wire formats (providers/fakewire.py): what it reads out of a request in each
format, the structured-output settings it refuses as the services do, and its error shapes."""

from __future__ import annotations

import base64

import pytest

from workbench.providers.fakeserver import FakeServer
from workbench.providers.fakewire import contents, echo_everywhere, error_reply, success


def test_the_fake_server_refuses_what_the_services_refuse():
    """A schema the real services would reject is a 400 from the fake too, so the tests above mean
    something: Gemini's Schema takes no `$schema`, Anthropic's tool schema must be an object."""
    import httpx

    with FakeServer() as server:
        gemini = httpx.post(f"{server.url}/v1beta/models/m:generateContent", json={
            "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "generationConfig": {"responseMimeType": "application/json",
                                 "responseSchema": {"$schema": "x", "type": "object"}}})
        anthropic = httpx.post(f"{server.url}/v1/messages", json={
            "model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "answer", "input_schema": {"type": "string"}}],
            "tool_choice": {"type": "tool", "name": "answer"}})
    assert gemini.status_code == 400 and "$schema" in gemini.json()["error"]["message"]
    assert anthropic.status_code == 400 and "object" in anthropic.json()["error"]["message"]


def test_what_a_request_holds_is_read_in_each_format():
    pdf_url = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.7").decode()
    openai = {"messages": [{"role": "user", "content": [
        {"type": "file", "file": {"file_data": pdf_url}}, {"type": "image_url", "image_url": {"url": "x"}},
        {"type": "text", "text": "Q?"}]}, {"role": "assistant", "content": "plain text"}]}
    anthropic = {"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"data": base64.b64encode(b"%PDF-1.7").decode()}},
        {"type": "image", "source": {}}, {"type": "text", "text": "Q?"}]}]}
    google = {"contents": [{"parts": [{"inlineData": {"mimeType": "application/pdf",
                                                      "data": base64.b64encode(b"%PDF-1.7").decode()}},
                                      {"inlineData": {"mimeType": "image/png", "data": ""}}, {"text": "Q?"}]}]}
    ollama = {"messages": [{"role": "user", "content": "page text\n\nQ?", "images": ["aa", "bb"]}]}
    assert contents("openai", openai) == ([b"%PDF-1.7"], ["Q?", "plain text"], 1)
    assert contents("anthropic", anthropic) == ([b"%PDF-1.7"], ["Q?"], 1)
    assert contents("google", google) == ([b"%PDF-1.7"], ["Q?"], 1)
    assert contents("ollama", ollama) == ([], ["page text", "Q?"], 2)


@pytest.mark.parametrize("fmt, kind, status, error", [
    ("openai", "429-quota", 429, {"message": "You exceeded your current quota, please check your plan and billing "
                                             "details.", "type": "insufficient_quota", "param": None,
                                  "code": "insufficient_quota"}),
    ("anthropic", "429-quota", 400, {"type": "invalid_request_error",
                                     "message": "Your credit balance is too low to access the Anthropic API."}),
    ("anthropic", "529", 529, {"type": "overloaded_error", "message": "Overloaded."}),
    ("google", "429-retryinfo", 429, {"code": 429, "message": "Rate limit reached, please retry.",
                                      "status": "RESOURCE_EXHAUSTED", "details": [
                                          {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0.5s"}]}),
    ("ollama", "404", 404, "Model not found."),
])
def test_each_fault_is_an_error_in_the_provider_s_own_shape(fmt, kind, status, error):
    code, headers, body = error_reply(fmt, kind, 0.5, "sk-key")
    assert code == status and body["error"] == error


def test_a_retry_hint_goes_in_the_header_each_form_asks_for():
    assert error_reply("openai", "429-retry-after-ms", 0.25, None)[1] == {"retry-after-ms": "250"}
    assert error_reply("openai", "429-retry-after", 0.25, None)[1] == {"retry-after": "0.25"}
    assert error_reply("anthropic", "429-long", 0.25, None)[1] == {"retry-after": "600"}
    assert "sk-key" in error_reply("openai", "401", 0, "sk-key")[2]["error"]["message"]   # a careless 401


def test_an_echoed_key_is_everywhere_but_a_status_word_keeps_its_value_in_front():
    answer = success("anthropic", "claude", 1, "€13,144.73", "stop", 10)
    echoed = echo_everywhere("anthropic", answer, "sk-KEY")
    assert echoed["stop_reason"] == "end_turn sk-KEY" and echoed["content"][0]["text"] == "€13,144.73 sk-KEY"
    assert answer["stop_reason"] == "end_turn"   # the answer given is left as it was
    assert echo_everywhere("ollama", {"error": "Model not found."}, "k") == {"error": "Model not found. k"}
