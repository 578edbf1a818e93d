"""The Anthropic Messages adapter (providers/anthropic.py): the request it builds, as the fake
provider gets it over HTTP, and how it reads each answer and error the service gives."""

from __future__ import annotations

import base64
import json

import pytest

from tests.support.fixtures import SAMPLE_PDF, over_the_wire
from workbench.providers import anthropic
from workbench.providers.base import Part, ProviderError, ReadRequest

PDF = SAMPLE_PDF.read_bytes()
QUESTION = "What is the TOTAL AMOUNT DUE?"
KEY = "sk-ant-test-0123456789abcdef"


def pdf_request(**kw) -> ReadRequest:
    return ReadRequest(QUESTION, [Part("pdf", data=PDF, mime="application/pdf", filename="document.pdf")], **kw)


def test_the_pdf_goes_as_a_document_block_with_the_key_in_its_own_header(fake_server):
    result, status, sent = over_the_wire(anthropic, pdf_request(max_tokens=64), "claude-sonnet-4-5", fake_server, KEY)
    assert status == 200 and sent["path"] == "/v1/messages"
    assert sent["headers"]["x-api-key"] == KEY and sent["headers"]["anthropic-version"] == "2023-06-01"
    assert "authorization" not in sent["headers"]
    body = sent["body"]
    assert body["max_tokens"] == 64 and "temperature" not in body and "tools" not in body
    document, question = body["messages"][0]["content"]
    assert document["type"] == "document" and document["source"]["media_type"] == "application/pdf"
    assert base64.b64decode(document["source"]["data"]) == PDF and question == {"type": "text", "text": QUESTION}
    assert result.status == "ok" and "€53,919.68" in result.answer and result.finish_reason == "end_turn"
    assert result.request_id.startswith("req_fake")
    assert result.usage["total_tokens"] == result.usage["input_tokens"] + result.usage["output_tokens"]
    assert result.usage["cache_read_tokens"] == 0 and result.usage["cache_creation_tokens"] == 0


def test_a_schema_is_a_forced_tool_whose_input_is_the_answer(fake_server):
    schema = {"$schema": "x", "type": "object", "properties": {"total": {"type": "string"}}}
    script = fake_server.script
    script["*"] = json.dumps({"total": "€13,144.73"})
    try:
        result, status, sent = over_the_wire(anthropic, pdf_request(schema=schema), "claude-sonnet-4-5", fake_server, KEY)
    finally:
        del script["*"]
    assert status == 200
    assert sent["body"]["tools"][0]["input_schema"] == {"type": "object", "properties": {"total": {"type": "string"}}}
    assert sent["body"]["tool_choice"] == {"type": "tool", "name": "answer"}
    assert result.status == "ok" and json.loads(result.answer) == {"total": "€13,144.73"}


def test_a_schema_that_is_no_object_is_wrapped_in_one_the_service_takes(fake_server):
    result, status, sent = over_the_wire(anthropic, pdf_request(schema={"type": "string"}), "claude-sonnet-4-5",
                                         fake_server, KEY)
    assert status == 200 and result.status == "ok"   # the fake refuses a tool schema that is no object
    assert sent["body"]["tools"][0]["input_schema"] == {
        "type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}


@pytest.mark.parametrize("fault, status, stop", [("truncated", "truncated", "max_tokens"),
                                                 ("refusal", "refused", "refusal")])
def test_a_stop_reason_that_is_no_plain_answer(fake_server, fault, status, stop):
    result, code, _ = over_the_wire(anthropic, pdf_request(), f"claude-sonnet-4-5+{fault}", fake_server, KEY)
    assert code == 200 and (result.status, result.finish_reason) == (status, stop)


@pytest.mark.parametrize("fault, code, etype, no_retry", [
    ("429", 429, "rate_limit_error", False),
    ("529", 529, "overloaded_error", False),
    ("429-quota", 400, "invalid_request_error", True),   # credit spent: Anthropic says so with a 400
    ("401", 401, "authentication_error", True),
])
def test_errors_read_with_their_type_and_whether_to_try_again(fake_server, fault, code, etype, no_retry):
    error, status, _ = over_the_wire(anthropic, pdf_request(), f"claude-sonnet-4-5+{fault}", fake_server, KEY)
    assert isinstance(error, ProviderError) and status == code
    assert (error.type, error.code, error.no_retry) == (etype, etype, no_retry) and error.message


def test_a_reply_without_content_is_a_value_error(fake_server):
    with pytest.raises(ValueError, match="no content list"):
        over_the_wire(anthropic, pdf_request(), "claude-sonnet-4-5+empty", fake_server, KEY)
    assert anthropic.parse_error(502, "<html>Bad gateway</html>").message == "<html>Bad gateway</html>"
