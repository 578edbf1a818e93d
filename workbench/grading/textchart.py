"""Charts drawn with characters, for terminals: a pass rate as a bar with its Wilson 95% interval
as whiskers. Pure text (no Textual): the Runs screen styles the cells by their kind.

    probe:pymupdf  ███▏──────┤                     12.1% [4.8-27.3] 4/33

The bar is filled to the rate (eighth blocks at its end); the interval runs from `├` to `┤`
(drawn over empty cells as `─`; over the bar, its cells are of kind `bar_ci`, shaded apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(frozen=True)
class Cell:
    char: str
    kind: str    # bar | bar_ci (the bar, within the interval) | ci | empty


def rate_cells(rate: float | None, ci: tuple[float, float] | None, width: int) -> list[Cell]:
    """`width` cells: the bar filled to `rate`, the interval `ci` as whiskers."""
    width = max(1, width)
    filled = 0.0 if rate is None else max(0.0, min(1.0, rate)) * width
    lo_i = hi_i = -1
    if ci is not None:
        lo_i = min(width - 1, int(ci[0] * width))
        hi_i = min(width - 1, int(ci[1] * width))
    cells = []
    for i in range(width):
        in_ci = lo_i <= i <= hi_i and ci is not None
        bar = "bar_ci" if in_ci else "bar"
        if i + 1 <= filled:
            cells.append(Cell("█", bar))
        elif i < filled:
            cells.append(Cell(_EIGHTHS[max(1, int((filled - i) * 8))], bar))
        elif in_ci:
            cells.append(Cell("├" if i == lo_i else "┤" if i == hi_i else "─", "ci"))
        else:
            cells.append(Cell(" ", "empty"))
    return cells


@dataclass(frozen=True)
class ChartRow:
    label: str
    cells: list[Cell]
    figures: str      # "12.1% [4.8-27.3] 4/33"


def rate_rows(items: Sequence[tuple[str, int, int, tuple[float, float] | None]], width: int) -> list[ChartRow]:
    """One row per (label, passed, scored, interval), the bar `width` cells wide."""
    rows = []
    for label, passed, scored, ci in items:
        rate = passed / scored if scored else None
        figures = (f"{100 * rate:5.1f}% [{100 * ci[0]:.1f}-{100 * ci[1]:.1f}] {passed}/{scored}"
                   if rate is not None and ci is not None else "  n/a  nothing scored")
        rows.append(ChartRow(label, rate_cells(rate, ci if scored else None, width), figures))
    return rows


def render_rows(rows: Sequence[ChartRow], label_width: int) -> list[str]:
    """The rows as plain lines (what a test or a log reads)."""
    return [f"{r.label[:label_width]:<{label_width}}  {''.join(c.char for c in r.cells)}  {r.figures}" for r in rows]
