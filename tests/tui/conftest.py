"""Fixtures for the TUI tests: a private copy of the sample suite, settings in a temporary folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "sample_cases" / "mini"


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("PDFWORKBENCH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PDFWORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PDFWORKBENCH_DATA_DIR", str(tmp_path / "data"))
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY",
                "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "OLLAMA_HOST"):
        monkeypatch.delenv(var, raising=False)


SMALL_SPEC = 'name = "small"\n[[families]]\nname = "hidden_ocr_mismatch"\nseeds = [1, 2, 3]\n'


@pytest.fixture(scope="session")
def _small_suite(tmp_path_factory) -> Path:
    from workbench.core.suite import build_suite

    folder = tmp_path_factory.mktemp("small")
    (folder / "spec.toml").write_text(SMALL_SPEC)
    build_suite(folder / "spec.toml", folder / "suite")
    return folder / "suite"


@pytest.fixture
def suite_copy(tmp_path, _small_suite) -> Path:
    """A private three-case suite of hidden_ocr_mismatch (seeds 1-3), without runs."""
    dest = tmp_path / "suite"
    shutil.copytree(_small_suite, dest, ignore=shutil.ignore_patterns("runs", ".suite.lock"))
    return dest


async def settle(pilot) -> None:
    """Let every worker finish and the screen catch up; text cursors stop blinking (a blinking
    cursor makes a snapshot depend on the moment it was taken)."""
    from textual.widgets import Input

    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    # Titles name what is open by its path, which differs from checkout to checkout.
    screen = pilot.app.screen
    if screen.sub_title:
        screen.sub_title = re.sub(r"(?:~|/)\S*/([^/\s]+)", r"…/\1", screen.sub_title)
    await pilot.pause()
