"""How an outcome looks on screen: one mark (symbol, word, style) per outcome word of
`workbench.grading.outcome`, used by the case list, the answers pane and the Runs screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.text import Text

from workbench.grading.outcome import OUTCOMES, Outcome


class Mark(NamedTuple):
    symbol: str
    word: str
    style: str


_NOT_FINISHED = "bold magenta"
MARKS: dict[str, Mark] = {
    "pass": Mark("✔", "pass", "bold green"),
    "fail": Mark("✘", "fail", "bold red"),
    "trap": Mark("◆", "fell for trap", "bold red"),
    "refused": Mark("⊘", "refused", "bold yellow"),
    "unparsable": Mark("?", "unparsable", "bold yellow"),
    "truncated": Mark("…", "truncated", "bold yellow"),
    "errored": Mark("!", "errored", _NOT_FINISHED),
    "timed_out": Mark("!", "timed out", _NOT_FINISHED),
    "blocked": Mark("!", "blocked", _NOT_FINISHED),
    "cancelled": Mark("!", "cancelled", _NOT_FINISHED),
    "deadline": Mark("⏱", "deadline (zero)", "bold red"),
    "turn_limit": Mark("⏱", "turn limit (zero)", "bold red"),
    "no_submission": Mark("∅", "no submission (zero)", "bold red"),
    "no_key": Mark("·", "no key", "dim"),
}
assert set(MARKS) == set(OUTCOMES)


def lint_status(findings: Iterable) -> str:
    """A case's lint status from its lint findings: error, warning or ok."""
    severities = {f.severity for f in findings}
    if "error" in severities:
        return "error"
    if "warning" in severities:
        return "warning"
    return "ok"


# A case's lint status, the first mark in the case list (None: not linted yet).
LINT_MARKS: dict[str | None, Mark] = {
    "ok": Mark("✔", "armed", "green"),
    "warning": Mark("▲", "warning", "yellow"),
    "error": Mark("✘", "broken", "bold red"),
    None: Mark("·", "not linted yet", "dim"),
}


def legend(marks: dict) -> str:
    """`✔ pass, ✘ fail, ! errored/timed out/...`: each symbol once, with every word it stands
    for (the case list's help and the README say it in these words; a test compares them)."""
    words: dict[str, list[str]] = {}
    for mark in marks.values():
        words.setdefault(mark.symbol, []).append(mark.word)
    return ", ".join(f"{symbol} {'/'.join(said)}" for symbol, said in words.items())


def mark_of(outcome: Outcome) -> Mark:
    return MARKS[outcome.kind]


def mark_text(outcome: Outcome, width: int = 0) -> Text:
    """`✔ pass` in the outcome's style, padded to `width`."""
    m = mark_of(outcome)
    return Text(f"{m.symbol} {m.word}".ljust(width), style=m.style)


# Where a value of an answer came from (one per `workbench.checks.sources.SOURCES`, which is not
# imported here: it pulls in the PDF analysis; tests check the two agree): the colour it is
# underlined in, in the Answers tab and the Runs screen.
SOURCE_STYLES: dict[str, str] = {
    "injected": "bold magenta",
    "question": "cyan",
    "small_print": "yellow",
    "rotated": "yellow",
    "low_contrast": "yellow",
    "other_page": "blue",
    "visible": "green",
    "hidden": "bold dark_orange",
    "computed": "bright_cyan",
    "misread": "bright_yellow",
    "absent": "bold red",
}


def source_text(source: str) -> Text:
    """`hidden` in its source's colour (a wrong answer with no value: `no-value`, dim)."""
    return Text(source.replace("_", " "), style=SOURCE_STYLES.get(source, "dim"))
