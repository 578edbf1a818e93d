"""The Gemini generateContent adapter (providers/google.py): the request it builds, as the fake
provider gets it over HTTP, its schema in Gemini's own dialect, and how it reads each answer and
error the service gives."""

from __future__ import annotations

import base64

import pytest

from tests.support.fixtures import SAMPLE_PDF, over_the_wire
from workbench.providers import google
from workbench.providers.base import Part, ProviderError, ReadRequest

PDF = SAMPLE_PDF.read_bytes()
QUESTION = "What is the TOTAL AMOUNT DUE?"
KEY = "AIza-test-0123456789abcdef"


def pdf_request(**kw) -> ReadRequest:
    return ReadRequest(QUESTION, [Part("pdf", data=PDF, mime="application/pdf", filename="document.pdf")], **kw)


def test_the_pdf_goes_inline_and_the_thought_is_not_the_answer(fake_server):
    result, status, sent = over_the_wire(google, pdf_request(max_tokens=64, temperature=0.5),
                                         "models/gemini-2.5-flash", fake_server, KEY)
    assert status == 200 and sent["path"] == "/v1beta/models/gemini-2.5-flash:generateContent"  # no models/ twice
    assert sent["headers"]["x-goog-api-key"] == KEY
    inline, question = sent["body"]["contents"][0]["parts"]
    assert inline["inlineData"]["mimeType"] == "application/pdf" and base64.b64decode(inline["inlineData"]["data"]) == PDF
    assert question == {"text": QUESTION}
    assert sent["body"]["generationConfig"] == {"maxOutputTokens": 64, "temperature": 0.5}
    assert result.status == "ok" and result.answer.startswith("Umbrella") and "Let me look" not in result.answer
    assert result.finish_reason == "STOP" and result.request_id.startswith("fake")
    assert result.usage["reasoning_tokens"] == 7 and result.usage["cache_read_tokens"] is None


def test_a_json_schema_is_sent_in_gemini_s_dialect_which_the_service_takes(fake_server):
    schema = {"$schema": "x", "type": "object", "additionalProperties": False, "required": ["total"],
              "properties": {"total": {"type": ["string", "null"], "pattern": "^€"},
                             "lines": {"type": "array", "items": {"type": "number", "format": "double"}},
                             "when": {"type": "string", "format": "date"}}}
    result, status, sent = over_the_wire(google, pdf_request(schema=schema), "gemini-2.5-flash", fake_server, KEY)
    assert status == 200 and result.status == "ok"   # the fake refuses keys Gemini's Schema does not know
    gen = sent["body"]["generationConfig"]
    assert gen["responseMimeType"] == "application/json"
    assert gen["responseSchema"] == {"type": "OBJECT", "required": ["total"], "properties": {
        "total": {"type": "STRING", "nullable": True},
        "lines": {"type": "ARRAY", "items": {"type": "NUMBER", "format": "double"}},
        "when": {"type": "STRING"}}}


@pytest.mark.parametrize("fault, status, finish", [("truncated", "truncated", "MAX_TOKENS"),
                                                   ("safety", "blocked", "SAFETY"),
                                                   ("blocked", "blocked", "SAFETY")])   # the prompt blocked
def test_a_finish_that_is_no_plain_answer(fake_server, fault, status, finish):
    result, code, _ = over_the_wire(google, pdf_request(), f"gemini-2.5-flash+{fault}", fake_server, KEY)
    assert code == 200 and (result.status, result.finish_reason) == (status, finish)
    if fault == "blocked":
        assert result.answer is None


@pytest.mark.parametrize("fault, etype, delay, no_retry", [
    ("429", "RESOURCE_EXHAUSTED", None, False),
    ("429-retryinfo", "RESOURCE_EXHAUSTED", 0.01, False),   # RetryInfo's delay, in the body
    ("429-quota", "RESOURCE_EXHAUSTED", None, True),        # the daily quota: waiting will not fix it
    ("503", "UNAVAILABLE", None, False),
])
def test_errors_read_with_their_status_hint_and_whether_to_try_again(fake_server, fault, etype, delay, no_retry):
    error, status, _ = over_the_wire(google, pdf_request(), f"gemini-2.5-flash+{fault}", fake_server, KEY)
    assert isinstance(error, ProviderError) and status == int(fault[:3])
    assert (error.type, error.code, error.retry_delay_s, error.no_retry) == (etype, fault[:3], delay, no_retry)


def test_a_reply_without_candidates_is_a_value_error(fake_server):
    with pytest.raises(ValueError, match="no candidates"):
        over_the_wire(google, pdf_request(), "gemini-2.5-flash+empty", fake_server, KEY)
