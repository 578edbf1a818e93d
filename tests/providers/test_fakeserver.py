"""The fake provider on 127.0.0.1 (providers/fakeserver.py), over real HTTP: faults asked for in
the model name served attempt by attempt, answers from a script or from the document itself,
and what it says to a request it cannot serve."""

from __future__ import annotations

import base64
import hashlib
import json

import httpx
import pytest

from tests.support.fixtures import SAMPLE_PDF, http
from workbench.providers.fakeserver import FakeServer, fault_for_attempt, parse_faults

PDF = SAMPLE_PDF.read_bytes()


def chat(server, model: str, text: str = "<<<\nTOTAL DUE €13,144.73\n>>>", pdf: bytes | None = None) -> httpx.Response:
    content: list = [{"type": "text", "text": text}]
    if pdf is not None:
        content.insert(0, {"type": "file", "file": {"filename": "d.pdf",
                                                    "file_data": "data:application/pdf;base64," + base64.b64encode(pdf).decode()}})
    return http().post(f"{server.url}/v1/chat/completions",
                      json={"model": model, "messages": [{"role": "user", "content": content}]})


def answer(resp: httpx.Response) -> str:
    return resp.json()["choices"][0]["message"]["content"]


def test_faults_are_read_from_the_model_name_and_served_in_order():
    assert parse_faults("500x2+timeout") == [("500", 2), ("timeout", 1)]
    assert parse_faults("429xall") == [("429", None)] and parse_faults("") == []
    with pytest.raises(ValueError, match="unknown fault 'teapot'; known: 429, 429-retry-after-ms"):
        parse_faults("teapot")
    faults = parse_faults("500x2+429")
    assert [fault_for_attempt(faults, n) for n in (1, 2, 3, 4)] == ["500", "500", "429", None]
    assert fault_for_attempt([("503", None)], 99) == "503"


def test_the_same_request_gets_its_faults_then_its_answer_and_another_request_its_own(fake_server):
    statuses = [chat(fake_server, "gpt-4o+500x2", "<<<\nfirst\n>>>").status_code for _ in range(3)]
    assert statuses == [500, 500, 200]
    assert chat(fake_server, "gpt-4o+500x2", "<<<\nsecond\n>>>").status_code == 500   # counted apart
    retry = chat(fake_server, "gpt-4o+429-retry-after-ms", "<<<\nthird\n>>>")
    assert retry.status_code == 429 and retry.headers["retry-after-ms"] == "10"


def test_answers_come_from_the_script_by_pdf_hash_or_text_else_from_the_document():
    script = {hashlib.sha256(PDF).hexdigest(): "by hash", "Who is the vendor": "by text", "*": "anything else"}
    with FakeServer(script=script) as server:
        assert answer(chat(server, "m", "Total?", pdf=PDF)) == "by hash"
        assert answer(chat(server, "m", "Who is the vendor?")) == "by text"
        assert answer(chat(server, "m", "What?")) == "anything else"
    with FakeServer() as server:
        assert "TOTAL DUE\n€53,919.68" in answer(chat(server, "m", "Total?", pdf=PDF))   # the text layer
        assert answer(chat(server, "m", "Doc:\n<<<\nthe page\n>>>\nQuestion?")) == "the page"   # the text sent
        assert answer(chat(server, "m", "nothing")) == "(no text layer)"


def test_a_script_file_is_read_and_must_be_an_object(tmp_path):
    path = tmp_path / "script.json"
    path.write_text(json.dumps({"*": "from the file"}))
    with FakeServer(script=path) as server:
        assert answer(chat(server, "m")) == "from the file"
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="a fake-server script is a JSON object"):
        FakeServer(script=path)


def test_what_it_cannot_serve_is_said_in_the_provider_s_shape(fake_server):
    health = http().get(f"{fake_server.url}/health").json()
    assert health["ok"] is True and health["requests"] == len(fake_server.requests)
    assert http().get(f"{fake_server.url}/nowhere").status_code == 404
    assert http().post(f"{fake_server.url}/v1/nowhere", json={}).json() == {"error": "no such endpoint /v1/nowhere"}
    bad = http().post(f"{fake_server.url}/v1/chat/completions", content=b"{not json")
    assert bad.status_code == 400 and bad.json()["error"]["type"] == "invalid_request_error"
    unknown = chat(fake_server, "gpt-4o+teapot")
    assert unknown.status_code == 400 and "unknown fault 'teapot'" in unknown.json()["error"]["message"]


def test_every_request_is_kept_with_its_format_path_and_lower_case_headers(fake_server):
    before = len(fake_server.requests)
    chat(fake_server, "gpt-4o")
    assert fake_server.wait_for_requests(before + 1, timeout=5)
    last = fake_server.requests[-1]
    assert (last["format"], last["path"], last["body"]["model"]) == ("openai", "/v1/chat/completions", "gpt-4o")
    assert all(k == k.lower() for k in last["headers"])
    assert not fake_server.wait_for_requests(before + 2, timeout=0.05)
