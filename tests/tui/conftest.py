"""Fixtures for the TUI tests: a private copy of a small suite (settings are private per test:
tests/conftest.py), and the test config every TUI test starts with."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.fixtures import built_suite

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



@pytest.fixture(autouse=True)
def test_config(private_settings, shared_lint) -> dict:
    """The config.json a TUI test starts with: no first-run hint, and a text-layer tab for every
    extractor known, installed here or not, so what a screen shows does not depend on the extras
    of the machine (a test that wants otherwise writes its own config.json). Returns what it wrote.
    (The case list's lint marks come from the run's shared lint cache: `shared_lint`.)"""
    from workbench.core.config import config_path
    from workbench.providers.extractors import EXTRACTORS
    from workbench.tui.case_data import EXTRACTORS as BUILT_IN

    written = {"first_run_hint": False, "layer_tabs": [n for n in EXTRACTORS if n not in BUILT_IN]}
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(json.dumps(written))
    return written
