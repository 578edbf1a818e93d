"""Fixtures of the provider tests."""

from __future__ import annotations

import pytest

from tests.support.fixtures import SAMPLE


@pytest.fixture(scope="module")
def sample_cases():
    """The cases of the shipped two-family suite (sample_cases/mini), as read."""
    from workbench.core.suite import load_suite

    return load_suite(SAMPLE).cases
