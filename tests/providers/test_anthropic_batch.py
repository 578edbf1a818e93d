"""The Anthropic Message Batches protocol (providers/anthropic_batch.py), against the fake batch
service over HTTP: the live calls' params under custom ids, a batch found again by its time and
size (it carries no metadata), each result read as the live adapter reads it."""

from __future__ import annotations

import pytest

from tests.support.fixtures import FAILS_IN_A_BATCH, batch_life
from workbench.providers.anthropic_batch import AnthropicBatches
from workbench.providers.base import HttpCall, parse_reader
from workbench.providers.batch.service import Service

QUESTIONS = {"a-000000": "<<<\nTOTAL DUE €13,144.73\n>>>", "a-000001": f"<<<\n{FAILS_IN_A_BATCH}\n>>>"}


def test_a_request_is_the_live_call_s_body_as_params():
    call = HttpCall("http://x/v1/messages", {}, {"model": "claude", "max_tokens": 5, "messages": []})
    assert AnthropicBatches.line("a-000000", call) == {"custom_id": "a-000000", "params": call.body}


def test_a_batch_s_life_answers_and_errors_by_custom_id(batch_server):
    proto, entry, polls, results = batch_life(AnthropicBatches, "anthropic", batch_server, QUESTIONS, "claude-x")
    assert entry.file_id is None and entry.batch_id.startswith("msgbatch_")   # no file: the requests go inline
    assert proto.find(entry) == entry.batch_id   # the one batch of its size made since its create began
    assert [(p.status, p.provider_status) for p in polls] == [("completed", "ended")]
    ok, failed = results["a-000000"], results["a-000001"]
    assert (ok.status, ok.answer, ok.finish_reason) == ("ok", "TOTAL DUE €13,144.73", "end_turn")
    assert failed.status == "error" and failed.error.type == "invalid_request_error"


def test_two_batches_of_the_same_size_since_the_create_began_are_not_guessed_between(batch_server):
    _, entry, _, _ = batch_life(AnthropicBatches, "anthropic", batch_server, {"x-000000": "<<<\none\n>>>"})
    proto, _, _, _ = batch_life(AnthropicBatches, "anthropic", batch_server, {"y-000000": "<<<\ntwo\n>>>"})
    with pytest.raises(Exception, match="cannot tell which of the message batches .* this run created"):
        proto.find(entry)


def test_an_expired_batch_leaves_the_rest_not_run(batch_server, monkeypatch):
    monkeypatch.setattr(batch_server.batch, "end", "expired")
    questions = {f"b-{i:06d}": f"<<<\npage {i}\n>>>" for i in range(2)}
    _, _, polls, results = batch_life(AnthropicBatches, "anthropic", batch_server, questions)
    assert polls[-1].status == "expired" and [r.status for r in results.values()] == ["ok", "timeout"]


@pytest.mark.parametrize("item, message", [
    ({"result": {"type": "weird"}}, "result.type 'weird' is none of succeeded, errored, canceled, expired"),
    ({"custom_id": "x"}, "result"),
])
def test_a_result_of_the_wrong_shape_is_that_call_s_error(item, message):
    proto = AnthropicBatches(Service(parse_reader("anthropic:m"), "http://127.0.0.1:9", None))   # never called
    with pytest.raises(ValueError, match=message):
        proto._result(item)
