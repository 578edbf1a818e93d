"""The newcomer's path through the real `pdfworkbench` command in a real terminal (tmux): the
first-run hint, pick a case, zoom to its evidence, Author, change a parameter, save into a new
suite, ask a probe, the runs, triage, quit. Each step waits for what the screen shows."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

DEADLINE = 120.0  # seconds for one step to show on screen: generous for a loaded 2-core machine
COMMAND = Path(sys.executable).parent / "pdfworkbench"  # the venv's console script
# The test's own terminal, which the app must not see: COLUMNS and LINES (pytest-xdist sets them)
# would size the app instead of the tmux window.
INHERITED_NOT = {"TMUX", "TMUX_PANE", "COLUMNS", "LINES"}


class Terminal:
    """A detached tmux session on its own server (`-L`), so the user's tmux is never touched."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              check=check, timeout=30)

    def start(self, argv: list[str], size: tuple[int, int], cwd: Path, env: dict[str, str]) -> None:
        width, height = size
        extra = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        extra += [a for k in ("COLUMNS", "LINES") for a in ("-e", k)]  # unset in the pane (tmux -e NAME)
        subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "wb",
                        "-x", str(width), "-y", str(height), "-c", str(cwd), *extra, *argv],
                       env={**{k: v for k, v in os.environ.items() if k not in INHERITED_NOT}, **env}, check=True, timeout=30)
        # Without a terminal of its own (under xdist) tmux can size the window 80x24: pin it.
        self.tmux("set-option", "-t", "wb", "window-size", "manual")
        self.tmux("resize-window", "-t", "wb", "-x", str(width), "-y", str(height))
        shown = self.tmux("display-message", "-p", "-t", "wb", "#{window_width}x#{window_height}").stdout
        assert shown.strip() == f"{width}x{height}", shown
        self.socket_path = self.tmux("display-message", "-p", "#{socket_path}").stdout.strip()

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "wb", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "wb", "-l", text)

    def screen(self) -> str:
        done = self.tmux("capture-pane", "-p", "-t", "wb", check=False)
        return done.stdout if done.returncode == 0 else ""

    def wait_for(self, pattern: str, what: str) -> str:
        """The screen once `pattern` (a regex) shows on it; fails with the last screen after DEADLINE."""
        end = time.monotonic() + DEADLINE
        while True:
            shown = self.screen()
            if re.search(pattern, shown):
                return shown
            if time.monotonic() > end:
                pytest.fail(f"{what}: {pattern!r} not on screen after {DEADLINE:.0f} s:\n{shown}")
            time.sleep(0.2)

    def wait_gone(self, pattern: str, what: str) -> str:
        end = time.monotonic() + DEADLINE
        while True:
            shown = self.screen()
            if not re.search(pattern, shown):
                return shown
            if time.monotonic() > end:
                pytest.fail(f"{what}: {pattern!r} still on screen after {DEADLINE:.0f} s:\n{shown}")
            time.sleep(0.2)

    def wait_cursor_on(self, pattern: str, what: str) -> None:
        """Until the terminal's cursor (the focused text box's) is on a line matching `pattern`:
        keys typed before the focus has moved there go to the box it left."""
        end = time.monotonic() + DEADLINE
        while True:
            y = self.tmux("display-message", "-p", "-t", "wb", "#{cursor_y}").stdout.strip()
            lines = self.screen().splitlines()
            if y.isdigit() and int(y) < len(lines) and re.search(pattern, lines[int(y)]):
                return
            if time.monotonic() > end:
                pytest.fail(f"{what}: the cursor is not on {pattern!r} after {DEADLINE:.0f} s (line {y})")
            time.sleep(0.2)

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", "wb", check=False).returncode == 0

    def kill(self) -> None:
        self.tmux("kill-server", check=False)
        if getattr(self, "socket_path", ""):  # tmux leaves its socket file behind
            Path(self.socket_path).unlink(missing_ok=True)


