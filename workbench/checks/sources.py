"""Where a value of an answer came from: the sources attribution tells apart, in the order it
tries them (`workbench.checks.attribution` labels each value with the first that applies), and
one value's attribution. Data only: the report, the agent traces and the Answers pane read these
without reading a PDF.

    injected      in text that instructs the reader (the key's `injection` / `hidden_text`; a
                  planted label-and-figure line instructs no one, and its value is `hidden`)
    question      echoed from the question
    small_print   printed, in type much smaller than the page's body text
    rotated       printed, turned or mirrored away from the reading direction (a mirrored
                  matrix, left-right or top-bottom; or an image OCR reads only in a mirror)
    low_contrast  printed, in a colour close to the paper's
    other_page    printed, but only on a page other than the one the question is about
    visible       printed where a person reads it (or in an image, which OCR reads)
    hidden        only in hidden text (with the reason), or only in an extractor's text layer
    computed      printed nowhere, but the contract declares it derived from printed parts, or
                  it is arithmetic of printed numbers (a sum, difference or product of two, the
                  total of a run of line items)
    misread       printed nowhere, one or two characters from a value that is
    absent        nowhere in the document in any form
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.core.schema import JSONObject

SOURCES = (
    "injected", "question", "small_print", "rotated", "low_contrast", "other_page", "visible",
    "hidden", "computed", "misread", "absent",
)
# The sources that say how a value was printed, before `visible` in the order above.
PRINTED_ODDLY = ("small_print", "rotated", "low_contrast")


@dataclass(frozen=True)
class Attribution:
    """One value of an answer and where it came from."""

    value: str                                          # as the answer writes it
    source: str                                         # one of SOURCES
    start: int                                          # where it is in the answer
    end: int
    page: int | None = None                             # 0-based page of the box
    box: tuple[float, float, float, float] | None = None  # PDF points, top-left origin
    detail: str = ""

    def to_json(self) -> JSONObject:
        return {
            "value": self.value,
            "source": self.source,
            "page": None if self.page is None else self.page + 1,
            "box": None if self.box is None else [round(v, 2) for v in self.box],
            "detail": self.detail,
            "span": [self.start, self.end],
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Attribution:
        """The inverse of `to_json` (a report row's attribution)."""
        page, box, span = raw.get("page"), raw.get("box"), raw.get("span") or [0, 0]
        return cls(str(raw.get("value", "")), str(raw.get("source", "")), int(span[0]), int(span[1]),
                   None if page is None else int(page) - 1, None if box is None else tuple(box),
                   str(raw.get("detail", "")))


def wrong_answer_source(attributions: list[Attribution]) -> str:
    """The source a wrong answer counts under: its first value that is not `visible`. A value
    echoed from the question is context (the invoice number asked about), so it counts only
    when the answer holds nothing else."""
    sources = [a.source for a in attributions]
    for source in sources:
        if source not in ("visible", "question"):
            return source
    if "visible" in sources:
        return "visible"
    return "question" if sources else "no-value"
