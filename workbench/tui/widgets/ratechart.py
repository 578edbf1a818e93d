"""A pass-rate chart in characters: sections of rows (a reader, a family), each a bar filled to
the pass rate with its Wilson 95% interval as whiskers (`workbench.grading.textchart`), sized to
the widget's width on every render."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from workbench.grading.textchart import rate_rows

# How each kind of cell looks: the bar green, its part within the interval lighter, whiskers dim.
STYLES = {"bar": "green", "bar_ci": "#7fd19b", "ci": "bold", "empty": ""}
FIGURES_WIDTH = 26     # "100.0% [100.0-100.0] 1276/1276" minus what rarely happens
MIN_BAR = 10


@dataclass(frozen=True)
class Section:
    title: str
    items: list[tuple[str, int, int, tuple[float, float] | None]]   # label, passed, scored, interval


class RateChart(Static):
    DEFAULT_CSS = "RateChart { height: auto; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sections: list[Section] = []

    def show(self, sections: list[Section]) -> None:
        self.sections = sections
        self.refresh(layout=True)

    def render(self) -> Text:
        out = Text()
        labels = [label for s in self.sections for label, *_ in s.items]
        if not labels:
            return Text("")
        width = max(20, self.size.width - 2)
        label_w = min(max(len(x) for x in labels), max(8, width // 3))
        bar_w = max(MIN_BAR, width - label_w - FIGURES_WIDTH - 4)
        for n, section in enumerate(self.sections):
            if n:
                out.append("\n")
            out.append(section.title + "\n", style="bold")
            for row in rate_rows(section.items, bar_w):
                out.append(f"{row.label[:label_w]:<{label_w}}  ")
                for cell in row.cells:
                    out.append(cell.char, style=STYLES[cell.kind])
                out.append(f"  {row.figures}\n")
        out.rstrip()
        return out

    def plain_lines(self) -> list[str]:
        """What the chart shows, as text (for tests)."""
        return self.render().plain.splitlines()
