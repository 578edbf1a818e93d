"""Extraction cases send their JSON schema as each provider's structured output (live calls
through httpx to the fake server, which refuses what the real services refuse)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.fixtures import suite_copy
from workbench.providers.fakeserver import FakeServer

HERE = Path(__file__).resolve().parents[1] / "support"
READERS = {"openai": "openai:gpt-4o", "anthropic": "anthropic:claude-sonnet-4-5",
           "google": "google:gemini-2.5-flash", "ollama": "ollama:llama3.2-vision"}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """An extraction case and a plain one (the shared gold test suite has one of each)."""
    from workbench.core.suite import load_suite

    suite = load_suite(suite_copy(tmp_path_factory.mktemp("structured")))
    invoice = next(c for c in suite.cases if c.trap_family == "invoice_extraction")
    plain = next(c for c in suite.cases if c.trap_family != "invoice_extraction")
    return invoice, plain


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.setenv(var, "test-key-structured-0123456789")
    return tmp_path


def structured_part(provider: str, body: dict):
    if provider == "openai":
        return body.get("response_format")
    if provider == "anthropic":
        return (body.get("tools"), body.get("tool_choice")) if "tools" in body else None
    if provider == "google":
        return body["generationConfig"].get("responseSchema")
    return body.get("format")


@pytest.mark.parametrize("provider", list(READERS))
def test_an_extraction_case_sends_its_schema_and_grades(env, cli, cases, provider):
    invoice, _ = cases
    with FakeServer(script={invoice.sha256: invoice.expected_answer}) as server:
        code, _, err = cli("ask", invoice.json_path, "--reader", READERS[provider], "--no-cache", "--json",
                           "--base-url", server.base_url(provider), "--out", env / "asked.jsonl",
                           *(["--modality", "text"] if provider == "ollama" else []))
        body = server.requests[-1]["body"]
    assert code == 0, err   # the answer (a tool's input, for Anthropic) grades as a pass
    sent = structured_part(provider, body)
    assert sent, f"{provider} got no structured output"
    record = json.loads((env / "asked.jsonl").read_text().splitlines()[-1])
    assert record["status"] == "ok" and record["extra"]["structured_output"]
    if provider == "openai":
        assert sent["type"] == "json_schema" and sent["json_schema"]["schema"]["properties"]["invoice"]
    if provider == "anthropic":
        tools, choice = sent
        assert choice == {"type": "tool", "name": tools[0]["name"]}
        assert tools[0]["input_schema"]["type"] == "object"
        assert json.loads(record["answer"]) == json.loads(invoice.expected_answer)
    if provider == "google":
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert sent["type"] == "OBJECT" and "$schema" not in json.dumps(sent)
        assert sent["properties"]["invoice"]["properties"]["total"]["type"] == "NUMBER"


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_no_structured_and_plain_cases_send_none(env, cli, cases, provider):
    invoice, plain = cases
    with FakeServer() as server:
        for case, extra in ((invoice, ["--no-structured"]), (plain, [])):
            code, _, err = cli("ask", case.json_path, "--reader", READERS[provider], "--no-cache",
                               "--base-url", server.base_url(provider), "--out", env / "asked.jsonl", *extra)
            assert not structured_part(provider, server.requests[-1]["body"])
    for line in (env / "asked.jsonl").read_text().splitlines():
        assert "structured_output" not in json.loads(line)["extra"]


def test_openai_structured_request_validates_against_the_official_schema(env, cli, cases):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((HERE / "openai_chat_schema.json").read_text())
    validator = jsonschema.Draft202012Validator({"$ref": "#/$defs/CreateChatCompletionRequest", **schema})
    invoice, _ = cases
    with FakeServer() as server:
        cli("ask", invoice.json_path, "--reader", "openai:gpt-4o", "--no-cache",
            "--base-url", server.base_url("openai"), "--out", env / "asked.jsonl")
        body = server.requests[-1]["body"]
    errors = sorted(validator.iter_errors(body), key=str)
    assert not errors, errors[0].message
    assert body["response_format"]["json_schema"]["strict"] is False