@pytest.mark.parametrize("size", [(160, 48), (100, 30)], ids=["160x48", "100x30"])
def test_the_newcomer_path_in_a_real_terminal(tmp_path, size):
    suite = tmp_path / "mini"
    shutil.copytree(ROOT / "sample_cases" / "mini", suite)
    new_suite = tmp_path / "my-suite"
    env = {"PDFWORKBENCH_CONFIG_DIR": str(tmp_path / "fresh-config"),  # a first run: no config.json
           "PDFWORKBENCH_CACHE_DIR": str(tmp_path / "fresh-cache"),
           "PDFWORKBENCH_DATA_DIR": str(tmp_path / "fresh-data")}
    term = Terminal(f"pdfwb-newcomer-{uuid.uuid4().hex[:12]}")
    try:
        term.start([str(COMMAND), str(suite)], size, tmp_path, env)

        # The first-run hint says where to start; x hides it.
        term.wait_for(r"↓ to pick a case", "the first-run hint")
        term.wait_for(r"─ actualtext_override-0001 ─", "the first case shown")
        term.keys("x")
        term.wait_gone(r"↓ to pick a case", "the hint hidden by x")

        # Pick a case: the cursor starts on the first family, so two downs reach the second case.
        term.keys("Down", "Down")
        term.wait_for(r"─ annotation_only_text-0001 ─", "the second case picked")
        # b needs the case's boxes, which come with its text layers: wait for the letterhead there
        term.wait_for(r"│ Tyrell Components LLC", "the second case's text layer")

        # b centres the first evidence box, zoomed: the page's border says the zoom.
        term.keys("b")
        term.wait_for(r"page 1/1 · 150 dpi · (1:1|\d+(\.\d+)?x) ·", "zoomed to the evidence")

        # w: Author on this case's family, its parameters in the form.
        term.keys("w")
        shown = term.wait_for(r"author — annotation_only_text · seed 1 · generated in \d+ ms", "Author")
        assert "visible_total" in shown and "44879.86" in shown, shown

        # Change visible_total (the second tab stop after the family select and the seed): the
        # row turns pinned and the preview's text layer shows the new total.
        term.keys("Tab")
        term.keys("Tab")
        term.keys("End")
        for text, key in (("44879.8", "BSpace"), ("44879.", "BSpace"), ("44879.1", "1"), ("44879.11", "1")):
            if key == "BSpace":
                term.keys(key)
            else:
                term.type(key)
            term.wait_for(rf"│ {re.escape(text)}\s", f"visible_total typed as {text}")
        shown = term.wait_for(r"visible_total\s+pinned", "visible_total pinned")
        if size == (160, 48):  # at 100x30 the total is below the text pane's fold
            term.wait_for(r"\$44,879\.11", "the preview's text layer with the new total")

        # ctrl+s: the save dialog; a new suite folder; Enter saves.
        # A save while the last keystroke's preview is still generating says so and saves
        # nothing: a user presses ctrl+s again once it has done, and so does this.
        end = time.monotonic() + DEADLINE
        while True:
            term.keys("C-s")
            shown = term.wait_for(r"Save this case into a suite|still generating; save again", "the save dialog")
            if "Save this case into a suite" in shown:
                break
            assert time.monotonic() < end, shown
            term.wait_gone(r"still generating; save again", "the warning gone")
        term.keys("Home")
        term.keys("C-k")
        term.wait_for(r"suite folder\s+▊\s+▎", "the folder box emptied")
        term.type(str(new_suite))
        term.wait_for(r"a new suite \(the folder will be made\)", "the dialog says a new suite")
        term.keys("Enter")
        term.wait_for(r"Saved annotation_only_text-0001\S* into", "saved")
        saved = json.loads((new_suite / "suite.json").read_text())
        case_ids = [c["id"] for c in saved["cases"]]
        assert len(case_ids) == 1 and case_ids[0].startswith("annotation_only_text-0001"), saved
        case = json.loads((new_suite / f"{case_ids[0]}.json").read_text())
        assert "44879.11" in json.dumps(case) and (new_suite / f"{case_ids[0]}.pdf").stat().st_size > 0

        # Keep authoring (n), then back to Inspect (esc; leave the draft: y).
        term.keys("n")
        term.wait_gone(r"Keep authoring \(n\)", "the saved dialog closed")
        term.keys("Escape")
        term.wait_for(r"Leave Author\?", "leave Author")
        term.keys("y")
        term.wait_for(r"pdfworkbench — suite ", "back to Inspect")
        term.wait_for(r"─ annotation_only_text-0001 ─", "the same case")

        # a: ask a probe typed in "or type one"; its verdict shows in the Answers tab.
        term.keys("a")
        term.wait_for(r"Ask a reader about annotation_only_text-0001", "the ask dialog")
        term.keys("Tab")
        term.wait_cursor_on(r"or type one", "the focus in the reader box")
        term.type("probe:pypdf")
        term.wait_for(r"or type one\s+probe:pypdf", "the reader typed")
        term.keys("Enter")
        # A second probe:pypdf row in the list (the sample has one); at 160x48 its detail too.
        shown = term.wait_for(r"(✔ pass\s+probe:pypdf text[\s\S]*){2}", "the probe's verdict")
        assert "Answers" in shown
        if size == (160, 48):
            term.wait_for(r"✔ pass\s+probe:pypdf\s+· gold v1", "the verdict's detail")
            assert "found the expected $44,879.86" in term.screen()
        assert (suite / "runs" / "asked.jsonl").exists()

        # r: the runs, the answer just asked among them (and the sample's own).
        term.keys("r")
        term.wait_for(r"pass rate per reader", "the runs")
        # Each row's figures waited for on its own line (a capture between the header's frame and
        # the rows' showed them half drawn).
        term.wait_for(r"(?m)^\s*asked\s.*100\.0% \[20\.7-100\.0\] 1/1", "the asked answer's pass rate")
        term.wait_for(r"(?m)^\s*probe-pypdf\s.*9\.1% \[3\.1-23\.6\] 3/33", "the sample run's pass rate")
        term.keys("Escape")
        term.wait_for(r"pdfworkbench — suite ", "back to Inspect")

        # t: triage; the mini sample has no disputes.
        term.keys("t")
        term.wait_for(r"no disputes", "triage")
        term.keys("Escape")
        term.wait_for(r"pdfworkbench — suite ", "back to Inspect")

        # q quits: the process ends and tmux's pane (the only one) goes with it.
        term.keys("q")
        end = time.monotonic() + DEADLINE
        while term.alive():
            assert time.monotonic() < end, f"still running after q:\n{term.screen()}"
            time.sleep(0.2)
    finally:
        term.kill()
