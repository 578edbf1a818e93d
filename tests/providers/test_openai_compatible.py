"""OpenAI-compatible servers (providers/openai_compatible.py): chat completions under `/v1` with
page images only, as the fake provider gets them over HTTP."""

from __future__ import annotations

import pytest

from tests.support.fixtures import over_the_wire
from workbench.providers import openai_compatible
from workbench.providers.base import Part, ProviderError, ReadRequest

REQ = ReadRequest("What is the total?", [Part("image", data=b"\x89PNG page", mime="image/png")], max_tokens=32)


@pytest.mark.parametrize("suffix", ["", "/v1"])
def test_the_call_goes_to_v1_chat_completions_whether_or_not_the_base_url_ends_in_v1(fake_server, suffix):
    call = openai_compatible.build(REQ, "local-model", fake_server.url + suffix, None)
    assert call.url == f"{fake_server.url}/v1/chat/completions" and "authorization" not in call.headers
    result, status, sent = over_the_wire(openai_compatible, REQ, "local-model", fake_server, key=None)
    assert status == 200 and result.status == "ok" and sent["path"] == "/v1/chat/completions"
    assert [p["type"] for p in sent["body"]["messages"][0]["content"]] == ["image_url", "text"]


def test_a_pdf_is_refused_before_any_call_and_a_schema_goes_as_openai_s():
    with pytest.raises(ValueError, match="no file parts"):
        openai_compatible.build(ReadRequest("Q", [Part("pdf", data=b"%PDF", mime="application/pdf")]), "m", "http://x", "k")
    call = openai_compatible.build(ReadRequest("Q", [], schema={"type": "object"}), "m", "http://x", "k")
    assert call.headers["authorization"] == "Bearer k"
    assert call.body["response_format"]["json_schema"]["schema"] == {"type": "object"}


def test_errors_and_truncation_read_as_openai_s(fake_server):
    result, _, _ = over_the_wire(openai_compatible, REQ, "local-model+truncated", fake_server)
    assert (result.status, result.finish_reason) == ("truncated", "length")
    error, status, _ = over_the_wire(openai_compatible, REQ, "local-model+503", fake_server)
    assert status == 503 and isinstance(error, ProviderError) and error.type == "server_error"
