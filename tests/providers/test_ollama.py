"""The Ollama adapter (providers/ollama.py): `/api/chat` unstreamed, page images as plain base64,
as the fake provider gets it over HTTP, and how it reads the answer and an error."""

from __future__ import annotations

import base64

import pytest

from tests.support.fixtures import over_the_wire
from workbench.providers import ollama
from workbench.providers.base import Part, ProviderError, ReadRequest

PNG = b"\x89PNG\r\n\x1a\n page one"


def test_images_go_as_plain_base64_and_texts_before_the_question(fake_server):
    req = ReadRequest("What is the total?", [Part("image", data=PNG, mime="image/png"),
                                             Part("text", text="<<<\nTOTAL DUE €13,144.73\n>>>")], max_tokens=64)
    result, status, sent = over_the_wire(ollama, req, "llama3.2-vision:11b", fake_server, key=None)
    assert status == 200 and sent["path"] == "/api/chat" and "authorization" not in sent["headers"]
    body = sent["body"]
    assert body["stream"] is False and body["options"] == {"num_predict": 64} and body["model"] == "llama3.2-vision:11b"
    message = body["messages"][0]
    assert [base64.b64decode(i) for i in message["images"]] == [PNG]   # no data: URL prefix
    assert message["content"] == "<<<\nTOTAL DUE €13,144.73\n>>>\n\nWhat is the total?"
    assert result.status == "ok" and result.answer == "TOTAL DUE €13,144.73" and result.finish_reason == "stop"
    assert result.usage["total_tokens"] == result.usage["input_tokens"] + result.usage["output_tokens"]


def test_a_schema_is_the_format_and_a_long_answer_is_truncated(fake_server):
    req = ReadRequest("Q", [Part("text", text="<<<\nsome page text\n>>>")],
                      schema={"$schema": "x", "type": "object"}, temperature=0.0)
    result, _, sent = over_the_wire(ollama, req, "llama3.2-vision+truncated", fake_server)
    assert sent["body"]["format"] == {"type": "object"} and sent["body"]["options"]["temperature"] == 0.0
    assert sent["headers"]["authorization"].startswith("Bearer ")   # a key, when one is given (a proxy)
    assert (result.status, result.finish_reason) == ("truncated", "length")


def test_a_pdf_is_refused_before_any_call():
    with pytest.raises(ValueError, match="no PDF"):
        ollama.build(ReadRequest("Q", [Part("pdf", data=b"%PDF-1.7", mime="application/pdf")]), "m", "http://x", None)


def test_an_error_is_its_text(fake_server):
    error, status, _ = over_the_wire(ollama, ReadRequest("Q", []), "llama3.2-vision+404", fake_server)
    assert status == 404 and isinstance(error, ProviderError) and error.message == "Model not found."
    with pytest.raises(ValueError, match="no message.content"):
        over_the_wire(ollama, ReadRequest("Q", []), "llama3.2-vision+empty", fake_server)
