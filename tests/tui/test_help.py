"""F1 (and ?): the keys of the screen in front, one line each, made from its bindings."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from textual.binding import Binding

from tests.support.fixtures import settle
from workbench.core.config import config_path
from workbench.core.source import open_source
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.help import HelpScreen

ROOT = Path(__file__).resolve().parents[2]


def _extraction(tmp_path: Path) -> Path:
    dest = tmp_path / "extraction"
    shutil.copytree(ROOT / "sample_cases" / "extraction", dest, ignore=shutil.ignore_patterns(".suite.lock"))
    return dest


def _help_lines(app) -> list[str]:
    assert isinstance(app.screen, HelpScreen)
    return [" ".join(line.split()) for line in app.screen.keys.plain.splitlines()]


# the key that opens each screen from Inspect, and lines its help must hold (keys, label, what it does)
SCREENS = {
    "inspect": ("", ["Inspect", "a Ask Ask a reader about this case", "1 pypdf The text layer as pypdf reads it",
                     "w Author Author a case from this one (family, params, seed, scan)",
                     "pgdn, n Next page Next page (whatever pane has focus)",
                     "j Down The next case (or ↓)", "f1, ? Help The keys of the screen in front and what its panes show"]),
    "runs": ("r", ["Runs", "f Filter All, failures, fell for the trap, not scored", "esc, b Back Back to Inspect"]),
    "triage": ("t", ["Triage", "^a Accept Accept the proposed value (needs a rationale)", "z 1:1 1:1: one half-cell"]),
    "author": ("w", ["Author", "^s Save Save this case and its answer key into a suite", "[ Seed - Previous seed"]),
    "ask": ("a", ["Ask", "esc Close Close without asking"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("screen", list(SCREENS))
async def test_f1_lists_the_keys_of_the_screen_in_front(tmp_path, screen):
    """F1 on each screen: a line per key of that screen (and its focused pane, and the app's),
    each with its label and what it does; F1 again goes back to the same screen."""
    key, expected = SCREENS[screen]
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        if key:
            await pilot.press(key)
            await settle(pilot)
        front = app.screen
        await pilot.press("f1")
        await settle(pilot)
        lines = _help_lines(app)
        for want in expected:
            assert any(line.startswith(want) for line in lines), (want, lines)
        # every key of the screen's own that works now is there, with its label
        columns = [re.split(r"\s{2,}", line.strip()) for line in app.screen.keys.plain.splitlines()]
        for node, binding, _enabled, _tip in front.active_bindings.values():
            if node is front:
                shown = app.get_key_display(binding)
                assert any(shown in c[0].split(", ") and binding.description in c[1:2] for c in columns), \
                    (shown, binding.description, columns)
        keyed = [line for line in app.screen.keys.plain.splitlines() if line.startswith(" ")]
        assert len(keyed) >= 3 and all(len(re.split(r"\s{2,}", k.strip())) >= 2 for k in keyed), keyed  # each labelled
        await pilot.press("f1")
        await settle(pilot)
        assert app.screen is front


async def test_question_mark_opens_the_same_help_and_escape_closes_it(tmp_path):
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        by_f1 = _help_lines(app)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        await settle(pilot)
        assert _help_lines(app) == by_f1
        # below the keys: what the focused pane (the case list) shows
        assert "The suite's cases, grouped by family" in app.screen.about


async def test_the_help_shows_the_keys_as_the_user_remapped_them(tmp_path):
    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text(json.dumps({"keymap": {"toggle_evidence": "x"}}))
    app = WorkbenchApp(open_source(_extraction(tmp_path)))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        lines = _help_lines(app)
        assert "x Evidence Show or hide evidence boxes" in lines
        assert not any(line.startswith("e Evidence") for line in lines)


def test_every_binding_of_the_workbench_has_an_id_a_label_and_a_tooltip():
    """The help and `config keys` are made from the bindings: each says what it does."""
    import importlib
    import inspect
    import pkgutil

    import workbench.tui as package

    missing = []
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != info.name:
                continue
            for b in cls.__dict__.get("BINDINGS", ()):
                if isinstance(b, Binding) and not (b.id and b.description and b.tooltip):
                    missing.append(f"{cls.__name__}: {b.key} -> {b.action}")
    assert not missing, missing
