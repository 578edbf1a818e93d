"""The app's Textual themes and its stylesheets (app.tcss and screens.tcss, beside this file)."""

from __future__ import annotations

from pathlib import Path

from textual.theme import Theme

# The first screen's stylesheet (the app's CSS_PATH), and every other screen's (each such screen's
# CSS_PATH: read when the first of them is shown, not before the workbench's first frame).
STYLESHEET = Path(__file__).with_name("app.tcss")
SCREENS_STYLESHEET = str(Path(__file__).with_name("screens.tcss"))

# App-specific variables used in app.tcss as $name.
_VARS_DARK = {"evidence-expected": "#3fb950", "evidence-forbidden": "#f85149", "hidden-text": "#d29922"}
_VARS_LIGHT = {"evidence-expected": "#1a7f37", "evidence-forbidden": "#cf222e", "hidden-text": "#9a6700"}

THEMES = {
    "workbench-dark": Theme(
        name="workbench-dark", dark=True, primary="#58a6ff", secondary="#bc8cff", accent="#d29922",
        warning="#d29922", error="#f85149", success="#3fb950", background="#0d1117", surface="#161b22",
        panel="#1f2630", foreground="#e6edf3", variables=_VARS_DARK,
    ),
    "workbench-light": Theme(
        name="workbench-light", dark=False, primary="#0969da", secondary="#8250df", accent="#9a6700",
        warning="#9a6700", error="#cf222e", success="#1a7f37", background="#ffffff", surface="#f6f8fa",
        panel="#eaeef2", foreground="#1f2328", variables=_VARS_LIGHT,
    ),
    "workbench-high-contrast": Theme(
        name="workbench-high-contrast", dark=True, primary="#ffff00", secondary="#00ffff", accent="#ff00ff",
        warning="#ffff00", error="#ff4040", success="#00ff00", background="#000000", surface="#000000",
        panel="#1a1a1a", foreground="#ffffff",
        variables={"evidence-expected": "#00ff00", "evidence-forbidden": "#ff4040", "hidden-text": "#ffff00"},
    ),
}
DEFAULT_THEME = "workbench-dark"
