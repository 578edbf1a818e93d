"""The OpenAI Chat Completions adapter (providers/openai.py): the request it builds, as the fake
provider gets it over HTTP, and how it reads each answer and error the service gives."""

from __future__ import annotations

import base64

import pytest

from tests.support.fixtures import SAMPLE_PDF, over_the_wire
from workbench.providers import openai
from workbench.providers.base import Part, ProviderError, ReadRequest

PDF = SAMPLE_PDF.read_bytes()
QUESTION = "What is the TOTAL AMOUNT DUE?"


def pdf_request(**kw) -> ReadRequest:
    return ReadRequest(QUESTION, [Part("pdf", data=PDF, mime="application/pdf", filename="document.pdf")], **kw)


def test_the_pdf_goes_as_a_file_part_before_the_question_and_the_answer_keeps_its_usage(fake_server):
    result, status, sent = over_the_wire(openai, pdf_request(max_tokens=64, temperature=0.0), "gpt-4o", fake_server)
    assert status == 200 and sent["path"] == "/v1/chat/completions"
    assert sent["headers"]["authorization"] == "Bearer sk-test-wire-0123456789abcdef"
    body = sent["body"]
    assert body["max_completion_tokens"] == 64 and body["temperature"] == 0.0 and "response_format" not in body
    file_part, question = body["messages"][0]["content"]
    assert file_part["file"]["filename"] == "document.pdf"
    assert base64.b64decode(file_part["file"]["file_data"].removeprefix("data:application/pdf;base64,")) == PDF
    assert question == {"type": "text", "text": QUESTION}
    assert result.status == "ok" and "TOTAL DUE\n€53,919.68" in result.answer   # the fake reads the text layer
    assert result.finish_reason == "stop" and result.request_id.startswith("req_fake")   # the x-request-id header
    assert result.usage["input_tokens"] > 0 and result.usage["cache_read_tokens"] == 0
    assert result.usage["cache_creation_tokens"] is None   # OpenAI gives none: null, not 0


def test_a_schema_goes_as_response_format_without_its_dollar_schema(fake_server):
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"total": {"type": "string"}}}
    result, status, sent = over_the_wire(openai, pdf_request(schema=schema), "gpt-4o", fake_server)
    assert status == 200 and result.status == "ok"   # the fake refuses what the service would
    assert sent["body"]["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "answer", "strict": False, "schema": {"type": "object", "properties": {"total": {"type": "string"}}}}}


def test_page_images_and_text_parts_in_order():
    req = ReadRequest("Q", [Part("image", data=b"\x89PNG", mime="image/png"), Part("text", text="page text")])
    parts = openai.build(req, "gpt-4o", "http://x/v1", None).body["messages"][0]["content"]
    assert parts == [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw==", "detail": "high"}},
                     {"type": "text", "text": "page text"}, {"type": "text", "text": "Q"}]
    assert "authorization" not in openai.build(req, "m", "http://x/v1", None).headers   # no key: no header


@pytest.mark.parametrize("fault, status, finish, answered", [
    ("truncated", "truncated", "length", True),
    ("blocked", "blocked", "content_filter", True),
    ("refusal", "refused", "stop", True),
])
def test_what_a_finished_call_that_is_no_plain_answer_reads_as(fake_server, fault, status, finish, answered):
    result, code, _ = over_the_wire(openai, pdf_request(), f"gpt-4o+{fault}", fake_server)
    assert code == 200 and (result.status, result.finish_reason) == (status, finish)
    assert bool(result.answer) is answered
    if fault == "refusal":
        assert result.answer == "I can't help with that."


@pytest.mark.parametrize("fault, etype, code, no_retry", [
    ("429", "requests", "rate_limit_exceeded", False),
    ("429-quota", "insufficient_quota", "insufficient_quota", True),   # waiting will not fix it
    ("401", "invalid_request_error", "invalid_api_key", True),      # nor a wrong key
    ("500", "server_error", None, False),
])
def test_errors_read_with_their_type_code_and_whether_to_try_again(fake_server, fault, etype, code, no_retry):
    error, status, _ = over_the_wire(openai, pdf_request(), f"gpt-4o+{fault}", fake_server)
    assert isinstance(error, ProviderError) and status == int(fault[:3])
    assert (error.type, error.code, error.no_retry) == (etype, code, no_retry) and error.message


def test_a_reply_without_a_message_is_a_value_error_and_odd_error_bodies_keep_their_text(fake_server):
    with pytest.raises(ValueError, match=r"no choices\[0\]\.message"):
        over_the_wire(openai, pdf_request(), "gpt-4o+empty", fake_server)
    assert openai.parse_error(502, {"error": "model is loading"}).message == "model is loading"
    assert openai.parse_error(502, "<html>Bad gateway</html>").message == "<html>Bad gateway</html>"
