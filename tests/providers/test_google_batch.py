"""The Gemini batch mode protocol (providers/google_batch.py), against the fake batch service over
HTTP: the live calls' bodies inlined with a metadata key, a batch found again by its display
name, each inlined response read as the live adapter reads it."""

from __future__ import annotations

import pytest

from tests.support.fixtures import FAILS_IN_A_BATCH, batch_life
from workbench.providers.base import HttpCall, parse_reader
from workbench.providers.batch.service import Service
from workbench.providers.google_batch import INTENT_PREFIX, GeminiBatches

QUESTIONS = {"a-000000": "<<<\nTOTAL DUE €13,144.73\n>>>", "a-000001": f"<<<\n{FAILS_IN_A_BATCH}\n>>>"}


def test_a_request_is_the_live_call_s_body_with_its_key_in_the_metadata():
    call = HttpCall("http://x", {}, {"contents": []})
    assert GeminiBatches.line("a-000000", call) == {"request": {"contents": []}, "metadata": {"key": "a-000000"}}


def test_a_batch_s_life_answers_and_errors_by_metadata_key(batch_server):
    proto, entry, polls, results = batch_life(GeminiBatches, "google", batch_server, QUESTIONS, "models/gemini-x")
    assert entry.batch_id.startswith("batches/") and proto.find(entry) == entry.batch_id
    create = next(r for r in batch_server.batch.calls if r[1].endswith(":batchGenerateContent"))
    assert create == ("POST", "/v1beta/models/gemini-x:batchGenerateContent")   # no models/ twice
    assert polls[-1].status == "completed" and polls[-1].provider_status == "BATCH_STATE_SUCCEEDED"
    ok, failed = results["a-000000"], results["a-000001"]
    assert (ok.status, ok.answer, ok.finish_reason) == ("ok", "TOTAL DUE €13,144.73", "STOP")
    assert failed.status == "error" and (failed.error.type, failed.error.code) == ("request_failed", "3")
    assert failed.error.http_status is None   # a google.rpc.Status: its code is gRPC's, never read as HTTP
    assert INTENT_PREFIX + entry.intent in str(batch_server.batch.batches[entry.batch_id].__dict__)


def test_a_failed_batch_says_why(batch_server, monkeypatch):
    monkeypatch.setattr(batch_server.batch, "end", "failed")
    _, _, polls, results = batch_life(GeminiBatches, "google", batch_server, {"f-000000": "<<<\nx\n>>>"})
    assert polls[-1].status == "failed" and polls[-1].message and results == {}


@pytest.mark.parametrize("item, message", [({"metadata": {"key": "x"}}, "neither a response nor an error")])
def test_an_item_of_the_wrong_shape_is_that_call_s_error(item, message):
    proto = GeminiBatches(Service(parse_reader("google:m"), "http://127.0.0.1:9", None))   # never called
    with pytest.raises(ValueError, match=message):
        proto._result(item)
