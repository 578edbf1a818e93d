"""The fake batch services' endpoints (providers/fakebatchwire.py), in raw HTTP as each service
takes them: what each refuses, in its own error shape, so the batch tests mean something."""

from __future__ import annotations

import json

import pytest

from tests.support.fixtures import http

CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "<<<\nTOTAL DUE 1.00\n>>>"}]}


def upload(server, lines: list[dict], purpose: str = "batch"):
    data = "".join(json.dumps(x) + "\n" for x in lines).encode()
    return http().post(f"{server.url}/v1/files", data={"purpose": purpose}, files={"file": ("in.jsonl", data)})


def openai_batch(server, lines: list[dict]) -> dict:
    file_id = upload(server, lines).json()["id"]
    return http().post(f"{server.url}/v1/batches", json={"input_file_id": file_id, "endpoint": "/v1/chat/completions",
                                                        "completion_window": "24h"}).json()


def test_openai_takes_a_batch_file_and_refuses_anything_else(batch_server):
    up = upload(batch_server, [{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": CHAT}])
    assert up.status_code == 200 and up.json()["purpose"] == "batch" and up.json()["id"].startswith("file-")
    assert upload(batch_server, [], purpose="fine-tune").json()["error"]["message"] == \
        "A batch input file needs purpose=batch and a file part."
    made = http().post(f"{batch_server.url}/v1/batches", json={"input_file_id": up.json()["id"], "endpoint": "/v1/embeddings",
                                                              "completion_window": "24h"})
    assert made.status_code == 400 and made.json()["error"]["message"] == "Invalid endpoint '/v1/embeddings'."
    long_meta = {"input_file_id": up.json()["id"], "endpoint": "/v1/chat/completions", "completion_window": "24h",
                 "metadata": {"k": "v" * 513}}
    assert "metadata: at most 16 string pairs" in http().post(f"{batch_server.url}/v1/batches", json=long_meta).text
    missing = http().get(f"{batch_server.url}/v1/batches/batch_nosuch")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "invalid_request_error"


def test_an_openai_file_with_bad_lines_makes_a_failed_batch_naming_each_line(batch_server):
    line = {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": CHAT}
    batch = openai_batch(batch_server, [line, line, {**line, "custom_id": "b", "url": "/v1/embeddings"},
                                        {**line, "custom_id": "c", "body": {**CHAT, "model": "other"}}])
    assert batch["status"] == "failed"
    assert [(e["code"], e["line"]) for e in batch["errors"]["data"]] == [
        ("duplicate_custom_id", 2), ("invalid_url", 3), ("mismatched_model", 4)]


@pytest.mark.parametrize("body, headers, message", [
    ({"requests": []}, {"anthropic-version": "2023-06-01"}, "requests: at least one request is required"),
    ({"requests": [{"custom_id": "a b", "params": {}}]}, {"anthropic-version": "2023-06-01"},
     "requests.0.custom_id: String should match pattern"),
    ({"requests": [{"custom_id": "a", "params": {"model": "m"}}]}, {"anthropic-version": "2023-06-01"},
     "requests.0.params: model, max_tokens and messages are required"),
    ({"requests": []}, {}, "anthropic-version: header is required"),
])
def test_anthropic_refuses_what_message_batches_refuse(batch_server, body, headers, message):
    resp = http().post(f"{batch_server.url}/v1/messages/batches", json=body, headers=headers)
    assert resp.status_code == 400 and resp.json()["type"] == "error"
    assert resp.json()["error"]["message"].startswith(message)


def test_gemini_takes_inlined_requests_under_a_display_name(batch_server):
    url = f"{batch_server.url}/v1beta/models/gemini-x:batchGenerateContent"
    no_name = http().post(url, json={"batch": {"input_config": {"requests": {"requests": [{}]}}}})
    assert no_name.status_code == 400 and no_name.json()["error"] == {
        "code": 400, "message": "batch.display_name: required", "status": "INVALID_ARGUMENT"}
    item = {"request": {"contents": [{"parts": [{"text": "<<<\nx\n>>>"}]}]}, "metadata": {"key": "k1"}}
    op = http().post(url, json={"batch": {"display_name": "pdfworkbench-abc",
                                          "input_config": {"requests": {"requests": [item]}}}}).json()
    assert op["name"].startswith("batches/") and op["metadata"]["state"] == "BATCH_STATE_PENDING"
    assert op["metadata"]["batchStats"]["requestCount"] == "1"   # Gemini's counts are strings
    done = http().get(f"{batch_server.url}/v1beta/{op['name']}").json()
    assert done["done"] is True and done["response"]["inlinedResponses"]["inlinedResponses"][0]["metadata"] == {"key": "k1"}
