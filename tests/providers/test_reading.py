"""One model call at a time, against the fake provider over loopback: wire formats, statuses,
retries, keys, cancellation and the answer cache."""

from __future__ import annotations

import asyncio
import base64
import json
import random
from pathlib import Path

import pytest

from tests.support.fixtures import built_suite
from workbench.core.errors import UserError
from workbench.providers import parse_reader
from workbench.providers.fakeserver import FakeServer
from workbench.providers.reading import read
from workbench.providers.retry import RetryPolicy, decide, hint_from_headers

HERE = Path(__file__).resolve().parents[1] / "support"
PLANTED = "sk-test-PLANTED-7f3c9a1e5b2d4c6e8a0b1c2d3e4f5a6b"
FAST = RetryPolicy(base_s=0.005, cap_s=0.02, deadline_s=20, max_attempts=4, timeout_s=5)
SPEC = """name = "mini"
[[families]]
name = "hidden_ocr_mismatch"
seeds = "1..3"
params = { hidden_change_pct = 40.0 }
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    from workbench.core.suite import load_suite

    return load_suite(built_suite(tmp_path_factory.mktemp("suite"), SPEC, "mini"))


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-" + "a" * 30)
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-test-" + "g" * 30)
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "OLLAMA_HOST",
                "OPENAI_COMPATIBLE_BASE_URL", "GEMINI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


@pytest.fixture
def server():
    with FakeServer(hang_s=1.0, hint_s=0.01) as s:
        yield s


def ask(server, case, reader, modality="pdf", dpi=72, cache=False, policy=FAST, **kw):
    provider = parse_reader(reader).provider
    return asyncio.run(read(case, None, reader, modality, dpi, cache=cache, policy=policy,
                            base_url=server.base_url(provider), **kw))


def pdf_of(case) -> bytes:
    return case.pdf_file.read_bytes()


# ---- wire formats -----------------------------------------------------------------------------

def test_openai_requests_validate_against_the_official_schema(env, server, suite):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((HERE / "openai_chat_schema.json").read_text())
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/CreateChatCompletionRequest", **schema})
    case = suite.cases[0]
    for modality in ("pdf", "pixels", "text"):
        rec = ask(server, case, "openai:gpt-4o", modality)
        assert rec.status == "ok"
    assert len(server.requests) == 3
    for req in server.requests:
        errors = sorted(validator.iter_errors(req["body"]), key=str)
        assert not errors, errors[0].message
        assert req["path"] == "/v1/chat/completions"
        assert req["headers"]["authorization"] == f"Bearer {PLANTED}"
        assert req["body"]["max_completion_tokens"] == 1024
    pdf_req, pix_req, text_req = (r["body"]["messages"][0]["content"] for r in server.requests)
    file_part = next(p for p in pdf_req if p["type"] == "file")
    assert file_part["file"]["filename"] == "document.pdf"  # the case id would name the trap
    url = file_part["file"]["file_data"]
    assert url.startswith("data:application/pdf;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == pdf_of(case)
    images = [p for p in pix_req if p["type"] == "image_url"]
    assert len(images) == 1 and base64.b64decode(images[0]["image_url"]["url"].split(",", 1)[1])[:4] == b"\x89PNG"
    assert {p["type"] for p in text_req} == {"text"}
    assert case.question in text_req[-1]["text"]
    assert "TOTAL DUE" in text_req[0]["text"]  # the text layer, and nothing else


def test_openai_answer_usage_and_request_id(env, server, suite):
    rec = ask(server, suite.cases[0], "openai:gpt-4o", "pdf")
    assert rec.status == "ok" and "TOTAL DUE" in rec.answer  # the fake answers with the text layer
    assert rec.finish_reason == "stop" and rec.request_id.startswith("req_fake")
    assert rec.usage["input_tokens"] > 0 and rec.usage["output_tokens"] > 0
    assert rec.usage["cache_creation_tokens"] is None  # OpenAI reports none: null, not 0
    assert rec.provenance == "observed" and rec.case_sha256 == suite.cases[0].sha256


def test_anthropic_request_shape(env, server, suite):
    case = suite.cases[0]
    rec = ask(server, case, "anthropic:claude-sonnet-4-5", "pdf")
    pix = ask(server, case, "anthropic:claude-sonnet-4-5", "pixels")
    assert rec.status == pix.status == "ok"
    req = server.requests[0]
    assert req["path"] == "/v1/messages"
    assert req["headers"]["anthropic-version"] == "2023-06-01"
    assert req["headers"]["x-api-key"].startswith("sk-ant-test-")
    assert "authorization" not in req["headers"]
    body = req["body"]
    assert body["model"] == "claude-sonnet-4-5" and body["max_tokens"] == 1024
    doc = body["messages"][0]["content"][0]
    assert doc["type"] == "document" and doc["source"]["media_type"] == "application/pdf"
    assert base64.b64decode(doc["source"]["data"]) == pdf_of(case)
    img = server.requests[1]["body"]["messages"][0]["content"][0]
    assert img["type"] == "image" and img["source"]["media_type"] == "image/png"
    assert set(rec.usage) >= {"cache_read_tokens", "cache_creation_tokens"}
    assert rec.usage["cache_read_tokens"] == 0 and rec.finish_reason == "end_turn"


def test_google_request_shape_skips_thoughts(env, server, suite):
    case = suite.cases[0]
    rec = ask(server, case, "google:gemini-2.5-flash", "pdf")
    req = server.requests[0]
    assert req["path"] == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert req["headers"]["x-goog-api-key"].startswith("AIza-test-")
    part = req["body"]["contents"][0]["parts"][0]["inlineData"]
    assert part["mimeType"] == "application/pdf" and base64.b64decode(part["data"]) == pdf_of(case)
    assert req["body"]["generationConfig"]["maxOutputTokens"] == 1024
    assert rec.status == "ok" and "Let me look" not in rec.answer  # the thought part is skipped
    assert rec.usage["reasoning_tokens"] == 7 and rec.finish_reason == "STOP"


def test_gemini_api_key_is_accepted_too(env, server, suite, monkeypatch):
    monkeypatch.delenv("GOOGLE_API_KEY")
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-test-" + "k" * 20)
    assert ask(server, suite.cases[0], "google:gemini-2.5-flash", "text").status == "ok"
    assert server.requests[0]["headers"]["x-goog-api-key"] == "gemini-test-" + "k" * 20


def test_ollama_sends_page_images_unstreamed(env, server, suite):
    rec = ask(server, suite.cases[0], "ollama:llama3.2-vision", "pixels")
    body = server.requests[0]["body"]
    assert server.requests[0]["path"] == "/api/chat"
    assert body["stream"] is False and len(body["messages"][0]["images"]) == 1
    assert base64.b64decode(body["messages"][0]["images"][0])[:4] == b"\x89PNG"
    assert rec.status == "ok" and rec.usage["output_tokens"] > 0
    with pytest.raises(UserError, match="page images"):
        ask(server, suite.cases[0], "ollama:llama3.2-vision", "pdf")


def test_openai_compatible_never_sends_file_parts(env, server, suite):
    rec = ask(server, suite.cases[0], "openai-compatible:qwen2-vl", "pixels")
    req = server.requests[0]
    assert rec.status == "ok" and req["path"] == "/v1/chat/completions"
    types = {p["type"] for p in req["body"]["messages"][0]["content"]}
    assert types == {"image_url", "text"}
    with pytest.raises(UserError, match="page images"):
        ask(server, suite.cases[0], "openai-compatible:qwen2-vl", "pdf")


def test_base_url_from_the_sdk_environment_variable(env, server, suite, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    rec = asyncio.run(read(suite.cases[0], None, "openai:gpt-4o", "text", None, cache=False, policy=FAST))
    assert rec.status == "ok" and len(server.requests) == 1


def test_base_url_from_the_config_file(env, server, suite):
    (env / "config").mkdir()
    (env / "config" / "readers.toml").write_text(f'[anthropic]\nbase_url = "{server.url}"\n')
    rec = asyncio.run(read(suite.cases[0], None, "anthropic:claude", "text", None, cache=False, policy=FAST))
    assert rec.status == "ok" and server.requests[0]["path"] == "/v1/messages"


# ---- statuses ---------------------------------------------------------------------------------

PROVIDERS = ("openai", "anthropic", "google", "ollama", "openai-compatible")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_truncated_answer_is_kept_apart(env, server, suite, provider):
    rec = ask(server, suite.cases[0], f"{provider}:fake+truncated", "text")
    assert rec.status == "truncated" and rec.answer
    assert rec.finish_reason in ("length", "max_tokens", "MAX_TOKENS")


@pytest.mark.parametrize("provider,status,finish", [
    ("openai", "blocked", "content_filter"), ("google", "blocked", "SAFETY"),
    ("anthropic", "refused", "refusal"),
])
def test_blocked_is_not_an_empty_answer(env, server, suite, provider, status, finish):
    rec = ask(server, suite.cases[0], f"{provider}:fake+blocked", "text")
    assert (rec.status, rec.finish_reason) == (status, finish)


def test_google_safety_finish_and_openai_refusal(env, server, suite):
    safety = ask(server, suite.cases[0], "google:fake+safety", "text")
    assert safety.status == "blocked" and safety.finish_reason == "SAFETY"
    refusal = ask(server, suite.cases[0], "openai:fake+refusal", "text")
    assert refusal.status == "refused" and refusal.answer == "I can't help with that."


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("fault", ["malformed", "empty"])
def test_malformed_body_is_an_error(env, server, suite, provider, fault):
    rec = ask(server, suite.cases[0], f"{provider}:fake+{fault}", "text")
    assert rec.status == "error" and rec.error["type"] == "malformed_response"
    assert rec.error["http_status"] == 200 and rec.attempts == 1


def test_timeout_status(env, server, suite):
    policy = RetryPolicy(base_s=0.005, cap_s=0.01, max_attempts=2, timeout_s=0.2)
    rec = ask(server, suite.cases[0], "openai:fake+timeoutxall", "text", policy=policy)
    assert rec.status == "timeout" and rec.attempts == 2 and rec.answer is None
    assert rec.error["type"] == "timeout"


# ---- retries ------------------------------------------------------------------------------------

@pytest.mark.parametrize("provider,fault", [
    ("openai", "429-retry-after-ms"), ("anthropic", "429-retry-after"), ("google", "429-retryinfo"),
    ("openai", "429"), ("openai", "408"), ("openai", "409"), ("openai", "500"), ("google", "503"),
    ("anthropic", "529"), ("ollama", "502"), ("openai", "drop"), ("anthropic", "500x2+529"),
])
def test_transient_failures_are_retried(env, server, suite, provider, fault):
    rec = ask(server, suite.cases[0], f"{provider}:fake+{fault}", "text")
    expected_attempts = 4 if fault == "500x2+529" else 2
    assert rec.status == "ok" and rec.attempts == expected_attempts
    assert len(server.requests) == expected_attempts


@pytest.mark.parametrize("provider,fault,http_status,etype", [
    ("openai", "400", 400, "invalid_request_error"),
    ("openai", "404", 404, "invalid_request_error"),
    ("anthropic", "401", 401, "authentication_error"),
    ("google", "403", 403, "PERMISSION_DENIED"),
    ("openai", "429-quota", 429, "insufficient_quota"),
    ("anthropic", "429-quota", 400, "invalid_request_error"),
    ("google", "429-perday", 429, "RESOURCE_EXHAUSTED"),
    ("openai", "429-long", 429, "requests"),
])
def test_failures_that_waiting_cannot_fix_are_not_retried(env, server, suite, provider, fault,
                                                          http_status, etype):
    rec = ask(server, suite.cases[0], f"{provider}:fake+{fault}", "text")
    assert rec.status == "error" and rec.attempts == 1 and len(server.requests) == 1
    assert rec.error["http_status"] == http_status and rec.error["type"] == etype
    assert rec.error["message"]


def test_retries_stop_after_max_attempts(env, server, suite):
    rec = ask(server, suite.cases[0], "openai:fake+500xall", "text")
    assert rec.status == "error" and rec.attempts == FAST.max_attempts
    assert rec.error["http_status"] == 500 and rec.error["type"] == "server_error"


def test_server_hints_win_over_backoff():
    policy = RetryPolicy(base_s=1, cap_s=30, deadline_s=300, max_wait_s=120)
    assert decide(429, {"retry-after-ms": "250"}, None, False, 1, policy, 0) == 0.25
    assert decide(429, {"Retry-After": "3"}, None, False, 1, policy, 0) == 3.0
    assert decide(429, {}, 7.0, False, 1, policy, 0) == 7.0  # Gemini RetryInfo
    assert decide(429, {"retry-after": "600"}, None, False, 1, policy, 0) is None
    assert decide(503, {}, 121.0, False, 1, policy, 0) is None
    assert decide(429, {"retry-after": "10"}, None, False, 1, policy, 295) is None  # past the deadline
    assert decide(429, {}, None, True, 1, policy, 0) is None                        # quota gone
    assert decide(None, {}, None, False, policy.max_attempts, policy, 0) is None
    for status in (400, 401, 403, 404, 422):
        assert decide(status, {}, None, False, 1, policy, 0) is None
    date = "Wed, 21 Oct 2015 07:28:00 GMT"
    assert hint_from_headers({"retry-after": date}, now=1445412480 - 5) == pytest.approx(5)


def test_backoff_is_full_jitter_under_a_cap():
    policy = RetryPolicy(base_s=1, cap_s=8)
    rng = random.Random(1)
    waits = [[decide(500, {}, None, False, attempt, policy, 0, rng) for _ in range(200)]
             for attempt in (1, 2, 5)]
    assert all(0 <= w <= 1 for w in waits[0]) and max(waits[0]) > 0.5
    assert all(0 <= w <= 2 for w in waits[1]) and max(waits[1]) > 1
    assert all(0 <= w <= 8 for w in waits[2]) and max(waits[2]) > 4  # capped, not 16


# ---- keys -----------------------------------------------------------------------------------------

def test_missing_key_names_the_variable(env, server, suite, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY")
    with pytest.raises(UserError, match="OPENAI_API_KEY"):
        ask(server, suite.cases[0], "openai:gpt-4o", "text")
    monkeypatch.delenv("GOOGLE_API_KEY")
    with pytest.raises(UserError, match="GOOGLE_API_KEY or GEMINI_API_KEY"):
        ask(server, suite.cases[0], "google:gemini-2.5-flash", "text")
    assert server.requests == []


def test_a_key_echoed_by_the_server_is_redacted(env, server, suite):
    rec = ask(server, suite.cases[0], "openai:fake+401", "text")
    assert rec.status == "error" and rec.error["http_status"] == 401
    assert "[redacted]" in rec.error["message"]
    assert PLANTED not in json.dumps(rec.to_json()) and PLANTED[-12:] not in json.dumps(rec.to_json())


# ---- cancellation and cache ----------------------------------------------------------------------

def test_cancelling_the_task_stops_the_call(env, suite):
    async def go(server):
        task = asyncio.create_task(read(suite.cases[0], None, "openai:fake+timeoutxall", "text", None,
                                        policy=FAST, base_url=server.base_url("openai")))
        assert await asyncio.to_thread(server.wait_for_requests, 1, 60)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with FakeServer(hang_s=3.0) as server:
        asyncio.run(go(server))
        assert len(server.requests) == 1  # it was in flight, and was not retried
    assert not list((env / "cache").rglob("*.json"))  # nothing cached for a cancelled call


def test_the_cache_answers_an_unchanged_question(env, server, suite):
    case = suite.cases[0]
    first = ask(server, case, "openai:gpt-4o", "pixels", dpi=72, cache=True)
    again = ask(server, case, "openai:gpt-4o", "pixels", dpi=72, cache=True)
    assert len(server.requests) == 1
    assert again.answer == first.answer and again.extra["cached"] is True
    ask(server, case, "openai:gpt-4o", "pixels", dpi=100, cache=True)            # another DPI
    ask(server, case, "openai:gpt-4o", "pixels", dpi=72, cache=True, prompt="Total?")  # another prompt
    ask(server, case, "openai:gpt-4o", "pixels", dpi=72, cache=True, options={"max_tokens": 50})
    ask(server, case, "openai:gpt-4o", "pixels", dpi=72, cache=False)            # --no-cache
    assert len(server.requests) == 5
    assert ask(server, suite.cases[1], "openai:gpt-4o", "pixels", dpi=72, cache=True).extra == {}


def test_errors_are_not_cached(env, server, suite):
    for _ in range(2):
        rec = ask(server, suite.cases[0], "openai:fake+400xall", "text", cache=True)
        assert rec.status == "error"
    assert len(server.requests) == 2


def test_unknown_option_is_a_user_error(env, server, suite):
    with pytest.raises(UserError, match="unknown reader option"):
        ask(server, suite.cases[0], "openai:gpt-4o", "text", options={"top_k": 3})
