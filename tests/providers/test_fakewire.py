"""The fake provider's wire formats (providers/fakewire.py): what it reads out of a request in each
format, the structured-output settings it refuses as the services do, and its error shapes."""

from __future__ import annotations

from workbench.providers.fakeserver import FakeServer


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
