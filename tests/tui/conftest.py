"""Fixtures for the TUI tests: a private copy of the sample suite, settings in a temporary folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
                "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "OLLAMA_HOST"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def suite_copy(tmp_path) -> Path:
    dest = tmp_path / "suite"
    shutil.copytree(SAMPLE, dest, ignore=shutil.ignore_patterns("runs", ".suite.lock"))
    return dest


async def settle(pilot) -> None:
    """Let every worker finish and the screen catch up."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()
