"""The fake batch services' batches (providers/fakebatch.py): in progress for a number of status
checks, then ended as asked, every request answered as a live call would be, and an expired or
cancelled batch answering only its first half."""

from __future__ import annotations

import pytest

from tests.support.fixtures import FAILS_IN_A_BATCH, batch_life
from workbench.providers.anthropic_batch import AnthropicBatches
from workbench.providers.fakeserver import FakeServer
from workbench.providers.openai_batch import OpenAIBatches

QUESTIONS = {f"q-{i:06d}": f"<<<\npage {i}\n>>>" for i in range(4)}


def test_a_batch_is_in_progress_for_its_polls_then_answers_each_request():
    with FakeServer(batch_polls=3) as server:
        _, _, polls, results = batch_life(OpenAIBatches, "openai", server, QUESTIONS)
        assert [p.status for p in polls] == ["in_progress", "in_progress", "completed"]
        assert [r.answer for r in results.values()] == [f"page {i}" for i in range(4)]
        assert server.batch.creates == 1


@pytest.mark.parametrize("end, statuses", [("expired", ["ok", "error", "timeout", "timeout"]),
                                           ("completed", ["ok", "error", "ok", "ok"])])
def test_an_expired_batch_answers_its_first_half_and_a_fault_is_one_request_s(batch_server, monkeypatch, end, statuses):
    monkeypatch.setattr(batch_server.batch, "end", end)
    questions = dict(QUESTIONS, **{"q-000001": f"<<<\n{FAILS_IN_A_BATCH}\n>>>"})
    _, _, polls, results = batch_life(AnthropicBatches, "anthropic", batch_server, questions)
    assert polls[-1].status == end and [r.status for r in results.values()] == statuses


def test_a_cancelled_batch_ends_at_its_next_check_with_the_rest_not_run():
    with FakeServer(batch_polls=5) as server:
        proto, entry, polls, _ = batch_life(OpenAIBatches, "openai", server, QUESTIONS, max_polls=1)
        assert polls[-1].status == "in_progress"
        proto.cancel(entry.batch_id)
        poll = proto.poll(entry.batch_id)
        results = dict(proto.results(poll, entry))
    assert poll.status == "cancelled" and [r.status for r in results.values()] == ["ok", "ok", "cancelled", "cancelled"]


def test_a_batch_ends_only_as_completed_expired_or_failed():
    with pytest.raises(ValueError, match="batch end 'lost': choose one of completed, expired, failed"):
        FakeServer(batch_end="lost")
