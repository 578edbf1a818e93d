"""When a call is tried again and how long it waits first (workbench/providers/retry.py): the
server's hint wins, else capped full-jitter backoff; never past the deadline, never for a 4xx
that waiting cannot fix."""

from __future__ import annotations

import email.utils
import random

import pytest

from workbench.providers.retry import (
    RetryPolicy,
    decide,
    hint_from_headers,
    parse_duration,
    retryable_status,
)

POLICY = RetryPolicy(base_s=1.0, cap_s=8.0, max_attempts=4, max_wait_s=60.0, deadline_s=100.0, timeout_s=10.0,
                     max_body_bytes=1000)


@pytest.mark.parametrize("status, again", [(408, True), (409, True), (429, True), (500, True), (503, True),
                                           (529, True), (400, False), (401, False), (404, False)])
def test_which_statuses_are_tried_again(status, again):
    assert retryable_status(status) is again


def test_the_servers_hint_is_read_from_each_form_it_comes_in():
    assert hint_from_headers({"Retry-After-Ms": "1500"}) == 1.5
    assert hint_from_headers({"retry-after": "7"}) == 7.0
    at = email.utils.formatdate(1_000_030.0, usegmt=True)
    assert hint_from_headers({"Retry-After": at}, now=1_000_000.0) == pytest.approx(30.0)
    assert hint_from_headers({"retry-after": "soon"}) is None and hint_from_headers({}) is None
    assert parse_duration("3s") == 3.0 and parse_duration("0.5s") == 0.5 and parse_duration(3) is None


def test_backoff_is_full_jitter_under_a_ceiling_that_doubles_to_the_cap():
    rng = random.Random(7)
    for attempt, ceiling in ((1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)):
        waits = [POLICY.backoff(attempt, rng) for _ in range(200)]
        assert 0 <= min(waits) and max(waits) <= ceiling and max(waits) > ceiling / 2


def test_decide():
    rng = random.Random(1)
    assert decide(429, {"retry-after": "5"}, None, False, 1, POLICY, 0.0) == 5.0      # the hint wins
    assert decide(503, {}, 2.5, False, 1, POLICY, 0.0) == 2.5                         # then the body's
    assert 0 <= decide(None, {}, None, False, 2, POLICY, 0.0, rng) <= 2.0            # a network error
    assert decide(400, {}, None, False, 1, POLICY, 0.0) is None                       # not retryable
    assert decide(429, {}, None, True, 1, POLICY, 0.0) is None                        # out of quota
    assert decide(429, {}, None, False, 4, POLICY, 0.0) is None                       # attempts spent
    assert decide(429, {"retry-after": "61"}, None, False, 1, POLICY, 0.0) is None    # asks too long
    assert decide(429, {"retry-after": "5"}, None, False, 1, POLICY, 96.0) is None    # past the deadline
