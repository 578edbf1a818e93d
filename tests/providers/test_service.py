"""The batch services' one gate (providers/batch/service.py), against the fake batch service over
HTTP: answers redacted before anything reads them, every refusal one line that says what was
asked and what came back, a result file read line by line with a bad line kept to its call."""

from __future__ import annotations

import io
import json

import pytest

from workbench.providers.base import parse_reader
from workbench.providers.batch.service import BadLine, Refused, Service
from workbench.providers.retry import RetryPolicy

KEY = "sk-test-service-7f3c9a1e5b2d4c6e8a0b"
FAST = RetryPolicy(base_s=0.005, cap_s=0.02, deadline_s=10, max_attempts=3, timeout_s=5)


def service(server, provider: str = "openai") -> Service:
    return Service(parse_reader(f"{provider}:gpt-4o"), server.base_url(provider), KEY, FAST)


@pytest.fixture
def serve(batch_server, monkeypatch):
    """Serve `reply` (status, body, headers, content type) instead of the service's answer to `step`."""
    def instead(step: str, reply) -> None:
        monkeypatch.setattr(batch_server.batch, "tamper", lambda s, r: reply if s == step else None)
    return instead


def test_an_answer_is_read_with_every_key_redacted(batch_server, serve):
    serve("list", (200, json.dumps({"data": [], "note": f"you sent {KEY}", KEY: 1}).encode(), {}, "application/json"))
    answer = service(batch_server).call("GET", "/batches", "listing batches")
    assert answer == {"data": [], "note": "you sent [redacted]", "[redacted]": 1}
    assert KEY not in json.dumps(answer)


def test_a_refused_create_is_one_line_tried_once(batch_server, serve):
    serve("create", (400, json.dumps({"error": {"message": f"Bad input for key {KEY}", "type": "invalid_request_error"}})
                     .encode(), {}, "application/json"))
    before = len(batch_server.batch.calls)
    with pytest.raises(Refused) as refused:
        service(batch_server).call("POST", "/batches", "creating the batch", body={"x": 1}, once=True)
    assert str(refused.value) == "openai batch service: creating the batch: HTTP 400: Bad input for key [redacted]"
    assert refused.value.status == 400 and refused.value.surely_not_done
    assert len(batch_server.batch.calls) == before + 1   # a create is never sent twice


@pytest.mark.parametrize("reply, says", [
    ((502, b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title>", {}, "text/html"),
     "HTTP 502: an HTML page (502 Bad Gateway)"),
    ((200, b"<html>hello</html>", {}, "text/html"), "the answer is not JSON (it begins '<html>hello</html>')"),
    ((200, b"[" * 100_000, {}, "application/json"), "the answer is nested too deeply to read"),
])
def test_what_came_back_instead_of_an_answer_is_said_in_one_line(batch_server, serve, reply, says):
    serve("status", reply)
    with pytest.raises(Refused) as refused:
        service(batch_server).call("GET", "/batches/b1", "checking batch b1")
    assert str(refused.value) == f"openai batch service: checking batch b1: {says}"


def test_nobody_listening_is_one_line_at_once(batch_server):
    down = Service(parse_reader("anthropic:m"), "http://127.0.0.1:9", KEY, FAST)
    with pytest.raises(Refused, match=r"^anthropic batch service: listing: cannot connect to http://127\.0\.0\.1:9 "
                                      r"\(.*\); is it running\? Check --base-url$"):
        down.call("GET", "/v1/messages/batches", "listing")


def test_a_result_file_s_lines_each_its_value_or_its_call_s_problem(batch_server):
    s = service(batch_server)
    text = (b'{"custom_id": "a-1", "answer": "' + KEY.encode() + b'"}\n\n'
            b'{"custom_id": "a-2", "answer": \n'
            b'[1, 2]\n')
    lines = list(s.lines(io.BytesIO(text), "output file"))
    assert lines[0] == (1, {"custom_id": "a-1", "answer": "[redacted]"})
    assert lines[1][0] == 3 and lines[1][1] == BadLine("a-2", lines[1][1].problem)
    assert lines[1][1].problem.startswith("line 3 of the output file is not JSON (")
    assert lines[2] == (4, BadLine(None, "line 4 of the output file is not a JSON object"))


def test_a_file_that_is_no_json_lines_is_refused_whole(batch_server):
    with pytest.raises(Refused, match=r"the file is not JSON Lines \(it begins '<html><body>Gateway'\); nothing of it "
                                      r"was collected"):
        list(service(batch_server).lines(io.BytesIO(b"<html><body>Gateway\n"), "output file"))


def test_a_create_that_may_have_reached_the_service_is_not_sent_again(batch_server, serve):
    serve("create", (503, b'{"error": {"message": "Service unavailable.", "type": "server_error"}}', {},
                     "application/json"))
    before = len(batch_server.batch.calls)
    with pytest.raises(Refused) as refused:
        service(batch_server).call("POST", "/batches", "creating the batch", body={"x": 1}, once=True)
    assert len(batch_server.batch.calls) == before + 1 and not refused.value.surely_not_done   # look before asking again
    with pytest.raises(Refused):
        service(batch_server).call("POST", "/batches", "creating the batch", body={"x": 1})
    assert len(batch_server.batch.calls) == before + 1 + 3   # anything else is tried again, by the policy
