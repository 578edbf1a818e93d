"""The OpenAI Batch API protocol (providers/openai_batch.py), against the fake batch service over
HTTP: a JSONL file of the live calls' bodies, a batch found again by its intent, each line's
answer or error read as the live adapter reads it."""

from __future__ import annotations

import pytest

from tests.support.fixtures import FAILS_IN_A_BATCH, batch_life
from workbench.providers.base import HttpCall, parse_reader
from workbench.providers.batch.service import Service
from workbench.providers.openai_batch import OpenAIBatches

QUESTIONS = {"a-000000": "<<<\nTOTAL DUE €13,144.73\n>>>", "a-000001": f"<<<\n{FAILS_IN_A_BATCH}\n>>>"}


def test_a_line_is_the_live_call_s_body_under_its_custom_id():
    call = HttpCall("http://x/v1/chat/completions", {}, {"model": "gpt-4o", "messages": []})
    assert OpenAIBatches.line("a-000000", call) == {"custom_id": "a-000000", "method": "POST",
                                                    "url": "/v1/chat/completions", "body": call.body}


def test_a_batch_s_life_answers_and_errors_by_custom_id(batch_server):
    proto, entry, polls, results = batch_life(OpenAIBatches, "openai", batch_server, QUESTIONS, "gpt-4o")
    assert entry.file_id and entry.batch_id and proto.find(entry) == entry.batch_id   # by its intent in the metadata
    assert [(p.status, p.provider_status) for p in polls] == [("completed", "completed")]
    assert polls[0].counts["total"] == 2
    ok, failed = results["a-000000"], results["a-000001"]
    assert (ok.status, ok.answer, ok.finish_reason) == ("ok", "TOTAL DUE €13,144.73", "stop")
    assert ok.request_id and ok.usage["input_tokens"] > 0
    assert failed.status == "error" and failed.error.http_status == 400 and failed.error.type == "invalid_request_error"


def test_an_expired_batch_answers_what_ran_and_leaves_the_rest_not_run(batch_server, monkeypatch):
    monkeypatch.setattr(batch_server.batch, "end", "expired")
    questions = {f"b-{i:06d}": f"<<<\npage {i}\n>>>" for i in range(4)}
    _, _, polls, results = batch_life(OpenAIBatches, "openai", batch_server, questions, "gpt-4o")
    assert polls[-1].status == "expired"
    assert [results[c].status for c in questions] == ["ok", "ok", "timeout", "timeout"]   # the error file's lines
    assert results["b-000003"].error.type == "batch_expired"   # never a wrong answer: asked again by --retry-errors


@pytest.mark.parametrize("item, message", [
    ({"response": {"status_code": "200"}}, "response.status_code is not a number"),
    ({"custom_id": "x"}, "the line has neither a response nor an error"),
])
def test_a_line_of_the_wrong_shape_is_that_call_s_error(item, message):
    proto = OpenAIBatches(Service(parse_reader("openai:gpt-4o"), "http://127.0.0.1:9/v1", None))   # never called
    with pytest.raises(ValueError, match=message):
        proto._result(item)


def test_a_batch_is_found_again_by_its_intent_among_others(batch_server):
    _, first, _, _ = batch_life(OpenAIBatches, "openai", batch_server, {"x-000000": "<<<\none\n>>>"})
    proto, second, _, _ = batch_life(OpenAIBatches, "openai", batch_server, {"y-000000": "<<<\ntwo\n>>>"})
    assert proto.find(first) == first.batch_id and proto.find(second) == second.batch_id
