"""Fixtures for the TUI tests: a private copy of a small suite (settings are private per test: tests/conftest.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.fixtures import built_suite

SMALL_SPEC = 'name = "small"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [1, 2, 3]\n'


@pytest.fixture(scope="session")
def _small_suite(tmp_path_factory) -> Path:
    return built_suite(tmp_path_factory.mktemp("small"), SMALL_SPEC)


@pytest.fixture
def suite_copy(tmp_path, _small_suite) -> Path:
    """A private three-case suite of hidden_ocr_mismatch (seeds 1-3), without runs."""
    dest = tmp_path / "suite"
    shutil.copytree(_small_suite, dest, ignore=shutil.ignore_patterns("runs", ".suite.lock"))
    return dest

