"""Fixtures of the provider tests."""

from __future__ import annotations

import pytest

from tests.support.fixtures import SAMPLE


@pytest.fixture(scope="module")
def sample_cases():
    """The cases of the shipped two-family suite (sample_cases/mini), as read."""
    from workbench.core.suite import load_suite

    return load_suite(SAMPLE).cases


@pytest.fixture(scope="module")
def cases(suite_dir):
    """The cases of the module's own suite (each module builds its `suite_dir` from its spec)."""
    from workbench.core.suite import load_suite

    return load_suite(suite_dir).cases


@pytest.fixture(scope="module")
def fake_server():
    """One fake provider on 127.0.0.1 for the module's tests (its `requests` keep every request
    it got, the last one last)."""
    from workbench.providers.fakeserver import FakeServer

    with FakeServer(hang_s=1.0, hint_s=0.01) as server:
        yield server


@pytest.fixture(scope="module")
def batch_server():
    """A fake provider whose batches end after one status check, answering a request that holds
    `fixtures.FAILS_IN_A_BATCH` with a 400 (a test may set `batch.end` for the next batches)."""
    from tests.support.fixtures import FAILS_IN_A_BATCH
    from workbench.providers.fakeserver import FakeServer

    with FakeServer(hang_s=1.0, hint_s=0.01, batch_faults={FAILS_IN_A_BATCH: "400"}) as server:
        yield server
