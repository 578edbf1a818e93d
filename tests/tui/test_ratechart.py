"""The pass-rate chart (workbench/tui/widgets/ratechart.py) in a small app of its own: a section a
title, a row a label, a bar sized to the widget's width with its interval, and the figures; a
long label cut to a third of the width; nothing for no rows."""

from __future__ import annotations

from tests.support.fixtures import screen_text
from tests.support.widget_host import WidgetHost
from workbench.tui.widgets.ratechart import RateChart, Section

SECTIONS = [Section("by reader", [("openai:gpt-4o", 3, 4, (0.30, 0.95)), ("probe:pypdf", 0, 0, None)]),
            Section("by family", [("hidden_ocr_mismatch_with_a_long_name", 1, 2, (0.09, 0.91))])]


async def test_each_section_and_row_fits_the_width_it_is_given():
    app = WidgetHost(lambda: [RateChart(id="chart")])
    async with app.run_test(size=(80, 12)) as pilot:
        chart = app.query_one(RateChart)
        assert chart.plain_lines() == []
        chart.show(SECTIONS)
        await pilot.pause()
        lines = chart.plain_lines()
        assert [lines[0], lines[3], lines[4]] == ["by reader", "", "by family"]
        assert lines[1].startswith("openai:gpt-4o  ") and lines[1].endswith(" 75.0% [30.0-95.0] 3/4")
        assert lines[2].startswith("probe:pypdf  ") and lines[2].endswith("n/a  nothing scored")
        figures = "  75.0% [30.0-95.0] 3/4"

        def label_and_bar(line: str) -> tuple[int, int]:
            label_w = min(36, (chart.size.width - 2) // 3)           # a long label: a third of the width
            return label_w, len(line) - label_w - 2 - len(figures)

        label_w, bar = label_and_bar(lines[1])
        assert lines[5].startswith("hidden_ocr_mismatch_with_a_long_name"[:label_w] + "  ") and label_w < 36
        assert len(lines[1]) <= chart.size.width - 2
        await pilot.resize_terminal(110, 12)                          # 30 columns more: label and bars take them
        await pilot.pause()
        wider = chart.plain_lines()
        wide_label, wide_bar = label_and_bar(wider[1])
        assert wider[5].startswith("hidden_ocr_mismatch_with_a_long_name"[:wide_label] + "  ")
        assert (wide_label - label_w) + (wide_bar - bar) == 30 and wide_bar > bar
        assert "75.0% [30.0-95.0] 3/4" in screen_text(app)
