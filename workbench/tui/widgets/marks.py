"""How an outcome looks on screen: one mark (symbol, word, style) per outcome word of
`workbench.grading.outcome`, used by the case list, the answers pane and the Runs screen."""

from __future__ import annotations

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
    "no_key": Mark("·", "no key", "dim"),
}
assert set(MARKS) == set(OUTCOMES)


def mark_of(outcome: Outcome) -> Mark:
    return MARKS[outcome.kind]


def mark_text(outcome: Outcome, width: int = 0) -> Text:
    """`✔ pass` in the outcome's style, padded to `width`."""
    m = mark_of(outcome)
    return Text(f"{m.symbol} {m.word}".ljust(width), style=m.style)
